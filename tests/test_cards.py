"""The per-card loops in C (interpreter/_cards.pyx) against their reference in Python (interpreter/world.py): the
same lists written, the same values returned, for any cards, masks and zones."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter import tables, world

C = world._C
pytestmark = pytest.mark.skipif(C is None, reason="the engine is not compiled here (pure Python)")

N = 12
masks = st.integers(min_value=0, max_value=(1 << 70) - 1)  # more players than a C long would hold
lists = st.tuples(st.lists(st.integers(0, 5), min_size=N, max_size=N), st.lists(st.booleans(), min_size=N, max_size=N),
                  st.lists(masks, min_size=N, max_size=N), st.lists(masks, min_size=N, max_size=N))
cards = st.lists(st.integers(0, N - 1), unique=True, max_size=N)


def copies(data):
    return tuple(list(x) for x in data)


@given(lists, cards, masks)
def test_forget(data, zone, keep):
    (_, face, known, _), (_, face2, known2, _) = copies(data), copies(data)
    assert C.forget(list(zone), face, known, keep) == world.forget(list(zone), face2, known2, keep)
    assert known == known2


@given(lists, cards, masks, st.sampled_from([tuple, list]))
def test_learn(data, seen_cards, bit, kind):
    (_, _, known, seen), (_, _, known2, seen2) = copies(data), copies(data)
    C.learn(known, seen, kind(seen_cards), bit)
    world.learn(known2, seen2, kind(seen_cards), bit)
    assert (known, seen) == (known2, seen2)


@given(lists, st.lists(st.integers(0, N - 1), max_size=2 * N), masks, st.sampled_from([tuple, list]))
def test_distinct(data, values, bit, kind):
    where, _, known, _ = data
    of = tuple(c % 4 for c in range(N))  # four definitions
    assert C.distinct(kind(values), of, where, known, bit) == world.distinct(kind(values), of, where, known, bit)


@given(st.lists(st.integers(0, 6), max_size=3 * N), st.integers(0, 3))
def test_by_definition(of, more):
    ndefs = max(of, default=-1) + 1 + more  # definitions with no instance too
    assert C.by_definition(tuple(of), ndefs) == tables.by_definition(tuple(of), ndefs)


def test_a_card_outside_the_lists_is_an_error_in_both():
    for fn in (C.learn, world.learn):
        with pytest.raises(IndexError):
            fn([0] * 3, [0] * 3, (5,), 1)
