"""The outline of a document (LSP document symbols): its declarations, with the members, fields, cards, scoring
steps and the declarations of variant blocks under them. Each symbol's range is its declaration's span; its
selection range is where its name is written (inside the range, as LSP requires)."""
from __future__ import annotations

from typing import Optional

import attrs

from dsl import ast as A

from .index import table_members

# LSP's SymbolKind numbers
FILE, MODULE, NAMESPACE, PACKAGE, CLASS, METHOD, FIELD, CONSTRUCTOR, ENUM = 1, 2, 3, 4, 5, 6, 8, 9, 10
FUNCTION, VARIABLE, CONSTANT, STRING, BOOLEAN, ARRAY, OBJECT, KEY, NULL = 12, 13, 14, 15, 17, 18, 19, 20, 21
ENUM_MEMBER, STRUCT, EVENT = 22, 23, 24
KINDS = {A.Game: NAMESPACE, A.Extends: FILE, A.Enum: ENUM, A.CardKind: CLASS, A.Cards: OBJECT, A.Zone: ARRAY,
         A.Var: VARIABLE, A.Param: CONSTANT, A.Event: EVENT, A.Function: FUNCTION, A.Procedure: FUNCTION,
         A.Action: METHOD, A.Trigger: EVENT, A.Abilities: OBJECT, A.Setup: CONSTRUCTOR, A.Play: MODULE,
         A.Scoring: MODULE, A.Heuristic: MODULE, A.Variant: PACKAGE, A.Remove: NULL, A.Invariant: BOOLEAN,
         A.Table: STRUCT}


@attrs.frozen
class Symbol:
    """One entry of the outline: LSP ranges, an LSP SymbolKind number, the entries under it."""

    name: str
    kind: int
    detail: str
    range: tuple
    selection: tuple
    children: list = attrs.Factory(list)


def outline(analysis) -> list:
    """The outline of the analysed document (of its last text that parsed, while the current one does not)."""
    model = analysis.model
    if model is None:
        return []
    names = {id(d.node): d.span for d in model.index.defs if d.path == analysis.path}
    return [_symbol(d, analysis.lines, names) for d in model.program.decls if d.span.line > 0]


def _symbol(d, lines, names: dict) -> Symbol:
    children = []
    if isinstance(d, A.Variant):
        children = [_symbol(x, lines, names) for x in d.decls if x.span.line > 0]
    for node, name, kind, detail in _parts(d):
        children.append(_entry(node, name, kind, detail, lines, names))
    return _entry(d, _name(d), KINDS.get(type(d), OBJECT), _detail(d), lines, names, children)


def _entry(node, name: str, kind: int, detail: str, lines, names: dict, children=()) -> Symbol:
    rng = lines.span_range(node.span)
    sel = names.get(id(node))
    selection = lines.span_range(sel) if sel is not None else (rng[0], rng[0])
    if not (rng[0] <= selection[0] and selection[1] <= rng[1]):
        selection = (rng[0], rng[0])
    return Symbol(name or "?", kind, detail, rng, selection, list(children))


def _parts(d) -> list:
    """(node, name, SymbolKind, detail) of what a declaration declares inside it."""
    out: list = []
    if isinstance(d, A.Enum):
        out += [(m, m.name, ENUM_MEMBER, m.display or "") for m in d.members or table_members(d)]
    if isinstance(d, (A.Enum, A.CardKind)):
        out += [(f, f.name, FIELD, "field") for f in d.fields]
    if isinstance(d, A.Cards) and "name" in d.columns:
        at = d.columns.index("name")
        for row in d.rows:
            cell = row.cells[at] if at < len(row.cells) else None
            if isinstance(cell, A.Literal) and isinstance(cell.value, str):
                out.append((row, cell.value, STRING, f"{d.kind} card"))
    if isinstance(d, A.Scoring):
        out += [(s, s.label or f"{s.form} if …", KEY, s.form) for s in d.steps]
    if isinstance(d, A.Heuristic):
        out += [(t, t.label, KEY, f"weigh {t.weight}%") for t in d.terms]
        out += [(t, t.label, KEY, f"consider {t.action}") for t in d.advice]
    return out


def _name(d) -> str:
    if isinstance(d, A.Cards):
        return f"{'change ' if d.merge else ''}cards {d.kind}"
    if isinstance(d, A.Trigger):
        return f"when {d.name or d.event.name or d.event.form}"
    if isinstance(d, A.Abilities):
        return "abilities " + ", ".join(f"“{c}”" for c in d.cards)
    if isinstance(d, A.Variant):
        return f"variant “{d.name}”"
    if isinstance(d, A.Remove):
        return f"remove {d.name}"
    if isinstance(d, A.Extends):
        return f"extends “{d.path}”" + (f" variant “{d.variant}”" if d.variant else "")
    if isinstance(d, A.Scoring):
        return "change scoring" if d.merge else "scoring"
    keyword = {A.Setup: "setup", A.Play: "play", A.Heuristic: "heuristic", A.Table: "table"}.get(type(d))
    return keyword or str(getattr(d, "name", type(d).__name__.lower()))


def _detail(d) -> Optional[str]:
    per = "player " if getattr(d, "per_player", False) else ""
    word = {A.Var: "variable", A.Param: "parameter", A.Zone: "zone", A.Enum: "enum", A.CardKind: "card kind",
            A.Event: "event", A.Function: "function", A.Procedure: "procedure", A.Action: "action",
            A.Game: "game", A.Invariant: "invariant"}.get(type(d), "")
    return per + word
