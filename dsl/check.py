"""Stage 2: resolve names, check types, arity, duplicates and visibility; collect every error.

The checker annotates expressions in place (`expr.ty`, `expr.ref`) for the compiler, and returns a
`Symbols` table of the resolved game.
"""
from __future__ import annotations

from typing import Optional

import attrs

from . import ast as A
from . import types as T
from .check_exprs import ExprChecks
from .check_stmts import StmtChecks
from .check_table import TableChecks
from .errors import Diagnostic, WishCheckError, did_you_mean
from .limits import MAX_CARDS, MAX_WEIGHT
from .scope import CARD_BUILTIN_FIELDS, RESERVED, Scope


@attrs.define
class Symbols:
    """Every declaration of a resolved game, by name."""

    game: Optional[A.Game] = None
    enums: dict = attrs.Factory(dict)
    members: dict = attrs.Factory(dict)  # member name → enum name
    enum_fields: dict = attrs.Factory(dict)  # enum → {field: Type}
    var_keys: dict = attrs.Factory(dict)  # keyed variable → Type of its key
    kinds: dict = attrs.Factory(dict)
    fields: dict = attrs.Factory(dict)  # kind → {field: Type}
    zones: dict = attrs.Factory(dict)
    vars: dict = attrs.Factory(dict)  # name → (Var, Type)
    params: dict = attrs.Factory(dict)  # name → (Param, Type)
    events: dict = attrs.Factory(dict)  # name → (Event, [Type])
    functions: dict = attrs.Factory(dict)  # name → (Function, [Type], Type)
    procedures: dict = attrs.Factory(dict)  # name → (Procedure, [Type])
    actions: dict = attrs.Factory(dict)  # name → Action
    cards: dict = attrs.Factory(dict)  # card name → kind
    card_decls: list = attrs.Factory(list)
    abilities: dict = attrs.Factory(dict)  # card name → Abilities
    triggers: list = attrs.Factory(list)
    setup: Optional[A.Setup] = None
    play: Optional[A.Play] = None
    scoring: Optional[A.Scoring] = None
    heuristic: Optional[A.Heuristic] = None
    table: Optional[A.Table] = None
    variants: dict = attrs.Factory(dict)
    invariants: list = attrs.Factory(list)


class Checker(StmtChecks, ExprChecks, TableChecks):
    def __init__(self, decls: list, path: str):
        self.decls = decls
        self.path = path
        self.card_total = 0  # card instances declared so far (MAX_CARDS)
        self.typo_line = None  # (file, line) of a statement reported as a misspelt keyword (check_stmts)
        self.diags: list = []
        self.sym = Symbols()

    # ---------------------------------------------------------------- reporting
    def error(self, node, message: str, hint: Optional[str] = None) -> None:
        span = node.span if isinstance(node, A.Node) else node
        self.diags.append(Diagnostic(span, message, hint))

    def unknown(self, node, what: str, name: str, candidates) -> None:
        self.error(node, f"unknown {what} '{name}'", did_you_mean(name, candidates))

    # ---------------------------------------------------------------- entry
    def run(self) -> Symbols:
        self.declare()
        self.check_bodies()
        return self.sym

    def all_global_names(self):
        s = self.sym
        return [*s.vars, *s.params, *s.zones, *s.members, *s.enums, *s.functions, *s.procedures, "players"]

    # ---------------------------------------------------------------- pass 1: declarations
    def declare(self) -> None:
        s = self.sym
        seen: dict = {}
        singletons = {A.Game: "game", A.Setup: "setup", A.Play: "play", A.Scoring: "scoring", A.Table: "table",
                      A.Heuristic: "heuristic"}
        for d in self.decls:
            self.check_reads(d)
            if isinstance(d, A.Variant):
                if d.name in s.variants:
                    self.error(d, f"variant \"{d.name}\" is declared twice",
                               f"the first is at line {s.variants[d.name].span.line}")
                s.variants[d.name] = d
                continue
            if isinstance(d, A.Remove):
                self.error(d, "'remove' belongs inside a variant or a file that extends a game")
                continue
            if isinstance(d, A.Extends):
                self.error(d, "'extends' belongs at the top level of a file, not inside a variant")
                continue
            if getattr(d, "merge", False):
                self.error(d, "'change' belongs inside a variant or a file that extends a game",
                           "it changes a table or a scoring section the game declares; here there is none")
            if type(d) in singletons:
                key = singletons[type(d)]
                if getattr(s, key) is not None:
                    self.error(d, f"a game has one '{key}' section; this is a second one",
                               f"the first is at line {getattr(s, key).span.line}")
                setattr(s, key, d)
                continue
            if isinstance(d, A.Trigger):
                if d.name is not None and any(t.name == d.name for t in s.triggers):
                    self.error(d, f"trigger '{d.name}' is declared twice")
                s.triggers.append(d)
                continue
            if isinstance(d, A.Invariant):
                if any(i.name == d.name for i in s.invariants):
                    self.error(d, f"invariant \"{d.name}\" is declared twice")
                s.invariants.append(d)
                continue
            if isinstance(d, A.Abilities):
                for card in d.cards:
                    if card in s.abilities:
                        self.error(d, f"abilities of \"{card}\" are declared twice",
                                   f"the first are at line {s.abilities[card].span.line}")
                    else:
                        s.abilities[card] = d
                continue
            if isinstance(d, A.Cards):
                s.card_decls.append(d)
                continue
            name = d.name
            if name in seen:
                prev = seen[name]
                self.error(d, f"'{name}' is already declared", f"the first declaration is at line {prev.span.line}")
                continue
            if name in RESERVED or name in T.BASE_TYPE_NAMES:
                self.error(d, f"'{name}' is a built-in name and cannot be declared")
                continue
            seen[name] = d
            if isinstance(d, A.Enum):
                s.enums[name] = d
                if d.columns:
                    d.members = self.table_members(d)
                for m in d.members:
                    if m.name in s.members:
                        self.error(m, f"'{m.name}' is already a member of enum {s.members[m.name]}")
                    elif (m.name in seen and not isinstance(seen[m.name], A.Action)) or m.name in RESERVED:
                        self.error(m, f"enum member '{m.name}' clashes with another name")
                    else:
                        s.members[m.name] = name
            elif isinstance(d, A.CardKind):
                s.kinds[name] = d
            elif isinstance(d, A.Zone):
                s.zones[name] = d
            elif isinstance(d, A.Var):
                s.vars[name] = (d, None)
            elif isinstance(d, A.Param):
                s.params[name] = (d, None)
            elif isinstance(d, A.Event):
                s.events[name] = (d, None)
            elif isinstance(d, A.Function):
                s.functions[name] = (d, None, None)
            elif isinstance(d, A.Procedure):
                s.procedures[name] = (d, None)
            elif isinstance(d, A.Action):
                s.actions[name] = d
        for m, e in s.members.items():
            if m in seen and not isinstance(seen[m], A.Action):
                self.error(seen[m], f"'{m}' is already a member of enum {e}")
        if s.game is None:
            self.error(A.Span(self.path, 1, 1, 1, 2), "the file declares no game",
                       'start with: game "Name" { players 2..4 }')
        elif not (1 <= s.game.min_players <= s.game.max_players):
            self.error(s.game, f"players {s.game.min_players}..{s.game.max_players} is not a valid range",
                       "write the smallest count first, at least 1")
        if s.play is None:
            self.error(A.Span(self.path, 1, 1, 1, 2), "the game has no 'play' section", "add: play { ... }")
        self.declare_types()

    def table_members(self, d: A.Enum) -> list:
        """The members of an enum written as a table: one row each, named in its `member` column."""
        members = []
        allowed = ["member", "display", *(f.name for f in d.fields)]
        for c in d.columns:
            if c not in allowed:
                self.error(d.columns_span, f"unknown column '{c}' for enum {d.name}", did_you_mean(c, allowed))
        if "member" not in d.columns:
            self.error(d.columns_span, "an enum table needs a 'member' column")
            return members
        for row in d.rows:
            if len(row.cells) != len(d.columns):
                self.error(row.cells_span,
                           f"this row has {len(row.cells)} cells; the table has {len(d.columns)} columns")
                continue
            cells = dict(zip(d.columns, row.cells))
            name = cells["member"]
            if not isinstance(name, A.Name):
                self.error(name, "a member is written as a plain name")
                continue
            display = cells.get("display")
            if display is not None and not (isinstance(display, A.Literal) and isinstance(display.value, str)):
                self.error(display, "a display name is a quoted string")
                display = None
            members.append(A.EnumMember(name.name, display.value if display is not None else None, row.annots,
                                        span=name.span))
        return members

    def check_enum_tables(self) -> None:
        for e in self.sym.enums.values():
            if not e.columns:
                continue
            fields = self.sym.enum_fields[e.name]
            for f in e.fields:
                if f.name not in e.columns:
                    self.error(e.columns_span, f"column '{f.name}' is missing")
            for row in e.rows:
                if len(row.cells) != len(e.columns):
                    continue
                for col, cell in zip(e.columns, row.cells):
                    if col in fields:
                        self.expect(cell, fields[col], Scope(pure=True), f"column '{col}'")

    def type_of(self, ref: A.TypeRef) -> T.Type:
        t = T.from_ref(ref, set(self.sym.enums), set(self.sym.kinds))
        if t is None:
            bad = ref
            while bad.form != "named":
                bad = bad.elem
            self.unknown(bad, "type", bad.name, [*self.sym.enums, *self.sym.kinds, *T.BASE_TYPE_NAMES])
            return T.ANY
        if ref.form in ("set", "bag") and t.elem.kind != "enum":
            self.error(ref, f"a {ref.form} holds values of an enum, not {t.elem}")
        return t

    def declare_types(self) -> None:
        s = self.sym
        for name, e in s.enums.items():
            fields = {}
            for f in e.fields:
                if f.name in fields or f.name in ("member", "display", "name"):
                    self.error(f, f"field '{f.name}' of enum {name} is declared twice or is reserved")
                fields[f.name] = self.type_of(f.type)
            s.enum_fields[name] = fields
        for name, k in s.kinds.items():
            fields = {}
            for f in k.fields:
                if f.name in fields or f.name in CARD_BUILTIN_FIELDS:
                    self.error(f, f"card field '{f.name}' is declared twice" if f.name in fields
                               else f"'{f.name}' is a built-in card field")
                fields[f.name] = self.type_of(f.type)
            s.fields[name] = fields
        for z in s.zones.values():
            if z.kind not in s.kinds:
                self.unknown(z, "card kind", z.kind, s.kinds)
            if z.visibility == "owner" and not z.per_player:
                self.error(z, f"zone '{z.name}' is shared, so it has no owner to be visible to",
                           "write 'player zone' for one per player, or use public / hidden")
        for name, (v, _) in list(s.vars.items()):
            s.vars[name] = (v, self.type_of(v.type))
            if v.keyed_by is not None:
                kt = self.type_of(v.keyed_by.type)
                if v.per_player:
                    self.error(v, "a variable has one value per player or one per key, not both")
                elif kt.kind not in ("enum", "player", "any") or kt.optional:
                    self.error(v.keyed_by, f"a variable is keyed by an enum or by player, not by {kt}")
                s.var_keys[name] = kt
        for name, (p, _) in list(s.params.items()):
            s.params[name] = (p, self.type_of(p.type))
        for name, (e, _) in list(s.events.items()):
            s.events[name] = (e, [self.type_of(p.type) for p in e.params])
        for name, (f, _, _) in list(s.functions.items()):
            s.functions[name] = (f, [self.type_of(p.type) for p in f.params], self.type_of(f.type))
        for name, (p, _) in list(s.procedures.items()):
            s.procedures[name] = (p, [self.type_of(q.type) for q in p.params])
        for k in s.kinds.values():
            for z in k.active_in:
                if z not in s.zones:
                    self.unknown(k, "zone", z, s.zones)
        for cd in s.card_decls:
            self.declare_cards(cd)

    def declare_cards(self, cd: A.Cards) -> None:
        s = self.sym
        if cd.kind not in s.kinds:
            self.unknown(cd, "card kind", cd.kind, s.kinds)
            return
        zone = s.zones.get(cd.zone)
        if zone is None:
            self.unknown(cd, "zone", cd.zone, s.zones)
        elif zone.per_player:
            self.error(cd, f"cards start in a shared zone; '{cd.zone}' is a player zone")
        elif zone.kind != cd.kind:
            self.error(cd, f"zone '{cd.zone}' holds {zone.kind} cards, not {cd.kind}")
        fields = s.fields[cd.kind]
        allowed = ["name", "count", *fields]
        for c in cd.columns:
            if c not in allowed:
                self.error(cd.columns_span, f"unknown column '{c}' for {cd.kind} cards", did_you_mean(c, allowed))
        if "name" not in cd.columns:
            self.error(cd.columns_span, "a card table needs a 'name' column")
        for f in s.kinds[cd.kind].fields:
            if f.name not in cd.columns and f.default is None:
                self.error(cd.columns_span, f"column '{f.name}' is missing and the field has no default")
        for row in cd.rows:
            for a in row.annots:
                if a.name not in ROW_ANNOTATIONS:
                    self.unknown(a, "annotation of a card row", "@" + a.name, ["@" + n for n in ROW_ANNOTATIONS])
            if len(row.cells) != len(cd.columns):
                self.error(row.cells_span,
                           f"this row has {len(row.cells)} cells; the table has {len(cd.columns)} columns")
                continue
            for col, cell in zip(cd.columns, row.cells):
                if col == "name":
                    if not (isinstance(cell, A.Literal) and isinstance(cell.value, str)):
                        self.error(cell, "a card name is a quoted string")
                        continue
                    if cell.value in s.cards and s.cards[cell.value] != cd.kind:
                        self.error(cell, f"card \"{cell.value}\" is already a {s.cards[cell.value]} card")
                    s.cards[cell.value] = cd.kind
                elif col == "count":
                    if not (isinstance(cell, A.Literal) and type(cell.value) is int and cell.value >= 0):
                        self.error(cell, "a card count is a whole number, 0 or more")
                        continue
                    self.count_cards(cell.value, cell)
                elif col in fields:
                    self.expect(cell, fields[col], Scope(pure=True), f"column '{col}'")
            if "count" not in cd.columns:
                self.count_cards(1, row)

    def count_cards(self, n: int, node) -> None:
        """Add `n` card instances; the node that takes the game past MAX_CARDS is reported, once."""
        before = self.card_total
        self.card_total += n
        if before <= MAX_CARDS < self.card_total:
            self.error(node, f"this brings the game to {self.card_total:,} cards; a game has at most "
                             f"{MAX_CARDS:,} (all card tables together)")

    # ---------------------------------------------------------------- pass 2: bodies
    def check_bodies(self) -> None:
        s = self.sym
        root = Scope()
        for k in s.kinds.values():
            for f in k.fields:
                if f.default is not None:
                    self.expect(f.default, s.fields[k.name][f.name], Scope(pure=True), f"the default of '{f.name}'")
        for z in s.zones.values():
            if z.limit is not None:
                self.expect(z.limit, T.INT, Scope(pure=True), "a zone limit")
        self.check_enum_tables()
        for v, t in s.vars.values():
            sc = Scope(pure=True, you=v.per_player)
            if v.keyed_by is not None:
                self.no_shadow(v.keyed_by, v.keyed_by.name)
                sc.locals[v.keyed_by.name] = s.var_keys.get(v.name, T.ANY)
            self.expect(v.init, t, sc, f"the initial value of '{v.name}'")
            if v.minimum is not None:
                self.expect(v.minimum, T.INT, Scope(pure=True), "a minimum")
        for p, t in s.params.values():
            self.expect(p.value, t, Scope(pure=True, you=p.per_player), f"the value of '{p.name}'")
        for f, ptypes, ret in s.functions.values():
            sc = Scope(pure=True, locals=self.bind_params(f.params, ptypes))
            self.expect(f.body, ret, sc, f"the result of function '{f.name}'")
        for p, ptypes in s.procedures.values():
            self.block(p.body, Scope(locals=self.bind_params(p.params, ptypes)))
        for a in s.actions.values():
            self.check_action(a)
        if s.setup:
            self.block(s.setup.body, root.child())
        if s.play:
            self.block(s.play.body, root.child())
        for t in s.triggers:
            self.check_trigger(t, Scope())
        for ab in {id(ab): ab for ab in s.abilities.values()}.values():
            self.check_abilities(ab)
        for inv in s.invariants:
            self.expect(inv.cond, T.BOOL, Scope(pure=True), "an invariant")
        if s.table:
            self.check_table(s.table)
        if s.scoring:
            sc = Scope(pure=True, locals={s.scoring.var: T.PLAYER})
            for step in s.scoring.steps:
                self.expect(step.expr, T.BOOL if step.form == "lose" else T.INT, sc, f"a {step.form} step")
        if s.heuristic:
            self.check_heuristic(s.heuristic)

    def check_heuristic(self, h: A.Heuristic) -> None:
        """Each estimate: a whole number for the player, read as the scoring reads (pure), a weight within
        ±MAX_WEIGHT %, a label of its own. Each advice: a declared action, advised once, a condition (pure)."""
        sc = Scope(pure=True, locals={h.var: T.PLAYER})
        labels: dict = {}
        for term in h.terms:
            self.expect(term.expr, T.INT, sc, "an estimate")
            if abs(term.weight) > MAX_WEIGHT:
                self.error(term, f"a weight of {term.weight:,}%: weights are at most {MAX_WEIGHT:,}% either way")
            if term.label in labels:
                self.error(term, f"estimate \"{term.label}\" is weighed twice",
                           f"the first is at line {labels[term.label].span.line}")
            labels.setdefault(term.label, term)
        advised: dict = {}
        for advice in h.advice:
            self.expect(advice.cond, T.BOOL, sc, "an advice's condition")
            if advice.action not in self.sym.actions:
                self.unknown(advice, "action", advice.action, self.sym.actions)
            elif advice.action in advised:
                self.error(advice, f"action '{advice.action}' is advised twice",
                           f"the first is at line {advised[advice.action].span.line}; join the conditions with `or`")
            advised.setdefault(advice.action, advice)

    def bind_params(self, params, ptypes) -> dict:
        out = {}
        for p, t in zip(params, ptypes):
            if p.name in out:
                self.error(p, f"parameter '{p.name}' is declared twice")
            self.no_shadow(p, p.name)
            out[p.name] = t
        return out

    def no_shadow(self, node, name: str) -> None:
        s = self.sym
        if name in s.vars or name in s.params or name in s.zones or name in s.members or name in RESERVED - {"you"}:
            self.error(node, f"'{name}' already names something in this game; choose another name")

    def check_action(self, a: A.Action) -> None:
        sc = Scope(you=True, in_action=True)
        for p in a.params:
            self.no_shadow(p, p.name)
            if p.type is not None:
                t = self.type_of(p.type)
                if t.kind not in ("enum", "player", "bool", "any"):
                    self.error(p, f"an action parameter of type {t} needs a range: write '{p.name} in …'")
            else:
                dt = self.expr(p.domain, sc)
                t = dt.element() or T.ANY
                if dt.element() is None:
                    self.error(p.domain, f"'{p.name} in …' needs a list, set or zone, found {dt}")
            sc.locals[p.name] = t
        seen_other = False
        for st in a.body.stmts:
            if isinstance(st, A.Require):
                if seen_other:
                    self.error(st, "a 'require' must come before the action's effects")
            else:
                seen_other = True
        self.block(a.body, sc)

    def check_trigger(self, t: A.Trigger, sc: Scope) -> None:
        sc = sc.child()
        ev = t.event
        s = self.sym
        if ev.form == "custom":
            if ev.name not in s.events:
                self.unknown(ev, "event", ev.name, s.events)
                types = [T.ANY] * len(ev.binders)
            else:
                types = s.events[ev.name][1]
        elif ev.form == "changed":
            if ev.name not in s.vars:
                self.unknown(ev, "variable", ev.name, s.vars)
                types = [T.ANY] * len(ev.binders)
            else:
                v, vt = s.vars[ev.name]
                if v.per_player:
                    types = [T.PLAYER, vt, vt]
                elif v.keyed_by is not None:
                    types = [s.var_keys[ev.name], vt, vt]
                else:
                    types = [vt, vt]
        else:
            types = [T.card(None), T.zone(None), T.zone(None)]
        if len(ev.binders) > len(types):
            self.error(ev, f"this event gives {len(types)} value(s); {len(ev.binders)} names are bound")
        for name, ty in zip(ev.binders, types):
            if name != "_":
                self.no_shadow(ev, name)
                sc.locals[name] = ty
        if t.cond is not None:
            pure = attrs.evolve(sc, pure=True)
            self.expect(t.cond, T.BOOL, pure, "a trigger condition")
        self.block(t.body, sc)

    def check_abilities(self, ab: A.Abilities) -> None:
        s = self.sym
        kinds = set()
        for card in ab.cards:
            if card not in s.cards:
                self.unknown(ab, "card", card, s.cards)
            else:
                kinds.add(s.cards[card])
        if len(kinds) > 1:
            self.error(ab, "cards that share abilities must be of one kind, found " + ", ".join(sorted(kinds)))
        kind = next(iter(kinds)) if len(kinds) == 1 else None
        sc = Scope(you=True, self_kind=kind)
        if ab.instant:
            self.block(ab.instant.body, sc.child())
        for t in ab.triggers:
            self.check_trigger(t, sc)
        for st in ab.statics:
            if st.name not in s.params:
                self.unknown(st, "parameter", st.name, s.params)
                continue
            _, pt = s.params[st.name]
            if st.op != "=" and pt.kind not in ("int", "any"):
                self.error(st, f"'{st.op}' needs a number; '{st.name}' is {pt}")
            self.expect(st.value, pt, attrs.evolve(sc, pure=True), f"a static '{st.name}'")
        if (ab.triggers or ab.statics) and kind is not None and not s.kinds[kind].active_in:
            self.error(ab, f"{kind} cards have Ongoing or Static abilities but no 'active in' zones",
                       f"add 'active in ZONE' to card {kind}")

    # ---------------------------------------------------------------- @reads("…"): how a declaration reads in English
    def check_reads(self, d) -> None:
        """`@reads("{p} gain …")` on a function, procedure, event, action, variable or zone names only its parameters (a
        player variable's owner is `{player}`, a keyed variable's key is its key's name)."""
        for a in getattr(d, "annots", ()):
            if a.name not in ANNOTATIONS:
                self.unknown(a, "annotation", "@" + a.name, ["@" + n for n in ANNOTATIONS])
            elif a.name in VAR_ANNOTATIONS and not isinstance(d, A.Var):
                self.error(a, f"@{a.name} belongs on a variable", f"this is not one: it is a {type(d).__name__.lower()}")
            if a.name != "reads":
                continue
            names = A.reads_params(d)
            if names is None:
                self.error(a, "@reads belongs on a function, procedure, event, action, variable or zone")
            elif not a.text:
                self.error(a, "@reads needs a phrase", 'e.g. @reads("{p} shows the wish")')
            else:
                for ref in A.READS_SLOT.findall(a.text):
                    if ref not in names:
                        self.unknown(a, "parameter in @reads", ref, names)


ANNOTATIONS = ("reads", "reconstructed", "quiet", "logged", "bookkeeping")
"""@reads: how it reads in English; @reconstructed: a value the rulebook does not print; @quiet / @logged: whether a
variable's changes are logged; @bookkeeping: a variable the engine keeps that players do not track at the table
(left out of the cheat-sheet's table of what the game keeps track of)."""
VAR_ANNOTATIONS = ("quiet", "logged", "bookkeeping")
ROW_ANNOTATIONS = ("reconstructed", "new")  # `@new`: a row of `change cards` that adds a card


def check(decls: list, path: str, sources: dict) -> Symbols:
    """Check a resolved list of declarations; raise WishCheckError with every problem found."""
    c = Checker(decls, path)
    sym = c.run()
    if c.diags:
        diags = sorted(c.diags, key=lambda d: (d.span.file, d.span.line, d.span.col) if d.span else ("", 0, 0))
        unique, seen = [], set()
        for d in diags:
            k = (d.span, d.message)
            if k not in seen:
                seen.add(k)
                unique.append(d)
        raise WishCheckError(f"{len(unique)} error(s) in {path}", unique, sources)
    return sym
