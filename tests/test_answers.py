"""What a person types at the terminal, matched to the options (interpreter/agents/answers.py, issue 19)."""
import io

import pytest

from interpreter import load_game
from interpreter.agents import HumanAgent
from interpreter.agents.answers import Names, Numbers, pick


class Option:
    def __init__(self, label):
        self.label = label

    def __repr__(self):
        return f"<{self.label}>"


WM = load_game("games/wunschmaschine.wish")
GUESSES = [Option(f"guess {m}") for m in ("pig", "heart", "palm_tree", "ice_cream", "crown")]
WISH_TURN = [Option(label) for label in (
    "travel palace_gardens, column_2", "travel dark_temple, column_2", "empower cataracts, column_1",
    "manifest cataracts, column_1", 'ice_dibs "Strength", column_3', "end_turn")]


@pytest.mark.parametrize("label, text", [
    ("guess palm_tree", "guess Palm tree"), ("guess ice_cream", "guess Ice cream"), ("end_turn", "end turn"),
    ('wish for "Palm tree"', 'wish for "Palm tree"'), ("answer slap", "answer slap"),
])
def test_labels_read_with_the_games_display_names(label, text):
    assert Names(WM).text(label) == text


def test_a_wish_option_names_its_area_and_column():
    names = Names(load_game("games/wish.wish"))
    assert names.text("travel dark_temple, column_2") == "Travel Dark Temple, column 2"
    assert names.text('ice_dibs "Strength", column_3') == 'ice dibs "Strength", column 3'


@pytest.mark.parametrize("answer, label", [
    ("palm", "guess palm_tree"), ("Palm tree", "guess palm_tree"), ("guess ice cream", "guess ice_cream"),
    ("ice", "guess ice_cream"), ("CROWN", "guess crown"), ("3", "guess palm_tree"), ("tree palm", "guess palm_tree"),
])
def test_answers_by_number_display_name_or_words(answer, label):
    texts = [Names(WM).text(o.label) for o in GUESSES]
    choice, problem = pick(answer, GUESSES, None, texts)
    assert problem is None and choice.label == label


@pytest.mark.parametrize("answer, message", [
    ("hart", "Did you mean 2) guess Heart?"),
    ("guess crwn", "Did you mean 5) guess Crown?"),
    ("zebra", "is not an option. Answer with a number from 1 to 5"),
    ("p", "could be 1) guess Pig, 3) guess Palm tree"),
    ("9", "There is no option 9"),
])
def test_answers_that_name_no_option_or_several(answer, message):
    texts = [Names(WM).text(o.label) for o in GUESSES]
    choice, problem = pick(answer, GUESSES, None, texts)
    assert choice is None and message in problem
    if "Did you mean" not in message:
        assert "Did you mean" not in problem


def test_a_misspelt_place_suggests_the_options_of_the_words_that_match():
    texts = [Names(load_game("games/wish.wish")).text(o.label) for o in WISH_TURN]
    choice, problem = pick("travel dok", WISH_TURN, None, texts)
    assert choice is None
    assert "Did you mean 1) Travel Palace Gardens, column 2, 2) Travel Dark Temple, column 2?" in problem
    assert pick("trav dark", WISH_TURN, None, texts)[0].label == "travel dark_temple, column_2"
    assert pick("end", WISH_TURN, None, texts)[0].label == "end_turn"


def test_an_option_keeps_its_number_while_it_is_offered():
    numbers = Numbers()
    assert numbers.assign(["a", "b", "c"]) == [1, 2, 3]
    assert numbers.assign(["b", "c", "d"]) == [2, 3, 4]  # a number from the older screen never picks another one
    opts = [Option(x) for x in ("b", "c", "d")]
    assert pick("1", opts, [2, 3, 4])[1].startswith("There is no option 1")
    assert pick("4", opts, [2, 3, 4])[0].label == "d"
    assert numbers.assign(["x", "y"]) == [1, 2]  # a new kind of decision starts again from 1


def test_the_human_sees_no_bookkeeping_and_keeps_numbers_across_decisions():
    state = WM.new_state(3, seed=2)
    out = io.StringIO()
    human = HumanAgent(0, input=io.StringIO("heart\n"), output=out).use_game(WM)
    action = human.act(state.view(0), state.legal_actions(0))
    assert action.label == 'wish for "Heart"'
    text = out.getvalue()
    assert "coins 0" in text and "answer" not in text  # `answer` is @bookkeeping
