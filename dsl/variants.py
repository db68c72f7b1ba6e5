"""Stage 3: one resolved game from a file, its `extends` chain and a variant.

A variant block, and a house-rule file that `extends` a game, are the same thing: a list of changes applied to
the declarations of a game by name. A declaration with the key of an existing one replaces it; a new one is
added; `remove NAME` takes a declaration away and `remove "Name"` a card of a table or a scoring step by its
label. `change cards …` merges a table into the game's by card name (rows naming an existing card replace it,
others are added) and `change scoring …` merges by step label (a `lose if` rule replaces the base's `lose if`
rules), so that a house rule can change one card or one step without restating the rest; without `change`, a
table or a scoring section replaces the game's whole one, like any other definition.
"""
from __future__ import annotations

from typing import Optional

import attrs

from . import ast as A
from .errors import Diagnostic, WishCheckError, closest, did_you_mean
from .linked import find_variant, own_variants, sources, variant_names


def own_decls(program: A.Program) -> list:
    return [d for d in program.decls if not isinstance(d, (A.Variant, A.Extends))]


def base_decls(program: A.Program) -> list:
    """The declarations of the file's game with no variant chosen (its extended game changed by it)."""
    own = own_decls(program)
    if program.parent is None:
        return own
    return overlay(resolve(program.parent, program.parent_variant), own, program)


def resolve(program: A.Program, variant: Optional[str]) -> list:
    """The declarations of the game as played under `variant` (None: the base game)."""
    if variant is None:
        return base_decls(program)
    own = own_variants(program).get(variant)
    if own is not None:
        return overlay(base_decls(program), own.decls, program)
    if program.parent is not None and variant in variant_names(program.parent):
        parent = program.parent
        if program.parent_variant is None:
            under = resolve(parent, variant)
        else:
            under = overlay(resolve(parent, program.parent_variant), find_variant(parent, variant).decls, parent)
        return overlay(under, own_decls(program), program)
    names = variant_names(program)
    hint = did_you_mean(variant, names) or (
        "this game has variants: " + ", ".join(f'"{n}"' for n in names) if names else "this game has no variants")
    raise WishCheckError(f"unknown variant \"{variant}\"",
                         [Diagnostic(A.Span(program.path, 0, 0, 0, 0), f"unknown variant \"{variant}\"", hint)])


def overlay(decls: list, changes: list, program: A.Program) -> list:
    """Apply `changes` to `decls` (see the module's docstring)."""
    out = list(decls)
    index = {d.key: i for i, d in enumerate(out)}
    removed: set = set()
    diags: list = []
    for ch in changes:
        if isinstance(ch, A.Remove):
            _remove(out, removed, ch, diags)
        elif ch.key in index and isinstance(ch, (A.Cards, A.Scoring)) and ch.merge:
            i = index[ch.key]
            merged = _merge_cards(out[i], ch, diags) if isinstance(ch, A.Cards) else _merge_scoring(out[i], ch, diags)
            out[i] = merged
        elif ch.key in index:
            out[index[ch.key]] = ch
        elif getattr(ch, "merge", False):
            what = f"no {ch.kind} cards" if isinstance(ch, A.Cards) else "no scoring section"
            diags.append(Diagnostic(ch.span, f"'change' needs something to change: the game has {what}",
                                    "without 'change', the declaration adds it"))
        else:
            index[ch.key] = len(out)
            out.append(ch)
    result = [d for i, d in enumerate(out) if i not in removed]
    diags.extend(_unused_additions(decls, changes, result))
    if diags:
        raise WishCheckError(f"{len(diags)} error(s) in {program.path}", diags, sources(program))
    return result


NEEDS_A_USE = (A.Enum, A.CardKind, A.Zone, A.Var, A.Param, A.Event, A.Function, A.Procedure, A.Action)


def _unused_additions(decls: list, changes: list, result: list) -> list:
    """A new named definition that nothing uses is almost always a misspelt replacement: say so."""
    keys = {d.key for d in decls}
    added = [ch for ch in changes if isinstance(ch, NEEDS_A_USE) and ch.key not in keys]
    if not added:
        return []
    own = {id(ch) for ch in changes}
    unused = _unreferenced({ch.name for ch in added}, sorted(result, key=lambda d: id(d) not in own))
    names = [d.name for d in decls if isinstance(d, NEEDS_A_USE)]
    return [Diagnostic(ch.span, f"'{ch.name}' replaces nothing in the game, and nothing uses it",
                       did_you_mean(ch.name, names) or "a new definition must be used by the rules")
            for ch in added if ch.name in unused]


def _unreferenced(names: set, decls: list) -> set:
    """Those of `names` that no declaration of `decls` mentions (apart from the names they declare). The search
    stops once every name is found: a variant's additions are mostly used by its own changes, which the caller
    puts first, so the whole game is seldom walked."""
    unused = set(names)
    for d in decls:
        unused -= _referenced(d)
        if not unused:
            break
    return unused


def _referenced(d) -> set:
    """Every identifier a declaration mentions, apart from the names it declares."""
    out: set = set()
    for node, _ in A.walk(d):
        if isinstance(node, A.Literal):
            continue
        for name in A.field_names(type(node)):
            if name in ("doc", "span", "columns_span") or (name == "name" and isinstance(node, A.Decl)):
                continue
            value = getattr(node, name)
            if isinstance(value, str):
                out.add(value)
            elif isinstance(value, list):
                out.update(v for v in value if isinstance(v, str))
    return out


def _remove(out: list, removed: set, ch: A.Remove, diags: list) -> None:
    if ch.quoted:
        for i, d in enumerate(out):
            if i in removed:
                continue
            if isinstance(d, A.Cards) and any(row_name(d, r) == ch.name for r in d.rows):
                out[i] = attrs.evolve(d, rows=[r for r in d.rows if row_name(d, r) != ch.name])
                return
            if isinstance(d, A.Scoring) and any(s.label == ch.name for s in d.steps):
                out[i] = attrs.evolve(d, steps=[s for s in d.steps if s.label != ch.name])
                return
        names = [row_name(d, r) for d in out if isinstance(d, A.Cards) for r in d.rows]
        names += [s.label for d in out if isinstance(d, A.Scoring) for s in d.steps if s.label]
        diags.append(Diagnostic(ch.span, f"cannot remove \"{ch.name}\": the game has no card or scoring step of "
                                         "that name", did_you_mean(ch.name, [n for n in names if n])))
        return
    matches = [i for i, d in enumerate(out) if i not in removed and getattr(d, "name", None) == ch.name]
    if not matches:
        names = [getattr(d, "name", "") for d in out if isinstance(getattr(d, "name", None), str)]
        diags.append(Diagnostic(ch.span, f"cannot remove '{ch.name}': the game declares no such thing",
                                did_you_mean(ch.name, names)))
    removed.update(matches)


def row_name(cards: A.Cards, row: A.CardRow) -> Optional[str]:
    """The card name in a table row (the `name` column), or None."""
    if "name" not in cards.columns:
        return None
    cell = row.cells[cards.columns.index("name")] if cards.columns.index("name") < len(row.cells) else None
    return cell.value if isinstance(cell, A.Literal) and isinstance(cell.value, str) else None


def _merge_cards(base: A.Cards, ch: A.Cards, diags: list) -> A.Cards:
    if ch.columns != base.columns:
        diags.append(Diagnostic(ch.columns_span, f"a table changing the {ch.kind} cards has the columns of the "
                                                 f"game's table: | {' | '.join(base.columns)} |",
                                f"found | {' | '.join(ch.columns)} |"))
        return base
    rows = list(base.rows)
    where = {row_name(base, r): i for i, r in enumerate(rows)}
    for r in ch.rows:
        name = row_name(ch, r)
        if name is not None and name in where:
            rows[where[name]] = r
            continue
        if name is not None and not any(a.name == "new" for a in r.annots):
            close = closest(name, (n for n in where if n is not None))
            diags.append(Diagnostic(
                r.span, f"'change cards' adds a new card \"{name}\"" + (
                    f" — did you mean to change \"{close}\"?" if close else ": the game has no card of that name"),
                "a row that adds a card is marked as such: write @new on the line before it"))
        where[name] = len(rows)
        rows.append(r)
    return attrs.evolve(base, zone=ch.zone, rows=rows, doc=ch.doc or base.doc, merge=False)


def _merge_scoring(base: A.Scoring, ch: A.Scoring, diags: list) -> A.Scoring:
    if ch.var != base.var:
        diags.append(Diagnostic(ch.span, f"a scoring section that changes the game's must call its player "
                                         f"'{base.var}', as the game's does; found '{ch.var}'"))
        return base
    steps = list(base.steps)
    if any(s.form == "lose" for s in ch.steps):
        steps = [s for s in steps if s.form != "lose"]
    for s in ch.steps:
        same = [i for i, b in enumerate(steps) if s.label is not None and b.label == s.label and b.form == s.form]
        if same:
            steps[same[0]] = s
        else:
            steps.append(s)
    return attrs.evolve(base, steps=steps, doc=ch.doc or base.doc, merge=False)
