"""The effects of the language: one op class per statement, run from frames on the effect stack.

An op runs against a State and the frame that holds it. Ops that need an answer (choose, simultaneously, act)
leave a Decision in the state and get the answer later through `answer`, so any state — also one waiting in
the middle of an ability — can be cloned, saved and resumed.
"""
from __future__ import annotations

from dsl.errors import WishRuntimeError

from . import views
from .state import Decision, Frame

MAX_LOOP = 100_000


def bag_add(a: tuple, b: tuple) -> tuple:
    """Two bags (counts per enum member) together."""
    return tuple(x + y for x, y in zip(a, b))


def bag_sub(a: tuple, b: tuple, span) -> tuple:
    """Bag `a` without bag `b`; a bag never holds a negative amount."""
    out = tuple(x - y for x, y in zip(a, b))
    if any(x < 0 for x in out):
        raise WishRuntimeError("a bag would hold a negative amount", span)
    return out


class Code:
    """A compiled block: its ops and, for a loop body, how the loop goes on."""

    __slots__ = ("ops", "loop", "span", "name")

    def __init__(self, loop=None, span=None, name=""):
        self.ops: list = []
        self.loop = loop  # None | ("for", var) | ("repeat",) | ("while", cond)
        self.span = span
        self.name = name


class Op:
    announces = False  # an AnnounceOp: its observations are announcements everyone heard

    __slots__ = ("span", "code", "index")

    def __init__(self, span):
        self.span = span
        self.code = -1
        self.index = -1

    def run(self, st, frame) -> None:
        raise NotImplementedError


class SetLocal(Op):
    __slots__ = ("name", "value")

    def __init__(self, span, name, value):
        super().__init__(span)
        self.name, self.value = name, value

    def run(self, st, frame):
        frame.env[self.name] = self.value(st, frame.env)


class Assign(Op):
    __slots__ = ("place", "op", "value", "ty")

    def __init__(self, span, place, op, value, ty):
        super().__init__(span)
        self.place, self.op, self.value, self.ty = place, op, value, ty

    def run(self, st, frame):
        env = frame.env
        v = self.value(st, env)
        if self.op != "=":
            old = st.read_place(self.place, env)
            if self.ty is not None and self.ty.kind == "bag":
                v = bag_add(old, v) if self.op == "+=" else bag_sub(old, v, self.span)
            else:
                v = old + v if self.op == "+=" else old - v
        st.write_place(self.place, env, v, self.span)


class TransferOp(Op):
    """Take an amount from one place and add it to another; events fire only once both have changed."""

    __slots__ = ("amount", "source", "dest", "bag")

    def __init__(self, span, amount, source, dest, bag):
        super().__init__(span)
        self.amount, self.source, self.dest, self.bag = amount, source, dest, bag

    def run(self, st, frame):
        env = frame.env
        n = self.amount(st, env)
        old_src, old_dst = st.read_place(self.source, env), st.read_place(self.dest, env)
        if self.bag:
            new_src, new_dst = bag_sub(old_src, n, self.span), bag_add(old_dst, n)
        else:
            new_src, new_dst = old_src - n, old_dst + n
        st.write_places(((self.source, new_src), (self.dest, new_dst)), env, self.span)


class CallProc(Op):
    __slots__ = ("name", "params", "args")

    def __init__(self, span, name, params, args):
        super().__init__(span)
        self.name, self.params, self.args = name, params, args

    def run(self, st, frame):
        env = frame.env
        local = {p: a(st, env) for p, a in zip(self.params, self.args)}
        if "you" in env:
            local.setdefault("you", env["you"])
        st.push(st.game.procedures[self.name], local, None, frame.depth, self.span)


class IfOp(Op):
    __slots__ = ("cond", "then", "other")

    def __init__(self, span, cond, then, other):
        super().__init__(span)
        self.cond, self.then, self.other = cond, then, other

    def run(self, st, frame):
        if self.cond(st, frame.env):
            st.push(self.then, frame.env, None, frame.depth, self.span)
        elif self.other is not None:
            st.push(self.other, frame.env, None, frame.depth, self.span)


class ForOp(Op):
    __slots__ = ("var", "source", "body")

    def __init__(self, span, var, source, body):
        super().__init__(span)
        self.var, self.source, self.body = var, source, body

    def run(self, st, frame):
        items = tuple(self.source(st, frame.env))
        if items:
            frame.env[self.var] = items[0]
            st.push(self.body, frame.env, (items, 0), frame.depth, self.span)


class RepeatOp(Op):
    __slots__ = ("count", "body")

    def __init__(self, span, count, body):
        super().__init__(span)
        self.count, self.body = count, body

    def run(self, st, frame):
        n = self.count(st, frame.env)
        if n > MAX_LOOP:
            raise WishRuntimeError(f"repeat {n} times is more than the limit of {MAX_LOOP}", self.span)
        if n > 0:
            st.push(self.body, frame.env, (n, 1), frame.depth, self.span)


class WhileOp(Op):
    __slots__ = ("cond", "body")

    def __init__(self, span, cond, body):
        super().__init__(span)
        self.cond, self.body = cond, body

    def run(self, st, frame):
        if self.cond(st, frame.env):
            st.push(self.body, frame.env, 1, frame.depth, self.span)


def loop_again(st, frame, code) -> bool:
    """Called when a loop body ends: set the frame up for the next pass, or say the loop is done."""
    kind = code.loop[0]
    if kind == "for":
        items, i = frame.data
        i += 1
        if i >= len(items):
            return False
        frame.env[code.loop[1]] = items[i]
        frame.data = (items, i)
    elif kind == "repeat":
        n, i = frame.data
        if i >= n:
            return False
        frame.data = (n, i + 1)
    else:
        if frame.data >= MAX_LOOP:
            raise WishRuntimeError(f"this loop ran {MAX_LOOP} times without ending", code.span)
        if not code.loop[1](st, frame.env):
            return False
        frame.data += 1
    frame.pc = 0
    return True


class MoveOp(Op):
    __slots__ = ("cards", "dest", "place", "facing")

    def __init__(self, span, cards, dest, place, facing):
        super().__init__(span)
        self.cards, self.dest, self.place, self.facing = cards, dest, place, facing

    def run(self, st, frame):
        st.move(tuple(self.cards(st, frame.env)), self.dest(st, frame.env), self.place, self.facing, self.span)


class ShuffleOp(Op):
    __slots__ = ("zone",)

    def __init__(self, span, zone):
        super().__init__(span)
        self.zone = zone

    def run(self, st, frame):
        st.shuffle(self.zone(st, frame.env))


class PeekOp(Op):
    __slots__ = ("cards", "by")

    def __init__(self, span, cards, by):
        super().__init__(span)
        self.cards, self.by = cards, by

    def run(self, st, frame):
        st.peek(tuple(self.cards(st, frame.env)), self.by(st, frame.env))


class RevealOp(Op):
    __slots__ = ("cards",)

    def __init__(self, span, cards):
        super().__init__(span)
        self.cards = cards

    def run(self, st, frame):
        st.reveal(tuple(self.cards(st, frame.env)))


class TurnOp(Op):
    __slots__ = ("cards", "facing")

    def __init__(self, span, cards, facing):
        super().__init__(span)
        self.cards, self.facing = cards, facing

    def run(self, st, frame):
        st.turn(tuple(self.cards(st, frame.env)), self.facing == "up")


class SwapOp(Op):
    __slots__ = ("a", "b")

    def __init__(self, span, a, b):
        super().__init__(span)
        self.a, self.b = a, b

    def run(self, st, frame):
        st.swap(self.a(st, frame.env), self.b(st, frame.env), self.span)


class AnnounceOp(Op):
    __slots__ = ("value", "ty")
    announces = True

    def __init__(self, span, value, ty):
        super().__init__(span)
        self.value, self.ty = value, ty

    def run(self, st, frame):
        v = self.value(st, frame.env)
        st.observations.append((len(st.log), self.code, self.index, v, snapshot(st, frame.env)))
        st.write_log(f"Announcement: {st.render(v, self.ty)}")

    def recheck(self, st, env):
        """The announced value, evaluated again (under other card identities: interpreter/infoset.py)."""
        return self.value(st, env)


CHOSEN = "$chosen"  # the chosen card, in the environment of a choice's observation (never a name in a game)


def snapshot(st, env: dict) -> tuple:
    """What an announced expression may read: its environment, the zones and the variables. Kept with the
    observation so that an agent can check it again under other card identities (interpreter/infoset.py)."""
    return (tuple(sorted(env.items(), key=lambda kv: kv[0])), tuple(tuple(z) for z in st.zones),
            tuple(st.gvars), tuple(tuple(r) for r in st.pvars), tuple(tuple(r) for r in st.kvars))


class LogOp(Op):
    __slots__ = ("parts",)

    def __init__(self, span, parts):
        super().__init__(span)
        self.parts = parts

    def run(self, st, frame):
        st.log_values([(f(st, frame.env), ty) for f, ty in self.parts])


class ChooseOp(Op):
    """`choose TARGET from OPTIONS by PLAYER`: one player picks one option.

    Choosing a card that not everyone knows is observed: the others learn that it was among the options (the
    Wish Machine wishes only for single-item cards). The observation keeps what the options read, like an
    announcement, so an agent can reject samples in which the card would not have been an option."""

    __slots__ = ("place", "options", "elem", "by", "prompt", "verb", "distinct", "skip", "among")

    def __init__(self, span, place, options, elem, by, prompt, verb, distinct, skip, among):
        super().__init__(span)
        self.place, self.options, self.elem, self.by, self.prompt = place, options, elem, by, prompt
        self.verb, self.distinct, self.skip, self.among = verb, distinct, skip, among

    def run(self, st, frame):
        env = frame.env
        who = self.by(st, env)
        values = tuple(self.options(st, env, who) if self.distinct else self.options(st, env))
        if not values:
            raise WishRuntimeError(f"player {who + 1} must choose, but there is nothing to choose from", self.span)
        st.decision = Decision((who,), (values,), None, self.prompt or "Choose", self.code, self.index)

    def labels(self, st, values, who) -> tuple:
        return st.option_labels(values, self.elem, who, self.verb, self.skip)

    def keys(self, st, values, who) -> tuple:
        return views.option_keys(st, values, self.elem, who, self.verb, self.skip)

    def answer(self, st, frame, answers):
        (who, value), = answers.items()
        if value is not None and self.elem.kind == "card" and st.known[value] != st.all_mask:
            env = dict(frame.env)
            env[CHOSEN] = value
            st.observations.append((len(st.log), self.code, self.index, True, snapshot(st, env)))
        st.write_place(self.place, frame.env, value, self.span)
        st.log_choice(who, value, self.elem, self.verb, self.skip)

    def recheck(self, st, env) -> bool:
        """Would the chosen card be among the options (all of them, before `distinct`)?"""
        return env[CHOSEN] in tuple(self.among(st, env))


class SimultaneousOp(Op):
    """`simultaneously P in PLAYERS choose P.VAR from OPTIONS`: everyone answers, then all answers apply."""

    __slots__ = ("var", "players", "place", "options", "elem", "prompt", "verb", "distinct", "skip")

    def __init__(self, span, var, players, place, options, elem, prompt, verb, distinct, skip):
        super().__init__(span)
        self.var, self.players, self.place, self.options = var, players, place, options
        self.elem, self.prompt, self.verb, self.distinct, self.skip = elem, prompt, verb, distinct, skip

    def run(self, st, frame):
        env = frame.env
        who = tuple(self.players(st, env))
        if not who:
            return
        values = []
        for p in who:
            local = dict(env)
            local[self.var] = p
            vs = tuple(self.options(st, local, p) if self.distinct else self.options(st, local))
            if not vs:
                raise WishRuntimeError(f"player {p + 1} must choose, but there is nothing to choose from", self.span)
            values.append(vs)
        st.decision = Decision(who, tuple(values), None, self.prompt or "Choose", self.code, self.index)

    def labels(self, st, values, who) -> tuple:
        return st.option_labels(values, self.elem, who, self.verb, self.skip)

    def keys(self, st, values, who) -> tuple:
        return views.option_keys(st, values, self.elem, who, self.verb, self.skip)

    def answer(self, st, frame, answers):
        for p in sorted(answers):
            local = dict(frame.env)
            local[self.var] = p
            st.write_place(self.place, local, answers[p], self.span)
            st.log_choice(p, answers[p], self.elem, self.verb, self.skip)


class ActOp(Op):
    """`act one of A, B by PLAYER`: the player picks one legal instance of the named actions."""

    __slots__ = ("actions", "by", "prompt")

    def __init__(self, span, actions, by, prompt):
        super().__init__(span)
        self.actions, self.by, self.prompt = actions, by, prompt

    def run(self, st, frame):
        who = self.by(st, frame.env)
        values = tuple(key for key, _ in st.action_keys(self.actions, who))
        if not values:
            st.write_log(f"{st.player_name(who)} has no legal action")
            return
        st.decision = Decision((who,), (values,), None, self.prompt or "Take an action", self.code, self.index,
                               kinds="act")

    def labels(self, st, values, who) -> tuple:
        return st.action_labels(values, who)

    def keys(self, st, values, who) -> tuple:
        return st.action_option_keys(values, who)

    def answer(self, st, frame, answers):
        (who, key), = answers.items()
        st.start_action(key, who, frame.depth, self.span)


class ResolveOp(Op):
    __slots__ = ("card",)

    def __init__(self, span, card):
        super().__init__(span)
        self.card = card

    def run(self, st, frame):
        st.resolve_instant(self.card(st, frame.env), frame.depth, self.span)


class EmitOp(Op):
    __slots__ = ("name", "args")

    def __init__(self, span, name, args):
        super().__init__(span)
        self.name, self.args = name, args

    def run(self, st, frame):
        st.emit(("custom", self.name), tuple(a(st, frame.env) for a in self.args))


class RequireOp(Op):
    """Checked when the action is offered; running it again guards against a state that changed since."""

    __slots__ = ("cond", "message")

    def __init__(self, span, cond, message):
        super().__init__(span)
        self.cond, self.message = cond, message

    def run(self, st, frame):
        if not self.cond(st, frame.env):
            raise WishRuntimeError(f"requirement failed after the action started: {self.message}", self.span)


class EndGameOp(Op):
    def run(self, st, frame):
        st.end_game()


__all__ = ["Code", "Frame", "loop_again"]
