"""Behaviour fingerprints of every game: what a rework of the engine must leave byte for byte the same.

For every game file, variant and player count, a few seeded games are played to the end by random players,
and for a few more cases by the searching agents (greedy, MCTS). Each game is summed up as one SHA-256 over
everything a player or a reader of the log can see: the option labels at every decision (in their order),
the full log, each player's own reading of the log, the scores and the winners. `tests/golden/games.json`
holds the sums; `tests/test_golden.py` plays the games again and compares.

A change that is meant to change a game (its rules, or how a log line or label reads) regenerates them:

    python tests/golden.py --write
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import load_game  # noqa: E402
from interpreter.agents import make_agents, play  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden" / "games.json"
GAMES = ("games/wunschmaschine.wish", "games/three_wishes.wish", "games/wish.wish")
RANDOM_SEEDS = 6
AGENT_CASES = (  # (game, variant, players, agents, seeds)
    ("games/wunschmaschine.wish", None, 3, "mcts:iterations=12;rollout=3,greedy:samples=2,random", 2),
    ("games/three_wishes.wish", None, 3, "mcts:iterations=20;rollout=0;probe=1,greedy:samples=2,random", 3),
    ("games/wish.wish", None, 2, "mcts:iterations=4;rollout=2,greedy:samples=1", 1),
)


def random_game(game, players: int, seed: int) -> str:
    """The fingerprint of a random game: every decision's options, every reader's log, the result."""
    h = hashlib.sha256()
    st = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    while not st.is_over:
        actions = st.legal_actions()
        h.update(("\x1e".join(f"{a.player}:{a.label}" for a in actions) + "\n").encode())
        st.apply(rng.choice(actions))
    return _result(h, st)


def agents_game(game, players: int, specs: str, seed: int) -> str:
    h = hashlib.sha256()
    st = game.new_state(players, seed=seed)
    taken = play(st, make_agents(specs.split(","), players, seed))
    h.update("\n".join(f"{a.player}:{a.label}" for a in taken).encode())
    return _result(h, st)


def _result(h, st) -> str:
    for reader in [None, *range(st.n)]:
        h.update(("\n".join(st.log_lines(reader)) + "\n\x1d").encode())
    h.update(json.dumps([st.scores(), st.winners()]).encode())
    return h.hexdigest()[:24]


def cases():
    """(key, function giving the fingerprint) of every case."""
    for path in GAMES:
        base = load_game(str(ROOT / path))
        for variant in [None, *base.variants]:
            game = load_game(str(ROOT / path), variant)
            for players in range(game.min_players, game.max_players + 1):
                for seed in range(RANDOM_SEEDS):
                    key = f"{path}|{variant or ''}|{players}p|random|{seed}"
                    yield key, (lambda g=game, n=players, s=seed: random_game(g, n, s))
    for path, variant, players, specs, seeds in AGENT_CASES:
        game = load_game(str(ROOT / path), variant)
        for seed in range(seeds):
            key = f"{path}|{variant or ''}|{players}p|{specs}|{seed}"
            yield key, (lambda g=game, n=players, a=specs, s=seed: agents_game(g, n, a, s))


def compute() -> dict:
    return {key: fn() for key, fn in cases()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write tests/golden/games.json")
    args = ap.parse_args(argv)
    sums = compute()
    if args.write:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(sums, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(sums)} fingerprints to {GOLDEN.relative_to(ROOT)}")
        return 0
    want = json.loads(GOLDEN.read_text())
    bad = [k for k in sorted(set(want) | set(sums)) if want.get(k) != sums.get(k)]
    for k in bad:
        print(f"differs: {k}")
    print(f"{len(sums) - len(bad)} of {len(sums)} fingerprints agree")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
