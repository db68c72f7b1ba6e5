# World as an extension type of the State's chain (state.pxd): its moves are C methods that compiled callers —
# the engine and a game's compiled rules — call directly; a Python subclass still overrides any of them.
cimport cython

from interpreter cimport log
from interpreter.state cimport StateData


@cython.locals(c=Py_ssize_t, k=object, knew=list)
cpdef tuple arrive(list where, list face, list known, list seen, tuple cards, dest, bint up, everyone, keep)

cdef class World(StateData):
    cpdef _enter(self, c, slot)
    cpdef move(self, cards, dest, place, facing, span)
    @cython.locals(zone=list, cards=tuple)
    cpdef move_top(self, Py_ssize_t src, Py_ssize_t k, Py_ssize_t dest, place, facing, span)
    @cython.locals(zone=list, cards=tuple)
    cpdef move_all(self, Py_ssize_t src, Py_ssize_t dest, place, facing, span)
    @cython.locals(zone=list)
    cpdef _put(self, tuple cards, Py_ssize_t src, srcs, Py_ssize_t dest, place, facing, span)
    cpdef _take(self, cards, srcs, src)
    @cython.locals(za=Py_ssize_t, zb=Py_ssize_t, ia=Py_ssize_t, ib=Py_ssize_t)
    cpdef swap(self, a, b, span)
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
