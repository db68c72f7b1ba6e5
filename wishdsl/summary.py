"""Summaries of simulated games (plain data, the `--json` document) and comparisons of two runs on the same seeds.

A win shared by k players counts 1/k to each of them, so the win rates of the seats of a game add up to 1 (or
to 0 when nobody wins). Win rates carry Wilson 95% intervals. Comparisons: per seat, a paired test on the same
seeds (mean difference of the per-game win shares, normal interval and z-test); per agent and per role, whose
games are not paired, a two-proportion z-test (pooled) with an unpooled Wald interval.
"""
from __future__ import annotations

from collections import defaultdict

from interpreter.agents.search import margin

from .stats import describe, histogram, paired_difference, two_proportions, wilson


def shares(record: dict, players: int) -> list:
    """Each seat's share of the win of one game."""
    w = record["winners"]
    return [1 / len(w) if p in w else 0.0 for p in range(players)]


def rate(wins: float, n: int) -> dict:
    low, high = wilson(wins, n)
    return {"wins": round(wins, 6), "games": n, "rate": wins / n if n else 0.0, "low": low, "high": high}


def role_columns(records: list) -> list:
    """Per-player enum variables that are roles: set during setup, unchanged until the end of every game,
    never none, and not the same value everywhere."""
    if not records:
        return []
    out = []
    for name in records[0]["roles"]:
        values = [r["roles"].get(name) for r in records]
        if any(v is None or None in v for v in values):
            continue
        if len({x for v in values for x in v}) > 1:
            out.append(name)
    return out


def summarise(records: list, players: int, rows: list, display: dict, meta: dict) -> dict:
    """Everything the summary shows. `rows` is coverage.universe(game); `display` maps enum members to names."""
    n = len(records)
    share = [shares(r, players) for r in records]
    seats = []
    for p in range(players):
        scores = [r["scores"][p] for r in records]
        seats.append({"seat": p + 1, **rate(sum(s[p] for s in share), n), "score": describe(scores)})
    roles = {}
    order = taken_order(records, rows)
    for name in role_columns(records):
        acc: dict = defaultdict(lambda: [0.0, 0, [], defaultdict(int), []])
        for r, s in zip(records, share):
            for p, value in enumerate(r["roles"][name]):
                acc[value][0] += s[p]
                acc[value][1] += 1
                acc[value][2].append(r["scores"][p])
                acc[value][3][r["agents"][p]] += 1
                acc[value][4].append(margin(r["scores"], p))  # its lead: what a search's reward weighs
        roles[name] = [{"role": display.get(v, str(v)), "value": v, **rate(w, k), "score": describe(sc),
                        "lead": describe(le), "agents": dict(sorted(by.items())),
                        **play_of(records, lambda r, p, name=name, v=v: r["roles"][name][p] == v, order)}
                       for v, (w, k, sc, by, le) in sorted(acc.items(), key=lambda kv: str(kv[0]))]
    all_scores = [x for r in records for x in r["scores"]]
    win_scores = [r["scores"][p] for r in records for p in r["winners"]]
    return {
        **meta, "games": n,
        "seats": seats,
        "agent_rates": agent_rates(records, share, order),
        "roles": roles,
        "no_winner": sum(1 for r in records if not r["winners"]),
        "shared_wins": sum(1 for r in records if len(r["winners"]) > 1),
        "scores": {"all": describe(all_scores), "winners": describe(win_scores),
                   "histogram": [list(b) for b in histogram(all_scores)]},
        "points": points_by_step(records),
        "length": {"decisions": describe([r["decisions"] for r in records]),
                   "actions": describe([r["actions"] for r in records])},
        **coverage(records, rows),
    }


def play_of(records: list, who, order: list) -> dict:
    """How the players `who(record, seat)` picks played: the actions they took (mean per game, for each action
    of `order`: those some player took, in the game's order) and their points by scoring step (mean per game, in
    the scoring's order; none when the game scores in one step) — for a role, which of its powers its players
    use and where its score comes from; for an agent, how its play differs from another's."""
    actions: dict = {}
    points: dict = {}
    seats = 0
    for r in records:
        for p in range(len(r["scores"])):
            if not who(r, p):
                continue
            seats += 1
            for action, k in r["taken"][p] if order else ():
                actions[action] = actions.get(action, 0) + k
            for step, got in r["points"][p]:
                points[step] = points.get(step, 0) + got
    return {"actions": {a: actions.get(a, 0) / seats for a in order},
            "points": {step: got / seats for step, got in points.items()} if len(points) > 1 else {}}


def taken_order(records: list, rows: list) -> list:
    """The actions some player took, in the game's order (`rows`: coverage.universe); none when a record has no
    actions per seat (from a worker of an older version)."""
    if not all("taken" in r for r in records):
        return []
    anyone = {action for r in records for seat in r["taken"] for action, _ in seat}
    return [action for kind, action, _ in rows if kind == "action" and action in anyone]


def play_table(rows: list) -> list:
    """[(label, [mean per row, …])]: the actions the players of each row of `rows` (roles or agents) took, then
    their points by scoring step (`play_of`), each label in the order the first row lists it."""
    labels: list = []
    for key, prefix in (("actions", ""), ("points", "points: ")):
        for r in rows:
            labels += [(key, prefix, x) for x in r.get(key, {}) if (key, prefix, x) not in labels]
    return [(prefix + x, [r.get(key, {}).get(x, 0.0) for r in rows]) for key, prefix, x in labels]


def points_by_step(records: list) -> list:
    """Where the points come from, per step of the game's scoring (in its order): each step's points per player
    and per winner, and its share of all points scored. Empty when the game scores in one step."""
    labels: list = []
    for r in records:
        for row in r["points"]:
            labels += [label for label, _ in row if label not in labels]
    if len(labels) < 2:
        return []
    every = {label: [] for label in labels}
    won = {label: [] for label in labels}
    for r in records:
        for p, row in enumerate(r["points"]):
            got = dict(row)
            for label in labels:
                every[label].append(got.get(label, 0))
                if p in r["winners"]:
                    won[label].append(got.get(label, 0))
    total = sum(sum(v) for v in every.values())
    return [{"step": label, "all": describe(every[label]), "winners": describe(won[label]),
             "share": sum(every[label]) / total if total else 0.0} for label in labels]


def agent_rates(records: list, share: list, order: list = ()) -> list:
    """Per agent spec: its win rate, and how well it plays (its score, and its score in the games it won), so
    that figures from weak players are not read as the game's balance; and how it played (`play_of`, the
    actions of `order`)."""
    acc: dict = defaultdict(lambda: [0.0, [], []])
    for r, s in zip(records, share):
        for p, spec in enumerate(r["agents"]):
            acc[spec][0] += s[p]
            acc[spec][1].append(r["scores"][p])
            if p in r["winners"]:
                acc[spec][2].append(r["scores"][p])
    return [{"agent": spec, **rate(w, len(scores)), "score": describe(scores), "winning_score": describe(won),
             **play_of(records, lambda r, p, spec=spec: r["agents"][p] == spec, order)}
            for spec, (w, scores, won) in sorted(acc.items())]


def coverage(records: list, rows: list) -> dict:
    """How often each rule fired (in total, and in how many games) and which never did."""
    fired, never = [], []
    for j, (kind, name, _) in enumerate(rows):
        total = sum(r["coverage"][j] for r in records)
        games = sum(1 for r in records if r["coverage"][j])
        (fired if total else never).append({"kind": kind, "name": name, "count": total, "games": games})
    return {"coverage": fired, "never": [{"kind": x["kind"], "name": x["name"]} for x in never]}


def compare(base_records: list, other_records: list, base: dict, other: dict, players: int) -> dict:
    """Differences other − base, on the same seeds: per seat (paired), per agent and per role (two proportions),
    and the mean score per seat and per role (paired)."""
    bs = [shares(r, players) for r in base_records]
    os_ = [shares(r, players) for r in other_records]
    seats = []
    for p in range(players):
        win = paired_difference([s[p] for s in bs], [s[p] for s in os_])
        score = paired_difference([r["scores"][p] for r in base_records], [r["scores"][p] for r in other_records])
        seats.append({"seat": p + 1, "win_rate": win, "score": score})
    games = same_games(base_records, other_records)
    roles = {}
    for name, rows in other["roles"].items():
        value_of = {r["role"]: r["value"] for r in rows}
        roles[name] = [dict(d, score=role_score_difference(games, name, value_of[d["role"]]))
                       for d in _unpaired(base["roles"].get(name, []), rows, "role")]
    return {"seats": seats, "agents": _unpaired(base["agent_rates"], other["agent_rates"], "agent"), "roles": roles}


def same_games(base_records: list, other_records: list) -> list:
    """(base record, other record) of each game both runs played (the same index, so the same seed)."""
    by_index = {r["index"]: r for r in base_records}
    return [(by_index[ro["index"]], ro) for ro in other_records if ro["index"] in by_index]


def role_score_difference(games: list, name: str, value) -> dict:
    """The mean score of a role's players, other − base, paired on the same seeds (`games`: `same_games`): each
    seat that held the role in a game of both runs (a variant may deal roles otherwise; such seats are left
    out)."""
    base_scores, other_scores = [], []
    for rb, ro in games:
        vb, vo = rb.get("roles", {}).get(name), ro["roles"].get(name)
        if vb is None or vo is None:
            continue
        for p, (x, y) in enumerate(zip(vb, vo)):
            if x == value == y:
                base_scores.append(rb["scores"][p])
                other_scores.append(ro["scores"][p])
    return paired_difference(base_scores, other_scores)


def _unpaired(base_rows: list, other_rows: list, key: str) -> list:
    by = {r[key]: r for r in base_rows}
    out = []
    for r in other_rows:
        b = by.get(r[key])
        if b is not None:
            out.append({key: r[key], **two_proportions(b["wins"], b["games"], r["wins"], r["games"])})
    return out


__all__ = ["agent_rates", "compare", "coverage", "play_of", "points_by_step", "rate", "play_table",
           "role_columns", "role_score_difference", "same_games", "shares", "summarise", "taken_order"]
