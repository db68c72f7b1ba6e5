"""The seeded generator: SplitMix64, its draws pinned, and the batched shuffle equal to one draw at a time."""
import pytest

from interpreter import state as state_module
from interpreter.state import Rng


def one_at_a_time(seed: int, items: list) -> tuple:
    """Fisher-Yates from the last item down with `below`: what a shuffle means."""
    rng = Rng(seed)
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
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
        rng.shuffle(items)
        assert (items, rng.s) == one_at_a_time(seed, list(range(size)))


def test_rejected_draws_are_skipped_as_below_skips_them(monkeypatch):
    """Rejections are astronomically rare with the real bounds; with bounds that reject about half of all
    draws, the batched shuffle must still skip exactly the draws `below` skips."""
    monkeypatch.setattr(state_module, "LIMITS", tuple(1 << 63 for _ in range(1025)))
    for seed in range(20):
        rng = Rng(seed)
        items = list(range(300))
        rng.shuffle(items)
        assert (items, rng.s) == one_at_a_time(seed, list(range(300)))
        assert sorted(items) == list(range(300))
