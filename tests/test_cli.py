"""The `wishdsl` command line: run, check, test, through `main([...])`."""
import io
import json
import re
import sys
from pathlib import Path

import pytest

from interpreter import IllegalAction, load_game
from interpreter.agents import AGENTS, Agent
from wishdsl.cli import main

GAME = "games/wunschmaschine.wish"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- run
def test_run_prints_seed_log_and_result(capsys):
    code, out, err = run(capsys, "run", GAME, "--seed", "5")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[0] == "seed 5 — replay with --seed 5"
    assert lines[1] == "Wunschmaschine: 4 players, seed 5"
    assert "player 1 looks at 33 cards" not in out
    assert "Result:" in out and lines[-1].startswith(("Winner: ", "Nobody wins"))


def test_run_same_seed_same_output(capsys):
    first = run(capsys, "run", GAME, "--seed", "42", "--players", "5", "--variant", "Left-Right")
    second = run(capsys, "run", GAME, "--seed", "42", "--players", "5", "--variant", "Left-Right")
    assert first == second and first[0] == 0


def test_run_without_seed_prints_a_fresh_one(capsys):
    code, out, _ = run(capsys, "run", GAME, "--quiet")
    seed = int(out.split()[1])
    assert code == 0 and out.splitlines()[0] == f"seed {seed} — replay with --seed {seed}"
    assert run(capsys, "run", GAME, "--quiet", "--seed", str(seed))[1] == out


def test_run_players_default_and_quiet(capsys):
    code, out, _ = run(capsys, "run", GAME, "--seed", "1", "--quiet")
    assert code == 0 and out.count("  player ") == 4 and "Announcement" not in out


def test_run_json_replays(capsys):
    code, out, err = run(capsys, "run", GAME, "--seed", "9", "--players", "3", "--json")
    doc = json.loads(out)
    assert code == 0 and "seed 9" in err
    assert doc["game"] == "Wunschmaschine" and doc["players"] == 3 and doc["seed"] == 9
    assert doc["agents"] == ["random"] * 3
    state = load_game(GAME).new_state(doc["players"], doc["seed"])
    for seat, label in doc["actions"]:
        state.apply(label, player=seat)
    assert state.is_over
    assert state.log_lines() == doc["log"]
    assert state.scores() == doc["scores"] and state.winners() == doc["winners"]


@pytest.mark.parametrize("argv,message", [
    (["--players", "9"], "3 to 6 players"),
    (["--agents", "random,random"], "2 agents for 4 players"),
    (["--agents", "randm"], "did you mean 'random'"),
    (["--human", "5"], "seats are 1 to 4"),
    (["--human", "1", "--json"], "--json"),
    (["--agents", "human", "--json"], "--json"),
    (["--variant", "Left-right"], "did you mean 'Left-Right'"),
])
def test_run_user_errors_are_clean(capsys, argv, message):
    code, out, err = run(capsys, "run", GAME, "--seed", "1", *argv)
    assert code == 1 and message in err and "Traceback" not in err


def test_run_missing_game(capsys):
    code, out, err = run(capsys, "run", "no/such.wish")
    assert code == 1 and "no such file" in err


def test_run_human_plays_then_eof_abandons(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("9\n1\nfoo\n2\n"))
    game = str(Path(GAME).resolve())
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "run", game, "--seed", "3", "--human", "2")
    assert code == 130 and "Game abandoned." in err and "Traceback" not in out + err
    assert "Game saved to wunschmaschine-3.wishsave.json; go on with: wishdsl run --resume" in err
    assert (tmp_path / "wunschmaschine-3.wishsave.json").exists()
    assert out.startswith("seed 3 — replay with --seed 3\n")
    assert "There is no option 9." in out and "'foo' is not an option." in out
    assert out.count("Slap the wish card?") >= 3
    assert "player 1 looks at 33 cards" in out and "player 1: wish for card " in out
    assert "· wish: ?\n" in out  # the wished-for card stays hidden from the Agents


def test_run_human_sees_only_its_log(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3000))
    code, out, _ = run(capsys, "run", GAME, "--seed", "4", "--human", "2", "--players", "3")
    omniscient = run(capsys, "run", GAME, "--seed", "4", "--players", "3")[1]
    assert "looks at 33 cards" in out and "looks at 33 cards" not in omniscient
    assert code == 0 and "Result:" in out


class Interrupter(Agent):
    name = "interrupter"

    def act(self, view, actions):
        raise KeyboardInterrupt


class Cheater(Agent):
    name = "cheater"

    def act(self, view, actions):
        return type(actions[0])(actions[0].player, "win the game")


def test_run_ctrl_c_abandons(capsys, monkeypatch):
    monkeypatch.setitem(AGENTS, "interrupter", Interrupter)
    code, out, err = run(capsys, "run", GAME, "--seed", "1", "--agents", "interrupter")
    assert code == 130 and "Game abandoned." in err and "Traceback" not in err


def test_run_illegal_agent_action_is_a_bug(capsys, monkeypatch):
    monkeypatch.setitem(AGENTS, "cheater", Cheater)
    with pytest.raises(IllegalAction):
        main(["run", GAME, "--seed", "1", "--agents", "cheater"])


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.startswith("wishdsl ")


# ---------------------------------------------------------------- check
def test_check_ok(capsys):
    code, out, err = run(capsys, "check", GAME)
    assert code == 0 and out == f"ok: {GAME} (game Wunschmaschine, 1 variant)\n" and err == ""


def test_check_broken_file(capsys, tmp_path):
    bad = tmp_path / "bad.wish"
    bad.write_text('game "Bad" {\n  players 2..4\n}\nvar x: int = = 3\nplay { }\n', encoding="utf-8")
    code, out, err = run(capsys, "check", GAME, str(bad))
    assert code == 1 and out.startswith("ok: ")
    assert f"{bad}:4:" in err and ": error: " in err and "^" in err
    assert "Traceback" not in err


def test_check_unknown_name(capsys, tmp_path):
    bad = tmp_path / "names.wish"
    bad.write_text('game "Bad" {\n  players 2..4\n}\nvar x: int = 0\nplay {\n  y = 1\n}\n', encoding="utf-8")
    code, _, err = run(capsys, "check", str(bad))
    assert code == 1 and f"{bad}:6:3: error:" in err and "^" in err


@pytest.mark.parametrize("make", ["missing", "directory", "latin1"])
def test_check_unreadable_is_clean(capsys, tmp_path, make):
    path = tmp_path / "x.wish"
    if make == "directory":
        path.mkdir()
    elif make == "latin1":
        path.write_bytes('game "Ãœber" {}\n'.encode("utf-8").replace(b"\xc3", b"\xff"))
    code, out, err = run(capsys, "check", str(path))
    assert code == 1 and out == "" and str(path) in err and "Traceback" not in err


# ---------------------------------------------------------------- test
def test_test_command(capsys, tmp_path, monkeypatch):
    scenario = pytest.importorskip("wishdsl.scenario")

    class Result:
        def __init__(self, path, name, ok, message=""):
            self.path, self.name, self.ok, self.message = path, name, ok, message

    def fake(paths):
        return [Result("a.yaml", "first", True), Result("a.yaml", "second", False, "coins: 1 != 2\nat step 3")]

    monkeypatch.setattr(scenario, "run_paths", fake)
    code, out, _ = run(capsys, "test", "a.yaml")
    assert code == 1
    assert out.splitlines() == ["PASS a.yaml: first", "FAIL a.yaml: second", "    coins: 1 != 2", "    at step 3",
                                "1 passed, 1 failed"]
    monkeypatch.setattr(scenario, "run_paths", lambda paths: [])
    code, _, err = run(capsys, "test", str(tmp_path))
    assert code == 1 and "no scenarios" in err


def test_test_command_on_real_scenarios(capsys, tmp_path):
    from wishdsl.scenario import run_paths

    code, out, _ = run(capsys, "test", "games/scenarios")
    lines = out.splitlines()
    passed, failed = (int(w) for w in re.fullmatch(r"(\d+) passed, (\d+) failed", lines[-1]).groups())
    assert passed + failed == sum(1 for ln in lines if ln.startswith(("PASS ", "FAIL ")))
    assert failed == 0 and code == 0, "\n".join(ln for ln in lines if not ln.startswith("PASS "))
    assert passed == len(run_paths(["games/scenarios"])) > 200  # every scenario of every game ran, and passed
    code, out, err = run(capsys, "test", str(tmp_path / "missing"))
    assert code == 1 and out.splitlines()[-1] == "0 passed, 1 failed"
