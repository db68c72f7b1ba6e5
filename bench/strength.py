#!/usr/bin/env python3
"""How strong the AI players are: seeded matches between agents in every game, with win rates and 95% CIs.

    python bench/strength.py [--games 20] [--wish-games 8] [--iterations 100] [--wish-iterations 25]
                             [--table-games 4] [--only wunschmaschine] [--seed 1]

A match "A vs B" in an N-player game seats one A and N-1 B; the A seat moves round the table from game to game.
A's win rate is the share of games A is among the winners (a shared win counts for each winner); the B column
is the win rate of one B seat. With N players, an agent as good as the others would win about 1/N of the games.
For Wunschmaschine it also counts, per kind of agent, how often a guess is right (a random guess is right 1 time
in 9) and after how many rows it comes, in the matches and at tables where every seat is the same agent.

A measuring tool, not a test. The same arguments give the same games.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from interpreter import load_game  # noqa: E402
from interpreter.agents import agent_seed, ask, make_agent  # noqa: E402

MAX_DECISIONS = 1500
TABLE_DECISIONS = 300  # at a table of MCTS Agents, rounds in which nobody slaps can go on and on
GAMES = {
    "wish": ("games/wish.wish", 2),
    "three_wishes": ("games/three_wishes.wish", 3),
    "wunschmaschine": ("games/wunschmaschine.wish", 3),
}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


class Guesses:
    """Guesses in Wunschmaschine by one kind of agent: how many, how many right, rows laid before each."""

    def __init__(self):
        self.count, self.right, self.rows = 0, 0, 0

    def line(self, who: str) -> str:
        if not self.count:
            return f"  {who}: no guesses"
        lo, hi = wilson(self.right, self.count)
        return (f"  {who}: {self.count} guesses, {100 * self.right / self.count:.0f}% right "
                f"[{100 * lo:.0f}–{100 * hi:.0f}%], after {self.rows / self.count:.2f} rows on average")


def play_one(game, players: int, specs: list, seed: int, guesses: dict, limit: int = MAX_DECISIONS) -> list:
    """Play one seeded game; note Wunschmaschine guesses per agent name. Returns the winners, or None for a
    game cut off after `limit` decisions (agents that all wait for the others can stall Wunschmaschine)."""
    st = game.new_state(players, seed=seed)
    agents = [make_agent(s, seat, agent_seed(seed, seat)) for seat, s in enumerate(specs)]
    rows_var = next((i for i, v in enumerate(game.gvars) if v.name == "rows"), None)
    for _ in range(limit):
        if st.is_over:
            return st.winners()
        seat = st.to_move[0]
        action = ask(agents[seat], st, seat)
        guess = action.label.startswith("guess ") and rows_var is not None
        rows, before = (st.gvars[rows_var] if guess else 0), len(st.log)
        st.apply(action)
        if guess:
            g = guesses.setdefault(agents[seat].name, Guesses())
            g.count += 1
            g.rows += rows
            g.right += any("guessed right" in line for line in st.log_lines(None, before))
    return None


def match(name: str, a: str, b: str, games: int, seed: int) -> dict:
    path, players = GAMES[name]
    game = load_game(str(REPO / path))
    wins_a = wins_b = cut = 0
    guesses: dict = {}
    start = time.time()
    for i in range(games):
        seat_a = i % players
        specs = [a if seat == seat_a else b for seat in range(players)]
        winners = play_one(game, players, specs, seed * 10_000 + i, guesses)
        if winners is None:
            cut += 1
            winners = []
        wins_a += seat_a in winners
        wins_b += sum(seat in winners for seat in range(players) if seat != seat_a) / (players - 1)
    return {"game": name, "a": a, "b": b, "games": games, "wins_a": wins_a, "wins_b": wins_b,
            "players": players, "seconds": time.time() - start, "guesses": guesses, "cut": cut}


def report(r: dict) -> str:
    n = r["games"]
    lo, hi = wilson(r["wins_a"], n)
    lines = [f"{r['game']} ({r['players']}p) {r['a']} vs {r['b']}: {n} games, "
             f"{r['a'].split(':')[0]} wins {100 * r['wins_a'] / n:.0f}% [95% CI {100 * lo:.0f}–{100 * hi:.0f}%], "
             f"one {r['b'].split(':')[0]} seat {100 * r['wins_b'] / n:.0f}% "
             f"(even: {100 / r['players']:.0f}%), {r['seconds']:.0f} s"
             + (f"; {r['cut']} games cut off after {MAX_DECISIONS} decisions" if r["cut"] else "")]
    for who, g in sorted(r["guesses"].items()):
        lines.append(g.line(who))
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per match (3 Wishes, Wunschmaschine)")
    ap.add_argument("--wish-games", type=int, default=8, help="games per match in Wish (slow)")
    ap.add_argument("--iterations", type=int, default=100, help="MCTS iterations per decision")
    ap.add_argument("--wish-iterations", type=int, default=25, help="MCTS iterations per decision in Wish")
    ap.add_argument("--table-games", type=int, default=4,
                    help="Wunschmaschine games with the same agent in every seat, for guess statistics")
    ap.add_argument("--only", choices=sorted(GAMES), help="one game only")
    ap.add_argument("--tables-only", action="store_true", help="only the Wunschmaschine tables")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    for name in sorted(GAMES) if args.only is None else [args.only]:
        wish = name == "wish"
        iters = args.wish_iterations if wish else args.iterations
        mcts = f"mcts:iterations={iters}" + (";rollout=4" if wish else "")
        games = args.wish_games if wish else args.games
        for a, b in ((mcts, "random"), (mcts, "greedy"), ("greedy", "random")):
            if not args.tables_only:
                print(report(match(name, a, b, games, args.seed)), flush=True)
        if name == "wunschmaschine":
            for spec in (mcts, "random"):
                print(table(name, spec, args.table_games, args.seed), flush=True)
    return 0


def table(name: str, spec: str, games: int, seed: int) -> str:
    """Guesses at a table where every seat is the same agent (no weaker player to wait for)."""
    path, players = GAMES[name]
    game = load_game(str(REPO / path))
    guesses: dict = {}
    start = time.time()
    cut = sum(play_one(game, players, [spec] * players, seed * 10_000 + 5_000 + i, guesses, TABLE_DECISIONS)
              is None for i in range(games))
    lines = [f"{name} ({players}p) every seat {spec}: {games} games, {time.time() - start:.0f} s"
             + (f"; {cut} cut off after {TABLE_DECISIONS} decisions" if cut else "")]
    lines += [g.line(who) for who, g in sorted(guesses.items())]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
