# cython: language_level=3, boundscheck=False, wraparound=False
"""The generator's draws in C (setup.py compiles this; interpreter/state.py uses it when it is there): SplitMix64
on one 64-bit word, the same draws, rejections and swaps as `Rng.below` and `Rng.shuffle` in Python, which are
the reference (tests/test_generator.py compares the two, rejections included)."""

cdef unsigned long long GAMMA = 0x9E3779B97F4A7C15
cdef unsigned long long MIX1 = 0xBF58476D1CE4E5B9
cdef unsigned long long MIX2 = 0x94D049BB133111EB
cdef unsigned long long ALL = 0xFFFFFFFFFFFFFFFF


cdef inline unsigned long long draw(unsigned long long *s, unsigned long long n):
    """A uniform integer in [0, n): a draw at or above 2**64 - (2**64 mod n) is rejected, the next one taken."""
    cdef unsigned long long z
    cdef unsigned long long zero = 0
    cdef unsigned long long rem = (zero - n) % n  # 2**64 mod n
    while True:
        s[0] += GAMMA
        z = s[0]
        z = (z ^ (z >> 30)) * MIX1
        z = (z ^ (z >> 27)) * MIX2
        z ^= z >> 31
        if z <= ALL - rem:
            return z % n


def below(unsigned long long s, unsigned long long n):
    """(the generator's new state, a uniform integer in [0, n)) for n ≥ 1."""
    cdef unsigned long long r = draw(&s, n)
    return s, r


def shuffle(unsigned long long s, list items):
    """Fisher-Yates from the last item down, each index drawn as `below` draws it; returns the new state."""
    cdef Py_ssize_t i = len(items) - 1
    cdef Py_ssize_t j
    while i > 0:
        j = <Py_ssize_t>draw(&s, <unsigned long long>i + 1)
        items[i], items[j] = items[j], items[i]
        i -= 1
    return s
