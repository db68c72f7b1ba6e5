# The machine's steps as C methods of the State's chain (state.pxd, world.pxd).
cimport cython

from interpreter cimport log
from interpreter.frames cimport Frame
from interpreter.world cimport World


cdef class Machine(World):
    @cython.locals(f=Frame, stack=list)
    cpdef run(self)
    cpdef push(self, code, env, kind, data, depth, span)
    cpdef counted(self, code)
    cpdef emit(self, key, args)
    cpdef trigger_holds(self, f)
    cpdef _holds(self, t, env)
    cpdef _trigger_envs(self, t)
    cpdef _flush_after(self)
