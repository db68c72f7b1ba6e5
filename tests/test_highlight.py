"""The Pygments lexer for .wish files (dsl/highlight.py): registered for `pygmentize -l wish`, every token of
the project's game files highlighted (none falls to Pygments' error token), and its words the parser's own."""
import glob
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name, Operator

from dsl.parser import RESERVED_AT_LINE_START
from dsl.scope import BUILTINS
from dsl.highlight import WORDS, WishLexer

GAME_FILES = sorted(glob.glob("games/**/*.wish", recursive=True) + glob.glob("tests/games/*.wish"))


def tokens(text: str) -> list:
    return [(t, v) for t, v in WishLexer().get_tokens(text) if v.strip()]


def test_pygments_finds_the_lexer_by_name_and_by_file_name():
    assert isinstance(get_lexer_by_name("wish"), WishLexer)
    assert isinstance(get_lexer_for_filename("games/wish.wish"), WishLexer)


def test_pygmentize_highlights_a_game_file():
    exe = shutil.which("pygmentize", path=str(Path(sys.executable).parent)) or shutil.which("pygmentize")
    if exe is None:
        pytest.skip("no pygmentize script next to this Python")
    out = subprocess.run([exe, "-l", "wish", "-f", "html", "games/wunschmaschine.wish"], capture_output=True,
                         text=True, check=True).stdout
    assert '<span class="k">choose</span>' in out and '<span class="kd">procedure</span>' in out


@pytest.mark.parametrize("path", GAME_FILES)
def test_no_token_of_a_project_game_falls_to_the_error_token(path):
    toks = tokens(Path(path).read_text(encoding="utf-8"))
    assert toks and not [v for t, v in toks if t in Error]


def test_what_is_not_the_language_is_an_error_token():
    assert [v for t, v in tokens("let x = 'three'") if t in Error] == ["'", "'"]


def test_every_word_of_the_grammar_is_a_keyword_where_the_parser_reads_one():
    for word in sorted(WORDS):
        if word in RESERVED_AT_LINE_START:
            (t, v), *_ = tokens(f"{word} x")
            assert t in Keyword.Declaration and v == word, word
            assert tokens(f"let y = {word}")[-1][0] in Name, word  # elsewhere it may name a thing
        else:
            t, v = tokens(f"let y = {word}")[-1]
            assert v == word and (t in Keyword or t in Operator.Word), (word, t)


def test_built_in_functions_and_players_read_as_built_ins():
    for name in BUILTINS:
        t, v = tokens(f"let y = {name}(players)")[3]
        assert v == name and t in Name.Builtin, name
    assert tokens("let y = you")[-1][0] in Name.Builtin.Pseudo


def test_the_textmate_grammar_is_generated_from_the_same_words():
    from dsl.highlight import TEXTMATE, textmate_text

    assert TEXTMATE.read_text(encoding="utf-8") == textmate_text(), "run: python -m dsl.highlight"
    import json
    import re

    patterns = {p["name"]: p for p in json.loads(textmate_text())["patterns"]}
    keywords = re.compile(patterns["keyword.control.wish"]["match"])
    assert keywords.search("choose x") and not keywords.search("chooser")
