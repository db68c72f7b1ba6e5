"""The screen a person reads before a decision (issue 19), fitted to the terminal's height.

A screen is: a heading; what happened since the person's last decision (each player's consecutive lines
joined into one paragraph); the table; the announcements; the prompt and the options. When it is taller than
the terminal, detail is dropped a step at a time (`LEVELS`) until it fits: first options that differ in one
place only are listed together ("A Wind Blast to …: 5) Oasis  6) Ruins …"), then the oldest lines of the log
go ('log' prints them), then the texts of the person's own cards shrink to a line each, and last to their
names ('card NAME' reads one). Nothing is left out that a command cannot show again.
"""
from __future__ import annotations

import re
import textwrap
from typing import Callable, Optional

import attrs

from .table_text import WIDTH

PLAYER_LINE = re.compile(r"(player \d+): (.*)$")


@attrs.frozen
class Detail:
    """How much one screen shows: the options listed one a line or grouped, at most `log` lines of the log
    (None: all), and the own cards' texts in full, a line each, or not at all."""

    grouped: int = 0  # the fewest options listed together (0: none are)
    log: Optional[int] = None
    cards: str = "full"
    empty: bool = True  # a player's values that are 0 and their empty zones shown (else left out)
    columns: int = 1  # options not listed together: this many to a line


LEVELS = (Detail(), Detail(grouped=3), Detail(grouped=2, log=8), Detail(grouped=2, log=8, cards="line"),
          Detail(grouped=2, log=4, cards="line", empty=False), Detail(grouped=2, log=3, cards="none", empty=False),
          Detail(grouped=2, log=3, cards="none", empty=False, columns=2),
          Detail(grouped=2, log=1, cards="none", empty=False, columns=2))


def fit(build: Callable[[Detail], list], height: int) -> list:
    """The lines `build` gives at the first level of detail that fits `height` lines (the last level if none
    does)."""
    lines: list = []
    for detail in LEVELS:
        lines = build(detail)
        if len(lines) <= height:
            break
    return lines


def log_section(lines: list, quiet: list, limit: Optional[int], width: int = WIDTH) -> list:
    """The log since the person's last decision: consecutive lines of one player joined into a paragraph; lines
    marked `quiet` (what the table shows) counted, not shown; with `limit`, the newest paragraphs that fit."""
    paragraphs: list = []  # [text, how many log lines it holds]
    current = None
    for line, q in zip(lines, quiet):
        if q:
            continue
        m = PLAYER_LINE.match(line)
        if m and current == m.group(1):
            paragraphs[-1][0] += " · " + m.group(2)
            paragraphs[-1][1] += 1
            continue
        current = m.group(1) if m else None
        paragraphs.append([line, 1])
    wrapped = [textwrap.wrap(text, width - 2, subsequent_indent="    ") or [""] for text, _ in paragraphs]
    kept = len(wrapped)
    if limit is not None:
        room, kept = limit, 0
        for w in reversed(wrapped):
            if len(w) > room:
                break
            room -= len(w)
            kept += 1
    out = [f"  {part}" for w in wrapped[len(wrapped) - kept:] for part in w]
    earlier = sum(n for _, n in paragraphs[:len(paragraphs) - kept])
    moved = sum(1 for q in quiet if q)
    note = more_note(earlier, moved)
    if note:
        out.append(f"  ({note})")
    return out


def more_note(earlier: int, moved: int) -> str:
    """What the log section leaves for 'log' to print."""
    if not earlier and not moved:
        return ""
    said = []
    if earlier:
        said.append(f"{earlier} earlier line{'s' if earlier > 1 else ''}")
    if moved:
        what = "cards moved and values changed, as the table shows"
        said.append(f"{moved} more line{'s' if moved > 1 else ''}: {what}" if not earlier
                    else f"{moved} of {what}")
    return " and ".join(said) + "; 'log' prints them"


def options_section(prompt: str, numbers: list, texts: list, grouped: int = 0, width: int = WIDTH,
                    columns: int = 1) -> list:
    """The prompt and the options, each with its number; with `grouped`, runs of at least that many options
    that differ in one place only are listed together under what they share; the others `columns` to a line
    where they fit."""
    pairs = sorted(zip(numbers, texts))
    digits = len(str(max(numbers))) if numbers else 1
    out = [prompt]
    column = width // max(1, columns)
    alone = 0  # options on the last line listed one by one
    for run in (runs(pairs, grouped) if grouped else [[p] for p in pairs]):
        if len(run) == 1:
            n, text = run[0]
            entry = f"  {n:>{digits}}) {text}"
            if 0 < alone < columns and len(entry) < column and len(out[-1]) < column:
                out[-1] = out[-1].ljust(column) + entry
                alone += 1
            else:
                out.append(entry)
                alone = 1
            continue
        alone = 0
        head, middles = shared_words([t for _, t in run])
        entries = [f"{n}) {m}" for (n, _), m in zip(run, middles)]
        out.extend(pack(f"  {head}:", entries, width, "      "))
    return out


def runs(pairs: list, least: int) -> list:
    """Consecutive options as runs: at least `least` that begin with the same words the first two share (and
    differ after them), else one option alone."""
    out, i = [], 0
    while i < len(pairs):
        j = i + 1
        if i + 1 < len(pairs):
            prefix = common_prefix(pairs[i][1].split(), pairs[i + 1][1].split())
            if prefix:
                while j < len(pairs) and pairs[j][1].split()[:len(prefix)] == prefix and \
                        len(pairs[j][1].split()) > len(prefix):
                    j += 1
        if j - i >= max(2, least):
            out.append(pairs[i:j])
            i = j
        else:
            out.append([pairs[i]])
            i += 1
    return out


def common_prefix(a: list, b: list) -> list:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def shared_words(texts: list) -> tuple:
    """("prefix … suffix", the middles): the words every text begins and ends with, and what is left of each."""
    words = [t.split() for t in texts]
    prefix = words[0]
    for w in words[1:]:
        prefix = common_prefix(prefix, w)
    rests = [w[len(prefix):] for w in words]
    suffix = rests[0]
    for r in rests[1:]:
        suffix = common_prefix(suffix[::-1], r[::-1])[::-1]
    if any(len(r) <= len(suffix) for r in rests):
        suffix = []
    middles = [" ".join(r[:len(r) - len(suffix)]) for r in rests]
    head = " ".join(prefix) + " …" + (" " + " ".join(suffix) if suffix else "")
    return head, middles


def pack(first: str, entries: list, width: int, indent: str) -> list:
    """`first` then the entries two spaces apart, as many to a line as fit, never breaking an entry."""
    lines = [first]
    for e in entries:
        if len(lines[-1]) + 2 + len(e) <= width:
            lines[-1] += "  " + e
        else:
            lines.append(indent + e)
    return lines
