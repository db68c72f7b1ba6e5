"""The text of `wishdsl simulate`: a summary of one run, or two runs side by side with their differences."""
from __future__ import annotations

import shlex

from .summary import play_table

SEEDS_SHOWN = 10  # seeds of cut-off games named in the text (--json names them all)


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def ci(row: dict) -> str:
    return f"[{pct(row['low']).strip()}, {pct(row['high']).strip()}]"


def num(x) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def spread(d: dict) -> str:
    if not d.get("n"):
        return "no data"
    return (f"mean {d['mean']:.2f}  median {num(d['median'])}  quartiles {num(d['q1'])}–{num(d['q3'])}  "
            f"range {num(d['min'])}–{num(d['max'])}")


def header(doc: dict) -> str:
    agents = ",".join(doc["agents"])
    return (f"{doc['title']}: {doc['players']} players, {doc['games']} games, seed {doc['seed']}, agents {agents}")


def rate_line(name: str, row: dict, width: int = 18) -> str:
    count = f"({num(row['wins'])} of {row['games']})"
    return f"  {name:<{width}} {pct(row['rate'])}  {ci(row):<16} {count:<16}"


def render(doc: dict) -> str:
    """The summary of one run."""
    out = [header(doc), *cut_lines(doc), "",
           "Win rate per seat (95% Wilson interval; a win shared by k players counts 1/k):"]
    for s in doc["seats"]:
        out.append(rate_line(f"seat {s['seat']}", s) + f"  score {spread(s['score'])}")
    if doc["no_winner"] or doc["shared_wins"]:
        out.append(f"  games without a winner: {doc['no_winner']}; with a shared win: {doc['shared_wins']}")
    if len(doc["agents"]) > 1 or len(doc["agent_rates"]) > 1:
        out += ["", "Win rate per agent (seats rotate between games):"]
        out += [rate_line(a["agent"], a) for a in doc["agent_rates"]]
    out += strength_lines(doc["agent_rates"])
    several = len(doc["agent_rates"]) > 1
    if several:
        out += play_lines("How each agent played (mean per seat and game: actions taken, points by scoring step):",
                          doc["agent_rates"], "agent")
    for name, rows in doc["roles"].items():
        out += ["", f"Win rate per role ({name}):"]
        out += [rate_line(r["role"], r) + f"  score mean {r['score']['mean']:.2f}" + several * played_by(r)
                for r in rows]
        out += play_lines(f"How each role was played ({name}; mean per player and game: actions taken, points by "
                          "scoring step):", rows, "role")
    sc = doc["scores"]
    out += ["", "Scores:", f"  every player: {spread(sc['all'])}", f"  winners:      {spread(sc['winners'])}"]
    out += histogram_lines(sc["histogram"])
    out += points_lines(doc.get("points") or [])
    ln = doc["length"]
    out += ["", "Game length:", f"  decisions: {spread(ln['decisions'])}", f"  actions:   {spread(ln['actions'])}"]
    out += coverage_lines(doc)
    return "\n".join(out)


def cut_lines(doc: dict, side: str = "") -> list:
    """The games cut off after the decision limit (left out of every figure; in a comparison, of both sides), with
    the command that replays one."""
    cut = doc.get("cut_off") or []
    if not cut:
        return []
    seeds = ", ".join(str(c["seed"]) for c in cut[:SEEDS_SHOWN]) + (", …" if len(cut) > SEEDS_SHOWN else "")
    out = [f"  {side}{len(cut)} games cut off after {doc['max_decisions']:,} decisions, left out of every figure "
           f"(seeds {seeds})"]
    if not doc.get("ablate"):
        variant = f" --variant {shlex.quote(doc['variant'])}" if doc.get("variant") else ""
        out.append(f"  replay one: wishdsl run {shlex.quote(doc['game'])}{variant} --players {doc['players']} "
                   f"--seed {cut[0]['seed']} --agents {shlex.quote(','.join(cut[0]['agents']))}")
    return out


def points_lines(steps: list) -> list:
    """Where the points come from: each scoring step's mean per player and per winner, and its share."""
    if not steps:
        return []
    width = max(len(s["step"]) for s in steps)
    out = ["", "Points by scoring step (mean per player; per winner; share of all points):"]
    for s in steps:
        won = f"{s['winners']['mean']:7.2f}" if s["winners"].get("n") else "      —"
        out.append(f"  {s['step']:<{width}}  {s['all']['mean']:7.2f}  {won}  {pct(s['share'])}")
    return out


def strength_lines(rates: list) -> list:
    """How well each agent played: balance figures are only as good as the players behind them."""
    out = ["", "Strength of the agents (every figure here describes games played this well):"]
    for a in rates:
        won = a["winning_score"]
        when = f", in the games it won {won['mean']:.2f}" if won.get("n") else ", no game won"
        out.append(f"  {a['agent']:<18} score mean {a['score']['mean']:.2f} (quartiles {num(a['score']['q1'])}–"
                   f"{num(a['score']['q3'])}){when}  ({a['games']} seats)")
    return out


def play_lines(title: str, rows: list, key: str) -> list:
    """How each role (or agent) played: its players' actions and points by scoring step, a column per row of
    `rows`, headed by its `key`."""
    table = play_table(rows)
    if not table:
        return []
    width = max(len(label) for label, _ in table)
    cols = [max(len(r[key]), 6) for r in rows]
    out = ["", title, "  " + " " * width + "".join(f"  {r[key]:>{w}}" for r, w in zip(rows, cols))]
    for label, values in table:
        out.append(f"  {label:<{width}}" + "".join(f"  {v:>{w}.2f}" for v, w in zip(values, cols)))
    return out


def played_by(row: dict) -> str:
    return "  played by " + ", ".join(f"{spec} ×{k}" for spec, k in row["agents"].items())


def histogram_lines(bins: list, width: int = 40) -> list:
    if not bins:
        return []
    top = max(c for _, _, c in bins) or 1
    out = []
    for lo, hi, c in bins:
        label = num(lo) if hi - lo <= 1 else f"{num(lo)}–{num(hi)}"
        out.append(f"  {label:>9} | {'#' * round(width * c / top):<{width}} {c}")
    return out


def coverage_lines(doc: dict) -> list:
    fired, never = doc["coverage"], doc["never"]
    n = doc["games"]
    out = ["", f"Rule coverage: {len(fired)} of {len(fired) + len(never)} rules fired"
               + " (static: in play at the end of a game):" * bool(fired)]
    for r in fired:
        out.append(f"  {r['kind']:<9} {r['name']:<44} {r['count']:>8} times, in {r['games']} of {n} games")
    if never:
        out.append(f"Never fired ({len(never)}):")
        out += [f"  {r['kind']:<9} {r['name']}" for r in never]
    return out


def diff_text(d: dict, percent: bool = True) -> str:
    f = (lambda x: f"{100 * x:+.1f}%") if percent else (lambda x: f"{x:+.2f}")
    star = "  *" if d["p"] < 0.05 else ""
    return f"{f(d['diff'])} [{f(d['low'])}, {f(d['high'])}] p={d['p']:.3g}{star}"


def render_compare(doc: dict) -> str:
    """Two runs on the same seeds, side by side, with their differences (other − base)."""
    base, other, diff = doc["base"], doc["other"], doc["difference"]
    out = [f"base:  {header(base)}", *cut_lines(base, "base: "), f"other: {header(other)}",
           *cut_lines(other, "other: "), "",
           "Win rate per seat (95% Wilson intervals); difference other − base: paired on the same seeds, "
           "95% interval, z-test (* p < 0.05):"]
    for b, o, d in zip(base["seats"], other["seats"], diff["seats"]):
        out.append(f"  seat {b['seat']:<3} {pct(b['rate'])} {ci(b):<16} {pct(o['rate'])} {ci(o):<16} "
                   f"{diff_text(d['win_rate'])}")
    out += ["", "Mean score per seat; difference paired on the same seeds:"]
    for b, o, d in zip(base["seats"], other["seats"], diff["seats"]):
        out.append(f"  seat {b['seat']:<3} {b['score']['mean']:8.2f} {o['score']['mean']:8.2f}   "
                   f"{diff_text(d['score'], percent=False)}")
    for name, rows in diff["roles"].items():
        brows = {r["role"]: r for r in base["roles"].get(name, [])}
        orows = {r["role"]: r for r in other["roles"][name]}
        out += ["", f"Win rate per role ({name}); difference: two-proportion z-test:"]
        for d in rows:
            b, o = brows[d["role"]], orows[d["role"]]
            out.append(f"  {d['role']:<18} {pct(b['rate'])} {ci(b):<16} {pct(o['rate'])} {ci(o):<16} {diff_text(d)}")
        out += ["", f"Mean score per role ({name}); difference paired on the same seeds (the seats that held the "
                    "role in both):"]
        for d in rows:
            b, o = brows[d["role"]], orows[d["role"]]
            out.append(f"  {d['role']:<18} {b['score']['mean']:8.2f} {o['score']['mean']:8.2f}   "
                       f"{diff_text(d['score'], percent=False)}")
    if len(diff["agents"]) > 1:
        out += ["", "Win rate per agent; difference: two-proportion z-test:"]
        out += [f"  {d['agent']:<18} {diff_text(d)}" for d in diff["agents"]]
    out += ["", "Rule coverage:"]
    for label, doc_ in (("base", base), ("other", other)):
        never = ", ".join(r["name"] for r in doc_["never"]) or "none"
        out.append(f"  {label}: {len(doc_['coverage'])} rules fired; never: {never}")
    return "\n".join(out)


__all__ = ["render", "render_compare"]
