"""A compiled game: the tables the engine runs on, built once from a checked program; `load_game`."""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Optional

from dsl import ast as A
from dsl import check as C
from dsl import link, linked
from dsl.errors import WishError
from dsl.front import Source, front_end
from dsl.parser import parse

from . import cache
from .codegen import Rules
from .engine import State
from .scoring import standing
from .state import STATE_FORMAT, data_from_json
from .tables import Builder, Identities, Layout
from .world import MOVED


def source_digests(texts: dict) -> dict:
    """{absolute path: SHA-256 of its text} of a game's files (`Game.sources`: what the compiled game was made
    from). Absolute, as the cache of compiled games keeps them, so a game compiled now and one read from the
    cache name their files alike."""
    return {os.path.abspath(path): hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
            for path, text in texts.items()}


class Game:
    """A checked, compiled game. `new_state(players, seed)` starts one."""

    def __init__(self, program: A.Program, decls: list, sym: C.Symbols, variant: Optional[str],
                 allow: tuple = ()):
        self._checked = (program, decls, sym)
        self.variant = variant
        self.allow = tuple(allow)
        self.path = program.path
        self.sources = source_digests(linked.sources(program))
        g = sym.game
        self.name = g.name
        self.title = g.name + (f" ({variant})" if variant else "")
        self.min_players, self.max_players = g.min_players, g.max_players
        self.variants = linked.variant_names(program)
        texts = "\0".join(t for _, t in sorted(linked.sources(program).items()))
        digest = hashlib.sha256((texts + "\0" + (variant or "")).encode()).hexdigest()[:16]
        self.fingerprint = f"{g.name}/{variant or ''}/{digest}"
        self._layouts: dict = {}
        self.initial: dict = {}  # player count → the cards' zones, places and knowledge before set-up
        Builder(self).build()

    # ---------------------------------------------------------------- the checked program
    @property
    def checked(self) -> tuple:
        """(program, resolved declarations, symbols): kept from the build, or checked again on demand for a
        game loaded from the cache of compiled games (interpreter/cache.py), which keeps only what plays."""
        if self._checked is None:
            c = front_end(self.path, self.variant, self.allow)
            self._checked = (c.program, c.decls, c.sym)
        return self._checked

    program = property(lambda self: self.checked[0], doc="the file as parsed, linked to what it extends")
    decls = property(lambda self: self.checked[1], doc="its declarations under the variant")
    sym = property(lambda self: self.checked[2], doc="what the checker resolved in them")

    def __getstate__(self) -> dict:
        """What the cache of compiled games keeps: everything but the syntax tree and per-count caches."""
        state = dict(self.__dict__)
        state.update(_checked=None, _layouts={}, initial={})
        state.pop("_python", None)
        return state

    def explainable(self) -> "Game":
        """This game with its rules run as Python, as a State that explains its log needs (it reads Python's
        frames: why.py): itself, or the Python twin of a game whose rules run as machine code (native_rules.py)."""
        if self.rules.native is None:
            return self
        twin = self.__dict__.get("_python")
        if twin is None:
            twin = self._python = cache.rebuild(self, self.rules.python_namespace())
            twin._checked = self._checked
        return twin

    def table(self, key: tuple):
        """A table the compiled rules read (codegen's `const`): ("cfield", f) card definition → field f (a tuple
        when every definition has one), ("cname",) → name, ("efield", f) enum member → field f, ("order",) member
        → position in its enum, ("members", enum) its members, ("type", T) the type T itself. Their texts are
        interned (`sys.intern`), as the rules' own literals are: a member found in a table is then the very
        object the rules compare it with, and a lookup or a comparison stops at the first test."""
        kind = key[0]
        if kind == "cfield":
            fields = {d: _interned(c.fields[key[1]]) for d, c in enumerate(self.card_defs) if key[1] in c.fields}
            return tuple(fields.values()) if len(fields) == len(self.card_defs) else fields  # a tuple reads faster
        if kind == "cname":
            return tuple(_interned(c.name) for c in self.card_defs)
        if kind == "efield":
            return {_interned(m): _interned(data[key[1]]) for m, data in self.enum_data.items() if key[1] in data}
        if kind == "order":
            return {_interned(m): i for m, i in self.member_order.items()}
        if kind == "members":
            return tuple(_interned(m) for m in self.enum_members[key[1]])
        if kind == "type":
            return key[1]
        raise AssertionError(key)

    # ---------------------------------------------------------------- layouts and values
    def layout(self, n: int) -> Layout:
        lay = self._layouts.get(n)
        if lay is None:
            names, owners, vis, limits = [], [], [], []
            for zname, visibility, per_player in self.zone_specs:
                if not per_player:
                    names.append(zname.replace("_", " "))
                    owners.append(None)
                    vis.append(visibility)
                    limits.append(self.zone_limits.get(zname))
            base = len(names)
            for zname, visibility, per_player in self.zone_specs:
                for p in range(n if per_player else 0):
                    names.append(f"{zname.replace('_', ' ')} of player {p + 1}")
                    owners.append(p)
                    vis.append(visibility)
                    limits.append(self.zone_limits.get(zname))
            active = {}
            for kname, zones in self.kind_zones.items():
                slots = set()
                for zname in zones:
                    if zname in self.zone_base:
                        slots.add(self.zone_base[zname])
                    elif zname in self.pzone_index:
                        j = self.pzone_index[zname]
                        slots.update(base + j * n + p for p in range(n))
                active[kname] = frozenset(slots)
            keep = [(1 << n) - 1 if v == "public" else 1 << o if v == "owner" else 0 for v, o in zip(vis, owners)]
            lay = self._layouts[n] = Layout(len(names), names, owners, vis, limits, base, active, keep,
                                             [v == "public" for v in vis], MOVED in self.triggers)
        return lay

    def param_value(self, st, i: int, player):
        """A parameter's value for `player` (None: a shared one), with the Static abilities of the cards where
        they are active: each adds or subtracts its value (`by_kind`: whatever the order), or, when one sets the
        value or the value is a list, each in turn in the order of the game file."""
        p = self.params[i]
        value = p.value(st, {"you": player})
        if not p.statics:
            return value
        if p.by_kind is None:
            return self._statics_in_order(st, p, value, player)
        lay, zones, of = st.lay, st.zones, st.ids.of
        owners = lay.slot_owner
        for kind, defs in p.by_kind.items():
            for slot in lay.active_order[kind]:
                owner = owners[slot]
                if p.per_player and owner != player:
                    continue
                for c in zones[slot]:
                    ops = defs.get(of[c])
                    if ops is not None:
                        for op, fn in ops:
                            v = fn(st, {"you": owner, "self": c})
                            value = value + v if op == "+=" else value - v
        return value

    def _statics_in_order(self, st, p, value, player):
        """`value` with each static of parameter `p` applied in turn, in the game file's order."""
        lay, where, instances = st.lay, st.where, st.ids.instances
        for d, kind, op, fn in p.statics:
            active = lay.active[kind]
            for c in instances[d]:
                slot = where[c]
                if slot in active:
                    owner = lay.slot_owner[slot]
                    if p.per_player and owner != player:
                        continue
                    v = fn(st, {"you": owner, "self": c})
                    value = v if op == "=" else value + v if op == "+=" else value - v
        return value

    def standings(self, st) -> list:
        """Each player's end of the game if it ended now (interpreter/scoring.py)."""
        return [standing(self, st, p) for p in st.seats]

    # ---------------------------------------------------------------- the public API
    def check_players(self, players: int) -> None:
        """A player count this game is not played by is a WishError that says which it is played by."""
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise WishError(f"{self.name} is played by {self.played_by()}, not {players}")

    def played_by(self) -> str:
        """"2 to 4 players", "1 player"."""
        return A.players_text(self.min_players, self.max_players, " to ")

    def new_state(self, players: int, seed: int = 0, timed: bool = False) -> State:
        """A new game. `timed`: the answers to a simultaneous decision arrive in an order that means something
        (people at a web table), which `first_to_answer` reads; otherwise it draws among them."""
        self.check_players(players)
        return State.fresh(self, players, int(seed), timed)

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
        if isinstance(doc, dict) and older_format(doc.get("format")):
            raise WishError(f"this state was saved by an older wishdsl ({doc['format']}; this one reads "
                            f"{STATE_FORMAT}): replay its seed and actions instead (a save file does so itself)")
        if not isinstance(doc, dict) or doc.get("format") != STATE_FORMAT:
            raise WishError("this is not a wishdsl saved game (unknown format)")
        if doc.get("game") != self.fingerprint:
            raise WishError(f"this saved game belongs to '{doc.get('game')}', not to '{self.fingerprint}' "
                            "(another game, variant or version of the file)")
        n = doc.get("n")
        if type(n) is not int or not self.min_players <= n <= self.max_players:
            raise WishError(f"the saved game is damaged: {self.name} is played by {self.played_by()}, "
                            f"not {str(n)[:20]}")
        st = State.__new__(State)
        st._bind(self, n)
        try:
            data_from_json(doc, st, self._identities)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError) as err:
            raise WishError(f"the saved game is damaged: {type(err).__name__}: {err}") from None
        return st


def older_format(fmt) -> bool:
    """Is `fmt` the format of a state an older wishdsl wrote?"""
    prefix = STATE_FORMAT.rsplit("-", 1)[0] + "-"
    return isinstance(fmt, str) and fmt.startswith(prefix) and fmt[len(prefix):].isdigit() and \
        int(fmt[len(prefix):]) < int(STATE_FORMAT[len(prefix):])


def compile_program(source: Source, variant: Optional[str] = None, allow: tuple = ()) -> Game:
    """Check and compile a game: a .wish file's path or a parsed program (see dsl.front.front_end)."""
    checked = front_end(source, variant, allow)
    return Game(checked.program, checked.decls, checked.sym, variant, allow)


def load_game(path: str, variant: Optional[str] = None, allow: tuple = ()) -> Game:
    """Parse, check and compile a .wish file (and the game it `extends`). Raises WishError with diagnostics.
    Games are remembered while none of their files changes."""
    allow = tuple(str(a) for a in allow) + tuple(str(a) for a in link.ALLOWED)
    key = (str(Path(path)), variant, allow)
    hit = _GAMES.get(key)
    if hit is not None and hit[0] == _stamps(hit[1]):
        return hit[1]
    game = cache.load(path, variant, allow, Rules.namespace_of)
    if game is None:
        game = compile_program(path, variant, allow)
        cache.store(path, variant, allow, game)
    if len(_GAMES) >= 32:
        _GAMES.pop(next(iter(_GAMES)))
    _GAMES[key] = (_stamps(game), game)
    return game


_GAMES: dict = {}


def _stamps(game) -> tuple:
    out = []
    for path in game.sources:
        try:
            out.append(Path(path).stat().st_mtime_ns)
        except OSError:
            out.append(0)
    return tuple(out)


def load_source(text: str, path: str = "<string>", variant: Optional[str] = None) -> Game:
    return compile_program(parse(text, path), variant)


def _interned(value):
    """A text as the one object of its value (`sys.intern`); any other value as it is."""
    return sys.intern(value) if type(value) is str else value
