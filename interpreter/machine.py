"""The machine that runs the rules on a world: the effect stack of typed frames, the run loop, events and
triggers, and the actions a player may take (their instances, labels and keys).

A mixin of the State (interpreter/engine.py). Compiled rules (interpreter/codegen.py) run from frames: the
loop calls the top frame's function until a decision is pending or the game is over; a function returns True
when its block has finished, and stops otherwise after pushing frames or asking a decision.
"""
from __future__ import annotations

from dsl.errors import WishError, WishRuntimeError

from . import checks, log, views
from .log import SCORES, WINNERS
from .frames import Frame, FrameKind
from .runtime import MAX_ACTION_OPTIONS, failed
from .scoring import outcome, tie_line
from .world import World

MAX_STACK = 400
MAX_CHAIN = 50
MAX_STEPS = 2_000_000
MAX_RUN_STEPS = 200_000  # steps between two decisions (the real games take at most about a hundred)
ACTION, TRIGGER, BLOCK = FrameKind.ACTION, FrameKind.TRIGGER, FrameKind.BLOCK


class Machine(World):
    """The effect stack and what moves it."""

    __slots__ = ()

    # ---------------------------------------------------------------- the run loop
    def run(self) -> None:
        blocks = self.game.blocks
        stack = self.stack
        limit = self.step_limit = min(MAX_STEPS, self.steps + MAX_RUN_STEPS)
        while self.decision is None and not self.over:
            if not stack:
                self.finish()
                return
            f = stack[-1]
            code = f.code
            steps = self.steps = self.steps + 1
            if steps > limit:
                self.runaway(self.game.block_spans[code])
            if blocks[code](self, f):
                stack.pop()
                if f.kind is ACTION:
                    self._flush_after()

    def runaway(self, span) -> None:
        """The step limit is reached: the game, or the rules since the last decision, do not end."""
        message = (f"the game ran {MAX_STEPS:,} steps without ending" if self.step_limit == MAX_STEPS else
                   f"the rules ran {MAX_RUN_STEPS:,} steps without a decision or the end of the game")
        raise checks.in_context(self, WishRuntimeError(message, span, state=self))

    def failed(self, err: Exception, span) -> WishError:
        """The error to raise for a rule that failed at `span` (runtime.failed)."""
        return failed(self, err, span)

    def push(self, code: int, env: dict, kind: FrameKind, data, depth: int, span) -> None:
        if len(self.stack) >= MAX_STACK:
            name = self.game.block_names[code] or "a block"
            err = WishRuntimeError(f"effects are nested more than {MAX_STACK} deep: {name} starts again and again "
                                   "before it ends (a procedure that calls itself?)", span, state=self)
            raise checks.in_context(self, err)
        self.stack.append(Frame(code, env, kind, data, depth))

    def counted(self, code: int) -> None:
        """A procedure ran without a frame of its own (a CountingState counts it)."""

    def finish(self) -> None:
        self.over = True
        self.stack.clear()
        self.decision = None
        self.after.clear()
        rows = self.game.standings(self)
        out = outcome(rows)
        scores = tuple([r.score for r in rows])
        self.final = (scores, out.winners)
        self.log.append((SCORES, scores))  # written out when read (log.py)
        line = tie_line(self, rows, out)
        if line is not None:
            self.write_log(line)
        self.log.append((WINNERS, out.winners))

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
        in_action = None  # is an action resolving? (looked up once, when a trigger waits for its end)
        now = []
        for t, env in fired:
            if t.early and not self._holds(t, env):
                continue  # its condition reads only the event: false now, false when it would start
            if t.after:
                if in_action is None:
                    in_action = self.acting_player() is not None
                if in_action:
                    self.after.append((t.index, env, depth))
                    continue
            now.append((t, env))
        for t, env in reversed(now):
            self.push(t.code, env, TRIGGER, t.index, depth, t.span)

    def trigger_holds(self, f) -> bool:
        """A trigger's condition is checked when it starts to resolve: the triggers before it may have
        changed what it looks at ("gain the Crystal before resolving Jewelry")."""
        return self._holds(self.game.trigger_defs[f.data], f.env)

    def _holds(self, t, env: dict) -> bool:
        if t.cond is None:
            return True
        try:
            return bool(t.cond(self, env))
        except (WishError, TypeError, IndexError, KeyError, ValueError) as err:
            raise self.failed(err, t.span) from None

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
        names = [self.game.trigger_defs[f.data].describe() for f in self.stack if f.kind is TRIGGER]
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
            self.push(t.code, env, TRIGGER, index, depth, t.span)

    # ---------------------------------------------------------------- actions
    def action_options(self, names: list, who: int, legal_only: bool = False) -> list:
        """Instances of the named actions for `who`: (key, label, reason or None if legal). With `legal_only`,
        illegal ones are left out."""
        out = [(key, self.action_label(self.game.actions[key[0]], key[1], who), reason)
               for key, reason in self.action_keys(names, who, legal_only)]
        return _dedupe_labels(out)

    def legal_instances(self, names, who: int) -> tuple:
        """The legal instances of the named actions for `who`, as keys (name, parameter values), in order: the
        compiled enumerators of the actions (codegen.enumerator)."""
        out: list = []
        actions = self.game.actions
        for name in names:
            actions[name].enumerate(self, who, out)
        return tuple(out)

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
        """The structured keys of these action instances, as `who` sees them (see `option_keys`): an instance
        without cards among its parameters is its own key."""
        actions = self.game.actions
        key = views.option_key
        out = []
        for name, values in keys:
            a = actions[name]
            out.append((name, tuple([key(self, v, t, who) for v, t in zip(values, a.param_types)])) if a.cards
                       else (name, values))
        return views.numbered(tuple(out))

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
        log.action(self, who, a, values)
        self.push(a.code, env, ACTION, name, depth, span)

    def acting_player(self):
        """The player whose action is being resolved (the innermost one), or None between actions."""
        for f in reversed(self.stack):
            if f.kind is ACTION:
                return f.env["you"]
        return None

    def action_label(self, a, values: tuple, viewer) -> str:
        """`travel forest`, `swap card 1 of hand of player 1, "Flight"`: the action and its parameters."""
        parts = [views.label_of(self, v, t, viewer) for v, t in zip(values, a.param_types)]
        return a.name + (" " + ", ".join(parts) if parts else "")

    def resolve_instant(self, card: int, depth: int, span) -> bool:
        """Start the Instant ability of `card`, if it has one (True: a frame was pushed)."""
        code = self.game.instants.get(self.ids.of[card])
        if code is None:
            return False
        slot = self.where[card]
        self.push(code, {"you": self.lay.slot_owner[slot], "self": card}, BLOCK, None, depth, span)
        return True


def _dedupe_labels(options: list) -> list:
    seen: dict = {}
    out = []
    for key, label, reason in options:
        k = seen.get(label, 0) + 1
        seen[label] = k
        out.append((key, label if k == 1 else f"{label} ({k})", reason))
    return out
