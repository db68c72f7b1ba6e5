#!/usr/bin/env python3
"""Tune the weights of a game's `heuristic` by self-play: a seeded coordinate search anyone can rerun.

    python bench/tune.py GAME [--players 2] [--variant V] [--agent greedy] [--games 40] [--rounds 1]
                         [--step 20] [--accept 0.55] [--seed 1] [--jobs 2] [--write]

Each round tries every estimate in turn: its weight raised by --step percentage points, and if that does not
win, lowered by it. A try is a match of --games games between the agent with the changed weights and the
agent with the current ones (`AGENT:weights=…`, seats rotating, every game seeded from --seed, the round, the
estimate and the direction, through `wishdsl simulate`'s machinery). The change is kept when the changed agent
wins at least --accept of the games (a shared win counts for each winner in its share). Every try is printed
with its 95% interval: with 40 games an interval is about ±15 points, so a kept change is a lead, not proof.

--write puts the weights found into the game file (only the numbers of the changed `weigh` lines) and a
comment above the heuristic saying how they were found. A measuring tool, not a test: the same arguments play
the same games.
"""
from __future__ import annotations

import argparse
import datetime
import math
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from dsl import ast as A  # noqa: E402
from dsl.errors import WishError  # noqa: E402
from dsl.parser import parse_file  # noqa: E402
from interpreter import load_game  # noqa: E402
from wishdsl.simulate import Runner, Setup  # noqa: E402

COMMENT = "# weights tuned by self-play: "


def wilson(share: float, n: int, z: float = 1.96) -> tuple:
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def spec(agent: str, weights: tuple) -> str:
    return f"{agent}{';' if ':' in agent else ':'}weights=" + "/".join(str(w) for w in weights)


def match(runner: Runner, args, candidate: tuple, current: tuple, seed: int) -> float:
    """The candidate's share of the wins over --games games against the current weights."""
    setup = Setup(args.game, args.variant, args.players, (spec(args.agent, candidate), spec(args.agent, current)))
    mine = spec(args.agent, candidate)
    won = 0.0
    for record in runner.run(setup, args.games, seed):
        winners = record.get("winners", [])  # a game cut off after the decision limit: nobody won
        won += sum(1.0 / len(winners) for seat in winners if record["agents"][seat] == mine)
    return won / args.games


def tune(args) -> tuple:
    game = load_game(args.game, args.variant)
    if not game.heuristic:
        raise WishError(f"{args.game} declares no heuristic to tune")
    labels = [label for label, _, _ in game.heuristic]
    weights = tuple(w for _, w, _ in game.heuristic)
    print(f"{game.title}, {args.players} players, {args.agent}, {args.games} games a try, seed {args.seed}")
    print("start: " + ", ".join(f"{label} {w}%" for label, w in zip(labels, weights)))
    with Runner(jobs=args.jobs) as runner:
        for rnd in range(args.rounds):
            for i, label in enumerate(labels):
                for k, delta in enumerate((args.step, -args.step)):
                    candidate = weights[:i] + (weights[i] + delta,) + weights[i + 1:]
                    seed = args.seed * 1_000_003 + rnd * 10_007 + i * 101 + k
                    share = match(runner, args, candidate, weights, seed)
                    lo, hi = wilson(share, args.games)
                    kept = share >= args.accept
                    print(f"round {rnd + 1}  {label}: {weights[i]}% → {candidate[i]}%  wins {100 * share:.1f}% "
                          f"[{100 * lo:.0f}–{100 * hi:.0f}]  {'kept' if kept else 'not kept'}", flush=True)
                    if kept:
                        weights = candidate
                        break
    print("found: " + ", ".join(f"{label} {w}%" for label, w in zip(labels, weights)))
    return weights


def write(args, weights: tuple) -> None:
    """The weights found into the game file's `weigh` lines, and a comment above the heuristic."""
    path = Path(args.game)
    program = parse_file(str(path))
    heuristic = next((d for d in program.decls if isinstance(d, A.Heuristic)), None)
    if heuristic is None:
        raise WishError(f"{path} does not declare the heuristic itself (a house rule's base game does?)")
    lines = path.read_text(encoding="utf-8").split("\n")
    for term, w in zip(heuristic.terms, weights):
        row = term.span.line - 1
        lines[row] = re.sub(r"(weigh\s+)-?\d+%", lambda m: f"{m.group(1)}{w}%", lines[row], count=1)
    how = (f"{COMMENT}python bench/tune.py {args.game} --players {args.players} --agent {args.agent} --games "
           f"{args.games} --rounds {args.rounds} --step {args.step} --accept {args.accept} --seed {args.seed} "
           f"({datetime.date.today():%B %Y})")
    top = _first_line(lines, heuristic.span.line - 1)
    if top > 0 and lines[top - 1].startswith(COMMENT):
        lines[top - 1] = how
    else:
        lines.insert(top, how)
    path.write_text("\n".join(lines), encoding="utf-8")
    print(f"written to {path}")


def _first_line(lines: list, row: int) -> int:
    """The first line of the declaration at `row` with its docstring and annotations above it."""
    top = row
    while top > 0 and lines[top - 1].lstrip().startswith("@"):
        top -= 1
    if top > 0 and lines[top - 1].rstrip().endswith('"""'):
        end = top - 1
        one = lines[end].strip()
        if one.startswith('"""') and one != '"""':
            return end  # a docstring of one line
        k = end - 1
        while k >= 0 and not lines[k].lstrip().startswith('"""'):
            k -= 1
        return max(k, 0)
    return top


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--variant")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--agent", default="greedy")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--step", type=int, default=20, help="percentage points a weight moves in one try")
    ap.add_argument("--accept", type=float, default=0.55, help="the share of wins that keeps a change")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--write", action="store_true", help="write the weights found into the game file")
    args = ap.parse_args(argv)
    try:
        weights = tune(args)
        if args.write:
            write(args, weights)
    except WishError as err:
        print(err.render() if hasattr(err, "render") else err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
