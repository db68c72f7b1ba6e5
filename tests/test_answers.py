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


def first_decision_with(game, players, seed, prefix):
    state = game.new_state(players, seed=seed)
    while not any(a.label.startswith(prefix) for a in state.legal_actions(state.to_move[0])):
        state.apply(state.legal_actions(state.to_move[0])[0])
    return state, state.legal_actions(state.to_move[0])


def test_an_action_reads_by_its_phrase_with_display_names():
    """`@reads("travel to {to} ({column})")` on an action: its options read as a person says them."""
    state, options = first_decision_with(load_game("games/wish.wish"), 2, 3, "ice_dibs")
    texts = dict(zip([a.label for a in options], options.texts()))
    assert texts["travel dark_temple, column_2"] == "Travel to Dark Temple (column 2)"
    assert texts['ice_dibs "Celebration", column_3'] == "Ice Dibs: a Frostflake on Celebration (column 3)"
    assert texts["end_turn"] == "End your turn"


def test_hidden_cards_read_as_the_label_says_them():
    state = load_game("games/three_wishes.wish").new_state(3, seed=3)
    options = state.legal_actions(0)
    texts = dict(zip([a.label for a in options], options.texts()))
    assert texts["exchange card 1 of hand of player 1, card 1 of centre"] == \
        "Swap card 1 of hand of player 1 with card 1 of centre"
    assert texts["look"] == "Peek at two cards"


def test_choices_read_with_display_names_and_texts_are_refused_after_the_decision():
    state = WM.new_state(3, seed=3)
    state.apply('wish for "Heart"')
    while not any(a.label.startswith("guess") for a in state.legal_actions(state.to_move[0])):
        for p in list(state.to_move):
            state.apply("slap" if p == 1 else "wait", p)
    options = state.legal_actions(state.to_move[0])
    assert "guess Palm tree" in options.texts() and "guess Ice cream" in options.texts()
    state.apply(options[0])
    with pytest.raises(ValueError, match="read it before the decision is answered"):
        options.texts()


def test_a_person_answers_with_the_words_of_an_actions_phrase():
    game = load_game("games/wish.wish")
    state, options = first_decision_with(game, 2, 3, "ice_dibs")
    out = io.StringIO()
    human = HumanAgent(state.to_move[0], input=io.StringIO("frostflake celebration\n"), output=out).use_game(game)
    assert human.act(state.view(state.to_move[0]), options).label == 'ice_dibs "Celebration", column_3'
    assert "Ice Dibs: a Frostflake on Celebration (column 3)" in out.getvalue()


def test_the_log_a_person_reads_uses_the_games_display_names():
    out = io.StringIO()
    human = HumanAgent(0, output=out).use_game(WM)
    human.show_log(["player 3: guess palm_tree", "player 2: wait"])
    assert out.getvalue() == "  player 3: guess Palm tree\n  player 2: wait\n"
