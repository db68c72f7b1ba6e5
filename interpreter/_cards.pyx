# cython: language_level=3
"""The per-card loops of shuffles, peeks and option lists in C (setup.py compiles this; interpreter/world.py uses it
when it is there): the same reads and writes of the world's lists as the Python functions of the same names in
world.py, which are the reference (tests/test_cards.py compares the two). A card move's loop (`world.arrive`) is
typed in C by world.pxd instead, so that the move calls it as a C function."""
from cpython.mem cimport PyMem_Free, PyMem_Malloc


def forget(list zone, list face, list known, object keep):
    """After a shuffle of `zone`: its face-down cards are known only to `keep` (of those who knew them).
    Returns those cards."""
    cdef Py_ssize_t c
    cdef list hidden = []
    for card in zone:
        c = card
        if not face[c]:
            known[c] = known[c] & keep
            hidden.append(card)
    return tuple(hidden)


def learn(list known, list seen, object cards, object bit):
    """`bit`'s player knows these cards now (and has seen them)."""
    cdef Py_ssize_t c
    for card in cards:
        c = card
        known[c] = known[c] | bit
        seen[c] = seen[c] | bit


def distinct(values, object of, list where, list known, object bit):
    """One of each group of card options a player cannot tell apart: the cards they know, by definition and zone;
    each card they do not know stands for itself."""
    cdef Py_ssize_t c, i, j, n = len(values)
    cdef long long key
    cdef long long *keys = <long long *> PyMem_Malloc(max(n, 1) * sizeof(long long))
    cdef list out = []
    if keys == NULL:
        raise MemoryError()
    try:
        i = 0
        for v in values:
            c = v
            if known[c] & bit:  # a known card: its definition and zone (below zero, apart from the cards)
                key = -1 - (<long long>of[c] * 1048576 + <long long>where[c])
            else:
                key = c
            for j in range(i):
                if keys[j] == key:
                    break
            else:
                keys[i] = key
                i += 1
                out.append(v)
        return tuple(out)
    finally:
        PyMem_Free(keys)


def by_definition(tuple of, Py_ssize_t ndefs):
    """Per card definition, the instances that are it, in order (`of[c]`: instance c's definition)."""
    cdef list by_def = [[] for _ in range(ndefs)]
    cdef Py_ssize_t c
    for c in range(len(of)):
        (<list>by_def[<Py_ssize_t>of[c]]).append(c)
    return tuple([tuple(cs) for cs in by_def])
