"""`--report FILE.html`: a self-contained page (inline CSS, SVG charts, no script, no network) of a simulation.

The charts are laid out here as numbers; the template (`templates/report.html.j2`) only places them. It is
rendered by a sandboxed Jinja environment with autoescaping, so names from game files cannot inject markup.
"""
from __future__ import annotations

from pathlib import Path

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from .summary import play_table

TEMPLATES = Path(__file__).resolve().parent / "templates"
COLOURS = ("#3b6ea8", "#d0803a")
WIDTH, LABEL, ROW, PAD = 640, 170, 22, 8


def bar_chart(rows: list, series: int = 1, upper: float = 1.0, percent: bool = True) -> dict:
    """rows: [(label, [(value, low, high) per series])] → geometry of a horizontal bar chart with whiskers."""
    top = max([upper] + [hi for _, vals in rows for _, _, hi in vals if hi is not None]) or 1.0
    span = WIDTH - LABEL - 60
    scale = span / top
    group = ROW * series + PAD
    bars = []
    for i, (label, vals) in enumerate(rows):
        y0 = PAD + i * group
        items = []
        for k, (v, lo, hi) in enumerate(vals):
            y = y0 + k * ROW
            items.append({"y": y, "w": max(v * scale, 0.5), "colour": COLOURS[k % len(COLOURS)],
                          "text": f"{100 * v:.1f}%" if percent else f"{v:.3g}", "tx": LABEL + v * scale + 4,
                          "lo": None if lo is None else LABEL + lo * scale,
                          "hi": None if hi is None else LABEL + hi * scale, "mid": y + ROW / 2 - 1})
        bars.append({"label": label, "ly": y0 + (ROW * series) / 2 + 4, "parts": items})
    ticks = [{"x": LABEL + t * span / 4, "text": f"{100 * t * top / 4:.0f}%" if percent else f"{t * top / 4:.3g}"}
             for t in range(5)]
    height = PAD + len(rows) * group + 18
    return {"width": WIDTH, "height": height, "label": LABEL, "bars": bars, "ticks": ticks, "axis": height - 16}


def histogram_chart(bins: list) -> dict:
    """[(low, high, count)] → vertical bars."""
    if not bins:
        return {"width": WIDTH, "height": 40, "bars": []}
    top = max(c for _, _, c in bins) or 1
    w = (WIDTH - 40) / len(bins)
    bars = []
    for i, (lo, hi, c) in enumerate(bins):
        h = 160 * c / top
        name = f"{lo:g}" if hi - lo <= 1 else f"{lo:g}–{hi:g}"
        bars.append({"x": 20 + i * w, "w": max(w - 2, 1), "y": 180 - h, "h": h, "count": c, "name": name,
                     "cx": 20 + i * w + w / 2})
    return {"width": WIDTH, "height": 215, "bars": bars}


def rate_rows(rows: list, key) -> list:
    return [(key(r), [(r["rate"], r["low"], r["high"])]) for r in rows]


def single(doc: dict) -> dict:
    """The charts of one run."""
    charts = [("Win rate per seat", bar_chart(rate_rows(doc["seats"], lambda r: f"seat {r['seat']}")))]
    if len(doc["agent_rates"]) > 1:
        charts.append(("Win rate per agent", bar_chart(rate_rows(doc["agent_rates"], lambda r: r["agent"]))))
    for name, rows in doc["roles"].items():
        charts.append((f"Win rate per role ({name})", bar_chart(rate_rows(rows, lambda r: r["role"]))))
    return {"doc": doc, "charts": charts, "histogram": histogram_chart(doc["scores"]["histogram"]),
            "role_play": {name: play_table(rows) for name, rows in doc["roles"].items()},
            "agent_play": play_table(doc["agent_rates"]) if len(doc["agent_rates"]) > 1 else []}


def paired(doc: dict) -> dict:
    """The charts of two runs on the same seeds."""
    base, other = doc["base"], doc["other"]

    def two(brows, orows, key):
        by = {key(r): r for r in brows}
        return [(key(o), [(by[key(o)]["rate"], by[key(o)]["low"], by[key(o)]["high"]),
                          (o["rate"], o["low"], o["high"])]) for o in orows if key(o) in by]
    charts = [("Win rate per seat", bar_chart(two(base["seats"], other["seats"], lambda r: f"seat {r['seat']}"), 2))]
    for name, rows in other["roles"].items():
        charts.append((f"Win rate per role ({name})",
                       bar_chart(two(base["roles"].get(name, []), rows, lambda r: r["role"]), 2)))
    return {"doc": doc, "charts": charts, "base": single(base), "other": single(other)}


def environment() -> SandboxedEnvironment:
    env = SandboxedEnvironment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                               trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["pct"] = lambda x: f"{100 * x:.1f}%"
    env.filters["signed"] = lambda x, percent=True: f"{100 * x:+.1f}%" if percent else f"{x:+.2f}"
    env.filters["num"] = lambda x: f"{x:.3g}" if isinstance(x, float) else str(x)
    return env


def render_report(doc: dict) -> str:
    """The HTML page of a summary (one run) or of a comparison (`doc['mode']` 'compare' or 'ablate')."""
    tpl = environment().get_template("report.html.j2")
    if "base" in doc:
        return tpl.render(mode=doc["mode"], one=None, two=paired(doc), colours=COLOURS)
    return tpl.render(mode="single", one=single(doc), two=None, colours=COLOURS)


__all__ = ["bar_chart", "histogram_chart", "render_report"]
