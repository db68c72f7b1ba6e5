# cython: language_level=3
"""An agent's draws from its random.Random in C (setup.py compiles this; interpreter/draws.py uses it when it is
there): the numbers `randrange` and `shuffle` give, drawn by the same algorithm (`_randbelow`'s rejection loop
over `getrandbits`) without Python frames; tests/test_generator.py compares them draw for draw."""
import random as _random

cdef extern from *:
    int __builtin_clzll(unsigned long long)

cdef object _Random = _random.Random


cdef inline object _below(object getrandbits, Py_ssize_t n):
    """random.Random._randbelow_with_getrandbits: k = n.bit_length() bits drawn until the number is below n."""
    cdef int k = 64 - __builtin_clzll(<unsigned long long>n)
    cdef object r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def randrange(object rng, object n):
    """`rng.randrange(n)`, the same number drawn the same way (a random.Random: its `_randbelow`)."""
    if type(rng) is not _Random or type(n) is not int or not 0 < n < (1 << 62):
        return rng.randrange(n)
    return _below(rng.getrandbits, n)


def shuffle_list(object rng, list items):
    """`rng.shuffle(items)`, the same swaps in the same order (a random.Random: Fisher-Yates by `_randbelow`)."""
    if type(rng) is not _Random or len(items) >= (1 << 62):
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    cdef Py_ssize_t i = len(items) - 1
    cdef Py_ssize_t j
    while i > 0:
        j = _below(getrandbits, i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1
