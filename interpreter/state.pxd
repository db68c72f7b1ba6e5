# The State's fields as C members (setup.py compiles this module with it): compiled code that knows an object is a
# StateData reads a field directly instead of through Python's attribute lookup, and works on a typed one (a list,
# a dict, a C integer) without looking up its methods. The same names as engine.State.__slots__, which are the
# fields when the classes run from source (tests/test_native.py).
cdef class StateData:
    cdef public list zones, where, face, known, seen, gvars, pvars, kvars, stack, observations, shuffles, after
    cdef public dict memo
    cdef public tuple seats
    cdef public long steps, step_limit, call_depth, decisions
    cdef public bint over, counting, moves_heard
    cdef public tuple slot_arrival
    cdef public object n, seed, rng, ids, decision, log, final, timed, arrivals, game, lay, all_mask


# A pending decision: one is made at every decision of every game, and a plain class's construction is a Python
# call with a setattr per field.
cdef class Decision:
    cdef public object players, values, labels, keys, prompt, point, answers, kinds, closed
