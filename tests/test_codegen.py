"""The rules compiled to Python (interpreter/codegen.py) under the rules of docs/design.md: only the checked syntax tree
is an input; a name or a text of the game file reaches the generated module only as a `repr()` literal (in code
or in a comment); Python names are the generator's own; the module runs and plays like the game."""
import io
import keyword
import re
import tokenize

import pytest

from interpreter import load_game, load_source
from interpreter.codegen import BUILTINS
from interpreter.engine import State
from interpreter.frames import Frame
from interpreter.runtime import NAMESPACE, Act, Announcement, Choice, Say, Simultaneous
from interpreter.tables import Identities

# Names a hostile author might try, all valid .wish identifiers, and texts that would break out of a literal.
HOSTILE_NAMES = ["__import__", "exec", "eval", "os", "getattr", "__class__", "__builtins__", "globals", "st",
                 "env", "compile", "open", "_S", "_P"]
HOSTILE_TEXTS = ['\\"; import os #', "'''", '\\"\\n__import__(\\"os\\")', "line\\nbreak", "ԁеf", "é\\u2028x", "{}",
                 "%s", "\\\\"]

GAME = '''
game "Hostile" { players 2..3 }
enum exec { os "os", getattr "getattr" }
card __class__ {
  eval: exec = os
  compile: text = "x"
}
zone globals: __class__ public
player zone open: __class__ hidden
cards __class__ in globals {
  | name        | count | eval    | compile |
  | "TEXT0"     | 2     | os      | "TEXT1" |
  | "TEXT2"     | 1     | getattr | "TEXT3" |
}
var __import__: int = 0
player var st: text = "TEXT4"
var env[_S: exec]: int = 1
param _P: int = 2
function __builtins__(p: player): int = count(p.open) + _P
procedure __init__(p: player) {
  move top 1 of globals to p.open
  __import__ += __builtins__(p)
  log p, "TEXT5"
  if __import__ > 100 {
    end game
  }
}
action getattr(c in you.open) {
  require c.compile != "TEXT6" else "TEXT7"
  env[c.eval] += 1
  announce c.compile
}
play {
  for p in players {
    __init__(p)
  }
  repeat 2 {
    for p in players {
      choose p.st from ["TEXT8", "TEXT0"] by p prompt "TEXT2"
      act one of getattr by p prompt "TEXT1"
    }
  }
}
scoring p {
  score "TEXT3" env[os] + count(p.open)
}
'''


IN_CODE = {0, 1, 3, 4, 5, 6, 8}  # the texts GAME uses in expressions (2 and 7 are a name, a prompt, a message)


def hostile_game():
    text = GAME
    for i, t in enumerate(HOSTILE_TEXTS):
        text = text.replace(f"TEXT{i}", t)
    return load_source(text, "hostile.wish")


def unquoted(text: str) -> str:
    """What the .wish file's string literal `"text"` holds (its escapes \\n, \\t, \\", \\\\)."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def tokens(source: str) -> list:
    return list(tokenize.generate_tokens(io.StringIO(source).readline))


def code_outside_literals(source: str) -> str:
    """The generated module without its string literals and comments."""
    skip = (tokenize.STRING, tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER)
    return " ".join(tok.string for tok in tokens(source) if tok.type not in skip)


GENERATED = re.compile(r"[a-zA-Z]\d+|_[a-zA-Z_]*\d*")
OWN = {"st", "env", "f", "pc", "who", "out", "value", "key", "memo", "r", "err"}


def test_a_hostile_game_compiles_and_plays_its_texts_as_data():
    game = hostile_game()
    st = game.new_state(2, seed=3)
    while not st.is_over:
        st.apply(st.legal_actions()[-1])
    lines = "\n".join(st.log_lines())
    for i in (0, 1, 5):  # a card's name, a chosen text, a logged text
        assert unquoted(HOSTILE_TEXTS[i]) in lines
    assert st.winners()


def names_and_attributes(source: str) -> tuple:
    """The Python names of a module, and the attribute names (those after a dot)."""
    names, attributes, previous = set(), set(), None
    for tok in tokens(source):
        if tok.type == tokenize.NAME:
            (attributes if previous == "." else names).add(tok.string)
        previous = tok.string
    return names, attributes


def test_names_of_the_game_never_become_python_names():
    source = hostile_game().rules.source
    names, attributes = names_and_attributes(source)
    allowed = set(keyword.kwlist) | set(BUILTINS) | set(NAMESPACE) | OWN
    strange = {n for n in names - allowed if not GENERATED.fullmatch(n)}
    assert not strange, f"Python names the generator did not make: {sorted(strange)}"
    engine = set(dir(State)) | set(dir(Frame)) | set(dir(Identities)) | {"append", "clear"}  # a list's, the memo's
    engine |= {a for cls in (Act, Announcement, Choice, Say, Simultaneous) for a in dir(cls)}
    assert attributes <= engine, f"attributes that are not the engine's: {sorted(attributes - engine)}"
    for name in HOSTILE_NAMES:  # those the generator uses itself (`st`, `_S`) are checked as literals below
        if name not in OWN and not GENERATED.fullmatch(name):
            assert name not in names, f"the game's name {name!r} became a Python name"


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_name_of_the_game_is_written_only_as_a_repr_literal(name):
    source = hostile_game().rules.source
    bare = re.compile(rf"(?<![\w']){re.escape(name)}(?![\w'])")
    for tok in tokens(source):
        if tok.type == tokenize.COMMENT and bare.search(tok.string):
            pytest.fail(f"{name!r} stands bare in a comment: {tok.string}")
    if name not in OWN and not GENERATED.fullmatch(name):  # the generator's own names (`st`, `_S`) aside
        assert not bare.search(code_outside_literals(source))


@pytest.mark.parametrize("i", range(len(HOSTILE_TEXTS)))
def test_texts_of_the_game_are_only_in_repr_literals(i):
    """Texts the rules compare, choose from or write are `repr()` literals of the code; the others (names of
    cards, prompts, messages) are data in the Game's tables."""
    source = hostile_game().rules.source
    value = unquoted(HOSTILE_TEXTS[i])
    assert value not in code_outside_literals(source)
    assert (repr(value) in source) == (i in IN_CODE)


def test_the_generated_module_is_a_function_of_the_checked_game():
    a, b = hostile_game().rules.source, hostile_game().rules.source
    assert a == b
    assert not {"import", "exec", "eval", "open"} & {t.string for t in tokens(a) if t.type == tokenize.NAME}


def test_the_module_sees_only_the_builtins_it_needs():
    ns = load_game("games/three_wishes.wish").rules.namespace
    assert set(ns["__builtins__"]) == set(BUILTINS)
    assert "__import__" not in ns["__builtins__"] and "open" not in ns["__builtins__"]


def functions_of(source: str) -> dict:
    """Each top-level function of a generated module: its name → its lines."""
    out, name = {}, None
    for line in source.splitlines():
        if line.startswith("def "):
            name = line[4:line.index("(")]
            out[name] = []
        elif name is not None and line.startswith(" "):
            out[name].append(line)
    return out


def test_a_function_over_cards_reads_the_identities_once():
    """`has_set`'s test per wish type loops over the hand: the identities are read before the loop, not per card;
    a function or expression that reads no card's field does not read them at all."""
    funcs = functions_of(load_game("games/three_wishes.wish").rules.source)
    hoisting = {name: lines for name, lines in funcs.items() if any("_of = st.ids.of" in ln for ln in lines)}
    assert hoisting, "no generated function reads the identities once"
    for name, lines in funcs.items():
        body = "\n".join(lines)
        if name in hoisting:
            assert lines[0].strip() == "_of = st.ids.of" and "_of[" in "\n".join(lines[1:])
            assert "st.ids.of" not in "\n".join(lines[1:])
        elif name[0] in "ftx":
            assert "st.ids.of" not in body, f"{name} reads the identities per card"
    assert any(any(ln.strip().startswith("for ") for ln in lines) for lines in hoisting.values())


def test_the_rules_command_prints_the_module(capsys):
    from wishdsl.cli import main

    assert main(["rules", "games/wunschmaschine.wish", "--variant", "Left-Right"]) == 0
    text = capsys.readouterr().out
    assert text == load_game("games/wunschmaschine.wish", "Left-Right").rules.source
    compile(text, "<printed rules>", "exec")  # it is Python
    assert "def b" in text and "'procedure attempt'" in text


def test_every_expression_and_statement_class_has_a_case_in_the_generator():
    from dsl import ast as A
    from interpreter.codegen import CodeGen
    from interpreter.codegen_frames import ALWAYS_STOPPING

    def subclasses(base):
        out = set()
        for c in base.__subclasses__():
            out |= {c} | subclasses(c)
        return out

    exprs = {c.__name__ for c in subclasses(A.Expr)}
    stmts = {c.__name__ for c in subclasses(A.Stmt)}
    assert exprs and stmts
    assert not {n for n in exprs if not hasattr(CodeGen, "x_" + n)}, "expressions the generator cannot write"
    stopping = {c.__name__ for c in ALWAYS_STOPPING}
    assert not {n for n in stmts if not hasattr(CodeGen, "s_" + n) and n not in stopping}, \
        "statements the generator cannot write"


SHADOW = """game "Shadow" {
  players 3..3
}
player var points: int = 0
play {
  for q in players {
    q.points = 2
  }
}
scoring p {
  score "a" p.points + count(q for q in players if q == p) + sum(q.points for q in [p, p]) + count(z for z in players)
  score "b" p.points + sum(1 for p in players)
}
"""


def test_an_expression_reads_its_environment_once_unless_it_binds_the_name_itself():
    """The first score reads `p` from the environment once, into a local, wherever it reads it (inside its loops
    too), and never `z`, which only its comprehension binds; the second binds a `p` of its own in a comprehension,
    so it reads the environment's where it stands."""
    game = load_source(SHADOW)
    st = game.new_state(3, seed=1)
    assert game.standings(st)[0].points == (("a", 2 + 1 + 4 + 3), ("b", 2 + 3))
    read, shadowed = (block for block in game.rules.source.split("\ndef ") if "env['p']" in block)
    assert read.count("env['p']") == 1 and read.count("_e") >= 3
    assert shadowed.count("env['p']") == 1 and "_e" not in shadowed
