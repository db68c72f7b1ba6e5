"""The cheat-sheet as a reference to look things up in during play (issue 19): a card, a component (an Area, a
Djinn, an item), a section of the rules, and a card's one-line summary for a player's hand.

    ref = Reference("games/wish.wish")
    ref.card("Fall in Love")      # its fields and its abilities in the sheet's English, as plain text
    ref.component("Dark Temple")  # a member of any of the game's enums, with its fields
    ref.rules("scoring")          # a section of the sheet, found by its heading
    ref.summary("Fall in Love")   # "red · cost 1 Ruby, 1 Sapphire and 1 Emerald · VP 1 · Ongoing: Whenever …"

Everything comes from the same context the sheet is rendered from (`render.build_context`), so what a player
reads at the table is what the printed sheet says. Names are matched case-insensitively, by a unique beginning, or
with "did you mean".
"""
from __future__ import annotations

import difflib
import re
from typing import Optional

from .render import build_context, render_sheet


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("’", "'").split())


def find(name: str, names: list) -> tuple:
    """(the name meant, None) or (None, why none): exact, a unique beginning, or a did-you-mean."""
    want = _norm(name)
    exact = [n for n in names if _norm(n) == want]
    if exact:
        return exact[0], None
    starts = [n for n in names if _norm(n).startswith(want)]
    if len(starts) == 1:
        return starts[0], None
    if starts:
        return None, f"'{name}' could be {', '.join(starts[:8])}{' …' if len(starts) > 8 else ''}."
    close = difflib.get_close_matches(want, [_norm(n) for n in names], n=3, cutoff=0.6)
    hint = [n for n in names if _norm(n) in close]
    return None, f"No '{name}' here." + (f" Did you mean {', '.join(hint)}?" if hint else "")


def _steps(items: list, depth: int = 0) -> list:
    out = []
    for s in items:
        out.append("  " * depth + "- " + s["text"])
        out.extend(_steps(s["children"], depth + 1))
    return out


class Reference:
    """One game's (or house rule's, or variant's) cheat-sheet, to look things up in."""

    def __init__(self, path: str, variant: Optional[str] = None):
        self.path, self.variant = path, variant
        ctx = build_context(path, variant)
        self.cards: dict = {}  # name → (kind, [(column, cell)])
        for deck in ctx["decks"]:
            for row in deck["rows"]:
                self.cards[row["name"]] = (deck["kind"], list(zip(deck["columns"], row["cells"])))
        self.abilities: dict = {}  # card name → ability lines
        for ab in ctx["abilities"]:
            lines = []
            if ab["instant"]:
                lines.append("Instant." + (f" {ab['instant']['doc']}" if ab["instant"]["doc"] else ""))
                lines.extend(_steps(ab["instant"]["steps"], 1))
            for t in ab["ongoing"]:
                lines.append("Ongoing. " + (f"{t['doc']} " if t["doc"] else "") + t["head"])
                lines.extend(_steps(t["steps"], 1))
            for s in ab["static"]:
                lines.append("Ongoing. " + (f"{s['doc']} " if s["doc"] else "") + s["text"])
            for name in ab["cards"]:
                self.abilities[name] = lines
        self.members: dict = {}  # display name → (enum, [(field, cell)])
        self.enums: dict = {}  # enum name → its members' display names
        for e in ctx["enums"]:
            self.enums[e["name"]] = [m["name"] for m in e["members"]]
            for m in e["members"]:
                self.members.setdefault(m["name"], (e["name"], list(zip(e["fields"], m["cells"]))))
        self._sheet: Optional[str] = None

    # ---------------------------------------------------------------- cards and components
    def summary(self, name: str) -> Optional[str]:
        """A card's fields on one line ("red · cost … · VP 1 · Ongoing: …"); None for an unknown card."""
        if name not in self.cards:
            return None
        _, cells = self.cards[name]
        return " · ".join(f"{col} {cell}" if col not in ("text", "color", "bonus") else cell
                          for col, cell in cells if cell not in ("", "—"))

    def card(self, name: str) -> str:
        found, problem = find(name, list(self.cards))
        if found is None:
            return problem
        kind, cells = self.cards[found]
        lines = [f"{found} ({kind} card)"] + [f"  {col}: {cell}" for col, cell in cells if cell not in ("", "—")]
        rules = self.abilities.get(found)
        if rules:
            lines.append("  Rules:")
            lines.extend("    " + line for line in rules)
        return "\n".join(lines)

    def component(self, name: str, enum: Optional[str] = None) -> str:
        """A member of one of the game's enums (of `enum` when given), with its fields."""
        names = self.enums.get(enum, []) if enum else list(self.members)
        found, problem = find(name, names)
        if found is None:
            return problem
        enum_name, fields = self.members[found]
        lines = [f"{found} ({enum_name})"] + [f"  {f}: {c}" for f, c in fields if c not in ("",)]
        return "\n".join(lines)

    def enum_named(self, word: str) -> Optional[str]:
        """The enum a command word names (`area` → "Area", `djinn` → "Djinn"), or None."""
        return next((e for e in self.enums if _norm(e) == _norm(word)), None)

    # ---------------------------------------------------------------- rules
    def sheet(self) -> str:
        if self._sheet is None:
            self._sheet = render_sheet(self.path, self.variant, "md")
        return self._sheet

    def topics(self) -> list:
        return [m.group(2) for m in re.finditer(r"^(#{2,3}) (.+)$", self.sheet(), re.M)]

    def rules(self, topic: str = "") -> str:
        """The section of the sheet whose heading `topic` names; without a topic, the list of headings."""
        headings = self.topics()
        if not topic.strip():
            return "Rules topics: " + "; ".join(h for h in headings if not h.startswith("Footnotes")) + \
                "\nType 'rules TOPIC' (a word of a heading is enough)."
        want = _norm(topic)
        hits = [h for h in headings if want in _norm(h)]
        exact = [h for h in hits if _norm(h) == want]
        found = exact[0] if exact else hits[0] if len(hits) == 1 else None
        if found is None and not hits:
            found, problem = find(topic, headings)
            if found is None:
                return problem
        if found is None:
            return f"'{topic}' could be {'; '.join(hits[:8])}."
        text = self.sheet()
        start = re.search(r"^#{2,3} " + re.escape(found) + r"$", text, re.M)
        level = len(re.match(r"#+", text[start.start():]).group(0))
        rest = text[start.end():]
        end = re.search(r"^#{2," + str(level) + r"} ", rest, re.M)
        body = rest[:end.start()] if end else rest
        return plain(f"{found}\n{body.strip()}")


def plain(md: str) -> str:
    """Markdown of the sheet as terminal text: escapes undone, emphasis marks dropped."""
    text = re.sub(r"\\([\\`*_\[\]~#+\-.!|])", r"\1", md)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    return re.sub(r"(?<!\w)\*(.+?)\*(?!\w)", r"\1", text)
