# World as an extension type of the State's chain (state.pxd): its moves are C methods that compiled callers —
# the engine and a game's compiled rules — call directly; a Python subclass still overrides any of them.
from interpreter.state cimport StateData

cdef class World(StateData):
    cpdef _enter(self, c, slot, facing)
    cpdef move(self, cards, dest, place, facing, span)
    cpdef move_top(self, src, k, dest, place, facing, span)
    cpdef move_all(self, src, dest, place, facing, span)
    cpdef _put(self, cards, src, srcs, dest, place, facing, span)
    cpdef _take(self, cards, srcs, src)
    cpdef shuffle(self, slot)
    cpdef peek(self, cards, who)
    cpdef reveal(self, cards)
    cpdef turn(self, cards, up)
    cpdef write_vars(self, writes, span)
    cpdef set_gvar(self, i, value, span)
    cpdef set_pvar(self, i, p, value, span)
    cpdef set_kvar(self, i, key, value, span)
    cpdef _set(self, v, group, i, key, row, at, value, span)
    cpdef _changed(self, changes)
    cpdef _check_min(self, v, value, span)
    cpdef write_log(self, text)
