"""No sentence of a cheat-sheet reads like code (issue 18): for every game, variant and house rule, the sheet and
the house rule's diff are hunted for the marks of a program leaking into English.

A hit is a defect of the English generator (docgen/), not of one sheet: fix the generator so every game benefits.
The hunter itself is tested on sentences it must catch and sentences it must let pass.
"""
import re
from pathlib import Path

import pytest

from docgen.diff import game_diff, house_diffs, render_diff
from docgen.render import all_sheets, render_sheet

ROOT = Path(__file__).parent.parent
GAMES = sorted((ROOT / "games").glob("*.wish"))
HOUSE = ROOT / "games" / "house"

CODE_LIKE = {
    "a backtick": r"`",
    "an identifier with underscores": r"(?<![\w/.\\-])[a-z]+(?:\\?_[a-z0-9]+)+\b",
    "a one-letter name": r"\b(?:[A-Z][a-z]+|player) [b-z](?=['’]|[\s,.;:)]|$)",
    "a possessive before an article": r"\w['’]s? (?:the|a|an|that) ",
    "two articles in a row": r"\b(?:the|a|an|no) (?:the|a|an|your|their|that)\b",
    "“you” with a verb for “he”": r"\b[Yy]ou (?:declares|gains|has|is|takes|pays|moves|chooses|draws|holds|was)\b",
    "an operator": r"==|!=|&&|\|\||\+=|-=|<=|>=",
    "a CamelCase name": r"\b[A-Z][a-z]+[A-Z][a-z]+\w*\b",
    "a word twice": r"\b(from|to|the|a|an|of|in|on|at|is|and|or)\s+\1\b",
}
FILE_NAME = re.compile(r"[\w\\/.-]+\.(?:md|wish|yaml|html)\b")  # a sheet names its sibling sheets and files


def code_like(text: str) -> list:
    """(line number, what, the text found, the line) for every code-like mark in a Markdown page."""
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        plain = FILE_NAME.sub("FILE", line)
        for what, pattern in CODE_LIKE.items():
            for m in re.finditer(pattern, plain):
                out.append((i, what, m.group(0), line.strip()))
    return out


def report(hits: list) -> str:
    return "\n".join(f"  line {i}: {what} ({found!r}): {line[:160]}" for i, what, found, line in hits[:20])


@pytest.mark.parametrize("bad", [
    "For some Column c in the action columns, the column is open.",
    "The player chooses Crystal x from the supply.",
    "Move 1 Crystal x to player q's crystals.",
    "Only if the player's the column is open.",
    "If there are no the player's kept Gems.",
    "You declares the end of the game.",
    "Only if count(p.hand) == 3.",
    "The Caravan moves along `next`.",
    "Set the turn_over to false.",
    "Each card has a type (a WishType).",
    "You choose a player to take a Crystal from from the victims.",
])
def test_the_hunter_catches_code_like_sentences(bad):
    assert code_like(bad), bad


@pytest.mark.parametrize("good", [
    "For some Column in the action columns, the player's Column is open.",
    "You choose a Crystal to give from your crystals other than the Crystal to take.",
    "That player gains one crystal of this card's color.",
    "Repeat N times:",
    "The base game's sheet is three_wishes.md.",
    "A Wish card has type (a Wish type).",
    "Choose an Area a player may travel to.",
])
def test_the_hunter_lets_english_pass(good):
    assert not code_like(good), code_like(good)


def sheets():
    for path, variant, name in all_sheets(GAMES):
        yield pytest.param(path, variant, id=name)
    for path, _ in house_diffs(HOUSE):
        yield pytest.param(path, None, id=Path(path).stem)


@pytest.mark.parametrize("path, variant", list(sheets()))
def test_no_sheet_reads_like_code(path, variant):
    hits = code_like(render_sheet(path, variant, "md"))
    assert not hits, f"{path} {variant or ''}: code-like sentences\n{report(hits)}"


@pytest.mark.parametrize("path, base", house_diffs(HOUSE), ids=lambda p: Path(p).stem)
def test_no_house_rule_diff_reads_like_code(path, base):
    hits = code_like(render_diff(game_diff(base, path), "md"))
    assert not hits, f"{path}: code-like sentences in the diff\n{report(hits)}"


def test_every_game_and_house_rule_is_hunted():
    ids = [p.id for p in sheets()]
    assert {"wish", "wish-solo", "wish-random-djinns", "three_wishes", "three_wishes-match", "wunschmaschine",
            "wunschmaschine-left-right"} <= set(ids)
    assert len([i for i in ids if i.startswith(("wish_", "three_wishes_", "wunschmaschine_"))]) == len(
        list(HOUSE.glob("*.wish")))
