#!/usr/bin/env python3
"""Long fuzzing of the front end (`wishdsl check`): the strategies of tests/test_fuzz.py, run for minutes.

    python bench/fuzz.py [--minutes 10] [--timeout 20] [--batch 200] [--out fuzz-crashes]

Each program is parsed and checked (base game and every variant). It counts programs tried, accepted,
rejected with diagnostics, crashes (any exception that is not a WishError, or a WishError without a message)
and hangs (longer than --timeout seconds), and the slowest one. A crashing or hanging text is written to the
--out folder. The exit code is 1 when anything crashed or hung.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import signal
import sys
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
for folder in (REPO, REPO / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
os.environ.setdefault("WISHDSL_CACHE", "0")

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis.extra.lark import from_lark  # noqa: E402

from dsl.errors import WishError  # noqa: E402
from dsl.parser import parse  # noqa: E402
from interpreter import check_program  # noqa: E402
from test_fuzz import GRAMMAR, TERMINALS, mutations  # noqa: E402


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


class Tally:
    def __init__(self, timeout: float, out: Path):
        self.timeout, self.out = timeout, out
        self.counts = {"tried": 0, "accepted": 0, "rejected": 0, "crashes": 0, "hangs": 0}
        self.slowest = (0.0, "")
        self.last_error = ""

    def one(self, source: str, text: str) -> None:
        self.counts["tried"] += 1
        start = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, self.timeout)
        try:
            check_program(parse(text, "fuzz.wish"))
            outcome = "accepted"
        except WishError as err:
            outcome = "rejected" if err.render() else "crashes"
        except Hang:
            outcome = "hangs"
        except Exception:  # every other exception is what we hunt
            outcome = "crashes"
            self.last_error = traceback.format_exc()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        took = time.perf_counter() - start
        self.counts[outcome] += 1
        if took > self.slowest[0]:
            self.slowest = (took, source)
        if outcome in ("crashes", "hangs"):
            self.keep(outcome, text)

    def keep(self, outcome: str, text: str) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        name = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        (self.out / f"{outcome}-{name}.wish").write_text(text, encoding="utf-8", errors="surrogatepass")
        if outcome == "crashes":
            (self.out / f"{outcome}-{name}.txt").write_text(self.last_error, encoding="utf-8")


def batch(strategy, tally: Tally, source: str, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(text):
        tally.one(source, text)
    run()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds after which one program counts as a hang")
    ap.add_argument("--batch", type=int, default=200, help="programs per Hypothesis run")
    ap.add_argument("--out", default="fuzz-crashes", help="folder for crashing or hanging texts")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    tally = Tally(args.timeout, Path(args.out))
    kinds = [("grammar", from_lark(GRAMMAR, explicit=TERMINALS)), ("mutations", mutations())]
    per_kind = {name: 0 for name, _ in kinds}
    end = time.monotonic() + args.minutes * 60
    i = 0
    while time.monotonic() < end:
        name, strategy = kinds[i % len(kinds)]
        before = tally.counts["tried"]
        batch(strategy, tally, name, args.batch)
        per_kind[name] += tally.counts["tried"] - before
        i += 1
    c = tally.counts
    print(f"fuzzed {args.minutes:g} min: {c['tried']} programs ({per_kind['grammar']} from the grammar, "
          f"{per_kind['mutations']} mutated game files)")
    print(f"  accepted {c['accepted']}, rejected with diagnostics {c['rejected']}, "
          f"crashes {c['crashes']}, hangs {c['hangs']}")
    print(f"  slowest: {tally.slowest[0]:.2f} s ({tally.slowest[1]})")
    return 1 if c["crashes"] or c["hangs"] else 0


if __name__ == "__main__":
    sys.exit(main())
