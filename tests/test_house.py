"""House rules: files that `extend` a game (games/house/), what they change, and what they may not do.

Every house rule checks and plays to the end over 100 seeds; its scenario (games/scenarios/house/) shows the
changed behaviour; `wishdsl diff` lists exactly the definitions the house file names, no more.
"""
import os
import random
import shutil
from pathlib import Path

import pytest

from dsl import ast as A
from dsl.errors import WishError
from dsl.link import load_program
from docgen.diff import game_diff, render_diff
from interpreter import load_game
from wishdsl.cli import main

ROOT = Path(__file__).parent.parent
HOUSE = sorted((ROOT / "games" / "house").glob("*.wish"))
SEEDS = max(1, 100 * int(os.environ.get("WISH_PLAYOUTS", "500")) // 500)


def base_of(path: Path) -> str:
    return load_program(str(path)).parent.path


def test_at_least_five_house_rules_across_the_three_games():
    assert len(HOUSE) >= 5
    bases = {Path(base_of(p)).name for p in HOUSE}
    assert bases == {"wish.wish", "three_wishes.wish", "wunschmaschine.wish"}


@pytest.mark.parametrize("path", HOUSE, ids=[p.stem for p in HOUSE])
def test_each_house_rule_says_what_it_is_for_and_has_a_scenario(path):
    program = load_program(str(path))
    ext = next(d for d in program.decls if isinstance(d, A.Extends))
    assert ext.doc and len(ext.doc) > 40, "the `extends` line carries the house rule's doc string"
    scenario = ROOT / "games" / "scenarios" / "house" / f"{path.stem}.yaml"
    assert scenario.is_file(), f"no scenario {scenario}"
    assert f"house/{path.name}" in scenario.read_text(encoding="utf-8")


def _play(game, players: int, seed: int):
    st = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
        broken = st.broken_invariants()
        assert not broken, f"seed {seed}: {broken}"
    return st


@pytest.mark.parametrize("path", HOUSE, ids=[p.stem for p in HOUSE])
def test_each_house_rule_plays_to_the_end_over_100_seeds(path):
    game = load_game(str(path))
    span = range(game.min_players, game.max_players + 1)
    for seed in range(SEEDS):
        st = _play(game, span[seed % len(span)], seed)
        assert st.is_over and len(st.scores()) == st.n and set(st.winners()) <= set(range(st.n))


def _named_changes(path: Path) -> set:
    """The keys of what a house file names: declarations, card rows, scoring steps, removals."""
    from dsl.variants import row_name
    program = load_program(str(path))
    old_keys = {d.key for d in load_program(program.parent.path).decls}
    out = set()
    for d in program.decls:
        if isinstance(d, (A.Extends, A.Variant)):
            continue
        if isinstance(d, A.Cards) and d.key in old_keys:
            out.update(f"card {row_name(d, r)}" for r in d.rows)
        elif isinstance(d, A.Scoring):
            out.update(f"scoring {s.form} {s.label}" for s in d.steps)
        elif isinstance(d, A.Remove):
            out.add(f"remove {d.name}")
        else:
            out.add(d.key)
    return out


@pytest.mark.parametrize("path", HOUSE, ids=[p.stem for p in HOUSE])
def test_the_diff_lists_exactly_what_the_house_rule_names(path):
    diff = game_diff(base_of(path), str(path))
    got = {c.key for c in diff.changes}
    assert got == _named_changes(path)
    text = render_diff(diff, "md")
    for c in diff.changes:
        assert c.what.split("“")[0].strip() in text
    assert "replace" not in {c.kind for c in diff.changes}


def test_a_diff_reads_the_rules_before_and_after():
    diff = game_diff("games/wish.wish", "games/house/wish_four_markers.wish")
    markers = next(c for c in diff.changes if c.key == "markers")
    assert (markers.kind, markers.before, markers.after) == ("changed", "Markers: 3.", "Markers: 4.")
    tt = game_diff("games/three_wishes.wish", "games/house/three_wishes_time_travel_plain.wish")
    card = next(c for c in tt.changes if c.key == "card Time Travel")
    assert "loses the game" in card.before and "no special rule" in card.after
    badges = game_diff("games/wish.wish", "games/house/wish_double_badges.wish")
    step = next(c for c in badges.changes if c.key.startswith("scoring"))
    assert step.what == "Scoring step “4. Monument Badges”" and "2 ×" in step.after


def test_a_diff_of_a_named_variant_and_of_nothing():
    diff = game_diff("games/wunschmaschine.wish", "Left-Right")
    assert {c.kind for c in diff.changes} == {"changed", "added"}
    assert {c.key for c in diff.changes} == {"attempt", "Hand", "hand_rows"}
    same = game_diff("games/wunschmaschine.wish", "games/wunschmaschine.wish")
    assert same.changes == [] and "No rule changes" in render_diff(same, "md")


def test_a_variant_removing_a_scoring_step_shows_as_removed():
    diff = game_diff("games/house/wish_double_badges.wish", "Badges only")
    assert [(c.kind, c.key) for c in diff.changes] == [("removed", "scoring score 5. Destiny")]


def test_the_html_diff_escapes_names(tmp_path):
    (tmp_path / ".wishroot").write_text("")
    (tmp_path / "g.wish").write_text('game "G" { players 2..2 }\nvar n: int = 0\nplay { n += 1 }\n')
    (tmp_path / "h.wish").write_text('extends "g.wish"\ngame "<script>alert(1)</script>" { players 2..2 }\n')
    html = render_diff(game_diff(str(tmp_path / "g.wish"), str(tmp_path / "h.wish")), "html")
    assert "<script>" not in html and "&lt;script&gt;" in html


# ---------------------------------------------------------------- composition


def test_a_house_rule_keeps_the_variants_of_its_game_and_composes_with_them():
    coins = load_game("games/house/wunschmaschine_3_coins.wish", "Left-Right")
    assert "Left-Right" in load_game("games/house/wunschmaschine_3_coins.wish").variants
    kinds = {d.key for d in coins.program.decls}
    assert "extends" in kinds
    st = coins.new_state(3, seed=1)
    view = st.view(0)
    assert view["game"] == "Wunschmaschine — to 3 coins (Left-Right)"
    from dsl import variants as V
    decls = {d.key: d for d in V.resolve(load_program("games/house/wunschmaschine_3_coins.wish"), "Left-Right")}
    assert decls["coins_to_win"].value.value == 3 and "Hand" in decls


def test_a_house_rule_of_a_variant_builds_on_it():
    game = load_game("games/house/three_wishes_match_to_3.wish")
    assert game.variants == []
    from dsl import variants as V
    decls = {d.key: d for d in V.resolve(load_program("games/house/three_wishes_match_to_3.wish"), None)}
    assert decls["cubes_to_win"].value.value == 3 and "award_cubes" in decls


def _tree(tmp_path, files: dict) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / ".wishroot").write_text("")
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return tmp_path


TINY = 'game "Tiny" { players 2..2 }\nparam goal: int = 3\nvar n: int = 0\nplay { while n < goal { n += 1 } }\n'


def test_a_house_rule_of_a_house_rule(tmp_path):
    root = _tree(tmp_path, {"g.wish": TINY, "h1.wish": 'extends "g.wish"\nparam goal: int = 5\n',
                            "deeper/h2.wish": 'extends "../h1.wish"\nvar m: int = goal\nplay { n = m }\n'})
    st = load_game(str(root / "deeper" / "h2.wish")).new_state(2, seed=1)
    assert st.is_over and st.view(0)["vars"]["n"] == 5


def test_a_cycle_of_extends_is_an_error_not_a_hang(tmp_path):
    root = _tree(tmp_path, {"a.wish": 'extends "b.wish"\n', "b.wish": 'extends "c.wish"\n',
                            "c.wish": 'extends "a.wish"\n'})
    with pytest.raises(WishError) as err:
        load_game(str(root / "a.wish"))
    assert "'extends' makes a cycle: a.wish → b.wish → c.wish → a.wish" in err.value.render()


def test_extends_cannot_escape_the_project_unless_allowed(tmp_path):
    outside = _tree(tmp_path / "elsewhere", {"g.wish": TINY})
    project = _tree(tmp_path / "project", {"h.wish": 'extends "../elsewhere/g.wish"\nparam goal: int = 4\n'})
    with pytest.raises(WishError) as err:
        load_game(str(project / "h.wish"))
    assert "lies outside the game's folder tree" in err.value.render() and "--allow" in err.value.render()
    game = load_game(str(project / "h.wish"), allow=(str(outside),))
    assert game.new_state(2, seed=1).view(0)["vars"]["n"] == 4


def test_a_symlink_cannot_smuggle_a_file_out(tmp_path):
    _tree(tmp_path / "elsewhere", {"g.wish": TINY})
    project = _tree(tmp_path / "project", {"h.wish": 'extends "link.wish"\n'})
    os.symlink(tmp_path / "elsewhere" / "g.wish", project / "link.wish")
    with pytest.raises(WishError) as err:
        load_game(str(project / "h.wish"))
    assert '"link.wish" lies outside the game\'s folder tree' in err.value.render()


def test_a_changed_base_game_is_reloaded_and_changes_the_fingerprint(tmp_path):
    root = _tree(tmp_path, {"g.wish": TINY, "h.wish": 'extends "g.wish"\n'})
    before = load_game(str(root / "h.wish"))
    (root / "g.wish").write_text(TINY.replace("goal: int = 3", "goal: int = 7"), encoding="utf-8")
    os.utime(root / "g.wish", ns=(1, 1))
    after = load_game(str(root / "h.wish"))
    assert after is not before and after.fingerprint != before.fingerprint
    assert after.new_state(2, seed=0).view(0)["vars"]["n"] == 7


# ---------------------------------------------------------------- the command line


def test_every_command_takes_a_house_rule(tmp_path, capsys):
    house = "games/house/wunschmaschine_3_coins.wish"
    assert main(["check", house]) == 0
    assert "extends games/wunschmaschine.wish" in capsys.readouterr().out
    assert main(["run", house, "--players", "3", "--seed", "4", "--quiet"]) == 0
    assert main(["run", house, "--players", "3", "--seed", "4", "--variant", "Left-Right", "--quiet"]) == 0
    assert main(["docs", house, "-o", str(tmp_path / "h.md")]) == 0
    assert "Wunschmaschine — to 3 coins" in (tmp_path / "h.md").read_text(encoding="utf-8")
    assert main(["test", "games/scenarios/house/wunschmaschine_3_coins.yaml"]) == 0
    assert main(["simulate", house, "-n", "6", "--players", "3", "--seed", "2", "--json"]) == 0
    assert '"Wunschmaschine — to 3 coins"' in capsys.readouterr().out
    assert main(["simulate", "games/wunschmaschine.wish", "-n", "6", "--players", "3", "--seed", "2",
                 "--compare", house]) == 0
    assert main(["diff", "games/wunschmaschine.wish", house, "--format", "html", "-o", str(tmp_path / "d.html")]) == 0
    page = (tmp_path / "d.html").read_text(encoding="utf-8")
    assert "Coins to win" in page or "coins to win" in page.lower()


def test_diff_and_allow_on_the_command_line(tmp_path, capsys):
    outside = _tree(tmp_path / "elsewhere", {"g.wish": TINY})
    project = _tree(tmp_path / "project", {"h.wish": 'extends "../elsewhere/g.wish"\nparam goal: int = 4\n'})
    assert main(["check", str(project / "h.wish")]) == 1
    assert "outside the game's folder tree" in capsys.readouterr().err
    assert main(["--allow", str(outside), "diff", str(outside / "g.wish"), str(project / "h.wish")]) == 0
    out = capsys.readouterr().out
    assert "Goal: 3." in out and "Goal: 4." in out
    assert main(["diff", "games/wish.wish", "Sol"]) == 1
    assert "did you mean 'Solo'?" in capsys.readouterr().err


def test_the_house_folder_is_self_contained(tmp_path):
    """Copy games/ elsewhere: the house rules still find their games (relative paths, own project root)."""
    shutil.copytree(ROOT / "games", tmp_path / "games")
    (tmp_path / ".wishroot").write_text("")
    game = load_game(str(tmp_path / "games" / "house" / "wunschmaschine_5_rows.wish"))
    assert game.name == "Wunschmaschine — five rows"


def test_the_generated_house_rule_diffs_are_up_to_date():
    from docgen.diff import house_diffs, _rel
    stale = []
    for path, base in house_diffs(ROOT / "games" / "house"):
        diff = game_diff(_rel(base, ROOT), _rel(path, ROOT))
        for fmt in ("md", "html"):
            target = ROOT / "docs" / "house" / f"{Path(path).stem}.{fmt}"
            if not target.exists() or target.read_text(encoding="utf-8") != render_diff(diff, fmt):
                stale.append(str(target.relative_to(ROOT)))
    assert not stale, "out of date (regenerate with: python -m docgen): " + ", ".join(stale)


@pytest.mark.parametrize("path,needle", [
    ("x/" * 3000 + "a.wish", "as a game file: File name too long"),
    ("", "'extends' names a .wish file"),
    ("/", "'extends' names a .wish file"),
    ("/etc/passwd.wish", "lies outside the game's folder tree"),
    ("sub/" * 100 + "../" * 100 + "h.wish", "'extends' makes a cycle: h.wish → h.wish"),
])
def test_hostile_extends_paths_are_refused_with_a_message(tmp_path, path, needle):
    root = _tree(tmp_path, {"h.wish": f'extends "{path}"\n'})
    with pytest.raises(WishError) as err:
        load_game(str(root / "h.wish"))
    assert needle in err.value.render()


def test_sheet_of_a_variant_the_house_rule_inherits():
    """A house rule's sheet in a variant of its base game (found by a test of the sheets: it raised
    StopIteration, a traceback for a user's command)."""
    from docgen.render import render_sheet

    text = render_sheet(str(ROOT / "games" / "house" / "wish_four_markers.wish"), "Random Djinns", "md")
    assert text.startswith("# Wish — four action markers — Random Djinns — rules cheat-sheet")
    assert "Variant “Random Djinns”" in text
