"""Behaviours pinned at their boundaries (issue 20, 16): each was found by changing the code and watching the
rest of the suite stay green — a limit one off, a check that never fails, a mask with the wrong bits."""
import shutil
from pathlib import Path

import pytest

from dsl.errors import WishError
from dsl.parser import parse
from interpreter import WishRuntimeError, check_program, load_game, load_source, machine
from interpreter.agents import make_agent, play
from wishdsl.scenario import run_file

ROOT = Path(__file__).resolve().parent.parent
HEAD = 'game "T" { players 1..2 }\nplayer var n: int = 0\nvar x: int = 1 min 0\n'
TAIL = 'scoring p { score "s" p.n }\n'


def state_of(body: str, players: int = 1):
    return load_source(HEAD + body + TAIL).new_state(players, seed=1)


def test_a_variable_may_reach_its_minimum_but_not_pass_it():
    st = state_of("play { x -= 1 }\n")
    assert st.is_over and st.gvars[st.game.gvar_index["x"]] == 0
    with pytest.raises(WishRuntimeError, match="'x' would fall to -1, below its minimum 0"):
        state_of("play { x -= 2 }\n")


@pytest.mark.parametrize("length, ok", [(machine.MAX_CHAIN, True), (machine.MAX_CHAIN + 1, False)])
def test_a_chain_of_triggers_may_be_exactly_as_long_as_its_limit(length, ok):
    body = (f"event bump(k: int)\nwhen bump(k) {{ if k > 1 {{ emit bump(k - 1) }} }}\n"
            f"play {{ emit bump({length}) }}\n")
    if ok:
        assert state_of(body).is_over
    else:
        with pytest.raises(WishRuntimeError, match=f"a chain of triggers did not end after {machine.MAX_CHAIN} "
                                                   "steps; it keeps firing: when bump"):
            state_of(body)


def test_a_game_that_never_ends_is_stopped_at_the_step_limit_and_says_which(monkeypatch):
    monkeypatch.setattr(machine, "MAX_STEPS", 3_000)
    body = 'play {\n  while true {\n    choose first(players).n from [1, 2] by first(players) prompt "Pick"\n  }\n}\n'
    st = load_source(HEAD + body + TAIL).new_state(1, 1)
    with pytest.raises(WishRuntimeError) as info:
        while not st.is_over:
            st.apply(st.legal_actions()[0])
    assert "the game ran 3,000 steps without ending" in str(info.value)


@pytest.mark.parametrize("source, message", [
    ('play { if 1 < "a" { x = 1 } }\n', "4:15: error: '<' compares numbers, found text"),
    ('play { if "a" < 1 { x = 1 } }\n', "4:11: error: '<' compares numbers, found text"),
    ("play { you.n += 1 }\n", "4:8: error: 'you' is only known in an action or an ability"),
])
def test_the_checker_refuses(source, message):
    with pytest.raises(WishError) as info:
        check_program(parse(HEAD + source + TAIL, "t.wish"))
    assert f"t.wish:{message}" in info.value.render()


def test_distinct_options_are_one_per_card_and_zone():
    """Two copies of a card in one zone are one option; a copy in another zone is another."""
    game = load_source('game "D" { players 1..1 }\ncard C { v: int = 0 }\nzone left: C public\nzone right: C public\n'
                       'var picked: C? = none\n'
                       'cards C in left {\n  | name | count |\n  | "A" | 2 |\n  | "B" | 1 |\n}\n'
                       'setup { move [c for c in left if c.name == "B"] to right }\n'
                       'play { choose picked from [c for c in left] + [c for c in right] distinct by first(players) '
                       'prompt "Pick" }\nscoring p { score "s" 0 }\n')
    st = game.new_state(1, seed=1)
    labels = [a.label for a in st.legal_actions()]
    assert len(labels) == 2 and len(set(labels)) == 2


def test_turning_a_card_face_up_teaches_everyone():
    game = load_source('game "F" { players 2..2 }\ncard C { v: int = 0 }\nzone deck: C hidden\n'
                       'cards C in deck {\n  | name | count |\n  | "A" | 3 |\n}\n'
                       'play { turn top 1 of deck face up }\nscoring p { score "s" 0 }\n')
    st = game.new_state(2, seed=1)
    top = st.zones[st.lay.slot_names.index("deck")][0]
    assert st.known[top] == 0b11 and st.face[top]
    assert all(st.known[c] == 0 for c in st.zones[st.lay.slot_names.index("deck")][1:])


def test_a_peek_is_named_in_the_peekers_log_only():
    st = load_game("games/three_wishes.wish").new_state(3, seed=0)
    st.apply("look")
    st.apply("peek at card 2 of centre")
    name = st.log_lines()[-1].rsplit("looks at ", 1)[1]
    assert st.view(0)["log"][-1] == f"player 1 looks at {name}"
    assert st.view(1)["log"][-1] == st.view(2)["log"][-1] == "player 1 looks at 1 card"


def test_a_scenario_that_expects_to_see_what_the_player_does_not_fails(tmp_path):
    """`expect: sees:` compares what the player's view shows: player 2 does not see the card player 1 peeked at."""
    shutil.copy(ROOT / "games" / "three_wishes.wish", tmp_path / "three_wishes.wish")
    path = tmp_path / "sees.yaml"
    text = ("game: three_wishes.wish\nplayers: 3\nseed: 0\ngiven:\n"
            '  player 1: {hand: ["Pet Dragon", "Treasure Chest", "Flying Carpet"]}\n'
            '  player 2: {hand: ["Universal Translator", "Teleportation Grid", "Clean Oceans"]}\n'
            '  player 3: {hand: ["Flight", "Invisibility", "Super Speed"]}\n'
            '  centre: ["Cornucopia", "Cold Fusion"]\n  aside: ["Time Travel"]\n'
            "do:\n  - player 1: look\n  - player 1: peek at card 2 of centre\n"
            'expect:\n  sees:\n    SEAT: {centre: ["?", "Cold Fusion"]}\n')
    path.write_text(text.replace("SEAT", "player 2"), encoding="utf-8")
    (result,) = run_file(str(path))
    assert not result.ok and "player 2 sees centre" in result.message, result.message
    path.write_text(text.replace("SEAT", "player 1"), encoding="utf-8")
    (result,) = run_file(str(path))
    assert result.ok, result.message


def test_greedy_takes_the_best_action_every_time():
    game = load_source('game "G" { players 1..1 }\nplayer var n: int = 0\n'
                       'action small() { you.n += 1 }\naction big() { you.n += 5 }\naction idle() { }\n'
                       'play { repeat 5 { act one of idle, small, big by first(players) } }\n'
                       'scoring p { score "n" p.n }\n')
    for seed in range(5):
        st = game.new_state(1, seed=seed)
        play(st, [make_agent("greedy", 0, seed)])
        assert st.scores() == [25]
