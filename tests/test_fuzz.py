"""Fuzzing the front end: programs generated from the grammar, and mutations of the real game files.

Whatever the text, parsing and checking end with diagnostics or success — never another exception.
"""
import re
from pathlib import Path

import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from dsl.errors import WishError
from dsl.parser import GRAMMAR_PATH, parse
from interpreter import check_program

GAME_FILES = sorted(Path(__file__).parent.parent.joinpath("games").glob("*.wish"))
SOURCES = [p.read_text(encoding="utf-8") for p in GAME_FILES]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))

GRAMMAR = lark.Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", lexer="contextual")
TERMINALS = {
    "NAME": st.sampled_from(["x", "p", "coins", "deck", "Item", "pig", "players", "you", "self", "first", "count"]),
    "DOC": st.just('"""a doc"""'),
    "STRING": st.sampled_from(['"s"', '"Pig"', '""']),
    "INT": st.sampled_from(["0", "1", "4", "99999999999999999999"]),
    "SIGNED_INT": st.sampled_from(["-1", "2"]),
    "WS": st.just(" "),
}


def front_end(text: str) -> None:
    try:
        check_program(parse(text, "fuzz.wish", cached=False))
    except WishError as err:
        assert err.render()


@pytest.mark.heavy
@SETTINGS
@given(from_lark(GRAMMAR, explicit=TERMINALS))
def test_programs_from_the_grammar_never_crash_the_front_end(text):
    front_end(text)


# Replacement tokens: brackets, quotes, odd Unicode (combining, bidi, emoji, BOM, NUL), huge numbers, deep nesting.
JUNK = ["}", "{", "(", '"""', '"', "@", "|", "é", "\u202e", "\x00", "9" * 40, "((((((((((", "let", "when", "player",
        "-", "..", "\t", "\u0301", "\U0001F600", "\ufeff", "\r", "1" + "0" * 400, "(" * 300, "{ " * 300, "[" * 300,
        "not " * 500, "- " * 500, "\u2028", "\udcff"]


def mutations():
    lines = st.integers(min_value=0, max_value=10_000)
    source = st.sampled_from(SOURCES)
    junk = st.sampled_from(JUNK)

    @st.composite
    def mutate(draw):
        text = draw(source)
        rows = text.split("\n")
        for _ in range(draw(st.integers(1, 4))):
            i = draw(lines) % len(rows)
            how = draw(st.sampled_from(["delete", "duplicate", "swap", "insert", "truncate", "replace"]))
            if how == "delete":
                del rows[i]
            elif how == "duplicate":
                rows.insert(i, rows[i])
            elif how == "swap":
                j = draw(lines) % len(rows)
                rows[i], rows[j] = rows[j], rows[i]
            elif how == "insert":
                col = draw(lines) % (len(rows[i]) + 1)
                rows[i] = rows[i][:col] + draw(junk) + rows[i][col:]
            elif how == "truncate":
                rows = rows[:i]
            else:
                words = rows[i].split()
                if words:
                    words[draw(lines) % len(words)] = draw(junk)
                    rows[i] = " ".join(words)
            if not rows:
                rows = [""]
        return "\n".join(rows)
    return mutate()


@pytest.mark.heavy
@SETTINGS
@given(mutations())
def test_mutated_game_files_never_crash_the_front_end(text):
    front_end(text)


def diagnosed(text: str, words: str) -> str:
    """The rendered error a text must give: a WishError whose first diagnostic has a position and `words`."""
    try:
        check_program(parse(text, "fuzz.wish"))
    except WishError as err:
        shown = err.render()
        assert words in shown and re.match(r"fuzz\.wish:\d+:\d+: error: ", shown), shown
        return shown
    raise AssertionError(f"accepted, but it should be refused with {words!r}")


def test_deep_nesting_is_a_diagnostic_not_a_crash():
    # brackets around an expression add no level: 5,000 of them read as the number inside
    deep = 'game "D" { players 1..2 }\nvar x: int = ' + "(" * 5000 + "1" + ")" * 5000 + "\nplay { }\n"
    assert check_program(parse(deep, "fuzz.wish")) is not None
    nested = 'game "D" { players 1..2 }\nplay { ' + "if true { " * 3000 + "}" * 3000 + " }\n"
    assert diagnosed(nested, "nested too deeply").startswith("fuzz.wish:2:")


def test_long_operator_chains_are_a_diagnostic_not_a_crash():
    chain = 'game "D" { players 1..2 }\nvar x: int = ' + " + ".join(["1"] * 3000) + "\nplay { }\n"
    assert diagnosed(chain, "nested too deeply").startswith("fuzz.wish:2:")
    nots = 'game "D" { players 1..2 }\nvar x: bool = ' + "not " * 3000 + "true\nplay { }\n"
    assert diagnosed(nots, "nested too deeply").startswith("fuzz.wish:2:")
