"""Replaying `wishdsl run --json` logs: a log replays to the same final state; a log that does not match its game
says where it diverges."""
import json
from pathlib import Path

import pytest

from interpreter import WishError
from wishdsl.cli import main
from wishdsl.replay import ReplayError, first_difference, replay_file

pytestmark = pytest.mark.usefixtures("allow_the_project")  # documents in tmp_path name the games

ROOT = Path(__file__).parent.parent
GAMES = [("wunschmaschine.wish", None, 4), ("three_wishes.wish", "Match", 3), ("wish.wish", None, 2),
         ("wish.wish", "Solo", 1)]


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write_log(tmp_path, capsys, game="wunschmaschine.wish", variant=None, players=4, seed=3):
    argv = ["run", str(ROOT / "games" / game), "--seed", str(seed), "--players", str(players), "--json"]
    code, out, _ = cli(capsys, *argv, *(["--variant", variant] if variant else []))
    assert code == 0
    file = tmp_path / "log.json"
    file.write_text(out, encoding="utf-8")
    return file, json.loads(out)


@pytest.mark.parametrize("game,variant,players", GAMES)
def test_a_log_replays_to_the_same_final_state(tmp_path, capsys, game, variant, players):
    file, doc = write_log(tmp_path, capsys, game, variant, players)
    assert doc["path"].endswith(game) and doc["variant"] == variant and doc["fingerprint"]
    state, n, note = replay_file(str(file))
    assert n == len(doc["actions"]) > 0 and note is None
    assert state.log_lines() == doc["log"] and state.scores() == doc["scores"]
    assert json.loads(state.to_json()) == doc["state"]
    code, out, err = cli(capsys, "replay", str(file))
    assert code == 0 and out.startswith(f"replayed {n} decisions of {file}: the same log, scores and final state")


def tampered(file, doc, change):
    changed = json.loads(json.dumps(doc))
    change(changed)
    file.write_text(json.dumps(changed), encoding="utf-8")
    with pytest.raises(ReplayError) as info:
        replay_file(str(file))
    return str(info.value)


def test_a_wrong_action_says_where_the_game_diverges(tmp_path, capsys):
    file, doc = write_log(tmp_path, capsys)
    seat = doc["actions"][9][0]
    message = tampered(file, doc, lambda d: d["actions"][9].__setitem__(1, "travel forest"))
    assert f"decision 10 (player {seat + 1}): the log says 'travel forest' but the options are: '" in message
    other = (seat + 1) % 4
    message = tampered(file, doc, lambda d: d["actions"][9].__setitem__(0, other))
    assert f"decision 10 (player {other + 1})" in message and "waits for" in message
    message = tampered(file, doc, lambda d: d["actions"].append(d["actions"][-1]))
    assert f"decision {len(doc['actions']) + 1}" in message and "the game is over" in message


def test_a_different_outcome_says_what_differs(tmp_path, capsys):
    file, doc = write_log(tmp_path, capsys)
    message = tampered(file, doc, lambda d: d["log"].__setitem__(4, "something else"))
    assert "the final state differs: log line 5: the log says 'something else' but the replay gives '" in message
    message = tampered(file, doc, lambda d: d.__setitem__("scores", [9, 9, 9, 9]))
    assert "the log says scores [9, 9, 9, 9], the replay gives" in message
    message = tampered(file, doc, lambda d: d["state"]["where"].__setitem__(0, 99))
    assert "the final state differs: at where[0] of the saved state" in message
    message = tampered(file, doc, lambda d: d["actions"].pop())
    assert "the final state differs" in message


def test_a_log_of_another_version_of_the_game_is_noted(tmp_path, capsys):
    file, doc = write_log(tmp_path, capsys)
    message = tampered(file, doc, lambda d: (d.__setitem__("fingerprint", "Wunschmaschine//0"),
                                             d["actions"][9].__setitem__(1, "travel forest")))
    assert "decision 10" in message and "note: the log was written by a different version" in message
    code, out, err = cli(capsys, "replay", str(file))
    assert code == 1 and "decision 10" in err and "Traceback" not in err


def test_broken_logs_are_refused_with_a_message(tmp_path, capsys):
    file = tmp_path / "bad.json"
    for text, message in [("{", "not JSON"), ('{"players": 2, "seed": 1, "actions": []}', "does not name its game file"),
                          (json.dumps({"path": "games/wish.wish", "players": "2", "seed": 1}), "'players' must be"),
                          (json.dumps({"path": "games/wish.wish", "players": 2, "seed": 1, "actions": [[0]]}),
                           "action 1 is not [seat, label]"),
                          (json.dumps({"path": "no/such.wish", "players": 2, "seed": 1, "actions": []}),
                           "no such file")]:
        file.write_text(text, encoding="utf-8")
        with pytest.raises(WishError, match=None) as info:
            replay_file(str(file))
        assert message in info.value.render()
        code, _, err = cli(capsys, "replay", str(file))
        assert code == 1 and message in err and "Traceback" not in err


def test_first_difference_names_a_path():
    assert first_difference({"a": [1, 2]}, {"a": [1, 3]}) == "a[1]"
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == "a (length 1 against 2)"
    assert first_difference({"a": 1}, {"b": 1}) == "a"
    assert first_difference([1, {"x": "y"}], [1, {"x": "y"}]) is None
