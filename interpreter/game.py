"""A compiled game: the tables the engine runs on, built once from a checked program; `load_game`."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Optional

import attrs

from dsl import ast as A
from dsl import check as C
from dsl import types as T
from dsl import link, linked
from dsl.errors import WishError
from dsl.front import Source, front_end
from dsl.parser import parse

from .compile import Compiler
from .engine import State
from .state import STATE_FORMAT, data_from_json


LOGGED_KINDS = ("int", "bag", "player", "enum")  # changes of these are logged unless the var is @quiet


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
    statics: list = attrs.Factory(list)  # (card def, kind, op, closure)


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

    __slots__ = ("of", "instances")

    def __init__(self, of, ndefs: int):
        self.of = tuple(of)
        self.instances = [[] for _ in range(ndefs)]
        for c, d in enumerate(self.of):
            self.instances[d].append(c)
        self.instances = tuple(tuple(cs) for cs in self.instances)


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


class Game:
    """A checked, compiled game. `new_state(players, seed)` starts one."""

    def __init__(self, program: A.Program, decls: list, sym: C.Symbols, variant: Optional[str]):
        self.program = program
        self.decls = decls
        self.sym = sym
        self.variant = variant
        self.path = program.path
        g = sym.game
        self.name = g.name
        self.title = g.name + (f" ({variant})" if variant else "")
        self.min_players, self.max_players = g.min_players, g.max_players
        self.variants = linked.variant_names(program)
        texts = "\0".join(t for _, t in sorted(linked.sources(program).items()))
        digest = hashlib.sha256((texts + "\0" + (variant or "")).encode()).hexdigest()[:16]
        self.fingerprint = f"{g.name}/{variant or ''}/{digest}"
        self.codes: list = []
        self._layouts: dict = {}
        self._build(decls)

    # ---------------------------------------------------------------- building
    def add_code(self, code) -> int:
        self.codes.append(code)
        return len(self.codes) - 1

    def _build(self, decls) -> None:
        sym = self.sym
        self.enum_members = {name: tuple(m.name for m in e.members) for name, e in sym.enums.items()}
        self.member_display = {m.name: (m.display or m.name) for e in sym.enums.values() for m in e.members}
        self.member_order = {m: i for ms in self.enum_members.values() for i, m in enumerate(ms)}
        self.member_index = self.member_order
        shared = [z for z in sym.zones.values() if not z.per_player]
        per_player = [z for z in sym.zones.values() if z.per_player]
        self.shared_zones, self.player_zones = shared, per_player
        self.zone_base = {z.name: i for i, z in enumerate(shared)}
        self.pzone_index = {z.name: j for j, z in enumerate(per_player)}
        gv = [v for v, _ in sym.vars.values() if not v.per_player and v.keyed_by is None]
        pv = [v for v, _ in sym.vars.values() if v.per_player]
        kv = [v for v, _ in sym.vars.values() if v.keyed_by is not None]
        self.gvar_index = {v.name: i for i, v in enumerate(gv)}
        self.pvar_index = {v.name: i for i, v in enumerate(pv)}
        self.kvar_index = {v.name: i for i, v in enumerate(kv)}
        self.param_index = {name: i for i, name in enumerate(sym.params)}
        comp = Compiler(self)
        self._build_enum_data(comp)
        self._build_cards(comp)
        self.gvars = [self._var(comp, v) for v in gv]
        self.pvars = [self._var(comp, v) for v in pv]
        self.kvars = [self._var(comp, v) for v in kv]
        self.params = [ParamInfo(p.name, t, comp.expr(p.value), p.per_player) for p, t in sym.params.values()]
        self.functions: dict = {}
        for name, (f, _, _) in sym.functions.items():
            self.functions[name] = comp.expr(f.body)
        self.procedures = {}
        for name, (p, _) in sym.procedures.items():
            self.procedures[name] = comp.block(p.body)
            self.codes[self.procedures[name]].name = f"procedure {name}"
        self.actions = {name: self._action(comp, a) for name, a in sym.actions.items()}
        self.trigger_defs: list = []
        self._trigger_keys: dict = {}
        for t in sym.triggers:
            self._trigger(comp, t, None, None, f"{t.name}: " * (t.name is not None) + f"when {_pattern_text(t.event)}")
        self.instants: dict = {}
        for card, ab in sym.abilities.items():
            kind = sym.cards[card]
            defs = self.defs_named[card]
            if ab.instant is not None:
                code = comp.block(ab.instant.body)
                self.codes[code].name = f'"{card}": instant'
                for d in defs:
                    self.instants[d] = code
            for t in ab.triggers:
                for d in defs:
                    self._trigger(comp, t, d, kind, f"\"{card}\": when {_pattern_text(t.event)}")
            for s in ab.statics:
                fn = comp.expr(s.value)
                for d in defs:
                    self.params[self.param_index[s.name]].statics.append((d, kind, s.op, fn))
        self.triggers: dict = {}
        for t in sorted(self.trigger_defs, key=lambda t: (t.order, t.index)):
            key = self._trigger_keys[t.index]
            self.triggers.setdefault(key, []).append(t)
        self.setup_code = comp.block(sym.setup.body) if sym.setup else None
        self.play_code = comp.block(sym.play.body)
        self.codes[self.play_code].name = "play"
        if self.setup_code is not None:
            self.codes[self.setup_code].name = "setup"
        self.scoring = []
        self.scoring_var = sym.scoring.var if sym.scoring else "p"
        if sym.scoring:
            self.scoring = [(s.form, s.label, comp.expr(s.expr)) for s in sym.scoring.steps]
        self.invariants = [(i.name, comp.expr(i.cond)) for i in sym.invariants]
        self.zone_limits = {z.name: comp.expr(z.limit) for z in sym.zones.values() if z.limit is not None}

    def _build_enum_data(self, comp) -> None:
        """The fields of enum members written as tables: member → {field: value}."""
        self.enum_data: dict = {}
        for e in self.sym.enums.values():
            names = [f.name for f in e.fields]
            for row in e.rows:
                cells = dict(zip(e.columns, row.cells))
                self.enum_data[cells["member"].name] = {f: comp.expr(cells[f])(None, {}) for f in names}

    def _var(self, comp, v: A.Var) -> VarInfo:
        ty = self.sym.vars[v.name][1]
        minimum = None
        if v.minimum is not None:
            minimum = comp.expr(v.minimum)(None, {})
        names = {a.name for a in v.annots}
        logged = "logged" in names or ("quiet" not in names and ty.kind in LOGGED_KINDS and not ty.optional)
        info = VarInfo(v.name, ty, comp.expr(v.init), minimum, logged)
        if v.keyed_by is not None:
            kt = self.sym.var_keys[v.name]
            info.key_name, info.key_type = v.keyed_by.name, kt
            info.keys = self.enum_members[kt.name] if kt.kind == "enum" else None
        return info

    def _action(self, comp, a: A.Action) -> ActionDef:
        names, types, domains = [], [], []
        for p in a.params:
            names.append(p.name)
            if p.domain is not None:
                domains.append(comp.coll(p.domain))
                types.append(p.domain.ty.element())
            else:
                t = T.from_ref(p.type, set(self.sym.enums), set(self.sym.kinds))
                types.append(t)
                if t.kind == "enum":
                    vals = self.enum_members[t.name]
                    domains.append(lambda st, env, vals=vals: vals)
                elif t.kind == "player":
                    domains.append(lambda st, env: st.seats)
                else:
                    domains.append(lambda st, env: (False, True))
        guards, requires, rest = [], [], []
        for s in a.body.stmts:
            if isinstance(s, A.Require) and not rest:
                # A leading requirement is checked once the parameters it reads are chosen (never before an
                # earlier one): those that read none once per action, the others once per choice of them.
                level = max([i + 1 for i, n in enumerate(names) if A.uses_names(s.cond, {n})]
                            + [requires[-1][0] if requires else 0])
                if level == 0:
                    guards.append((comp.expr(s.cond), s.message))
                else:
                    requires.append((level, comp.expr(s.cond), s.message))
            else:
                rest.append(s)
        code = comp.block(A.Block(rest, span=a.body.span))
        self.codes[code].name = f"action {a.name}"
        return ActionDef(a.name, names, types, domains, guards, requires, code, a.span)

    def _trigger(self, comp, t: A.Trigger, source, kind, label) -> None:
        ev = t.event
        key = ("custom", ev.name) if ev.form == "custom" else ("changed", ev.name) if ev.form == "changed" else ("moved",)
        index = len(self.trigger_defs)
        cond = comp.expr(t.cond) if t.cond is not None else None
        code = comp.block(t.body)
        self.codes[code].name = label
        self.trigger_defs.append(TriggerDef(index, source, kind, list(ev.binders), cond, t.after_action, t.order,
                                            code, t.span, label, t.name))
        self._trigger_keys[index] = key

    def _build_cards(self, comp) -> None:
        sym = self.sym
        self.card_defs: list = []
        self.defs_named: dict = {}
        start_defs: list = []
        self.card_start: list = []
        for cd in sym.card_decls:
            kind = sym.kinds[cd.kind]
            for row in cd.rows:
                cells = dict(zip(cd.columns, row.cells))
                fields = {}
                for f in kind.fields:
                    expr = cells.get(f.name, f.default)
                    fields[f.name] = comp.expr(expr)(None, {})
                name = cells["name"].value
                count = cells["count"].value if "count" in cells else 1
                rec = next((a.text or "reconstructed" for a in row.annots if a.name == "reconstructed"), None)
                d = len(self.card_defs)
                self.card_defs.append(CardDef(name, cd.kind, fields, rec))
                self.defs_named.setdefault(name, []).append(d)
                for _ in range(count):
                    start_defs.append(d)
                    self.card_start.append(self.zone_base[cd.zone])
        self.identities = Identities(start_defs, len(self.card_defs))

    # ---------------------------------------------------------------- layouts and values
    def layout(self, n: int) -> Layout:
        lay = self._layouts.get(n)
        if lay is None:
            names, owners, vis, limits = [], [], [], []
            for z in self.shared_zones:
                names.append(z.name.replace("_", " "))
                owners.append(None)
                vis.append(z.visibility)
                limits.append(self.zone_limits.get(z.name))
            base = len(names)
            for z in self.player_zones:
                for p in range(n):
                    names.append(f"{z.name.replace('_', ' ')} of player {p + 1}")
                    owners.append(p)
                    vis.append(z.visibility)
                    limits.append(self.zone_limits.get(z.name))
            active = {}
            for kname, k in self.sym.kinds.items():
                slots = set()
                for zname in k.active_in:
                    if zname in self.zone_base:
                        slots.add(self.zone_base[zname])
                    elif zname in self.pzone_index:
                        j = self.pzone_index[zname]
                        slots.update(base + j * n + p for p in range(n))
                active[kname] = frozenset(slots)
            lay = self._layouts[n] = Layout(len(names), names, owners, vis, limits, base, active)
        return lay

    def param_value(self, st, i: int, player):
        p = self.params[i]
        value = p.value(st, {"you": player})
        for d, kind, op, fn in p.statics:
            active = st.lay.active[kind]
            for c in st.ids.instances[d]:
                slot = st.where[c]
                if slot in active:
                    owner = st.lay.slot_owner[slot]
                    if p.per_player and owner != player:
                        continue
                    v = fn(st, {"you": owner, "self": c})
                    value = v if op == "=" else value + v if op == "+=" else value - v
        return value

    def score_of(self, st, p: int):
        env = {self.scoring_var: p}
        total, breaks, lost = 0, [], False
        for form, _, fn in self.scoring:
            if form == "score":
                total += fn(st, env)
            elif form == "tiebreak":
                breaks.append(fn(st, env))
            elif fn(st, env):
                lost = True
        return total, tuple(breaks), lost

    def final_result(self, st):
        rows = [self.score_of(st, p) for p in st.seats]
        return tuple(r[0] for r in rows), winners_of(rows)

    # ---------------------------------------------------------------- the public API
    def check_players(self, players: int) -> None:
        """A player count this game is not played by is a WishError that says which it is played by."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise WishError(f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                            f"not {players}")

    def new_state(self, players: int, seed: int = 0) -> State:
        self.check_players(players)
        return State.fresh(self, players, int(seed))

    def _identities(self, of) -> "Identities":
        """The Identities of a saved state: a permutation of the game's cards, or the save is damaged."""
        if sorted(of) != sorted(self.identities.of):
            raise ValueError("the card identities are not this game's cards")
        return Identities(of, len(self.card_defs))

    def state_from_json(self, text: str) -> State:
        try:
            doc = json.loads(text)
        except (ValueError, TypeError, RecursionError) as err:
            raise WishError(f"this is not a saved game: {err}") from None
        if not isinstance(doc, dict) or doc.get("format") != STATE_FORMAT:
            raise WishError("this is not a wishdsl saved game (unknown format)")
        if doc.get("game") != self.fingerprint:
            raise WishError(f"this saved game belongs to '{doc.get('game')}', not to '{self.fingerprint}' "
                            "(another game, variant or version of the file)")
        n = doc.get("n")
        if type(n) is not int or not self.min_players <= n <= self.max_players:
            raise WishError(f"the saved game is damaged: {self.name} is played by {self.min_players} to "
                            f"{self.max_players} players, not {str(n)[:20]}")
        st = State.__new__(State)
        st._bind(self, n)
        try:
            data_from_json(doc, st, self._identities)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as err:
            raise WishError(f"the saved game is damaged: {type(err).__name__}: {err}") from None
        return st


def winners_of(rows: list) -> tuple:
    """The winners, from each seat's (score, tie-breakers, lost): the best score and tie-breakers among
    the players who did not lose outright."""
    alive = [p for p, r in enumerate(rows) if not r[2]]
    if not alive:
        return ()
    best = max((rows[p][0], rows[p][1]) for p in alive)
    return tuple(p for p in alive if (rows[p][0], rows[p][1]) == best)


def _pattern_text(ev: A.EventPattern) -> str:
    if ev.form == "changed":
        return f"{ev.name} changes"
    if ev.form == "moved":
        return "a card moves"
    return ev.name


def compile_program(source: Source, variant: Optional[str] = None, allow: tuple = ()) -> Game:
    """Check and compile a game: a .wish file's path or a parsed program (see dsl.front.front_end)."""
    checked = front_end(source, variant, allow)
    return Game(checked.program, checked.decls, checked.sym, variant)


def load_game(path: str, variant: Optional[str] = None, allow: tuple = ()) -> Game:
    """Parse, check and compile a .wish file (and the game it `extends`). Raises WishError with diagnostics.
    Games are remembered while none of their files changes."""
    key = (str(Path(path)), variant, tuple(allow), tuple(link.ALLOWED))
    hit = _GAMES.get(key)
    if hit is not None and hit[0] == _stamps(hit[1].program):
        return hit[1]
    game = compile_program(path, variant, allow)
    if len(_GAMES) >= 32:
        _GAMES.pop(next(iter(_GAMES)))
    _GAMES[key] = (_stamps(game.program), game)
    return game


_GAMES: dict = {}


def _stamps(program: A.Program) -> tuple:
    out = []
    for path in linked.chain(program):
        try:
            out.append(Path(path).stat().st_mtime_ns)
        except OSError:
            out.append(0)
    return tuple(out)


def load_source(text: str, path: str = "<string>", variant: Optional[str] = None) -> Game:
    return compile_program(parse(text, path), variant)
