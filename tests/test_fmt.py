"""`wishdsl fmt`: every layout rule on a small text, fixed points and the same program for every .wish file, the
command line, and programs generated from the grammar."""
from pathlib import Path

import attrs
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from dsl import ast as A
from dsl.ast import difference as same_program
from dsl.errors import WishError, WishSyntaxError
from dsl.fmt import FormatError, format_source
from dsl.parser import parse
from test_fuzz import GRAMMAR, SETTINGS, TERMINALS

GENERATED = settings(SETTINGS, max_examples=60)  # three of four generated texts do not parse: 60 cost ~15 s
from wishdsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
ALL_WISH_FILES = sorted(str(p.relative_to(ROOT)) for d in ("games", "tests") for p in (ROOT / d).rglob("*.wish"))

# (rule, source, its canonical layout)
CASES = [
    ("spaces around operators, none inside brackets",
     "var x: int = (1+2)*3-f( 4 )%2\nvar y: bool = x<=2 and not(x!=3)or x in [ 1 ,2 ]\n",
     "var x: int = (1 + 2) * 3 - f(4) % 2\nvar y: bool = x <= 2 and not (x != 3) or x in [1, 2]\n"),
    ("a space after commas and colons, none before; tight calls, indexes, fields, '?' and unary minus",
     "function f(a :int ,b : player ?) : int = g (a) [ 0 ] . name + b . n+ - a\nvar w[ a : Area ]: int = - 1\n",
     "function f(a: int, b: player?): int = g(a)[0].name + b.n + -a\nvar w[a: Area]: int = -1\n"),
    ("ranges, annotations, percentages and signed orders are tight",
     'game "G" { players 2 .. 4 }\n@ reads ( "x" )\nvar x: int = 0\nheuristic p { weigh -5% "x" x }\n'
     "when e() order -1 { }\n",
     'game "G" {\n  players 2..4\n}\n@reads("x")\nvar x: int = 0\nheuristic p {\n  weigh -5% "x" x\n}\n'
     "when e() order -1 {\n}\n"),
    ("a body: '{' ends its line, one item a line, '}' on a line of its own, two spaces a level",
     "play { if x { y = 1 z = 2 } }\n",
     "play {\n  if x {\n    y = 1\n    z = 2\n  }\n}\n"),
    ("a body's '{' joins the line before; 'else' joins the '}' before it",
     "play\n{\n  if x {\n    y = 1\n  }\n  else if z\n  {\n    y = 2\n  }\n  else { y = 3 }\n}\n",
     "play {\n  if x {\n    y = 1\n  } else if z {\n    y = 2\n  } else {\n    y = 3\n  }\n}\n"),
    ("set and bag literals are tight, an enum's one-line braces are spaced, an empty body is two lines",
     "var s: bag of Item = { pig : 1 , heart: 2 }\nvar t: set of Item = { }\nenum E {a \"A\",b}\n"
     "procedure p() { }\n",
     "var s: bag of Item = {pig: 1, heart: 2}\nvar t: set of Item = {}\nenum E { a \"A\", b }\n"
     "procedure p() {\n}\n"),
    ("indentation is re-made (tabs and odd widths), trailing spaces go, one final newline",
     "card C {\n\tx: int   \n      y: int\n}   \n\n\n",
     "card C {\n  x: int\n  y: int\n}\n"),
    ("blank lines: one kept where there were several; none at the start of the file or of a body, none at its end",
     "\n\nvar x: int = 0\n\n\n\nvar y: int = 0\nplay {\n\n  x = 1\n\n\n  y = 2\n\n}\n",
     "var x: int = 0\n\nvar y: int = 0\nplay {\n  x = 1\n\n  y = 2\n}\n"),
    ("no blank line at the start of a body whose first line ends with a comment",
     "play {  # main\n\n  x = 1\n}\nvar y: list of int = [  # c\n\n  1]\n",
     "play {  # main\n  x = 1\n}\nvar y: list of int = [  # c\n  1]\n"),
    ("own-line comments keep their line, indented as what follows them (inside a body, before its '}' too)",
     "# top\nplay {\n        # first\n  x = 1\n# last\n}\n    # end\n",
     "# top\nplay {\n  # first\n  x = 1\n  # last\n}\n# end\n"),
    ("end-of-line comments stay at the end of their line, after two spaces",
     "play {   # main\n  x = 1 # one\n  if x {  y = 2 }    # two\n}\n",
     "play {  # main\n  x = 1  # one\n  if x {\n    y = 2\n  }  # two\n}\n"),
    ("doc strings are kept byte for byte, trailing spaces and odd indentation inside too",
     '"""\nThe  game.   \n      Indented  line.\n"""\ngame "G" { players 1..2 }\n',
     '"""\nThe  game.   \n      Indented  line.\n"""\ngame "G" {\n  players 1..2\n}\n'),
    ("a doc string that moves moves its lines along (what it says is the same)",
     'variant "V" {\n      """First line\n      second line."""\n      var x: int = 0\n}\n',
     'variant "V" {\n  """First line\n  second line."""\n  var x: int = 0\n}\n'),
    ("a doc string is not moved when moving its lines would change what it says",
     'variant "V" {\n    """First\nsecond."""\n    var x: int = 0\n}\n',
     'variant "V" {\n  """First\nsecond."""\n  var x: int = 0\n}\n'),
    ("declarations: a doc string, each annotation and the declaration start lines of their own",
     '"""D.""" @quiet @reads("x") var x: int = 0 var y: int = 1\n',
     '"""D."""\n@quiet\n@reads("x")\nvar x: int = 0\nvar y: int = 1\n'),
    ("continuation lines: the author's line breaks stay; outside brackets one level deeper than the item",
     "function f(): int =\nif a then 1\n        else 2\nplay {\n  x = 1 +\n2\n}\n",
     "function f(): int =\n  if a then 1\n  else 2\nplay {\n  x = 1 +\n    2\n}\n"),
    ("continuation in brackets: aligned after the bracket when something follows it on its line",
     "var x: list of int = [1, 2,\n  3, f(4,\n   5)]\n",
     "var x: list of int = [1, 2,\n                      3, f(4,\n                           5)]\n"),
    ("continuation in brackets: one level deeper when the bracket ends its line; its closer back at that line",
     "play {\n  x = [\n1,\n        2\n      ]\n  log f(\n  1)\n}\nenum E {\na,\n b,\n}\n",
     "play {\n  x = [\n    1,\n    2\n  ]\n  log f(\n    1)\n}\nenum E {\n  a,\n  b,\n}\n"),
    ("a comment inside brackets is indented as the line it stands before",
     "var x: list of int = [  # numbers\n# one\n1,\n   # two\n  2  # last\n]\n",
     "var x: list of int = [  # numbers\n  # one\n  1,\n  # two\n  2  # last\n]\n"),
    ("card tables: columns aligned; annotations on lines of their own",
     'cards C in deck {\n| name | count |\n@reconstructed("n") | "A long one" | 1 |\n|"B"|10|\n}\n',
     'cards C in deck {\n  | name         | count |\n  @reconstructed("n")\n  | "A long one" | 1     |\n'
     '  | "B"          | 10    |\n}\n'),
    ("card tables: a column wider than 64 characters, and the columns after it, are not padded",
     'cards C in deck {\n| name | text | n |\n| "A" | "' + "x" * 70 + '" | 1 |\n| "Bee" | "y" | 22 |\n}\n',
     'cards C in deck {\n  | name  | text | n |\n  | "A"   | "' + "x" * 70 + '" | 1 |\n  | "Bee" | "y" | 22 |\n}\n'),
    ("card tables with a row on two lines are not aligned (single spaces)",
     'cards C in deck {\n| name | n |\n| "A" | 1 +\n 2 |\n| "Bee"   | 3 |\n}\n',
     'cards C in deck {\n  | name | n |\n  | "A" | 1 +\n    2 |\n  | "Bee" | 3 |\n}\n'),
    ("semicolons join the end of the statement before them",
     "play {\n  x = 1 ; y = 2\n  ;\n}\n",
     "play {\n  x = 1;\n  y = 2;\n}\n"),
    ("abilities, tables, scoring: every part on its own line",
     'abilities "A" { """d""" instant { x += 1 } static n += 1 }\n'
     'table { """t""" shared { "n" n zone deck by 2 } }\nscoring p { score "s" p.n lose if p.n < 0 }\n',
     'abilities "A" {\n  """d"""\n  instant {\n    x += 1\n  }\n  static n += 1\n}\n'
     'table {\n  """t"""\n  shared {\n    "n" n\n    zone deck by 2\n  }\n}\n'
     'scoring p {\n  score "s" p.n\n  lose if p.n < 0\n}\n'),
    ("an empty file stays empty; comments alone are kept", "\n  \n", ""),
    ("comments alone", "  # a\n\n\n# b  \n", "# a\n\n# b\n"),
]


@pytest.mark.parametrize("rule, source, expected", CASES, ids=[c[0][:60] for c in CASES])
def test_each_layout_rule(rule, source, expected):
    assert format_source(source, "t.wish") == expected
    assert format_source(expected, "t.wish") == expected


def test_the_layout_of_the_cases_is_canonical_and_not_the_input():
    """The table above would pass for a formatter that changes nothing if inputs were already canonical."""
    assert sum(source != expected for _, source, expected in CASES) == len(CASES)


# ---------------------------------------------------------------- the same program, for every file


def shape(node):
    """A syntax tree as nested tuples, spans and the source text left out: an oracle independent of fmt's own."""
    if isinstance(node, A.Span):
        return "span"
    if isinstance(node, (list, tuple)):
        return tuple(shape(x) for x in node)
    if isinstance(node, A.Node):
        return (type(node).__name__,) + tuple((f.name, shape(getattr(node, f.name))) for f in attrs.fields(type(node))
                                              if not (f.name == "source" and isinstance(node, A.Program)))
    return node


@pytest.mark.parametrize("path", ALL_WISH_FILES)
def test_every_file_formats_to_a_fixed_point_that_says_the_same(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    try:
        before = parse(text, path)
    except WishSyntaxError:
        assert path.startswith("tests/bad/"), f"{path} does not parse"
        return
    out = format_source(text, path)
    assert format_source(out, path) == out
    assert shape(parse(out, path)) == shape(before)
    if path.startswith("games/"):
        assert out == text, f"{path} is not formatted: run wishdsl fmt games"


def test_most_test_files_parse_so_the_test_above_is_not_vacuous():
    parsed = 0
    for path in ALL_WISH_FILES:
        try:
            parse((ROOT / path).read_text(encoding="utf-8"), path)
            parsed += 1
        except WishSyntaxError:
            pass
    assert len(ALL_WISH_FILES) >= 40 and parsed >= 30


def test_same_program_ignores_spans_only():
    a = parse("var x: int = 1 + 2\n", "a.wish")
    assert same_program(a, parse("\n\nvar   x :int=1+2", "a.wish")) is None
    assert shape(a) == shape(parse("\n\nvar   x :int=1+2", "a.wish"))
    assert same_program(a, parse("var x: int = 1 + 3\n", "a.wish")) is not None
    assert same_program(a, parse("var x: int = 2 + 1\n", "a.wish")) is not None
    assert same_program(a, parse('"""d"""\nvar x: int = 1 + 2\n', "a.wish")) is not None
    assert shape(a) != shape(parse("var x: int = 1 + 3\n", "a.wish"))


def test_a_layout_that_would_change_the_program_is_refused(monkeypatch, tmp_path, capsys):
    from dsl import fmt

    monkeypatch.setattr(fmt, "_print", lambda toks: "var x: int = 2\n")
    with pytest.raises(FormatError, match="t.wish: internal error of fmt"):
        format_source("var x: int = 1\n", "t.wish")
    monkeypatch.setattr(fmt, "_print", lambda toks: "var x: int = \n")
    with pytest.raises(FormatError, match="does not parse"):
        format_source("var x: int = 1\n", "t.wish")
    f = tmp_path / "g.wish"
    f.write_text("var x: int   = 1\n", encoding="utf-8")
    assert main(["fmt", str(f)]) == 1
    assert f.read_text(encoding="utf-8") == "var x: int   = 1\n"
    assert f"{f}: internal error of fmt" in capsys.readouterr().err


# ---------------------------------------------------------------- the command line


def test_the_games_are_kept_formatted(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["fmt", "--check", "games"]) == 0
    out = capsys.readouterr().out
    assert "0 files would be reformatted, 9 unchanged" in out and "would reformat" not in out


BAD_LAYOUT = "game \"G\" { players 1..2 }\nvar x: int=1+2\n"
GOOD_LAYOUT = "game \"G\" {\n  players 1..2\n}\nvar x: int = 1 + 2\n"


def test_check_names_what_would_change_and_changes_nothing(tmp_path, capsys):
    f, ok = tmp_path / "a.wish", tmp_path / "b.wish"
    f.write_text(BAD_LAYOUT, encoding="utf-8")
    ok.write_text(GOOD_LAYOUT, encoding="utf-8")
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"would reformat {f}\n" in out and str(ok) not in out
    assert "1 file would be reformatted, 1 unchanged" in out
    assert f.read_text(encoding="utf-8") == BAD_LAYOUT
    assert main(["fmt", "--check", str(ok)]) == 0


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path, capsys):
    f = tmp_path / "a.wish"
    f.write_text(BAD_LAYOUT, encoding="utf-8")
    assert main(["fmt", "--diff", str(f)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith(f"--- {f}\n+++ {f}\n@@ ")
    assert "-var x: int=1+2\n" in captured.out and "+var x: int = 1 + 2\n" in captured.out
    assert f"would reformat {f}" in captured.err
    assert f.read_text(encoding="utf-8") == BAD_LAYOUT
    assert main(["fmt", "--diff", "--check", str(f)]) == 1


def test_fmt_rewrites_files_and_folders_in_order(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    a, b, other = tmp_path / "sub" / "a.wish", tmp_path / "b.wish", tmp_path / "notes.txt"
    for p in (a, b, other):
        p.write_text(BAD_LAYOUT, encoding="utf-8")
    assert main(["fmt", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out == f"reformatted {b}\nreformatted {a}\n2 files reformatted, 0 unchanged\n"
    assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8") == GOOD_LAYOUT
    assert other.read_text(encoding="utf-8") == BAD_LAYOUT
    assert main(["fmt", str(a)]) == 0
    assert capsys.readouterr().out == "0 files reformatted, 1 unchanged\n"


def test_a_file_that_does_not_parse_gets_the_diagnostics_and_stays(tmp_path, capsys):
    f, ok = tmp_path / "bad.wish", tmp_path / "ok.wish"
    f.write_text("var x: int = 0\nplay { x = = 1 }\n", encoding="utf-8")
    ok.write_text(BAD_LAYOUT, encoding="utf-8")
    assert main(["fmt", str(f), str(ok)]) == 1
    captured = capsys.readouterr()
    assert f"{f}:2:12: error: expected an expression" in captured.err
    assert "     2 | play { x = = 1 }\n       |            ^" in captured.err
    assert "Traceback" not in captured.err
    assert f.read_text(encoding="utf-8") == "var x: int = 0\nplay { x = = 1 }\n"
    assert ok.read_text(encoding="utf-8") == GOOD_LAYOUT  # the other files are formatted all the same
    assert "1 file reformatted, 0 unchanged, 1 not formatted (errors above)" in captured.out


def test_a_path_that_is_not_there(tmp_path, capsys):
    assert main(["fmt", str(tmp_path / "nothing.wish")]) == 1
    assert "no such file or folder" in capsys.readouterr().err
    assert main(["fmt", str(tmp_path)]) == 1
    assert "no .wish files" in capsys.readouterr().err


# ---------------------------------------------------------------- programs generated from the grammar

LAYOUTS = {**TERMINALS,
           "WS": st.sampled_from([" ", "\n", "  \n\n", "\n\t "]),
           "COMMENT": st.sampled_from(["# note", "#"]),
           "DOC": st.sampled_from(['"""a doc"""', '"""a\n  doc\n"""', '"""\n\tx\n   """'])}


@pytest.mark.heavy
@GENERATED
@given(from_lark(GRAMMAR, explicit=LAYOUTS))
@example('extends"s"\nvariant"s"# notegame"s"\n{}')  # an extends, then a variant declared after it
def test_generated_programs_format_to_a_fixed_point_that_says_the_same(text):
    try:
        before = parse(text, "gen.wish", cached=False)
    except WishError:
        assume(False)
    out = format_source(text, "gen.wish")
    assert format_source(out, "gen.wish") == out
    assert shape(parse(out, "gen.wish", cached=False)) == shape(before)
