"""A game's `heuristic`: what AI players make of an unfinished game (the score if it ended now plus weighted
estimates), used by greedy and by MCTS where a search stops short of the end; `heuristic=0` turns it off. And
MCTS given a time a decision instead of a number of iterations."""
import time

import pytest

from interpreter import WishError, load_source
from interpreter.agents import GreedyAgent, make_agent
from interpreter.agents.search import advised_against, considered, rewards, values
from interpreter.infoset import InfoSet
from interpreter.scoring import estimates

SAVING = '''
game "Saving" { players 2..2 }
player var stash: int = 0
player var banked: int = 0
var round: int = 0
"""Put a coin aside: it scores only when banked."""
action save() { you.stash += 1 }
action idle() { }
"""Bank the stash."""
action bank() { you.banked += you.stash
  you.stash = 0 }
heuristic p {
  weigh 50% "coins put aside" p.stash
  weigh -10% "rounds played" round
}
play {
  repeat 3 {
    round += 1
    for p in players { act one of save, idle by p }
  }
  for p in players { act one of bank by p }
}
scoring p { score "banked" p.banked }
'''


def test_estimates_are_the_score_plus_the_weighted_terms():
    game = load_source(SAVING)
    st = game.new_state(2, seed=1)
    st.apply("save")  # player 1: one coin aside, round 1
    rows = game.standings(st)
    assert [r.score for r in rows] == [0, 0]
    assert estimates(game, st, rows) == [0.5 - 0.1, -0.1]
    assert values(st) == [0.4, -0.1] and values(st, ()) == [0.0, 0.0]
    assert values(st, (100, 0)) == [1.0, 0.0]  # other weights, one per estimate, in their order
    with pytest.raises(WishError, match="1 weights given for a heuristic of 2 estimates"):
        values(st, (100,))


def test_without_a_heuristic_the_value_is_the_score():
    game = load_source(SAVING.replace(SAVING[SAVING.index("heuristic p"):SAVING.index("play {")], ""))
    st = game.new_state(2, seed=1)
    st.apply("save")
    assert values(st) == values(st, ()) == [0.0, 0.0]


def test_greedy_follows_the_heuristic_and_without_it_cannot_tell_save_from_idle():
    game = load_source(SAVING)
    picks = {True: set(), False: set()}
    for seed in range(12):
        for on in (True, False):
            st = game.new_state(2, seed=seed)
            agent = GreedyAgent(0, seed=seed, heuristic=int(on))
            picks[on].add(agent.act(None, st.legal_actions(0), info=InfoSet(st, 0)).label)
    assert picks[True] == {"save"}
    assert picks[False] == {"save", "idle"}  # the score is 0 either way: ties are broken at random


def test_mcts_rewards_an_unfinished_game_by_the_heuristic():
    game = load_source(SAVING)
    st = game.new_state(2, seed=1)
    st.apply("save")
    on, off = rewards(st, 2.0), rewards(st, 2.0, ())
    assert on[0] > on[1] and off[0] == off[1]
    agent = make_agent("mcts:iterations=60;rollout=0", 1, 3)
    assert agent.act(None, st.legal_actions(1), info=InfoSet(st, 1)).label == "save"


@pytest.mark.parametrize("spec, words", [
    ("greedy:heuristic=2", "heuristic=2: must be 0 or 1"), ("mcts:heuristic=-1", "heuristic=-1: must be at least 0"),
    ("greedy:weights=60/x", "expected whole percentages separated by /"),
    ("mcts:weights=20000", "20000% is beyond ±10,000%"),
    ("greedy:heuristic=0;weights=5", "weights needs the heuristic")])
def test_heuristic_options_are_checked(spec, words):
    with pytest.raises(WishError, match=words):
        make_agent(spec, 0, 1)


def test_greedy_with_other_weights_follows_them():
    """The weights of a spec replace the declared ones: a negative weight on the coins put aside makes
    greedy idle instead of saving."""
    game = load_source(SAVING)
    st = game.new_state(2, seed=1)
    agent = make_agent("greedy:weights=-50/-10", 0, 1)
    assert agent.act(None, st.legal_actions(0), info=InfoSet(st, 0)).label == "idle"


def test_the_sheet_shows_the_heuristic_to_designers(tmp_path):
    from docgen.render import render_sheet

    path = tmp_path / "saving.wish"
    path.write_text(SAVING, encoding="utf-8")
    md = render_sheet(str(path))
    part = md[md.index("## For designers: how the AI players judge a game"):]
    assert "- **coins put aside** (50%): your stash" in part
    assert "- **rounds played** (−10%): the round" in part
    html = render_sheet(str(path), fmt="html")
    assert '<section id="heuristic">' in html and "<strong>coins put aside</strong> (50%)" in html


def test_mcts_searches_for_a_time_instead_of_a_number_of_iterations():
    game = load_source(SAVING)
    st = game.new_state(2, seed=1)
    agent = make_agent("mcts:time=0.2;rollout=0", 0, 3)
    t0 = time.perf_counter()
    assert agent.act(None, st.legal_actions(0), info=InfoSet(st, 0)).label == "save"
    took = time.perf_counter() - t0
    assert 0.2 <= took and agent.last_iterations > 1
    capped = make_agent("mcts:time=30;iterations=7;rollout=0", 0, 3)
    capped.act(None, st.legal_actions(0), info=InfoSet(st, 0))
    assert capped.last_iterations == 7  # the iterations given stop a search by time sooner
    fixed = make_agent("mcts:rollout=0", 0, 3)
    fixed.act(None, st.legal_actions(0), info=InfoSet(st, 0))
    assert fixed.last_iterations == 200


@pytest.mark.parametrize("spec, words", [("mcts:time=0", "more than 0"), ("mcts:time=-1", "more than 0"),
                                         ("mcts:time=4000", "at most 3,600"), ("mcts:time=inf", "finite")])
def test_a_search_time_is_a_sensible_number_of_seconds(spec, words):
    with pytest.raises(WishError, match=words):
        make_agent(spec, 0, 1)


TRADING = '''
game "Trading" { players 2..2 }
player var coins: int = 3
var give: int = 0
"""Take one coin, then give back two or three."""
action trade() {
  you.coins += 1
  choose give from [2, 3] by you prompt "Give"
  you.coins -= give
}
action idle() { }
play { repeat 2 { for p in players { act one of trade, idle by p } } }
scoring p { score "coins" p.coins }
'''


def test_greedy_judges_an_action_by_where_its_own_choices_lead():
    """`trade` looks good at its first step (one coin more) and ends one coin down at best: judged where it
    ends, it is never taken; judged at its first step it always is."""
    game = load_source(TRADING)
    for seed in range(6):
        st = game.new_state(2, seed=seed)
        ends = GreedyAgent(0, seed=seed).act(None, st.legal_actions(0), info=InfoSet(st, 0))
        starts = GreedyAgent(0, seed=seed, inner=0).act(None, st.legal_actions(0), info=InfoSet(st, 0))
        assert (ends.label, starts.label) == ("idle", "trade")


def test_the_tuning_command_writes_the_weights_it_found_into_the_game_file(tmp_path):
    """bench/tune.py --write changes only the numbers of the `weigh` lines and says above the heuristic how
    they were found; a second run replaces that comment rather than adding one."""
    import argparse
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("tune", Path(__file__).parent.parent / "bench" / "tune.py")
    tune = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tune)
    text = SAVING.replace("heuristic p {", '"""\nWhat saving is worth.\n"""\nheuristic p {')
    path = tmp_path / "saving.wish"
    path.write_text(text, encoding="utf-8")
    args = argparse.Namespace(game=str(path), players=2, agent="greedy", games=40, rounds=1, step=20,
                              accept=0.55, seed=3)
    tune.write(args, (70, -10))
    tune.write(args, (70, -30))
    after = path.read_text(encoding="utf-8")
    assert after.count(tune.COMMENT) == 1
    assert f'{tune.COMMENT}python bench/tune.py {path} --players 2' in after
    assert after.index(tune.COMMENT) < after.index('"""\nWhat saving is worth.')
    assert 'weigh 70% "coins put aside" p.stash' in after and 'weigh -30% "rounds played" round' in after
    assert [w for _, w, _ in load_source(after).heuristic] == [70, -30]

    def rest(t: str) -> list:
        return [line for line in t.split("\n") if not line.startswith(tune.COMMENT) and "weigh" not in line]

    assert rest(after) == rest(text)


def test_a_variant_may_judge_a_game_otherwise():
    variant = 'variant "Patient" {\n  heuristic q {\n    weigh 90% "coins put aside" q.stash\n  }\n}\nplay {'
    text = SAVING.replace("play {", variant, 1)
    weighed = [(label, w) for label, w, _ in load_source(text).heuristic]
    assert weighed == [("coins put aside", 50), ("rounds played", -10)]
    patient = load_source(text, variant="Patient")
    assert patient.heuristic_var == "q"
    assert [(label, w) for label, w, _ in patient.heuristic] == [("coins put aside", 90)]


ADVISED = '''
game "Fiddling" { players 2..2 }
player var stash: int = 0
player var fiddles: int = 0
"""Put a coin aside: it scores."""
action save() { you.stash += 1 }
"""Fiddle with the coins: the heuristic likes it, the score does not."""
action fiddle() { you.fiddles += 1 }
action idle() { }
heuristic p {
  weigh 10% "coins put aside" p.stash
  weigh 300% "fiddles" p.fiddles
  consider fiddle only when "two coins are aside" p.stash >= 2
}
play {
  repeat 3 {
    for p in players { act one of save, fiddle, idle by p }
  }
}
scoring p { score "stash" p.stash }
'''


def _root_classes(spec: str, st, seat: int = 0) -> set:
    agent = make_agent(spec, seat, 5)
    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    return {cls[0] for cls, row in agent.last_root.stats[seat].items() if row[0]}


def test_advice_keeps_an_action_out_of_greedy_and_mcts_while_its_condition_fails():
    game = load_source(ADVISED)
    assert list(game.advice) == ["fiddle"]
    st = game.new_state(2, seed=1)
    info = InfoSet(st, 0)
    assert make_agent("greedy", 0, 1).act(None, st.legal_actions(0), info=info).label == "save"
    assert make_agent("greedy:advice=0", 0, 1).act(None, st.legal_actions(0), info=info).label == "fiddle"
    for rollout in (0, 10):
        assert _root_classes(f"mcts:iterations=40;rollout={rollout}", st) == {"save", "idle"}
        assert _root_classes(f"mcts:iterations=40;rollout={rollout};advice=0", st) == {"save", "fiddle", "idle"}


def test_advice_lets_the_action_in_once_its_condition_holds_for_the_player_choosing():
    game = load_source(ADVISED)
    st = game.new_state(2, seed=1)
    for _ in range(2):
        st.apply("save")
        st.apply("idle")
    assert make_agent("greedy", 0, 1).act(None, st.legal_actions(0), info=InfoSet(st, 0)).label == "fiddle"
    assert "fiddle" in _root_classes("mcts:iterations=40;rollout=0", st)
    st.apply("fiddle")  # player 2 has no coin aside: fiddling is still advised against for them
    assert _root_classes("mcts:iterations=40;rollout=0", st, 1) == {"save", "idle"}


def test_advice_never_empties_a_choice():
    """Every option is the advised action (two ways to fiddle): all stay offered."""
    two_ways = "action fiddle(n in [1, 2]) { you.fiddles += n }"
    game = load_source(ADVISED.replace("act one of save, fiddle, idle by p", "act one of fiddle by p")
                       .replace("action fiddle() { you.fiddles += 1 }", two_ways))
    st = game.new_state(2, seed=1)
    actions = st.legal_actions(0)
    assert advised_against(st, 0) == {"fiddle"} and list(considered(st, 0, actions)) == [0, 1]
    assert make_agent("greedy", 0, 1).act(None, actions, info=InfoSet(st, 0)).label == "fiddle 2"
    assert _root_classes("mcts:iterations=20;rollout=0", st) == {"fiddle"}


def test_the_sheet_shows_the_advice_to_designers(tmp_path):
    from docgen.render import render_sheet

    path = tmp_path / "fiddling.wish"
    path.write_text(ADVISED, encoding="utf-8")
    md = render_sheet(str(path))
    part = md[md.index("## For designers: how the AI players judge a game"):]
    assert "- **fiddle** only when two coins are aside: your stash is at least 2" in part
    html = render_sheet(str(path), fmt="html")
    assert "<strong>fiddle</strong> only when two coins are aside" in html
