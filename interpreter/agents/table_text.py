"""A game's table (its `table { … }` declaration, as `view(player)["table"]` gives it) as lines of text for the
terminal (issue 19): a board as a grid of cells, each cell's name in the rule above it; one paragraph per
player's panel (their values, their score so far, their zones); the shared values and zones; the cards a
player sees ('?' for the others). Nothing here reads the state: only the view.

How much the player's own cards say is a choice of the screen (see `screen.py`): `cards="full"` writes each
card's text in full, `"line"` one line each (cut with '…'), `"none"` the names only.
"""
from __future__ import annotations

import textwrap
from typing import Callable, Optional

WIDTH = 100


def table_lines(table: dict, me: int, describe: Optional[Callable] = None, width: int = WIDTH,
                cards: str = "full", empty: bool = True) -> list:
    """The lines of `table` for player `me`; `describe(card name)` gives a card's one-line summary for the
    cards of `me`'s own zones (None: names only); `empty=False` leaves out a panel's values that are 0 and its
    empty zones."""
    out: list = []
    for board in table.get("boards", []):
        out.extend(board_lines(board, width))
    scores = {row["player"]: row for row in table.get("score", [])}
    panels = table.get("panels", [])
    for panel in panels:
        for row in panel["players"]:
            out.extend(panel_lines(row, me, scores.get(row["player"]), describe, width, cards, empty))
    if scores and not panels:
        parts = [f"{who(p, me)} {score_text(row)}" for p, row in scores.items()]
        out.extend(textwrap.wrap("score so far: " + " · ".join(parts), width, subsequent_indent="    "))
    shared = table.get("shared")
    if shared:
        out.extend(shared_lines(shared, me, describe, width, cards))
    return out


def who(player: int, me: int) -> str:
    return f"player {player + 1}" + (" (you)" if player == me else "")


def score_text(row: dict) -> str:
    """A player's score so far: the points the looking player can count, '+ ?' for steps they cannot see."""
    if all(x["value"] is None for x in row["points"]):
        return "?"
    return str(row["known"]) + ("" if row["complete"] else " + ?")


def score_breakdown(table: dict, me: int) -> list:
    """Each player's score so far step by step, with the steps' names: what 'score' prints at the terminal."""
    out = []
    for row in table.get("score", []):
        out.append(f"{who(row['player'], me)}: {score_text(row)}")
        for x in row["points"]:
            out.append(f"    {x['label']}: {'?' if x['value'] is None else x['value']}")
    return out or ["This game declares no score."]


def item_text(item: dict, sep: str = " ") -> str:
    """A shown value with its label ("VP tokens 2"; `sep` ": " in a board's cell), or alone when it has no label
    or is a yes-or-no that shows its label."""
    return item["value"] if item["value"] == item["label"] or not item["label"] else \
        f"{item['label']}{sep}{item['value']}"


def values_text(items: list) -> list:
    return [item_text(i) for i in items]


def zone_name(z: dict) -> str:
    """A zone's name without its owner ("hand of player 2" in player 2's panel is their "hand")."""
    owner = z.get("owner")
    return z["zone"].removesuffix(f" of player {owner + 1}") if owner is not None else z["zone"]


def panel_lines(row: dict, me: int, score: Optional[dict], describe: Optional[Callable], width: int,
                cards: str, empty: bool = True) -> list:
    """One player's panel as a paragraph: their values, their score so far, their zones; then the texts of the
    cards in `me`'s own zones."""
    parts = values_text([i for i in row["items"] if empty or i["value"] != "0"])
    if score is not None:
        parts.append(f"score {score_text(score)}")
    flat = [z for z in row["zones"] if not z.get("rows_of")]
    parts.extend(f"{zone_name(z)}: {cards_text(z['cards'])}" for z in flat if empty or z["cards"])
    out = textwrap.wrap(f"{who(row['player'], me)}: {' · '.join(parts) or '—'}", width, subsequent_indent="    ")
    out.extend(rows_lines([z for z in row["zones"] if z.get("rows_of")], width))
    if row["player"] == me:
        out.extend(card_texts(flat, me, describe, width, cards))
    return out


def shared_lines(shared: dict, me: int, describe: Optional[Callable], width: int, cards: str) -> list:
    flat = [z for z in shared["zones"] if not z.get("rows_of")]
    parts = values_text(shared["items"]) + [f"{zone_name(z)}: {cards_text(z['cards'])}" for z in flat]
    out = textwrap.wrap(" · ".join(parts), width, subsequent_indent="    ") if parts else []
    out.extend(rows_lines([z for z in shared["zones"] if z.get("rows_of")], width))
    out.extend(card_texts(flat, me, describe, width, cards))
    return out


def rows_lines(zones: list, width: int) -> list:
    """A zone shown `by N`: one line per row, the newest first, each with what its `beside` list says of it."""
    out = []
    for z in zones:
        n, beside = z["rows_of"], z.get("beside") or []
        if not z["cards"]:
            out.append(f"  {zone_name(z)}: (empty)")
            continue
        rows = [z["cards"][i:i + n] for i in range(0, len(z["cards"]), n)]
        for k, row in enumerate(rows):
            number = len(rows) - k
            name = f"row {number}" + (" (newest)" if k == 0 and len(rows) > 1 else "")
            said = f" — {beside[number - 1]}" if number <= len(beside) else ""
            out.extend(textwrap.wrap(f"  {zone_name(z)}, {name}: {cards_text(row)}{said}", width,
                                     subsequent_indent="      "))
    return out


def card_texts(zones: list, me: int, describe: Optional[Callable], width: int, cards: str) -> list:
    """The texts of the cards `me` sees in their own zones: in full, one line each, or none."""
    if describe is None or cards == "none":
        return []
    out = []
    for name, line in own_cards(zones, me, describe):
        text = f"    • {name}: {line}"
        if cards == "line":
            out.append(text if len(text) <= width else text[:width - 1].rstrip() + "…")
        else:
            out.extend(textwrap.wrap(text, width, subsequent_indent="        "))
    return out


def own_cards(zones: list, me: int, describe: Callable):
    """(name, summary) of each card `me` sees in their own zones that `describe` has a summary for."""
    for z in zones:
        if z.get("owner") != me:
            continue
        for c in z["cards"]:
            line = None if c.get("hidden") else describe(c["name"])
            if line:
                yield c["name"], line


def board_lines(board: dict, width: int) -> list:
    """The board's rows as on the game's map: each row starts with a rule naming its cells, then each cell's
    values and zones, packed into the cell's width."""
    out = []
    for row in board["rows"]:
        n = max(1, len(row))
        w = max(12, (width - (n - 1)) // n)
        cells = [cell_lines(cell, w - 1) for cell in row]
        out.append("┼".join(f"─ {cell['cell'].upper()} ".ljust(w, "─")[:w] for cell in row).rstrip("─ "))
        height = max((len(c) for c in cells), default=0)
        for i in range(height):
            out.append("│".join(" " + (c[i] if i < len(c) else "").ljust(w - 1) for c in cells).rstrip())
    return out


def cell_lines(cell: dict, w: int) -> list:
    """A board cell's values and zones, as many to a line as fit (' · ' between them)."""
    parts = [item_text(i, ": ") for i in cell["items"]]
    parts += [f"{zone_name(z)}: {cards_text(z['cards'])}" for z in cell.get("zones", [])]
    lines: list = []
    for part in parts:
        if lines and len(lines[-1]) + 3 + len(part) <= w:
            lines[-1] += " · " + part
        else:
            lines.extend(textwrap.wrap(part, w, subsequent_indent=" "))
    return lines


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
