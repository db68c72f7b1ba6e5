"""Agents: specs, the random agent, the terminal agent's input handling and what it shows."""
import io

import pytest

from interpreter import Action, WishError, load_game
from interpreter.agents import (AGENTS, Agent, HumanAgent, Quit, RandomAgent, make_agent, make_agents, parse_spec,
                                play, split_specs)
from interpreter.agents.human import pick

GAME = "games/wunschmaschine.wish"


class Dummy(Agent):
    name = "dummy"
    options = {"iterations": int, "c": float, "greedy": bool, "style": str}

    def __init__(self, seat, seed=0, iterations=10, c=1.0, greedy=False, style="x"):
        super().__init__(seat, seed)
        self.iterations, self.c, self.greedy, self.style = iterations, c, greedy, style

    def act(self, view, actions):
        return actions[0]


@pytest.fixture
def dummy(monkeypatch):
    monkeypatch.setitem(AGENTS, "dummy", Dummy)


def actions_of(*labels, player=0):
    return [Action(player, lbl) for lbl in labels]


def test_parse_spec():
    assert parse_spec("random") == ("random", {})
    assert parse_spec("MCTS:iterations=400;c=1.4") == ("mcts", {"iterations": "400", "c": "1.4"})
    with pytest.raises(WishError, match="KEY=VALUE"):
        parse_spec("mcts:iterations")


def test_options_are_typed(dummy):
    a = make_agent("dummy:iterations=400;c=2;greedy=true;style=bold", seat=2, seed=7)
    assert (a.seat, a.seed, a.iterations, a.c, a.greedy, a.style) == (2, 7, 400, 2.0, True, "bold")
    assert make_agent("dummy:seed=5", 0, 7).seed == 5
    with pytest.raises(WishError, match="expected int"):
        make_agent("dummy:iterations=many", 0, 0)


def test_unknown_agent_and_option_have_hints():
    with pytest.raises(WishError) as err:
        make_agent("randon", 0, 0)
    assert "did you mean 'random'" in str(err.value)
    with pytest.raises(WishError) as err:
        make_agent("random:sede=3", 0, 0)
    assert "did you mean 'seed'" in str(err.value)


def test_make_agents_counts():
    assert [a.seat for a in make_agents(["random"], 3, 1)] == [0, 1, 2]
    assert [a.seed for a in make_agents(["random"], 2, 1)] == [1009, 1010]
    with pytest.raises(WishError, match="2 agents for 4 players"):
        make_agents(split_specs("random,random"), 4, 1)
    with pytest.raises(WishError, match="empty"):
        split_specs("random,,random")


def test_random_agent_is_deterministic():
    acts = actions_of(*"abcdefgh")
    a, b = RandomAgent(0, 3), RandomAgent(0, 3)
    assert [a.act({}, acts) for _ in range(20)] == [b.act({}, acts) for _ in range(20)]
    assert len({RandomAgent(0, 3).act({}, acts).label for _ in range(5)}) == 1
    assert len({a.act({}, acts).label for _ in range(200)}) == len(acts)


def test_play_is_reproducible():
    game = load_game(GAME)
    logs = []
    for _ in range(2):
        state = game.new_state(4, 11)
        play(state, make_agents(["random"], 4, 11))
        logs.append(state.log_lines())
    assert state.is_over and logs[0] == logs[1]


@pytest.mark.parametrize("answer,label", [
    ("2", "wait"), ("WAIT", "wait"), ("w", "wait"), ("card palm", 'card "Palm tree"'),
    ('card "heart"', 'card "Heart"'),
])
def test_pick_accepts(answer, label):
    acts = actions_of("slap", "wait", 'card "Palm tree"', 'card "Heart"', 'card "Heart" (2)')
    assert pick(answer, acts)[0].label == label


@pytest.mark.parametrize("answer,message", [
    ("0", "no option 0"), ("6", "no option 6"), ("", "number from 1 to 5"), ("card", "could be"),
    ("zzz", "not an option"),
])
def test_pick_refuses(answer, message):
    acts = actions_of("slap", "wait", 'card "Palm tree"', 'card "Heart"', 'card "Heart" (2)')
    choice, problem = pick(answer, acts)
    assert choice is None and message in problem


def test_human_reasks_then_quits_on_eof():
    out = io.StringIO()
    human = HumanAgent(0, input=io.StringIO("9\nhelp\nsl\n"), output=out)
    view = {"game": "G", "player": 0, "decision": {"prompt": "Slap?"}, "log": ["one", "two"]}
    assert human.act(view, actions_of("slap", "wait")).label == "slap"
    text = out.getvalue()
    assert "no option 9" in text and text.count("1) slap") == 2 and "  one\n  two\n" in text
    with pytest.raises(Quit):
        human.act(dict(view, log=["one", "two", "three"]), actions_of("slap", "wait"))
    assert out.getvalue().count("  one") == 1 and "  three" in out.getvalue()


def test_human_ctrl_c_is_quit():
    class Interrupting(io.StringIO):
        def readline(self, *a):
            raise KeyboardInterrupt

    with pytest.raises(Quit):
        HumanAgent(0, input=Interrupting(), output=io.StringIO()).act({"player": 0, "game": "G"}, actions_of("a"))


def first_turn_of(state, seat):
    agents = make_agents(["random"], state.n, 0)
    while seat not in state.to_move:
        s = state.to_move[0]
        state.apply(agents[s].act(state.view(s), state.legal_actions(s)))


def test_human_never_sees_the_wish():
    """Seat 2 is an Agent, player 1 the Wish Machine: the wished-for card stays '?' for seat 2."""
    game = load_game(GAME)
    for seed in range(200):
        state = game.new_state(4, seed)
        first_turn_of(state, 1)
        machine = state.view(0)
        wish = next(z for z in machine["zones"] if z["zone"] == "wish")["cards"][0]["name"]
        table = [c["name"] for z in machine["zones"] if z["zone"] == "table" for c in z["cards"]]
        if wish not in table:
            break
    view = state.view(1)
    assert next(z for z in view["zones"] if z["zone"] == "wish")["cards"] == [{"hidden": True}]
    out = io.StringIO()
    HumanAgent(1, input=io.StringIO("1\n"), output=out).act(view, state.legal_actions(1))
    text = out.getvalue()
    assert "· wish: ?\n" in text and "player 1 looks at 33 cards" in text
    assert wish not in text
