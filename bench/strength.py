#!/usr/bin/env python3
"""How strong the AI players are: seeded matches between agents in every game, with win rates and 95% CIs.

    python bench/strength.py [--games 20] [--three-wishes-games 600] [--wish-games 8] [--iterations 100]
                             [--three-wishes-iterations 400] [--wish-iterations 25] [--wish-mcts SPEC]
                             [--naming 120] [--table-games 4] [--random-table-games 100]
                             [--only wunschmaschine] [--seed 1 | --seed fresh]

A match "A vs B" in an N-player game seats one A and N-1 B; the A seat moves round the table from game to game.
A's win rate is the share of games A is among the winners (a shared win counts for each winner); the B column
is the win rate of one B seat, and "A − B" their mean difference per game with a 95% interval (shared wins
make both rates exceed 1/N, so the difference is the fair comparison). For Wunschmaschine it also counts, per
kind of agent, how often a guess is right (a random guess is right 1 time in 9) and after how many rows it
comes, in the matches and at tables where every seat is the same agent; and, without the slap race, how often
each agent names the wish right after 1 to 4 rows, next to the most likely item given what was announced.

Under each match with a searching agent it prints how much that agent searched: iterations a decision (of the
decisions with a choice) and the share grown in its worker processes (`jobs`), so that a time budget's figures
say what they measured (a worker that gets its task late shows as a small share).

A measuring tool, not a test. The same arguments give the same games; `--seed fresh` draws a seed (and prints
it, so the run can be repeated). `--wish-mcts "mcts:time=0.25;jobs=2"` sets the searching agent of the Wish
matches (default `mcts:iterations=N;rollout=4` with N from --wish-iterations).
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from interpreter import load_game  # noqa: E402
from interpreter.agents import agent_seed, ask, make_agent  # noqa: E402
from interpreter.infoset import InfoSet  # noqa: E402
from interpreter.native_rules import describe  # noqa: E402

MAX_DECISIONS = 1500
# 3 Wishes is searched with probes and no rollouts: a new option starts at the reward one step after it (a peek is
# credited with the best swap it allows), and a leaf is valued by the game's own scoring at once (random play to
# the end mostly adds luck in so short a game)
THREE_WISHES = ";rollout=0;probe=1"
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


def difference(diffs: list) -> str:
    """The mean per-game difference (A's win minus one B seat's) in points, with a normal 95% interval."""
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return f"{100 * mean:+.0f} points [{100 * (mean - half):+.0f}, {100 * (mean + half):+.0f}]"


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


class Searches:
    """The searches of one searching agent: decisions searched, iterations, and those grown in this process (the
    rest grew in its worker processes, `jobs`): a time budget's figures mean little without them."""

    def __init__(self):
        self.count, self.iterations, self.here = 0, 0, 0

    def note(self, agent, seat: int) -> None:
        self.count += 1
        self.iterations += agent.last_iterations
        self.here += sum(row[0] for row in agent.last_root.stats.get(seat, {}).values())

    def line(self, who: str) -> str:
        share = 100 * (1 - self.here / self.iterations) if self.iterations else 0
        return (f"  {who}: {self.iterations / self.count:,.0f} iterations a decision searched ({self.count:,} "
                f"decisions), {share:.0f}% of them in worker processes")


def play_one(game, players: int, specs: list, seed: int, guesses: dict, limit: int = MAX_DECISIONS,
             laid: list = None, searched: dict = None) -> list:
    """Play one seeded game; note Wunschmaschine guesses per agent name, the searches of searching agents per
    spec in `searched`, and add the rows laid to `laid[0]`. Returns the winners, or None for a game cut off after
    `limit` decisions (agents that all wait for the others can stall Wunschmaschine)."""
    st = game.new_state(players, seed=seed)
    agents = [make_agent(s, seat, agent_seed(seed, seat)) for seat, s in enumerate(specs)]
    rows_var = next((i for i, v in enumerate(game.gvars) if v.name == "rows"), None)
    for _ in range(limit):
        if st.is_over:
            return st.winners()
        seat = st.to_move[0]
        tree = getattr(agents[seat], "last_root", None)
        action = ask(agents[seat], st, seat)
        if searched is not None and getattr(agents[seat], "last_root", None) is not tree:
            searched.setdefault(specs[seat], Searches()).note(agents[seat], seat)
        guess = action.label.startswith("guess ") and rows_var is not None
        rows, before = (st.gvars[rows_var] if rows_var is not None else 0), len(st.log)
        st.apply(action)
        if laid is not None and rows_var is not None:
            new_round = action.label.startswith("wish for ")  # the Machine's wish starts a round's rows at 0
            laid[0] += st.gvars[rows_var] - (0 if new_round else rows)
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
    diffs: list = []
    guesses: dict = {}
    searched: dict = {}
    start = time.time()
    for i in range(games):
        seat_a = i % players
        specs = [a if seat == seat_a else b for seat in range(players)]
        winners = play_one(game, players, specs, seed * 10_000 + i, guesses, searched=searched)
        if winners is None:
            cut += 1
            winners = []
        a_won = float(seat_a in winners)
        b_won = sum(seat in winners for seat in range(players) if seat != seat_a) / (players - 1)
        wins_a += a_won
        wins_b += b_won
        diffs.append(a_won - b_won)
    return {"game": name, "a": a, "b": b, "games": games, "wins_a": wins_a, "wins_b": wins_b, "diffs": diffs,
            "players": players, "seconds": time.time() - start, "guesses": guesses, "cut": cut,
            "searched": searched}


def report(r: dict) -> str:
    n = r["games"]
    lo, hi = wilson(r["wins_a"], n)
    lines = [f"{r['game']} ({r['players']}p) {r['a']} vs {r['b']}: {n} games, "
             f"{r['a'].split(':')[0]} wins {100 * r['wins_a'] / n:.0f}% [95% CI {100 * lo:.0f}–{100 * hi:.0f}%], "
             f"one {r['b'].split(':')[0]} seat {100 * r['wins_b'] / n:.0f}% "
             f"(even: {100 / r['players']:.0f}%); A − B {difference(r['diffs'])}; {r['seconds']:.0f} s"
             + (f"; {r['cut']} games cut off after {MAX_DECISIONS} decisions" if r["cut"] else "")]
    for who, g in sorted(r["guesses"].items()):
        lines.append(g.line(who))
    for who, searches in sorted(r.get("searched", {}).items()):
        lines.append(searches.line(who))
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per match in Wunschmaschine")
    ap.add_argument("--three-wishes-games", type=int, default=600,
                    help="games per match in 3 Wishes (short games, and luck decides many)")
    ap.add_argument("--wish-games", type=int, default=8, help="games per match in Wish (slow)")
    ap.add_argument("--iterations", type=int, default=100, help="MCTS iterations per decision in Wunschmaschine")
    ap.add_argument("--three-wishes-iterations", type=int, default=400,
                    help="MCTS iterations per decision in 3 Wishes (with probes and no rollouts, see THREE_WISHES)")
    ap.add_argument("--wish-iterations", type=int, default=25, help="MCTS iterations per decision in Wish")
    ap.add_argument("--table-games", type=int, default=4,
                    help="Wunschmaschine games with MCTS in every seat, for guess statistics")
    ap.add_argument("--random-table-games", type=int, default=100,
                    help="Wunschmaschine games with random Agents in every seat (they take no time)")
    ap.add_argument("--only", choices=sorted(GAMES), help="one game only")
    ap.add_argument("--tables-only", action="store_true", help="only the Wunschmaschine tables")
    ap.add_argument("--naming", type=int, default=120,
                    help="Wunschmaschine positions in which each agent names the wish (0: none)")
    ap.add_argument("--wish-mcts", help="the searching agent of the Wish matches, e.g. mcts:time=0.25;jobs=2")
    ap.add_argument("--seed", default="1", help="a whole number, or 'fresh' for one drawn now (printed)")
    args = ap.parse_args(argv)
    if args.seed == "fresh":
        import secrets
        args.seed = secrets.randbelow(1 << 30)
        print(f"seed {args.seed} (drawn fresh; --seed {args.seed} repeats this run)", flush=True)
    else:
        try:
            args.seed = int(args.seed)
        except ValueError:
            ap.error(f"--seed {args.seed}: a whole number, or 'fresh'")
    for name in sorted(GAMES) if args.only is None else [args.only]:
        iters = {"wish": args.wish_iterations, "three_wishes": args.three_wishes_iterations}.get(name, args.iterations)
        mcts = f"mcts:iterations={iters}" + {"wish": ";rollout=4", "three_wishes": THREE_WISHES}.get(name, "")
        if name == "wish" and args.wish_mcts:
            mcts = args.wish_mcts
        games = {"wish": args.wish_games, "three_wishes": args.three_wishes_games}.get(name, args.games)
        print(describe(load_game(str(REPO / GAMES[name][0]))), flush=True)
        for a, b in ((mcts, "random"), (mcts, "greedy"), ("greedy", "random")):
            if not args.tables_only:
                print(report(match(name, a, b, games, args.seed)), flush=True)
        if name == "wunschmaschine":
            if args.naming:
                print(naming([mcts, "greedy", "random"], args.naming, args.seed), flush=True)
            for spec, games in ((mcts, args.table_games), ("random", args.random_table_games)):
                print(table(name, spec, games, args.seed), flush=True)
    return 0


def naming_scenes(count: int, seed: int) -> list:
    """Wunschmaschine states in which one Agent has just won the slap race and must name the wish, as many
    after 1, 2, 3 and 4 rows: (state, seat, rows). A game is played at random up to a round's first slap
    decision; every Agent waits until the round has the rows wanted; then one Agent slaps, the others wait."""
    game = load_game(str(REPO / GAMES["wunschmaschine"][0]))
    rows_var = next(i for i, v in enumerate(game.gvars) if v.name == "rows")
    rng = random.Random(seed)
    scenes: list = []
    while len(scenes) < count:
        st = game.new_state(3, seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(1, 200)):
            action = st.legal_actions(st.to_move[0])
            st.apply(action[rng.randrange(len(action))])
            if st.is_over:
                break
        while not st.is_over and not _fresh_race(st, rows_var, 1):
            action = st.legal_actions(st.to_move[0])
            st.apply(action[rng.randrange(len(action))])
        if st.is_over:
            continue
        want = 1 + len(scenes) % 4
        while st.gvars[rows_var] < want:
            for p in list(st.to_move):
                st.apply("wait", p)
        seat = rng.choice(st.to_move)
        for p in list(st.to_move):
            st.apply("slap" if p == seat else "wait", p)
        scenes.append((st, seat, want))
    return scenes


def _fresh_race(st, rows_var: int, rows: int) -> bool:
    """A slap decision nobody has answered yet, after `rows` rows."""
    d = st.decision
    return (d is not None and not d.answers and st.gvars[rows_var] == rows
            and [a.label for a in st.legal_actions(st.to_move[0])] == ["slap", "wait"])


def naming(specs: list, count: int, seed: int) -> str:
    """How often each agent names the wish right, by the rows laid: deduction alone, without the slap race.
    For comparison, the best anyone could do: the item most often wished for in 400 samples of the Agent's
    information set (the announcements and the Machine's choice kept true)."""
    scenes = naming_scenes(count, seed)
    lines = [f"wunschmaschine: naming the wish in {count} positions (a random name is right 1 time in 9)"]
    for spec in specs + ["most likely item"]:
        start, right, seen = time.time(), {}, {}
        for i, (st, seat, rows) in enumerate(scenes):
            s = st.clone()
            if spec == "most likely item":
                action = _most_likely(s, seat, random.Random(seed + i))
            else:
                action = ask(make_agent(spec, seat, agent_seed(seed + i, seat)), s, seat)
            before = len(s.log)
            s.apply(action)
            seen[rows] = seen.get(rows, 0) + 1
            right[rows] = right.get(rows, 0) + any("guessed right" in x for x in s.log_lines(None, before))
        total = sum(right.values())
        lo, hi = wilson(total, len(scenes))
        by_rows = ", ".join(f"{r} rows {100 * right[r] / seen[r]:.0f}%" for r in sorted(seen))
        lines.append(f"  {spec}: {100 * total / len(scenes):.0f}% right [{100 * lo:.0f}–{100 * hi:.0f}%] "
                     f"({by_rows}), {time.time() - start:.0f} s")
    return "\n".join(lines)


def _most_likely(st, seat: int, rng):
    """The name of the item wished for most often in samples of the seat's information set."""
    info = InfoSet(st, seat)
    votes: dict = {}
    for _ in range(400):
        s = info.sample(rng)
        wish = s.zones[s.lay.slot_names.index("wish")][0]
        item = s.game.card_defs[s.ids.of[wish]].fields["items"][0]
        votes[item] = votes.get(item, 0) + 1
    best = max(sorted(votes), key=votes.get)
    return next(a for a in st.legal_actions(seat) if a.label == f"guess {best}")


def table(name: str, spec: str, games: int, seed: int) -> str:
    """Guesses at a table where every seat is the same agent (no weaker player to wait for)."""
    path, players = GAMES[name]
    game = load_game(str(REPO / path))
    guesses: dict = {}
    laid = [0]
    start = time.time()
    cut = sum(play_one(game, players, [spec] * players, seed * 10_000 + 5_000 + i, guesses, TABLE_DECISIONS,
                       laid) is None for i in range(games))
    right = sum(g.right for g in guesses.values())
    lines = [f"{name} ({players}p) every seat {spec}: {games} games, {time.time() - start:.0f} s"
             + (f"; {cut} cut off after {TABLE_DECISIONS} decisions" if cut else "")
             + (f"; {laid[0]} rows laid, {laid[0] / right:.1f} per right guess" if right else "")]
    lines += [g.line(who) for who, g in sorted(guesses.items())]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
