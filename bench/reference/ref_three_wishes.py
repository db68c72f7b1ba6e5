"""Hand-written reference simulator of 3 Wishes, following games/three_wishes.wish (base game, one round).

Same rules and decision structure as the .wish file:
  * 18 cards, 6 per type worth 0-5; 4 players remove the 5-point cards, 3 players the 5- and 4-point cards;
    shuffle, one card aside, two in the centre, three to each player, dealt again while a hand holds a complete
    set;
  * turns in seat order from player 1 until the round is over; a turn is up to two *different* actions, each
    one decision among all legal instances: `look` (then two more decisions: the first card, then a second
    one, among the centre and the other players' hands), `exchange` (one option per own card x card of the
    centre or another hand), `shuffle` (your hand; everyone forgets those cards), and `declare` (from your
    fourth turn on; ends the round);
  * a swap after which either hand involved holds one wish of each type ends the round at once;
  * from the fourth turn on, after two actions: one more decision, declare or end the turn;
  * score: the points of the hand, doubled by Cold Fusion + Cornucopia with a complete set; Time Travel
    loses; the best score among the others wins, ties share.

Who knows which card is tracked per card as a bit mask (peek sets a bit, a swap carries it with the card,
shuffling a hand clears it), as any simulator for agents that must not cheat would.
"""
from __future__ import annotations

import random

DOTES, HARMONY, POWERS = 0, 1, 2
PLAIN, DOUBLER, TIME_TRAVEL = 0, 1, 2
# (name, type, points, special), as in the card table of the .wish file
CARDS = (
    ("Immortality", POWERS, 5, PLAIN), ("Mind Reading", POWERS, 4, PLAIN),
    ("Time Travel", POWERS, 3, TIME_TRAVEL), ("Flight", POWERS, 2, PLAIN),
    ("Invisibility", POWERS, 1, PLAIN), ("Super Speed", POWERS, 0, PLAIN),
    ("Spaceship", DOTES, 5, PLAIN), ("Quantum Supercomputer", DOTES, 4, PLAIN),
    ("Pet Dragon", DOTES, 3, PLAIN), ("Treasure Chest", DOTES, 2, PLAIN),
    ("Cornucopia", DOTES, 1, DOUBLER), ("Flying Carpet", DOTES, 0, PLAIN),
    ("Solve World Hunger", HARMONY, 5, PLAIN), ("World Peace", HARMONY, 4, PLAIN),
    ("Universal Translator", HARMONY, 3, PLAIN), ("Teleportation Grid", HARMONY, 2, PLAIN),
    ("Cold Fusion", HARMONY, 1, DOUBLER), ("Clean Oceans", HARMONY, 0, PLAIN),
)
TYPE_BIT = [1 << c[1] for c in CARDS]
POINTS = [c[2] for c in CARDS]
SPECIAL = [c[3] for c in CARDS]
ALL_TYPES = 0b111
ACTIONS_PER_TURN = 2
DECLARE_FROM = 4

LOOK, EXCHANGE, SHUFFLE, DECLARE, END_TURN, PEEK = range(6)
USED_PEEK, USED_SWAP, USED_SHUFFLE = 1, 2, 4
ACTING, PEEK1, PEEK2, DECLARING = range(4)
CENTRE = -1


def has_set(hand) -> bool:
    return TYPE_BIT[hand[0]] | TYPE_BIT[hand[1]] | TYPE_BIT[hand[2]] == ALL_TYPES


def hand_score(hand) -> int:
    points = POINTS[hand[0]] + POINTS[hand[1]] + POINTS[hand[2]]
    if has_set(hand) and sum(SPECIAL[c] == DOUBLER for c in hand) == 2:
        return 2 * points
    return points


class ThreeWishes:
    __slots__ = ("n", "rng", "box", "aside", "centre", "hands", "known", "turns", "used", "acts",
                 "player", "phase", "options", "first_peek", "over", "decisions")

    def __init__(self, players: int, seed=None):
        if not 3 <= players <= 5:
            raise ValueError("3 Wishes is played by 3 to 5 players")
        self.n = players
        self.rng = random.Random(seed)
        removed = {5} if players == 4 else {4, 5} if players == 3 else set()
        deck = [c for c in range(len(CARDS)) if POINTS[c] not in removed]
        self.box = [c for c in range(len(CARDS)) if POINTS[c] in removed]
        while True:  # dealt again until no hand holds a complete set, as the game file decides
            self.rng.shuffle(deck)
            self.aside = deck[0]
            self.centre = deck[1:3]
            self.hands = [deck[3 + 3 * p: 6 + 3 * p] for p in range(players)]
            if not any(has_set(h) for h in self.hands):
                break
        self.known = [0] * len(CARDS)  # bit p: player p knows this card
        for c in self.box:
            self.known[c] = (1 << players) - 1
        self.turns = [0] * players
        self.over = False
        self.decisions = 0
        self.options = None
        self._start_turn(0)

    # ------------------------------------------------------------------ turns
    def _start_turn(self, p: int):
        self.player = p
        self.turns[p] += 1
        self.used = 0
        self.acts = 0
        self.phase = ACTING
        self.options = None

    def _after_action(self):
        """An action is resolved: the next action, the question to declare, or the next player's turn."""
        if self.over:
            return
        self.acts += 1
        if self.acts < ACTIONS_PER_TURN:
            self.phase = ACTING
            self.options = None
        elif self.turns[self.player] >= DECLARE_FROM:
            self.phase = DECLARING
            self.options = ((DECLARE,), (END_TURN,))
        else:
            self._start_turn((self.player + 1) % self.n)

    def _others(self, p: int):
        """(zone, index) of every card p may peek at or swap with: the centre, then the hands after p."""
        out = [(CENTRE, 0), (CENTRE, 1)]
        n = self.n
        for k in range(1, n):
            q = (p + k) % n
            out += ((q, 0), (q, 1), (q, 2))
        return out

    def _card(self, zone: int, j: int) -> int:
        return self.centre[j] if zone == CENTRE else self.hands[zone][j]

    # ------------------------------------------------------------------ decisions
    @property
    def to_move(self) -> int:
        return -1 if self.over else self.player

    def legal(self):
        opts = self.options
        if opts is None:
            if self.phase != ACTING:
                raise AssertionError(self.phase)
            p, used = self.player, self.used
            opts = []
            if not used & USED_PEEK:
                opts.append((LOOK,))
            if not used & USED_SWAP:
                others = self._others(p)
                opts += [(EXCHANGE, i, zone, j) for i in range(3) for zone, j in others]
            if not used & USED_SHUFFLE:
                opts.append((SHUFFLE,))
            if self.turns[p] >= DECLARE_FROM:
                opts.append((DECLARE,))
            self.options = opts
        return opts

    def apply(self, i: int):
        opt = self.legal()[i]
        self.decisions += 1
        kind = opt[0]
        p = self.player
        if kind == PEEK:
            zone, j = opt[1], opt[2]
            self.known[self._card(zone, j)] |= 1 << p
            if self.phase == PEEK1:
                self.phase = PEEK2
                self.options = [o for o in self.options if o is not opt]
            else:
                self._after_action()
        elif kind == EXCHANGE:
            self.used |= USED_SWAP
            _, mi, zone, j = opt
            mine = self.hands[p]
            theirs = self.centre if zone == CENTRE else self.hands[zone]
            mine[mi], theirs[j] = theirs[j], mine[mi]
            if has_set(mine) or (zone != CENTRE and has_set(theirs)):
                self.over = True  # a complete set ends the round at once
            self._after_action()
        elif kind == LOOK:
            self.used |= USED_PEEK
            self.phase = PEEK1
            self.options = [(PEEK, zone, j) for zone, j in self._others(p)]
        elif kind == SHUFFLE:
            self.used |= USED_SHUFFLE
            hand = self.hands[p]
            self.rng.shuffle(hand)
            for c in hand:
                self.known[c] = 0
            self._after_action()
        elif kind == DECLARE:
            self.over = True
        else:  # END_TURN
            self._start_turn((p + 1) % self.n)

    # ------------------------------------------------------------------ results
    def scores(self):
        return [hand_score(h) for h in self.hands]

    def winners(self):
        scores = self.scores()
        alive = [p for p, h in enumerate(self.hands) if not any(SPECIAL[c] == TIME_TRAVEL for c in h)]
        if not alive:
            return []
        best = max(scores[p] for p in alive)
        return [p for p in alive if scores[p] == best]


def new_game(players: int, seed=None) -> ThreeWishes:
    return ThreeWishes(players, seed)


def random_playout(players: int, seed, rng: random.Random) -> ThreeWishes:
    """One game to the end; every decision a uniform choice among the legal options."""
    g = ThreeWishes(players, seed)
    while not g.over:
        g.apply(rng.randrange(len(g.legal())))
    return g
