"""What generated rules call: small helpers on values, the errors they raise, and the points where the rules
stop for a decision or announce something (interpreter/codegen.py writes the calls).

Helpers are bound into the generated module's namespace under fixed names (`NAMESPACE`); everything else a
rule refers to is an index into the Game's tables.
"""
from __future__ import annotations

from dsl.errors import WishError, WishRuntimeError
from dsl.limits import MAX_INT, MAX_INT_DIGITS, MAX_SIZE
from dsl.types import holds_cards

from . import checks, log
from .state import Decision

MISSING = object()  # no result remembered yet
MAX_LOOP = 100_000
MAX_CALL_DEPTH = 200
MAX_ACTION_OPTIONS = 10_000
LASTING_LIMIT = 50_000  # results kept of functions that read only their arguments; then the cache starts again
MEMO_TRIAL = 1_000  # the calls of a function that show whether remembering its results pays
MEMO_PAYS = 4  # it pays when at least one call in 4 finds the result remembered
ERRORS = (WishError, TypeError, IndexError, KeyError, ValueError)  # what a user's rule can raise
CHOSEN = "$chosen"  # the chosen card, in the environment of a choice's observation (never a name in a game)


def memo_trial(worth: list, tried: list, found: list, k: int, hit: bool) -> None:
    """One call of function k while remembering its results is on trial (`worth[k]` 1). After MEMO_TRIAL calls
    they are remembered for good (2) when at least one call in MEMO_PAYS found its result, else never again (0):
    looking up and storing a result costs about as much as a small function's body, so a function whose every
    call has new arguments (`has_set(p)` after each deal) runs faster called as it is. Only functions that
    neither draw nor call themselves are tried (codegen.memo_wrapper): their result is the same either way, so
    the decision, made per process by the calls it happens to see first, changes speed, never a game."""
    tried[k] += 1
    if hit:
        found[k] += 1
    if tried[k] >= MEMO_TRIAL:
        worth[k] = 2 if found[k] * MEMO_PAYS >= tried[k] else 0


def fail(span, message):
    raise WishRuntimeError(message, span)


def oversize(value, span):
    """The error for a value stored by an assignment that is larger than a game's values may be (dsl.limits)."""
    if isinstance(value, int):
        exact = value.bit_length() < 10_000  # Python writes out integers of up to 4,300 digits
        digits = len(str(abs(value))) if exact else int((value.bit_length() - 1) * 0.30102999566398) + 1
        raise WishRuntimeError(f"this makes a number of {'' if exact else 'about '}{digits:,} digits; a game's "
                               f"numbers have at most {MAX_INT_DIGITS} ({MAX_INT:,})", span)
    if isinstance(value, str):
        raise WishRuntimeError(f"this makes a text of {len(value):,} characters; a game's texts have at most "
                               f"{MAX_SIZE:,}", span)
    if isinstance(value, tuple) and value and all(isinstance(x, int) for x in value) and max(value) > MAX_INT:
        raise WishRuntimeError(f"this makes a bag holding {max(value):,} of one kind; a game's numbers are at most "
                               f"{MAX_INT:,}", span)
    raise WishRuntimeError(f"this makes a list of {len(value):,} items; a game's lists hold at most {MAX_SIZE:,}",
                           span)


# ---------------------------------------------------------------- values
def after(st, p: int) -> tuple:
    """The other players in turn order, starting after `p`."""
    seats = st.seats
    return seats[p + 1:] + seats[:p]


def remove(items, item) -> tuple:
    items = list(items)
    if item in items:
        items.remove(item)
    return tuple(items)


def one_bag(members: tuple, k: int, member, span) -> tuple:
    if k < 0:
        fail(span, f"a bag cannot hold {k} {member}")
    return tuple([k if x == member else 0 for x in members])


def members_of(members: tuple, bag: tuple) -> tuple:
    return tuple([x for x, k in zip(members, bag) if k > 0])


def count(k: int, member: str, span) -> int:
    """One amount of a bag literal, which may not be negative."""
    if k < 0:
        fail(span, f"a bag cannot hold {k} {member}")
    return k


def set_of(items: tuple, order: dict) -> tuple:
    return tuple(sorted(set(items), key=order.__getitem__))


def bottom(k: int, xs) -> tuple:
    return tuple(xs[-k:]) if k > 0 else ()


def bag_add(a: tuple, b: tuple) -> tuple:
    """Two bags (counts per enum member) together."""
    return tuple([x + y for x, y in zip(a, b)])


def bag_sub(a: tuple, b: tuple, span) -> tuple:
    """Bag `a` without bag `b`; a bag never holds a negative amount."""
    out = tuple([x - y for x, y in zip(a, b)])
    if any(x < 0 for x in out):
        raise WishRuntimeError("a bag would hold a negative amount", span)
    return out


def nonzero(d: int, span) -> int:
    if d == 0:
        fail(span, "division by zero")
    return d


def div(d: int, a: int) -> int:
    return a // d


def mod(d: int, a: int) -> int:
    return a % d


def _nonempty(xs, span, name: str):
    if not xs:
        fail(span, f"{name}() of an empty collection")
    return xs


def min_of(st, xs, span):
    return min(_nonempty(xs, span, "min"))


def max_of(st, xs, span):
    return max(_nonempty(xs, span, "max"))


def first_of(st, xs, span):
    return _nonempty(xs, span, "first")[0]


def last_of(st, xs, span):
    return _nonempty(xs, span, "last")[-1]


def random_of(st, xs, span):
    return st.random_pick(_nonempty(xs, span, "random"))


def first_to_answer(st, xs, span):
    """The first of the players `xs` to answer the last simultaneous decision, where the order of the answers
    means something (a web table's people: `st.timed`); elsewhere one of them drawn at random, as `random`."""
    xs = _nonempty(xs, span, "first_to_answer")
    if st.timed:
        for p in st.arrivals:
            if p in xs:
                return p
    return st.random_pick(xs)


def with_you(local: dict, env: dict) -> dict:
    """A procedure's environment: its arguments, and the caller's `you`."""
    if "you" in env:
        local.setdefault("you", env["you"])
    return local


# ---------------------------------------------------------------- errors and bounds
def failed(st, err: Exception, span) -> WishError:
    """What a statement of a generated rule raises when it failed: a WishError gets the state and the rules
    running now; a Python error from a user's rule (a `none` where a player is needed) becomes a
    WishRuntimeError naming the statement."""
    if isinstance(err, WishError):
        if isinstance(err, WishRuntimeError) and err.state is None:
            err.state = st
            checks.in_context(st, err)
        return err
    return WishRuntimeError(f"this statement failed: {type(err).__name__}: {err} "
                            "(is a value 'none' where a player or card is needed?)", span, state=st)


def loop_limit(span) -> WishRuntimeError:
    return WishRuntimeError(f"this loop ran {MAX_LOOP} times without ending", span)


def repeat_limit(n: int, span) -> WishRuntimeError:
    return WishRuntimeError(f"repeat {n} times is more than the limit of {MAX_LOOP}", span)


def too_many(name: str, span) -> WishRuntimeError:
    return WishRuntimeError(f"action '{name}' has more than {MAX_ACTION_OPTIONS} options", span)


def required(message: str, span) -> WishRuntimeError:
    """A requirement checked when the action was offered no longer holds when the action runs."""
    return WishRuntimeError(f"requirement failed after the action started: {message}", span)


def call_function(st, fn, args: tuple, name: str, span):
    """Evaluate a user function, bounded in depth: a function that calls itself without end is an error."""
    st.call_depth += 1
    try:
        if st.call_depth > MAX_CALL_DEPTH:
            fail(span, f"function '{name}' calls itself more than {MAX_CALL_DEPTH} deep")
        return fn(st, *args)
    except RecursionError:
        fail(span, f"function '{name}' calls itself too deep for Python's stack (its expressions nest deeply)")
    finally:
        st.call_depth -= 1


# ---------------------------------------------------------------- points: decisions and announcements
def snapshot(st, env: dict) -> tuple:
    """What an announced expression may read: its environment, the zones and the variables. Kept with the
    observation so that an agent can check it again under other card identities (interpreter/infoset.py)."""
    return (tuple(sorted(env.items())), tuple(map(tuple, st.zones)), tuple(st.gvars), tuple(map(tuple, st.pvars)),
            tuple(map(tuple, st.kvars)))  # sorted by name: names are unique, so values are never compared


class Point:
    """A place in the rules that stops for a decision or tells the players something; observations and
    pending decisions name it by its index in `Game.points`."""

    announces = False  # an announcement everyone heard (views.announcements)

    __slots__ = ("index", "span")

    def __init__(self, index: int, span):
        self.index = index
        self.span = span


class Announcement(Point):
    """`announce VALUE`: everyone hears the value; it is kept as an observation."""

    announces = True
    __slots__ = ("value", "ty")

    def __init__(self, index, span, value, ty):
        super().__init__(index, span)
        self.value, self.ty = value, ty

    def run(self, st, env) -> None:
        v = self.value(st, env)
        st.observations.append((len(st.log), self.index, v, snapshot(st, env)))
        log.announce(st, v, self)

    def recheck(self, st, env):
        """The announced value, evaluated again (under other card identities: interpreter/infoset.py)."""
        return self.value(st, env)


class Say(Point):
    """`log A, B, …`: a line of the log, each value written as text (cards by name to those who know them)."""

    __slots__ = ("types",)

    def __init__(self, index, span, types):
        super().__init__(index, span)
        self.types = types

    def run(self, st, values: tuple) -> None:
        log.say(st, values, self)


class Choice(Point):
    """`choose TARGET from OPTIONS by PLAYER`: one player picks one option.

    Choosing a card that not everyone knows is observed: the others learn that it was among the options (the
    Wish Machine wishes only for single-item cards). The observation keeps what the options read, like an
    announcement, so an agent can reject samples in which the card would not have been an option."""

    __slots__ = ("write", "options", "among", "elem", "by", "prompt", "verb", "distinct", "skip", "plain", "cards",
                 "card_refs")

    def __init__(self, index, span, write, options, among, elem, by, prompt, verb, distinct, skip):
        super().__init__(index, span)
        self.write, self.options, self.among, self.elem, self.by = write, options, among, elem, by
        self.prompt, self.verb, self.distinct, self.skip = prompt or "Choose", verb, distinct, skip
        self.plain = not distinct and skip is None  # the options are the collection as it is
        self.cards = elem is not None and elem.kind == "card"
        self.card_refs = holds_cards(elem)  # its answers are logged with who knew the cards (log.choice)

    def values(self, st, env, who) -> tuple:
        values = tuple(self.options(st, env))
        if self.skip is not None:
            values += (None,)
        if self.distinct:
            values = st.distinct_options(values, self.cards, who)
        return values

    def ask(self, st, env) -> bool:
        who = self.by(st, env)
        values = self.options(st, env) if self.plain else self.values(st, env, who)
        if not values:
            raise WishRuntimeError(f"player {who + 1} must choose, but there is nothing to choose from", self.span)
        st.decision = Decision((who,), (values,), None, self.prompt, self.index)
        return True

    def labels(self, st, values, who) -> tuple:
        return st.option_labels(values, self.elem, who, self.verb, self.skip)

    def keys(self, st, values, who) -> tuple:
        from .views import option_keys
        return option_keys(st, values, self.elem, who, self.verb, self.skip)

    def answer(self, st, frame, answers) -> None:
        (who, value), = answers.items()
        if self.cards and value is not None and st.known[value] != st.all_mask:
            env = dict(frame.env)
            env[CHOSEN] = value
            st.observations.append((len(st.log), self.index, True, snapshot(st, env)))
        self.write(st, frame.env, value)
        log.choice(st, who, value, self)

    def recheck(self, st, env) -> bool:
        """Would the chosen card be among the options (all of them, before `distinct`)?"""
        return env[CHOSEN] in tuple(self.among(st, env))


class Simultaneous(Point):
    """`simultaneously P in PLAYERS choose P.VAR from OPTIONS`: everyone answers, then all answers apply."""

    __slots__ = ("var", "players", "write", "options", "elem", "prompt", "verb", "distinct", "skip", "card_refs",
                 "shared")

    def __init__(self, index, span, var, players, write, options, elem, prompt, verb, distinct, skip, shared):
        super().__init__(index, span)
        self.var, self.players, self.write, self.options = var, players, write, options
        self.elem, self.prompt, self.verb, self.distinct, self.skip = elem, prompt, verb, distinct, skip
        self.card_refs = holds_cards(elem)
        self.shared = shared  # the options read neither the player nor the dice: the same for everyone

    def ask(self, st, env) -> bool:
        who = tuple(self.players(st, env))
        if not who:
            return False
        values = []
        same = tuple(self.options(st, env)) if self.shared else None
        for p in who:
            if same is None:
                local = dict(env)
                local[self.var] = p
                vs = tuple(self.options(st, local))
            else:
                vs = same
            if self.skip is not None:
                vs += (None,)
            if self.distinct:
                vs = st.distinct_options(vs, self.elem.kind == "card", p)
            if not vs:
                raise WishRuntimeError(f"player {p + 1} must choose, but there is nothing to choose from", self.span)
            values.append(vs)
        st.decision = Decision(who, tuple(values), None, self.prompt or "Choose", self.index)
        return True

    labels = Choice.labels
    keys = Choice.keys

    def answer(self, st, frame, answers) -> None:
        env = frame.env
        for p in sorted(answers):
            self.write(st, env, p, answers[p])
            log.choice(st, p, answers[p], self)


class Act(Point):
    """`act one of A, B by PLAYER`: the player picks one legal instance of the named actions."""

    __slots__ = ("actions", "by", "prompt")

    def __init__(self, index, span, actions, by, prompt):
        super().__init__(index, span)
        self.actions, self.by, self.prompt = actions, by, prompt

    def ask(self, st, env) -> bool:
        who = self.by(st, env)
        values = st.legal_instances(self.actions, who)
        if not values:
            st.write_log(f"{st.player_name(who)} has no legal action")
            return False
        st.decision = Decision((who,), (values,), None, self.prompt or "Take an action", self.index, kinds="act")
        return True

    def labels(self, st, values, who) -> tuple:
        return st.action_labels(values, who)

    def keys(self, st, values, who) -> tuple:
        return st.action_option_keys(values, who)

    def answer(self, st, frame, answers) -> None:
        (who, key), = answers.items()
        st.start_action(key, who, frame.depth, self.span)


NAMESPACE = {
    "_after": after, "_remove": remove, "_one_bag": one_bag, "_members": members_of, "_count": count,
    "_set_of": set_of, "_bottom": bottom, "_bag_add": bag_add, "_bag_sub": bag_sub, "_nonzero": nonzero,
    "_div": div, "_mod": mod, "_min": min_of, "_max": max_of, "_first": first_of, "_last": last_of,
    "_random": random_of, "_first_to_answer": first_to_answer, "_with_you": with_you, "_failed": failed,
    "_loop_limit": loop_limit, "_repeat_limit": repeat_limit, "_required": required, "_too_many": too_many,
    "_call": call_function, "_ERRORS": ERRORS, "_trial": memo_trial,
    "_oversize": oversize, "_MAXINT": MAX_INT, "_MAXSIZE": MAX_SIZE,
}
