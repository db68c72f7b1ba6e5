#!/usr/bin/env python3
"""Benchmarks for wishdsl: load time, `wishdsl check` as a process, random games per second,
clone() against copy.deepcopy, and the JSON round trip.

This is a measuring tool, not a test: it asserts nothing about timings. It prints medians over
repeated runs next to the project's aims (load < 50 ms, check process < 250 ms, clone at least
100 times faster than deepcopy).

    python bench/bench.py [--game games/wunschmaschine.wish] [--players 3,4,6] [--variant NAME]
                          [--seconds 3] [--repeat 5] [--seed 1]

Only the public API is used: `from interpreter import load_game`, `game.new_state`, `state.is_over`,
`state.legal_actions()`, `state.apply`, `state.clone()`, `state.to_json()`, `game.state_from_json`.
"""
from __future__ import annotations

import argparse
import copy
import inspect
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_GAME = "games/wunschmaschine.wish"

# `python bench/bench.py` puts bench/ on sys.path, not the repository; make the packages
# importable without an install.
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from interpreter import load_game  # noqa: E402

MAX_DECISIONS_PER_GAME = 100_000   # a random game longer than this is reported as stuck
MID_GAME_DECISIONS = 30            # decisions played before the clone/deepcopy measurement
COPY_BATCH_SECONDS = 0.2           # each clone/deepcopy sample copies for about this long


class BenchError(Exception):
    """A benchmark could not be run (the game misbehaved); reported, not raised to the user."""


# ---------------------------------------------------------------------------- helpers

def resolve_game(path: str) -> Path:
    p = Path(path)
    if p.exists():
        return p.resolve()
    if not p.is_absolute() and (REPO / p).exists():
        return (REPO / p).resolve()
    raise SystemExit(f"bench: no such game file: {path}")


def parse_players(text: str) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--players wants numbers separated by commas, not {text!r}")
    if not counts or any(n < 1 for n in counts):
        raise argparse.ArgumentTypeError(f"--players wants positive numbers, not {text!r}")
    return counts


def is_over(state) -> bool:
    """`state.is_over` is a property in the design; accept a method too."""
    v = state.is_over
    return bool(v() if callable(v) else v)


def ms(seconds: float) -> str:
    if seconds < 1e-3:
        return us(seconds)
    return f"{seconds * 1e3:.1f} ms"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} µs"


def verdict(ok: bool | None) -> str:
    if ok is None:
        return ""
    return "ok" if ok else "MISSED"


def load_kwargs(variant: str | None) -> dict:
    """Arguments for load_game; ask for no caching when load_game offers that, so that every
    call measures a real parse + check + compile."""
    kwargs: dict = {"variant": variant}
    try:
        params = inspect.signature(load_game).parameters
    except (TypeError, ValueError):
        return kwargs
    if "cache" in params:
        kwargs["cache"] = False
    return kwargs


def random_step(state, rng: random.Random) -> None:
    actions = state.legal_actions()
    if not actions:
        raise BenchError("no legal actions in a game that is not over")
    state.apply(actions[rng.randrange(len(actions))])


# ---------------------------------------------------------------------------- measurements

def bench_load(path: Path, variant: str | None, repeat: int) -> tuple[list[list[str]], list[str]]:
    """Rows for the load table: parse + check + compile with a warm grammar cache, as medians.

    load_game may keep loaded games in a cache (keyed by path, variant and modification time).
    When it hands back the same object twice, the uncached time is measured through
    `interpreter.load_source(text, path, variant)`, the same pipeline without the cache, if the
    package offers it; the cached load_game time is shown on a row of its own.
    """
    from dsl.parser import grammar_parser

    grammar_parser()  # build (or read from the disk cache) the LALR tables once, outside the timing
    kwargs = load_kwargs(variant)
    notes: list[str] = []

    def timed(fn) -> tuple[float, object]:
        t0 = time.perf_counter()
        result = fn()
        return time.perf_counter() - t0, result

    cold_s, first = timed(lambda: load_game(str(path), **kwargs))
    times = [cold_s]
    cached = False
    for _ in range(repeat - 1):
        dt, game = timed(lambda: load_game(str(path), **kwargs))
        if game is first:
            cached = True
            break
        times.append(dt)
    if not cached:
        load_s = statistics.median(times)
        return [["load_game (parse + check + compile)", ms(load_s), "< 50 ms", verdict(load_s < 0.050)]], notes

    cached_s = statistics.median(timed(lambda: load_game(str(path), **kwargs))[0] for _ in range(repeat))
    fresh = bench_fresh_load(path, variant, repeat)
    rows = [["load_game in a fresh process (caches warm)", ms(fresh), "< 50 ms", verdict(fresh < 0.050)]]
    import interpreter

    load_source = getattr(interpreter, "load_source", None)
    if load_source is not None:
        text = path.read_text(encoding="utf-8")
        load_source(text, str(path), variant)  # fills the parse cache
        uncached = [timed(lambda: load_source(text, str(path), variant))[0] for _ in range(repeat)]
        load_s = statistics.median(uncached)
        rows.append(["parse cache warm + check + compile (no compiled cache)", ms(load_s), "", ""])
        saved = os.environ.get("WISHDSL_CACHE")
        os.environ["WISHDSL_CACHE"] = "0"
        try:
            cold = statistics.median(timed(lambda: load_source(text, str(path), variant))[0] for _ in range(repeat))
        finally:
            if saved is None:
                del os.environ["WISHDSL_CACHE"]
            else:
                os.environ["WISHDSL_CACHE"] = saved
        rows.append(["parse + check + compile (no parse cache)", ms(cold), "", ""])
    else:
        notes.append("load_game caches and interpreter.load_source is missing: the uncached load time "
                     "is a single sample (the first call)")
        rows.append(["load_game, first call (one sample)", ms(cold_s), "< 50 ms", verdict(cold_s < 0.050)])
    rows.append(["load_game, cached", ms(cached_s), "", ""])
    return rows, notes


FRESH_LOAD = """
import sys, time
sys.path.insert(0, sys.argv[1])
import interpreter.game  # the engine's modules: imported before the clock starts
from interpreter import load_game
t = time.perf_counter()
load_game(sys.argv[2], sys.argv[3] or None)
print(time.perf_counter() - t)
"""


def bench_fresh_load(path: Path, variant: str | None, repeat: int) -> float:
    """Median time of load_game alone in a fresh process, once its disk caches are warm (the first run warms
    them and is not counted)."""
    cmd = [sys.executable, "-c", FRESH_LOAD, str(REPO), str(path), variant or ""]
    times = []
    for i in range(max(repeat, 3) + 1):
        out = subprocess.run(cmd, capture_output=True, text=True, check=True)
        if i:
            times.append(float(out.stdout.strip().splitlines()[-1]))
    return statistics.median(times)


def bench_check_process(path: Path, repeat: int) -> tuple[float | None, list[str]]:
    """Median wall time of `python -m wishdsl.cli check PATH` in a fresh process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    cmd = [sys.executable, "-m", "wishdsl.cli", "check", str(path)]
    times = []
    for _ in range(max(repeat, 5)):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
            return None, [f"`{' '.join(cmd[1:])}` exited with {proc.returncode}: " + " | ".join(tail)]
    return statistics.median(times), []


def bench_random_games(game, players: int, seconds: float, seed: int) -> dict:
    """Play random games for about `seconds`; games/s, decisions per game, median ms per game."""
    games = 0
    decisions = 0
    per_game = []
    start = time.perf_counter()
    deadline = start + seconds
    i = 0
    while True:
        t0 = time.perf_counter()
        state = game.new_state(players=players, seed=seed + i)
        rng = random.Random(seed + i)
        n = 0
        while not is_over(state):
            if n >= MAX_DECISIONS_PER_GAME:
                raise BenchError(f"a random game (seed {seed + i}) did not end after {n} decisions")
            random_step(state, rng)
            n += 1
        t1 = time.perf_counter()
        per_game.append(t1 - t0)
        games += 1
        decisions += n
        i += 1
        if t1 >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "games_per_s": games / elapsed,
        "decisions_per_game": decisions / games,
        "decisions_per_s": decisions / elapsed,
        "median_game_s": statistics.median(per_game),
    }


def mid_game_state(game, players: int, seed: int):
    """A state about MID_GAME_DECISIONS random decisions in (earlier if the game ends first)."""
    state = game.new_state(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(MID_GAME_DECISIONS):
        if is_over(state):
            break
        before = state.clone()
        random_step(state, rng)
        if is_over(state):
            return before  # keep a state that is still being played
    return state


def time_per_call(fn, repeat: int) -> float:
    """Median seconds per call of fn(), over `repeat` batches of about COPY_BATCH_SECONDS each."""
    fn()  # warm up
    number = 1
    while True:  # find a batch size that runs for about COPY_BATCH_SECONDS
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        dt = time.perf_counter() - t0
        if dt >= COPY_BATCH_SECONDS / 4 or number >= 1 << 22:
            break
        number *= 4
    number = max(1, int(number * COPY_BATCH_SECONDS / max(dt, 1e-9)))
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number)
    return statistics.median(samples)


def bench_copies(game, players: int, seed: int, repeat: int) -> dict:
    state = mid_game_state(game, players, seed)
    result: dict = {"notes": []}

    text = state.to_json()
    if state.clone().to_json() != text:
        result["notes"].append("clone() differs from the original (compared by to_json())")
    back = game.state_from_json(text)
    result["roundtrip_exact"] = back.to_json() == text

    result["clone_s"] = time_per_call(state.clone, repeat)
    try:
        # The compiled game is shared by every state, so deepcopy must not copy it either: seed the memo with it.
        result["deepcopy_s"] = time_per_call(lambda: copy.deepcopy(state, {id(state.game): state.game}), repeat)
    except Exception as e:  # a state need not support deepcopy at all; that is no failure
        result["deepcopy_s"] = None
        result["notes"].append(f"copy.deepcopy(state) failed: {type(e).__name__}: {e}")
    result["to_json_s"] = time_per_call(state.to_json, repeat)
    result["from_json_s"] = time_per_call(lambda: game.state_from_json(text), repeat)
    result["json_bytes"] = len(text.encode("utf-8"))
    return result


# ---------------------------------------------------------------------------- output

def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        Console = None
    if Console is not None and sys.stdout.isatty():
        table = Table(title=title, title_justify="left")
        for i, h in enumerate(header):
            table.add_column(h, justify="left" if i == 0 else "right")
        for row in rows:
            table.add_row(*row)
        Console().print(table)
        return
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]

    def line(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    print(title)
    print(line(header))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))
    print()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default=DEFAULT_GAME, help=f"game file (default {DEFAULT_GAME})")
    ap.add_argument("--players", type=parse_players, default=[3, 4, 6],
                    help="player counts, separated by commas (default 3,4,6)")
    ap.add_argument("--variant", default=None, help="variant to load (default none)")
    ap.add_argument("--seconds", type=float, default=3.0,
                    help="seconds of random play per player count (default 3)")
    ap.add_argument("--repeat", type=int, default=5, help="repeats behind every median (default 5)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    ap.add_argument("--profile", type=int, default=0, metavar="GAMES",
                    help="also profile this many random games (at the first player count) and print where the "
                         "time goes, by function and by module")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    if args.seconds <= 0:
        ap.error("--seconds must be positive")

    path = resolve_game(args.game)
    name = path.relative_to(REPO) if path.is_relative_to(REPO) else path
    variant = f", variant {args.variant}" if args.variant else ""
    print(f"wishdsl benchmarks: {name}{variant}; Python {sys.version.split()[0]}; "
          f"medians of {args.repeat} runs\n")
    notes: list[str] = []
    failed = False

    # Load and check ---------------------------------------------------------------------
    try:
        rows, n = bench_load(path, args.variant, args.repeat)
    except Exception as e:  # WishError and its diagnostics: the game does not load, nothing to measure
        render = getattr(e, "render", None)
        text = render() if callable(render) else f"{type(e).__name__}: {e}"
        print(f"bench: {name} does not load:\n{text}", file=sys.stderr)
        return 1
    notes += n
    check_s, n = bench_check_process(path, args.repeat)
    notes += n
    if check_s is None:
        failed = True
        rows.append(["wishdsl check as a process", "failed", "< 250 ms", ""])
    else:
        rows.append(["wishdsl check as a process", ms(check_s), "< 250 ms", verdict(check_s < 0.250)])
    print_table("Loading", ["measure", "median", "aim", ""], rows)

    game = load_game(str(path), variant=args.variant)

    # Random games -----------------------------------------------------------------------
    rows = []
    for players in args.players:
        try:
            r = bench_random_games(game, players, args.seconds, args.seed)
        except Exception as e:
            failed = True
            notes.append(f"random games with {players} players: {type(e).__name__}: {e}")
            rows.append([str(players), "failed", "", "", "", ""])
            continue
        rows.append([str(players), str(r["games"]), f"{r['games_per_s']:.1f}",
                     f"{r['decisions_per_game']:.1f}", f"{r['decisions_per_s']:.0f}",
                     ms(r["median_game_s"])])
    print_table(f"Random games (about {args.seconds:g} s per player count)",
                ["players", "games", "games/s", "decisions/game", "decisions/s", "median game"], rows)

    # clone() against deepcopy, JSON -------------------------------------------------------
    players = args.players[0]
    try:
        c = bench_copies(game, players, args.seed, args.repeat)
    except Exception as e:
        failed = True
        notes.append(f"clone/JSON benchmark: {type(e).__name__}: {e}")
    else:
        notes += c["notes"]
        rows = [["state.clone()", us(c["clone_s"]), "", ""]]
        if c["deepcopy_s"] is None:
            rows.append(["copy.deepcopy(state)", "failed", "", ""])
        else:
            ratio = c["deepcopy_s"] / c["clone_s"]
            rows.append(["copy.deepcopy(state)", us(c["deepcopy_s"]), "", ""])
            rows.append(["clone speed-up over deepcopy", f"{ratio:.1f}×", "≥ 100×", verdict(ratio >= 100)])
        rows.append(["state.to_json()", us(c["to_json_s"]), "", ""])
        rows.append(["game.state_from_json(text)", us(c["from_json_s"]), "", ""])
        rows.append(["JSON size", f"{c['json_bytes']} B", "", ""])
        rows.append(["JSON round trip exact", "yes" if c["roundtrip_exact"] else "NO", "exact",
                     verdict(c["roundtrip_exact"])])
        print_table(f"Copies of a mid-game state ({players} players, ~{MID_GAME_DECISIONS} random decisions in)",
                    ["measure", "median per call", "aim", ""], rows)

    if args.profile > 0:
        print_profile(game, args.players[0], args.profile, args.seed)

    for note in notes:
        print(f"note: {note}")
    return 1 if failed else 0


def print_profile(game, players: int, games: int, seed: int) -> None:
    """cProfile over random games: the functions with the most time of their own, and the time by module."""
    import cProfile
    import pstats

    def run():
        for k in range(games):
            st = game.new_state(players, seed=seed + k)
            rng = random.Random(seed + k)
            while not st.is_over:
                st.apply(rng.choice(st.legal_actions()))

    prof = cProfile.Profile()
    prof.runcall(run)
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values()) or 1.0
    by_module: dict = {}
    rows = []
    for (path, line, func), (_, _, own, cum, _) in stats.stats.items():
        module = Path(path).stem if path.startswith(str(REPO)) else ("python" if path.startswith("~") else Path(path).stem)
        by_module[module] = by_module.get(module, 0.0) + own
        rows.append((own, cum, f"{Path(path).name}:{line} {func}"))
    rows.sort(reverse=True)
    print_table(f"Profile of {games} random games, {players} players: functions by own time",
                ["own %", "with callees %", "function"],
                [[f"{100 * o / total:.1f}", f"{100 * c / total:.1f}", name] for o, c, name in rows[:12]])
    mods = sorted(by_module.items(), key=lambda kv: -kv[1])[:8]
    print_table("… by module", ["module", "own %"], [[m, f"{100 * t / total:.1f}"] for m, t in mods])


if __name__ == "__main__":
    sys.exit(main())
