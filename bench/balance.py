#!/usr/bin/env python3
"""Balance by role: one agent in self-play at several table sizes, win rates per role with 95% intervals.

    python bench/balance.py [GAME] [--variant NAME] [--agent SPEC] [--players 2,3,4] [--games 200]
                            [--games-more 60] [--seed 1] [--jobs 2] [--write README.md]

Every seat is played by the same agent (default: MCTS on the game's heuristic, 160 iterations a decision, no
rollouts, new options probed one step ahead; repeatable, unlike a time budget. In Wish on the 2-core machine 200
two-player games take 9 minutes and the default table about 22; the strongest agent whose 200 two-player games fit
in 40 minutes was `mcts:iterations=500;rollout=0;probe=1`, 34 minutes with the variant's rules not compiled (the
machine's speed moves from day to day, README, *Balance by role*) — pass it with `--agent`),
so a role's win rate is the game's balance as far as that agent can tell, and the table says how well it played
(its mean score, and the winners'). The first table size gets `--games` games, the others `--games-more`
(bigger tables take longer). Roles are what `wishdsl simulate` finds (per-player values fixed at set-up); play a
variant that deals them at random (Wish: "Random Djinns") so that no agent's preference in choosing decides who
plays what. A measuring tool, not a test: the same arguments give the same games. `--write FILE` puts the table
into FILE between the markers `<!-- balance:begin -->` and `<!-- balance:end -->`.
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from interpreter import load_game  # noqa: E402
from interpreter.native_rules import describe  # noqa: E402
from wishdsl.simulate import Runner, Setup, summary_of  # noqa: E402

AGENT = "mcts:iterations=160;rollout=0;probe=1"
BEGIN, END = "<!-- balance:begin -->", "<!-- balance:end -->"
MARKERS = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)


def measure(game: str, variant, agent: str, players: int, games: int, seed: int, jobs: int) -> tuple:
    """The summary of `games` self-play games at `players` players, and the seconds they took."""
    setup = Setup(game, variant, players, (agent,))
    t0 = time.perf_counter()
    with Runner(jobs) as runner:
        records = runner.run(setup, games, seed)
    return summary_of(setup, records, seed), time.perf_counter() - t0


def cell(row: dict) -> str:
    return f"{100 * row['rate']:.0f}% [{100 * row['low']:.0f}–{100 * row['high']:.0f}]"


def points_rows(docs: list) -> list:
    """One row per scoring step: its mean per player at each table size, and its share of all points."""
    steps = [s["step"] for s in docs[0].get("points", [])]
    rows = []
    for step in steps:
        cells = []
        for d in docs:
            s = next((x for x in d.get("points", []) if x["step"] == step), None)
            cells.append(f"{s['all']['mean']:.1f} ({100 * s['share']:.0f}%)" if s else "—")
        rows.append(f"| points: {step} | " + " | ".join(cells) + " |")
    return rows


def edges(doc: dict, name: str, roles: list) -> str:
    """Each role's mean score less every player's, in tenths of a point: what a game's heuristic may declare as
    the role's edge, so that AI players choose roles by it (Wish's Djinn `edge` column)."""
    mean = doc["scores"]["all"]["mean"]
    found = {r["role"]: r["score"]["mean"] for r in doc["roles"].get(name, [])}
    return ", ".join(f"{role} {round(10 * (found[role] - mean)):+d}" for role in roles if role in found)


def leads(doc: dict, name: str, roles: list) -> str:
    """Each role's mean lead over the best other player in its games, in tenths of a point: the edge measured
    the way a searching agent's reward counts points (a role that raises its opponents' scores too leads by less
    than its own score says)."""
    found = {r["role"]: r["lead"]["mean"] for r in doc["roles"].get(name, []) if "lead" in r}
    return ", ".join(f"{role} {round(10 * found[role]):+d}" for role in roles if role in found)


def table(docs: list, command: str, agent: str, seconds: list) -> str:
    """The Markdown table: one row per role, one column per table size, with the fair share and the strength."""
    name = next(iter(docs[0]["roles"]), None)
    if name is None:
        return "No roles: every player plays the same part in this game, so there is no balance by role to show."
    roles = sorted({r["role"] for d in docs for r in d["roles"].get(name, [])})
    head = ["| " + name + " | " + " | ".join(f"{d['players']} players ({d['games']} games)" for d in docs) + " |",
            "|---|" + "---|" * len(docs)]
    rows = []
    for role in roles:
        cells = []
        for d in docs:
            r = next((x for x in d["roles"].get(name, []) if x["role"] == role), None)
            cells.append(f"{cell(r)}, score {r['score']['mean']:.1f}" if r else "—")
        rows.append(f"| {role} | " + " | ".join(cells) + " |")
    rows.append("| fair share | " + " | ".join(f"{100 / d['players']:.0f}%" for d in docs) + " |")
    rows.append("| mean score (winners') | " + " | ".join(
        f"{d['scores']['all']['mean']:.1f} ({d['scores']['winners']['mean']:.1f})" for d in docs) + " |")
    rows.append(f"| edge: {name} score less the mean, in tenths of a point | "
                + " | ".join(edges(d, name, roles) for d in docs) + " |")
    rows.append(f"| lead: {name} score less the best other player's, in tenths of a point | "
                + " | ".join(leads(d, name, roles) for d in docs) + " |")
    rows += points_rows(docs)
    note = (f"Win rate per {name} (95% Wilson interval) and its mean score; every seat played by `{agent}`; "
            "below, the mean points per player of each scoring step (and its share of all points). "
            f"Made by `{command}` in " + ", ".join(f"{s / 60:.1f}" for s in seconds) + " minutes (one column each).")
    cut = [f"{len(d['cut_off'])} at {d['players']} players" for d in docs if d.get("cut_off")]
    if cut:
        note += (f" Games cut off after {docs[0]['max_decisions']:,} decisions are left out (" + ", ".join(cut)
                 + "; `wishdsl simulate` names their seeds).")
    return "\n".join([note, "", *head, *rows])


def target_problem(path: Path) -> str | None:
    """Why the table cannot be written into `path`, or None: checked before any game is played, so that a long run
    does not end in an error after its games."""
    try:
        old = path.read_text(encoding="utf-8")
    except OSError as error:
        return f"--write {path}: cannot read it ({error.strerror or error}); give a file with the balance markers"
    if not MARKERS.search(old):
        return f"{path}: no {BEGIN} … {END} markers to write the table between"
    return None


def write(path: Path, text: str) -> None:
    """Replace what stands between the markers in `path` (which must have them) with `text`."""
    old = path.read_text(encoding="utf-8")
    path.write_text(MARKERS.sub(lambda _: f"{BEGIN}\n{text}\n{END}", old), encoding="utf-8")


def rerun(args) -> str:
    """The command that makes the same table."""
    variant = f' --variant "{args.variant}"' if args.variant else ""
    return (f'python bench/balance.py {args.game}{variant} --agent "{args.agent}" --players {args.players} '
            f"--games {args.games} --games-more {args.games_more} --seed {args.seed}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", nargs="?", default="games/wish.wish")
    ap.add_argument("--variant")
    ap.add_argument("--agent", default=AGENT)
    ap.add_argument("--players", default="2,3,4", help="table sizes, separated by commas")
    ap.add_argument("--games", type=int, default=200, help="games at the first table size")
    ap.add_argument("--games-more", type=int, default=60, help="games at each other table size")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--write", metavar="FILE", help="put the table into FILE between the balance markers")
    args = ap.parse_args(argv)
    try:
        sizes = [int(x) for x in args.players.split(",")]
    except ValueError:
        ap.error(f"--players {args.players}: table sizes are whole numbers separated by commas (2,3,4)")
    if args.write and (problem := target_problem(Path(args.write))):
        ap.error(problem)
    print(describe(load_game(args.game, args.variant)), file=sys.stderr)
    docs, seconds = [], []
    for i, players in enumerate(sizes):
        games = args.games if i == 0 else args.games_more
        doc, took = measure(args.game, args.variant, args.agent, players, games, args.seed, args.jobs)
        docs.append(doc)
        seconds.append(took)
        print(f"{players} players: {games} games in {took / 60:.1f} minutes", file=sys.stderr)
        if args.write:  # after every table size, so that a long run keeps what it has measured
            write(Path(args.write), table(docs, rerun(args), args.agent, seconds))
    text = table(docs, rerun(args), args.agent, seconds)
    print(text)
    if args.write:
        print(f"wrote the table into {args.write}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
