# The log's entries written at every action and choice, reading the state's fields in C (StateData, state.pxd): a
# module of the State's chain (native.LAYOUT), compiled with it or not at all.
from interpreter.state cimport StateData

cpdef cards(StateData st, kind, tuple cards, extra=*)
cpdef frozen(StateData st, value, ty)
cpdef choice(StateData st, who, value, point)
cpdef action(StateData st, who, a, values)
