"""bench/balance.py: win rates per role in self-play at several table sizes, written between markers."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

RACE = "tests/games/sim_race.wish"


def balance():
    spec = importlib.util.spec_from_file_location("balance", Path(__file__).parent.parent / "bench" / "balance.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_has_a_row_per_role_and_a_column_per_table_size(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("intro\n<!-- balance:begin -->\nold table\n<!-- balance:end -->\nafter\n")
    args = [RACE, "--agent", "random", "--players", "2,3", "--games", "40", "--games-more", "20", "--seed", "3",
            "--jobs", "1", "--write", str(readme)]
    assert balance().main(args) == 0
    text = readme.read_text()
    assert text.startswith("intro\n<!-- balance:begin -->\nWin rate per house") and text.endswith(
        "<!-- balance:end -->\nafter\n")
    assert "old table" not in text
    assert "| house | 2 players (40 games) | 3 players (20 games) |" in text
    assert "| fair share | 50% | 33% |" in text
    lion = next(line for line in text.splitlines() if line.startswith("| <b>Lion</b> |"))
    cell = r"\d+% \[\d+–\d+\], score \d+\.\d"  # rate [low–high] and the role's mean score, per column
    assert re.fullmatch(rf"\| <b>Lion</b> \| {cell} \| {cell} \|", lion), lion
    # the command that makes it again, with everything that decides the games
    assert ('`python bench/balance.py tests/games/sim_race.wish --agent "random" --players 2,3 --games 40 '
            '--games-more 20 --seed 3`') in text
    assert capsys.readouterr().out.strip() in text  # what it printed is what it wrote


def test_the_edge_row_is_each_roles_mean_score_less_every_players_in_tenths_of_a_point(capsys):
    doc = {"scores": {"all": {"mean": 10.84}},
           "roles": {"djinn": [{"role": "Air", "score": {"mean": 8.51}}, {"role": "Fire", "score": {"mean": 12.5}}]}}
    assert balance().edges(doc, "djinn", ["Air", "Earth", "Fire"]) == "Air -23, Fire +17"
    balance().main([RACE, "--agent", "random", "--players", "2", "--games", "30", "--seed", "8", "--jobs", "1"])
    lines = capsys.readouterr().out.splitlines()
    mean = float(re.search(r"^\| mean score \(winners'\) \| (\d+\.\d)", "\n".join(lines), re.M).group(1))
    scores = {m.group(1): float(m.group(2)) for line in lines
              if (m := re.fullmatch(r"\| (.+?) \| \d+% \[\d+–\d+\], score (\d+\.\d) \|", line))}
    row = next(line for line in lines if line.startswith("| edge: house score less the mean"))
    found = dict(entry.rsplit(" ", 1) for entry in row.split(" | ", 1)[1].removesuffix(" |").split(", "))
    assert set(found) == set(scores) and len(scores) >= 2
    for role, edge in found.items():  # from the rounded figures of the table, so within one tenth
        assert abs(int(edge) - 10 * (scores[role] - mean)) <= 1.01, (role, edge, scores[role], mean)


def test_the_lead_row_is_each_roles_mean_lead_over_the_best_other_player_in_tenths_of_a_point(capsys):
    doc = {"roles": {"djinn": [{"role": "Air", "lead": {"mean": -1.26}}, {"role": "Water", "lead": {"mean": 0.84}}]}}
    assert balance().leads(doc, "djinn", ["Air", "Earth", "Water"]) == "Air -13, Water +8"
    balance().main([RACE, "--agent", "random", "--players", "2", "--games", "30", "--seed", "8", "--jobs", "1"])
    lines = capsys.readouterr().out.splitlines()
    row = next(line for line in lines if line.startswith("| lead: house score less the best other player's"))
    found = {role: int(lead) for role, lead in (entry.rsplit(" ", 1) for entry in
                                                row.split(" | ", 1)[1].removesuffix(" |").split(", "))}
    doc, _ = balance().measure(RACE, None, "random", 2, 30, 8, 1)  # the same games
    rows = doc["roles"]["house"]
    assert found == {r["role"]: round(10 * r["lead"]["mean"]) for r in rows} and len(found) == 2
    assert abs(sum(r["lead"]["mean"] * r["games"] for r in rows)) < 1e-9  # one's lead is the other's loss


def test_the_same_arguments_give_the_same_table(capsys):
    args = [RACE, "--agent", "random", "--players", "2", "--games", "30", "--seed", "8", "--jobs", "1"]
    tables = []
    for _ in range(2):
        balance().main(args)
        tables.append(capsys.readouterr().out.split("minutes (one column each).")[1])
    assert tables[0] == tables[1]


def refused_before_playing(module, args, capsys) -> str:
    """Run `main(args)`, which must stop with a usage error before any game is played; return its message."""
    def measure(*_):
        raise AssertionError("a game was played before the --write target was checked")
    module.measure = measure
    with pytest.raises(SystemExit) as stop:
        module.main(args)
    assert stop.value.code == 2
    return capsys.readouterr().err


def test_a_file_without_markers_is_refused_before_any_game_and_not_written(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("no markers\n")
    err = refused_before_playing(balance(), [RACE, "--agent", "random", "--players", "2", "--games", "4",
                                             "--jobs", "1", "--write", str(readme)], capsys)
    assert f"{readme}: no <!-- balance:begin --> … <!-- balance:end --> markers" in err
    assert readme.read_text() == "no markers\n"


def test_a_missing_write_target_is_refused_before_any_game(tmp_path, capsys):
    """A long run must not lose its games to a mistyped path at the end."""
    missing = tmp_path / "nowhere" / "README.md"
    err = refused_before_playing(balance(), [RACE, "--players", "2", "--write", str(missing)], capsys)
    assert f"--write {missing}: cannot read it (No such file or directory)" in err
    assert "Traceback" not in err and not missing.exists()


def test_a_game_without_roles_says_so(capsys):
    balance().main(["games/three_wishes.wish", "--agent", "random", "--players", "3", "--games", "3", "--jobs", "1"])
    assert "No roles: every player plays the same part" in capsys.readouterr().out


def test_table_sizes_must_be_numbers(capsys):
    with pytest.raises(SystemExit):
        balance().main([RACE, "--players", "2,three"])
    assert "--players 2,three: table sizes are whole numbers" in capsys.readouterr().err


def test_the_points_of_each_scoring_step_are_rows_of_the_table(capsys):
    balance().main(["games/wish.wish", "--agent", "greedy", "--players", "2", "--games", "2", "--seed", "2",
                    "--jobs", "1"])
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| points: ")]
    assert [row.split(" | ")[0] for row in rows] == [
        "| points: 1. Victory Points of your fulfilled Wishes", "| points: 2. Victory Point tokens",
        "| points: 3. Ongoing Wishes", "| points: 4. Monument Badges", "| points: 5. Destiny"]
    shares = [int(re.fullmatch(r"\| points: .* \| \d+\.\d \((\d+)%\) \|", row).group(1)) for row in rows]
    assert 98 <= sum(shares) <= 102  # rounded shares of all points
