"""Information sets: what one seat may know of a state, and full states sampled consistent with it.

`InfoSet(state, seat)` is the only door from an agent to a state. `sample(rng)` returns a State in which every
card the seat does not know now has an identity redrawn from the pool of identities the seat cannot place
(within each card kind, so a Wish stays a Wish). The redraw depends only on what the seat may know: the pool
is sorted canonically, shuffled with the agent's generator and dealt to the unknown instances in instance
order, so permuting hidden identities in the true state gives the very same samples.

Announcements stay true: each observation records the environment and a snapshot of the zones and variables
its expression read (`effects.snapshot`), so it is evaluated again under the new identities; a sample that
contradicts one is rejected and drawn again. Only announcements made since the last shuffle that made the seat
lose track of cards are checked: a card the announcement read may since have been shuffled away, and tying its
new, unseen position to the announcement would tell the seat where it went. (What such an older announcement
says about the cards' identities as a whole stays true: the pool of identities is the same.) An announcement
whose value, under the true identities, read no identity the seat does not know now cannot come out otherwise,
so it is not checked. Nothing here is game-specific: everything derives from the zones' visibility, the
players' knowledge (`state.known`), the shuffles in the log and the recorded announcements.

Also redrawn, because the seat cannot know them: the random generator (a sample's future shuffles and races
come from the agent's generator, not the game's) and the answers other players already gave to a pending
simultaneous decision (they are dropped and the decision is asked again). In a sample, an opponent who knows
a card the seat does not know knows its sampled identity: the sample is a whole world, consistent for all.
"""
from __future__ import annotations

import copy

from dsl.errors import WishError, WishRuntimeError

from .engine import SHUFFLED, State
from .state import Rng

DEFAULT_TRIES = 500
_FAILED = object()
_ERRORS = (WishError, TypeError, IndexError, KeyError, ValueError)


class InfoSet:
    """The information set of `seat` in `state`: its view, its options, and samples of consistent states."""

    def __init__(self, state, seat: int, tries: int = DEFAULT_TRIES):
        self._state = state
        self.seat = seat
        self.tries = tries
        self.rejected = 0  # identity draws thrown away because they contradicted an announcement
        self.failures = 0  # samples for which no draw was consistent (see `sample`)
        self._groups = _unknown_groups(state, seat)
        self._labels = tuple(a.label for a in state.legal_actions(seat))
        unknown = {c for c, m in enumerate(state.known) if not (m >> seat) & 1}
        since = _last_shuffle(state, seat)
        self._checker = _checker(state)
        checks = [_check_of(state, o) for o in reversed(state.observations) if len(o) > 4 and o[0] > since]
        self._checks = [ch for ch in checks if _may_differ(self._checker, ch, unknown)]

    @property
    def players(self) -> int:
        return self._state.n

    def view(self) -> dict:
        return self._state.view(self.seat)

    def legal_labels(self) -> tuple:
        return self._labels

    def sample(self, rng) -> State:
        """A full state consistent with what the seat knows; `rng` is a `random.Random` of the agent.

        Up to `tries` identity draws are made; the first that keeps every announcement true is used. When none
        does (a very unlikely run of draws), the draw that kept the longest run of the most recent announcements
        true is used and `failures` counts it. The true state is never used.
        """
        best, best_run = None, -1
        for _ in range(max(1, self.tries)):
            defs = self._draw(rng)
            run = self._consistent_run(defs)
            if run == len(self._checks):
                return self._build(defs, rng)
            self.rejected += 1
            if run > best_run:
                best, best_run = defs, run
        self.failures += 1
        return self._build(best, rng)

    def _draw(self, rng) -> list:
        defs = list(self._state.game.card_def_of)
        for instances, pool in self._groups:
            drawn = list(pool)
            rng.shuffle(drawn)
            for c, d in zip(instances, drawn):
                defs[c] = d
        return defs

    def _consistent_run(self, defs: list) -> int:
        """How many recorded announcements, newest first, come out the same under the identities `defs`."""
        if not self._checks:
            return 0
        checker = self._checker
        _set_identities(checker.game, defs)
        for i, check in enumerate(self._checks):
            if _evaluate(checker, check) != check[2]:
                return i
        return len(self._checks)

    def _build(self, defs: list, rng) -> State:
        st = self._state.clone()
        st.game = _game_with(self._state.game, defs)
        st.rng = Rng(rng.getrandbits(64))
        d = st.decision
        if d is None or d.players == (self.seat,):
            return st  # the seat's own options do not depend on cards it does not know (tests/test_views.py)
        d.labels = None
        if any(p != self.seat for p in d.answers):
            st.repose()
        if tuple(a.label for a in st.legal_actions(self.seat)) != self._labels:
            raise WishRuntimeError(f"a sampled state offers player {self.seat + 1} other options than the real "
                                   "one: the seat's options depend on cards it does not know")
        return st


def _last_shuffle(state, seat: int) -> int:
    """Index in the log of the last shuffle that made `seat` lose track of cards (-1: none yet)."""
    lay = state.lay
    lines = {(SHUFFLED.format(name),) for slot, name in enumerate(lay.slot_names)
             if lay.slot_vis[slot] == "hidden" or (lay.slot_vis[slot] == "owner" and lay.slot_owner[slot] != seat)}
    for i in range(len(state.log) - 1, -1, -1):
        if state.log[i].parts in lines:
            return i
    return -1


def _unknown_groups(state, seat: int) -> list:
    """Per card kind: the instances the seat does not know (in instance order) and their identities, sorted."""
    g = state.game
    by_kind: dict = {}
    for c, mask in enumerate(state.known):
        if not (mask >> seat) & 1:
            d = g.card_def_of[c]
            instances, defs = by_kind.setdefault(g.card_defs[d].kind, ([], []))
            instances.append(c)
            defs.append(d)
    return [(tuple(cs), tuple(sorted(ds))) for _, (cs, ds) in sorted(by_kind.items()) if len(cs) > 1]


def _game_with(game, defs: list):
    """A shallow copy of `game` whose instances have the identities `defs`."""
    other = copy.copy(game)
    other.card_def_of = list(defs)
    other.instances_of = [[] for _ in game.card_defs]
    _set_identities(other, defs)
    return other


def _set_identities(game, defs: list) -> None:
    game.card_def_of[:] = defs
    for lst in game.instances_of:
        lst.clear()
    for c, d in enumerate(defs):
        game.instances_of[d].append(c)


def _checker(state) -> State:
    """A bare state, with its own copy of the game, to evaluate recorded announcements in."""
    st = State.__new__(State)
    st._bind(_game_with(state.game, state.game.card_def_of), state.n)
    st.rng = Rng(0)
    st.known = [state.all_mask] * len(state.known)
    st.face = [True] * len(state.known)
    st.seen = st.known
    return st


def _check_of(state, obs) -> tuple:
    """An observation made ready to evaluate again: (code, op, value, env, (zones, where, gvars, pvars, kvars))."""
    _, code, op, value, (env, zones, gvars, pvars, kvars) = obs
    where = [0] * len(state.where)
    for slot, cards in enumerate(zones):
        for c in cards:
            where[c] = slot
    places = ([list(z) for z in zones], where, list(gvars), [list(r) for r in pvars], [list(r) for r in kvars])
    return code, op, value, env, places


def _evaluate(checker, check):
    code, op, _, env, places = check
    checker.zones, checker.where, checker.gvars, checker.pvars, checker.kvars = places
    checker._fresh_memo()
    try:
        return checker.game.codes[code].ops[op].value(checker, dict(env))
    except _ERRORS:
        return _FAILED  # an expression that fails under some identities rules them out


class _Reads(list):
    """A list that notes which of its entries were read (all of them for anything but a plain index)."""

    def __init__(self, items, reads: set):
        super().__init__(items)
        self.reads = reads

    def __getitem__(self, i):
        self.reads.add(i if isinstance(i, int) else "all")
        return list.__getitem__(self, i)

    def __iter__(self):
        self.reads.add("all")
        return list.__iter__(self)


def _may_differ(checker, check, unknown: set) -> bool:
    """Can this announcement come out otherwise in a sample? Not if, under the true identities, it read no
    identity of a card the seat does not know: the same reads then give the same values, whatever is drawn."""
    game = checker.game
    plain_defs, plain_instances = game.card_def_of, game.instances_of
    reads: set = set()
    by_definition: set = set()
    game.card_def_of = _Reads(plain_defs, reads)
    game.instances_of = _Reads(plain_instances, by_definition)
    try:
        _evaluate(checker, check)
    finally:
        game.card_def_of, game.instances_of = plain_defs, plain_instances
    return bool(by_definition) or "all" in reads or bool(reads & unknown)


__all__ = ["InfoSet"]
