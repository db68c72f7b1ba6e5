#!/usr/bin/env python3
"""Machine instructions per decision, counted by Valgrind: a speed measure this noisy VM cannot blur.

    python bench/instructions.py [--other CHECKOUT] [--only wm4,tw4,wish2] [--games N] [--mcts ITERATIONS]

Timings on the shared 2-core VM move by a quarter from one hour to the next, so a change of a few per cent cannot
be seen in them however they are paired. The number of instructions the CPU executes for the same seeded work
hardly moves at all (Valgrind's cachegrind counts them; hash seeds are fixed): it is the measure for small engine
changes. It is a proxy — an instruction of a dict lookup and of an addition cost different times — so the figures
to quote for users stay the timed ones (`bench/reference/playouts.py`, `bench/versus.py`).

For each configuration, random playouts as issue 17's bench plays them (`random.choice(legal_actions())` then
`apply`), the same seeds every run: the instructions of N games minus those of none (start-up, imports, loading
the game) divided by the decisions taken. `--other` counts the same in another checkout (an older commit checked
out with `git worktree add`) and prints other ÷ this. Wunschmaschine and 3 Wishes also count the hand-written
reference (`bench/reference/`) the same way, so engine ÷ reference is an instruction ratio. `--mcts K` counts an
MCTS decision of K iterations in Wish (2 players, `rollout=10`, as `bench/versus.py`), per iteration.
Needs `valgrind` on the PATH; about a minute per configuration and checkout.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
CONFIGS = {  # name: (game file, players, games, reference module or None)
    "wm4": ("games/wunschmaschine.wish", 4, 40, "ref_wunschmaschine"),
    "tw4": ("games/three_wishes.wish", 4, 300, "ref_three_wishes"),
    "wish2": ("games/wish.wish", 2, 4, None),
}

ENGINE = r"""
import random, sys
sys.path.insert(0, sys.argv[1])
from interpreter import load_game
game = load_game(sys.argv[1] + "/" + sys.argv[2])
players, games, decisions = int(sys.argv[3]), int(sys.argv[4]), 0
for seed in range(games):
    rng = random.Random(seed)
    st = game.new_state(players, seed=seed)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
        decisions += 1
print("decisions", decisions)
"""

REFERENCE = r"""
import random, sys
sys.path.insert(0, sys.argv[1] + "/bench/reference")
mod = __import__(sys.argv[2])
players, games, decisions = int(sys.argv[3]), int(sys.argv[4]), 0
for seed in range(games):
    rng = random.Random(seed)
    g = mod.new_game(players, seed)
    while not g.over:
        g.apply(rng.randrange(len(g.legal())))
        decisions += 1
print("decisions", decisions)
"""

MCTS = r"""
import random, sys
sys.path.insert(0, sys.argv[1])
from interpreter import load_game
from interpreter.agents import make_agent
from interpreter.infoset import InfoSet
game = load_game(sys.argv[1] + "/games/wish.wish")
st, rng = game.new_state(2, seed=3), random.Random(3)
while len(st.legal_actions(st.to_move[0])) < 4:
    st.apply(rng.choice(st.legal_actions()))
seat, iterations = st.to_move[0], int(sys.argv[2])
if iterations:
    agent = make_agent(f"mcts:iterations={iterations};rollout=10", seat, 7)
    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
print("decisions", iterations)
"""


def count(script: str, args: list) -> tuple:
    """(instructions, the count the script printed) of one run under cachegrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, "-c", script, *map(str, args)], capture_output=True, text=True, env=env)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    done = re.search(r"^decisions (\d+)$", out.stdout, re.M)
    if out.returncode != 0 or refs is None or done is None:
        raise SystemExit(f"the counted run failed:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), int(done.group(1))


def per_decision(script: str, args: list, n: int) -> float:
    """Instructions per decision of `n` games (or iterations), the start-up counted apart and subtracted."""
    count(script, [*args, 0])  # a first run fills the caches of parsed and compiled games
    base, _ = count(script, [*args, 0])
    total, decisions = count(script, [*args, n])
    return (total - base) / decisions


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--other", help="another checkout to count the same work in (other ÷ this is printed)")
    ap.add_argument("--only", default=",".join(CONFIGS), help="configurations: " + ", ".join(CONFIGS))
    ap.add_argument("--games", type=int, help="games per configuration (default: each one's own)")
    ap.add_argument("--mcts", type=int, default=0, help="also an MCTS decision in Wish with this many iterations")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on the PATH (Debian: apt-get install valgrind)")
    other = Path(args.other).resolve() if args.other else None
    for name in args.only.split(","):
        if name not in CONFIGS:
            raise SystemExit(f"unknown configuration {name!r}; there are: {', '.join(CONFIGS)}")
        game, players, games, ref = CONFIGS[name]
        games = args.games or games
        mine = per_decision(ENGINE, [HERE, game, players], games)
        line = f"{name}: {mine / 1000:.1f} k instructions a decision ({games} games)"
        if ref is not None:
            theirs = per_decision(REFERENCE, [HERE, ref, players], games)
            line += f"; reference {theirs / 1000:.1f} k, engine ÷ reference {mine / theirs:.2f}"
        if other is not None:
            before = per_decision(ENGINE, [other, game, players], games)
            line += f"; other {before / 1000:.1f} k, other ÷ this {before / mine:.3f}"
        print(line, flush=True)
    if args.mcts:
        mine = per_decision(MCTS, [HERE], args.mcts)
        line = f"MCTS in Wish: {mine / 1000:.0f} k instructions an iteration ({args.mcts} iterations)"
        if other is not None:
            before = per_decision(MCTS, [other], args.mcts)
            line += f"; other {before / 1000:.0f} k, other ÷ this {before / mine:.3f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
