"""The game state as plain data: cheap `clone()`, exact JSON round trip, a seeded generator inside."""
from __future__ import annotations

import json
import struct

from .frames import Frame, FrameKind

try:
    from . import _rng as _C  # the draws in C (setup.py), when compiled; `below` and `shuffle` below are the reference
except ImportError:
    _C = None

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's step
LIMITS = tuple((1 << 64) - ((1 << 64) % n) if n else 0 for n in range(1025))  # rejection bounds of small n


class Rng:
    """SplitMix64: one integer of state, identical on every Python version and platform."""

    __slots__ = ("s",)

    def __init__(self, seed: int):
        self.s = seed & MASK64

    def next64(self) -> int:
        self.s = (self.s + GAMMA) & MASK64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by rejection sampling (no modulo bias)."""
        if _C is None:
            return below(self, n)
        self.s, r = _C.below(self.s, n)
        return r

    def shuffle(self, items: list) -> None:
        """Fisher-Yates from the last item down, each index drawn as `below` draws it."""
        if _C is None or type(items) is not list:
            shuffle(self, items)
        else:
            self.s = _C.shuffle(self.s, items)


def below(rng: Rng, n: int) -> int:
    """`Rng.below` in Python (the reference of the compiled one)."""
    limit = LIMITS[n] if n <= 1024 else (1 << 64) - ((1 << 64) % n)
    while True:
        r = rng.next64()
        if r < limit:
            return r % n


def shuffle(rng: Rng, items: list) -> None:
    """`Rng.shuffle` in Python (the reference of the compiled one). A shuffle is most of the generator's work, so
    its draws are computed together: SplitMix64's k-th next state is the seed plus k times its constant, so up to
    256 of them are packed into one integer (128 bits each: a product of two 64-bit numbers fits) and mixed with a
    few operations on it. A draw that `below` would reject is rejected here too, and the next batch starts after
    it, so every shuffle is the same as one draw at a time."""
    s = rng.s
    i = len(items) - 1
    while i > 0:
        m = i if i < 256 else 256
        rep, steps, masks, unpack = _batch(m)
        z = (s * rep + steps) & masks
        z = (((z ^ (z >> 30)) & masks) * 0xBF58476D1CE4E5B9) & masks
        z = (((z ^ (z >> 27)) & masks) * 0x94D049BB133111EB) & masks
        z ^= z >> 31
        used = m
        for k, r in enumerate(unpack(z.to_bytes(m << 4, "little"))):
            n = i + 1
            if r >= (LIMITS[n] if n <= 1024 else (1 << 64) - ((1 << 64) % n)):
                used = k + 1
                break
            j = r % n
            items[i], items[j] = items[j], items[i]
            i -= 1
        s = (s + used * GAMMA) & MASK64
    rng.s = s


_BATCHES: dict = {}


def _batch(m: int) -> tuple:
    """For m draws at once: the seed's multiplier putting it in every 128-bit lane, the lanes' steps (k + 1
    times the constant), the mask of each lane's low 64 bits, and the unpacker of those 64 bits."""
    b = _BATCHES.get(m)
    if b is None:
        rep = sum(1 << (128 * k) for k in range(m))
        steps = sum((GAMMA * (k + 1)) << (128 * k) for k in range(m))
        b = _BATCHES[m] = (rep, steps, MASK64 * rep, struct.Struct("<" + "Q8x" * m).unpack)
    return b


class Decision:
    """A pending decision: who decides, the options (values; labels and keys when read), the decision point of
    the rules that asked it (an index into `Game.points`, which applies the answer)."""

    __slots__ = ("players", "values", "labels", "keys", "prompt", "point", "answers", "kinds", "closed")

    def __init__(self, players, values, labels, prompt, point, answers=None, kinds=None, keys=None):
        self.players = players  # tuple of seats; several for a simultaneous decision
        self.values = values  # per player: tuple of option values
        self.labels = labels  # per player: tuple of labels; None until asked for (see State.labels)
        self.keys = keys  # per player: tuple of option keys; None until asked for (see State.option_keys)
        self.prompt = prompt
        self.point = point
        self.answers = answers if answers is not None else {}
        self.kinds = kinds
        self.closed = False  # every player answered: the rules went on, labels can no longer be built

    def copy(self) -> "Decision":
        return Decision(self.players, self.values, self.labels, self.prompt, self.point, dict(self.answers),
                        self.kinds, self.keys)


STATE_FORMAT = "wishdsl-state-6"  # 2: shuffles; 3: identities; 4: compiled rules; 5: compact log; 6: flat loops


FIELDS = (  # the data of one world: every field is an int, str, tuple, or a list/dict of those
    "n", "seed", "rng", "ids", "gvars", "pvars", "kvars", "zones", "where", "face", "known", "seen", "stack",
    "decision", "log", "observations", "shuffles", "over", "after", "steps", "decisions", "final", "timed",
    "arrivals",
)


class StateData:
    """The fields of a state (`FIELDS`). Their slots are declared by the State itself (engine.py), the class of
    the objects: a read of a slot checks that the object is of the slot's class, at once for its own class and
    through the class's ancestors otherwise, and these are the reads of every step of a game."""

    __slots__ = ()


def _tuplify(v):
    if isinstance(v, list):
        return tuple(_tuplify(x) for x in v)
    return v


def _listify(v):
    if isinstance(v, tuple):
        return [_listify(x) for x in v]
    return v


def clone_data(src, dst) -> None:
    """Copy every mutable part of `src` into the fresh object `dst`: explicit, never a generic deep copy."""
    copy = list.copy
    dst.n = src.n
    dst.seed = src.seed
    dst.rng = Rng(src.rng.s)
    dst.ids = src.ids  # never changed in play: shared
    dst.gvars = src.gvars[:]
    dst.pvars = list(map(copy, src.pvars))
    dst.kvars = list(map(copy, src.kvars))
    dst.zones = list(map(copy, src.zones))
    dst.where = src.where[:]
    dst.face = src.face[:]
    dst.known = src.known[:]
    dst.seen = src.seen[:]
    stack = []
    last = env = None
    for f in src.stack:  # frames that share an env (one activation's) lie next to each other
        if f.env is not last:
            last, env = f.env, f.env.copy()
        stack.append(Frame(f.code, env, f.kind, f.data, f.depth, f.pc))
    dst.stack = stack
    dst.decision = src.decision.copy() if src.decision is not None else None
    dst.log = src.log[:]  # entries are never changed once written
    dst.observations = src.observations[:]
    dst.shuffles = src.shuffles[:]
    dst.over = src.over
    dst.after = [(t, env.copy(), d) for t, env, d in src.after]  # envs of their own (Machine.emit)
    dst.steps = src.steps
    dst.decisions = src.decisions
    dst.final = src.final
    dst.timed = src.timed
    dst.arrivals = src.arrivals


def data_to_json(s, fingerprint: str) -> str:
    envs: list = []
    index: dict = {}

    def env_ref(env):
        k = id(env)
        if k not in index:
            index[k] = len(envs)
            envs.append({name: _listify(v) for name, v in env.items()})
        return index[k]

    stack = [[f.code, f.pc, env_ref(f.env), int(f.kind), _listify(f.data), f.depth] for f in s.stack]
    after = [[t, env_ref(env), d] for t, env, d in s.after]
    d = s.decision
    decision = None
    if d is not None:
        decision = {
            "players": list(d.players), "values": _listify(d.values),
            "prompt": d.prompt, "point": d.point,
            "answers": [[p, _listify(v)] for p, v in (d.answers.items() if s.timed else sorted(d.answers.items()))],
            "kinds": _listify(d.kinds),
        }
    doc = {
        "format": STATE_FORMAT, "game": fingerprint, "n": s.n, "seed": s.seed, "rng": str(s.rng.s),
        "identities": list(s.ids.of),
        "gvars": _listify(tuple(s.gvars)), "pvars": _listify(tuple(tuple(r) for r in s.pvars)),
        "kvars": _listify(tuple(tuple(r) for r in s.kvars)),
        "zones": s.zones, "where": s.where, "face": s.face, "known": s.known, "seen": s.seen,
        "stack": stack, "envs": envs, "after": after, "decision": decision,
        "log": [_listify(e) for e in s.log],
        "observations": _listify(tuple(s.observations)), "shuffles": _listify(tuple(s.shuffles)),
        "over": s.over, "steps": s.steps, "decisions": s.decisions, "final": _listify(s.final),
    }
    if s.timed:  # only then: an untimed state's document is as it always was
        doc["timed"], doc["arrivals"] = True, list(s.arrivals)
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def data_from_json(doc: dict, s, identities) -> None:
    """Fill `s` from a parsed JSON document (already checked for format and game); `identities(of)` makes
    the Identities of a list of card definitions."""
    s.n = doc["n"]
    s.seed = doc["seed"]
    s.rng = Rng(int(doc["rng"]))
    s.ids = identities(doc["identities"])
    s.gvars = [_tuplify(v) for v in doc["gvars"]]
    s.pvars = [[_tuplify(v) for v in row] for row in doc["pvars"]]
    s.kvars = [[_tuplify(v) for v in row] for row in doc["kvars"]]
    s.zones = [list(z) for z in doc["zones"]]
    s.where = list(doc["where"])
    s.face = list(doc["face"])
    s.known = list(doc["known"])
    s.seen = list(doc["seen"])
    envs = [{k: _tuplify(v) for k, v in e.items()} for e in doc["envs"]]
    s.stack = [Frame(code, envs[env], FrameKind(kind), _tuplify(data), depth, pc)
               for code, pc, env, kind, data, depth in doc["stack"]]
    s.after = [(t, envs[env], d) for t, env, d in doc["after"]]
    d = doc["decision"]
    s.decision = None
    if d is not None:
        s.decision = Decision(tuple(d["players"]), _tuplify(d["values"]), None, d["prompt"], d["point"],
                              {p: _tuplify(v) for p, v in d["answers"]}, _tuplify(d["kinds"]))
    s.log = [_tuplify(e) for e in doc["log"]]
    s.observations = [_tuplify(o) for o in doc["observations"]]
    s.shuffles = [_tuplify(x) for x in doc["shuffles"]]
    s.over = doc["over"]
    s.steps = doc["steps"]
    s.decisions = doc["decisions"]
    s.final = _tuplify(doc["final"])
    s.timed = doc.get("timed") is True
    s.arrivals = tuple(doc.get("arrivals", ())) if s.timed else ()
