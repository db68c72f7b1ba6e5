"""Information sets: what one seat may know of a state, and full states sampled consistent with it.

`InfoSet(state, seat)` is the only door from an agent to a state. `sample(rng)` returns a State in which every
card the seat does not know now has an identity redrawn from the pool of identities the seat cannot place
(within each card kind, so a Wish stays a Wish). The redraw depends only on what the seat may know: the pool
is sorted canonically, shuffled with the agent's generator and dealt to the unknown instances in instance
order, so permuting hidden identities in the true state gives the very same samples.

Observations stay true. An announcement, and the choice of a card not everyone knows (the others learn it
was among the options: the Wish Machine wishes only for single-item cards), records the environment and a
snapshot of the zones and variables it read (`runtime.snapshot`); it is evaluated again under the new
identities, and a sample that contradicts one is rejected and drawn again. After a shuffle that made the seat
lose track of cards the observation read, tying it to a shuffled card's new, unseen place would tell the seat
where the card went, so it is no longer checked — unless it is a choice whose chosen card was not shuffled and
it comes out the same whichever shuffled card is which (`_untouched_by_shuffles`). An observation that, in a
world built from what the seat knows, read no identity the seat does not know cannot come out otherwise, so
it is not checked. Nothing here is game-specific: everything derives from the zones' visibility, the players'
knowledge (`state.known`), the recorded shuffles (`state.shuffles`: which cards, who kept track) and the
recorded observations.

Also redrawn, because the seat cannot know them: the random generator (a sample's future shuffles and races
come from the agent's generator, not the game's) and the answers other players already gave to a pending
simultaneous decision (they are dropped and the decision is asked again). In a sample, an opponent who knows
a card the seat does not know knows its sampled identity: the sample is a whole world, consistent for all.
"""
from __future__ import annotations

import json
import random

from dsl.errors import WishError, WishRuntimeError

from .draws import shuffle
from .runtime import CHOSEN
from .engine import State
from .tables import Identities
from .state import Rng

DEFAULT_TRIES = 500
PERMUTATIONS = 4  # permutations of shuffled cards' identities that must leave an old observation unchanged
_FAILED = object()
_ERRORS = (WishError, TypeError, IndexError, KeyError, ValueError)


class InfoSet:
    """The information set of `seat` in `state`: its view, its options, and samples of consistent states."""

    def __init__(self, state, seat: int, tries: int = DEFAULT_TRIES):
        self._state = state
        self.seat = seat
        self.tries = tries
        self.rejected = 0  # identity draws thrown away because they contradicted an observation
        self.failures = 0  # samples for which no draw was consistent (see `sample`)
        self._groups = _unknown_groups(state, seat)
        self._keys = tuple(a.key for a in state.legal_actions(seat))
        self._checker = _checker(state)
        self._checks = self._checks_to_keep()

    def _checks_to_keep(self) -> list:
        """The recorded observations a sample must keep true, newest first (see the module's docstring)."""
        state, seat, checker = self._state, self.seat, self._checker
        unknown = {c for c, m in enumerate(state.known) if not (m >> seat) & 1}
        base = self._draw(None)
        _set_identities(checker, base)
        checks: list = []
        lost: set = set()
        shuffles, k = state.shuffles, len(state.shuffles) - 1
        for o in reversed(state.observations):
            while k >= 0 and shuffles[k][0] > o[0]:  # the cards the seat lost track of since o, newest first
                _, keep, cards = shuffles[k]
                if not (keep >> seat) & 1:
                    lost.update(c for c in cards if c in unknown)
                k -= 1
            check = _check_of(state, o)
            reads = _reads(checker, check)
            if reads is not None and not reads & unknown:
                continue  # it read no identity a sample redraws: it cannot come out otherwise
            if lost and not _untouched_by_shuffles(checker, check, reads, base, lost, state.game):
                continue
            checks.append(check)
        return checks

    @property
    def players(self) -> int:
        return self._state.n

    @property
    def game(self):
        """The game (its rules are no secret)."""
        return self._state.game

    def to_json(self) -> str:
        """The information set as text, rebuilt in another process by `from_json` (a searching agent's worker
        processes): it holds the state it was made from, so it goes only where an InfoSet would."""
        return json.dumps({"seat": self.seat, "tries": self.tries, "state": self._state.to_json()})

    @classmethod
    def from_json(cls, game, text: str) -> "InfoSet":
        doc = json.loads(text)
        return cls(game.state_from_json(doc["state"]), doc["seat"], doc["tries"])

    def view(self) -> dict:
        return self._state.view(self.seat)

    @property
    def decisions(self) -> int:
        """How many decisions the game has taken so far (no secret: everyone sees a decision being made); a
        searching agent knows from it that no other decision came between two of its own."""
        return self._state.decisions

    def legal_keys(self) -> tuple:
        """The keys of the seat's options now (`Action.key`)."""
        return self._keys

    def sample(self, rng) -> State:
        """A full state consistent with what the seat knows; `rng` is a `random.Random` of the agent.

        Up to `tries` identity draws are made; the first that keeps every observation checked true is used. When
        none does (a very unlikely run of draws), the draw that kept the longest run of the most recent
        observations true is used and `failures` counts it. The true state is never used.
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
        """Identities with every unknown card given one from its pool, shuffled by `rng`; with None, in the
        pool's sorted order: a world that depends only on what the seat knows."""
        defs = list(self._state.ids.of)
        for instances, pool in self._groups:
            drawn = list(pool)
            if rng is not None:
                shuffle(rng, drawn)
            for c, d in zip(instances, drawn):
                defs[c] = d
        return defs

    def _consistent_run(self, defs: list) -> int:
        """How many checked observations, newest first, come out the same under the identities `defs`."""
        if not self._checks:
            return 0
        checker = self._checker
        _set_identities(checker, defs)
        for i, check in enumerate(self._checks):
            if _evaluate(checker, check) != check[1]:
                return i
        return len(self._checks)

    def _build(self, defs: list, rng) -> State:
        st = self._state.clone()
        _set_identities(st, defs)
        st.rng = Rng(rng.getrandbits(64))
        d = st.decision
        if d is None or d.players == (self.seat,):
            return st  # the seat's own options do not depend on cards it does not know (tests/test_views.py)
        d.labels = d.keys = None
        if any(p != self.seat for p in d.answers):
            st.repose()
        if tuple(a.key for a in st.legal_actions(self.seat)) != self._keys:
            raise WishRuntimeError(f"a sampled state offers player {self.seat + 1} other options than the real "
                                   "one: the seat's options depend on cards it does not know")
        return st


def _untouched_by_shuffles(checker, check, reads, base: list, lost: set, game) -> bool:
    """May this observation still be checked, though the seat lost track of the cards `lost` since?

    Yes if it read none of them. Otherwise only a choice whose chosen card was not shuffled may be, and only
    if the choice comes out the same whichever lost card has which identity: it then tells only what the
    chosen card is (the Machine's wish, chosen before the deck was shuffled, is a single-item card). Anything
    else would tie the observation to a shuffled card's new, unseen place and tell the seat where it went."""
    if reads is not None and not reads & lost:
        return True
    chosen = dict(check[2]).get(CHOSEN)
    if chosen is None or chosen in lost:
        return False
    return _unchanged_by_permutations(checker, check, base, lost, game)


def _unchanged_by_permutations(checker, check, base: list, lost: set, game, tries: int = PERMUTATIONS) -> bool:
    """Does the observation come out the same on `base` (the identities the checker holds, built from what
    the seat knows) and on `tries` permutations of the lost cards' identities within each card kind? From a
    fixed generator: a first permutation moves every lost card, the others are random. The checker holds
    `base` again afterwards."""
    by_kind: dict = {}
    for c in sorted(lost):
        by_kind.setdefault(game.card_defs[base[c]].kind, []).append(c)
    groups = [cs for cs in by_kind.values() if len(cs) > 1]
    want = _evaluate(checker, check)
    rng = random.Random(0)
    same = True
    for i in range(tries if groups else 0):
        defs = list(base)
        for cs in groups:
            ids = [base[c] for c in cs]
            if i == 0:
                ids = ids[1:] + ids[:1]
            else:
                shuffle(rng, ids)
            for c, d in zip(cs, ids):
                defs[c] = d
        _set_identities(checker, defs)
        if _evaluate(checker, check) != want:
            same = False
            break
    if groups:
        _set_identities(checker, base)
    return same


def _unknown_groups(state, seat: int) -> list:
    """Per card kind: the instances the seat does not know (in instance order) and their identities, sorted."""
    g = state.game
    by_kind: dict = {}
    for c, mask in enumerate(state.known):
        if not (mask >> seat) & 1:
            d = state.ids.of[c]
            instances, defs = by_kind.setdefault(g.card_defs[d].kind, ([], []))
            instances.append(c)
            defs.append(d)
    return [(tuple(cs), tuple(sorted(ds))) for _, (cs, ds) in sorted(by_kind.items()) if len(cs) > 1]


def _set_identities(st, defs: list) -> None:
    """The state's card instances have the identities `defs` from now on."""
    st.ids = Identities(defs, len(st.game.card_defs))


def _checker(state) -> State:
    """A bare state to evaluate recorded observations in."""
    st = State.__new__(State)
    st._bind(state.game, state.n)
    st.ids = state.ids
    st.rng = Rng(0)
    st.timed, st.arrivals = False, ()
    st.known = [state.all_mask] * len(state.known)
    st.face = [True] * len(state.known)
    st.seen = st.known
    return st


def _check_of(state, obs) -> tuple:
    """An observation made ready to evaluate again: (point, value, env, (zones, where, gvars, pvars, kvars))."""
    _, point, value, (env, zones, gvars, pvars, kvars) = obs
    where = [0] * len(state.where)
    for slot, cards in enumerate(zones):
        for c in cards:
            where[c] = slot
    places = ([list(z) for z in zones], where, list(gvars), [list(r) for r in pvars], [list(r) for r in kvars])
    return point, value, env, places


def _evaluate(checker, check):
    point, _, env, places = check
    checker.zones, checker.where, checker.gvars, checker.pvars, checker.kvars = places
    checker._fresh_memo()
    try:
        return checker.game.points[point].recheck(checker, dict(env))
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


def _reads(checker, check):
    """The cards whose identity the observation reads under the identities the checker holds (any possible
    world), or None when it reads identities wholesale (every card of a definition, the whole table)."""
    plain = checker.ids
    reads: set = set()
    by_definition: set = set()
    watched = Identities.__new__(Identities)
    watched.of = _Reads(plain.of, reads)
    watched._ndefs = plain._ndefs
    watched._instances = _Reads(plain.instances, by_definition)
    checker.ids = watched
    try:
        _evaluate(checker, check)
    finally:
        checker.ids = plain
    return None if by_definition or "all" in reads else reads


__all__ = ["InfoSet"]
