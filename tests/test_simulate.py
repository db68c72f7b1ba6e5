"""`wishdsl simulate`: statistics, seeding and --jobs, summaries, roles, coverage, compare, ablate, reports,
named triggers, and the Dask backend (against a LocalCluster the test starts)."""
import json
import math
import statistics
from pathlib import Path

import attrs
import pytest

from dsl import link
from dsl.errors import WishCheckError, WishError
from interpreter import State, load_game, load_source
from wishdsl.cli import main
from wishdsl import simulate as simulate_module
from wishdsl.coverage import CountingState, ablatable, ablate, universe
from wishdsl.simulate import Runner, Setup, batch_size, game_seed, run_batch, seat_specs
from wishdsl.stats import describe, histogram, paired_difference, quantile, two_proportions, wilson

RACE = "tests/games/sim_race.wish"
RACE_FILE = Path(RACE).resolve()


def race(players=2, agents=("random",), variant=None, ablated=None):
    return Setup(RACE, variant, players, tuple(agents), ablated)


def simulate(capsys, *argv):
    code = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def sim_json(capsys, *argv):
    code, out, err = simulate(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# ---------------------------------------------------------------- statistics
def test_wilson_known_values():
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775  # z²/(n+z²)
    low, high = wilson(10, 10)
    assert round(low, 4) == 0.7225 and high == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(2.5, 10)  # a shared win counts a fraction
    assert 0 < low < 0.25 < high < 1


def test_quantiles_and_description_match_the_statistics_module():
    xs = [7, 1, 4, 4, 9, 12, 3, 0, 5]
    d = describe(xs)
    q1, median, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    assert (d["q1"], d["median"], d["q3"]) == (q1, median, q3)
    assert d["mean"] == statistics.mean(xs) and math.isclose(d["sd"], statistics.stdev(xs))
    assert (d["min"], d["max"], d["n"]) == (0, 12, 9)
    assert quantile([], 0.5) != quantile([], 0.5)  # nan
    assert describe([]) == {"n": 0}


def test_histogram_counts_every_value_once():
    xs = [0, 0, 1, 5, 5, 5, 40]
    bins = histogram(xs, max_bins=10)
    assert sum(c for _, _, c in bins) == len(xs)
    assert bins[0][0] == 0 and bins[-1][1] > 40 and bins[-1][2] == 1
    assert histogram([3, 3]) == [(3, 3, 2)]


def test_two_proportions_known_value():
    r = two_proportions(50, 100, 65, 100)
    assert math.isclose(r["diff"], 0.15)
    assert round(r["p"], 4) == 0.0319  # pooled z = 0.15 / sqrt(0.575 * 0.425 * 0.02) = 2.1456
    se = math.sqrt(0.5 * 0.5 / 100 + 0.65 * 0.35 / 100)
    assert math.isclose(r["low"], 0.15 - 1.959963984540054 * se)


def test_paired_difference():
    r = paired_difference([1, 0, 0, 1, 0], [1, 1, 0, 1, 1])
    assert math.isclose(r["diff"], 0.4) and r["low"] < 0.4 < r["high"] and 0 < r["p"] < 1
    same = paired_difference([1, 0, 1], [1, 0, 1])
    assert same["diff"] == 0 and same["p"] == 1.0


# ---------------------------------------------------------------- seeding and batches
def test_game_seeds_depend_on_run_seed_and_index_only():
    import hashlib

    # the documented formula (README, Simulations): 48 bits of SHA-256 of "wishdsl-simulate:S:i"
    assert game_seed(1, 5) == int.from_bytes(hashlib.sha256(b"wishdsl-simulate:1:5").digest()[:6], "big")
    assert (game_seed(1, 5), game_seed(0, 0)) == (267130252603741, 157186793670268)  # pinned: runs repeat
    assert len({game_seed(1, i) for i in range(200)} | {game_seed(2, i) for i in range(200)}) == 400


def test_seats_rotate_when_agents_differ():
    assert seat_specs(("random",), 3, 7) == ["random"] * 3
    assert seat_specs(("a", "b", "c"), 3, 0) == ["a", "b", "c"]
    assert seat_specs(("a", "b", "c"), 3, 1) == ["c", "a", "b"]
    assert seat_specs(("a", "b", "c"), 3, 5) == ["b", "c", "a"]
    with pytest.raises(WishError, match="2 agents for 3 players"):
        seat_specs(("a", "b"), 3, 0)


def test_batch_size_aims_at_a_second_and_keeps_every_job_busy():
    assert batch_size(0.01, 1000, 1) == 100
    assert batch_size(0.01, 1000, 20) == 50
    assert batch_size(5.0, 10, 2) == 1
    assert batch_size(0.001, 0, 2) == 1


def test_results_are_identical_for_any_number_of_jobs(monkeypatch):
    monkeypatch.setattr(simulate_module, "WORTH_A_POOL_SECONDS", 0.0)  # use the pool even for a little work
    setup = race(3)
    one = Runner(jobs=1).run(setup, 40, 11)
    two = Runner(jobs=2).run(setup, 40, 11)
    assert one == two
    assert [r["index"] for r in one] == list(range(40))
    assert run_batch((setup, 11, 17, 3)) == one[17:20]


def test_cli_json_is_byte_identical_across_jobs(capsys, monkeypatch):
    monkeypatch.setattr(simulate_module, "WORTH_A_POOL_SECONDS", 0.0)
    args = ["simulate", RACE, "-n", "30", "--seed", "4", "--players", "3", "--json"]
    assert main(args + ["--jobs", "1"]) == 0
    first = capsys.readouterr().out
    assert main(args + ["--jobs", "2"]) == 0
    assert capsys.readouterr().out == first


def test_progress_reports_every_game():
    seen = []
    Runner(progress=lambda done, total, text: seen.append((done, total))).run(race(), 12, 1)
    assert seen[0] == (1, 12) and seen[-1] == (12, 12)
    assert all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))


# ---------------------------------------------------------------- summary
def test_json_summary_shape(capsys):
    doc = sim_json(capsys, RACE, "-n", "60", "--seed", "2", "--players", "3")
    assert {"title", "game", "variant", "players", "agents", "seed", "games", "seats", "agent_rates", "roles",
            "no_winner", "shared_wins", "scores", "length", "coverage", "never"} <= set(doc)
    assert doc["games"] == 60 and doc["players"] == 3 and doc["seed"] == 2
    assert [s["seat"] for s in doc["seats"]] == [1, 2, 3]
    # shared wins count 1/k: the seats' wins add up to the games that had a winner
    assert math.isclose(sum(s["wins"] for s in doc["seats"]), 60 - doc["no_winner"], abs_tol=1e-4)
    for s in doc["seats"]:
        assert s["low"] <= s["rate"] <= s["high"] and s["score"]["n"] == 60
    assert doc["agent_rates"] == [{"agent": "random", **{k: doc["agent_rates"][0][k] for k in
                                                         ("wins", "games", "rate", "low", "high", "score",
                                                          "winning_score", "actions", "points")}}]
    assert doc["agent_rates"][0]["games"] == 180
    assert doc["agent_rates"][0]["score"] == doc["scores"]["all"]  # one agent played every seat
    assert doc["agent_rates"][0]["winning_score"] == doc["scores"]["winners"]
    assert sum(c for _, _, c in doc["scores"]["histogram"]) == 180
    assert doc["length"]["actions"]["mean"] == 12  # 4 rounds × 3 players, one action each
    assert doc["length"]["decisions"]["mean"] == 12


def test_roles_are_enum_variables_fixed_at_setup(capsys):
    doc = sim_json(capsys, RACE, "-n", "60", "--seed", "2", "--players", "2")
    assert list(doc["roles"]) == ["house"]  # mood changes in play; crest is the same everywhere
    rows = doc["roles"]["house"]
    assert [r["value"] for r in rows] == ["lion", "snake"]
    assert rows[0]["role"] == "<b>Lion</b>"
    assert sum(r["games"] for r in rows) == 120
    assert rows[0]["rate"] > rows[1]["rate"]  # lions roar
    assert [r["agents"] for r in rows] == [{"random": r["games"]} for r in rows]  # who played each role


@pytest.mark.parametrize("players", [2, 3])
def test_a_roles_lead_is_its_score_less_the_best_other_players_game_by_game(players):
    with Runner(1) as runner:
        records = runner.run(race(players), 40, 5)
    rows = simulate_module.summary_of(race(players), records, 5)["roles"]["house"]
    for row in rows:
        leads = [r["scores"][p] - max(s for q, s in enumerate(r["scores"]) if q != p)
                 for r in records for p, v in enumerate(r["roles"]["house"]) if v == row["value"]]
        assert len(leads) == row["games"] and row["lead"] == describe(leads)
    if players == 2:  # one seat's lead is the other's loss: over all seats they add up to nothing
        assert math.isclose(sum(r["lead"]["mean"] * r["games"] for r in rows), 0, abs_tol=1e-9)


def test_each_roles_actions_add_up_to_the_coverage_and_are_shown(capsys):
    """Per role, the actions its players took (mean per player and game): over the roles they add up to each
    action's count in the rule coverage; a game scored in one step shows no points by step."""
    code, out, _ = simulate(capsys, RACE, "-n", "40", "--seed", "3", "--players", "2")
    assert code == 0
    doc = sim_json(capsys, RACE, "-n", "40", "--seed", "3", "--players", "2")
    rows = doc["roles"]["house"]
    fired = {r["name"]: r["count"] for r in doc["coverage"] if r["kind"] == "action"}
    assert list(rows[0]["actions"]) == ["advance", "draw"] == list(fired)  # the game's order, taken ones only
    for action, count in fired.items():
        assert math.isclose(sum(r["actions"][action] * r["games"] for r in rows), count)
    assert all(r["points"] == {} for r in rows)
    table = out[out.index("How each role was played (house"):out.index("Scores:")]
    lion = rows[0]["actions"]["advance"]
    assert "advance" in table and f"{lion:.2f}" in table.splitlines()[2]


def test_each_agents_actions_are_shown_when_several_agents_play(capsys):
    """Per agent, the actions its seats took: they add up to the coverage, and the text shows them side by side
    (only when several agents play: one agent's would repeat the coverage)."""
    argv = (RACE, "-n", "30", "--seed", "5", "--players", "2", "--agents", "random,greedy")
    code, out, _ = simulate(capsys, *argv)
    assert code == 0
    doc = sim_json(capsys, *argv)
    fired = {r["name"]: r["count"] for r in doc["coverage"] if r["kind"] == "action"}
    for action, count in fired.items():
        assert math.isclose(sum(a["actions"][action] * a["games"] for a in doc["agent_rates"]), count)
    greedy = next(a for a in doc["agent_rates"] if a["agent"] == "greedy")
    table = out[out.index("How each agent played"):out.index("Win rate per role")]
    assert table.splitlines()[1].split() == ["greedy", "random"]
    assert f"{greedy['actions']['advance']:.2f}" in table
    _, alone, _ = simulate(capsys, RACE, "-n", "5", "--seed", "5", "--players", "2")
    assert "How each agent played" not in alone


def test_wish_shows_which_djinn_uses_which_power_and_where_its_points_come_from(capsys):
    """Each Djinn's Special action is taken by that Djinn's players only, and a role's points by scoring step
    add up to its mean score."""
    doc = sim_json(capsys, "games/wish.wish", "-n", "6", "--seed", "2", "--players", "2", "--agents", "greedy")
    specials = {"Air Djinn": "cloudbearer", "Earth Djinn": "harvest", "Fire Djinn": "fiery_clone",
                "Water Djinn": "ice_dibs"}
    for r in doc["roles"]["djinn"]:
        for role, special in specials.items():
            if special in r["actions"] and role != r["role"]:
                assert r["actions"][special] == 0, (r["role"], special)
        assert math.isclose(sum(r["points"].values()), r["score"]["mean"])
        assert len(r["points"]) == 5
    assert any(r["actions"].get(specials[r["role"]], 0) > 0 for r in doc["roles"]["djinn"])


def test_the_strength_of_the_agents_is_stated_beside_their_figures(capsys):
    """Per agent its score (all games, and the games it won); per role which agents played it: a win rate by
    role means little when one agent played that role more often or played it badly."""
    code, out, _ = simulate(capsys, RACE, "-n", "30", "--seed", "4", "--agents", "random,greedy", "--players", "2")
    assert code == 0
    doc = sim_json(capsys, RACE, "-n", "30", "--seed", "4", "--agents", "random,greedy", "--players", "2")
    greedy = next(a for a in doc["agent_rates"] if a["agent"] == "greedy")
    assert greedy["score"]["n"] == 30
    # the games it won, a shared win counted whole here and 1/k in its win rate
    assert greedy["wins"] <= greedy["winning_score"]["n"] <= 30
    section = out[out.index("Strength of the agents"):out.index("Win rate per role")]
    assert f"greedy             score mean {greedy['score']['mean']:.2f}" in section
    assert "(30 seats)" in section
    lion = doc["roles"]["house"][0]
    assert sum(lion["agents"].values()) == lion["games"] and set(lion["agents"]) <= {"random", "greedy"}
    played = ", ".join(f"{spec} ×{k}" for spec, k in lion["agents"].items())
    assert f"played by {played}" in out


def test_coverage_counts_and_lists_what_never_fired(capsys):
    doc = sim_json(capsys, RACE, "-n", "40", "--seed", "9")
    fired = {(r["kind"], r["name"]): r for r in doc["coverage"]}
    assert {(r["kind"], r["name"]) for r in doc["never"]} == {("action", "never")}
    assert set(fired) == {("action", "advance"), ("action", "draw"), ("trigger", "lion_roar: when scored"),
                          ("instant", "Boost"), ("ongoing", '"Echo <i>x</i>": when scored'), ("static", "Crown")}
    assert fired["action", "advance"]["count"] + fired["action", "draw"]["count"] == 40 * 12  # 3 players × 4 rounds
    assert fired["instant", "Boost"]["count"] <= 80 and fired["static", "Crown"]["games"] <= 40


def test_counting_does_not_reach_clones_or_saved_states():
    game = load_game(RACE)
    st = CountingState.start(game, 2, 5)
    plain = game.new_state(2, 5)
    for _ in range(3):
        action = st.legal_actions()[0]
        st.apply(action)
        plain.apply(action)
    assert st.counts["action", "advance"] == 3
    assert type(st.clone()) is State
    assert st.to_json() == plain.to_json()


def test_text_summary(capsys):
    code, out, err = simulate(capsys, RACE, "-n", "20", "--seed", "1", "--agents", "random,random:seed=3",
                                 "--players", "2")
    assert code == 0
    assert out.startswith("Race <b>&</b> co: 2 players, 20 games, seed 1, agents random,random:seed=3")
    for heading in ("Win rate per seat", "Win rate per agent", "Win rate per role (house)", "Scores:",
                    "Game length:", "Rule coverage: 6 of 7 rules fired", "Never fired (1):"):
        assert heading in out
    assert "20 games in" in err and "seed 1" in err


# ---------------------------------------------------------------- compare and ablate
def test_compare_a_variant_on_the_same_seeds(capsys):
    doc = sim_json(capsys, RACE, "-n", "300", "--seed", "5", "--compare", "Loud Lions")
    assert doc["mode"] == "compare" and doc["other"]["variant"] == "Loud Lions"
    assert doc["base"]["games"] == doc["other"]["games"] == 300
    lion = doc["difference"]["roles"]["house"][0]
    assert lion["role"] == "<b>Lion</b>" and lion["diff"] > 0 and lion["p"] < 0.05
    for seat in doc["difference"]["seats"]:
        assert seat["score"]["diff"] > 0 and seat["score"]["p"] < 0.05


def test_compare_a_file_with_itself_differs_nowhere(capsys):
    doc = sim_json(capsys, RACE, "-n", "30", "--seed", "5", "--compare", RACE)
    assert doc["other"]["game"] == RACE and doc["other"]["variant"] is None
    for seat in doc["difference"]["seats"]:
        assert seat["win_rate"] == {"n": 30, "diff": 0.0, "low": 0.0, "high": 0.0, "p": 1.0}


def test_compare_agents_plays_the_same_games_with_other_agents(capsys):
    """`--compare-agents`: the same seeds with other agents; greedy players score more than random ones, seat by
    seat, and the same agents on both sides differ nowhere."""
    doc = sim_json(capsys, RACE, "-n", "60", "--seed", "5", "--compare-agents", "greedy")
    assert doc["mode"] == "compare" and doc["base"]["agents"] == ["random"] and doc["other"]["agents"] == ["greedy"]
    assert doc["base"]["game"] == doc["other"]["game"] == RACE
    for seat in doc["difference"]["seats"]:
        assert seat["score"]["diff"] > 0 and seat["score"]["p"] < 0.05
    doc = sim_json(capsys, RACE, "-n", "20", "--seed", "5", "--agents", "greedy", "--compare-agents", "greedy")
    for seat in doc["difference"]["seats"]:
        assert seat["score"] == {"n": 20, "diff": 0.0, "low": 0.0, "high": 0.0, "p": 1.0}


def test_ablate_a_named_trigger_measures_its_worth(capsys):
    doc = sim_json(capsys, RACE, "-n", "300", "--seed", "5", "--ablate", "lion_roar")
    assert doc["mode"] == "ablate" and doc["other"]["ablate"] == "lion_roar"
    lion = doc["difference"]["roles"]["house"][0]
    assert lion["diff"] < 0 and lion["high"] < 0 and lion["p"] < 0.05
    assert {"kind": "trigger", "name": "lion_roar: when scored"} in doc["other"]["never"]
    assert {"kind": "trigger", "name": "lion_roar: when scored"} not in doc["base"]["never"]


def test_a_roles_score_difference_is_paired_on_its_seats(capsys):
    """Per role, the mean score of the seats that held it, other − base, paired game by game: the lions lose
    their roar's points, the snakes (who never roar) lose nothing; the text shows it."""
    argv = (RACE, "-n", "200", "--seed", "5", "--players", "2", "--ablate", "lion_roar")
    doc = sim_json(capsys, *argv)
    rows = {r["role"]: r for r in doc["difference"]["roles"]["house"]}
    base = {r["role"]: r for r in doc["base"]["roles"]["house"]}
    other = {r["role"]: r for r in doc["other"]["roles"]["house"]}
    for role, d in rows.items():
        assert d["score"]["n"] == base[role]["games"] == other[role]["games"]  # the houses are dealt alike
        assert math.isclose(d["score"]["diff"], other[role]["score"]["mean"] - base[role]["score"]["mean"])
    lion = rows["<b>Lion</b>"]["score"]
    assert lion["diff"] < 0 and lion["high"] < 0 and lion["p"] < 0.05
    assert rows["Snake <script>alert(1)</script>"]["score"]["diff"] == 0
    _, out, _ = simulate(capsys, *argv)
    line = next(x for x in out.splitlines()[out.splitlines().index(
        "Mean score per role (house); difference paired on the same seeds (the seats that held the role in both):"):]
        if x.startswith("  <b>Lion</b>"))
    assert f"{lion['diff']:+.2f}" in line and line.endswith("*")


def test_ablate_an_action_and_a_card():
    game = load_game(RACE)
    assert ablatable(game) == {"advance": {"action"}, "draw": {"action"}, "never": {"action"},
                               "Boost": {"card"}, "Crown": {"card"}, "Echo <i>x</i>": {"card"},
                               "lion_roar": {"trigger"}}
    no_draw = ablate(game, "draw")
    st = no_draw.new_state(2, 1)
    assert [a.label for a in st.legal_actions()] == ["advance"]
    assert [a.label for a in game.new_state(2, 1).legal_actions()] == ["advance", "draw"]  # the original is intact
    no_crown = ablate(game, "Crown")
    assert all(not p.statics for p in no_crown.params) and any(p.statics for p in game.params)
    records = Runner().run(race(ablated="Echo <i>x</i>"), 20, 3)
    assert no_crown.fingerprint != game.fingerprint
    echo = [i for i, r in enumerate(universe(game)) if r[0] == "ongoing"][0]
    assert all(r["coverage"][echo] == 0 for r in records)


def test_unknown_ablate_name_suggests_one(capsys):
    code, out, err = simulate(capsys, RACE, "-n", "5", "--ablate", "lion_rour")
    assert code == 1 and out == ""
    assert "--ablate 'lion_rour'" in err and "did you mean 'lion_roar'?" in err and "Traceback" not in err


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("argv, message", [
    (["-n", "0"], "-n 0: the number of games must be at least 1"),
    (["-n", "-3"], "-n -3: the number of games must be at least 1"),
    (["-n", "5", "--jobs", "0"], "--jobs 0"),
    (["-n", "5", "--players", "9"], "played by 2 to 3 players, not 9"),
    (["-n", "5", "--variant", "Loud Lion"], "did you mean 'Loud Lions'?"),
    (["-n", "5", "--compare", "Loud Lion"], "did you mean 'Loud Lions'?"),
    (["-n", "5", "--agents", "randm"], "unknown agent 'randm'"),
    (["-n", "5", "--players", "2", "--agents", "random,human"], "'human' cannot take a seat"),
    (["-n", "5", "--players", "3", "--agents", "random,random"], "2 agents for 3 players"),
    (["-n", "5", "--compare-agents", "randm"], "unknown agent 'randm'"),
    (["-n", "5", "--players", "2", "--compare-agents", "random,human"], "'human' cannot take a seat"),
    (["-n", "5", "--players", "3", "--compare-agents", "random,random"], "2 agents for 3 players"),
    (["-n", "5", "--cluster", "tcp://127.0.0.1:1"], "--cluster needs --backend dask"),
    (["-n", "5", "--max-decisions", "0"], "--max-decisions 0: give at least 1"),
    (["-n", "5", "--max-decisions", "1"], "all 5 games were cut off after 1 decisions"),
])
def test_cli_errors(capsys, argv, message):
    code, out, err = simulate(capsys, RACE, *argv)
    assert code == 1 and out == "" and message in err and "Traceback" not in err


def test_compare_and_ablate_exclude_each_other(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", RACE, "-n", "5", "--compare", "Loud Lions", "--ablate", "draw"])
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["simulate", RACE, "-n", "5", "--compare", "Loud Lions", "--compare-agents", "greedy"])
    assert "not allowed with argument" in capsys.readouterr().err


# ---------------------------------------------------------------- where the points come from
def test_points_by_scoring_step_add_up_to_the_scores(capsys, tmp_path):
    argv = ["games/wish.wish", "-n", "6", "--seed", "3", "--players", "2"]
    doc = sim_json(capsys, *argv)
    steps = doc["points"]
    assert [s["step"] for s in steps] == ["1. Victory Points of your fulfilled Wishes", "2. Victory Point tokens",
                                          "3. Ongoing Wishes", "4. Monument Badges", "5. Destiny"]
    assert math.isclose(sum(s["all"]["mean"] for s in steps), doc["scores"]["all"]["mean"])
    assert math.isclose(sum(s["winners"]["mean"] for s in steps), doc["scores"]["winners"]["mean"])
    assert math.isclose(sum(s["share"] for s in steps), 1.0) and all(s["all"]["n"] == 12 for s in steps)
    records = run_batch((Setup("games/wish.wish", None, 2, ("random",)), 3, 0, 6))
    tokens = [dict(row)["2. Victory Point tokens"] for r in records for row in r["points"]]
    assert steps[1]["all"]["mean"] == statistics.mean(tokens)
    code, out, _ = simulate(capsys, *argv)
    assert "Points by scoring step (mean per player; per winner; share of all points):" in out
    assert "  2. Victory Point tokens" in out
    path = tmp_path / "r.html"
    assert simulate(capsys, *argv, "--report", str(path))[0] == 0
    html = path.read_text(encoding="utf-8")
    assert "<h3>Points by scoring step</h3>" in html and "<tr><td>5. Destiny</td><td>" in html
    assert sim_json(capsys, RACE, "-n", "3", "--seed", "1")["points"] == []  # one step: nothing to split


# ---------------------------------------------------------------- games that do not end
WM = "games/wunschmaschine.wish"


def test_a_game_past_the_decision_limit_is_cut_off_named_and_left_out(capsys):
    setup = Setup(WM, None, 3, ("random",))
    lengths = [r["decisions"] for r in run_batch((setup, 4, 0, 12))]
    limit = sorted(lengths)[len(lengths) // 2]  # the longer games are cut off
    records = run_batch((attrs.evolve(setup, max_decisions=limit), 4, 0, 12))
    cut = [r for r in records if "cut" in r]
    assert [r["index"] for r in cut] == [i for i, n in enumerate(lengths) if n > limit] != []
    assert all(set(r) == {"index", "seed", "agents", "cut"} and r["cut"] == limit for r in cut)
    argv = [WM, "-n", "12", "--seed", "4", "--players", "3"]
    assert sim_json(capsys, *argv)["cut_off"] == []
    doc = sim_json(capsys, *argv, "--max-decisions", str(limit))
    assert doc["games"] == 12 - len(cut) and doc["max_decisions"] == limit
    assert [c["seed"] for c in doc["cut_off"]] == [game_seed(4, r["index"]) for r in cut]
    assert math.isclose(sum(s["wins"] for s in doc["seats"]), doc["games"] - doc["no_winner"])
    assert doc["length"]["decisions"]["max"] <= limit
    code, out, _ = simulate(capsys, *argv, "--max-decisions", str(limit))
    seed = doc["cut_off"][0]["seed"]
    assert code == 0 and f"{len(cut)} games cut off after {limit} decisions, left out of every figure" in out
    assert f"replay one: wishdsl run {WM} --players 3 --seed {seed} --agents random" in out


def test_the_replay_named_for_a_cut_off_game_plays_that_game():
    from interpreter.agents import make_agents, play
    record = run_batch((race(agents=("random", "greedy")), 7, 3, 1))[0]
    state = load_game(RACE).new_state(2, seed=record["seed"])
    assert len(play(state, make_agents(record["agents"], 2, record["seed"]))) == record["decisions"]
    assert state.scores() == record["scores"]


def test_a_comparison_leaves_a_game_cut_off_on_either_side_out_of_both(capsys):
    lengths = [r["decisions"] for r in run_batch((Setup(WM, None, 3, ("random",)), 4, 0, 12))]
    limit = sorted(lengths)[len(lengths) // 2]
    argv = [WM, "-n", "12", "--seed", "4", "--players", "3", "--max-decisions", str(limit),
            "--compare", "games/house/wunschmaschine_5_rows.wish"]
    doc = sim_json(capsys, *argv)
    gone = {c["index"] for side in ("base", "other") for c in doc[side]["cut_off"]}
    assert gone and doc["base"]["games"] == doc["other"]["games"] == 12 - len(gone)
    assert doc["difference"]["seats"][0]["win_rate"]["n"] == 12 - len(gone)  # paired over the games kept
    code, out, _ = simulate(capsys, *argv)
    assert code == 0 and "base: " in out and "other: " in out and "games cut off after" in out


# ---------------------------------------------------------------- report
def test_report_is_self_contained_and_escapes_names(capsys, tmp_path):
    for extra in ([], ["--ablate", "lion_roar"]):
        path = tmp_path / "r.html"
        code, _, err = simulate(capsys, RACE, "-n", "20", "--seed", "1", "--report", str(path), *extra)
        assert code == 0 and f"wrote {path}" in err
        html = path.read_text(encoding="utf-8")
        assert html.startswith("<!DOCTYPE html>") and html.count("<svg") >= 3
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script" not in html
        assert "&lt;b&gt;Lion&lt;/b&gt;" in html and "<b>Lion" not in html
        assert "Race &lt;b&gt;&amp;&lt;/b&gt; co" in html and "Echo &lt;i&gt;x&lt;/i&gt;" in html
        assert "<link" not in html and "src=" not in html and "url(" not in html
        assert html.replace("http://www.w3.org/2000/svg", "").count("http") == 0
    assert "Ablation:" in html and "Differences (other − base, same seeds)" in html


def test_report_states_the_strength_of_the_agents(capsys, tmp_path):
    path = tmp_path / "r.html"
    code, _, _ = simulate(capsys, RACE, "-n", "20", "--seed", "1", "--agents", "random,greedy", "--players", "2",
                          "--report", str(path))
    assert code == 0
    html = path.read_text(encoding="utf-8")
    section = html[html.index("<h3>Strength of the agents</h3>"):html.index("<h3>Role: house</h3>")]
    strength, play = section.split("</table>")[:2]
    assert strength.count("<tr><td>") == 2 and "<td>greedy</td><td>20</td>" in strength
    assert "how each agent played" in play and "<th>greedy</th><th>random</th>" in play
    assert play.count("<tr><td>") == 2 and "<tr><td>advance</td>" in play  # the race's two actions
    assert "Points by scoring step" not in html  # the race scores in one step
    played = html[html.index("<p>Played by: "):]
    assert played.startswith("<p>Played by: &lt;b&gt;Lion&lt;/b&gt;: ") and " ×" in played.split("</p>")[0]


# ---------------------------------------------------------------- named triggers
NAMED = """
game "T" { players 1..2 }
player var n: int = 0
event poke(p: player)
when bump: poke(p) { p.n += 1 }
when poke(p) { p.n += 10 }
play { emit poke(first(players)) }
scoring p { score "n" p.n }
variant "Double" { when bump: poke(p) { p.n += 2 } }
variant "Quiet" { remove bump }
"""


def test_named_triggers_can_be_replaced_and_removed():
    assert load_source(NAMED).new_state(1, 0).scores() == [11]
    assert load_source(NAMED, variant="Double").new_state(1, 0).scores() == [12]
    assert load_source(NAMED, variant="Quiet").new_state(1, 0).scores() == [10]
    names = [t.name for t in load_source(NAMED).trigger_defs]
    assert names == ["bump", None]


def test_a_trigger_name_is_declared_once():
    with pytest.raises(WishCheckError) as info:
        load_source(NAMED.replace("when poke(p) {", "when bump: poke(p) {"))
    assert "trigger 'bump' is declared twice" in info.value.render()


def test_wish_djinn_triggers_are_named_and_ablatable():
    game = load_game("games/wish.wish")
    names = ablatable(game)
    for name in ("providence", "frostflake", "wind_blast"):
        assert names[name] == {"trigger"}
    assert names["fiery_clone"] == {"action"} and names["Fall in Love"] == {"card"}


# ---------------------------------------------------------------- Dask
def test_dask_local_cluster_gives_the_same_results():
    distributed = pytest.importorskip("distributed", reason="the optional extra wishdsl[dask] is not installed")
    setup = race(3)
    local = Runner(jobs=1).run(setup, 24, 8)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with Runner(jobs=2, backend="dask", cluster=cluster.scheduler_address) as runner:
            remote = runner.run(setup, 24, 8)
            again = runner.run(setup, 10, 8)  # the same client serves a second run (--compare, --ablate)
    assert remote == local and again == local[:10]
    assert runner.dask is None


def test_wish_djinn_is_a_role_and_its_powers_are_covered(capsys):
    doc = sim_json(capsys, "games/wish.wish", "-n", "4", "--seed", "1", "--players", "2")
    assert list(doc["roles"]) == ["djinn"]  # `at` changes in play, so it is no role
    assert sum(r["games"] for r in doc["roles"]["djinn"]) == 8
    assert {r["role"] for r in doc["roles"]["djinn"]} <= {"Air Djinn", "Earth Djinn", "Fire Djinn", "Water Djinn"}
    kinds = {r["kind"] for r in doc["coverage"] + doc["never"]}
    assert kinds == {"action", "trigger", "procedure", "instant", "ongoing", "static"}
    names = {r["name"] for r in doc["coverage"] + doc["never"] if r["kind"] == "trigger"}
    assert {"providence: when manifested", "frostflake: when a card moves", "wind_blast: when at changes"} <= names


def race_house(folder, name: str, variant=None):
    """A house rule of the race game in `folder`, a project of its own (outside the race's folder tree), that
    changes nothing (built on `variant` if given)."""
    (folder / ".wishroot").write_text("")
    house = folder / name
    on = f' variant "{variant}"' if variant else ""
    house.write_text(f'extends "{RACE_FILE.as_posix()}"{on}\n', encoding="utf-8")
    return house


def test_a_house_rule_from_an_allowed_folder_plays_in_worker_processes(tmp_path, capsys, monkeypatch):
    """`wishdsl --allow DIR simulate`: the folder is allowed in the worker processes too, not only in this one."""
    monkeypatch.setattr(link, "ALLOWED", [])
    monkeypatch.setattr(simulate_module, "WORTH_A_POOL_SECONDS", 0.0)
    house = race_house(tmp_path, "house.wish")
    code, _, err = simulate(capsys, RACE, "-n", "2", "--compare", str(house))
    assert code == 1 and "outside the game's folder tree" in err
    argv = ["--allow", str(RACE_FILE.parent), "simulate", RACE, "-n", "8", "--seed", "3", "--jobs", "2",
            "--compare", str(house), "--json"]
    assert main(argv) == 0, capsys.readouterr().err
    data = json.loads(capsys.readouterr().out)
    seats = data["difference"]["seats"]  # the house rule changes nothing: the same games on both sides
    assert len(seats) == 3 and all(s["score"] == {"n": 8, "diff": 0.0, "low": 0.0, "high": 0.0, "p": 1.0}
                                   for s in seats)


def test_compare_a_file_in_the_variant_of_the_base(tmp_path, capsys, monkeypatch):
    """`--variant V --compare FILE` plays FILE in V too: its inherited variant V, or FILE as it is when it builds
    on V (`extends … variant V`); a file without V is refused, not compared with the variant left out."""
    monkeypatch.setattr(link, "ALLOWED", [RACE_FILE.parent])
    house, built_on = race_house(tmp_path, "house.wish"), race_house(tmp_path, "lions.wish", "Loud Lions")
    for other, variant in ((house, "Loud Lions"), (built_on, None)):
        doc = sim_json(capsys, RACE, "-n", "12", "--seed", "2", "--variant", "Loud Lions", "--compare", str(other))
        assert doc["other"]["variant"] == variant
        assert all(s["score"]["diff"] == 0.0 and s["win_rate"]["diff"] == 0.0 for s in doc["difference"]["seats"])
    code, _, err = simulate(capsys, RACE, "-n", "2", "--variant", "Loud Lions", "--compare", "games/wish.wish")
    assert code == 1 and "has no variant 'Loud Lions'" in err and "'Random Djinns', 'Solo'" in err
