"""Runaway rules: every bound (trigger chains, loops, recursion, game length) stops the game with a clear error
that names the rule, its place `file:line:col`, and keeps the state; never a hang or a RecursionError."""
import inspect
import json
import sys
import time

import pytest

from interpreter import WishRuntimeError, engine, load_game, load_source, machine, runtime
from interpreter.state import STATE_FORMAT
from wishdsl.cli import main

HEAD = 'game "Runaway" {\n  players 1..2\n}\nvar x: int = 0\nplayer var pick: int = 0\n'
TAIL = 'scoring p { score "s" x }\n'
DEEP = "1 + (" * 60 + "depth(n - 1)" + ")" * 60

# name: (the rules, where the error points, words the error must hold)
CASES = {
    "trigger chain": ('event bump()\nwhen bump() {\n  x += 1\n  emit bump()\n}\nplay {\n  emit bump()\n}\n',
                      "7:1", ["chain of triggers", "when bump (line 7)"]),
    "trigger fan-out": ('event bump()\nwhen bump() {\n  emit bump()\n  emit bump()\n}\nplay {\n  emit bump()\n}\n',
                        "7:1", ["chain of triggers", "when bump (line 7)"]),
    "changed chain": ('when changed x(old, new) {\n  x = new + 1\n}\nplay {\n  x = 1\n}\n',
                      "6:1", ["chain of triggers", "when x changes (line 6)"]),
    "repeat": ('play {\n  repeat 1000000000 {\n    x += 1\n  }\n}\n', "7:3", ["repeat 1000000000 times", "10000"]),
    "while": ('procedure spin() {\n  while x >= 0 {\n    x += 1\n  }\n}\nplay {\n  spin()\n}\n',
              "7:16", ["loop ran 10000 times", "procedure spin"]),
    "nested loops": ('play {\n  while true {\n    repeat 9999 {\n      x += 1\n    }\n  }\n}\n',
                     "9:7", ["without a decision", "play"]),
    "procedure recursion": ('procedure spin() {\n  x += 1\n  spin()\n}\nplay {\n  spin()\n}\n',
                            "8:3", ["nested more than", "procedure spin"]),
    "function recursion": ('function depth(n: int): int = if n <= 0 then 0 else 1 + depth(n - 1)\n'
                           'play {\n  x = depth(100000)\n}\n', "6:57", ["function 'depth'", "200 deep"]),
    "deep function recursion": (f'function depth(n: int): int = if n <= 0 then 0 else {DEEP}\n'
                                'play {\n  x = depth(100000)\n}\n', "6:", ["function 'depth'", "too deep"]),
    "number growth": ('play {\n  x = 2\n  repeat 40 {\n    x = x * x\n  }\n}\n', "9:5",
                      ["a number of 20 digits", "at most 15 (999,999,999,999,999)"]),
    "number growth in a local": ('play {\n  let y = 3\n  repeat 40 {\n    y = y * y\n  }\n  x = 1\n}\n', "9:5",
                                 ["a number of 16 digits", "at most 15"]),
    "list growth": ('play {\n  let l = [1]\n  repeat 40 {\n    l = l + l\n  }\n  x = count(l)\n}\n', "9:5",
                    ["a list of 131,072 items", "at most 100,000"]),
    "text growth": ('play {\n  let t = "ab"\n  repeat 40 {\n    t = t + t\n  }\n}\n', "9:5",
                    ["a text of 131,072 characters", "at most 100,000"]),
    "bag growth": ('enum Coin { gold "Gold", silver "Silver" }\nvar purse: bag of Coin = bag(gold, 3)\nplay {\n'
                   '  repeat 80 {\n    purse += purse\n  }\n}\n', "10:5", ["a bag holding", "of one kind"]),
    "action options": ('var big: list of int = []\naction choose_two(a in big, b in big) {\n  x = a + b\n}\nplay {\n'
                       '  repeat 200 {\n    big = big + [count(big)]\n  }\n  act one of choose_two by first(players) '
                       'prompt "Pick"\n}\n', "7:1", ["action 'choose_two' has more than 10000 options"]),
    "endless game": ('play {\n  while true {\n    choose first(players).pick from [1, 2] by first(players) '
                     'prompt "Pick"\n  }\n}\n', "8:5", ["did not end within", "decisions"]),
}
# Cases run with a small Python stack: compiled rules use little of it per level of a function's expression,
# so that a deep recursion runs out of Python's stack before the depth limit of functions, as it may on a
# machine with a small stack; it must still be a clear error.
SMALL_STACK = {"deep function recursion"}


@pytest.fixture(autouse=True)
def small_bounds(monkeypatch):
    """The same bounds, ten times smaller, so that the tests run fast."""
    monkeypatch.setattr(machine, "MAX_RUN_STEPS", 20_000)
    monkeypatch.setattr(engine, "MAX_DECISIONS", 2_000)
    monkeypatch.setattr(runtime, "MAX_LOOP", 10_000)


def runaway(name):
    rules, where, words = CASES[name]
    return HEAD + rules + TAIL, where, words


def play_to_the_error(game):
    st = game.new_state(1, seed=1)
    while not st.is_over:
        st.apply(st.legal_actions()[0])
    return st


@pytest.mark.parametrize("name", list(CASES))
def test_a_runaway_rule_is_a_clear_error_with_the_state(name, request):
    src, where, words = runaway(name)
    game = load_source(src, "runaway.wish")
    if name in SMALL_STACK:
        limit = sys.getrecursionlimit()
        request.addfinalizer(lambda: sys.setrecursionlimit(limit))
        sys.setrecursionlimit(len(inspect.stack()) + 300)
    start = time.perf_counter()
    with pytest.raises(WishRuntimeError) as info:
        play_to_the_error(game)
    assert time.perf_counter() - start < 30
    err = info.value
    text = err.render()
    assert text.startswith(f"runaway.wish:{where}"), text
    for w in words:
        assert w in text, text
    assert err.state is not None
    loaded = game.state_from_json(err.state.to_json())
    assert loaded.to_json() == err.state.to_json()


@pytest.mark.parametrize("name", ["trigger chain", "procedure recursion", "endless game"])
def test_the_command_line_names_the_rule_and_keeps_the_state(name, tmp_path, monkeypatch, capsys):
    src, where, words = runaway(name)
    path = tmp_path / "runaway.wish"
    path.write_text(src, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["run", str(path), "--seed", "7", "--players", "1", "--agents", "random", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert f"{path}:{where}" in err and all(w in err for w in words)
    assert "  | " in err and "^" in err  # the line of the rule and a caret under it
    assert "wishdsl-crash-7.json" in err
    text = (tmp_path / "wishdsl-crash-7.json").read_text(encoding="utf-8")
    assert json.loads(text)["format"] == STATE_FORMAT
    state = load_source(src, str(path)).state_from_json(text)
    assert not state.is_over


def test_engine_invariants_see_amounts_out_of_bounds():
    src = HEAD.replace("player var pick: int = 0\n", "player var pick: int = 0 min 0\n") + (
        'enum Gem { ruby, jade }\nplayer var gems: bag of Gem = {}\ncard Card {\n  power: int = 0\n}\n'
        'zone deck: Card public limit 3\ncards Card in deck {\n  | name | count |\n  | "A"  | 2     |\n}\n'
        'play {\n  x = 1\n}\n' + TAIL)
    game = load_source(src, "amounts.wish")
    st = game.new_state(2, seed=1)
    assert st.broken_invariants() == []
    st.pvars[1][game.pvar_index["pick"]] = -1
    st.pvars[0][game.pvar_index["gems"]] = (0, -2)
    deck = st.zones[game.zone_base["deck"]]
    deck.extend([deck[0], deck[1]])
    assert st.broken_invariants() == ["a card is lost or in two places", "player 1 gems holds a negative amount",
                                      "player 2 pick is -1, below its minimum 0", "deck holds 4 cards, over its limit"]


def test_engine_invariants_see_knowledge_that_was_never_seen():
    """Who knows a card has seen it: a card moved into a zone nobody sees keeps both as they are (world._put)."""
    game = load_game("games/three_wishes.wish")
    st = game.new_state(3, seed=2)
    assert st.broken_invariants() == []
    card = st.zones[game.zone_base["centre"]][0]
    st.known[card] |= 1 << 2
    st.seen[card] &= ~(1 << 2)
    assert st.broken_invariants() == ["a player knows a card they never saw"]
