# The State's fields as C members (setup.py compiles this module with it): compiled code that knows an object is a
# StateData reads a field directly instead of through Python's attribute lookup. Kept in step with state.FIELDS
# and engine.State.__slots__ (tests/test_native.py).
cdef class StateData:
    cdef public object n, seed, rng, ids, gvars, pvars, kvars, zones, where, face, known, seen, stack
    cdef public object decision, log, observations, shuffles, over, after, steps, decisions, final, timed
    cdef public object arrivals
    cdef public object game, lay, seats, all_mask, call_depth, memo, step_limit
