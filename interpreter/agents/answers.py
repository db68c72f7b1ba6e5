"""What a person types, matched to the options of a decision (issue 19): stable numbers, labels, display names
and natural words, with "did you mean" when nothing matches.

An option's label is the engine's (`guess palm_tree`, `travel dock, column_1`); its display text reads the
game's own names (`guess Palm tree`, `travel Dock, column 1`). An answer picks an option by

- its number, which stays the option's own while it stays offered (`Numbers`), so a number typed from an older
  screen never picks another option;
- its label or its display text, whole or by a unique beginning;
- its words, each the beginning of a word of one option only (`palm` → `guess Palm tree`, `trav dock 2` →
  `travel Dock, column 2`), in any order.

An answer that names no option gets the options closest to it ("did you mean 'travel Dock, column 1'?"), and an
answer that names several gets the list to choose from. Nothing is ever picked by a guess.
"""
from __future__ import annotations

import difflib
import re
from typing import Optional

from ..views import display_text

WORD = re.compile(r"[^\W_]+", re.UNICODE)


def norm(text: str) -> str:
    return " ".join(text.replace('"', "").replace("_", " ").lower().split())


def words(text: str) -> list:
    return WORD.findall(norm(text))


class Names:
    """One game's display names (`palm_tree` → "Palm tree"), to show options and log lines in; without a game,
    names with spaces for underscores."""

    def __init__(self, game=None):
        self.game = game

    def text(self, label: str) -> str:
        """A label with its member names read by their display names and the rest of its words spaced."""
        if self.game is None:
            return re.sub(r"(?<![\w\"])[a-z][a-z0-9_]*(?![\w\"])", lambda m: m.group(0).replace("_", " "), label)
        return display_text(self.game, label)


class Numbers:
    """A number for each option that stays the option's while it is offered; freed numbers are given again only
    when every number in use is gone (a new kind of decision starts from 1)."""

    def __init__(self):
        self.of: dict = {}

    def assign(self, labels: list) -> list:
        keep = {label: n for label, n in self.of.items() if label in labels}
        if not keep:
            self.of = {label: i for i, label in enumerate(labels, 1)}
            return [self.of[label] for label in labels]
        used = set(keep.values())
        nxt = max(used) + 1
        for label in labels:
            if label not in keep:
                keep[label] = nxt
                nxt += 1
        self.of = keep
        return [keep[label] for label in labels]


def pick(answer: str, options: list, numbers: Optional[list] = None, texts: Optional[list] = None) -> tuple:
    """(the option an answer names, None) or (None, why it names none). `options` have a `label`; `numbers` are
    their numbers (1, 2, … when None) and `texts` their display texts (their labels when None)."""
    n = len(options)
    numbers = numbers or list(range(1, n + 1))
    texts = texts or [o.label for o in options]
    usage = (f"Answer with a number from 1 to {n} or an option's name ('?' lists them)." if numbers == list(
        range(1, n + 1)) else "Answer with an option's number or its name ('?' lists them).")
    if not answer.strip():
        return None, usage
    if answer.strip().isdigit():
        k = int(answer)
        if k in numbers:
            return options[numbers.index(k)], None
        return None, f"There is no option {k}. " + usage
    want = norm(answer)
    names = [(norm(o.label), norm(t)) for o, t in zip(options, texts)]
    for test in (lambda a, b: want in (a, b), lambda a, b: a.startswith(want) or b.startswith(want), None):
        hits = [i for i, (a, b) in enumerate(names) if (test(a, b) if test else by_words(want, a + " " + b))]
        if len(hits) == 1:
            return options[hits[0]], None
        if hits:
            exact = [i for i in hits if want in names[i]]
            if len(exact) == 1:
                return options[exact[0]], None
            shown = ", ".join(f"{numbers[i]}) {texts[i]}" for i in hits[:6]) + (" …" if len(hits) > 6 else "")
            return None, f"'{answer}' could be {shown}. Type more of it, or a number."
    return None, f"'{answer}' is not an option.{did_you_mean(want, options, numbers, texts)} " + usage


def by_words(want: str, text: str) -> bool:
    """Is every word of the answer the beginning of a word of the option's text (each used once)?"""
    have = words(text)
    for w in words(want):
        match = next((h for h in have if h.startswith(w)), None)
        if match is None:
            return False
        have.remove(match)
    return True


def did_you_mean(want: str, options: list, numbers: list, texts: list) -> str:
    """" Did you mean …?" with the options closest to a misspelt answer ("travel dok" → travel Dock, …)."""
    vocab = sorted({w for o, t in zip(options, texts) for w in words(o.label + " " + t)})
    fixed = []
    for w in words(want):
        close = difflib.get_close_matches(w, vocab, n=1, cutoff=0.6)
        fixed.append(close[0] if close else w)
    hits = [i for i, (o, t) in enumerate(zip(options, texts)) if by_words(" ".join(fixed), o.label + " " + t)]
    if not hits:  # the words that do name something: "travel dok" → the travel options
        known = [w for w in fixed if any(v.startswith(w) for v in vocab)]
        if known and len(known) < len(fixed):
            hits = [i for i, (o, t) in enumerate(zip(options, texts)) if by_words(" ".join(known), o.label + " " + t)]
    if not hits:
        by_text = difflib.get_close_matches(want, [norm(t) for t in texts], n=3, cutoff=0.5)
        hits = [i for i, t in enumerate(texts) if norm(t) in by_text]
    if not hits:
        return ""
    shown = ", ".join(f"{numbers[i]}) {texts[i]}" for i in hits[:4]) + (" …" if len(hits) > 4 else "")
    return f" Did you mean {shown}?"
