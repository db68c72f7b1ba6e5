#!/usr/bin/env python3
"""Mutation testing: change the engine, the checker and the views one small step at a time and see whether the
tests notice (issue 20). A mutant the tests do not notice ("survived") is a behaviour no test pins down.

    python bench/mutate.py [--files F,F…] [--tests T …] [--mutants N] [--seed S] [--timeout SECONDS] [--json OUT]
                           [--at FILE:LINE …]

The project is copied to a temporary folder once; each mutant is one change of one file, written there, and the
chosen tests run against it (`python -m pytest -x -q`, from the copy, so that the copy is what is imported). A
mutant is killed when the tests fail or time out. The mutations are the usual ones: a comparison's operator to its
neighbour (`<` ↔ `<=`, `>` ↔ `>=`, `==` ↔ `!=`), `+` ↔ `-`, `and` ↔ `or`, a `not` dropped, a whole-number
constant k → k + 1, `True` ↔ `False`. Which mutants run is a seeded sample of all of them, so a run repeats.
"""
from __future__ import annotations

import argparse
import ast
import copy
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = ("interpreter/world.py", "interpreter/views.py", "interpreter/machine.py", "interpreter/runtime.py",
         "interpreter/scoring.py", "dsl/check_exprs.py", "dsl/check_stmts.py", "dsl/check_table.py")
TESTS = ("tests/test_engine.py", "tests/test_views.py", "tests/test_pinned.py", "tests/test_runaway.py",
         "tests/test_bad_files.py", "tests/test_language.py", "tests/test_scoring.py", "tests/test_table.py")
SWAPS = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
         ast.Add: ast.Sub, ast.Sub: ast.Add, ast.And: ast.Or, ast.Or: ast.And}
SYMBOL = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Add: "+",
          ast.Sub: "-", ast.And: "and", ast.Or: "or"}


def mutation_points(tree: ast.AST) -> list:
    """(index of the node in ast.walk order, what changes) for every mutation this tree allows."""
    points = []
    for i, node in enumerate(ast.walk(tree)):
        if isinstance(node, ast.Compare):
            for k, op in enumerate(node.ops):
                if type(op) in SWAPS:
                    points.append((i, ("cmp", k), f"{SYMBOL[type(op)]} → {SYMBOL[SWAPS[type(op)]]}"))
        elif isinstance(node, (ast.BinOp, ast.BoolOp)) and type(node.op) in SWAPS:
            points.append((i, ("op", 0), f"{SYMBOL[type(node.op)]} → {SYMBOL[SWAPS[type(node.op)]]}"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            points.append((i, ("not", 0), "'not' dropped"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            points.append((i, ("int", 0), f"{node.value} → {node.value + 1}"))
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            points.append((i, ("bool", 0), f"{node.value} → {not node.value}"))
    return points


class Dropper(ast.NodeTransformer):
    def __init__(self, target):
        self.target = target

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        return node.operand if node is self.target else node


def mutant_source(tree: ast.AST, index: int, how: tuple) -> tuple:
    """(the mutated module's source, the line changed)."""
    tree = copy.deepcopy(tree)
    node = list(ast.walk(tree))[index]
    kind, k = how
    if kind == "cmp":
        node.ops[k] = SWAPS[type(node.ops[k])]()
    elif kind == "op":
        node.op = SWAPS[type(node.op)]()
    elif kind == "int":
        node.value += 1
    elif kind == "bool":
        node.value = not node.value
    else:
        tree = Dropper(node).visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree)), node.lineno


def run_tests(copy_root: Path, tests: list, timeout: float) -> str:
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                              cwd=copy_root, capture_output=True, timeout=timeout,
                              env={**__import__("os").environ, "WISHDSL_CACHE": "0"})
    except subprocess.TimeoutExpired:
        return "killed (timeout)"
    return "survived" if done.returncode == 0 else "killed"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", default=",".join(FILES))
    ap.add_argument("--tests", nargs="*", default=list(TESTS))
    ap.add_argument("--mutants", type=int, default=40, help="how many of all the mutants to run (a seeded sample)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--at", action="append", default=[], metavar="FILE:LINE",
                    help="only the mutants of this line (again: several), e.g. to run a survivor against more tests")
    args = ap.parse_args(argv)
    files = [f.strip() for f in args.files.split(",") if f.strip()]
    trees = {f: ast.parse((ROOT / f).read_text(encoding="utf-8")) for f in files}
    everything = [(f, i, how, what) for f in files for i, how, what in mutation_points(trees[f])]
    if args.at:
        lines = {(f, int(n)) for f, n in (a.rsplit(":", 1) for a in args.at)}
        everything = [m for m in everything if (m[0], list(ast.walk(trees[m[0]]))[m[1]].lineno) in lines]
    sample = random.Random(args.seed).sample(everything, min(args.mutants, len(everything)))
    print(f"{len(everything)} mutants in {len(files)} files; running {len(sample)} against {len(args.tests)} test files")
    results = []
    with tempfile.TemporaryDirectory(prefix="wishdsl-mutants-") as tmp:
        copy_root = Path(tmp) / "project"
        shutil.copytree(ROOT, copy_root, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info"))
        baseline = run_tests(copy_root, args.tests, args.timeout)
        if baseline != "survived":
            print("the tests fail without any mutant: fix them first", file=sys.stderr)
            return 2
        for n, (f, i, how, what) in enumerate(sample, 1):
            source, line = mutant_source(trees[f], i, how)
            target = copy_root / f
            original = target.read_text(encoding="utf-8")
            target.write_text(source, encoding="utf-8")
            t0 = time.perf_counter()
            try:
                outcome = run_tests(copy_root, args.tests, args.timeout)
            finally:
                target.write_text(original, encoding="utf-8")
            results.append({"file": f, "line": line, "mutation": what, "outcome": outcome,
                            "seconds": round(time.perf_counter() - t0, 1)})
            print(f"[{n}/{len(sample)}] {f}:{line}: {what}: {outcome}", flush=True)
    killed = sum(r["outcome"].startswith("killed") for r in results)
    print(f"\nscore: {killed} of {len(results)} mutants killed ({100 * killed / max(1, len(results)):.0f}%)")
    for r in results:
        if r["outcome"] == "survived":
            print(f"  survived: {r['file']}:{r['line']}: {r['mutation']}")
    if args.json:
        Path(args.json).write_text(json.dumps({"seed": args.seed, "files": files, "tests": args.tests,
                                               "results": results}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
