"""English for declarations and their parts: one-line summaries, triggers, abilities, scoring."""
from __future__ import annotations

from dsl import ast as A
from dsl.refs import RefKind, kind_of

from .english_base import EnglishBase
from .words import article, cap, humanize, join_and, kind_noun, plural, quote, sentence


def d_typeref(en: EnglishBase, t: A.TypeRef) -> str:
    return en.typeref(t)


def d_annotation(en: EnglishBase, a: A.Annotation) -> str:
    if a.name == "reconstructed":
        return "reconstructed: " + (a.text or "not printed in the rulebook")
    return f"{humanize(a.name)}" + (f": {a.text}" if a.text else "")


def d_game(en: EnglishBase, g: A.Game) -> str:
    s = f"{g.name}, for {A.players_text(g.min_players, g.max_players)}"
    if g.source:
        s += f" (source: {g.source})"
    return s + "."


def d_enum_member(en: EnglishBase, m: A.EnumMember) -> str:
    return m.display or humanize(m.name)


def d_enum(en: EnglishBase, e: A.Enum) -> str:
    members = join_and([d_enum_member(en, m) for m in e.members])
    s = f"{e.name}: {members}"
    if e.fields:
        s += "; each with " + join_and([humanize(f.name) for f in e.fields])
    return s + "."


def d_field(en: EnglishBase, f: A.FieldDecl) -> str:
    s = f"{humanize(f.name)} ({en.typeref(f.type)})"
    if isinstance(f.default, A.Literal) and f.default.value == "":
        s += ", empty unless given"
    elif f.default is not None:
        s += f", {en.expr(f.default)} unless given"
    return s


def d_cardkind(en: EnglishBase, k: A.CardKind) -> str:
    fields = join_and([d_field(en, f) for f in k.fields]) if k.fields else "a name only"
    s = f"A {kind_noun(k.name)} card has {fields}"
    if k.active_in:
        s += "; its Ongoing abilities work while it is in " + join_and(
            [("its owner's " + en.zone_noun(z)) if z in en.sym.zones and en.sym.zones[z].per_player
             else en.zone_name(z) for z in k.active_in], "or")
    return s + "."


def cell(en: EnglishBase, c) -> str:
    """A table cell: a quoted text without its quotes, anything else as an expression."""
    if isinstance(c, A.Literal) and isinstance(c.value, str):
        return c.value
    if isinstance(c, A.Name) and c.name in en.sym.members:
        return en.display(c.name)
    if isinstance(c, A.Literal) and c.value is None:
        return "—"
    return en.expr(c)


def d_cardrow(en: EnglishBase, r: A.CardRow) -> str:
    return " | ".join(cell(en, c) for c in r.cells)


def d_cards(en: EnglishBase, c: A.Cards) -> str:
    total = 0
    idx = c.columns.index("count") if "count" in c.columns else None
    for r in c.rows:
        if idx is not None and idx < len(r.cells) and isinstance(r.cells[idx], A.Literal):
            total += int(r.cells[idx].value)
        else:
            total += 1
    return f"{total} {kind_noun(c.kind)} card{'s' if total != 1 else ''} ({len(c.rows)} different), starting in " \
           f"{en.zone_name(c.zone)}."


VISIBILITY = {"public": "face up, seen by everyone", "hidden": "face down",
              "owner": "seen only by its owner"}


def d_zone(en: EnglishBase, z: A.Zone) -> str:
    s = f"{cap(humanize(z.name))}: {kind_noun(z.kind)} cards, {VISIBILITY.get(z.visibility, z.visibility)}"
    if z.per_player:
        s += "; one per player"
    if z.limit is not None:
        s += f"; at most {en.expr(z.limit)}"
    return s + "."


def d_var(en: EnglishBase, v: A.Var) -> str:
    name = cap(en.varname(v.name))
    if isinstance(v.init, A.Literal) and v.init.value is None:
        init = "nobody" if v.type.form == "named" and v.type.name == "player" else "none"
        return f"{name}{' (each player)' if v.per_player else ''}: starts as {init}."
    if v.keyed_by is not None:
        s = f"{name} of each {v.keyed_by.type.name or 'key'}: starts as {en.expr(v.init)}"
    else:
        s = f"{name}{' (each player)' if v.per_player else ''}: starts at {en.expr(v.init)}"
    if v.minimum is not None:
        s += f", never below {en.expr(v.minimum)}"
    return s + "."


def d_param(en: EnglishBase, p: A.Param) -> str:
    return f"{cap(en.varname(p.name))}{' (each player)' if p.per_player else ''}: {en.expr(p.value)}."


def d_paramdecl(en: EnglishBase, p: A.ParamDecl) -> str:
    return f"{humanize(p.name)} ({en.typeref(p.type)})"


def d_event(en: EnglishBase, e: A.Event) -> str:
    s = f"Event {quote(humanize(e.name))}"
    if e.params:
        s += " with " + join_and([d_paramdecl(en, p) for p in e.params])
    return s + "."


def d_function(en: EnglishBase, f: A.Function) -> str:
    params = ", ".join(humanize(p.name) for p in f.params)
    head = humanize(f.name) + (f" ({params})" if params else "")
    return f"{cap(head)}: {en.expr(f.body)}."


def d_procedure(en: EnglishBase, p: A.Procedure) -> str:
    return "\n".join([cap(humanize(p.name)) + ":"] + ["  " + s.flat(1).strip() for s in en.render(p.body)])


def d_actionparam(en: EnglishBase, p: A.ActionParam) -> str:
    if p.domain is not None:
        ty = p.domain.ty.element() if p.domain.ty is not None else None
        return f"{en.intro(p.name, ty)} from {en.expr(p.domain)}"
    enum = en.sym.enums.get(p.type.name) if p.type.form == "named" and not p.type.optional else None
    if enum is not None:  # a typed parameter of an enum: its members, as a player reads them
        return f"{en.local(p.name, None)}: {join_and([en.display(m.name) for m in enum.members], 'or')}"
    return f"{humanize(p.name)}: any {en.typeref(p.type).split(' ', 1)[-1]}"


def d_action(en: EnglishBase, a: A.Action) -> str:
    s = cap(humanize(a.name))
    if a.params:
        s += " (choose " + join_and([d_actionparam(en, p) for p in a.params]) + ")"
    return s + ":\n" + "\n".join("  " + st.flat(1).strip() for st in en.render(a.body))


def d_eventpattern(en: EnglishBase, p: A.EventPattern) -> str:
    return trigger_head(en, p)


def trigger_head(en: EnglishBase, p: A.EventPattern) -> str:
    if p.form == "moved":
        return "whenever a card moves from one zone to another"
    if p.form == "changed":
        v = en.sym.vars.get(p.name)
        per_player = v is not None and v[0].per_player
        owner = "a player's " if per_player else "the "
        return f"whenever {owner}{en.varname(p.name)} changes"
    ev = en.sym.events.get(p.name)
    types = (ev[1] or []) if ev else []
    reading = en.phrase(ev[0], [binder_noun(en, b, types[i] if i < len(types) else None)
                                for i, b in enumerate(p.binders)]) if ev else None
    if reading is not None:
        return "whenever " + reading
    s = f"whenever {quote(humanize(p.name))} happens"
    binders = [(b, types[i] if i < len(types) else None) for i, b in enumerate(p.binders) if b != "_"]
    if binders:
        s += " (" + ", ".join(en.local(b, t) for b, t in binders) + ")"
    return s


def binder_types(en: EnglishBase, t: A.Trigger) -> dict:
    """The types of a custom event's binders, by binder name."""
    ev = en.sym.events.get(t.event.name) if t.event.form == "custom" else None
    types = (ev[1] or []) if ev else []
    return {b: types[i] for i, b in enumerate(t.event.binders) if i < len(types) and b != "_"}


def binder_noun(en: EnglishBase, name: str, ty) -> str:
    """How an event's binder reads in a trigger's head: its role, or "a player" / "a card" for `_`."""
    if name == "_":
        return "a player" if ty is not None and ty.kind == "player" else article(en.type_noun(ty))
    return en.local(name, ty)


def bind_trigger(en: EnglishBase, t: A.Trigger) -> dict:
    """How a trigger's binders read inside its condition and body."""
    names = {}
    p = t.event
    if p.form == "moved":
        roles = ["the moved card", "the zone it left", "the zone it entered"]
    elif p.form == "changed":
        v = en.sym.vars.get(p.name)
        roles = (["the player", "the old value", "the new value"] if v and v[0].per_player
                 else ["the key", "the old value", "the new value"] if v and v[0].keyed_by
                 else ["the old value", "the new value"])
    else:
        roles = []
    for b, r in zip(p.binders, roles):
        names[b] = r
    return names


def d_trigger(en: EnglishBase, t: A.Trigger) -> str:
    head, steps = trigger_parts(en, t)
    return head + "\n" + "\n".join("  " + s.flat(1).strip() for s in steps)


def conjuncts(cond) -> list:
    if isinstance(cond, A.BinOp) and cond.op == "and":
        return conjuncts(cond.left) + conjuncts(cond.right)
    return [] if cond is None else [cond]


def _binder_test(c, binders: list):
    """(binder, op, other side) of a conjunct `b == X` / `b != X` on one of the trigger's binders, or None."""
    if isinstance(c, A.BinOp) and c.op in ("==", "!=") and isinstance(c.left, A.Name) and c.left.name in binders:
        return c.left.name, c.op, c.right
    return None


def focus_trigger(en: EnglishBase, t: A.Trigger) -> tuple:
    """Fold tests on the binders into the head: `p == you` reads "you …", `p != you` "another player …",
    a moved card's `from == Z` "a card leaves Z". Returns (head roles, body roles, the other conjuncts, head)."""
    head_roles, body_roles, rest = {}, {}, []
    binders = [b for b in t.event.binders if b != "_"]
    moved = None
    for c in conjuncts(t.cond):
        test = _binder_test(c, binders)
        if test is not None:
            b, op, other = test
            you = isinstance(other, A.Name) and (other.name == "you" or kind_of(other) is RefKind.YOU)
            if you and b not in head_roles:
                head_roles[b], body_roles[b] = ("you", "you") if op == "==" else ("another player", "that player")
                continue
            me = isinstance(other, A.Name) and (other.name == "self" or kind_of(other) is RefKind.SELF)
            if me and op == "!=" and b not in head_roles:
                ty = binder_types(en, t).get(b)
                noun = en.type_noun(ty.plain()) if ty is not None else "card"
                head_roles[b], body_roles[b] = f"another {noun}", f"that {noun}"
                continue
            if t.event.form == "moved" and op == "==" and moved is None and b in t.event.binders[1:3] \
                    and isinstance(other, A.Name) and kind_of(other) is RefKind.ZONE:
                moved = ("leaves " if t.event.binders.index(b) == 1 else "enters ") + en.expr(other)
                continue
        rest.append(c)
    head = None
    if moved is not None:
        card = en.local(t.event.binders[0], None) if t.event.binders and t.event.binders[0] != "_" else "a card"
        head = f"whenever {'a card' if card.startswith('the ') else card} {moved}"
    return head_roles, body_roles, rest, head


def trigger_parts(en: EnglishBase, t: A.Trigger) -> tuple:
    saved = dict(en.roles)
    en.roles.update(bind_trigger(en, t))
    try:
        head_roles, body_roles, rest, moved_head = focus_trigger(en, t)
        en.roles.update(head_roles)
        head = cap(moved_head or trigger_head(en, t.event))
        en.roles.update(body_roles)
        if rest:
            head += ", if " + " and ".join(en.expr(c) for c in rest)
        if t.after_action:
            head += ", after the current action has fully resolved"
        if t.order:
            head += f" (order {t.order} among effects that happen together)"
        head += ":"
        steps = en.steps(t.body)
    finally:
        en.roles = saved
    return head, steps


def d_instant(en: EnglishBase, i: A.Instant) -> str:
    return "Instant: " + " ".join(s.flat().replace("\n", " ") for s in en.steps(i.body))


def static_text(en: EnglishBase, s: A.StaticMod) -> str:
    p = en.sym.params.get(s.name)
    per_player = p is not None and p[0].per_player
    name = ("your " if per_player else "the ") + en.varname(s.name)
    value = s.value
    if s.op in ("+=", "-=") and isinstance(value, A.IfExpr) and isinstance(value.other, A.Literal) \
            and value.other.value == 0:
        verb = f"add {en.expr(value.then)} to" if s.op == "+=" else f"subtract {en.expr(value.then)} from"
        return sentence(f"if {en.expr(value.cond)}, {verb} {name}")
    v = en.expr(value)
    if s.op == "=":
        return sentence(f"{name} is {v}")
    if s.op == "+=":
        return sentence(f"add {v} to {name}")
    return sentence(f"subtract {v} from {name}")


def d_static(en: EnglishBase, s: A.StaticMod) -> str:
    return "Ongoing: " + static_text(en, s)


def d_abilities(en: EnglishBase, ab: A.Abilities) -> str:
    parts = []
    if ab.instant:
        parts.append(d_instant(en, ab.instant))
    for t in ab.triggers:
        parts.append("Ongoing: " + d_trigger(en, t))
    for s in ab.statics:
        parts.append(d_static(en, s))
    return f"{join_and([quote(c) for c in ab.cards])}: " + " ".join(parts)


def d_setup(en: EnglishBase, s: A.Setup) -> str:
    return "Setup:\n" + "\n".join(st.flat(1) for st in en.steps(s.body))


def d_play(en: EnglishBase, s: A.Play) -> str:
    return "Play:\n" + "\n".join(st.flat(1) for st in en.steps(s.body))


def score_step(en: EnglishBase, st: A.ScoreStep, var: str) -> str:
    with en.as_you(var):
        if st.form == "score":
            return f"{st.label}: {en.expr(st.expr)}."
        if st.form == "tiebreak":
            return f"Ties are broken by {st.label}: {en.expr(st.expr)}."
        return f"You lose (whatever your score) if {en.expr(st.expr)}."


def d_scorestep(en: EnglishBase, st: A.ScoreStep) -> str:
    var = en.sym.scoring.var if en.sym.scoring is not None else "p"
    return score_step(en, st, var)


def d_scoring(en: EnglishBase, s: A.Scoring) -> str:
    return "Scoring: " + " ".join(score_step(en, st, s.var) for st in s.steps)


def weight_text(weight: int) -> str:
    """A heuristic's weight as a share: "60%", "−5%"."""
    return f"{weight:,}%".replace("-", "−")


def estimate(en: EnglishBase, t: A.Estimate, var: str) -> str:
    with en.as_you(var):
        return f"{t.label}, counted at {weight_text(t.weight)}: {en.expr(t.expr)}."


def d_estimate(en: EnglishBase, t: A.Estimate) -> str:
    return estimate(en, t, en.sym.heuristic.var if en.sym.heuristic is not None else "p")


def advice(en: EnglishBase, t: A.Advice, var: str) -> str:
    with en.as_you(var):
        return f"AI players consider {humanize(t.action)} only when {t.label}: {en.expr(t.cond)}."


def d_advice(en: EnglishBase, t: A.Advice) -> str:
    return advice(en, t, en.sym.heuristic.var if en.sym.heuristic is not None else "p")


def d_heuristic(en: EnglishBase, h: A.Heuristic) -> str:
    return " ".join(["AI players value an unfinished game as your score if it ended now, plus: "
                     + " ".join(estimate(en, t, h.var) for t in h.terms)] + [advice(en, t, h.var) for t in h.advice])


def d_variant(en: EnglishBase, v: A.Variant) -> str:
    return f"Variant {quote(v.name)}: " + (v.doc or f"changes {len(v.decls)} rule(s)").splitlines()[0]


def d_remove(en: EnglishBase, r: A.Remove) -> str:
    return f"Removes {quote(r.name) if r.quoted else humanize(r.name)}."


def d_extends(en: EnglishBase, e: A.Extends) -> str:
    under = f", variant {quote(e.variant)}" if e.variant else ""
    return f"A house rule: the game of {e.path}{under}, changed as follows."


def d_invariant(en: EnglishBase, i: A.Invariant) -> str:
    return f"{cap(i.name)}: at every moment, {en.expr(i.cond)}."


def d_showitem(en: EnglishBase, item: A.ShowItem) -> str:
    if item.zone:
        rows = f" in rows of {en.expr(item.rows)}, the newest first" if item.rows is not None else ""
        if item.beside is not None:
            rows += f", each beside its item of {en.expr(item.beside)} (the first beside the first row laid)"
        marks = "".join(", " + d_zonemark(en, m) for m in item.marks)
        return f"the cards of {en.expr(item.expr)}{rows}, as each player sees them{marks}"
    return f"{item.label}: {en.expr(item.expr)}" if item.label else en.expr(item.expr)


def d_zonemark(en: EnglishBase, m: A.ZoneMark) -> str:
    return f"marked “{m.label}” if among {en.expr(m.cards)}"


def d_tablepart(en: EnglishBase, part: A.TablePart) -> str:
    shown = []
    for item in part.items:
        with en.scope(item):  # each item's own short names: `w` may be an Area in one and a Wish in another
            shown.append(d_showitem(en, item))
    items = "; ".join(shown) or "nothing"
    if part.form == "board":
        ty = part.cells.ty.element() if part.cells.ty is not None else None
        if ty is not None and ty.kind in ("list", "set"):
            ty = ty.element()
        noun = plural(en.type_noun(ty)) if ty is not None else "cells"
        return f"A board with a place for each of the {noun} laid out in it, showing {items}."
    if part.form == "panel":
        return f"For each player: {items}."
    return f"For everyone: {items}."


def d_table(en: EnglishBase, t: A.Table) -> str:
    return "\n".join(["What the table shows:"] + ["  " + d_tablepart(en, p) for p in t.parts])


def d_program(en: EnglishBase, p: A.Program) -> str:
    return f"A game file with {len(p.decls)} declarations."


RENDER: dict = {
    A.TypeRef: d_typeref, A.Annotation: d_annotation, A.Game: d_game, A.EnumMember: d_enum_member,
    A.Enum: d_enum, A.FieldDecl: d_field, A.CardKind: d_cardkind, A.CardRow: d_cardrow, A.Cards: d_cards,
    A.Zone: d_zone, A.Var: d_var, A.Param: d_param, A.ParamDecl: d_paramdecl, A.Event: d_event,
    A.Function: d_function, A.Procedure: d_procedure, A.ActionParam: d_actionparam, A.Action: d_action,
    A.EventPattern: d_eventpattern, A.Trigger: d_trigger, A.Instant: d_instant, A.StaticMod: d_static,
    A.Abilities: d_abilities, A.Setup: d_setup, A.Play: d_play, A.ScoreStep: d_scorestep,
    A.Scoring: d_scoring, A.Estimate: d_estimate, A.Advice: d_advice, A.Heuristic: d_heuristic, A.Variant: d_variant,
    A.Remove: d_remove, A.Extends: d_extends,
    A.Invariant: d_invariant, A.ShowItem: d_showitem, A.TablePart: d_tablepart, A.Table: d_table,
    A.ZoneMark: d_zonemark,
    A.Program: d_program,
}
