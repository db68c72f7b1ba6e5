"""`wishdsl simulate`: play many games, in parallel, reproducibly; the records of the games.

Seeding: game i of a run with seed S is played with `game_seed(S, i)` (a hash of S and i only), and its agents
are built with `make_agents(specs, players, game_seed(S, i))`. Work is cut into fixed batches of game indices;
the records come back merged in index order, so the results do not depend on `--jobs` or on the backend.
Aggregation and comparison are in `wishdsl.summary`.

A game that has not ended after `max_decisions` decisions is cut off (agents that never end a turn, a rule that
lets a game go round in circles): its record says so, names its seed, and it is left out of every figure, so
that a long run always ends and says which games to replay (`wishdsl run --seed`).
"""
from __future__ import annotations

import hashlib
import math
import time
from typing import Callable, Optional

import attrs

from dsl.errors import WishError

from .coverage import CountingState, ablate, coverage_counts, stable_roles, taken_by_seat, universe

TARGET_TASK_SECONDS = 1.0
WORTH_A_POOL_SECONDS = 2.0  # less work than this (estimated from the first game) runs in this process
MAX_GAMES = 1_000_000  # games in one run: every game's result is kept for the summary
MAX_DECISIONS = 20_000  # a game still running after this many decisions is cut off (`--max-decisions`)


@attrs.frozen
class Setup:
    """What one side of a run plays: a game file (or house-rule file), its variant, an ablated ability, the
    number of players and the agents (one spec per seat, or one for all); `allow`: the folders beyond the game's
    tree its `extends` may reach (`wishdsl --allow`), carried to every worker process."""

    path: str
    variant: Optional[str]
    players: int
    agents: tuple
    ablate: Optional[str] = None
    max_decisions: int = MAX_DECISIONS
    allow: tuple = ()

    def label(self) -> str:
        text = self.path + (f" [{self.variant}]" if self.variant else "")
        return text + (f" without {self.ablate}" if self.ablate else "")


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run seeded `seed`: 48 bits of SHA-256 of both."""
    digest = hashlib.sha256(f"wishdsl-simulate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def seat_specs(agents: tuple, players: int, index: int) -> list:
    """The agent spec of every seat in game `index`. Several different agents rotate one seat per game, so
    that each sits in every seat equally often; one agent (or identical ones) sits everywhere."""
    specs = list(agents) * players if len(agents) == 1 else list(agents)
    if len(specs) != players:
        raise WishError(f"--agents gives {len(agents)} agents for {players} players: give one per seat, "
                        "or a single one for every seat")
    if len(set(specs)) == 1:
        return specs
    k = index % players
    return specs[-k:] + specs[:-k] if k else specs


# ---------------------------------------------------------------- games, loaded once per process
_GAMES: dict = {}


def load(setup: Setup):
    """The compiled game of a setup (ablated if asked), loaded once per process."""
    key = (setup.path, setup.variant, setup.ablate, setup.allow)
    game = _GAMES.get(key)
    if game is None:
        from interpreter import load_game
        game = load_game(setup.path, setup.variant, setup.allow)
        if setup.ablate is not None:
            game = ablate(game, setup.ablate)
        _GAMES[key] = game
    return game


class _CutOff(Exception):
    """A game reached the decision limit of its run."""


def play_game(setup: Setup, seed: int, index: int) -> dict:
    """Play game `index` to its end, or until `setup.max_decisions`; its record (plain data: it crosses process
    boundaries). A game cut off has the record {index, seed, agents, cut: the limit}."""
    from interpreter.agents import make_agents, play

    game = load(setup)
    gseed = game_seed(seed, index)
    specs = seat_specs(setup.agents, setup.players, index)
    state = CountingState.start(game, setup.players, gseed)
    agents = make_agents(specs, setup.players, gseed)

    def watchdog(_state, taken: list) -> None:
        if len(taken) >= setup.max_decisions and not _state.is_over:
            raise _CutOff
    try:
        actions = play(state, agents, labels=False, after=watchdog)
    except _CutOff:
        return {"index": index, "seed": gseed, "agents": specs, "cut": setup.max_decisions}
    points = [list(row["points"].items()) for row in state.result()["players"]]
    return {"index": index, "seed": gseed, "agents": specs, "scores": state.scores(), "winners": state.winners(),
            "points": points,
            "decisions": len(actions), "actions": sum(state.counts[k] for k in state.counts if k[0] == "action"),
            "coverage": coverage_counts(state, universe(game)), "roles": stable_roles(state),
            "taken": taken_by_seat(state)}


def run_batch(task: tuple) -> list:
    """A task: (setup, seed, first index, count) → the records of those games, in order."""
    setup, seed, start, count = task
    return [play_game(setup, seed, i) for i in range(start, start + count)]


# ---------------------------------------------------------------- running many
@attrs.define
class Runner:
    """How the games run: `jobs` local processes, or a Dask cluster (`cluster` an address, or 'local')."""

    jobs: int = 1
    backend: str = "processes"
    cluster: Optional[str] = None
    progress: Optional[Callable] = None  # progress(done_games, total_games, text)
    dask: Optional[tuple] = attrs.field(default=None, init=False)  # (client, local cluster or None), made once

    def __enter__(self) -> "Runner":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Disconnect from Dask (and stop the local cluster this runner started)."""
        if self.dask is not None:
            client, local = self.dask
            self.dask = None
            client.close()
            if local is not None:
                local.close()

    def run(self, setup: Setup, n: int, seed: int) -> list:
        if n < 1:
            raise WishError(f"-n {n}: the number of games must be at least 1")
        if n > MAX_GAMES:
            raise WishError(f"-n {n:,}: at most {MAX_GAMES:,} games in one run (each game's result is kept for the "
                            "summary); run several with different --seed values")
        t0 = time.perf_counter()
        first = run_batch((setup, seed, 0, 1))
        self._report(1, n, setup)
        per_game = time.perf_counter() - t0
        size = batch_size(per_game, n - 1, self.jobs)
        tasks = [(setup, seed, i, min(size, n - i)) for i in range(1, n, size)]
        local = self.backend != "dask" and (n - 1) * per_game < WORTH_A_POOL_SECONDS
        return first + self._execute(tasks, n, setup, serial=local)

    def _report(self, done: int, total: int, setup: Setup) -> None:
        if self.progress is not None:
            self.progress(done, total, setup.label())

    def _execute(self, tasks: list, n: int, setup: Setup, serial: bool = False) -> list:
        if not tasks:
            return []
        if self.backend == "dask":
            from .distributed import client_for, run_dask
            if self.dask is None:
                self.dask = client_for(self.cluster, self.jobs)
            return run_dask(run_batch, tasks, self.dask[0], lambda done: self._report(done, n, setup))
        out: list = []
        if serial or self.jobs <= 1 or len(tasks) == 1:
            for t in tasks:
                out += run_batch(t)
                self._report(1 + len(out), n, setup)
            return out
        import multiprocessing
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(min(self.jobs, len(tasks))) as pool:
            for records in pool.imap(run_batch, tasks):
                out += records
                self._report(1 + len(out), n, setup)
        return out


def batch_size(seconds_per_game: float, remaining: int, jobs: int) -> int:
    """Games per task: enough for about TARGET_TASK_SECONDS each, but at least one task per job."""
    if remaining <= 0:
        return 1
    per = max(1, math.ceil(TARGET_TASK_SECONDS / max(seconds_per_game, 1e-6)))
    return max(1, min(per, math.ceil(remaining / max(jobs, 1))))


# ---------------------------------------------------------------- the command
def command(args) -> int:
    """`wishdsl simulate`: run, summarise, print (text or --json), and write --report."""
    import json
    import secrets
    import sys

    if args.report:
        from .outputs import check_output
        check_output(args.report, "report")
    base, other = setups(args)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    t0 = time.perf_counter()
    with Runner(args.jobs, args.backend, args.cluster) as runner, \
            progress_bar(enabled=sys.stderr.isatty() and not args.json) as bar:
        runner.progress = bar
        records = [runner.run(s, args.n, seed) for s in ([base] if other is None else [base, other])]
    elapsed = time.perf_counter() - t0
    records = paired(records)
    docs = [summary_of(s, r, seed) for s, r in zip([base, other], records)]
    if other is None:
        doc = docs[0]
    else:
        from .summary import compare
        doc = {"mode": "ablate" if other.ablate else "compare", "base": docs[0], "other": docs[1],
               "difference": compare(finished(records[0]), finished(records[1]), docs[0], docs[1], base.players)}
    total = args.n * len(records)
    print(f"{total} games in {elapsed:.1f} s ({total / max(elapsed, 1e-9):.1f} games/s), seed {seed}",
          file=sys.stderr)
    if args.json:
        print(json.dumps(doc, ensure_ascii=False, indent=1))
    else:
        from .simtext import render, render_compare
        print(render(doc) if other is None else render_compare(doc))
    if args.report:
        from .outputs import write_output
        from .report import render_report
        write_output(args.report, render_report(doc), "report")
        print(f"wrote {args.report}", file=sys.stderr)
    return 0


def setups(args) -> tuple:
    """The base setup and the one it is compared with (None): --compare VARIANT or FILE, --compare-agents, or
    --ablate NAME.
    Everything is loaded and checked before any game is played."""
    from pathlib import Path

    from dsl.link import ALLOWED

    if args.n < 1:
        raise WishError(f"-n {args.n}: the number of games must be at least 1")
    if args.jobs < 1:
        raise WishError(f"--jobs {args.jobs}: give at least 1")
    limit = MAX_DECISIONS if args.max_decisions is None else args.max_decisions
    if limit < 1:
        raise WishError(f"--max-decisions {limit}: give at least 1")
    if args.cluster is not None and args.backend != "dask":
        raise WishError("--cluster needs --backend dask")
    allow = tuple(str(folder) for folder in ALLOWED)
    game = load(Setup(args.game, args.variant, 0, (), allow=allow))
    players = args.players if args.players is not None else min(max(4, game.min_players), game.max_players)
    game.check_players(players)
    specs = agent_specs(args.agents, players)
    base = Setup(args.game, args.variant, players, specs, max_decisions=limit, allow=allow)
    other = None
    if args.compare is not None:
        if Path(args.compare).is_file():
            other = in_variant(attrs.evolve(base, path=args.compare, variant=None), args.variant)
        else:
            other = attrs.evolve(base, variant=args.compare)
        load(other).check_players(players)
    elif args.compare_agents is not None:
        other = attrs.evolve(base, agents=agent_specs(args.compare_agents, players))
    elif args.ablate is not None:
        other = attrs.evolve(base, ablate=args.ablate)
        load(other)
    return base, other


def agent_specs(text: str, players: int) -> tuple:
    """The agents of `--agents` (or `--compare-agents`), checked: agents only, one per seat or one for all, each
    with valid options."""
    from interpreter.agents import make_agents, parse_spec, split_specs

    specs = tuple(split_specs(text))
    if any(parse_spec(spec)[0] == "human" for spec in specs):
        raise WishError("a simulation is played by agents only: 'human' cannot take a seat")
    make_agents(list(seat_specs(specs, players, 0)), players, 0)
    return specs


def in_variant(setup: Setup, variant: Optional[str]) -> Setup:
    """A compared file played in the variant the base plays (`--variant`): its variant of that name (a house rule
    inherits its game's variants), or the file as it is when it builds on that variant already (`extends "…"
    variant "…"`); any other file is refused rather than compared with the variant left out."""
    if variant is None:
        return setup
    game = load(setup)
    if variant in game.variants:
        return attrs.evolve(setup, variant=variant)
    program = game.program
    while program is not None and program.parent_variant != variant:
        program = program.parent
    if program is not None:
        return setup
    names = ", ".join(repr(v) for v in game.variants) or "none"
    raise WishError(f"--compare {setup.path}: the file has no variant {variant!r} to compare with --variant "
                    f"{variant!r} (its variants: {names}); a house rule can build on it with "
                    f'`extends "…" variant "{variant}"`')


def paired(runs: list) -> list:
    """The records of each run with the games another run cut off left out too (compared runs stay paired on
    the same seeds); a run's own cut-off records are kept, for its summary to name."""
    gone = {r["index"] for records in runs for r in records if "cut" in r}
    return [[r for r in records if "cut" in r or r["index"] not in gone] for records in runs]


def finished(records: list) -> list:
    """The records of the games played to their end (not cut off)."""
    return [r for r in records if "cut" not in r]


def summary_of(setup: Setup, records: list, seed: int) -> dict:
    """The summary of a run's records: the games cut off are named (`cut_off`) and left out of every figure."""
    from .summary import summarise

    game = load(setup)
    done = finished(records)
    cut = [{"index": r["index"], "seed": r["seed"], "agents": r["agents"]} for r in records if "cut" in r]
    if not done:
        raise WishError(f"{setup.label()}: all {len(records)} games were cut off after {setup.max_decisions:,} "
                        f"decisions (the game seeded {cut[0]['seed']} among them): a game that long is stuck, or "
                        "give a higher --max-decisions")
    meta = {"title": game.title, "game": setup.path, "variant": setup.variant, "ablate": setup.ablate,
            "players": setup.players, "agents": list(setup.agents), "seed": seed,
            "max_decisions": setup.max_decisions, "cut_off": cut}
    return summarise(done, setup.players, universe(game), game.member_display, meta)


class progress_bar:
    """A rich progress bar on stderr (a context manager giving `update(done, total, text)`), or nothing."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.bar = None
        self.tasks: dict = {}

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self.bar.__enter__()
        return self.update

    def update(self, done: int, total: int, text: str) -> None:
        task = self.tasks.get(text)
        if task is None:
            task = self.tasks[text] = self.bar.add_task(text, total=total)
        self.bar.update(task, completed=done)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


__all__ = ["MAX_DECISIONS", "Runner", "Setup", "batch_size", "command", "finished", "game_seed", "load", "paired",
           "play_game", "run_batch", "seat_specs", "setups", "summary_of"]
