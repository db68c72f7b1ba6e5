# An entry of the effect stack as an extension type (setup.py compiles frames.py with this): a frame is pushed for
# every action, procedure block and trigger, and a plain class's construction is a Python call with a setattr per
# field.
cdef class Frame:
    cdef public object code, pc, env, kind, data, depth
