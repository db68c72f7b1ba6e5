"""The world of one game: zones of card instances, identities, knowledge, variables, the generator — and the
primitive moves on them (move, peek, swap, shuffle, reveal, turn, writing variables and transfers).

A mixin of the State (interpreter/engine.py); its data is the StateData of interpreter/state.py. A move that
others may react to emits its event through the machine (`emit`, interpreter/machine.py).
"""
from __future__ import annotations

from typing import Optional

from dsl.errors import WishRuntimeError

from . import views
from .state import LogEntry, StateData

SHUFFLED = "{} is shuffled"  # the log line of a shuffle (agents use `state.shuffles`, not this line)


class World(StateData):
    """Facts of one world and the moves that change them."""

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

    def write_place(self, place, env, value, span) -> None:
        self.write_places(((place, value),), env, span)

    def write_places(self, writes, env, span) -> None:
        """Store several values at once; the changes are logged and their events fire after all are stored."""
        changes = []
        self.version += 1
        for place, value in writes:
            kind, idx, who = place
            if kind == "local":
                env[idx] = value
                continue
            if kind == "gvar":
                v, p, row, at = self.game.gvars[idx], None, self.gvars, idx
            elif kind == "kvar":
                v, p = self.game.kvars[idx], who(self, env)
                row, at = self.kvars[idx], v.key_index(self.game, p)
            else:
                v, p = self.game.pvars[idx], who(self, env)
                row, at = self.pvars[p], idx
            self._check_min(v, value, span)
            old = row[at]
            row[at] = value
            if old != value:
                changes.append((v, p, old, value))
        self._changed(changes)

    def set_gvar(self, i: int, value, span) -> None:
        """`name = value` for a shared variable."""
        self._set(self.game.gvars[i], None, self.gvars, i, value, span)

    def set_pvar(self, i: int, p: int, value, span) -> None:
        """`p.name = value` for a per-player variable."""
        self._set(self.game.pvars[i], p, self.pvars[p], i, value, span)

    def set_kvar(self, i: int, key, value, span) -> None:
        """`name[key] = value` for a keyed variable."""
        v = self.game.kvars[i]
        self._set(v, key, self.kvars[i], v.key_index(self.game, key), value, span)

    def _set(self, v, key, row: list, at: int, value, span) -> None:
        self.version += 1
        if v.minimum is not None and value is not None and value < v.minimum:
            self._check_min(v, value, span)
        old = row[at]
        row[at] = value
        if old != value and (v.logged or ("changed", v.name) in self.game.triggers):
            self._changed(((v, key, old, value),))

    def _changed(self, changes) -> None:
        for v, p, old, value in changes:
            if v.logged:
                owner = self._owner_text(v, p)
                self.write_parts([f"{owner}{v.name}: ", *views.log_parts(self, old, v.ty), " → ",
                                  *views.log_parts(self, value, v.ty)])
        for v, p, old, value in changes:
            self.emit(("changed", v.name), (old, value) if p is None else (p, old, value))

    def _owner_text(self, v, key) -> str:
        if key is None:
            return ""
        if v.key_type is not None:
            return f"{self.render(key, v.key_type)} "
        return f"{self.player_name(key)} "

    def _check_min(self, v, value, span) -> None:
        if v.minimum is not None and value is not None and value < v.minimum:
            raise WishRuntimeError(f"'{v.name}' would fall to {value}, below its minimum {v.minimum}", span,
                                   state=self)

    # ---------------------------------------------------------------- cards
    def _enter(self, c: int, slot: int, facing) -> None:
        """A card arrives in a zone: its facing and who knows it follow the zone's visibility."""
        vis = self.lay.slot_vis[slot]
        if facing == "up" or vis == "public":
            self.face[c] = True
            self.known[c] = self.all_mask
        else:
            self.face[c] = False
            if vis == "owner":
                self.known[c] |= 1 << self.lay.slot_owner[slot]
        self.seen[c] |= self.known[c]

    def move(self, cards: tuple, dest: int, place: str, facing, span) -> None:
        if not cards:
            return
        self.version += 1
        moved = []
        for c in cards:
            src = self.where[c]
            self.zones[src].remove(c)
            moved.append((c, src))
        zone = self.zones[dest]
        if place == "top":
            zone[0:0] = cards
        else:
            zone.extend(cards)
        for c in cards:
            self.where[c] = dest
            self._enter(c, dest, facing)
        limit = self.lay.slot_limit[dest]
        if limit is not None and len(zone) > limit(self, {}):
            raise WishRuntimeError(f"{self.lay.slot_names[dest]} would hold {len(zone)} cards, over its limit",
                                   span, state=self)
        srcs = {s for _, s in moved}
        src_name = self.lay.slot_names[moved[0][1]] if len(srcs) == 1 else "several places"
        self.log_cards(cards, "{cards} move{s} from " + src_name + " to " + self.lay.slot_names[dest])
        if ("moved",) in self.game.triggers:
            for c, src in moved:
                self.emit(("moved",), (c, src, dest))

    def shuffle(self, slot: int) -> None:
        self.version += 1
        self.rng.shuffle(self.zones[slot])
        vis = self.lay.slot_vis[slot]
        keep = self.all_mask if vis == "public" else (1 << self.lay.slot_owner[slot]) if vis == "owner" else 0
        hidden = tuple(c for c in self.zones[slot] if not self.face[c])
        for c in hidden:
            self.known[c] &= keep
        self.shuffles.append((len(self.log), keep, hidden))
        self.write_log(SHUFFLED.format(self.lay.slot_names[slot]))

    def peek(self, cards: tuple, who: int) -> None:
        for c in cards:
            self.known[c] |= 1 << who
            self.seen[c] |= 1 << who
        if cards:
            self.log_cards(cards, self.player_name(who) + " looks at {cards}")

    def reveal(self, cards: tuple) -> None:
        for c in cards:
            self.known[c] = self.seen[c] = self.all_mask
        if cards:
            self.log_cards(cards, "revealed: {cards}")

    def turn(self, cards: tuple, up: bool) -> None:
        for c in cards:
            self.face[c] = up
            if up:
                self.known[c] = self.seen[c] = self.all_mask
        if cards:
            self.log_cards(cards, "{cards} turned face " + ("up" if up else "down"))

    def swap(self, a: int, b: int, span) -> None:
        self.version += 1
        za, zb = self.where[a], self.where[b]
        ia, ib = self.zones[za].index(a), self.zones[zb].index(b)
        self.zones[za][ia], self.zones[zb][ib] = b, a
        self.where[a], self.where[b] = zb, za
        self._enter(a, zb, None)
        self._enter(b, za, None)
        self.log_cards((a, b), "{cards} swap places")
        self.emit(("moved",), (a, za, zb))
        self.emit(("moved",), (b, zb, za))

    # ---------------------------------------------------------------- the log
    def write_log(self, text: str) -> None:
        self.log.append(LogEntry((text,)))

    def write_parts(self, parts: list) -> None:
        self.log.append(LogEntry(tuple(parts)))

    def render(self, value, ty, viewer: Optional[int] = None) -> str:
        return views.render(self, value, ty, viewer)

    def log_values(self, parts) -> None:
        views.log_values(self, parts)

    def log_cards(self, cards, pattern: str) -> None:
        views.log_cards(self, cards, pattern)

    def log_choice(self, who: int, value, ty, verb: str, skip=None) -> None:
        views.log_choice(self, who, value, ty, verb, skip)

    def option_labels(self, values: tuple, ty, who: int, verb: str, skip=None) -> tuple:
        return views.option_labels(self, values, ty, who, verb, skip)

    def distinct_options(self, values, is_card: bool, who: int) -> tuple:
        """Keep one of each group of options that `who` cannot tell apart: equal values, or known cards of
        one definition in one zone."""
        seen, out = set(), []
        for v in values:
            if is_card:
                key = (self.ids.of[v], self.where[v]) if (self.known[v] >> who) & 1 else ("pos", v)
            else:
                key = v
            if key not in seen:
                seen.add(key)
                out.append(v)
        return tuple(out)
