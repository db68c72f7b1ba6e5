"""The engine: a State runs the effect stack until a decision is pending, applies answers, fires triggers."""
from __future__ import annotations

from typing import Optional, Union

from dsl.errors import IllegalAction, WishError, WishRuntimeError, did_you_mean

from . import checks, views
from .effects import loop_again
from .state import Frame, LogEntry, Rng, StateData, clone_data, data_to_json

MAX_STACK = 400
MAX_CHAIN = 50
MAX_STEPS = 2_000_000
MAX_RUN_STEPS = 200_000  # steps between two decisions (the real games take at most about a hundred)
MAX_DECISIONS = 20_000
MAX_ACTION_OPTIONS = 10_000
SHUFFLED = "{} is shuffled"  # the log line of a shuffle (agents use `state.shuffles`, not this line)


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


class State(StateData):
    """A game in progress. See DESIGN.md for the public API."""

    __slots__ = ("game", "lay", "seats", "all_mask", "call_depth", "version", "memo", "memo_version")

    # ---------------------------------------------------------------- creation and copies
    @classmethod
    def fresh(cls, game, players: int, seed: int) -> "State":
        st = cls.__new__(cls)
        st._bind(game, players)
        st.seed = seed
        st.rng = Rng(seed)
        st.ids = game.identities
        st.stack, st.decision, st.log, st.observations, st.shuffles, st.after = [], None, [], [], [], []
        st.over, st.steps, st.decisions, st.final = False, 0, 0, None
        lay = st.lay
        st.zones = [[] for _ in range(lay.slots)]
        ncards = len(st.ids.of)
        st.where, st.face, st.known, st.seen = [0] * ncards, [False] * ncards, [0] * ncards, [0] * ncards
        for c, slot in enumerate(game.card_start):
            st.zones[slot].append(c)
            st.where[c] = slot
            st._enter(c, slot, None)
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
        st.stack.append(Frame(game.play_code, {}, None, 0))
        if game.setup_code is not None:
            st.stack.append(Frame(game.setup_code, {}, None, 0))
        st.write_log(f"{game.title}: {players} players, seed {seed}")
        st.run()
        return st

    def _bind(self, game, players: int) -> None:
        self.game = game
        self.n = players
        self.lay = game.layout(players)
        self.seats = tuple(range(players))
        self.all_mask = (1 << players) - 1
        self._fresh_memo()

    def _fresh_memo(self) -> None:
        """Function results are remembered until the state changes (`touch`); never copied or saved."""
        self.call_depth = 0
        self.version = 0
        self.memo = {}
        self.memo_version = 0

    def touch(self) -> None:
        """The state changed: remembered function results no longer hold."""
        self.version += 1

    def clone(self) -> "State":
        st = State.__new__(State)
        st.game, st.lay, st.seats, st.all_mask = self.game, self.lay, self.seats, self.all_mask
        st._fresh_memo()
        clone_data(self, st)
        return st

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

    def legal_actions(self, player: Optional[int] = None) -> list:
        """The options of the players who must decide now (only `player`'s when given), in a stable order."""
        d = self.decision
        if d is None:
            return []
        out = []
        for i, p in enumerate(d.players):
            if p in d.answers or (player is not None and p != player):
                continue
            out.extend([Action(p, None, d, j, self) for j in range(len(d.values[i]))])
        return out

    def apply(self, action: Union[Action, str, int], player: Optional[int] = None) -> None:
        """Take one option of the pending decision: an Action, an index into `legal_actions()` or a label. An
        illegal one raises IllegalAction with the reason."""
        d = self.decision
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
            who = ", ".join(self.player_name(p) for p in d.players)
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
        if a.code != d.code or a.op != d.op or p not in d.players or p in d.answers:
            return -1
        values = d.values[d.players.index(p)]
        return j if j < len(values) and values[j] == a.values[a.players.index(p)][j] else -1

    def _answer(self, d, player: int, j: int) -> None:
        """Record option j of `player`; when every player has answered, resume the rules."""
        i = d.players.index(player)
        d.answers[player] = d.values[i][j]
        if len(d.answers) < len(d.players):
            return
        d.closed = True
        self.decision = None
        self.decisions += 1
        frame = self.stack[-1]
        op = self.game.codes[d.code].ops[d.op]
        if self.decisions > MAX_DECISIONS:
            err = WishRuntimeError(f"the game did not end within {MAX_DECISIONS} decisions (the last one was "
                                   "asked here)", op.span, state=self)
            raise checks.in_context(self, err)
        self._guard(op.answer, frame, d.answers, op.span)
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
            op = self.game.codes[d.code].ops[d.op]
            d.labels = tuple(op.labels(self, values, who) for who, values in zip(d.players, d.values))
        return d.labels

    def option_keys(self, d) -> tuple:
        """The options of decision `d` as structured keys, per deciding player: equal exactly when their labels
        are (views.option_key); what agents compare and remember instead of label text."""
        if d.keys is None:
            op = self.game.codes[d.code].ops[d.op]
            d.keys = tuple(op.keys(self, values, who) for who, values in zip(d.players, d.values))
        return d.keys

    def _why_not(self, d, player, label, labels) -> str:
        if d.kinds == "act":
            op = self.game.codes[d.code].ops[d.op]
            for key, lbl, reason in self.action_options(op.actions, player):
                if lbl == label and reason is not None:
                    return reason
        hint = did_you_mean(label, labels)
        shown = ", ".join(labels[:12]) + (" …" if len(labels) > 12 else "")
        return f"'{label}' is not an option now" + (f" ({hint})" if hint else "") + f"; options: {shown}"

    def scores(self) -> list:
        if self.final is not None:
            return list(self.final[0])
        return [self.game.score_of(self, p)[0] for p in self.seats]

    def winners(self) -> list:
        return list(self.final[1]) if self.final is not None else []

    def view(self, player: int) -> dict:
        return views.view(self, player)

    def broken_invariants(self) -> list:
        """Names of the game's declared invariants that do not hold now, and broken engine invariants."""
        out = [name for name, cond in self.game.invariants if not cond(self, {})]
        for slot, cards in enumerate(self.zones):
            if any(self.where[c] != slot for c in cards):
                out.append(f"cards of {self.lay.slot_names[slot]} disagree with where they are")
        if sorted(c for z in self.zones for c in z) != list(range(len(self.where))):
            out.append("a card is lost or in two places")
        return out + checks.broken_amounts(self)

    def card_name(self, c: int) -> str:
        """The name of card instance `c` (whoever reads it: callers check knowledge)."""
        return self.game.card_defs[self.ids.of[c]].name

    def player_name(self, p) -> str:
        return f"player {p + 1}" if p is not None else "nobody"

    def log_lines(self, player: Optional[int] = None, start: int = 0) -> list:
        """The log as `player` may read it (None: everything), from line `start` on."""
        return [e.render(self, player) for e in self.log[start:]]

    # ---------------------------------------------------------------- the run loop
    def run(self) -> None:
        codes = self.game.codes
        stack = self.stack
        limit = min(MAX_STEPS, self.steps + MAX_RUN_STEPS)
        while self.decision is None and not self.over:
            if not stack:
                self.finish()
                return
            f = stack[-1]
            code = codes[f.code]
            if f.pc == 0 and _frame_kind(f) == "trigger" and not self._trigger_holds(f):
                stack.pop()
                continue
            if f.pc >= len(code.ops):
                if code.loop is not None and self._guard(loop_again, f, code, code.span):
                    continue
                stack.pop()
                if _frame_kind(f) == "action":
                    self._flush_after()
                continue
            op = code.ops[f.pc]
            f.pc += 1
            self.steps += 1
            if self.steps > limit:
                message = (f"the game ran {MAX_STEPS} steps without ending" if limit == MAX_STEPS else
                           f"the rules ran {MAX_RUN_STEPS} steps without a decision or the end of the game")
                raise checks.in_context(self, WishRuntimeError(message, op.span, state=self))
            self._guard(op.run, f, None, op.span, single=True)

    def _guard(self, fn, a, b, span, single=False):
        """Run an op; a user's game mistake becomes a WishRuntimeError naming the statement."""
        try:
            return fn(self, a) if single else fn(self, a, b)
        except WishError as err:
            if isinstance(err, WishRuntimeError) and err.state is None:
                err.state = self
                checks.in_context(self, err)
            raise
        except (TypeError, IndexError, KeyError, ValueError) as err:
            raise WishRuntimeError(f"this statement failed: {type(err).__name__}: {err} "
                                   "(is a value 'none' where a player or card is needed?)", span, state=self) from None

    def push(self, code: int, env: dict, data, depth: int, span) -> None:
        if len(self.stack) >= MAX_STACK:
            name = self.game.codes[code].name or "a block"
            err = WishRuntimeError(f"effects are nested more than {MAX_STACK} deep: {name} starts again and again "
                                   "before it ends (a procedure that calls itself?)", span, state=self)
            raise checks.in_context(self, err)
        self.stack.append(Frame(code, env, data, depth))

    def finish(self) -> None:
        self.over = True
        self.stack.clear()
        self.decision = None
        self.after.clear()
        self.final = self.game.final_result(self)
        sc, win = self.final
        parts = ", ".join(f"{self.player_name(p)} {s}" for p, s in enumerate(sc))
        self.write_log(f"Game over. Scores: {parts}.")
        if win:
            self.write_log("Winner: " + " and ".join(self.player_name(p) for p in win) + ".")
        else:
            self.write_log("Nobody wins.")

    def end_game(self) -> None:
        self.write_log("The game ends.")
        self.finish()

    # ---------------------------------------------------------------- events and triggers
    def emit(self, key, args: tuple) -> None:
        trigs = self.game.triggers.get(key)
        if not trigs:
            return
        fired = []
        for t in trigs:
            for env in self._trigger_envs(t):
                for name, v in zip(t.binders, args):
                    env[name] = v
                fired.append((t, env))
        if not fired:
            return
        depth = (self.stack[-1].depth if self.stack else 0) + 1
        if depth > MAX_CHAIN:
            raise WishRuntimeError(self._chain_message(fired[0][0]), fired[0][0].span, state=self)
        in_action = self.acting_player() is not None
        now = []
        for t, env in fired:
            if t.after and in_action:
                self.after.append((t.index, env, depth))
            else:
                now.append((t, env))
        for t, env in reversed(now):
            self.push(t.code, env, ("trigger", t.index), depth, t.span)

    def _trigger_holds(self, f) -> bool:
        """A trigger's condition is checked when it starts to resolve: the triggers before it may have
        changed what it looks at ("gain the Crystal before resolving Jewelry")."""
        t = self.game.trigger_defs[f.data[1]]
        if t.cond is None:
            return True
        return self._guard(lambda st, env: bool(t.cond(st, env)), f.env, None, t.span, single=True)

    def _trigger_envs(self, t):
        if t.source is None:
            return [{}]
        out = []
        active = self.lay.active[t.kind]
        for c in self.ids.instances[t.source]:
            slot = self.where[c]
            if slot in active:
                out.append({"you": self.lay.slot_owner[slot], "self": c})
        return out

    def _chain_message(self, last) -> str:
        names = [self.game.trigger_defs[f.data[1]].describe() for f in self.stack
                 if _frame_kind(f) == "trigger"]
        names.append(last.describe())
        unique = list(dict.fromkeys(names))
        return (f"a chain of triggers did not end after {MAX_CHAIN} steps; it keeps firing: "
                + " → ".join(unique))

    def _flush_after(self) -> None:
        if not self.after or self.acting_player() is not None:
            return
        pending, self.after = self.after, []
        for index, env, depth in reversed(pending):
            t = self.game.trigger_defs[index]
            self.push(t.code, env, ("trigger", index), depth, t.span)

    # ---------------------------------------------------------------- places (variables)
    def param(self, i: int, player):
        return self.game.param_value(self, i, player)

    def pzone_slot(self, j: int, player: int) -> int:
        return self.lay.pzone_base + j * self.n + player

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

    def random_pick(self, items: tuple):
        return items[self.rng.below(len(items))]

    # ---------------------------------------------------------------- decisions and actions
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

    def action_options(self, names: list, who: int, legal_only: bool = False) -> list:
        """Instances of the named actions for `who`: (key, label, reason or None if legal). With `legal_only`,
        illegal ones are left out."""
        out = [(key, self.action_label(self.game.actions[key[0]], key[1], who), reason)
               for key, reason in self.action_keys(names, who, legal_only)]
        return _dedupe_labels(out)

    def action_keys(self, names: list, who: int, legal_only: bool = True) -> list:
        """Instances of the named actions for `who`, unlabelled: ((name, parameter values), reason or None)."""
        out = []
        for name in names:
            a = self.game.actions[name]
            env = {"you": who}
            guard = next((message for cond, message in a.guards if not cond(self, env)), None)
            if guard is not None and legal_only:
                continue
            for values, reason in self._instances(a, who, guard, legal_only):
                out.append(((name, values), reason))
                if len(out) > MAX_ACTION_OPTIONS:
                    raise WishRuntimeError(f"action '{name}' has more than {MAX_ACTION_OPTIONS} options", a.span)
        return out

    def action_labels(self, keys: tuple, who: int) -> tuple:
        """The labels of these action instances, as `who` sees them (repeats numbered)."""
        actions = self.game.actions
        out = [(key, self.action_label(actions[key[0]], key[1], who), None) for key in keys]
        return tuple(label for _, label, _ in _dedupe_labels(out))

    def action_option_keys(self, keys: tuple, who: int) -> tuple:
        """The structured keys of these action instances, as `who` sees them (see `option_keys`)."""
        actions = self.game.actions
        return views.numbered(tuple(
            (name, tuple(views.option_key(self, v, t, who) for v, t in zip(values, actions[name].param_types)))
            for name, values in keys))

    def _instances(self, a, who: int, reason, legal_only: bool):
        """Each choice of `a`'s parameters with the first requirement it fails (None if none). A requirement is
        checked once the parameters it reads are chosen, once for all the choices that share them: a Wish
        that cannot be paid is ruled out before any site is tried for it. The order of the checks per choice
        is the written one, so each choice fails on the same requirement as if checked on its own."""
        names, domains, requires = a.param_names, a.domains, a.requires
        env = {"you": who}
        values = []

        def rec(i, k, reason):
            while reason is None and k < len(requires) and requires[k][0] <= i:
                _, cond, message = requires[k]
                if not cond(self, env):
                    reason = message
                k += 1
            if reason is not None and legal_only:
                return
            if i == len(names):
                yield tuple(values), reason
                return
            if i == len(names) - 1 and (reason is not None or k == len(requires)):  # nothing left to check
                chosen = tuple(values)
                for v in domains[i](self, env):
                    yield chosen + (v,), reason
                return
            for v in tuple(domains[i](self, env)):
                env[names[i]] = v
                values.append(v)
                yield from rec(i + 1, k, reason)
                values.pop()
            env.pop(names[i], None)
        yield from rec(0, 0, reason)

    def start_action(self, key, who: int, depth: int, span) -> None:
        name, values = key
        a = self.game.actions[name]
        env = {"you": who, **dict(zip(a.param_names, values))}
        views.log_label(self, who, views.action_label_parts(self, a, values))
        self.push(a.code, env, ("action", name), depth, span)

    def acting_player(self):
        """The player whose action is being resolved (the innermost one), or None between actions."""
        for f in reversed(self.stack):
            if _frame_kind(f) == "action":
                return f.env["you"]
        return None

    def action_label(self, a, values: tuple, viewer) -> str:
        """`travel forest`, `swap card 1 of hand of player 1, "Flight"`: the action and its parameters."""
        parts = [views.label_of(self, v, t, viewer) for v, t in zip(values, a.param_types)]
        return a.name + (" " + ", ".join(parts) if parts else "")

    def resolve_instant(self, card: int, depth: int, span) -> None:
        d = self.ids.of[card]
        code = self.game.instants.get(d)
        if code is None:
            return
        slot = self.where[card]
        env = {"you": self.lay.slot_owner[slot], "self": card}
        self.push(code, env, None, depth, span)

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


def _frame_kind(f):
    """"action" or "trigger" for the frame of an action or a trigger being resolved, else None."""
    return f.data[0] if type(f.data) is tuple and f.data else None


def _dedupe_labels(options: list) -> list:
    seen: dict = {}
    out = []
    for key, label, reason in options:
        k = seen.get(label, 0) + 1
        seen[label] = k
        out.append((key, label if k == 1 else f"{label} ({k})", reason))
    return out


__all__ = ["Action", "State"]
