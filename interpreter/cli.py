"""The `wishdsl` command: run, check and test games.

    wishdsl run GAME [--players N] [--seed S] [--variant V] [--agents A,B,…] [--human SEAT] [--json] [--quiet]
    wishdsl check GAME…
    wishdsl test PATH…
    wishdsl docs GAME [--variant V] [--format md|html] [-o FILE]
    wishdsl diff BASE VARIANT [--format md|html] [-o FILE]
    wishdsl simulate GAME -n N [--players P] [--agents …] [--jobs J] [--seed S] [--compare V|FILE] [--ablate A]

GAME may be a house-rule file that `extends` a game. `wishdsl --allow DIR …` lets `extends` reach files under
DIR (by default only files inside the game's own project folder).

A user's mistake (a bad file, an unknown option) prints a diagnostic to stderr and exits 1; an abandoned
game exits 130. An agent that answers with an illegal action is a bug: its IllegalAction propagates.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import sys
from pathlib import Path
from typing import Optional

from dsl.errors import IllegalAction, WishError

EXIT_ABANDONED = 130


def main(argv: Optional[list] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.allow:
            from dsl.link import allow
            for folder in args.allow:
                allow(folder)
        return args.func(args)
    except IllegalAction:
        raise
    except WishError as err:
        print(err.render(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nGame abandoned.", file=sys.stderr)
        return EXIT_ABANDONED
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="wishdsl", description="Check, play and test .wish tabletop games.")
    ap.add_argument("--version", action="version", version=f"wishdsl {version()}")
    ap.add_argument("--allow", action="append", default=[], metavar="DIR",
                    help="let house-rule files extend games under DIR (by default only inside the game's own "
                         "project folder)")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="play a game with agents or people at the terminal")
    run.add_argument("game", metavar="GAME", help="a .wish file")
    run.add_argument("--players", type=int, help="number of players (default 4, kept within the game's range)")
    run.add_argument("--seed", type=int, help="random seed (default: a fresh one, printed first)")
    run.add_argument("--variant", help="play this variant of the game")
    run.add_argument("--agents", metavar="A,B,…",
                     help="one agent per seat, or one for all: random, human, random:seed=5, "
                          "mcts:iterations=400;c=1.4 (options separated by ';')")
    run.add_argument("--human", type=int, metavar="SEAT", help="play seat SEAT (1-based) yourself")
    out = run.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON document instead of the log")
    out.add_argument("--quiet", action="store_true", help="print only the seed and the result")
    run.set_defaults(func=cmd_run)

    check = sub.add_parser("check", help="check .wish files and print every problem")
    check.add_argument("games", nargs="+", metavar="GAME")
    check.set_defaults(func=cmd_check)

    test = sub.add_parser("test", help="run rule scenarios (YAML files or folders of them)")
    test.add_argument("paths", nargs="+", metavar="PATH")
    test.set_defaults(func=cmd_test)

    docs = sub.add_parser("docs", help="write a rules cheat-sheet (Markdown or HTML) of a game")
    docs.add_argument("game", metavar="GAME", help="a .wish file")
    docs.add_argument("--variant", help="the sheet of this variant of the game")
    docs.add_argument("--format", choices=["md", "html"], default="md", help="output format (default md)")
    docs.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    docs.set_defaults(func=cmd_docs)

    diff = sub.add_parser("diff", help="what a house rule or a variant changes, as a cheat-sheet of the differences")
    diff.add_argument("base", metavar="BASE", help="the game (a .wish file)")
    diff.add_argument("variant", metavar="VARIANT", help="a house-rule .wish file, or the name of a variant of BASE")
    diff.add_argument("--format", choices=["md", "html"], default="md", help="output format (default md)")
    diff.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    diff.set_defaults(func=cmd_diff)

    add_simulate_parser(sub)
    return ap


def add_simulate_parser(sub) -> None:
    sim = sub.add_parser(
        "simulate", help="play many games and summarise win rates, scores, lengths and rule coverage",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=SIMULATE_EPILOG)
    sim.add_argument("game", metavar="GAME", help="a .wish file")
    sim.add_argument("-n", type=int, required=True, metavar="N", help="number of games (at least 1)")
    sim.add_argument("--players", type=int, help="number of players (default 4, kept within the game's range)")
    sim.add_argument("--variant", help="simulate this variant of the game")
    sim.add_argument("--agents", metavar="A,B,…", help="one agent per seat, or one for all (default random)")
    sim.add_argument("--seed", type=int, help="seed of the run (default: a fresh one, printed)")
    sim.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (default 1)")
    sim.add_argument("--backend", choices=["processes", "dask"], default="processes",
                     help="local processes (default) or a Dask cluster (the optional extra wishdsl[dask])")
    sim.add_argument("--cluster", metavar="ADDRESS",
                     help="Dask scheduler address (tcp://host:port); default: a local cluster of J workers")
    other = sim.add_mutually_exclusive_group()
    other.add_argument("--compare", metavar="VARIANT|FILE",
                       help="also play a variant of the game, or another .wish file, on the same seeds")
    other.add_argument("--ablate", metavar="ABILITY",
                       help="also play with one action, named trigger or card ability switched off")
    sim.add_argument("--json", action="store_true", help="print one JSON document instead of the summary")
    sim.add_argument("--report", metavar="FILE.html", help="also write a self-contained HTML report")
    sim.set_defaults(func=cmd_simulate)


SIMULATE_EPILOG = """\
Game i of a run uses a seed derived from (--seed, i) only; results are the same for any --jobs or backend.
A win shared by k players counts 1/k. Intervals are 95% Wilson intervals. --compare and --ablate play both
sides on the same seeds: per seat a paired z-test, per role and agent a two-proportion z-test.
Roles: per-player enum variables set during setup that never change afterwards (Wish's djinn).
Coverage: actions taken, Instant abilities resolved, triggers fired (game rules and Ongoing card abilities),
Static abilities in play at the end; the rules that never fired are listed.
"""


def cmd_simulate(args) -> int:
    from .simulate import command

    return command(args)


def version() -> str:
    from importlib import metadata
    try:
        return metadata.version("wishdsl")
    except metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        try:
            m = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(encoding="utf-8"), re.M)
        except OSError:
            m = None
        return m.group(1) if m else "unknown"


# ---------------------------------------------------------------- run
def cmd_run(args) -> int:
    from . import load_game
    from .agents import HumanAgent, Quit, play

    game = load_game(args.game, args.variant)
    players = args.players if args.players is not None else min(max(4, game.min_players), game.max_players)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    agents, specs = seat_agents(args, players, seed)
    humans = [a for a in agents if isinstance(a, HumanAgent)]
    if humans and args.json:
        raise WishError("a human player cannot play a game printed as --json")
    state = game.new_state(players, seed)
    print(f"seed {seed} — replay with --seed {seed}", file=sys.stderr if args.json else sys.stdout)
    on_log = None if (args.json or args.quiet or humans) else print
    try:
        actions = play(state, agents, on_log)
    except Quit:
        print("Game abandoned.", file=sys.stderr)
        return EXIT_ABANDONED
    for h in humans:
        h.show_log(state.log_lines(h.seat))
    if args.json:
        doc = {"game": game.name, "variant": args.variant, "players": players, "seed": seed, "agents": specs,
               "actions": [[a.player, a.label] for a in actions], "log": state.log_lines(),
               "scores": state.scores(), "winners": state.winners()}
        print(dump_json(doc))
    else:
        print_result(state)
    return 0


def seat_agents(args, players: int, seed: int) -> tuple:
    """The agent of every seat from --agents and --human, and the spec of each."""
    from .agents import make_agent, make_agents, split_specs

    specs = split_specs(args.agents)
    agents = make_agents(specs, players, seed)
    specs = specs * players if len(specs) == 1 else specs
    if args.human is not None:
        if not 1 <= args.human <= players:
            raise WishError(f"--human {args.human}: seats are 1 to {players}")
        agents[args.human - 1] = make_agent("human", args.human - 1, 0)
        specs[args.human - 1] = "human"
    return agents, specs


def dump_json(doc: dict) -> str:
    """One key per line, each value compact."""
    rows = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in doc.items()]
    return "{\n" + ",\n".join(rows) + "\n}"


def print_result(state) -> None:
    print("Result:")
    winners = set(state.winners())
    for p, score in enumerate(state.scores()):
        print(f"  {state.player_name(p)}: {score}" + ("  (winner)" if p in winners else ""))
    if winners:
        print("Winner: " + " and ".join(state.player_name(p) for p in sorted(winners)))
    else:
        print("Nobody wins.")


# ---------------------------------------------------------------- check
def cmd_check(args) -> int:
    from dsl.link import describe, load_program
    from dsl.variants import variant_names

    from . import check_program

    failed = 0
    for path in args.games:
        try:
            program = load_program(path)
            sym = check_program(program)
        except WishError as err:
            print(err.render(), file=sys.stderr)
            failed += 1
            continue
        n = len(variant_names(program))
        print(f"ok: {describe(program)} (game {sym.game.name}, {n} variant{'' if n == 1 else 's'})")
    return 1 if failed else 0


# ---------------------------------------------------------------- test
def cmd_test(args) -> int:
    from .scenario import run_paths

    results = run_paths(list(args.paths))
    if not results:
        print("no scenarios found in " + ", ".join(args.paths), file=sys.stderr)
        return 1
    failed = 0
    for r in results:
        print(f"{'PASS' if r.ok else 'FAIL'} {r.path}: {r.name}")
        if not r.ok:
            failed += 1
            for line in (r.message or "").splitlines():
                print(f"    {line}")
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


# ---------------------------------------------------------------- docs
def cmd_docs(args) -> int:
    from docgen.render import render_sheet

    return _write(render_sheet(args.game, args.variant, args.format), args.output)


# ---------------------------------------------------------------- diff
def cmd_diff(args) -> int:
    from docgen.diff import game_diff, render_diff

    return _write(render_diff(game_diff(args.base, args.variant), args.format), args.output)


def _write(text: str, output: Optional[str]) -> int:
    if output:
        Path(output).write_text(text, encoding="utf-8")
        print(f"wrote {output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
