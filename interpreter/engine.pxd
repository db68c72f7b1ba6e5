# The State, last of its chain of extension types (state.pxd), and the Action an option is read as: a playout
# reads an Action and answers it at every decision.
cimport cython

from interpreter.machine cimport Machine
from interpreter.state cimport Decision


cdef class Action:
    cdef public object player, _label, _decision, _index, _state


cdef class State(Machine):
    @cython.locals(d=Decision)
    cpdef legal_actions(self, player=*)
    @cython.locals(d=Decision, a=Action)
    cpdef apply(self, action, player=*)
    cpdef _answer(self, Decision d, player, j)
