"""The `wishdsl` command: run, check and test games.

    wishdsl run GAME [--players N] [--seed S] [--variant V] [--agents A,B,…] [--human SEAT] [--json] [--quiet]
                     [--save FILE] [--resume FILE] [--why [N]]
    wishdsl replay LOG.json [--game GAME] [--why [N]]
    wishdsl check GAME…
    wishdsl test PATH…
    wishdsl docs GAME [--variant V] [--format md|html] [-o FILE]
    wishdsl diff BASE VARIANT [--format md|html] [-o FILE]
    wishdsl rules GAME [--variant V] [-o FILE]
    wishdsl simulate GAME -n N [--players P] [--agents …] [--jobs J] [--seed S] [--compare V|FILE] [--ablate A]
                     [--compare-agents …]
    wishdsl new NAME --extends GAME [--dir DIR]
    wishdsl lsp [--tcp HOST:PORT]
    wishdsl fmt PATH… [--check] [--diff]
    wishdsl serve [GAME…] [--host H] [--port P] [--db FILE] [--ai-workers N] [--race-delay X] [--open-rate N]
                  [--allow-uploads [--uploads DIR]]

GAME may be a house-rule file that `extends` a game. `wishdsl --allow DIR …` lets `extends` reach files under
DIR (by default only files inside the game's own project folder).

A user's mistake (a bad file, an unknown option) prints a diagnostic to stderr and exits 1; an abandoned
game exits 130. An agent that answers with an illegal action is a bug: its IllegalAction propagates.
"""
from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path
from typing import Optional

from dsl.errors import IllegalAction, WishError, printable, warning_line

from .explain import ALL_LINES, line_number
from .playing import EXIT_ABANDONED, cmd_run, print_result
from .version import version


class VersionAction(argparse.Action):
    """`--version`: the version is looked up only when asked for."""

    def __call__(self, parser, namespace, values, option_string=None):
        from interpreter import native

        print(f"wishdsl {version()}\n{native.summary()}")
        parser.exit()


def main(argv: Optional[list] = None) -> int:
    args = build_parser().parse_args(argv)
    warnings.formatwarning = warning_line
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
    ap.add_argument("--version", action=VersionAction, nargs=0, help="show the version and exit")
    ap.add_argument("--allow", action="append", default=[], metavar="DIR",
                    help="let house-rule files extend games under DIR (by default only inside the game's own "
                         "project folder)")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser("run", help="play a game with agents or people at the terminal")
    run.add_argument("game", metavar="GAME", nargs="?", help="a .wish file (with --resume: optional)")
    run.add_argument("--players", type=int, help="number of players (default 4, kept within the game's range)")
    run.add_argument("--seed", type=int, help="random seed (default: a fresh one, printed first)")
    run.add_argument("--variant", help="play this variant of the game")
    run.add_argument("--agents", metavar="A,B,…",
                     help="one agent per seat, or one for all: random, human, random:seed=5, "
                          "mcts:iterations=400;c=1.4 (options separated by ';')")
    run.add_argument("--human", type=int, metavar="SEAT", help="play seat SEAT (1-based) yourself")
    run.add_argument("--save", metavar="FILE", help="save the game to FILE after every decision")
    run.add_argument("--resume", metavar="FILE", help="go on with a saved game (and keep saving to FILE)")
    out = run.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON document instead of the log")
    out.add_argument("--quiet", action="store_true", help="print only the seed and the result")
    run.add_argument("--why", nargs="?", const=ALL_LINES, type=line_number, metavar="N",
                     help="explain every line of the log (with N: line N, after the game) — the chain of rules "
                          "that wrote it; with --json, in the document")
    run.set_defaults(func=cmd_run)

    check = sub.add_parser("check", help="check .wish files and print every problem")
    check.add_argument("games", nargs="+", metavar="GAME")
    check.set_defaults(func=cmd_check)

    test = sub.add_parser("test", help="run rule scenarios (YAML files or folders of them)")
    test.add_argument("paths", nargs="+", metavar="PATH")
    test.set_defaults(func=cmd_test)

    replay = sub.add_parser("replay", help="replay a game log (run --json) and check it ends the same")
    replay.add_argument("log", metavar="LOG", help="a JSON document printed by wishdsl run --json")
    replay.add_argument("--game", metavar="GAME", help="the .wish file (default: the one the log names)")
    replay.add_argument("--why", nargs="?", const=ALL_LINES, type=line_number, metavar="N",
                        help="explain line N of the log (without N: every line)")
    replay.set_defaults(func=cmd_replay)

    docs = sub.add_parser("docs", help="write a rules cheat-sheet (Markdown or HTML) of a game")
    docs.add_argument("game", metavar="GAME", help="a .wish file")
    docs.add_argument("--variant", help="the sheet of this variant of the game")
    docs.add_argument("--format", choices=["md", "html"], default="md", help="output format (default md)")
    docs.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    docs.set_defaults(func=cmd_docs)

    rules = sub.add_parser("rules", help="print the Python module a game's rules are compiled to (for reading)")
    rules.add_argument("game", metavar="GAME", help="a .wish file")
    rules.add_argument("--variant", help="the rules of this variant of the game")
    rules.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    rules.set_defaults(func=cmd_rules)

    build = sub.add_parser("build", help="compile games' rules to machine code (Cython and a C compiler), kept in "
                                        "the cache and used by every later load while the rules are the same")
    build.add_argument("games", nargs="+", metavar="GAME", help=".wish files")
    build.add_argument("--variant", help="the rules of this variant of each game")
    build.set_defaults(func=cmd_build)

    diff = sub.add_parser("diff", help="what a house rule or a variant changes, as a cheat-sheet of the differences")
    diff.add_argument("base", metavar="BASE", help="the game (a .wish file)")
    diff.add_argument("variant", metavar="VARIANT", help="a house-rule .wish file, or the name of a variant of BASE")
    diff.add_argument("--format", choices=["md", "html"], default="md", help="output format (default md)")
    diff.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    diff.set_defaults(func=cmd_diff)

    add_simulate_parser(sub)

    new = sub.add_parser("new", help="write a starter house rule of a game, with its scenario file beside it")
    new.add_argument("name", metavar="NAME", help="the house rule's name: lower-case letters, digits and '_'")
    new.add_argument("--extends", required=True, metavar="GAME", help="the game it changes (a .wish file)")
    new.add_argument("--dir", metavar="DIR", help="where to write NAME.wish and NAME.yaml (default: house/ "
                                                   "beside the game)")
    new.set_defaults(func=cmd_new)

    lsp = sub.add_parser("lsp", help="a language server for editors (the lsp extra): diagnostics, hover, "
                                     "definitions, completion, outline")
    lsp.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of standard input and output")
    lsp.set_defaults(func=cmd_lsp)

    fmt = sub.add_parser("fmt", help="write .wish files in the one canonical layout (comments and doc strings kept)")
    fmt.add_argument("paths", nargs="+", metavar="PATH", help="a .wish file, or a folder: every .wish file under it")
    fmt.add_argument("--check", action="store_true", help="change nothing; name the files fmt would change and "
                                                          "exit 1 if there are any")
    fmt.add_argument("--diff", action="store_true", help="print what would change as a unified diff; write nothing")
    fmt.set_defaults(func=cmd_fmt)

    serve = sub.add_parser("serve", help="web tables in the browser for people and AI players (the web extra)")
    serve.add_argument("games", nargs="*", metavar="GAME",
                       help="game files, or folders of them, to offer (default: the folder games)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", default="wishdsl-tables.sqlite3", metavar="FILE",
                       help="the SQLite file that keeps the tables (default wishdsl-tables.sqlite3)")
    serve.add_argument("--ai-workers", type=int, default=2, metavar="N",
                       help="processes in which AI seats think (default 2)")
    serve.add_argument("--race-delay", type=float, default=1.0, metavar="X",
                       help="scale of the seeded, human-like pause before an AI seat answers a decision a person "
                            "answers too (default 1: 0.6 to 1.8 seconds; 0: none)")
    serve.add_argument("--open-rate", type=int, default=30, metavar="N",
                       help="tables one client may open in a minute (default 30)")
    serve.add_argument("--allow-uploads", action="store_true",
                       help="let people upload house rules; they are checked, then kept and offered")
    serve.add_argument("--uploads", metavar="DIR",
                       help="where uploaded house rules go (default: uploads in the first folder offered)")
    serve.set_defaults(func=cmd_serve)
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
                       help="also play a variant of the game, or another .wish file (in --variant's variant), "
                            "on the same seeds")
    other.add_argument("--compare-agents", metavar="A,B,…",
                       help="also play the same games with these agents (one per seat, or one for all): what "
                            "another or a stronger agent changes in the figures")
    other.add_argument("--ablate", metavar="ABILITY",
                       help="also play with one action, named trigger or card ability switched off")
    sim.add_argument("--max-decisions", type=int, default=None, metavar="D",
                     help="cut off a game still running after D decisions, name its seed and leave it out of "
                          "every figure (default 20,000)")
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


# ---------------------------------------------------------------- new
def cmd_new(args) -> int:
    from .starter import new_house_rule

    rule, scenario, marker = new_house_rule(args.name, args.extends, args.dir, tuple(args.allow))
    if marker is not None:
        print(f"wrote {marker}: the game's folder is now a project, so house rules below it may extend it")
    print(f"wrote {rule} and {scenario}; it checks, and its scenario passes. Next:")
    print(f"  edit {rule}: write again the definitions it changes")
    print(f"  wishdsl diff {args.extends} {rule}     # what it changes, in the cheat-sheet's words")
    print(f"  wishdsl test {scenario}    # its scenarios")
    return 0


# ---------------------------------------------------------------- lsp
def cmd_lsp(args) -> int:
    """The language server on standard input and output (or TCP); without pygls, say how to install it."""
    try:
        from .lsp.server import serve
    except ImportError as err:
        if (err.name or "").split(".")[0] not in ("pygls", "lsprotocol", "cattrs"):
            raise
        print("the language server needs the lsp extra: pip install -e '.[lsp]'", file=sys.stderr)
        return 2
    tcp = None
    if args.tcp is not None:
        host, _, port = args.tcp.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise WishError(f"--tcp takes HOST:PORT (like 127.0.0.1:2087), not {args.tcp!r}")
        tcp = (host, int(port))
    return serve(tcp)


# ---------------------------------------------------------------- fmt
def cmd_fmt(args) -> int:
    """Rewrite files in the canonical layout; --check and --diff only say what would change. A file that does
    not parse gets the parser's diagnostics and is left as it is (exit 1)."""
    import difflib

    from dsl.fmt import format_file, wish_files, write_formatted

    files = wish_files(args.paths)
    say = sys.stderr if args.diff else sys.stdout
    changed = failed = 0
    for path in files:
        try:
            old, new = format_file(path)
        except WishError as err:
            print(err.render(), file=sys.stderr)
            failed += 1
            continue
        if old == new:
            continue
        changed += 1
        if args.diff:
            for line in difflib.unified_diff(old.splitlines(True), new.splitlines(True), path, path):
                sys.stdout.write(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
        if args.check or args.diff:
            print(f"would reformat {path}", file=say)
        else:
            write_formatted(path, new)
            print(f"reformatted {path}", file=say)
    done = "would be reformatted" if args.check or args.diff else "reformatted"
    summary = f"{changed} file{'' if changed == 1 else 's'} {done}, {len(files) - changed - failed} unchanged"
    print(summary + (f", {failed} not formatted (errors above)" if failed else ""), file=say)
    return 1 if failed or (args.check and changed) else 0


# ---------------------------------------------------------------- serve
def cmd_serve(args) -> int:
    try:
        import uvicorn
        from .web.app import create_app
    except ImportError as err:
        raise WishError(f"wishdsl serve needs the web extra ({err.name} is missing): pip install -e '.[web]'") from None
    from .web.catalog import Catalog

    if args.ai_workers < 1 or args.race_delay < 0 or args.open_rate < 1 or not 0 < args.port < 65536:
        raise WishError("--ai-workers and --open-rate are at least 1, --race-delay at least 0, --port from 1 to "
                        "65535")
    if args.uploads and not args.allow_uploads:
        raise WishError("--uploads names where uploads go; add --allow-uploads to take them")
    catalog = Catalog(args.games or ["games"], tuple(args.allow))
    for entry in catalog.games.values():
        if entry.error is not None:
            print(f"not offered: {entry.key}: {entry.error}", file=sys.stderr)
    uploads = None
    if args.allow_uploads:
        uploads = args.uploads or str(Path(catalog.folders[0]) / "uploads")
    app = create_app(catalog, args.db, args.ai_workers, args.race_delay, args.open_rate, uploads)
    print(f"wishdsl serves {len(catalog.playable())} games at http://{args.host}:{args.port}/ "
          f"(tables kept in {args.db})", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=64_000)
    return 0


# ---------------------------------------------------------------- check
def cmd_check(args) -> int:
    from dsl.front import check_all
    from dsl.linked import describe, variant_names

    failed = 0
    for path in args.games:
        try:
            checked = check_all(path)
        except WishError as err:
            print(err.render(), file=sys.stderr)
            failed += 1
            continue
        program, n = checked.program, len(variant_names(checked.program))
        print(f"ok: {describe(program)} (game {checked.sym.game.name}, {n} variant{'' if n == 1 else 's'})")
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
        print(printable(f"{'PASS' if r.ok else 'FAIL'} {r.path}: {r.name}"))
        if not r.ok:
            failed += 1
            for line in (r.message or "").splitlines():
                print(printable(f"    {line}"))
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


# ---------------------------------------------------------------- replay
def cmd_replay(args) -> int:
    from .replay import replay_file

    state, n, note = replay_file(args.log, args.game, why=args.why is not None)
    if note:
        print(f"note: {note}", file=sys.stderr)
    if args.why is not None:
        from .explain import check_line, print_lines

        check_line(state, args.why)
        print_lines(state, args.why)
        return 0
    print(f"replayed {n} decisions of {args.log}: the same log, scores and final state")
    print_result(state)
    return 0


# ---------------------------------------------------------------- docs
def cmd_docs(args) -> int:
    from docgen.render import render_sheet

    _check_output(args.output, "cheat-sheet")
    return _write(render_sheet(args.game, args.variant, args.format), args.output, "cheat-sheet")


# ---------------------------------------------------------------- rules
def cmd_rules(args) -> int:
    from interpreter import load_game

    _check_output(args.output, "compiled rules")
    return _write(load_game(args.game, args.variant).rules.source, args.output, "compiled rules")


# ---------------------------------------------------------------- build
def cmd_build(args) -> int:
    import time

    from interpreter import load_game

    for path in args.games:
        game = load_game(path, args.variant)
        if game.rules.native is not None:
            print(f"{path}: its rules run as machine code already")
            continue
        t0 = time.perf_counter()
        where = game.rules.build_native()
        print(f"{path}: rules compiled to machine code in {time.perf_counter() - t0:.1f} s ({where})")
    return 0


# ---------------------------------------------------------------- diff
def cmd_diff(args) -> int:
    from docgen.diff import game_diff, render_diff

    _check_output(args.output, "diff")
    return _write(render_diff(game_diff(args.base, args.variant), args.format), args.output, "diff")


def _check_output(output: Optional[str], what: str) -> None:
    if output:
        from .outputs import check_output

        check_output(output, what)


def _write(text: str, output: Optional[str], what: str) -> int:
    if output:
        from .outputs import write_output

        write_output(output, text, what)
        print(f"wrote {output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
