# A game's end as extension types (setup.py compiles scoring.py with this): a game's end and every cut-off of a
# search make a Standing per player, and an attrs class's __init__ is a Python frame with a setattr per field.
cdef class _Record:
    pass

cdef class Standing(_Record):
    cdef readonly object player, score, points, breaks, lost

cdef class Outcome(_Record):
    cdef readonly object winners, tied, decided_by, shared
