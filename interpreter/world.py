"""The world of one game: zones of card instances, identities, knowledge, variables, the generator — and the
primitive moves on them (move, peek, swap, shuffle, reveal, turn, writing variables and transfers).

A mixin of the State (interpreter/engine.py); its data is the StateData of interpreter/state.py. A move that
others may react to emits its event through the machine (`emit`, interpreter/machine.py).
"""
from __future__ import annotations

from typing import Optional

from dsl.errors import WishRuntimeError

from . import log, views
from .log import MOVE, PARTS, PEEK, REVEAL, SHUFFLE, SWAP, TEXT, TURN
from .state import StateData


try:
    from . import _cards as _C  # the loops below in C (setup.py), when compiled; these functions are the reference
except ImportError:
    _C = None

MOVED = ("moved",)  # the event of a card move
PLACE_GROUPS = {"gvar": 0, "pvar": 1, "kvar": 2}  # `read_place`'s kinds of variables → write_vars' groups


class World(StateData):
    """Facts of one world and the moves that change them. A move forgets the results of functions remembered since
    the last change (`memo`), when there are any: most often there are none."""

    __slots__ = ()

    # ---------------------------------------------------------------- names
    def card_name(self, c: int) -> str:
        """The name of card instance `c` (whoever reads it: callers check knowledge)."""
        return self.game.card_defs[self.ids.of[c]].name

    def player_name(self, p) -> str:
        return f"player {p + 1}" if p is not None else "nobody"

    def param(self, i: int, player):
        return self.game.param_value(self, i, player)

    def pzone_slot(self, j: int, player: int) -> int:
        return self.lay.pzone_base + j * self.n + player

    def random_pick(self, items):
        return items[self.rng.below(len(items))]

    # ---------------------------------------------------------------- variables
    def read_place(self, place, env):
        kind, idx, who = place
        if kind == "local":
            return env[idx]
        if kind == "gvar":
            return self.gvars[idx]
        if kind == "kvar":
            v = self.game.kvars[idx]
            return self.kvars[idx][v.key_index(self.game, who(self, env))]
        return self.pvars[who(self, env)][idx]

    def write_places(self, writes, env, span) -> None:
        """Store several values at once in places as `read_place` names them (a local among them is stored in
        `env`); the changes are logged and their events fire after all are stored."""
        variables = []
        for (kind, idx, who), value in writes:
            if kind == "local":
                env[idx] = value
            else:
                variables.append((PLACE_GROUPS[kind], idx, who(self, env) if who is not None else None, value))
        self.write_vars(variables, span)

    def write_vars(self, writes, span) -> None:
        """Store several variables at once, each (group 0 shared / 1 per player / 2 keyed, index, player or key,
        value); the changes are logged and their events fire after all are stored (a `transfer`)."""
        changes = []
        if self.memo:
            self.memo.clear()
        game = self.game
        for group, i, key, value in writes:
            if group == 0:
                v, row, at = game.gvars[i], self.gvars, i
            elif group == 1:
                v, row, at = game.pvars[i], self.pvars[key], i
            else:
                v = game.kvars[i]
                row, at = self.kvars[i], v.key_index(game, key)
            self._check_min(v, value, span)
            old = row[at]
            row[at] = value
            if old != value:
                changes.append((v, group, i, key, old, value))
        self._changed(changes)

    def set_gvar(self, i: int, value, span) -> None:
        """`name = value` for a shared variable."""
        self._set(self.game.gvars[i], 0, i, None, self.gvars, i, value, span)

    def set_pvar(self, i: int, p: int, value, span) -> None:
        """`p.name = value` for a per-player variable."""
        self._set(self.game.pvars[i], 1, i, p, self.pvars[p], i, value, span)

    def set_kvar(self, i: int, key, value, span) -> None:
        """`name[key] = value` for a keyed variable."""
        v = self.game.kvars[i]
        self._set(v, 2, i, key, self.kvars[i], v.key_index(self.game, key), value, span)

    def _set(self, v, group: int, i: int, key, row: list, at: int, value, span) -> None:
        if self.memo:
            self.memo.clear()
        if v.minimum is not None and value is not None and value < v.minimum:
            self._check_min(v, value, span)
        old = row[at]
        row[at] = value
        if old != value and (v.logged or ("changed", v.name) in self.game.triggers):
            self._changed(((v, group, i, key, old, value),))

    def _changed(self, changes) -> None:
        for v, group, i, key, old, value in changes:
            if v.logged:
                log.var_change(self, v, group, i, key, old, value)
        for v, _, _, key, old, value in changes:
            self.emit(("changed", v.name), (old, value) if key is None else (key, old, value))

    def _check_min(self, v, value, span) -> None:
        if v.minimum is not None and value is not None and value < v.minimum:
            raise WishRuntimeError(f"'{v.name}' would fall to {value}, below its minimum {v.minimum}", span,
                                   state=self)

    # ---------------------------------------------------------------- cards
    def _enter(self, c: int, slot: int) -> None:
        """One card arrives in a zone (already in its list): its place, facing and who knows it follow the zone's
        visibility, as in every move (`arrive`)."""
        public, keep, _ = self.slot_arrival[slot]
        arrive(self.where, self.face, self.known, self.seen, (c,), slot, public, self.all_mask, keep)

    def move(self, cards: tuple, dest: int, place: str, facing, span) -> None:
        """`move CARDS to DEST [top|bottom] [face up|down]`: the cards leave their zones, arrive in order."""
        if not cards:
            return
        where = self.where
        srcs = [where[c] for c in cards]
        src = srcs[0]
        one = srcs.count(src) == len(srcs)
        self._take(cards, srcs, src if one else -1)
        self._put(cards, src if one else -1, srcs, dest, place, facing, span)

    def move_top(self, src: int, k: int, dest: int, place: str, facing, span) -> None:
        """`move top K of SRC to DEST …`, taking the cards straight off the zone."""
        zone = self.zones[src]
        cards = tuple(zone[:k]) if k > 0 else ()
        if cards:
            del zone[:k]
            self._put(cards, src, None, dest, place, facing, span)

    def move_all(self, src: int, dest: int, place: str, facing, span) -> None:
        """`move SRC to DEST …`: every card of a zone."""
        zone = self.zones[src]
        if zone:
            cards = tuple(zone)
            zone.clear()
            self._put(cards, src, None, dest, place, facing, span)

    def _put(self, cards: tuple, src: int, srcs, dest: int, place: str, facing, span) -> None:
        """Cards taken out of their zones (`src`: the one they all left, else -1; `srcs`: each one's, None when
        they all left `src`) arrive in zone `dest`, their facing and who knows them following the zone's
        visibility; the move is logged with who knows each card now, and its events fire."""
        if self.memo:
            self.memo.clear()
        zone = self.zones[dest]
        if place == "top" and zone:
            zone[0:0] = cards
        else:
            zone.extend(cards)
        public, keep, limit = self.slot_arrival[dest]
        knew = arrive(self.where, self.face, self.known, self.seen, cards, dest, facing == "up" or public,
                      self.all_mask, keep)
        if limit is not None and len(zone) > limit(self, {}):
            raise WishRuntimeError(f"{self.lay.slot_names[dest]} would hold {len(zone)} cards, over its limit",
                                   span, state=self)
        self.log.append((MOVE, cards, knew, src, dest))
        if self.moves_heard:
            for i, c in enumerate(cards):
                self.emit(MOVED, (c, srcs[i] if srcs is not None else src, dest))

    def _take(self, cards: tuple, srcs: list, src: int) -> None:
        """Take the cards out of their zones (`src`: the one zone they all come from, else -1)."""
        zones = self.zones
        if src >= 0:
            zone = zones[src]
            k = len(cards)
            if zone[:k] == list(cards):  # the top cards of one zone, or all of them
                del zone[:k]
                return
        for c, s in zip(cards, srcs):
            zones[s].remove(c)

    def shuffle(self, slot: int) -> None:
        if self.memo:
            self.memo.clear()
        self.rng.shuffle(self.zones[slot])
        keep = self.slot_arrival[slot][1]
        hidden = FORGET(self.zones[slot], self.face, self.known, keep)
        self.shuffles.append((len(self.log), keep, hidden))
        self.log.append((SHUFFLE, slot))

    def peek(self, cards: tuple, who: int) -> None:
        LEARN(self.known, self.seen, cards, 1 << who)
        if cards:
            log.cards(self, PEEK, cards, who)

    def reveal(self, cards: tuple) -> None:
        known, seen, everyone = self.known, self.seen, self.all_mask
        for c in cards:
            known[c] = seen[c] = everyone
        if cards:
            log.cards(self, REVEAL, cards)

    def turn(self, cards: tuple, up: bool) -> None:
        face, known, seen, everyone = self.face, self.known, self.seen, self.all_mask
        for c in cards:
            face[c] = up
            if up:
                known[c] = seen[c] = everyone
        if cards:
            log.cards(self, TURN, cards, up)

    def swap(self, a: int, b: int, span) -> None:
        if self.memo:
            self.memo.clear()
        za, zb = self.where[a], self.where[b]
        ia, ib = self.zones[za].index(a), self.zones[zb].index(b)
        self.zones[za][ia], self.zones[zb][ib] = b, a
        self._enter(a, zb)
        self._enter(b, za)
        log.cards(self, SWAP, (a, b))
        if self.moves_heard:
            self.emit(MOVED, (a, za, zb))
            self.emit(MOVED, (b, zb, za))

    # ---------------------------------------------------------------- the log
    def write_log(self, text: str) -> None:
        self.log.append((TEXT, text))

    def write_parts(self, parts: list) -> None:
        """A line of texts and card references (interpreter/log.py)."""
        self.log.append((PARTS, tuple(parts)))

    def render(self, value, ty, viewer: Optional[int] = None) -> str:
        return views.render(self, value, ty, viewer)

    def option_labels(self, values: tuple, ty, who: int, verb: str, skip=None) -> tuple:
        return views.option_labels(self, values, ty, who, verb, skip)

    def distinct_options(self, values, is_card: bool, who: int) -> tuple:
        """Keep one of each group of options that `who` cannot tell apart: equal values, or known cards of
        one definition in one zone."""
        if not is_card:
            return tuple(dict.fromkeys(values))
        return DISTINCT(values, self.ids.of, self.where, self.known, 1 << who)


def arrive(where: list, face: list, known: list, seen: list, cards: tuple, dest: int, up: bool, everyone: int,
           keep: int) -> tuple:
    """Cards arrive in zone `dest`: face up and known to everyone (`up`), else face down, known as before and to
    `keep` too (nobody learns them when `keep` is 0: who saw them has them in `seen` already, seen ⊇ known).
    Returns who knows each card now. (Typed in C by world.pxd when compiled: the move's own call, not a
    Python one.)"""
    if up:
        for c in cards:
            where[c] = dest
            face[c] = True
            known[c] = everyone
            seen[c] = everyone
        return (everyone,) * len(cards)
    knew = []
    if keep:
        for c in cards:
            where[c] = dest
            face[c] = False
            k = known[c] | keep
            known[c] = k
            seen[c] = seen[c] | k
            knew.append(k)
    else:
        for c in cards:
            where[c] = dest
            face[c] = False
            knew.append(known[c])
    return tuple(knew)


def forget(zone: list, face: list, known: list, keep: int) -> tuple:
    """After a shuffle of `zone`: its face-down cards are known only to `keep` (of those who knew them).
    Returns those cards."""
    hidden = tuple([c for c in zone if not face[c]])
    for c in hidden:
        known[c] &= keep
    return hidden


def learn(known: list, seen: list, cards, bit: int) -> None:
    """`bit`'s player knows these cards now (and has seen them)."""
    for c in cards:
        known[c] |= bit
        seen[c] |= bit


def distinct(values, of, where: list, known: list, bit: int) -> tuple:
    """One of each group of card options a player cannot tell apart: the cards they know, by definition and zone;
    each card they do not know stands for itself."""
    seen: set = set()
    out = []
    for v in values:
        key = (of[v], where[v]) if known[v] & bit else v
        if key not in seen:
            seen.add(key)
            out.append(v)
    return tuple(out)


if _C is None:
    FORGET, LEARN, DISTINCT = forget, learn, distinct
else:
    FORGET, LEARN, DISTINCT = _C.forget, _C.learn, _C.distinct
