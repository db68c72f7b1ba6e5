"""Hostile input: YAML bombs, huge files, names that try to inject into HTML or the terminal, absurd player
counts, deep nesting. Each is refused with a message (or made harmless), quickly, never with a traceback."""
import json
import time
from pathlib import Path

import pytest

from dsl.errors import WishError, printable
from dsl.parser import MAX_SOURCE, parse, parse_file
from interpreter import check_program, load_game, load_source
from wishdsl import scenario_files
from wishdsl.cli import main
from wishdsl.scenario import run_paths

pytestmark = pytest.mark.usefixtures("allow_the_project")  # documents in tmp_path name the games

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


@pytest.mark.skipif(scenario_files.FastLoader is None, reason="PyYAML without libyaml")
def test_libyaml_reads_every_scenario_file_as_the_pure_python_loader_does():
    """Scenario files are read by libyaml's parser (ten times faster); the document is the same, a refused text
    is read again by the pure-Python loader for its message, and a number too long is refused by both."""
    import yaml

    files = sorted((ROOT / "games" / "scenarios").rglob("*.yaml"))
    assert files
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=scenario_files.FastLoader) == yaml.load(text, Loader=scenario_files.Loader), f
    for loader in (scenario_files.FastLoader, scenario_files.Loader):
        with pytest.raises(yaml.constructor.ConstructorError, match="5,000 digits"):
            yaml.load("seed: " + "7" * 5000 + "\n", Loader=loader)
    with pytest.raises(yaml.YAMLError) as err:
        scenario_files._load("a: [1\n")
    with pytest.raises(yaml.YAMLError) as pure:
        yaml.load("a: [1\n", Loader=scenario_files.Loader)
    assert str(err.value) == str(pure.value)


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


@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x00", "\x9b", "\u202e", "\u2066", "\u200e", "\u200f", "\u061c"])
def test_control_characters_in_a_game_file_are_refused(tmp_path, capsys, char):
    text = HOSTILE_GAME.replace("<script>alert('x')</script>", f"Clear{char}[2J")
    path = tmp_path / "hostile.wish"
    path.write_text(text, encoding="utf-8", newline="")
    code, out, err = cli(capsys, "check", str(path))
    assert code == 1 and f"hostile.wish:14:11: error: control character U+{ord(char):04X}" in err
    assert char not in err and "Clear\ufffd[2J" in err  # the line shown is made harmless too
    with pytest.raises(WishError):
        load_game(str(path))


def test_a_line_separator_in_a_comment_does_not_shift_the_lines_shown(tmp_path, capsys):
    """U+2028 and U+2029 are no line breaks for the parser, so neither for the line a diagnostic shows."""
    for char in ("\u2028", "\u2029", "\x85"[:0] + "\u2028\u2029"):
        path = tmp_path / "sep.wish"
        path.write_text(f'game "S" {{ players 1..2 }}\n# a comment {char} with a separator\nvar x: int = 0\n'
                        f'play {{ x = y }}\n', encoding="utf-8")
        code, _, err = cli(capsys, "check", str(path))
        assert code == 1 and "sep.wish:4:12: error: unknown name 'y'\n     4 | play { x = y }\n" in err


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


@pytest.mark.parametrize("text, where", [
    ('game "D" { players 1..2 }\nvar x: int = 0\nplay {\n' + "if true {\n" * 300 + "x = 1\n" + "}\n" * 301,
     "deep.wish:304:5"),
    ('game "D" { players 1..2 }\nvar x: int = 0\nplay {\n  x = ' + "+".join(["1"] * 3000) + "\n}\n", "deep.wish:4:"),
])
def test_deep_nesting_is_reported_where_it_is(text, where):
    """Nesting too deep for the parser's tree walk is reported at its innermost construct, not at 1:1."""
    with pytest.raises(WishError) as info:
        parse(text, "deep.wish")
    shown = info.value.render()
    assert shown.startswith(where) and "nested too deeply" in shown


def test_the_nesting_limit_is_where_it_says():
    """A game exactly at the nesting limit checks and runs; one level more is refused at that level."""
    from dsl.ast import deepest
    from dsl.parser import MAX_DEPTH

    def text(k):
        return 'game "D" { players 1..2 }\nvar x: int = 0\nplay {\n' + "x = " + "-" * k + "1\n}\n"

    k = next(k for k in range(MAX_DEPTH - 10, MAX_DEPTH) if deepest(parse(text(k)))[0] == MAX_DEPTH)
    check_program(parse(text(k)))
    assert load_source(text(k)).new_state(1).gvars[0] == (-1 if k % 2 else 1)
    with pytest.raises(WishError, match=f"nested too deeply \\({MAX_DEPTH + 1} levels\\)"):
        parse(text(k + 1))


def test_a_game_at_the_nesting_limit_still_runs():
    body = "repeat 1 {\n" * 60 + "x += 1\n" + "}\n" * 60
    game = load_source('game "D" { players 1..2 }\nvar x: int = 0\nplay {\n' + body + '}\nscoring p { score "s" x }\n')
    assert game.new_state(1).scores() == [1]


# ---------------------------------------------------------------- numbers too long (issue 20, 1)
def test_a_number_longer_than_the_limit_is_an_error_at_its_place(tmp_path, capsys):
    """Python refuses to read integers of more than 4,300 digits; a game's numbers stop at 15, each too long one
    named where it is (all of them, not the first only)."""
    path = tmp_path / "big.wish"
    path.write_text('game "B" { players 1..' + "9" * 5000 + ' }\nvar x: int = ' + "1" * 5000 +
                    '\nvar y: int = 1234567890123456\nvar z: int = 999999999999999\nplay { }\n', encoding="utf-8")
    code, _, err = cli(capsys, "check", str(path))
    assert code == 1 and "Traceback" not in err and "Exceeds the limit" not in err
    assert "big.wish:1:23: error: this number has 5,000 digits; a game's numbers have at most 15" in err
    assert "big.wish:2:14: error: this number has 5,000 digits" in err
    assert "big.wish:3:14: error: this number has 16 digits" in err and "big.wish:4:" not in err


@pytest.mark.parametrize("field", ["seed: {n}", "players: {n}", "given: {{supply: {n}}}"])
def test_a_number_too_long_in_a_scenario_is_reported_with_its_line(tmp_path, field):
    text = f"game: {WUNSCH}\nplayers: 3\n" + field.format(n="7" * 5000) + "\nexpect: {supply: 20}\n"
    text = text.replace("players: 3\nplayers:", "players:")
    message = scenario_failure(tmp_path, text)
    assert "this number has 5,000 digits" in message and "at line " in message and "Traceback" not in message


def test_a_number_too_long_in_a_save_or_a_log_is_refused(tmp_path, capsys):
    path = tmp_path / "big.json"
    path.write_text('{"format": "wishdsl-save", "seed": ' + "9" * 5000 + "}", encoding="utf-8")
    for argv in (["replay", str(path)], ["run", "--resume", str(path)]):
        code, _, err = cli(capsys, *argv)
        assert code == 1 and "a number of 5,000 digits; no save or log holds numbers that long" in err


# ---------------------------------------------------------------- files that are not regular files (issue 20, 4)
@pytest.mark.parametrize("argv, message", [
    (["check", "/dev/zero"], "/dev/zero: the file is too large (more than 2,000,000 bytes"),
    (["replay", "/dev/zero"], "/dev/zero: the game log is larger than"),
    (["run", "--resume", "/dev/zero"], "/dev/zero: the save file is larger than"),
])
def test_a_device_that_never_ends_is_read_only_up_to_the_limit(capsys, argv, message):
    code, _, err = cli(capsys, *argv)
    assert code == 1 and message in err and "Traceback" not in err


def test_a_scenario_that_never_ends_is_read_only_up_to_the_limit(tmp_path):
    from wishdsl.scenario_files import load_yaml

    with pytest.raises(WishError, match="larger than 1 MB"):
        load_yaml("/dev/zero")


def test_a_game_read_from_a_pipe_is_checked(tmp_path, capsys):
    import os
    import threading

    fifo = tmp_path / "game.wish"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "w", encoding="utf-8") as f:
            f.write('game "Piped" { players 1..2 }\nplay { }\n')

    writer = threading.Thread(target=write)
    writer.start()
    code, out, _ = cli(capsys, "check", str(fifo))
    writer.join()
    assert code == 0 and "ok:" in out and "game Piped" in out


def test_a_directory_is_no_game(tmp_path, capsys):
    code, _, err = cli(capsys, "check", str(tmp_path))
    assert code == 1 and "Is a directory" in err and "Traceback" not in err


# ---------------------------------------------------------------- agent options (issue 20, 7)
@pytest.mark.parametrize("spec", ["mcts:c=nan", "mcts:c=inf", "mcts:epsilon=-inf", "mcts:c=NaN"])
def test_an_agent_option_that_is_not_a_finite_number_is_refused(capsys, spec):
    for argv in (["run", WUNSCH, "--players", "3", "--agents", spec, "--quiet"],
                 ["simulate", WUNSCH, "-n", "2", "--players", "3", "--agents", spec]):
        code, _, err = cli(capsys, *argv)
        assert code == 1 and f"agent option {spec}: expected a finite number" in err and "Traceback" not in err


# ---------------------------------------------------------------- output paths (issue 20, 6)
@pytest.mark.parametrize("argv, what", [
    (["docs", WUNSCH, "-o", "{missing}/x.md"], "the folder {missing} does not exist"),
    (["docs", WUNSCH, "-o", "{folder}"], "is a folder; give the cheat-sheet a file name"),
    (["rules", WUNSCH, "-o", "{folder}"], "is a folder; give the compiled rules a file name"),
    (["diff", WUNSCH, str(ROOT / "games" / "house" / "wunschmaschine_5_rows.wish"), "-o", "{missing}/d.md"],
     "the folder {missing} does not exist; create it first or write the diff elsewhere"),
    (["simulate", WUNSCH, "-n", "1000000", "--players", "3", "--report", "{missing}/r.html"],
     "the folder {missing} does not exist; create it first or write the report elsewhere"),
])
def test_an_output_path_that_cannot_be_written_is_refused_before_the_work(tmp_path, capsys, argv, what):
    names = {"missing": str(tmp_path / "nowhere"), "folder": str(tmp_path)}
    start = time.perf_counter()
    code, out, err = cli(capsys, *[a.format(**names) for a in argv])
    assert code == 1 and what.format(**names) in err and "Traceback" not in err
    assert "games in" not in err and time.perf_counter() - start < 20  # refused before a million games


def test_a_text_that_cannot_be_written_after_all_is_kept_and_named(tmp_path):
    from wishdsl.outputs import write_output

    with pytest.raises(WishError) as info:
        write_output(str(tmp_path / "gone" / "report.html"), "<p>results</p>", "report")
    message = str(info.value)
    kept = message.rsplit("it is kept in ", 1)[1]
    assert "cannot write the report" in message and kept.endswith(".html")
    assert Path(kept).read_text(encoding="utf-8") == "<p>results</p>"
    Path(kept).unlink()


# ---------------------------------------------------------------- simulate -n (issue 20, 5)
@pytest.mark.parametrize("n", ["1000000000000", "1000001"])
def test_an_absurd_number_of_games_is_refused_at_once(capsys, n):
    start = time.perf_counter()
    code, _, err = cli(capsys, "simulate", WUNSCH, "-n", n, "--players", "3")
    assert code == 1 and f"-n {int(n):,}: at most 1,000,000 games in one run" in err
    assert time.perf_counter() - start < 20 and "games in" not in err.split("at most")[0]


# ---------------------------------------------------------------- card counts (issue 20, 3)
def test_a_game_holds_at_most_ten_thousand_cards():
    from dsl.limits import MAX_CARDS

    def text(a, b):
        return ('game "C" { players 1..2 }\ncard Gem { points: int = 0 }\nzone deck: Gem hidden\n'
                f'cards Gem in deck {{\n  | name | count | points |\n  | "A" | {a} | 1 |\n  | "B" | {b} | 2 |\n}}\n'
                'play { }\nscoring p { score "cards" count(deck) }\n')

    assert load_source(text(MAX_CARDS - 1, 1)).new_state(1).scores() == [MAX_CARDS]
    with pytest.raises(WishError) as info:
        check_program(parse(text(MAX_CARDS - 1, 2)))
    assert "<string>:7:11: error: this brings the game to 10,001 cards; a game has at most 10,000" in \
        info.value.render()


# ---------------------------------------------------------------- games named by documents (issue 20, 9 and 12)
SECRET_LINE = "root:x:0:0"


@pytest.mark.parametrize("name, why", [
    ("/etc/passwd", "which is not a .wish file"),
    ("../../../../../../../../etc/passwd", "which is not a .wish file"),
    ("{outside}/elsewhere.wish", "lies outside the folder tree of the document"),
])
def test_a_scenario_names_only_a_game_inside_its_own_tree(tmp_path, tmp_path_factory, name, why):
    outside = tmp_path_factory.mktemp("elsewhere")
    (outside / "elsewhere.wish").write_text(Path(WUNSCH).read_text(encoding="utf-8") + "\nroot:x:0:0 ???\n",
                                            encoding="utf-8")
    message = scenario_failure(tmp_path, f"game: {name.format(outside=outside)}\nexpect: {{supply: 20}}\n")
    assert why in message and SECRET_LINE not in message and "root:x" not in message


def unsigned(file: Path, change=None) -> None:
    """The save as someone else would send it: its body (changed by `change`) with a correct checksum but
    without this user's signature."""
    from wishdsl import saves

    doc = json.loads(file.read_text(encoding="utf-8"))
    if change is not None:
        change(doc["body"])
    doc["checksum"] = saves.checksum(doc["body"])
    doc.pop("signature", None)
    file.write_text(json.dumps(doc), encoding="utf-8")


def a_save(tmp_path, capsys) -> Path:
    file = tmp_path / "wm.wishsave.json"
    assert cli(capsys, "run", WUNSCH, "--players", "3", "--seed", "4", "--quiet", "--save", str(file))[0] == 0
    return file


def test_a_save_from_someone_else_names_only_a_game_inside_its_own_tree(tmp_path, capsys, monkeypatch):
    from dsl import link

    monkeypatch.setattr(link, "ALLOWED", [])  # no --allow
    file = a_save(tmp_path, capsys)
    for name, why in [("/etc/passwd", "which is not a .wish file"),
                      (WUNSCH, "lies outside the folder tree of the document")]:
        unsigned(file, lambda body: body.update(game=name))
        code, _, err = cli(capsys, "run", "--resume", str(file))
        assert code == 1 and why in err and SECRET_LINE not in err and "Traceback" not in err
    code, out, err = cli(capsys, "run", WUNSCH, "--resume", str(file))  # the game given: it resumes
    assert code == 0, err


def test_your_own_save_resumes_from_any_folder_and_another_games_save_says_so(tmp_path, capsys, monkeypatch):
    from dsl import link

    monkeypatch.setattr(link, "ALLOWED", [])  # no --allow: the save is signed with this user's key
    file = a_save(tmp_path, capsys)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = cli(capsys, "run", "--resume", str(file))
    assert code == 0 and "Result:" in out, err
    code, _, err = cli(capsys, "run", str(ROOT / "games" / "three_wishes.wish"), "--resume", str(file))
    assert code == 1 and "a save of Wunschmaschine, not of 3 Wishes" in err


def test_a_log_names_only_a_game_inside_its_own_tree(tmp_path, capsys):
    log = tmp_path / "log.json"
    code, out, _ = cli(capsys, "run", WUNSCH, "--players", "3", "--seed", "2", "--json")
    doc = json.loads(out[out.index("{"):])
    for name, why in [("/etc/passwd", "which is not a .wish file"),
                      ("../../../etc/none.wish", "lies outside the folder tree of the document")]:
        log.write_text(json.dumps(dict(doc, path=name, game_file=name)), encoding="utf-8")
        code, _, err = cli(capsys, "replay", str(log))
        assert code == 1 and why in err and SECRET_LINE not in err
    log.write_text(json.dumps(doc), encoding="utf-8")  # the absolute path it records, inside an allowed folder
    code, _, err = cli(capsys, "replay", str(log))
    assert code == 0, err


# ---------------------------------------------------------------- authoring and usage slips (issue 20, 13)
def test_a_player_count_a_variant_is_played_by_points_at_it(capsys):
    wish = str(ROOT / "games" / "wish.wish")
    code, _, err = cli(capsys, "run", wish, "--players", "1", "--quiet")
    assert code == 1 and "Wish is played by 2 to 4 players, not 1; --variant Solo is played by 1 player" in err
    code, _, err = cli(capsys, "run", wish, "--variant", "Solo", "--players", "2", "--quiet")
    assert code == 1 and "is played by 1 player, not 2" in err and "variant" not in err.split("not 2")[1]
    code, _, err = cli(capsys, "run", wish, "--players", "9", "--quiet")
    assert code == 1 and err.strip().endswith("Wish is played by 2 to 4 players, not 9")


def test_one_reads_as_one_in_the_sheets(tmp_path):
    from docgen.render import render_sheet

    sheet = render_sheet(str(ROOT / "games" / "wish.wish"), "Solo", "md")
    assert "1 players" not in sheet and "*1 player ·" in sheet
    assert "the game itself (1 player)" in render_sheet(str(ROOT / "games" / "wish.wish"), None, "md")
    path = tmp_path / "once.wish"
    path.write_text('game "O" { players 1..1 }\n"""Rounds."""\nparam rounds: int = 1\nvar x: int = 0\n'
                    'play {\n  repeat rounds { x += 1 }\n}\n', encoding="utf-8")
    sheet = render_sheet(str(path), None, "md")
    assert "- Once:" in sheet and "1 times" not in sheet
