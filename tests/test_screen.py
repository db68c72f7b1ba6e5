"""The screen before a decision (issue 19): it fits the terminal (100 × 40 for Wish with 4 players), dropping
detail a step at a time; the log joins each player's moves; options that differ in one place are listed
together and keep their numbers; 'score' prints the score so far step by step."""
import io
import random

import pytest

from docgen.lookup import Reference
from interpreter import load_game
from interpreter.agents import make_agent, play
from interpreter.agents.human import HumanAgent
from interpreter.agents.screen import LEVELS, Detail, fit, log_section, options_section


class Person(HumanAgent):
    """A person who answers with a random option's number and whose screens are kept, one per decision."""

    def __init__(self, seat, seed, height=None):
        super().__init__(seat, input=io.StringIO(), output=io.StringIO())
        self.rng = random.Random(seed)
        self.screens: list = []
        self.details: list = []
        self.height = height

    def size(self):
        return (100, self.height) if self.height else super().size()

    def screen(self, view, prompt, numbers, texts, detail, width):
        self.offered = numbers
        self.details.append(detail)
        return super().screen(view, prompt, numbers, texts, detail, width)

    def read(self, prompt):
        lines = self._output.getvalue().strip("\n").split("\n") + [prompt]
        self.screens.append(lines)
        self._output.seek(0)
        self._output.truncate()
        return str(self.rng.choice(self.offered))


@pytest.fixture(scope="module")
def wish():
    return load_game("games/wish.wish"), Reference("games/wish.wish")


@pytest.mark.parametrize("seed", [0, 1])
def test_every_screen_of_a_four_player_wish_game_fits_100_by_40(wish, seed):
    game, ref = wish
    person = Person(0, seed).use_game(game, ref)
    state = game.new_state(4, seed=seed)
    play(state, [person] + [make_agent("random", p, seed) for p in (1, 2, 3)])
    assert state.is_over and len(person.screens) > 20
    for lines in person.screens:
        assert len(lines) <= 40 and max(map(len, lines)) <= 100, "\n".join(lines)
        assert lines[0] == "── Wish — you are player 1 ──" and lines[-1] == "player 1> "
        assert lines[1 + next(i for i, line in enumerate(lines[1:]) if line.startswith("─ SANDHILLS ─"))]
        assert sum(line.startswith(f"player {p}") for line in lines for p in (1, 2, 3, 4)) >= 4  # every panel
        assert any("· score " in line for line in lines)
    assert len(set(person.details)) > 1  # detail was dropped on some screens, not on all


def test_a_tall_terminal_shows_everything(wish):
    """With room, the screen keeps every detail: each own card's text in full, every option on its line."""
    game, ref = wish
    person = Person(0, 3, height=200).use_game(game, ref)
    state = game.new_state(4, seed=3)
    play(state, [person] + [make_agent("random", p, 3) for p in (1, 2, 3)])
    assert set(person.details) == {LEVELS[0]}
    assert any(line.startswith("    • ") and " · cost " in line for s in person.screens for line in s)


def test_fit_takes_the_first_level_that_fits():
    sizes = {LEVELS[0]: 50, LEVELS[1]: 45, LEVELS[2]: 39}
    assert fit(lambda d: ["x"] * sizes.get(d, 30), 40) == ["x"] * 39
    assert fit(lambda d: ["x"] * 99, 40) == ["x"] * 99  # none fits: the most compact one


def test_the_log_joins_a_players_lines_and_keeps_the_newest_that_fit():
    lines = ["Round 2", "player 2: travel Oasis", "player 2: trade", "move from deck to hand", "player 2: end turn",
             "player 3: travel Dock", "player 3: end turn"]
    quiet = [False, False, False, True, False, False, False]
    assert log_section(lines, quiet, None) == [
        "  Round 2", "  player 2: travel Oasis · trade · end turn", "  player 3: travel Dock · end turn",
        "  (1 more line: cards moved and values changed, as the table shows; 'log' prints them)"]
    assert log_section(lines, quiet, 1) == [
        "  player 3: travel Dock · end turn",
        "  (4 earlier lines and 1 of cards moved and values changed, as the table shows; 'log' prints them)"]
    assert log_section(lines[:3], [False] * 3, None) == ["  Round 2", "  player 2: travel Oasis · trade"]


def test_options_that_differ_in_one_place_are_listed_together_with_their_numbers():
    texts = ["End your turn"] + [f"A Wind Blast to {a} (column 3)" for a in ("Oasis", "Dark Temple", "Dock")] + \
        ["Travel to Oasis (column 1)", "Travel to Dock (column 1)"]
    numbers = [7, 2, 3, 4, 5, 6]
    assert options_section("Take an action", numbers, texts) == [
        "Take an action", "  2) A Wind Blast to Oasis (column 3)", "  3) A Wind Blast to Dark Temple (column 3)",
        "  4) A Wind Blast to Dock (column 3)", "  5) Travel to Oasis (column 1)", "  6) Travel to Dock (column 1)",
        "  7) End your turn"]
    assert options_section("Take an action", numbers, texts, grouped=3) == [
        "Take an action", "  A Wind Blast to … (column 3):  2) Oasis  3) Dark Temple  4) Dock",
        "  5) Travel to Oasis (column 1)", "  6) Travel to Dock (column 1)", "  7) End your turn"]
    assert options_section("Take an action", numbers, texts, grouped=2, columns=2) == [
        "Take an action", "  A Wind Blast to … (column 3):  2) Oasis  3) Dark Temple  4) Dock",
        "  Travel to … (column 1):  5) Oasis  6) Dock", "  7) End your turn"]
    short = [f"option {k}" for k in "abc"]
    assert options_section("Pick", [1, 2, 3], ["yes", "no", "maybe"], grouped=2, columns=2, width=40) == [
        "Pick", "  1) yes".ljust(20) + "  2) no", "  3) maybe"]
    assert options_section("Pick", [1, 2, 3], short, grouped=2, width=30) == [
        "Pick", "  option …:  1) a  2) b  3) c"]


def test_a_grouped_option_is_answered_by_its_number_or_its_words(wish):
    game, _ = wish
    state = game.new_state(4, seed=0)
    while not any("Wind Blast" in t for t in state.legal_actions(state.to_move[0]).texts()):
        state.apply(random.Random(len(state.log)).choice(state.legal_actions(state.to_move[0])))
    seat = state.to_move[0]
    options = state.legal_actions(seat)
    target = next(t for t in options.texts() if t.startswith("A Wind Blast to Dock"))
    out = io.StringIO()
    person = HumanAgent(seat, input=io.StringIO("wind blast dock\n"), output=out).use_game(game)
    chosen = person.act(state.view(seat), options)
    assert options.texts()[list(options).index(chosen)] == target


def test_score_prints_the_score_so_far_step_by_step(wish):
    game, ref = wish
    state = game.new_state(2, seed=3)
    seat = state.to_move[0]
    out = io.StringIO()
    HumanAgent(seat, input=io.StringIO("score\n1\n"), output=out).use_game(game, ref).act(
        state.view(seat), state.legal_actions(seat))
    text = out.getvalue()
    me, other = seat + 1, 2 - seat
    assert f"player {me} (you): 0\n    1. Victory Points of your fulfilled Wishes: 0\n" in text
    assert f"player {other}: 0 + ?\n" in text and "    5. Destiny: ?\n" in text


def test_a_detail_is_a_value():
    assert Detail() == LEVELS[0] and LEVELS[-1].cards == "none" and LEVELS[-1].log == 1
