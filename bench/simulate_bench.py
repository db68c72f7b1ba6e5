#!/usr/bin/env python3
"""Benchmark of `wishdsl simulate`: games per second in one process, with and without the counting hooks,
and the scaling from 1 to 2 jobs (and more with --jobs).

This is a measuring tool, not a test: it asserts nothing about timings except that the results of every
job count are identical (the simulation's promise).

    python bench/simulate_bench.py [--game games/three_wishes.wish] [--players 4] [-n 400] [--jobs 1,2]
                                   [--repeat 3] [--seed 1]
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from interpreter import load_game  # noqa: E402
from interpreter.native_rules import describe  # noqa: E402
from interpreter.agents import make_agents, play  # noqa: E402
from wishdsl.coverage import CountingState  # noqa: E402
from wishdsl.simulate import Runner, Setup, game_seed  # noqa: E402


def plain_vs_counting(game, players: int, n: int, seed: int, repeat: int) -> tuple:
    """Median games per CPU second of n random games with a plain State and with a CountingState (the same
    games). CPU time, not wall time: the comparison should not depend on what else the machine runs."""
    def once(start) -> float:
        t0 = time.process_time()
        for i in range(n):
            s = game_seed(seed, i)
            play(start(s), make_agents(["random"], players, s), labels=False)
        return n / (time.process_time() - t0)
    plain, counting = [], []
    for _ in range(repeat):
        plain.append(once(lambda s: game.new_state(players, s)))
        counting.append(once(lambda s: CountingState.start(game, players, s)))
    return statistics.median(plain), statistics.median(counting)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers, once it has closed)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def scaling(setup: Setup, n: int, seed: int, jobs: list, repeat: int) -> list:
    """[(jobs, median games/s of a whole run (wall clock), median CPU ms per game, records)] per job count.
    On a shared machine the wall clock shows what the others leave; the CPU per game shows the overhead of
    the workers themselves (start, loading the game, sending records back)."""
    out = []
    for j in jobs:
        rates, cpu, records = [], [], None
        for _ in range(repeat):
            t0, c0 = time.perf_counter(), cpu_seconds()
            records = Runner(jobs=j).run(setup, n, seed)
            rates.append(n / (time.perf_counter() - t0))
            cpu.append(1000 * (cpu_seconds() - c0) / n)
        out.append((j, statistics.median(rates), statistics.median(cpu), records))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="games/three_wishes.wish")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("-n", type=int, default=400, help="games per run (default 400)")
    ap.add_argument("--jobs", default="1,2", help="job counts to compare (default 1,2)")
    ap.add_argument("--repeat", type=int, default=3, help="repeats behind every median (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    jobs = [int(x) for x in args.jobs.split(",")]
    game = load_game(args.game, args.variant)
    plain, counting = plain_vs_counting(game, args.players, min(args.n, 200), args.seed, args.repeat)
    print(f"{game.title}, {args.players} players, random agents; {describe(game)}")
    print(f"  one process, plain State:    {plain:8.1f} games per CPU second")
    print(f"  one process, CountingState:  {counting:8.1f} games per CPU second ({100 * (counting / plain - 1):+.1f}%)")
    setup = Setup(args.game, args.variant, args.players, ("random",))
    runs = scaling(setup, args.n, args.seed, jobs, args.repeat)
    base, base_cpu = runs[0][1], runs[0][2]
    for j, rate, cpu, _ in runs:
        print(f"  simulate -n {args.n} --jobs {j}: {rate:8.1f} games/s, wall clock (×{rate / base:.2f}); "
              f"{cpu:.2f} CPU ms per game (bound on an idle machine: ×{j * base_cpu / cpu:.2f})")
    same = all(r[3] == runs[0][3] for r in runs)
    print("  identical results for every job count: " + ("yes" if same else "NO"))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
