from interpreter.machine cimport Machine

cdef class State(Machine):
    pass
