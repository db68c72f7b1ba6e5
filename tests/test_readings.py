"""Readings of the two smaller games' rulebooks that random play must keep (issue 18).

3 Wishes: "the game ends immediately if a player has a complete set of three different wish types" — no hand is
ever dealt one, so no turn starts with a complete set in any hand, in any round of a match.
Wunschmaschine Left-Right: the right item with the wrong hand gains no coin and costs nothing.
"""
import random

import pytest

from interpreter import load_game

THREE = "games/three_wishes.wish"


def hand_types(st, player: int) -> set:
    g = st.game
    slot = st.pzone_slot(g.pzone_index["hand"], player)
    return {g.card_defs[st.ids.of[c]].fields["type"] for c in st.zones[slot]}


def round_starts(game, players: int, seed: int):
    """Each state at the first decision of a round: the starter's first action, nothing taken yet."""
    st = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    g = st.game
    turns, used, starter = g.pvar_index["turns"], g.pvar_index["used"], g.gvar_index["starter"]
    while not st.is_over:
        if sum(st.pvars[p][turns] for p in range(players)) == 1 and not st.pvars[st.gvars[starter]][used]:
            yield st
        st.apply(rng.choice(list(st.legal_actions())))


@pytest.mark.parametrize("variant", [None, "Match"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_round_of_3_wishes_starts_with_a_complete_set_in_a_hand(players, variant):
    game = load_game(THREE, variant)
    rounds = 0
    for seed in range(40):
        for st in round_starts(game, players, seed):
            rounds += 1
            assert all(len(hand_types(st, p)) < 3 for p in range(players)), (seed, players)
    assert rounds >= 40 if variant is None else rounds > 80


def test_the_deal_is_repeated_until_no_hand_holds_a_set():
    """The set-up really deals again: for some seeds the first shuffle would have given a hand a complete set,
    seen as more than one shuffle of the deck before the first decision."""
    game = load_game(THREE)
    shuffles = [sum("deck is shuffled" in line for line in game.new_state(4, seed=s).log_lines()) for s in range(30)]
    assert min(shuffles) == 1 and max(shuffles) > 1
    assert sum(n > 1 for n in shuffles) >= 10  # most deals of four hands give one of them a complete set


@pytest.mark.heavy
def test_left_right_the_wrong_hand_moves_no_coin():
    """Random Left-Right games: a decision whose log says the hand was wrong leaves every coin where it was, and
    such decisions do happen."""
    game = load_game("games/wunschmaschine.wish", "Left-Right")
    wrong = 0
    for seed in range(60):
        st = game.new_state(4, seed=seed)
        rng = random.Random(seed)
        g = st.game
        coins, supply = g.pvar_index["coins"], g.gvar_index["supply"]
        while not st.is_over:
            before = (st.gvars[supply], [st.pvars[p][coins] for p in range(4)])
            start = len(st.log_lines())
            st.apply(rng.choice(list(st.legal_actions())))
            if any("wrong hand" in line for line in st.log_lines(start=start)):
                wrong += 1
                assert (st.gvars[supply], [st.pvars[p][coins] for p in range(4)]) == before
    assert wrong > 5
