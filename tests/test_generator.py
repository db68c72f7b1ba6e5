"""The seeded generator: SplitMix64, its draws pinned, the batched shuffle equal to one draw at a time, and the
compiled draws (interpreter/_rng.pyx) equal to the Python ones; an agent's draws (interpreter/draws.py) equal to
random.Random's."""
import random

import pytest

from interpreter import draws
from interpreter import state as state_module
from interpreter.state import Rng

compiled = pytest.mark.skipif(state_module._C is None,
                              reason="the generator runs as Python here (a pure install, or WISHDSL_PURE=1)")
agents_compiled = pytest.mark.skipif(draws._C is None, reason="an agent's draws run as Python here")


def one_at_a_time(seed: int, items: list) -> tuple:
    """Fisher-Yates from the last item down with `below` (in Python): what a shuffle means."""
    rng = Rng(seed)
    for i in range(len(items) - 1, 0, -1):
        j = state_module.below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
    return items, rng.s


def test_draws_are_pinned():
    """A change of the generator changes every seeded game: it must be noticed (and saves' format bumped)."""
    rng = Rng(1)
    assert [rng.next64() for _ in range(2)] == [10451216379200822465, 13757245211066428519]
    items = list(range(10))
    rng = Rng(1)
    rng.shuffle(items)
    assert items == [4, 2, 8, 1, 9, 3, 0, 6, 7, 5] and rng.s == 10372713005361028286


@pytest.mark.parametrize("size", [0, 1, 2, 3, 33, 256, 257, 600, 1500])
def test_batched_shuffle_is_one_draw_at_a_time(size):
    """Batches of up to 256 draws, lists longer than a batch and than the table of rejection bounds."""
    for seed in (0, 1, 2**63 + 5, 2**64 - 1):
        rng = Rng(seed)
        items = list(range(size))
        state_module.shuffle(rng, items)
        assert (items, rng.s) == one_at_a_time(seed, list(range(size)))


def test_rejected_draws_are_skipped_as_below_skips_them(monkeypatch):
    """Rejections are astronomically rare with the real bounds; with bounds that reject about half of all
    draws, the batched shuffle must still skip exactly the draws `below` skips."""
    monkeypatch.setattr(state_module, "LIMITS", tuple(1 << 63 for _ in range(1025)))
    for seed in range(20):
        rng = Rng(seed)
        items = list(range(300))
        state_module.shuffle(rng, items)
        assert (items, rng.s) == one_at_a_time(seed, list(range(300)))
        assert sorted(items) == list(range(300))


@compiled
@pytest.mark.parametrize("size", [0, 1, 2, 3, 33, 256, 257, 1500])
def test_the_compiled_shuffle_is_the_python_one(size):
    draws = random.Random(size)
    for seed in (0, 1, 2**63 + 5, 2**64 - 1, *[draws.getrandbits(64) for _ in range(30)]):
        rng = Rng(seed)
        items = [f"card {k}" for k in range(size)]
        rng.shuffle(items)
        assert (items, rng.s) == one_at_a_time(seed, [f"card {k}" for k in range(size)])


@compiled
@pytest.mark.parametrize("n", [1, 2, 3, 7, 1024, 1025, 2**32 + 1, 2**63 - 1, 2**63 + 1, 2**64 - 1])
def test_the_compiled_draws_are_the_python_ones_rejections_included(n):
    """Near 2**63 about half of all draws are rejected, and the compiled draw must skip the same ones."""
    for seed in range(200):
        c, p = Rng(seed), Rng(seed)
        assert [c.below(n) for _ in range(5)] == [state_module.below(p, n) for _ in range(5)]
        assert c.s == p.s


def test_a_tuple_or_a_pure_install_shuffles_in_python():
    """`shuffle` takes any mutable sequence; the compiled one takes lists, anything else goes to the Python one."""
    class Cards(list):
        pass

    items = Cards(range(40))
    rng = Rng(9)
    rng.shuffle(items)
    assert (list(items), rng.s) == one_at_a_time(9, list(range(40)))


@agents_compiled
@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 64, 1000, 1025, 2**31 + 1, 2**61 + 1, 2**62 - 1, 2**62, 2**70 + 3])
def test_an_agents_draws_in_c_are_random_randrange(n):
    """interpreter/draws.py: the same numbers as `random.Random.randrange`, and the generator left the same
    (sizes just above a power of two reject half of all draws; from 2**62 the Python method is called)."""
    for seed in range(60):
        a, b = random.Random(seed), random.Random(seed)
        assert [draws.randrange(a, n) for _ in range(4)] == [b.randrange(n) for _ in range(4)]
        assert a.getstate() == b.getstate()


@agents_compiled
@pytest.mark.parametrize("size", [0, 1, 2, 3, 17, 33, 256, 1000])
def test_an_agents_shuffle_in_c_is_random_shuffle(size):
    for seed in range(30):
        a, b = random.Random(seed), random.Random(seed)
        mine, theirs = list(range(size)), list(range(size))
        draws.shuffle(a, mine)
        b.shuffle(theirs)
        assert mine == theirs and a.getstate() == b.getstate()


def test_an_agents_draws_with_another_generator_or_bad_input_are_the_methods():
    class Loaded(random.Random):
        def getrandbits(self, k):
            return 0

    assert draws.randrange(Loaded(1), 10) == Loaded(1).randrange(10) == 0
    items = list(range(5))
    draws.shuffle(Loaded(1), items)
    assert items == [1, 2, 3, 4, 0]  # every swap with the first item, as Loaded's own shuffle does
    for bad in (0, -3):  # the method's own errors
        with pytest.raises(ValueError):
            draws.randrange(random.Random(1), bad)
    with pytest.raises(ValueError), pytest.warns(DeprecationWarning):
        draws.randrange(random.Random(1), 2.5)
