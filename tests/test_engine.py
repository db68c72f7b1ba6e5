"""The engine's own tests on a small test game: stack and trigger order, timing, abilities, decisions, views."""
import random
from pathlib import Path

import pytest

from interpreter import IllegalAction, WishRuntimeError, load_game, load_source

GAME = str(Path(__file__).parent / "games" / "engine_test.wish")


def labels(state, player=None):
    return [a.label for a in state.legal_actions(player)]


def var(state, name):
    return state.gvars[state.game.gvar_index[name]]


def pvar(state, player, name):
    return state.pvars[player][state.game.pvar_index[name]]


def test_triggers_resolve_in_order_before_the_rest_of_the_block():
    st = load_game(GAME).new_state(2, seed=1)
    # A: order 0 with a condition; B: order 1, whose emit resolves "g" and "!" at once (no action
    # is running, so "after action" means now); C: order 2; "|" is the statement after the emit.
    assert var(st, "trace") == "ABg!C|"
    assert st.is_over


def test_a_runaway_trigger_chain_is_stopped_with_a_clear_error():
    with pytest.raises(WishRuntimeError) as info:
        load_game(GAME, "runaway").new_state(2, seed=1)
    msg = str(info.value)
    assert "chain of triggers did not end" in msg
    assert "when runaway (line" in msg
    assert info.value.state is not None


def test_actions_are_offered_with_their_requirements():
    st = load_game(GAME, "actions").new_state(2, seed=1)
    assert st.to_move == [0]
    assert labels(st) == ["gain", 'play "Echo"', 'play "Spark"', "pass"]


def test_after_action_triggers_wait_for_the_action_to_finish():
    st = load_game(GAME, "actions").new_state(2, seed=1)
    st.apply("gain")
    assert var(st, "trace") == "gbody!"
    assert pvar(st, 0, "points") == 2


def test_illegal_action_names_the_failed_requirement():
    st = load_game(GAME, "actions").new_state(2, seed=1)
    st.apply("pass")
    assert st.to_move == [1]
    with pytest.raises(IllegalAction) as info:
        st.apply('play "Blank"')
    assert info.value.reason == "a card without power cannot be played"
    with pytest.raises(IllegalAction) as info:
        st.apply("jump")
    assert "not an option" in info.value.reason


def test_instant_ability_can_stop_for_a_decision_and_resume_after_json():
    game = load_game(GAME, "actions")
    st = game.new_state(2, seed=1)
    st.apply('play "Spark"')
    assert st.decision.prompt == "Take a bonus"
    assert pvar(st, 0, "points") == 1
    copy = game.state_from_json(st.to_json())
    assert copy.to_json() == st.to_json()
    for s in (st, copy):
        s.apply("bonus 2")
    assert pvar(st, 0, "points") == 3
    assert st.to_json() == copy.to_json()
    assert st.log_lines() == copy.log_lines()


def test_ongoing_ability_fires_only_while_its_card_is_active():
    st = load_game(GAME, "actions").new_state(2, seed=1)
    st.apply("gain")  # Echo still in hand: no bonus
    assert pvar(st, 0, "points") == 2
    st.apply("pass")
    st.apply('play "Echo"')  # Echo has no instant ability
    st.apply("pass")
    st.apply("gain")  # +2, and Echo in the tableau adds 1
    assert pvar(st, 0, "points") == 5


def test_static_ability_modifies_its_owners_parameter_only():
    st = load_game(GAME, "actions").new_state(2, seed=1)
    g = st.game
    reach = g.param_index["reach"]
    assert [st.param(reach, p) for p in (0, 1)] == [1, 1]
    st.apply("pass")
    st.apply('play "Booster"')
    assert [st.param(reach, p) for p in (0, 1)] == [1, 3]


STATICS = """game "Statics" {
  players 2..3
}
card Gem {
  worth: int = 0
  active in tableau
}
zone deck: Gem hidden
player zone tableau: Gem public
cards Gem in deck {
  | name     | count | worth |
  | "Adder"  | 2     | 3     |
  | "Taker"  | 1     | 1     |
  | "Setter" | 1     | 7     |
  | "Blank"  | 2     | 0     |
}
player param reach: int = 1
param pool: int = 10
player param cap: int = 0
abilities "Adder" {
  static reach += self.worth + count(you.tableau)
  static pool += 1
}
abilities "Taker" {
  static reach -= self.worth
  static pool -= 2
}
abilities "Setter" {
  static cap = self.worth
}
play {
}
scoring p { score "s" 0 }
"""


def test_static_abilities_sum_over_the_active_cards_wherever_they_lie():
    """Statics that add and subtract numbers are summed over the cards in their active zones (`by_kind`); one that
    sets the value applies in the file's order. Both agree with the card table and with each other for every
    placement of the cards."""
    g = load_source(STATICS)
    reach, pool, cap = (g.param_index[n] for n in ("reach", "pool", "cap"))
    assert g.params[reach].by_kind is not None and g.params[pool].by_kind is not None
    assert g.params[cap].in_order and g.params[cap].by_kind is None
    rng = random.Random(5)
    for _ in range(200):
        st = g.new_state(2, seed=rng.randrange(1000))
        places = [rng.randrange(3) for _ in range(6)]
        for slot in (1, 2):
            st.move(tuple(c for c in range(6) if places[c] == slot), slot, "top", None, None)
        names = [g.card_defs[st.ids.of[c]].name for c in range(6)]
        held = [[names[c] for c in st.zones[1 + p]] for p in (0, 1)]
        for p in (0, 1):
            mine = held[p]
            assert st.param(reach, p) == 1 + mine.count("Adder") * (3 + len(mine)) - mine.count("Taker")
            assert st.param(cap, p) == (7 if "Setter" in mine else 0)
            for i in (reach, pool):
                assert st.param(i, p) == g._statics_in_order(st, g.params[i], g.params[i].value(st, {"you": p}), p)
        shown = held[0] + held[1]
        assert st.param(pool, None) == 10 + shown.count("Adder") - 2 * shown.count("Taker")


def test_simultaneous_decision_waits_for_everyone():
    st = load_game(GAME, "vote").new_state(3, seed=1)
    assert st.to_move == [0, 1, 2]
    st.apply("yes", player=0)
    assert st.to_move == [1, 2]
    assert var(st, "trace") == ""
    with pytest.raises(IllegalAction):
        st.apply("no", player=0)
    assert st.view(0)["decision"]["answered"] == "yes"
    assert "answered" not in st.view(1)["decision"]
    assert "options" not in st.view(0)["decision"]
    st.apply("no", player=2)
    st.apply("yes", player=1)
    assert var(st, "trace") == "voted"
    assert [pvar(st, p, "pick") for p in range(3)] == ["yes", "yes", "no"]
    assert st.is_over


def test_views_hide_what_a_player_may_not_see():
    st = load_game(GAME, "actions").new_state(2, seed=1)

    def zone(view, name):
        return next(z for z in view["zones"] if z["zone"] == name)

    mine, theirs = st.view(0), st.view(1)
    assert [c["name"] for c in zone(mine, "hand of player 1")["cards"]] == ["Echo", "Spark"]
    assert zone(theirs, "hand of player 1")["cards"] == [{"hidden": True}, {"hidden": True}]
    assert all(c == {"hidden": True} for c in zone(mine, "deck")["cards"])
    st.apply('play "Spark"')
    assert zone(st.view(1), "tableau of player 1")["cards"][0]["name"] == "Spark"
    text = repr(st.view(1))
    assert "Echo" not in text


def test_clone_is_independent_and_continues_identically():
    st = load_game(GAME, "actions").new_state(2, seed=4)
    copy = st.clone()
    st.apply("gain")
    assert pvar(copy, 0, "points") == 0
    copy.apply("gain")
    assert copy.to_json() == st.to_json()


def test_scores_and_tiebreak():
    st = load_game(GAME, "actions").new_state(2, seed=1)
    for _ in range(6):
        st.apply("pass")
    assert st.is_over
    assert st.scores() == [0, 0]
    assert st.winners() == [0, 1]  # equal points, equal cards in hand: a shared win


def test_a_tiebreak_decides_between_equal_scores():
    """Player 1 plays a card and ends with fewer cards in hand: equal points, and "Cards in hand" decides."""
    st = load_game(GAME, "actions").new_state(2, seed=1)
    for label in ["gain", "gain", "gain", "gain", 'play "Echo"', "pass"]:
        st.apply(label)
    assert st.is_over and st.scores() == [4, 4]
    assert st.winners() == [1]
    result = st.result()
    assert result["decided_by"] == "Cards in hand" and not result["shared"]
    assert [p["tiebreaks"]["Cards in hand"] for p in result["players"]] == [1, 2]


def test_an_optional_choice_offers_a_labelled_way_out():
    from interpreter import load_source
    game = load_source('''game "T" { players 2..2 }
enum Area { forest, dock }
var where: Area? = forest
play { choose where from Area optional "stay" by first(players) prompt "Move?" }
scoring p { score "s" 0 }
''')
    st = game.new_state(2)
    assert labels(st) == ["where forest", "where dock", "stay"]
    st.apply("stay")
    assert var(st, "where") is None
    lines = st.log_lines()
    assert lines[lines.index("Game over. Scores: player 1 0, player 2 0.") - 1] == "player 1: stay"


@pytest.mark.parametrize("scores, expected", [
    ("if p == first(players) then 3 else 1", ["Game over. Scores: player 1 3, player 2 1.", "Winner: player 1."]),
    ("2", ["Game over. Scores: player 1 2, player 2 2.", "players 1 and 2 tie at 2 points: the win is shared.",
           "Winner: player 1 and player 2."]),
])
def test_the_end_of_a_game_is_logged_as_values_and_written_when_read(scores, expected):
    game = load_source(f'''game "T" {{ players 2..2 }}
play {{ log "done" }}
scoring p {{ score "s" {scores} }}
''')
    st = game.new_state(2)
    assert st.log_lines()[-len(expected):] == expected
    kinds = st.view(0)["log_kinds"]
    assert kinds[-1] == "winners" and kinds[-len(expected)] == "scores"
    assert game.state_from_json(st.to_json()).log_lines() == st.log_lines()


def test_a_trigger_condition_is_checked_when_the_trigger_resolves():
    """Triggers that fire together resolve in order; a later one sees what the earlier ones did."""
    from interpreter import load_source
    game = load_source('''game "T" { players 2..2 }
event bell()
var coins: int = 0
var trace: text = ""
when bell() if coins > 0 order 2 { trace = trace + "spent" }
when bell() order 1 { coins += 1 }
play { emit bell() }
scoring p { score "s" 0 }
''')
    st = game.new_state(2)
    assert var(st, "trace") == "spent"


LEVELS = '''
game "Levels" { players 2..2 }
enum Area { forest "Forest", dock "Dock", oasis "Oasis" }
action go(a in Area, n in [1, 2, 3]) {
  require n < 3 else "at most two steps"
  require a != dock else "not to the dock"
  require turns == 0 else "once only"
  turns += 1
}
var turns: int = 0
play { act one of go by first(players) }
'''


def test_a_requirement_is_checked_once_the_parameters_it_reads_are_chosen():
    go = load_source(LEVELS).actions["go"]
    # `n < 3` reads the second parameter; `a != dock` only the first but is written after it, so it waits
    # for both (the written order of the checks is kept); `turns == 0` reads none but also comes later.
    assert [level for level, _, _ in go.requires] == [2, 2, 2]
    st = load_game(str(Path(__file__).parent.parent / "games" / "wish.wish")).new_state(2, seed=1)
    fulfill = st.game.actions["fulfill"]
    # can_pay reads the Wish, can_fulfill the Wish and the site, the two column checks all three parameters
    assert [level for level, _, _ in fulfill.requires] == [1, 2, 3, 3]
    assert len(fulfill.guards) == 1  # may(you, fulfill) reads no parameter


def _each_on_its_own(st, a, who):
    """The reference: every choice of `a`'s parameters with a fresh environment and every check in order."""
    def rec(i, values):
        if i == len(a.param_names):
            env = {"you": who, **dict(zip(a.param_names, values))}
            checks = [(c, m) for c, m in a.guards] + [(c, m) for _, c, m in a.requires]
            yield values, next((m for c, m in checks if not c(st, env)), None)
            return
        for v in a.domains[i](st, {"you": who, **dict(zip(a.param_names, values))}):
            yield from rec(i + 1, values + (v,))
    return list(rec(0, ()))


@pytest.mark.parametrize("path, players", [("wish.wish", 2), ("wish.wish", 4), ("three_wishes.wish", 3)])
def test_checking_requirements_early_fails_each_option_on_the_same_requirement(path, players):
    game = load_game(str(Path(__file__).parent.parent / "games" / path))
    rng = random.Random(3)
    compared = 0
    for seed in range(3):
        st = game.new_state(players, seed=seed)
        for _ in range(120):
            if st.is_over:
                break
            d = st.decision
            if d.kinds == "act":
                for name in st.game.points[d.point].actions:
                    a = st.game.actions[name]
                    for who in st.seats:
                        got = [(key[1], reason) for key, _, reason in st.action_options([name], who)]
                        assert got == _each_on_its_own(st, a, who)
                        legal = [key[1] for key, _, _ in st.action_options([name], who, legal_only=True)]
                        assert legal == [values for values, reason in got if reason is None]
                        assert [key[1] for key in st.legal_instances([name], who)] == legal  # compiled
                        compared += 1
            actions = st.legal_actions(st.to_move[0])
            st.apply(actions[rng.randrange(len(actions))])
    assert compared > 50


KEPT = '''
game "Kept" { players 1..1 }
var asked: int = 0
function fine(n: int): bool = n != 20
action pick(a in [1, 2, 3], b in [10, 20, 30]) {
  require a != 2 else "not two"
  require fine(b) else "not twenty"
  asked += 1
}
action step(a in [1, 2, 3], b in [a, a + 1]) {
  require b != 2 else "not two"
}
action total(a in [1, 2, 3], b in [10, 20, 30]) {
  require a + b != 21 else "not twenty-one"
}
play { act one of pick, step, total by first(players) }
scoring p { score "asked" asked }
'''


def test_values_of_a_parameter_its_predecessors_do_not_change_are_worked_out_once():
    """`b`'s requirement in `pick` reads no earlier parameter: its legal values are kept for every `a` (the
    compiled enumerator says so). Where `b`'s values or its requirement read `a`, they are worked out for each
    `a`. Either way the instances are those checked one by one."""
    game = load_source(KEPT)
    source = game.rules.source
    enumerators = {name: source[source.index(f"# action {name!r}"):].split("\ndef ")[0] for name in game.actions}
    assert "_kept" in enumerators["pick"]
    assert "_kept" not in enumerators["step"] and "_kept" not in enumerators["total"]
    st = game.new_state(1, seed=2)
    assert st.legal_instances(["pick"], 0) == (("pick", (1, 10)), ("pick", (1, 30)), ("pick", (3, 10)),
                                               ("pick", (3, 30)))
    for name, a in game.actions.items():
        assert st.legal_instances([name], 0) == tuple(
            (name, v) for v, reason in _each_on_its_own(st, a, 0) if reason is None)


def test_an_option_is_structured_and_its_label_is_read_while_it_is_offered():
    game = load_game("games/three_wishes.wish")
    st = game.new_state(3, seed=4)
    actions = st.legal_actions()
    look = next(a for a in actions if a.value == ("look", ()))
    assert look.key == ("look", ()) and look.player == st.to_move[0]
    i = next(i for i, a in enumerate(actions) if a.value[0] == "exchange")
    swap = actions[i]
    assert swap.key[0] == "exchange" and len(swap.key[1]) == 2
    other = st.clone()
    st.apply(swap)  # taken without any label of the decision ever being read
    with pytest.raises(ValueError, match="read it before"):
        swap.label
    kept = other.legal_actions()[i]
    label = kept.label
    other.apply(kept)
    assert kept.label == label and label.startswith("exchange card ")


def test_apply_takes_an_action_an_index_or_a_label():
    game = load_game("games/three_wishes.wish")
    a, b, c = (game.new_state(3, seed=4) for _ in range(3))
    pick = a.legal_actions()[5]
    label = pick.label
    a.apply(pick)
    b.apply(5)
    c.apply(label)
    assert a.to_json() == b.to_json() == c.to_json()
    with pytest.raises(IllegalAction, match="no option 999"):
        game.new_state(3, seed=4).apply(999)


def test_an_action_of_one_state_applies_to_its_clone():
    st = load_game("games/three_wishes.wish").new_state(3, seed=4)
    pick = st.legal_actions()[7]
    label = pick.label
    copy = st.clone()
    copy.apply(pick)
    st.apply(label)
    assert copy.to_json() == st.to_json()


@pytest.mark.parametrize("cards, up, keep, knew, after", [
    # face down, nobody told: known as before
    ((0, 1), False, 0, (0b001, 0b010), ([2, 2, 0], [False, False, True], [0b001, 0b010, 0], [0b001, 0b110, 0])),
    # face down into a zone its owner (player 3) sees: they know the cards now, and have seen them
    ((0, 1), False, 0b100, (0b101, 0b110), ([2, 2, 0], [False, False, True], [0b101, 0b110, 0], [0b101, 0b110, 0])),
    # face up: everyone knows and has seen it
    ((2,), True, 0, (0b111,), ([0, 0, 2], [True, True, True], [0b001, 0b010, 0b111], [0b001, 0b110, 0b111])),
    ((), False, 0b100, (), ([0, 0, 0], [True, True, True], [0b001, 0b010, 0], [0b001, 0b110, 0])),
])
def test_cards_arriving_in_a_zone(cards, up, keep, knew, after):
    from interpreter import world
    where, face, known, seen = [0, 0, 0], [True, True, True], [0b001, 0b010, 0], [0b001, 0b110, 0]
    assert world.arrive(where, face, known, seen, cards, 2, up, 0b111, keep) == knew
    assert (where, face, known, seen) == after
