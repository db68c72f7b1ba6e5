"""Looking things up during play (docgen/lookup.py, issue 19): cards, components and rules from the cheat-sheet,
and the person at the terminal reading them between decisions."""
import io

import pytest

from docgen.lookup import Reference
from interpreter import load_game
from interpreter.agents import HumanAgent


@pytest.fixture(scope="module")
def wish():
    return Reference("games/wish.wish")


@pytest.fixture(scope="module")
def machine():
    return Reference("games/wunschmaschine.wish")


def test_a_card_reads_with_its_fields_and_its_rules(wish):
    text = wish.card("eye for")
    assert text.startswith("Eye for an Eye (Wish card)")
    assert "cost: 2 Amethyst, 1 Citrine, 1 Emerald and 1 Ruby" in text and "VP: 3" in text
    assert "Rules:" in text and "You take one of that player's Crystals." in text


def test_a_component_of_any_enum(wish, machine):
    assert "ability: Draw a Wish card from the discard pile. Discard a Wish card." in wish.component("dark temple")
    assert wish.component("fire", "Djinn").startswith("Fire Djinn (Djinn)")
    assert wish.enum_named("area") == "Area" and wish.enum_named("djinn") == "Djinn"
    assert machine.component("palm", "Item").startswith("Palm tree (Item)")


def test_names_are_matched_with_did_you_mean(wish):
    assert wish.card("hatrd") == "No 'hatrd' here. Did you mean Charm, Hatred?"
    assert "could be" in wish.card("f")
    assert "Did you mean Dock?" in wish.component("dok", "Area")


def test_rules_by_topic(wish):
    scoring = wish.rules("scoring")
    assert scoring.startswith("Scoring and the end of the game") and "Ties are broken by" in scoring
    assert "**" not in scoring and "\\" not in scoring
    assert wish.rules("trade").startswith("Trade\n")  # the exact heading wins over "Caravan trade"
    assert wish.rules("").startswith("Rules topics: Overview and goal; Components;")


def test_a_cards_summary_for_the_hand(wish):
    assert wish.summary("Long Life") == ("green · cost 2 Emerald, 1 Citrine, 1 Diamond, 1 Ruby and 1 Sapphire · "
                                         "VP 6 · Instant · Gain 1 Emerald.")
    assert wish.summary("No Such Card") is None


def test_a_person_reads_rules_and_cards_between_decisions(machine):
    game = load_game("games/wunschmaschine.wish")
    state = game.new_state(3, seed=2)
    out = io.StringIO()
    answers = "card combo a\nitem palm\nrules slap\nhelp\nheart\n"
    human = HumanAgent(0, input=io.StringIO(answers), output=out).use_game(game, machine)
    assert human.act(state.view(0), state.legal_actions(0)).label == 'wish for "Heart"'
    text = out.getvalue()
    assert "Combo A (Wish card)" in text and "items: Pig, Heart and Palm tree" in text
    assert "Palm tree (Item)" in text
    assert "Slap\nThe Agents race to slap the wish card" in text
    assert "'rules TOPIC', 'card NAME'" in text


def test_only_the_cards_a_player_sees_in_their_own_zones_are_described(wish):
    game = load_game("games/wish.wish")
    state = game.new_state(2, seed=3)

    def hand(view):
        return next(z for z in view["zones"] if z["zone"] == "hand of player 1")["cards"]

    while state.to_move != [0] or not hand(state.view(0)):
        state.apply(state.legal_actions(state.to_move[0])[0])
    out = io.StringIO()
    HumanAgent(0, input=io.StringIO("1\n"), output=out).use_game(game, wish).act(state.view(0),
                                                                                 state.legal_actions(0))
    text = out.getvalue()
    mine = [c["name"] for c in hand(state.view(0))]
    assert mine
    theirs = [state.card_name(c) for c in state.zones[state.pzone_slot(game.pzone_index["hand"], 1)]]
    assert all(f"• {name}: " in text for name in mine)
    assert not any(f"• {name}: " in text for name in theirs if name not in mine)


def test_three_wishes_describes_nothing_its_player_does_not_know():
    game = load_game("games/three_wishes.wish")
    state = game.new_state(3, seed=1)
    out = io.StringIO()
    HumanAgent(0, input=io.StringIO("1\n"), output=out).use_game(game, Reference("games/three_wishes.wish")).act(
        state.view(0), state.legal_actions(0))
    assert "•" not in out.getvalue()  # you never look at your own cards
