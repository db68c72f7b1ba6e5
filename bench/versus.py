#!/usr/bin/env python3
"""This checkout against another one (an older commit, checked out with `git worktree add`), on the same work:
random playouts of a game (CPU time per decision) and MCTS iterations per CPU second at one decision.

    python bench/versus.py OTHER_CHECKOUT [--game games/wish.wish] [--players 2] [--games 10]
                           [--iterations 200] [--rounds 5]

Each round runs both checkouts once each, in fresh processes, in alternating order; the figures are medians over
rounds and the ratios are taken round by round (other / this), so a machine that changes speed between rounds
does not tilt them. Only the public API is used, so any commit of the project can be measured.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

WORK = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
from interpreter import load_game
from interpreter.agents import make_agent
from interpreter.infoset import InfoSet
game = load_game(sys.argv[1] + "/" + sys.argv[2])
players, games, iterations = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
decisions, t = 0, time.process_time()
for seed in range(games):
    rng = random.Random(seed)
    st = game.new_state(players, seed=seed)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
        decisions += 1
per_decision = (time.process_time() - t) / decisions
st, rng = game.new_state(players, seed=3), random.Random(3)
while len(st.legal_actions(st.to_move[0])) < 4:
    st.apply(rng.choice(st.legal_actions()))
seat = st.to_move[0]
agent = make_agent(f"mcts:iterations={iterations};rollout=10", seat, 7)
t = time.process_time()
agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
print(json.dumps({"per_decision": per_decision, "iterations_per_s": iterations / (time.process_time() - t)}))
"""


def measure(checkout: Path, args) -> dict:
    out = subprocess.run([sys.executable, "-c", WORK, str(checkout), args.game, str(args.players), str(args.games),
                          str(args.iterations)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("other", help="the other checkout (a folder with interpreter/ and games/)")
    ap.add_argument("--game", default="games/wish.wish")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=10, help="random games per round")
    ap.add_argument("--iterations", type=int, default=200, help="MCTS iterations per round")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    other = Path(args.other).resolve()
    mine, theirs = [], []
    for r in range(args.rounds):
        pair = [(HERE, mine), (other, theirs)]
        for checkout, results in (pair if r % 2 == 0 else pair[::-1]):
            results.append(measure(checkout, args))
    speed = [t["per_decision"] / m["per_decision"] for m, t in zip(mine, theirs)]
    search = [m["iterations_per_s"] / t["iterations_per_s"] for m, t in zip(mine, theirs)]
    med = statistics.median
    print(f"{args.game}, {args.players} players, {args.rounds} rounds (process CPU time)")
    print(f"random playouts, µs per decision: this {1e6 * med(m['per_decision'] for m in mine):.1f}, "
          f"other {1e6 * med(t['per_decision'] for t in theirs):.1f}; other ÷ this {med(speed):.2f} "
          f"[{min(speed):.2f}–{max(speed):.2f}]")
    print(f"MCTS iterations per second: this {med(m['iterations_per_s'] for m in mine):.0f}, "
          f"other {med(t['iterations_per_s'] for t in theirs):.0f}; this ÷ other {med(search):.2f} "
          f"[{min(search):.2f}–{max(search):.2f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
