"""How the short local names of one declaration read: `w` is "the Wish", a loop's `a` is "that Area".

A rule written `for a in neighbours(x) { … a … }` or `choose w from you.hand …` uses one-letter names, as code
does; a rulebook does not say "Area a" or "Wish w". Within one declaration (an action, a procedure, a term, a
rule that reacts), a short name whose kind of thing no other short name shares reads as that thing: "the Wish",
"that Area" when a loop or a quantifier binds it. Two names of one kind are told apart by what they were chosen
for ("the Crystal to give", "the Crystal to take") or as "the other …"; a third keeps its letter.
"""
from __future__ import annotations

from typing import Optional

import attrs

from dsl import ast as A
from dsl.refs import RefKind, kind_of
from dsl.types import from_ref

from .words import ALIASES, walk

SHORT = 2  # names this long or shorter are letters, not words


@attrs.frozen
class Reading:
    """How one short local reads: `the` where it is used ("the Wish"), `noun` where it is introduced ("a Wish")."""

    the: str
    noun: str


@attrs.define
class Binder:
    name: str
    ty: object
    loop: bool = False
    purpose: Optional[str] = None


def binders(node, sym, params=()) -> list:
    """The short locals of `node` in order of first appearance, with their types and how they are bound."""
    found: dict = {}

    def add(name, ty, loop=False, purpose=None):
        if len(name) > SHORT or ty is None:
            return
        b = found.get(name)
        if b is None:
            found[name] = Binder(name, ty.plain(), loop, purpose)
        else:
            b.loop = b.loop or loop
            b.purpose = b.purpose or purpose

    for p in params:
        ty = getattr(p, "ty", None)
        if ty is None and getattr(p, "domain", None) is not None and p.domain.ty is not None:
            ty = p.domain.ty.element()
        add(p.name, ty)
    for n in walk(node):
        if isinstance(n, A.Trigger) and n.event.form == "custom" and n.event.name in sym.events:
            for b, p in zip(n.event.binders, sym.events[n.event.name][0].params):
                add(b, from_ref(p.type, set(sym.enums), set(sym.kinds)))
        elif isinstance(n, A.ParamDecl):
            add(n.name, from_ref(n.type, set(sym.enums), set(sym.kinds)))
        elif isinstance(n, A.For):
            add(n.var, n.source.ty.element() if n.source.ty is not None else None, loop=True)
        elif isinstance(n, A.GenClause):
            add(n.var, n.source.ty.element() if n.source.ty is not None else None, loop=True)
        elif isinstance(n, A.Choose) and isinstance(n.target, A.Name):
            ty = n.target.ty or (n.options.ty.element() if n.options.ty is not None else None)
            add(n.target.name, ty, purpose=n.verb if n.verb and ":" not in n.verb else None)
        elif isinstance(n, A.ActionParam) and n.domain is not None and n.domain.ty is not None:
            add(n.name, n.domain.ty.element())
        elif isinstance(n, A.Name) and kind_of(n) is RefKind.LOCAL:
            add(n.name, n.ty)
    return list(found.values())


def readings(en, node, params=()) -> dict:
    """name → Reading for the short locals of `node` that read as words (enum, card and player values)."""
    by_noun: dict = {}
    found = binders(node, en.sym, params)
    has_p = any(b.name == "p" and not b.loop for b in found)
    for b in found:
        if b.ty.kind not in ("enum", "card", "player") or b.name in en.you_names or b.name == "p" \
                or b.name in ALIASES or b.name in en.roles:
            continue
        noun = en.type_noun(b.ty)
        by_noun.setdefault(noun, []).append(b)
    out = {}
    for noun, group in by_noun.items():
        for part in ([b for b in group if not b.loop], [b for b in group if b.loop]):
            for i, b in enumerate(part):
                reading = read_one(noun, b, i, part, has_p)
                if reading is not None:
                    out[b.name] = reading
    return out


def read_one(noun: str, b: Binder, i: int, group: list, has_p: bool = False) -> Optional[Reading]:
    """The reading of the i-th short name of one kind, among those bound the same way (by a loop or not);
    None keeps the letter. `p` is always "the player", so another player is "that player" or "the other"."""
    purposes = [g.purpose for g in group]
    if len(group) > 1 and b.purpose and purposes.count(b.purpose) == 1 and len(b.purpose.split()) <= 3:
        return Reading(f"the {noun} to {b.purpose}", f"{noun} to {b.purpose}")
    the = "that " if b.loop else "the "
    if noun == "player":  # `p` is always "the player"
        if i > 0 or len(group) > 1:
            return None
        return Reading("the other player" if has_p and not b.loop else "that player",
                       "other player" if has_p and not b.loop else "player")
    if i == 0:
        return Reading(the + noun, noun)
    if i == 1 and len(group) == 2:
        return Reading(f"{the}other {noun}", f"other {noun}")
    return None
