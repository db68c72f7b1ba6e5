"""Parsing part by part (dsl/incremental.py) gives exactly the syntax tree a whole parse gives, or defers to it."""
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.extra.lark import from_lark
from lark.exceptions import VisitError

from dsl import ast as A
from dsl import incremental
from dsl import parser as P
from dsl.build import ToAst
from dsl.cache import _encode
from test_fmt import LAYOUTS
from test_fuzz import GRAMMAR, mutations

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(p.relative_to(ROOT)) for d in ("games", "tests") for p in (ROOT / d).rglob("*.wish"))
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def whole(text: str, path: str):
    """The syntax tree of a whole parse as JSON, or None when the text does not become one."""
    tree, diags = P._parse_tree(text, path)
    if diags:
        return None
    builder = ToAst(path)
    try:
        prog = builder.transform(tree)
    except (VisitError, RecursionError):  # a syntax problem found while building, or too deep: no tree
        return None
    if builder.problems or A.deepest(prog)[0] > P.MAX_DEPTH:
        return None
    prog.source = text  # as `parse` sets it
    return _encode(prog)


def by_parts(text: str, path: str):
    prog = incremental.parse_parts(text, path, P.grammar_parser(), P.MAX_DEPTH)
    if prog is None:
        return None
    prog.source = text
    return _encode(prog)


def same_or_deferred(text: str, path: str):
    """Part by part gives the whole parse's tree, or nothing and `parse` parses whole; returns that tree."""
    try:
        P._refuse_control_characters(text, path)  # `parse` refuses such a text before parsing it
    except P.WishSyntaxError:
        return None
    parts, full = by_parts(text, path), whole(text, path)
    if parts is not None:
        assert parts == full
    if full is not None:
        assert _encode(P.parse(text, path, cached=False)) == full
    return parts


@pytest.mark.parametrize("path", FILES)
def test_every_file_of_the_project_parses_the_same_part_by_part(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    assert same_or_deferred(text, path) is not None or whole(text, path) is None


def test_a_declaration_keyword_at_the_start_of_a_line_inside_a_block_is_parsed_whole():
    text = ('game "G" { players 1..2 }\ncard C { n: int = 0 }\nzone deck: C hidden\ncards C in deck {\n'
            '  | name | count | n |\n  | "c" | 1 | 0 |\n}\n'
            'abilities "c" {\nwhen begin_turn(p) {\n    log "hi"\n  }\n}\n'
            'event begin_turn(p: player)\nplay { emit begin_turn(first(players)) }\n')
    assert whole(text, "k.wish") is not None  # `when` at the start of a line, inside the abilities block
    assert same_or_deferred(text, "k.wish") is None


@SETTINGS
@given(mutations())
def test_mutated_game_files_parse_the_same_part_by_part(text):
    same_or_deferred(text, "m.wish")


@SETTINGS
@given(from_lark(GRAMMAR, explicit=LAYOUTS))
def test_generated_programs_parse_the_same_part_by_part(text):
    same_or_deferred(text, "g.wish")


@pytest.mark.parametrize("text, expected", [
    ('extends "s"\nvariant "v"\n', [("Extends", "v")]),
    ('extends "s" variant "v"\n', [("Extends", "v")]),
    ('extends "s"\nvariant "w" {}\n', [("Extends", None), ("Variant", "w")]),
    ('extends "s" variant "w" {}\n', [("Extends", None), ("Variant", "w")]),
    ('extends "s" variant "v"\nvariant "w" {}\n', [("Extends", "v"), ("Variant", "w")]),
    ('extends"s"\nvariant"s"# notegame"s"\n{}', [("Extends", None), ("Variant", "s")]),  # found by Hypothesis
])
def test_a_variant_declared_after_an_extends_is_a_declaration_both_ways(text, expected):
    assert same_or_deferred(text, "x.wish") is not None or whole(text, "x.wish") is not None
    decls = P.parse(text, "x.wish", cached=False).decls
    assert [(type(d).__name__, d.variant if isinstance(d, A.Extends) else d.name) for d in decls] == expected


def test_a_part_is_a_declaration_with_its_doc_string_and_annotations():
    text = ('# a game\n\ngame "G" { players 1..2 }\n"""The deck."""\n@reads("the deck")\nzone deck: C hidden\n'
            'card C {\n  n: int\n}\n# the end\n')
    assert incremental.parts(text) == [
        (0, '# a game\n\ngame "G" { players 1..2 }'),
        (3, '"""The deck."""\n@reads("the deck")\nzone deck: C hidden'),
        (6, "card C {\n  n: int\n}\n# the end\n"),
    ]


def test_after_an_edit_only_the_changed_declaration_is_parsed_again(monkeypatch):
    text = (ROOT / "games/wunschmaschine.wish").read_text(encoding="utf-8")
    edited = text.replace("param coins_to_win: int = 5", "param coins_to_win: int = 6")
    assert edited != text
    incremental.parse_parts(text, "w.wish", P.grammar_parser(), P.MAX_DEPTH)
    parsed = []

    class Counting:
        def parse(self, part):
            parsed.append(part)
            return P.grammar_parser().parse(part)

    prog = incremental.parse_parts(edited, "w.wish", Counting(), P.MAX_DEPTH)
    assert parsed == ['"""Coins that win the game."""\nparam coins_to_win: int = 6']
    prog.source = edited
    assert _encode(prog) == whole(edited, "w.wish")


def test_a_file_with_a_broken_declaration_gets_the_whole_parse_errors():
    text = 'game "G" { players 1..2 }\nvar a: int = 1 +\nvar b: int = 2\nplay { }\n'
    assert by_parts(text, "b.wish") is None
    with pytest.raises(P.WishSyntaxError) as err:
        P.parse(text, "b.wish", cached=False)
    assert [(d.span.line, d.span.col) for d in err.value.diagnostics] == [(3, 1)]
