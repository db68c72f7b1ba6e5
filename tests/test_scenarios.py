"""Rule scenarios: every games/scenarios/**/*.yaml scenario as its own test, and tests of the runner itself."""
from __future__ import annotations

from pathlib import Path

import pytest

from wishdsl.scenario import run_file, run_paths, scenario_files, scenario_names

pytestmark = pytest.mark.usefixtures("allow_the_project")  # documents in tmp_path name the games

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "games" / "scenarios"
WUNSCH = ROOT / "games" / "wunschmaschine.wish"


def _cases():
    for f in scenario_files(SCENARIOS):
        rel = Path(f).relative_to(SCENARIOS).as_posix()
        for i, name in enumerate(scenario_names(f)):
            yield pytest.param(f, i, id=f"{rel}::{name}")


@pytest.mark.parametrize("path,index", list(_cases()))
def test_scenario(path, index):
    [result] = run_file(path, index)
    assert result.ok, result.message


def test_scenarios_exist():
    assert len(list(_cases())) >= 20


# ---------------------------------------------------------------- the runner itself
TINY = """
game "Tiny" {
  players 2..3
}
enum Gem { ruby "Ruby", jade "Jade" }
card Stone {
  gem: Gem
}
zone pile: Stone public
player zone hand: Stone owner
cards Stone in pile {
  | name    | count | gem  |
  | "Red"   | 2     | ruby |
  | "Green" | 1     | jade |
}
var leader: player? = none
var fav: Gem = ruby
var picks: list of Gem = []
player var gems: bag of Gem = {ruby: 0, jade: 0}
player var score: int = 0 min 0
var answer: text = "a"
play {
  while true {
    choose answer from ["a", "b"] by first(players) prompt "Pick"
    first(players).score += 1
    if first(players).score >= 2 {
      end game
    }
  }
}
scoring p {
  score "Score" p.score
}
"""


def run_text(tmp_path, text: str, name: str = "case.yaml"):
    (tmp_path / "tiny.wish").write_text(TINY)
    f = tmp_path / name
    f.write_text(text)
    return run_file(str(f))


def one(tmp_path, text: str):
    [r] = run_text(tmp_path, text)
    return r


def test_passing_scenario_on_a_small_game(tmp_path):
    r = one(tmp_path, """
game: tiny.wish
players: 2
given:
  leader: player 2
  fav: jade
  picks: [ruby, Jade]
  player 1: {gems: {ruby: 2}, hand: ["Green", "Red"]}
do:
  - player 1: a
  - expect: {player 1: {score: 1}, options: {player 1: [a, b], player 2: []}, to_move: [player 1]}
  - player 1: b
expect:
  leader: player 2
  fav: jade
  picks: [ruby, jade]
  player 1: {gems: {ruby: 2, jade: 0}, hand: ["Green", "Red"], score: 2}
  pile: ["Red"]
  over: true
  winners: [player 1]
  scores: [2, 0]
  log: ["Game over"]
  log_count: {"Winner": 1}
""")
    assert r.ok, r.message
    assert r.name == "case"


def test_a_false_expectation_names_the_key_both_values_and_the_step(tmp_path):
    r = one(tmp_path, f"""
game: {WUNSCH}
players: 4
seed: 1
do:
  - player 1: wish for "Heart"
  - {{player 2: slap, player 3: wait, player 4: wait}}
  - player 2: guess heart
expect:
  supply: 18
  player 2: {{coins: 3}}
""")
    assert not r.ok
    assert "supply: expected 18, got 19" in r.message
    assert "player 2 coins: expected 3, got 1" in r.message
    assert "after step 3 (player 2: guess heart)" in r.message


def test_zone_and_list_mismatches_render_readably(tmp_path):
    r = one(tmp_path, """
game: tiny.wish
players: 2
expect:
  pile: ["Green", "Red"]
  winners: [player 2]
  announcements: ["Yes"]
""")
    assert not r.ok
    assert "pile: expected [Green, Red], got [Red, Red, Green]" in r.message
    assert "winners: expected [player 2], got []" in r.message
    assert "announcements: expected [Yes], got []" in r.message


def test_an_illegal_decision_fails_with_the_reason_and_the_options(tmp_path):
    r = one(tmp_path, "game: tiny.wish\ndo:\n  - player 1: c\n")
    assert not r.ok
    assert "step 1 (player 1: c): refused" in r.message
    assert "'c' is not an option" in r.message and "options: a, b" in r.message
    r = one(tmp_path, "game: tiny.wish\ndo:\n  - player 2: a\n")
    assert "not player 2's decision" in r.message and "waiting for player 1: a, b" in r.message


def test_illegal_steps(tmp_path):
    ok = one(tmp_path, "game: tiny.wish\ndo:\n  - illegal: {player 1: c, reason: not an option}\n"
                       "  - illegal: {player 2: a, reason: not player 2's}\n")
    assert ok.ok, ok.message
    accepted = one(tmp_path, "game: tiny.wish\ndo:\n  - illegal: {player 1: a}\n")
    assert not accepted.ok and "was accepted, but it must be refused" in accepted.message
    other = one(tmp_path, "game: tiny.wish\ndo:\n  - illegal: {player 1: c, reason: over}\n")
    assert not other.ok and "for another reason" in other.message


def test_a_step_after_the_end_fails_clearly(tmp_path):
    r = one(tmp_path, "game: tiny.wish\ndo:\n  - player 1: a\n  - player 1: a\n  - player 1: a\n")
    assert not r.ok
    assert "step 3 (player 1: a): the game is already over" in r.message


def test_several_scenarios_inherit_the_file_settings(tmp_path):
    results = run_text(tmp_path, """
game: tiny.wish
players: 3
scenarios:
  - name: first
    expect: {scores: [0, 0, 0]}
  - expect: {scores: [0, 0]}
""")
    assert [r.name for r in results] == ["first", "case #2"]
    assert results[0].ok and not results[1].ok


@pytest.mark.parametrize("text,needle", [
    ("game: tiny.wish\nexpct: {}\n", "did you mean 'expect'?"),
    ("game: tiny.wish\nexpect: {supplly: 3}\n", "unknown key 'supplly'"),
    ("game: tiny.wish\nexpect: {anouncements: []}\n", "did you mean 'announcements'?"),
    ("game: tiny.wish\ndo:\n  - arange: {pile: []}\n", "did you mean 'arrange'?"),
    ("game: tiny.wish\ngiven: {fav: rubi}\n", "did you mean 'ruby'?"),
    ("game: tiny.wish\ngiven: {pile: [\"Gren\"]}\n", "did you mean 'Green'?"),
    ("game: tiny.wish\ngiven: {favv: ruby}\n", "did you mean 'fav'?"),
    ("game: tiny.wish\nscenarios: [{nmae: x}]\n", "did you mean 'name'?"),
])
def test_unknown_names_get_did_you_mean(tmp_path, text, needle):
    r = one(tmp_path, text)
    assert not r.ok and needle in r.message, r.message


@pytest.mark.parametrize("text,needle", [
    ("game: [unclosed\n", "not valid YAML"),
    ("- just\n- a list\n", "holds a mapping"),
    ("players: 2\n", "no game"),
    ("game: nowhere.wish\n", "no such file"),
    ("game: tiny.wish\nplayers: four\n", "expected a whole number"),
    ("game: tiny.wish\nplayers: 7\n", "2 to 3 players"),
    ("game: tiny.wish\nvariant: Spicy\n", "unknown variant"),
    ("game: tiny.wish\ndo: {player 1: a}\n", "must be a list"),
    ("game: tiny.wish\ndo:\n  - player 9: a\n", "no player 9"),
    ("game: tiny.wish\ndo:\n  - player one: a\n", "unknown step"),
    ("game: tiny.wish\ngiven: {score: 2}\n", "belongs to each player"),
    ("game: tiny.wish\ngiven: {player 1: {fav: ruby}}\n", "is shared"),
    ("game: tiny.wish\ngiven: {player 1: {score: -1}}\n", "below the minimum"),
    ("game: tiny.wish\ngiven: {player 1: {score: true}}\n", "expected a whole number"),
    ("game: tiny.wish\ngiven: {leader: 2}\n", "not a player"),
    ("game: tiny.wish\ngiven: {fav: null}\n", "expected a Gem"),
    ("game: tiny.wish\ngiven: {pile: [Red, Red, Red]}\n", "no more 'Red' cards"),
    ("game: tiny.wish\ndo:\n  - set: {pile: []}\n", "use `arrange`"),
    ("game: tiny.wish\ndo:\n  - arrange: {fav: ruby}\n", "use `set`"),
    ("game: tiny.wish\ndo:\n  - player 1: a\n    expect: {}\n", "one step does one thing"),
    ("game: tiny.wish\nexpect: {announcements: [Yes]}\n", "put the word in quotes"),
    ("game: tiny.wish\nexpect: {pile: {size: 3}}\n", "unknown key 'size'"),
])
def test_malformed_scenarios_fail_cleanly(tmp_path, text, needle):
    r = one(tmp_path, text)
    assert not r.ok
    assert needle in r.message, r.message
    assert "Traceback" not in r.message and "internal error" not in r.message


def test_a_game_that_does_not_load(tmp_path):
    (tmp_path / "broken.wish").write_text('game "Broken" {\n  players 2..3\n')
    (tmp_path / "s.yaml").write_text("game: broken.wish\n")
    [r] = run_file(str(tmp_path / "s.yaml"))
    assert not r.ok and "does not load" in r.message


def test_oversized_files_and_alias_bombs_are_refused(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * 1_100_000 + "\ngame: tiny.wish\n")
    [r] = run_file(str(big))
    assert not r.ok and "larger than 1 MB" in r.message
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 8):
        bomb.append(f"{chr(97 + i)}: &{chr(97 + i)} [{', '.join(['*' + chr(96 + i)] * 10)}]")
    [r] = run_text(tmp_path, "\n".join(bomb) + "\n", "bomb.yaml")
    assert not r.ok and "more than 100000 values" in r.message


def test_run_paths_searches_directories_recursively(tmp_path):
    (tmp_path / "tiny.wish").write_text(TINY)
    (tmp_path / ".wishroot").write_text("")  # the folder tree its scenarios may name games in
    (tmp_path / "sub").mkdir()
    (tmp_path / "b.yaml").write_text("game: tiny.wish\n")
    (tmp_path / "sub" / "a.yml").write_text("game: ../tiny.wish\n")
    (tmp_path / "notes.txt").write_text("not a scenario")
    results = run_paths([str(tmp_path)])
    assert [Path(r.path).name for r in results] == ["b.yaml", "a.yml"]
    assert all(r.ok for r in results), [r.message for r in results]
    [missing] = run_paths([str(tmp_path / "nope")])
    assert not missing.ok and "no such file" in missing.message


def test_a_fixture_that_breaks_an_invariant_fails(tmp_path):
    from interpreter import load_game
    if not getattr(load_game(str(WUNSCH)), "invariants", None):
        pytest.skip("the game declares no invariants")
    r = one(tmp_path, f"game: {WUNSCH}\nplayers: 4\ngiven: {{player 2: {{coins: 3}}}}\n")
    assert not r.ok and "given: this breaks an invariant of the game: coins are conserved" in r.message


def test_keyed_variables_can_be_given_and_expected(tmp_path):
    wish = Path(__file__).parent.parent / "games" / "wish.wish"
    case = tmp_path / "keyed.yaml"
    case.write_text(f"game: {wish}\nplayers: 2\nseed: 2\n"
                    "given: {waiting: {volcano: {red: 1, yellow: 1}}}\n"
                    "expect: {waiting: {volcano: {red: 1, yellow: 1}, dock: {white: 2}}, builder: {hidden_cave: null}}\n")
    (result,) = run_file(str(case))
    assert result.ok, result.message
    case.write_text(f"game: {wish}\nplayers: 2\nseed: 2\nexpect: {{waiting: {{volcano: {{red: 1}}}}}}\n")
    (result,) = run_file(str(case))
    assert not result.ok and "waiting[volcano]: expected 1 red, got 2 red" in result.message


LANES = """
game "Lanes" { players 2..2 }
enum Lane { left "Left", right "Right" }
enum Place { hill "Hill", lake "Lake" }
var used: Lane? = none
action go(to: Place, lane: Lane) {
  require to != lake else "the lake is closed"
  require used != lane else "that lane is taken"
  used = lane
}
action stop() { used = none }
play {
  repeat 3 {
    act one of go, stop by first(players)
  }
}
"""


def test_label_patterns_in_options_and_illegal_steps(tmp_path):
    (tmp_path / "lanes.wish").write_text(LANES)

    def run(steps: str):
        f = tmp_path / "case.yaml"
        f.write_text("game: lanes.wish\ndo:\n" + steps)
        [r] = run_file(str(f))
        return r

    ok = run('  - player 1: go hill, left\n'
             '  - expect: {options: {player 1: {includes: ["go hill, *"], excludes: ["go lake, *", "go *, left"]}}}\n'
             '  - illegal: {player 1: "go lake, *", reason: "the lake is closed"}\n'
             '  - illegal: {player 1: "go *, left"}\n')
    assert ok.ok, ok.message
    offered = run('  - illegal: {player 1: "go hill, *"}\n')
    assert not offered.ok and "go hill, left is offered, but everything matching 'go hill, *' must be refused" \
        in offered.message
    nothing = run('  - illegal: {player 1: "go forest, *"}\n')
    assert not nothing.ok and "no option matches 'go forest, *'" in nothing.message
    reason = run('  - player 1: go hill, left\n  - illegal: {player 1: "go *, left", reason: "the lake is closed"}\n')
    assert not reason.ok and "go hill, left is refused, but for another reason" in reason.message
    excluded = run('  - expect: {options: {player 1: {excludes: ["go hill, *"]}}}\n')
    assert not excluded.ok and "expected not to include 'go hill, *', got [go hill, left, go hill, right]" \
        in excluded.message
    included = run('  - expect: {options: {player 1: {includes: ["go lake, *"]}}}\n')
    assert not included.ok and "expected to include 'go lake, *'" in included.message


STEPS = """
game "Steps" { players 2..2 }
var n: int = 0
var pick: text = "x"
play {
  choose pick from ["go"] by first(players) prompt "Go"
  log "one"
  n += 1
  log "two"
  n += 1
  log "three"
}
"""


def test_moments_inside_a_decision_and_the_order_of_log_lines(tmp_path):
    (tmp_path / "steps.wish").write_text(STEPS)

    def run(text: str):
        f = tmp_path / "case.yaml"
        f.write_text("game: steps.wish\n" + text)
        [r] = run_file(str(f))
        return r

    ok = run("""do:
  - player 1: go
  - expect: {after_log: "one", n: 0, pick: go, over: false}
  - expect: {before_log: "two", n: 1}
  - expect: {after_log: "n: 1 → 2", n: 2, over: false}
  - expect: {before_log: "three", n: 2, log: ["two"], log_count: {"three": 0}}
expect:
  n: 2
  over: true
  log_order: ["player 1: go", "one", "n: 0 → 1", "two", "n: 1 → 2", "three", "Game over"]
""")
    assert ok.ok, ok.message
    missing = run('do:\n  - player 1: go\n  - expect: {before_log: "four", n: 2}\n')
    assert not missing.ok and "before_log: no log line containing 'four' was written during step 1" in missing.message
    wrong = run('do:\n  - player 1: go\n  - expect: {before_log: "two", n: 2}\n')
    assert not wrong.ok and "just before the log line 'two'" in wrong.message and "n: expected 2, got 1" in wrong.message
    both = run('do:\n  - player 1: go\n  - expect: {before_log: "one", after_log: "one"}\n')
    assert not both.ok and "before_log or after_log, not both" in both.message
    order = run('do:\n  - player 1: go\nexpect: {log_order: ["two", "one"]}\n')
    assert not order.ok and "log_order: no line after the line of 'two' contains 'one'" in order.message
