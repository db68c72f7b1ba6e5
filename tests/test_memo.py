"""Remembered function results on trial (runtime.memo_trial): whether a function's results are remembered changes
how fast a game runs, never what happens in it."""
import random

import pytest

from interpreter import load_game, load_source, runtime
from interpreter.agents import make_agents, play
from interpreter.runtime import MEMO_PAYS, MEMO_TRIAL, memo_trial

GAMES = [("games/wunschmaschine.wish", 4), ("games/three_wishes.wish", 4), ("games/wish.wish", 2)]


@pytest.mark.parametrize("found, worth", [
    (0, 0),
    (MEMO_TRIAL // MEMO_PAYS - 1, 0),  # one call in four, but for one: not worth it
    (MEMO_TRIAL // MEMO_PAYS, 2),  # one call in four found its result: remembered for good
    (MEMO_TRIAL, 2),
])
def test_a_function_is_remembered_when_one_call_in_four_finds_its_result(found, worth):
    decided, tried, hits = [1, 1], [0, 0], [0, 0]
    for i in range(MEMO_TRIAL):
        assert decided[1] == 1  # still on trial until its last call
        memo_trial(decided, tried, hits, 1, i < found)
    assert decided == [1, worth] and tried == [0, MEMO_TRIAL] and hits == [0, found]


SMALL = """game "Memo" {
  players 2..2
}
var x: int = 0
function total(n: int): int = sum(k for k in [1, 2, 3] if k <= n + x)
function depth(n: int): int = if n <= x then 0 else 1 + depth(n - 1)
play {
  x = total(2) + depth(3)
}
scoring p { score "x" x }
"""


def test_only_functions_that_neither_draw_nor_call_themselves_are_tried():
    """`total` walks a list: tried. `depth` calls itself: always remembered, so that its time stays bounded.
    (A function cannot draw: `random` is an effect. Both read `x`: a function of its arguments alone is
    remembered for good, `_LASTING`.)"""
    game = load_source(SMALL)
    source = game.rules.source
    assert "_trial(_WORTH, _TRIED, _FOUND, 0, False)" in source
    assert "_trial(_WORTH, _TRIED, _FOUND, 1," not in source and "def F1(" in source
    st = game.new_state(2, seed=1)
    assert st.is_over and st.scores() == [6, 6]


def playout(game, players: int, seed: int, worth) -> tuple:
    """A seeded game of random and MCTS players, every function's remembering set to `worth` (None: on trial from
    the start, as in a fresh process)."""
    ns = game.rules.namespace
    lists = [ns[name] for name in ("_WORTH", "_TRIED", "_FOUND")]
    saved = [list(values) for values in lists]
    for values, fresh in zip(lists, ([1 if worth is None else worth], [0], [0])):
        values[:] = fresh * len(values)
    try:
        st = game.new_state(players, seed=seed)
        agents = make_agents(["mcts:iterations=20;rollout=3"] + ["random"] * (players - 1), players, seed)
        play(st, agents, labels=False)
        return tuple(st.log_lines()), st.scores(), tuple(lists[0])
    finally:
        for values, old in zip(lists, saved):
            values[:] = old


@pytest.mark.parametrize("path, players", GAMES)
def test_a_game_plays_the_same_whether_results_are_remembered_or_not(path, players, monkeypatch):
    """Always remembered, never, or on trial with short trials (so that the decisions fall mid-game, some each
    way): the same log and scores."""
    monkeypatch.setattr(runtime, "MEMO_TRIAL", 30)
    game = load_game(path)
    for seed in random.Random(path).sample(range(10_000), 2):
        log, scores, _ = playout(game, players, seed, 2)
        assert playout(game, players, seed, 0)[:2] == (log, scores)
        tried_log, tried_scores, decided = playout(game, players, seed, None)
        assert (tried_log, tried_scores) == (log, scores)
        assert 0 in decided  # some function was found not worth remembering
