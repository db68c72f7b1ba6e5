"""Hover text (Markdown) for the name or string under the cursor: what it is, its declaration's first line, its
doc string and the cheat-sheet's English for it; in a house rule, what the rule changes about it (was / now, as
`wishdsl diff` gives it).

The English comes from docgen, as the sheet prints it: `docgen.lookup.Reference` for a card or an enum member
(an Area, a Djinn …), `docgen.english.English` for every other declaration, and `docgen.diff.game_diff` for a
house rule's changes.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from dsl import ast as A
from dsl.errors import source_lines

from docgen.words import camel_words, humanize

from .index import PSEUDO, Definition, DefKind, target_at

MAX_DOC = 600
MAX_LINE = 160


def hover(analysis, position: tuple) -> Optional[tuple]:
    """(Markdown text, LSP range of the hovered token), or None where nothing is named."""
    d, rng = target_at(analysis, position)
    if d is None:
        return None
    parts = [heading(d, analysis.path), signature(d, analysis), doc_of(d)]
    game = analysis.game
    if game is not None:
        parts += [english_of(d, game), change_of(d, game)]
    return "\n\n".join(p for p in parts if p), rng


def heading(d: Definition, here: str) -> str:
    out = f"**{d.kind.value}** `{d.name}`" if d.kind is not DefKind.CARD else f"**{d.owner or ''} card** “{d.name}”"
    if d.variant is not None:
        out += f" · variant “{d.variant}”"
    if d.span is not None and d.path != here:
        out += f" · {Path(d.path).name}:{d.span.line}"
    return out


def signature(d: Definition, analysis) -> str:
    """The first line of the declaration, as written."""
    if d.span is None or d.kind is DefKind.GAME_FILE:
        return ""
    line = d.span.line
    if d.path == analysis.path and analysis.fresh:
        text = analysis.lines.line(line - 1)
    else:
        text = _line_of(analysis, d.path, line)
    text = text.strip()
    if len(text) > MAX_LINE:
        text = text[:MAX_LINE] + " …"
    return f"```wish\n{text}\n```" if text else ""


def _line_of(analysis, path: str, line: int) -> str:
    model = analysis.model
    index = model.index if model is not None else None
    lines = index.texts.get(path) if index is not None else None
    if lines is None:
        try:
            lines = source_lines(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return ""
    return lines[line - 1] if 0 < line <= len(lines) else ""


def doc_of(d: Definition) -> str:
    """The declaration's doc string, its first paragraph (a built-in's meaning; a game file's path)."""
    if d.kind is DefKind.BUILTIN:
        return PSEUDO.get(d.name) or f"`{d.name}(…)`: a function every game has"
    if d.kind is DefKind.GAME_FILE:
        return f"The game this file extends: `{d.path}`"
    doc = getattr(d.node, "doc", None)
    if not doc:
        return ""
    text = " ".join(doc.strip().split("\n\n")[0].split())
    return text[:MAX_DOC] + (" …" if len(text) > MAX_DOC else "")


def english_of(d: Definition, game) -> str:
    """The cheat-sheet's words for it, as a text block."""
    try:
        text = _english(d, game)
    except Exception:  # noqa: BLE001 - a construct the English does not cover must not break the hover
        text = None
    return f"```text\n{text}\n```" if text else ""


def _english(d: Definition, game) -> Optional[str]:
    if d.kind is DefKind.CARD:
        ref = game.reference()
        return ref.card(d.name) if d.name in ref.cards else None
    if d.kind is DefKind.MEMBER:
        enum = game.checked.sym.enums.get(d.owner)
        member = next((m for m in enum.members if m.name == d.name), None) if enum is not None else None
        if member is None:
            return None
        return game.reference().component(member.display or humanize(member.name), camel_words(d.owner))
    twin = _twin(d, game.checked)
    return game.english().describe(twin) if twin is not None else None


def _twin(d: Definition, checked):
    """The node of the checked game that is `d`'s (the checked game may be an earlier text's)."""
    if d.variant is not None:
        return None
    if isinstance(d.node, A.ScoreStep):
        sc = checked.sym.scoring
        return next((s for s in sc.steps if s.form == d.node.form and s.label == d.name), None) if sc else None
    if isinstance(d.node, A.Decl):
        return next((x for x in checked.decls if type(x) is type(d.node) and x.key == d.node.key), None)
    return None


def change_of(d: Definition, game) -> str:
    """A house rule's changes to this definition, was / now, as `wishdsl diff` gives them."""
    if d.variant is not None or d.key is None:
        return ""
    try:
        changes = game.changes()
    except Exception:  # noqa: BLE001 - no diff (e.g. the game it extends changed on disk): no was / now
        return ""
    keys = [k for k in changes if k.startswith("scoring ")] if d.kind is DefKind.SCORING else [d.key]
    found = [changes[k] for k in keys if k in changes]
    return "\n\n".join(_change_text(c) for c in found)


def _change_text(c) -> str:
    head = {"changed": "Changed", "added": "Added", "removed": "Removed"}.get(c.kind, c.kind)
    out = [f"---\n\n**{head} by this house rule:** {c.what} (as `wishdsl diff` shows)"]
    if c.before is not None:
        out.append(f"*was:*\n```text\n{c.before}\n```")
    if c.after is not None:
        out.append(f"*now:*\n```text\n{c.after}\n```")
    return "\n\n".join(out)
