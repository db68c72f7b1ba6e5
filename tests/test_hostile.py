"""Hostile input: YAML bombs, huge files, names that try to inject into HTML or the terminal, absurd player
counts, deep nesting. Each is refused with a message (or made harmless), quickly, never with a traceback."""
import json
import time
from pathlib import Path

import pytest

from dsl.errors import WishError, printable
from dsl.parser import MAX_SOURCE, parse, parse_file
from interpreter import check_program, load_game, load_source
from wishdsl.cli import main
from wishdsl.scenario import run_paths

ROOT = Path(__file__).parent.parent
WUNSCH = str(ROOT / "games" / "wunschmaschine.wish")

HOSTILE_GAME = '''"""A game whose names try to inject <b>HTML</b>."""
game "Hostile <script>alert(1)</script>" {
  players 1..2
}

"""A card kind <img src=x onerror=alert(1)>."""
card Card {
  power: int = 0
}
zone deck: Card public

cards Card in deck {
  | name                             | count | power |
  | "<script>alert('x')</script>"    | 1     | 1     |
  | "</td><iframe src=evil></iframe>" | 1     | 2     |
}

var x: int = 0

play {
  x = 1
}

scoring p {
  score "Points <i>sic</i>" x
}
'''


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def scenario_failure(tmp_path, text, name="hostile.yaml") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    start = time.perf_counter()
    results = run_paths([str(path)])
    assert time.perf_counter() - start < 20
    assert len(results) == 1 and not results[0].ok
    return results[0].message


# ---------------------------------------------------------------- YAML
def test_a_billion_laughs_is_refused(tmp_path):
    rows = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        rows.append(f"{name}: &{name} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]")
    message = scenario_failure(tmp_path, "\n".join(rows) + "\n")
    assert "more than 100000 values (are aliases repeating a large part?)" in message


def test_deeply_nested_yaml_is_refused(tmp_path):
    message = scenario_failure(tmp_path, "a: " + "[" * 20_000 + "]" * 20_000 + "\n")
    assert "nested too deeply" in message


def test_a_huge_scenario_file_is_refused(tmp_path):
    message = scenario_failure(tmp_path, "game: x\n" + "# padding\n" * 200_000)
    assert "larger than 1 MB" in message


@pytest.mark.parametrize("text,words", [
    ("- 1\n- 2\n", "holds a mapping"), ("just a string\n", "holds a mapping"), ("", "holds a mapping"),
    ("a: [1\n", "not valid YAML"), (b"\xff\xfe junk", "cannot read"),
    ("game: ../wunschmaschine.wish\nscenarios: 5\n", "must be a non-empty list"),
])
def test_a_scenario_file_that_is_not_a_mapping_is_refused(tmp_path, text, words):
    assert words in scenario_failure(tmp_path, text)


def test_absurd_player_counts_in_a_scenario_are_refused(tmp_path):
    for players in (0, -5, 10**9, "many"):
        text = f"game: {WUNSCH}\nplayers: {players}\nexpect: {{supply: 20}}\n"
        message = scenario_failure(tmp_path, text)
        assert "3 to 6 players" in message or "players" in message and "whole number" in message, message


# ---------------------------------------------------------------- names in HTML and at the terminal
def test_names_are_escaped_in_html_cheat_sheets(tmp_path):
    from docgen.render import render_sheet

    path = tmp_path / "hostile.wish"
    path.write_text(HOSTILE_GAME, encoding="utf-8")
    html = render_sheet(str(path), None, "html")
    for raw in ("<script>alert", "<iframe", "<img src=x", "<b>HTML", "<i>sic"):
        assert raw not in html
    assert "&lt;script&gt;alert(" in html and "&lt;iframe src=evil&gt;" in html
    assert "&lt;i&gt;sic&lt;/i&gt;" in html


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x00", "\x9b", "\u202e", "\u2066"])
def test_control_characters_in_a_game_file_are_refused(tmp_path, capsys, char):
    text = HOSTILE_GAME.replace("<script>alert('x')</script>", f"Clear{char}[2J")
    path = tmp_path / "hostile.wish"
    path.write_text(text, encoding="utf-8", newline="")
    code, out, err = cli(capsys, "check", str(path))
    assert code == 1 and f"hostile.wish:14:11: error: control character U+{ord(char):04X}" in err
    assert char not in err and "Clear\ufffd[2J" in err  # the line shown is made harmless too
    with pytest.raises(WishError):
        load_game(str(path))


def test_windows_line_endings_are_fine_but_a_lone_carriage_return_is_not(tmp_path):
    path = tmp_path / "crlf.wish"
    path.write_bytes(HOSTILE_GAME.replace("\n", "\r\n").encode("utf-8"))
    check_program(parse_file(str(path)))
    check_program(parse(HOSTILE_GAME.replace("\n", "\r\n")))
    with pytest.raises(WishError) as info:
        parse(HOSTILE_GAME.replace("alert('x')", "alert\r('x')"))
    assert "<string>:14:19: error: control character U+000D" in info.value.render()


def test_error_messages_never_carry_control_characters(tmp_path, capsys):
    text = f"game: {WUNSCH}\nplayers: 3\ngiven:\n  player 1: {{\"\\e[2Jcoins\": 1}}\nexpect: {{supply: 20}}\n"
    path = tmp_path / "escape.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, _ = cli(capsys, "test", str(path))
    assert code == 1 and "\x1b" not in out and "\ufffd[2Jcoins" in out
    assert printable("a\x1b[2Jb\r\tc\n") == "a\ufffd[2Jb\ufffd\tc\n"


# ---------------------------------------------------------------- player counts on the command line
@pytest.mark.parametrize("players", ["0", "-5", str(10**9), "7", str(10**30)])
def test_absurd_player_counts_are_refused(capsys, players):
    code, out, err = cli(capsys, "run", WUNSCH, "--seed", "1", "--players", players)
    assert code == 1 and f"Wunschmaschine is played by 3 to 6 players, not {players}" in err
    assert "Traceback" not in err


def test_a_saved_state_with_an_absurd_player_count_is_refused():
    game = load_game(WUNSCH)
    doc = json.loads(game.new_state(3, 1).to_json())
    for n in (10**9, -1, "3", None):
        doc["n"] = n
        with pytest.raises(WishError, match="damaged: Wunschmaschine is played by 3 to 6 players"):
            game.state_from_json(json.dumps(doc))
    with pytest.raises(WishError, match="not a saved game"):
        game.state_from_json("[" * 100_000)


# ---------------------------------------------------------------- huge and deep game files
def test_a_huge_game_file_is_refused_quickly(tmp_path, capsys):
    path = tmp_path / "huge.wish"
    path.write_text('game "X" { players 1..2 }\nvar x: int = ' + "1 + " * 200_000 + "1\nplay { }\n",
                    encoding="utf-8")
    start = time.perf_counter()
    code, _, err = cli(capsys, "check", str(path))
    assert time.perf_counter() - start < 5
    assert code == 1 and "the file is too large (800,050 characters; the limit is 500,000" in err
    with pytest.raises(WishError, match="too large"):
        parse("x" * (MAX_SOURCE + 1))


def test_a_long_line_and_many_errors_end_quickly(capsys):
    start = time.perf_counter()
    for text in ("x" * (MAX_SOURCE - 10), "garbage here !\n" * 30_000,
                 'game "X" { players 1..2 }\nvar x: int = ' + "1 + " * 5_000 + "1\nplay { }\n"):
        with pytest.raises(WishError) as info:
            check_program(parse(text, "long.wish"))
        assert info.value.render()
    assert time.perf_counter() - start < 30


def test_deep_nesting_is_a_diagnostic(capsys):
    for text in ('game "D" { players 1..2 }\nvar x: list of int = ' + "[" * 3000 + "]" * 3000 + "\nplay { }\n",
                 'game "D" { players 1..2 }\nplay {\n' + "repeat 2 {\n" * 1000 + "}\n" * 1000 + "}\n",
                 'game "D" { players 1..2 }\nvar x: int = ' + "-" * 5000 + "1\nplay { }\n"):
        with pytest.raises(WishError) as info:
            check_program(parse(text, "deep.wish"))
        assert "nested too deeply" in info.value.render()


def test_a_game_at_the_nesting_limit_still_runs():
    body = "repeat 1 {\n" * 60 + "x += 1\n" + "}\n" * 60
    game = load_source('game "D" { players 1..2 }\nvar x: int = 0\nplay {\n' + body + '}\nscoring p { score "s" x }\n')
    assert game.new_state(1).scores() == [1]
