"""`undo` at the terminal (issue 19): a person takes back their previous decision, unless something was revealed
to them since (a card, an announcement); the game, the actions taken and the save go back with it."""
import io

import pytest

from interpreter import load_game
from interpreter.agents import HumanAgent, Quit, RandomAgent, play


def human_game(path, players, seed, answers, seat=0, variant=None):
    game = load_game(path, variant)
    state = game.new_state(players, seed=seed)
    out = io.StringIO()
    agents = [RandomAgent(p, seed) for p in range(players)]
    agents[seat] = HumanAgent(seat, input=io.StringIO(answers), output=out).use_game(game)
    taken, saved = [], []
    with pytest.raises(Quit):
        play(state, agents, None, taken, lambda st, done: saved.append(len(done)))
    return state, taken, saved, out.getvalue()


def test_a_decision_that_revealed_nothing_is_taken_back():
    """3 Wishes: shuffling your own hand shows you nothing, so the second action may take it back."""
    state, taken, saved, text = human_game("games/three_wishes.wish", 3, 1, "shuffle\nundo\nlook\n")
    assert "Taken back: your previous decision is asked again." in text
    assert [a.label for a in taken] == ["look"]  # the shuffle is gone from the actions taken
    assert saved == [1, 0, 1]  # the save was written again without it
    assert not any("shuffle" in line for line in state.log_lines(0)[-3:])


def test_undo_is_refused_once_a_card_was_shown_to_you():
    """3 Wishes: a peek shows you a card; undoing would let you decide again knowing it."""
    _, taken, _, text = human_game("games/three_wishes.wish", 3, 1, "look\n1\n1\nundo\n")
    assert "Cannot undo: a card was shown to you since then." in text
    assert [a.label for a in taken][0] == "look"


def test_undo_is_refused_after_an_announcement():
    """Wunschmaschine: as the Machine you wish, then the rows are announced; the wish stays."""
    _, taken, _, text = human_game("games/wunschmaschine.wish", 3, 2, "heart\nundo\n", seat=0)
    assert "Cannot undo: something was announced since then." in text
    assert taken[0].label == 'wish for "Heart"'


def test_there_is_nothing_to_take_back_at_the_first_decision():
    _, taken, _, text = human_game("games/three_wishes.wish", 3, 1, "undo\n")
    assert "Cannot undo: there is no earlier decision of yours to take back." in text and taken == []
