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


def test_a_number_too_large_even_to_write_out_is_measured():
    """One expression can make a number of thousands of digits before the assignment stops it: the message
    counts them exactly up to Python's limit for writing a number out, and estimates beyond."""
    def power(a, b):
        return f"  let {b} = " + " * ".join([a] * 10) + "\n"
    body = "play {\n  let y = 999999999999999\n" + power("y", "a") + power("a", "b") + power("b", "c") + \
        "  x = c\n}\n"  # (10**15 - 1) ** 1000: 15,000 digits
    with pytest.raises(WishRuntimeError, match=r"a number of about 15,000 digits"):
        state_of(body)
    with pytest.raises(WishRuntimeError, match=r"a number of 30 digits; a game's numbers have at most 15"):
        state_of("play {\n  let y = 999999999999999\n  x = y * y\n}\n")


def test_a_transfer_between_a_local_and_each_kind_of_variable():
    st = state_of("enum Hue { red \"Red\", blue \"Blue\" }\nvar store[h: Hue]: int = 0\n"
                  "play {\n  let pot = 9\n  transfer 2 from pot to first(players).n\n  transfer 3 from pot to x\n"
                  "  transfer 1 from pot to store[blue]\n  first(players).n += pot\n}\n")
    assert st.scores() == [2 + 3] and st.gvars[st.game.gvar_index["x"]] == 1 + 3
    assert st.kvars[st.game.kvar_index["store"]] == [0, 1]


def test_repeated_option_keys_are_numbered_as_their_labels_are():
    """The first of equal options keeps its key, as its label keeps its text; the k-th repeat is (key, "#", k),
    so that a search merging what it learnt by key merges the same options a person would by label."""
    from interpreter.views import numbered

    assert numbered(("a", "b", "a", "a")) == ("a", "b", ("a", "#", 2), ("a", "#", 3))
    assert numbered(("a", "b")) == ("a", "b")


def test_a_moved_card_of_the_one_kind_with_that_field_reads_it():
    """`when moved(c, …)` binds a card of any kind; `c.shine` names the one kind that has the field."""
    game = load_source('game "K" { players 1..1 }\ncard Gem { shine: int = 0 }\nzone deck: Gem hidden\n'
                       'zone pile: Gem public\ncards Gem in deck {\n  | name | shine |\n  | "G" | 4 |\n}\n'
                       'var x: int = 0\nwhen moved(c, from, to) if to == pile { x += c.shine }\n'
                       'play { move top 1 of deck to pile }\nscoring p { score "s" x }\n')
    assert game.new_state(1, seed=1).scores() == [4]
