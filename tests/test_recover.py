"""Syntax-error recovery (dsl/recover.py): resuming the parse where a broken declaration was blanked out finds
exactly the errors that parsing the whole blanked file again would find."""
from hypothesis import HealthCheck, given, settings

from dsl import parser as P
from dsl.recover import _broken_region
from lark.exceptions import UnexpectedInput
from test_fuzz import mutations


def reparsed(text: str, path: str) -> list:
    """Every error, the slow way: after each one, blank its declaration and parse the whole file again."""
    lines = text.split("\n")
    diags = []
    while True:
        try:
            P.grammar_parser().parse("\n".join(lines))
            return diags
        except (UnexpectedInput, RecursionError) as err:
            d = P._diagnose(err, path)
            if diags and d == diags[-1]:  # blanking did not get past it: reported once
                return diags
            diags.append(d)
        region = _broken_region(lines, diags[-1])
        if region is None or len(diags) >= P.MAX_SYNTAX_ERRORS:
            return diags
        for i in range(*region):
            lines[i] = ""


def resumed(text: str, path: str) -> list:
    tree, diags = P._parse_tree(text, path)
    assert (tree is None) == bool(diags)
    return diags


def shown(diags: list) -> list:
    return [(d.span, d.message, d.hint) for d in diags]


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutations())
def test_resuming_finds_the_errors_a_whole_parse_finds(text):
    assert shown(resumed(text, "m.wish")) == shown(reparsed(text, "m.wish"))


BROKEN = '''game "Broken" { players 2..4 }
var a: int = 1 +
var b: int = 2
"""A doc string of a broken procedure."""
@reads("p")
procedure p() {
  let = 3
}
zone deck: C hidden
card C { n: int = }
function f(): int = (1
procedure q() { log "fine" }
play { q( }
'''


def test_every_broken_declaration_is_reported_once_in_order():
    diags = resumed(BROKEN, "b.wish")
    assert [(d.span.line, d.span.col) for d in diags] == [(3, 1), (7, 7), (10, 19), (12, 1), (13, 11)]
    assert shown(diags) == shown(reparsed(BROKEN, "b.wish"))


def test_the_limit_of_errors_holds():
    text = "\n".join(f"var v{i}: int = 1 +" for i in range(P.MAX_SYNTAX_ERRORS + 5)) + "\nplay { }\n"
    diags = resumed(text, "l.wish")
    assert len(diags) == P.MAX_SYNTAX_ERRORS
    assert shown(diags) == shown(reparsed(text, "l.wish"))


def test_a_file_that_parses_has_no_errors_to_recover():
    assert resumed('game "G" { players 1..2 }\nplay { }\n', "g.wish") == []


def test_every_declaration_of_the_grammar_begins_a_part():
    """The words recovery and part-by-part parsing split a file at are the first words of every declaration the
    grammar has (a declaration added to grammar.lark without its word would make a broken one swallow the next)."""
    import re

    from dsl.recover import decl_starts
    grammar = P.GRAMMAR_PATH.read_text(encoding="utf-8")
    body = grammar[grammar.index("?decl_body:"):].split("\n\n")[0]
    rules = re.findall(r"(?:\||:)\s*(\w+)", body)
    assert len(rules) > 20
    for rule in rules:
        first = re.search(rf"^{rule}:\s*(OWNER\?\s*)?\"(\w+)\"", grammar, re.M)
        assert first is not None, rule
        line = f"{first.group(2)} {{"  # `table` begins a declaration only before its brace
        assert decl_starts([line]) == [0], line
        if first.group(1):
            assert decl_starts([f"player {line}"]) == [0]


def test_without_lark_internals_to_resume_every_error_is_found_by_whole_parses(monkeypatch):
    """A Lark whose internals differ (pyproject allows 1.1.9): the same errors, found the slow way."""
    from dsl import recover
    expected = shown(resumed(BROKEN, "b.wish"))
    monkeypatch.setattr(recover, "ParserState", None)
    assert shown(resumed(BROKEN, "b.wish")) == expected
