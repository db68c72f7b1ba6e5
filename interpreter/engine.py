"""The State: one game in progress — a world (interpreter/world.py) and the machine that runs the rules on it
(interpreter/machine.py) — and its public API: `legal_actions`, `apply`, `is_over`, `scores`, `view`, `clone`,
`to_json`."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Optional, Union

from dsl.errors import IllegalAction, WishError, WishRuntimeError, did_you_mean

from . import checks, presentation, views
from .frames import Frame, FrameKind
from .log import KIND_NAMES, render
from .scoring import outcome, summary
from .machine import Machine
from .state import FIELDS, Rng, clone_data, data_to_json

MAX_DECISIONS = 20_000


class Action:
    """One option of a decision: who takes it (`player`) and what it is (`value`: an action's name with its
    parameter values, or the value chosen). `label` is its stable text as its player sees it and `key` the same
    as structured data (what agents compare); both are built only when read. `Action(player, label)` names an
    option by its label (a saved game, a test)."""

    __slots__ = ("player", "_label", "_decision", "_index", "_state")

    def __init__(self, player: int, label: Optional[str] = None, _decision=None, _index: int = -1, _state=None):
        self.player = player
        self._label = label
        self._decision = _decision
        self._index = _index
        self._state = _state

    @property
    def label(self) -> str:
        """Read it while the decision is pending (as OpenSpiel's ActionToString): it is built from the state."""
        if self._label is None:
            d = self._decision
            if d.labels is None and d.closed:
                raise ValueError("an option's label is built from the state it was offered in: read it before "
                                 "the decision is answered")
            self._label = self._state.labels(d)[d.players.index(self.player)][self._index]
        return self._label

    @property
    def key(self):
        """The option as structured data, equal for two options exactly when their labels are (views.option_key)."""
        d = self._decision
        if d is None:
            raise ValueError("an action named by its label alone has no key")
        if d.keys is None and d.closed:
            raise ValueError("an option's key is built from the state it was offered in: read it before the "
                             "decision is answered")
        return self._state.option_keys(d)[d.players.index(self.player)][self._index]

    @property
    def value(self):
        d = self._decision
        return None if d is None else d.values[d.players.index(self.player)][self._index]

    def __eq__(self, other) -> bool:
        return isinstance(other, Action) and (self.player, self.label) == (other.player, other.label)

    def __hash__(self) -> int:
        return hash((self.player, self.label))

    def __str__(self) -> str:
        return f"player {self.player + 1}: {self.label}"

    def __repr__(self) -> str:
        d = self._decision
        if self._label is None and d is not None and d.labels is None and d.closed:
            return f"<Action of player {self.player + 1}: {self.value!r}>"
        return f"Action({self.player}, {self.label!r})"


class Options(Sequence):
    """The options of a pending decision, as `legal_actions` returns them: a read-only sequence of Action,
    each built when it is read (a random playout that takes one option builds one). `list(options)` is a
    list; `+` and `*` give lists."""

    __slots__ = ("_st", "_d", "_rows", "_n")

    def __init__(self, st, d, rows: list):
        self._st, self._d, self._rows = st, d, rows  # rows: (player, number of options), in order
        if len(rows) == 1:
            self._n = rows[0][1]
        else:
            self._n = 0
            for row in rows:
                self._n += row[1]

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, k):
        rows = self._rows
        if len(rows) == 1 and type(k) is int and 0 <= k < self._n:
            return Action(rows[0][0], None, self._d, k, self._st)
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self._n))]
        if k < 0:
            k += self._n
        if not 0 <= k < self._n:
            raise IndexError("option index out of range")
        for p, n in rows:
            if k < n:
                return Action(p, None, self._d, k, self._st)
            k -= n

    def __iter__(self):
        st, d = self._st, self._d
        for p, n in self._rows:
            for j in range(n):
                yield Action(p, None, d, j, st)

    def texts(self) -> list:
        """The options as a person reads them, in order: display names, an action's `@reads` phrase
        (views.option_texts); read them while the decision is pending, as labels."""
        st, d = self._st, self._d
        return [t for p, _ in self._rows for t in st.option_texts(d, p)]

    def __eq__(self, other) -> bool:
        return isinstance(other, (list, tuple, Options)) and list(self) == list(other)

    def __add__(self, other) -> list:
        return list(self) + list(other)

    def __radd__(self, other) -> list:
        return list(other) + list(self)

    def __mul__(self, k: int) -> list:
        return list(self) * k

    def __repr__(self) -> str:
        return repr(list(self))


NO_OPTIONS = Options(None, None, [])


class State(Machine):
    """A game in progress. See docs/design.md for the public API."""

    # besides the data of the world: the game and what follows from it, the memory of function results, and
    # `counting`: does this state count the rules that run (a CountingState, wishdsl/coverage.py)?
    # `slot_arrival` and `moves_heard`: the layout's per-slot arrival rules and whether a trigger hears card moves,
    # read by every card move (kept on the state, where compiled moves read them in C)
    __slots__ = FIELDS + ("game", "lay", "seats", "all_mask", "call_depth", "memo", "step_limit", "counting",
                          "slot_arrival", "moves_heard")

    # ---------------------------------------------------------------- creation and copies
    @classmethod
    def fresh(cls, game, players: int, seed: int, timed: bool = False) -> "State":
        st = cls.__new__(cls)
        st._bind(game, players)
        st.seed = seed
        st.timed, st.arrivals = timed, ()
        st.rng = Rng(seed)
        st.ids = game.identities
        st.stack, st.decision, st.log, st.observations, st.shuffles, st.after = [], None, st.new_log(), [], [], []
        st.over, st.steps, st.decisions, st.final = False, 0, 0, None
        first = game.initial.get(players)
        if first is None:
            first = game.initial[players] = st._first_world()
        zones, where, face, known, seen = first
        st.zones = [z[:] for z in zones]
        st.where, st.face, st.known, st.seen = where[:], face[:], known[:], seen[:]
        st.gvars = [None] * len(game.gvars)
        st.pvars = [[None] * len(game.pvars) for _ in range(players)]
        st.kvars = [[] for _ in game.kvars]
        for i, v in enumerate(game.gvars):
            st.gvars[i] = v.init(st, {})
        for i, v in enumerate(game.kvars):
            st.kvars[i] = [v.init(st, {v.key_name: k}) for k in v.key_values(st)]
        for i, v in enumerate(game.pvars):
            for p in range(players):
                st.pvars[p][i] = v.init(st, {"you": p})
        st.stack.append(Frame(game.play_code, {}, FrameKind.BLOCK))
        if game.setup_code is not None:
            st.stack.append(Frame(game.setup_code, {}, FrameKind.BLOCK))
        st.write_log(f"{game.title}: {players} players, seed {seed}")
        st.run()
        return st

    def _first_world(self) -> tuple:
        """Zones, places, facing and knowledge of the cards before set-up: every card in its table's zone (the
        same for every game of this player count, so a Game keeps it)."""
        ncards = len(self.ids.of)
        self.zones = [[] for _ in range(self.lay.slots)]
        self.where, self.face, self.known, self.seen = [0] * ncards, [False] * ncards, [0] * ncards, [0] * ncards
        for c, slot in enumerate(self.game.card_start):
            self.zones[slot].append(c)
            self._enter(c, slot)
        return self.zones, self.where, self.face, self.known, self.seen

    def _bind(self, game, players: int) -> None:
        self.game = game
        self.n = players
        self.lay = game.layout(players)
        self.slot_arrival, self.moves_heard = self.lay.slot_arrival, self.lay.moves_heard
        self.seats = tuple(range(players))
        self.all_mask = (1 << players) - 1
        self.step_limit = 0
        self.counting = False
        self._fresh_memo()

    def _fresh_memo(self) -> None:
        """Function results are remembered until the state changes (`touch`); never copied or saved."""
        self.call_depth = 0
        self.memo = {}

    def touch(self) -> None:
        """The state changed: remembered function results no longer hold."""
        self.memo.clear()

    def restore(self, other: "State") -> None:
        """Become `other`, a clone of this game taken earlier (a person's `undo`)."""
        self.step_limit = self.call_depth = 0
        self.memo = {}
        clone_data(other, self)

    def new_log(self) -> list:
        """The empty log of a new game (an explaining state's records why each line is written)."""
        return []

    def clone(self) -> "State":
        st = State.__new__(State)
        self.copy_into(st)
        return st

    def copy_into(self, st: "State") -> None:
        """Make the fresh object `st` a copy of this game (its memory of function results starts empty)."""
        st.game, st.lay, st.seats, st.all_mask = self.game, self.lay, self.seats, self.all_mask
        st.slot_arrival, st.moves_heard = self.slot_arrival, self.moves_heard
        st.step_limit = st.call_depth = 0
        st.counting = False
        st.memo = {}
        clone_data(self, st)

    def to_json(self) -> str:
        return data_to_json(self, self.game.fingerprint)

    # ---------------------------------------------------------------- the public API
    @property
    def to_move(self) -> list:
        d = self.decision
        if d is None:
            return []
        return [p for p in d.players if p not in d.answers]

    @property
    def is_over(self) -> bool:
        return self.over

    def legal_actions(self, player: Optional[int] = None) -> Options:
        """The options of the players who must decide now (only `player`'s when given), in a stable order: a
        sequence of Action (see Options)."""
        d = self.decision
        if d is None:
            return NO_OPTIONS
        players = d.players
        if len(players) == 1 and (player is None or player == players[0]) and not d.answers:
            return Options(self, d, [(players[0], len(d.values[0]))])
        answers = d.answers
        rows = [(p, len(values)) for p, values in zip(players, d.values)
                if p not in answers and (player is None or p == player)]
        return Options(self, d, rows)

    def apply(self, action: Union[Action, str, int], player: Optional[int] = None) -> None:
        """Take one option of the pending decision: an Action, an index into `legal_actions()` or a label. An
        illegal one raises IllegalAction with the reason."""
        d = self.decision
        if type(action) is Action:
            a = action  # an Action for certain: engine.pxd types `a`, so its fields are read in C
            if a._decision is d and d is not None and a.player not in d.answers:
                return self._answer(d, a.player, a._index)
        if d is None:
            raise IllegalAction("the game is over" if self.over else "no decision is pending")
        if isinstance(action, Action):
            j = self._option_index(d, action)
            if j >= 0:
                return self._answer(d, action.player, j)
            player, label = action.player, action.label
        elif isinstance(action, int) and not isinstance(action, bool):
            actions = self.legal_actions(player)
            if not 0 <= action < len(actions):
                raise IllegalAction(f"there is no option {action}; options are numbered 0 to {len(actions) - 1}")
            return self.apply(actions[action])
        else:
            label = str(action)
        if player is None:
            waiting = [p for p in d.players if p not in d.answers]
            having = [p for p in waiting if label in self.labels(d)[d.players.index(p)]]
            if len(having) > 1:
                raise IllegalAction(f"several players may choose '{label}': say which player")
            player = having[0] if having else waiting[0]
        if player not in d.players:
            who = ", ".join([self.player_name(p) for p in d.players])
            raise IllegalAction(f"it is not {self.player_name(player)}'s decision; waiting for {who}")
        if player in d.answers:
            raise IllegalAction(f"{self.player_name(player)} has already answered")
        labels = self.labels(d)[d.players.index(player)]
        if label not in labels:
            raise IllegalAction(self._why_not(d, player, label, labels))
        self._answer(d, player, labels.index(label))

    def _option_index(self, d, action: Action) -> int:
        """The option an Action taken from a decision names in `d`, or -1 when it must be found by its label:
        the same decision, or one asked at the same place that offers the same value at the same index (an
        action of one state applied to its clone)."""
        a = action._decision
        if a is None:
            return -1
        p, j = action.player, action._index
        if a is d:
            return j if p not in d.answers else -1
        if a.point != d.point or p not in d.players or p in d.answers:
            return -1
        values = d.values[d.players.index(p)]
        return j if j < len(values) and values[j] == a.values[a.players.index(p)][j] else -1

    def _answer(self, d, player: int, j: int) -> None:
        """Record option j of `player`; when every player has answered, resume the rules."""
        players = d.players
        answers = d.answers
        answers[player] = d.values[0 if len(players) == 1 else players.index(player)][j]
        if len(answers) < len(players):
            return
        d.closed = True
        self.decision = None
        self.decisions += 1
        if self.timed:
            self.arrivals = tuple(answers)  # the order the answers arrived in (first_to_answer)
        point = self.game.points[d.point]
        if self.decisions > MAX_DECISIONS:
            err = WishRuntimeError(f"the game did not end within {MAX_DECISIONS} decisions (the last one was "
                                   "asked here)", point.span, state=self)
            raise checks.in_context(self, err)
        try:
            point.answer(self, self.stack[-1], answers)
        except (WishError, TypeError, IndexError, KeyError, ValueError) as err:
            raise self.failed(err, point.span) from None
        self.run()

    def repose(self) -> None:
        """Ask the pending decision again, from the state as it is now (after a test fixture changed it).
        The op that asked it runs again; answers already given to a simultaneous decision are dropped."""
        self.touch()
        if self.decision is None:
            return
        self.decision = None
        self.stack[-1].pc -= 1
        self.run()

    def labels(self, d) -> tuple:
        """The option labels of decision `d`, per deciding player, as each of them sees the options.
        Computed from the stored option values when first asked for; nothing changes while a decision waits,
        so they are stable."""
        if d.labels is None:
            point = self.game.points[d.point]
            d.labels = tuple([point.labels(self, values, who) for who, values in zip(d.players, d.values)])
        return d.labels

    def option_keys(self, d) -> tuple:
        """The options of decision `d` as structured keys, per deciding player: equal exactly when their labels
        are (views.option_key); what agents compare and remember instead of label text."""
        if d.keys is None:
            point = self.game.points[d.point]
            d.keys = tuple([point.keys(self, values, who) for who, values in zip(d.players, d.values)])
        return d.keys

    def option_texts(self, d, player: int) -> tuple:
        """`player`'s options in decision `d` as a person reads them (views.option_texts)."""
        if d.closed:
            raise ValueError("an option's text is built from the state it was offered in: read it before the "
                             "decision is answered")
        return views.option_texts(self, d, d.players.index(player))

    def legal_keys(self, player: int) -> tuple:
        """The keys of `player`'s options now, in the order of `legal_actions(player)` (no Action is built)."""
        d = self.decision
        if d is None or player not in d.players or player in d.answers:
            return ()
        return self.option_keys(d)[d.players.index(player)]

    def all_options(self, player: int) -> list:
        """Every option of `player`'s pending decision as (label, reason): reason None for a legal one. For an
        action, also each instance its requirements refuse, with the first one it fails (the legal ones are
        exactly `legal_actions(player)`)."""
        d = self.decision
        if d is None or player not in d.players or player in d.answers:
            return []
        if d.kinds == "act":
            return [(lbl, reason) for _, lbl, reason in self.action_options(self.game.points[d.point].actions, player)]
        return [(lbl, None) for lbl in self.labels(d)[d.players.index(player)]]

    def _why_not(self, d, player, label, labels) -> str:
        if d.kinds == "act":
            for lbl, reason in self.all_options(player):
                if lbl == label and reason is not None:
                    return reason
        hint = did_you_mean(label, labels)
        shown = ", ".join(labels[:12]) + (" …" if len(labels) > 12 else "")
        return f"'{label}' is not an option now" + (f" ({hint})" if hint else "") + f"; options: {shown}"

    def scores(self) -> list:
        if self.final is not None:
            return list(self.final[0])
        return [r.score for r in self.game.standings(self)]

    def result(self) -> dict:
        """The end of the game (or where it stands, if it ended now) as plain data: scores and points per
        scoring step, tie-breakers, who lost outright, the winners and what decided (interpreter/scoring.py)."""
        rows = self.game.standings(self)
        return summary(rows, outcome(rows))

    def winners(self) -> list:
        return list(self.final[1]) if self.final is not None else []

    def view(self, player: int, log_from: int = 0) -> dict:
        """Everything `player` may know now (views.view), and what the game's `table` shows them
        (presentation.present). `log_from`: the log's lines from that one on (a client that has the rest)."""
        v = views.view(self, player, log_from)
        v["log_kinds"] = [KIND_NAMES[e[0]] for e in self.log[log_from:]]  # a table shows what moves and changes
        if self.game.presentation:
            v["table"] = presentation.present(self, player)
        return v

    def broken_invariants(self) -> list:
        """Names of the game's declared invariants that do not hold now, and broken engine invariants."""
        out = [name for name, cond in self.game.invariants if not cond(self, {})]
        zones, where = self.zones, self.where
        cards = [c for z in zones for c in z]
        if [where[c] for c in cards] != [slot for slot, z in enumerate(zones) for _ in z]:
            for slot, z in enumerate(zones):
                if any(where[c] != slot for c in z):
                    out.append(f"cards of {self.lay.slot_names[slot]} disagree with where they are")
        if sorted(cards) != list(range(len(where))):
            out.append("a card is lost or in two places")
        if any(k & ~s for k, s in zip(self.known, self.seen)):  # a card move into a zone nobody sees relies on it
            out.append("a player knows a card they never saw")
        return out + checks.broken_amounts(self)

    def log_lines(self, player: Optional[int] = None, start: int = 0) -> list:
        """The log as `player` may read it (None: everything), from line `start` on."""
        return [render(self, e, player) for e in self.log[start:]]

__all__ = ["Action", "State"]
