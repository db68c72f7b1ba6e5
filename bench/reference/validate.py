#!/usr/bin/env python3
"""Validate the hand-written references against the engine: random games on both, same statistics.

    python validate.py [--games 2000] [--ref-games N] [--seed 1] [--only wunschmaschine|three_wishes]
                       [--players 3,6] [--json OUT]

Per game and player count: decisions per game, game length (rounds and rows for Wunschmaschine, turns for
3 Wishes), what the decisions were, how games end, and the share of games each seat is among the winners.
Each row shows engine and reference means with 95% intervals and the z-score of the difference; |z| > 3 on
a row is a disagreement worth a look (with ~25 rows per table, |z| > 2 on one row is expected by chance).
"""
from __future__ import annotations

import argparse
import json
import random
import time

import common
import ref_three_wishes as T
import ref_wunschmaschine as W


# ---------------------------------------------------------------------------- Wunschmaschine
def wm_engine_game(game, n, seed, rng):
    s = game.new_state(players=n, seed=seed)
    st = dict(decisions=0, rounds=0, slap_answers=0, slaps=0, guesses=0)
    while not s.is_over:
        acts = s.legal_actions()
        a = rng.choice(acts)
        lbl = a.label  # read while its decision is pending (a label is built on demand, as OpenSpiel's)
        s.apply(a)
        st["decisions"] += 1
        if lbl.startswith("wish for"):
            st["rounds"] += 1
        elif lbl in ("slap", "wait"):
            st["slap_answers"] += 1
            st["slaps"] += lbl == "slap"
        elif lbl.startswith("guess"):
            st["guesses"] += 1
    st["rows"] = st["slap_answers"] / (n - 1)
    st["right"] = sum(1 for line in s.log_lines() if line.endswith("guessed right"))
    st["supply_left"] = 20 - sum(s.scores())
    st["max_coins"] = max(s.scores())
    return st, s.winners()


def wm_ref_game(n, seed, rng):
    g = W.new_game(n, seed)
    st = dict(decisions=0, rounds=0, slap_answers=0, slaps=0, guesses=0, right=0)
    while not g.over:
        phase = g.phase
        i = rng.randrange(len(g.legal()))
        if phase == W.WISH:
            st["rounds"] += 1
        elif phase == W.SLAP:
            st["slap_answers"] += 1
            st["slaps"] += i == 0
        else:
            st["guesses"] += 1
            st["right"] += W.CARD_ITEMS[g.wish] == 1 << i
        g.apply(i)
        st["decisions"] += 1
    st["rows"] = st["slap_answers"] / (n - 1)
    st["supply_left"] = g.supply
    st["max_coins"] = max(g.coins)
    return st, g.winners()


# ---------------------------------------------------------------------------- 3 Wishes
def tw_engine_game(game, n, seed, rng):
    s = game.new_state(players=n, seed=seed)
    st = dict(decisions=0, look=0, exchange=0, shuffle=0, declare=0, end_turn=0, peek=0)
    last = None
    while not s.is_over:
        a = rng.choice(s.legal_actions())
        lbl = a.label  # read while its decision is pending
        s.apply(a)
        st["decisions"] += 1
        last = lbl
        key = ("exchange" if lbl.startswith("exchange") else "peek" if lbl.startswith("peek at")
               else "shuffle" if lbl == "shuffle_hand" else lbl)
        st[key] += 1
    ti = s.game.pvar_index["turns"]  # internal: the per-player `turns` variable, for the game length
    st["turns"] = sum(s.pvars[p][ti] for p in range(n))
    st["ended_by_set"] = int(last is not None and last.startswith("exchange"))
    st["nobody_wins"] = int(not s.winners())
    st["score_sum"] = sum(s.scores())
    return st, s.winners()


def tw_ref_game(n, seed, rng):
    g = T.new_game(n, seed)
    st = dict(decisions=0, look=0, exchange=0, shuffle=0, declare=0, end_turn=0, peek=0)
    names = {T.LOOK: "look", T.EXCHANGE: "exchange", T.SHUFFLE: "shuffle", T.DECLARE: "declare",
             T.END_TURN: "end_turn", T.PEEK: "peek"}
    last = None
    while not g.over:
        opts = g.legal()
        i = rng.randrange(len(opts))
        last = opts[i][0]
        st[names[last]] += 1
        g.apply(i)
        st["decisions"] += 1
    st["turns"] = sum(g.turns)
    st["ended_by_set"] = int(last == T.EXCHANGE)
    st["nobody_wins"] = int(not g.winners())
    st["score_sum"] = sum(g.scores())
    return st, g.winners()


# ---------------------------------------------------------------------------- comparison
def collect(play, n, games, seed_base, rng_seed):
    rng = random.Random(rng_seed)
    rows, wins = [], [0] * n
    seat_win = [[] for _ in range(n)]
    shared = []
    for i in range(games):
        st, winners = play(n, seed_base + i, rng)
        rows.append(st)
        for p in range(n):
            seat_win[p].append(1.0 if p in winners else 0.0)
        shared.append(1.0 if len(winners) > 1 else 0.0)
    return rows, seat_win, shared


def compare(title, n, eng, ref, out):
    (erows, ewin, eshared), (rrows, rwin, rshared) = eng, ref
    print(f"\n{title}, {n} players: {len(erows)} engine games, {len(rrows)} reference games")
    print(f"  {'statistic':<22}{'engine':>18}{'reference':>18}{'z':>7}")
    table = []

    def row(name, a, b):
        ma, ca = common.mean_ci(a)
        mb, cb = common.mean_ci(b)
        z = common.z_diff(a, b)
        flag = "  <-- |z|>3" if abs(z) > 3 else ""
        print(f"  {name:<22}{ma:>10.3f} ±{ca:<6.3f}{mb:>10.3f} ±{cb:<6.3f}{z:>7.2f}{flag}")
        table.append(dict(stat=name, engine=ma, engine_ci=ca, reference=mb, reference_ci=cb, z=z))

    for key in erows[0]:
        row(key + "/game", [float(r[key]) for r in erows], [float(r[key]) for r in rrows])
    for p in range(n):
        row(f"seat {p + 1} among winners", ewin[p], rwin[p])
    row("shared win", eshared, rshared)
    out.append(dict(game=title, players=n, rows=table))


CASES = (("wunschmaschine", "Wunschmaschine", (3, 4, 6), wm_engine_game, wm_ref_game),
         ("three_wishes", "3 Wishes", (3, 4, 5), tw_engine_game, tw_ref_game))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--ref-games", type=int, default=None,
                    help="reference games (default: --games); a larger sample pins down the expectation")
    ap.add_argument("--players", default=None, help="player counts to run, e.g. 3,6 (default: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=["wunschmaschine", "three_wishes"])
    ap.add_argument("--json", help="also write the tables as JSON here")
    args = ap.parse_args(argv)
    out: list = []
    t0 = time.perf_counter()
    rg = args.ref_games or args.games
    wanted = None if args.players is None else {int(x) for x in args.players.split(",")}
    for key, title, counts, engine_game, ref_game in CASES:
        if args.only not in (None, key):
            continue
        game = common.load(key)
        for n in counts:
            if wanted is not None and n not in wanted:
                continue
            eng = collect(lambda n, s, r: engine_game(game, n, s, r), n, args.games, args.seed, args.seed)
            ref = collect(ref_game, n, rg, 10**6 + args.seed, 10**6 + args.seed)
            compare(title, n, eng, ref, out)
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
