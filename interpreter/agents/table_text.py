"""A game's table (its `table { … }` declaration, as `view(player)["table"]` gives it) as lines of text for the
terminal (issue 19): boards as a grid of cells, one line per player's panel, the shared values, each zone with
the cards the player sees ('?' for the others). Nothing here reads the state: only the view.
"""
from __future__ import annotations

import textwrap
from typing import Callable, Optional

WIDTH = 100


def table_lines(table: dict, me: int, describe: Optional[Callable] = None, width: int = WIDTH) -> list:
    """The lines of `table` for player `me`; `describe(card name)` gives a card's one-line summary for the
    cards of `me`'s own zones (None: names only)."""
    out: list = []
    for board in table.get("boards", []):
        out.extend(board_lines(board, width))
    for panel in table.get("panels", []):
        for row in panel["players"]:
            who = f"player {row['player'] + 1}" + (" (you)" if row["player"] == me else "")
            out.extend(textwrap.wrap(f"{who}: {values_text(row['items']) or '—'}", width,
                                     subsequent_indent="    "))
            out.extend(zone_lines(row["zones"], me, describe, width))
    for row in table.get("score", []):
        who = f"player {row['player'] + 1}" + (" (you)" if row["player"] == me else "")
        seen = [x for x in row["points"] if x["value"] is not None]
        total = "?" if not seen else str(row["known"]) + ("" if row["complete"] else " + ?")
        if len(row["points"]) > 1:
            parts = " · ".join(f"{step_name(x['label'])} {'?' if x['value'] is None else x['value']}"
                               for x in row["points"])
            out.extend(textwrap.wrap(f"score so far, {who}: {total} ({parts})", width, subsequent_indent="    "))
        else:
            out.append(f"score so far, {who}: {total}")
    shared = table.get("shared")
    if shared:
        text = values_text(shared["items"])
        if text:
            out.extend(textwrap.wrap(text, width))
        out.extend(zone_lines(shared["zones"], me, describe, width))
    return out


def step_name(label: str) -> str:
    """A scoring step's short name: its number when its label starts with one ("1. Victory Points …" → "1:")."""
    number = label.split(".", 1)[0]
    return f"{number}:" if number.isdigit() else label


def values_text(items: list) -> str:
    return " · ".join(i["value"] if i["value"] == i["label"] or not i["label"] else f"{i['label']} {i['value']}"
                      for i in items)


def board_lines(board: dict, width: int) -> list:
    """The board's rows side by side: each cell its name, then its values, wrapped to the cell's width."""
    out = []
    for row in board["rows"]:
        n = max(1, len(row))
        w = max(12, (width - (n - 1) * 3) // n)
        cells = []
        for cell in row:
            lines = [cell["cell"].upper()]
            for item in cell["items"]:
                text = item["value"] if item["value"] == item["label"] or not item["label"] else \
                    f"{item['label']}: {item['value']}"
                lines.extend(textwrap.wrap(text, w, subsequent_indent=" "))
            for z in cell.get("zones", []):
                lines.extend(textwrap.wrap(f"{z['zone']}: {cards_text(z['cards'])}", w, subsequent_indent=" "))
            cells.append(lines)
        height = max(len(c) for c in cells) if cells else 0
        for i in range(height):
            out.append(" │ ".join((c[i] if i < len(c) else "").ljust(w) for c in cells).rstrip())
        out.append("─" * min(width, n * w + (n - 1) * 3))
    return out


def zone_lines(zones: list, me: int, describe: Optional[Callable], width: int) -> list:
    out = []
    for z in zones:
        n = z.get("rows_of")
        if n and z["cards"]:
            rows = [z["cards"][i:i + n] for i in range(0, len(z["cards"]), n)]
            for k, row in enumerate(rows):
                name = f"row {len(rows) - k}" + (" (newest)" if k == 0 and len(rows) > 1 else "")
                out.extend(textwrap.wrap(f"  {z['zone']}, {name}: {cards_text(row)}", width,
                                         subsequent_indent="      "))
            continue
        out.extend(textwrap.wrap(f"  {z['zone']} [{len(z['cards'])}]: {cards_text(z['cards'])}", width,
                                 subsequent_indent="      "))
        if z.get("owner") == me and describe is not None:
            for c in z["cards"]:
                line = None if c.get("hidden") else describe(c["name"])
                if line:
                    out.extend(textwrap.wrap(f"    • {c['name']}: {line}", width, subsequent_indent="        "))
    return out


def cards_text(cards: list, facing: bool = False) -> str:
    """Visible card names (with their marks, and with `facing` "(face down)" for a known card lying face down);
    runs of hidden cards as '?' or '? ×N'."""
    if not cards:
        return "(empty)"
    parts, hidden = [], 0
    for c in cards:
        if c.get("hidden"):
            hidden += 1
            continue
        if hidden:
            parts.append("?" if hidden == 1 else f"? ×{hidden}")
            hidden = 0
        parts.append(c["name"] + "".join(f" [{m}]" for m in c.get("marks", ()))
                     + (" (face down)" if facing and not c.get("face_up", True) else ""))
    if hidden:
        parts.append("?" if hidden == 1 else f"? ×{hidden}")
    return ", ".join(parts)
