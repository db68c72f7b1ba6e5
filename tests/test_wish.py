"""Wish-specific properties over random games: hand sizes between actions, saves in the middle of an ability."""
import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.agents import agent_seed, ask, make_agent

WISH = str(Path(__file__).parent.parent / "games" / "wish.wish")


def hands_and_sizes(st):
    g = st.game
    hand, size = g.pzone_index["hand"], g.param_index["hand_size"]
    return [(len(st.zones[st.pzone_slot(hand, p)]), st.param(size, p)) for p in st.seats]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hand_sizes_never_change_between_actions(players):
    game = load_game(WISH)
    checked = 0
    for seed in range(15):
        st = game.new_state(players, seed=seed)
        rng = random.Random(seed)
        while not st.is_over:
            if st.decision.prompt == "Take an action":
                assert all(n == size for n, size in hands_and_sizes(st)), (seed, hands_and_sizes(st))
                checked += 1
            st.apply(rng.choice(st.legal_actions()))
    assert checked > 100


def test_a_save_in_the_middle_of_an_ability_resumes_identically():
    game = load_game(WISH)
    found = 0
    for seed in range(400):  # random players reach such a decision in about one game of thirty
        if found >= 8:
            break
        st = game.new_state(3, seed=seed)
        rng = random.Random(seed)
        while not st.is_over:
            if st.stack[-1].env.get("self") is not None:  # the decision is asked by a card's ability
                copy, loaded = st.clone(), game.state_from_json(st.to_json())
                for s in (st, copy, loaded):
                    r = random.Random(seed + 1)
                    while not s.is_over:
                        s.apply(r.choice(s.legal_actions()))
                assert st.to_json() == copy.to_json() == loaded.to_json()
                found += 1
                break
            st.apply(rng.choice(st.legal_actions()))
    assert found >= 3, "random games should reach decisions inside abilities"


@pytest.mark.parametrize("spec", ["greedy:samples=2", "mcts:iterations=60;rollout=0;probe=1"])
def test_ai_players_choose_djinns_by_their_edge(spec):
    """The heuristic's "edge" term (tuned by self-play, the same all game long) is what tells Djinns apart at
    the start: the first chooser takes the Djinn with the largest edge, the second the largest one left."""
    game = load_game(WISH)
    edge = {m: game.enum_data[m]["edge"] for m in game.enum_members["Djinn"]}
    best = sorted(edge, key=edge.get, reverse=True)
    for seed in range(3):
        st = game.new_state(2, seed=seed)
        agents = [make_agent(spec, s, agent_seed(seed, s)) for s in st.seats]
        picks = []
        while len(picks) < 2:
            seat = st.to_move[0]
            action = ask(agents[seat], st, seat)
            if st.decision.prompt == "Choose your Djinn":
                picks.append(action.label.rsplit(" ", 1)[-1])
            st.apply(action)
        assert picks == best[:2], (seed, picks)


def _pays_after_trades(held: tuple, cost: tuple, ratio: int) -> bool:
    """Brute force: can trades (take one Crystal of a colour, give `ratio` Crystals of other colours) turn the
    Crystals `held` into ones that pay `cost`, which they do not pay yet? (The supply taken as unlimited.)"""
    def pays(c):
        return all(h >= n for h, n in zip(c, cost))

    if pays(held):
        return False
    frontier, seen = {held}, {held}
    for _ in range(sum(max(n - h, 0) for h, n in zip(held, cost))):
        nxt = set()
        for c in frontier:
            for take in range(len(c)):
                gives = {()}
                for _ in range(ratio):
                    gives = {tuple(sorted(g + (x,))) for g in gives for x in range(len(c))
                             if x != take and c[x] > g.count(x)}
                for g in gives:
                    after = tuple(n + (i == take) - g.count(i) for i, n in enumerate(c))
                    if pays(after):
                        return True
                    if after not in seen:
                        seen.add(after)
                        nxt.add(after)
        frontier = nxt
    return False


def test_the_ai_considers_a_free_trade_only_when_trades_would_pay_for_a_wish_in_hand():
    """The heuristic's advice (`consider trade only when …`), against a brute force over trades: in random games
    the free trade is legal at many choices of action; the advice keeps it from the AI players exactly where no
    sequence of trades pays for a Wish in hand, and a searching agent then takes no trade."""
    from interpreter.agents.search import advised_against
    from interpreter.infoset import InfoSet

    game = load_game(WISH)
    g = game
    crystals, djinn = g.pvar_index["crystals"], g.pvar_index["djinn"]
    hand = g.pzone_index["hand"]
    verdicts = []
    for seed in range(6):
        st = game.new_state(2, seed=seed)
        rng = random.Random(seed)
        while not st.is_over:
            seat = st.to_move[0]
            labels = [a.label for a in st.legal_actions(seat)]
            if st.decision.prompt == "Take an action" and "trade" in labels:
                against = "trade" in advised_against(st, seat)
                held = st.pvars[seat][crystals]
                ratio = 2 if st.pvars[seat][djinn] == "air" else 3
                costs = [g.card_defs[c].fields["cost"] for c in st.zones[st.pzone_slot(hand, seat)]]
                assert against != any(_pays_after_trades(held, cost, ratio) for cost in costs), (seed, held, costs)
                verdicts.append(against)
                if against and verdicts.count(True) <= 3:
                    agent = make_agent("mcts:iterations=40;rollout=0;probe=1", seat, seed)
                    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
                    assert all(cls[0] != "trade" for cls in agent.last_root.stats[seat]), seed
            st.apply(rng.choice(st.legal_actions()))
    assert verdicts.count(True) > 10 and verdicts.count(False) > 10, (verdicts.count(True), verdicts.count(False))
