"""An agent's draws from its `random.Random`: the numbers its own methods give, drawn in C when the engine is
compiled (interpreter/_draws.pyx, the same algorithm: tests/test_generator.py compares the two draw for draw)."""
from __future__ import annotations

try:
    from . import _draws as _C
except ImportError:
    _C = None


def py_randrange(rng, n: int) -> int:
    """`rng.randrange(n)`."""
    return rng.randrange(n)


def py_shuffle(rng, items: list) -> None:
    """`rng.shuffle(items)`."""
    rng.shuffle(items)


randrange = py_randrange if _C is None else _C.randrange
shuffle = py_shuffle if _C is None else _C.shuffle_list
