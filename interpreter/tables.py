"""The Game's tables, built once from a checked game: indices of zones and variables, card definitions, actions,
triggers, parameters — and the rules module generated for them (interpreter/codegen.py)."""
from __future__ import annotations

from typing import Optional

import attrs

from dsl import ast as A
from dsl import types as T
from dsl.check_table import secret_read
from dsl.refs import RefKind, kind_of

from .codegen import CodeGen
from .frames import FrameKind
from .log import logged

try:
    from . import _cards as _C  # by_definition in C (setup.py), when compiled; the function below is the reference
except ImportError:
    _C = None


@attrs.define
class VarInfo:
    name: str
    ty: T.Type
    init: object
    minimum: Optional[int]
    logged: bool
    key_name: Optional[str] = None  # keyed variables: the binder of the key in the initial value
    key_type: Optional[T.Type] = None
    keys: Optional[tuple] = None  # the enum members it is keyed by; None when keyed by player
    bookkeeping: bool = False  # `@bookkeeping`: kept by the engine, not tracked by players (not shown to a person)
    card_refs: bool = attrs.field(init=False)  # its values name cards: changes are logged with who knew them

    def __attrs_post_init__(self) -> None:
        self.card_refs = T.holds_cards(self.ty)

    def key_values(self, st) -> tuple:
        return self.keys if self.keys is not None else st.seats

    def key_index(self, game, key) -> int:
        return game.member_order[key] if self.keys is not None else key


@attrs.define
class ParamInfo:
    name: str
    ty: T.Type
    value: object
    per_player: bool
    statics: list = attrs.Factory(list)  # (card def, kind, op, function)
    by_kind: Optional[dict] = None  # unless `in_order`: per card kind, card def → its statics ((op, function), …)

    @property
    def in_order(self) -> bool:
        """Must its statics apply in the game file's order: one sets the value, or the value is not a number (a
        list grows in order)? (A static's value cannot draw: `random` is an effect.)"""
        return self.ty.kind != "int" or any(op == "=" for _, _, op, _ in self.statics)

    def index_statics(self) -> None:
        """`by_kind`, for statics that only add and subtract numbers, whose order does not matter: the value then
        reads the cards in the zones where they are active, not every card that has a static."""
        self.by_kind = None
        if not self.statics or self.in_order:
            return
        self.by_kind = {}
        for d, kind, op, fn in self.statics:
            self.by_kind.setdefault(kind, {}).setdefault(d, []).append((op, fn))
        for defs in self.by_kind.values():
            for d, ops in defs.items():
                defs[d] = tuple(ops)


@attrs.define
class ActionDef:
    name: str
    param_names: list
    param_types: list
    domains: list
    guards: list  # leading requirements independent of the parameters: (condition, message)
    requires: list  # the others: (how many parameters are chosen before the check, condition, message)
    code: int
    span: A.Span
    enumerate: object = None  # (state, player, out): appends the key of every legal instance (compiled)
    cards: bool = False  # has a parameter whose value is, or holds, cards (its label depends on who knows them)
    reads: Optional[str] = None  # its `@reads` phrase: how a person reads one of its options

    def switch_off(self, reason: str) -> None:
        """Never legal from now on, for `reason` (an ablation: wishdsl/coverage.py)."""
        self.guards.insert(0, (lambda st, env: False, reason))
        self.enumerate = _nothing


def _nothing(st, who, out) -> None:
    """The legal instances of an action switched off: none."""


@attrs.define
class TriggerDef:
    index: int
    source: Optional[int]  # card definition carrying it, None for a rule of the game
    kind: Optional[str]
    binders: list
    cond: object
    after: bool
    order: int
    code: int
    span: A.Span
    label: str
    name: Optional[str] = None  # `when NAME: …`
    early: bool = False  # its condition reads only the event and constants: checked when the event fires


    def describe(self) -> str:
        return f"{self.label} (line {self.span.line})"


@attrs.define
class CardDef:
    name: str
    kind: str
    fields: dict
    reconstructed: Optional[str]


class Identities:
    """Which card each instance is: `of[c]` is instance c's card definition, `instances[d]` the instances of
    definition d. A fact of one world, held by its State: a sample of an information set is a State with other
    identities. Never changed once made (states share it; a new world gets a new one)."""

    __slots__ = ("of", "_ndefs", "_instances")

    def __init__(self, of, ndefs: int):
        self.of = tuple(of)
        self._ndefs = ndefs
        self._instances = None

    @property
    def instances(self) -> tuple:
        """Per card definition, its instances (worked out when first asked: samples rarely need it)."""
        if self._instances is None:
            self._instances = BY_DEFINITION(self.of, self._ndefs)
        return self._instances


def by_definition(of: tuple, ndefs: int) -> tuple:
    """Per card definition, the instances that are it, in order (`of[c]`: instance c's definition)."""
    by_def = [[] for _ in range(ndefs)]
    for c, d in enumerate(of):
        by_def[d].append(c)
    return tuple(tuple(cs) for cs in by_def)


BY_DEFINITION = by_definition if _C is None else _C.by_definition


@attrs.define
class Layout:
    """Where each zone's cards live for one player count: zone slots, their names, owners, visibility."""

    slots: int
    slot_names: list
    slot_owner: list
    slot_vis: list
    slot_limit: list
    pzone_base: int
    active: dict
    slot_keep: list  # who comes to know a face-down card arriving in the slot: all, its owner, or nobody
    slot_public: list  # is the slot's visibility public?
    moves_heard: bool  # does a trigger listen to card moves?
    slot_arrival: tuple = attrs.field(init=False)  # per slot, what a card move into it reads: (public?, keep, limit)
    active_order: dict = attrs.field(init=False)  # per card kind, the slots where its abilities are active, in order

    def __attrs_post_init__(self) -> None:
        self.slot_arrival = tuple(zip(self.slot_public, self.slot_keep, self.slot_limit))
        self.active_order = {kind: tuple(sorted(slots)) for kind, slots in self.active.items()}


def event_key(ev: A.EventPattern) -> tuple:
    """What a trigger listens to: ("custom", event), ("changed", variable) or ("moved",)."""
    if ev.form == "custom":
        return ("custom", ev.name)
    if ev.form == "changed":
        return ("changed", ev.name)
    return ("moved",)


def pattern_text(ev: A.EventPattern) -> str:
    if ev.form == "changed":
        return f"{ev.name} changes"
    if ev.form == "moved":
        return "a card moves"
    return ev.name


def score_seen(sym) -> tuple:
    """Who may see each `score` step of the scoring mid-game: "all" (it reads only what everyone sees), "own"
    (also the scored player's own secrets, such as a Destiny card) or "none" (cards not even their holder sees)."""
    out = []
    for step in sym.scoring.steps:
        if step.form == "score":
            out.append("all" if secret_read(step.expr, sym) is None else
                       "own" if secret_read(step.expr, sym, sym.scoring.var) is None else "none")
    return tuple(out)


class Builder:
    """Fills a Game's tables from its checked symbols: `Builder(game).build()`. Tables name the functions of
    the rules module first (by their generated names) and hold the compiled functions once it is compiled."""

    def __init__(self, game):
        self.g = game
        self.sym = game.sym
        self.constants: list = []  # (function name, what to do with its value)

    def build(self) -> None:
        g, sym = self.g, self.sym
        self.indices()
        g.trigger_keys = {event_key(t.event) for t in sym.triggers}
        g.trigger_keys |= {event_key(t.event) for ab in sym.abilities.values() for t in ab.triggers}
        gen = self.gen = CodeGen(g)
        root = gen.root
        self.enum_data()
        self.cards()
        g.params = [self.param(p, t) for p, t in sym.params.values()]
        g.gvars, g.pvars, g.kvars = ([self.var(v) for v in vs] for vs in self.var_groups)
        g.procedures = dict(gen.procedures)
        g.actions = {name: self.action(a) for name, a in sym.actions.items()}
        self.triggers_and_abilities()
        g.setup_code = gen.block(sym.setup.body, FrameKind.BLOCK, "setup") if sym.setup else None
        g.play_code = gen.block(sym.play.body, FrameKind.BLOCK, "play")
        g.scoring_var = sym.scoring.var if sym.scoring else "p"
        g.scoring = [(s.form, s.label, root(s.expr)) for s in sym.scoring.steps] if sym.scoring else []
        g.invariants = [(i.name, root(i.cond)) for i in sym.invariants]
        g.heuristic_var = sym.heuristic.var if sym.heuristic else "p"
        g.heuristic = [(t.label, t.weight, root(t.expr)) for t in sym.heuristic.terms] if sym.heuristic else []
        g.advice = {a.action: (a.label, root(a.cond)) for a in sym.heuristic.advice} if sym.heuristic else {}
        g.zone_limits = {z.name: root(z.limit) for z in sym.zones.values() if z.limit is not None}
        g.presentation = self.presentation(sym.table) if sym.table else None
        g.score_seen = score_seen(sym) if sym.table and sym.scoring else ()
        rules = g.rules = gen.compile()
        rules.fill(g.table, ("order", "members", "type", "cname"))  # what the constants below may read
        self.resolve(rules.fn)
        g.blocks, g.block_names, g.points, g.block_spans = rules.blocks, rules.names, rules.points, rules.block_spans
        rules.fill(g.table)

    def resolve(self, fn) -> None:
        """Put the compiled functions where the tables named them, and evaluate the constants."""
        g = self.g
        for name, put in self.constants:
            put(fn(name)(None, {}))
        for v in (*g.gvars, *g.pvars, *g.kvars):
            v.init = fn(v.init)
        for p in g.params:
            p.value = fn(p.value)
            p.statics = [(d, kind, op, fn(f)) for d, kind, op, f in p.statics]
            p.index_statics()
        for a in g.actions.values():
            a.enumerate = fn(a.enumerate)
            a.domains = [fn(d) for d in a.domains]
            a.guards = [(fn(c), m) for c, m in a.guards]
            a.requires = [(level, fn(c), m) for level, c, m in a.requires]
        for t in g.trigger_defs:
            t.cond = fn(t.cond) if t.cond is not None else None
        g.scoring = [(form, label, fn(f)) for form, label, f in g.scoring]
        g.invariants = [(name, fn(f)) for name, f in g.invariants]
        g.heuristic = [(label, weight, fn(f)) for label, weight, f in g.heuristic]
        g.advice = {name: (label, fn(f)) for name, (label, f) in g.advice.items()}
        g.zone_limits = {name: fn(f) for name, f in g.zone_limits.items()}
        if g.presentation is not None:
            g.presentation = [(form, var, fn(cells) if cells else None,
                               [(label, ty, fn(f) if f else None, zone if zone is None else (
                                   zone[0], zone[1], fn(zone[2]) if zone[2] else None,
                                   tuple((mark, fn(m)) for mark, m in zone[3]),
                                   (fn(zone[4][0]), zone[4][1]) if zone[4] else None))
                                for label, ty, f, zone in items], doc)
                              for form, var, cells, items, doc in g.presentation]

    def presentation(self, t: A.Table) -> list:
        """The game's `table`: (form, variable, cells, items, doc) per part; an item is (label, type, value, None)
        or (None, None, None, zone) with zone ("zone", slot, rows, marks, beside) or ("pzone", index, rows, marks,
        beside) — the player's function in the value's place — rows the function of `by N` or None, marks
        (label, function), beside (the function of `beside LIST`, its element type) or None."""
        root = self.gen.root
        parts = []
        for part in t.parts:
            items = []
            for item in part.items:
                rows = root(item.rows) if item.rows is not None else None
                marks = tuple((m.label, root(m.cards)) for m in item.marks)
                beside = None
                if item.beside is not None:
                    ty = item.beside.ty
                    beside = (root(item.beside), ty.element() if ty is not None and ty.kind == "list" else None)
                if not item.zone:
                    items.append((item.label, item.expr.ty, root(item.expr), None))
                elif kind_of(item.expr) is RefKind.ZONE:
                    items.append((None, None, None, ("zone", self.g.zone_base[item.expr.name], rows, marks, beside)))
                else:
                    items.append((None, None, root(item.expr.obj),
                                  ("pzone", self.g.pzone_index[item.expr.name], rows, marks, beside)))
            parts.append((part.form, part.var, root(part.cells) if part.cells is not None else None, items,
                          part.doc))
        return parts

    def value(self, e: A.Expr, put) -> None:
        """Evaluate a constant expression once the module is compiled and give it to `put`."""
        self.constants.append((self.gen.root(e), put))

    # ---------------------------------------------------------------- tables
    def indices(self) -> None:
        g, sym = self.g, self.sym
        g.zone_specs = [(z.name, z.visibility, z.per_player) for z in sym.zones.values()]
        g.kind_zones = {name: tuple(k.active_in) for name, k in sym.kinds.items()}
        g.enum_members = {name: tuple(m.name for m in e.members) for name, e in sym.enums.items()}
        g.member_display = {m.name: (m.display or m.name) for e in sym.enums.values() for m in e.members}
        g.member_order = {m: i for ms in g.enum_members.values() for i, m in enumerate(ms)}
        g.member_index = g.member_order
        shared = [z for z in sym.zones.values() if not z.per_player]
        per_player = [z for z in sym.zones.values() if z.per_player]
        g.zone_base = {z.name: i for i, z in enumerate(shared)}
        g.pzone_index = {z.name: j for j, z in enumerate(per_player)}
        g.pzone_base = len(shared)
        gv = [v for v, _ in sym.vars.values() if not v.per_player and v.keyed_by is None]
        pv = [v for v, _ in sym.vars.values() if v.per_player]
        kv = [v for v, _ in sym.vars.values() if v.keyed_by is not None]
        self.var_groups = (gv, pv, kv)
        g.gvar_index = {v.name: i for i, v in enumerate(gv)}
        g.pvar_index = {v.name: i for i, v in enumerate(pv)}
        g.kvar_index = {v.name: i for i, v in enumerate(kv)}
        g.param_index = {name: i for i, name in enumerate(sym.params)}

    def enum_data(self) -> None:
        """The fields of enum members written as tables: member → {field: value}."""
        g = self.g
        g.enum_data = {}
        for e in self.sym.enums.values():
            names = [f.name for f in e.fields]
            for row in e.rows:
                cells = dict(zip(e.columns, row.cells))
                data = g.enum_data[cells["member"].name] = {}
                for f in names:
                    self.value(cells[f], lambda v, data=data, f=f: data.__setitem__(f, v))

    def cards(self) -> None:
        g, sym = self.g, self.sym
        g.card_defs, g.defs_named, g.card_start = [], {}, []
        start_defs: list = []
        for cd in sym.card_decls:
            kind = sym.kinds[cd.kind]
            for row in cd.rows:
                cells = dict(zip(cd.columns, row.cells))
                fields: dict = {}
                for f in kind.fields:
                    put = lambda v, fields=fields, f=f.name: fields.__setitem__(f, v)  # noqa: E731
                    self.value(cells.get(f.name, f.default), put)
                name = cells["name"].value
                count = cells["count"].value if "count" in cells else 1
                rec = next((a.text or "reconstructed" for a in row.annots if a.name == "reconstructed"), None)
                d = len(g.card_defs)
                g.card_defs.append(CardDef(name, cd.kind, fields, rec))
                g.defs_named.setdefault(name, []).append(d)
                for _ in range(count):
                    start_defs.append(d)
                    g.card_start.append(g.zone_base[cd.zone])
        g.identities = Identities(start_defs, len(g.card_defs))

    def var(self, v: A.Var) -> VarInfo:
        g = self.g
        ty = self.sym.vars[v.name][1]
        info = VarInfo(v.name, ty, self.gen.root(v.init), None, logged(v, ty),
                       bookkeeping=any(a.name == "bookkeeping" for a in v.annots))
        if v.minimum is not None:
            self.value(v.minimum, lambda m: setattr(info, "minimum", m))
        if v.keyed_by is not None:
            kt = self.sym.var_keys[v.name]
            info.key_name, info.key_type = v.keyed_by.name, kt
            info.keys = g.enum_members[kt.name] if kt.kind == "enum" else None
        return info

    def param(self, p: A.Param, ty: T.Type) -> ParamInfo:
        return ParamInfo(p.name, ty, self.gen.root(p.value), p.per_player)

    def action(self, a: A.Action) -> ActionDef:
        names, types, domains = [], [], []
        for p in a.params:
            names.append(p.name)
            if p.domain is not None:
                domains.append(self.gen.root(p.domain, collection=True))
                types.append(p.domain.ty.element())
                continue
            t = T.from_ref(p.type, set(self.sym.enums), set(self.sym.kinds))
            types.append(t)
            domains.append(self.gen._root(self.gen.domain(p, t), p.span.line))
        guards, requires, rest = [], [], []
        for s in a.body.stmts:
            if isinstance(s, A.Require) and not rest:
                # A leading requirement is checked once the parameters it reads are chosen (never before an
                # earlier one): those that read none once per action, the others once per choice of them.
                level = max([i + 1 for i, n in enumerate(names) if A.uses_names(s.cond, {n})]
                            + [requires[-1][0] if requires else 0])
                if level == 0:
                    guards.append((s.cond, s.message))
                else:
                    requires.append((level, s.cond, s.message))
            else:
                rest.append(s)
        enum = self.gen.enumerator(a, types, [c for c, _ in guards], [(lv, c) for lv, c, _ in requires])
        root = self.gen.root
        code = self.gen.block(A.Block(rest, span=a.body.span), FrameKind.ACTION, f"action {a.name}")
        return ActionDef(a.name, names, types, domains, [(root(c), m) for c, m in guards],
                         [(lv, root(c), m) for lv, c, m in requires], code, a.span, enum,
                         any(T.holds_cards(t) for t in types), a.reads)

    def triggers_and_abilities(self) -> None:
        g, sym = self.g, self.sym
        g.trigger_defs, g.instants = [], {}
        keys: dict = {}
        for t in sym.triggers:
            label = f"{t.name}: " * (t.name is not None) + f"when {pattern_text(t.event)}"
            self.trigger(t, None, None, label, keys)
        for card, ab in sym.abilities.items():
            kind = sym.cards[card]
            defs = g.defs_named[card]
            if ab.instant is not None:
                code = self.gen.block(ab.instant.body, FrameKind.BLOCK, f'"{card}": instant')
                for d in defs:
                    g.instants[d] = code
            for t in ab.triggers:
                for d in defs:
                    self.trigger(t, d, kind, f'"{card}": when {pattern_text(t.event)}', keys)
            for s in ab.statics:
                fn = self.gen.root(s.value)
                for d in defs:
                    g.params[g.param_index[s.name]].statics.append((d, kind, s.op, fn))
        g.triggers = {}
        for t in sorted(g.trigger_defs, key=lambda t: (t.order, t.index)):
            g.triggers.setdefault(keys[t.index], []).append(t)

    def trigger(self, t: A.Trigger, source, kind, label: str, keys: dict) -> None:
        index = len(self.g.trigger_defs)
        cond = self.gen.root(t.cond) if t.cond is not None else None
        code = self.gen.block(t.body, FrameKind.TRIGGER, label, trigger=index)
        early = t.cond is not None and self.gen.reads_only_its_environment(t.cond)
        self.g.trigger_defs.append(TriggerDef(index, source, kind, list(t.event.binders), cond, t.after_action,
                                              t.order, code, t.span, label, t.name, early))
        keys[index] = event_key(t.event)
