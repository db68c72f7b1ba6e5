"""Why did that happen? A state that remembers, for every line of its log, the chain that wrote it.

`ExplainingState` is a `State` (like wishdsl/coverage.py's `CountingState`, its hooks are overrides, so a plain
State pays nothing): as each log entry is written it records the chain of `Step`s, innermost first — the
statement that wrote it and the `if`/`while` conditions around that statement, the procedure, ability, action or
trigger running it, the statement that started that one, and so on out to the set-up or the turn structure. A
trigger's chain goes on with the statement whose event fired it (also when it resolves after the action). The
statements come from the compiled rules' frames (each sets `_s` to its statement's span, codegen_stmts.py); the
frames of the effect stack and what started each come from `push`.

    state = ExplainingState.start(game, players, seed)
    ...                       # play it as any state
    explain(state, k)         # the chain of log line k (0-based), a tuple of Steps
    explanation_lines(state, k, reader)   # as text, as `reader` may read it
"""
from __future__ import annotations

import sys
import weakref
from typing import Optional

import attrs

from .engine import State
from .frames import MODULE_NAME, FrameKind
from . import log
from .log import Entry, render
from .why_index import ROOTS, RuleIndex, Step, StepKind

ACTION, TRIGGER = FrameKind.ACTION, FrameKind.TRIGGER
INDEXES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # Game → its RuleIndex, built once


class TracedLog(list):
    """The log of an explaining state: each entry appended has its chain recorded beside it."""

    __slots__ = ("st",)

    def __init__(self, st, entries=()):
        super().__init__(entries)
        self.st = st

    def append(self, e) -> None:
        st = self.st
        st.trace.chains.append(st.trace.chain_of(st, e, len(self)))
        list.append(self, e)


class Trace:
    """What an explaining state knows beyond its data: the chains of its lines, and of its frames."""

    __slots__ = ("index", "chains", "frames", "after", "ending", "asked")

    def __init__(self, index: RuleIndex):
        self.index = index
        self.chains: list = []  # log line → its chain
        self.frames: dict = {}  # id(frame) → (frame, the chain that started it, its action's log line)
        self.after: dict = {}  # id(env) of a trigger waiting for its action's end → (env, the event's chain)
        self.ending: Optional[tuple] = None  # what ended the game, once it is over
        self.asked: Optional[tuple] = None  # (point's span, player) of the `act` being answered

    def copied(self, src, dst) -> "Trace":
        """This trace for `dst`, a copy of `src` (clone_data copies frames and waiting triggers in order)."""
        t = Trace(self.index)
        t.chains, t.ending, t.asked = self.chains[:], self.ending, self.asked
        for old, new in zip(src.stack, dst.stack):
            rec = self.frames.get(id(old))
            if rec is not None and rec[0] is old:
                t.frames[id(new)] = (new, rec[1], rec[2])
        for (_, old, _), (_, new, _) in zip(src.after, dst.after):
            rec = self.after.get(id(old))
            if rec is not None and rec[0] is old:
                t.after[id(new)] = (new, rec[1])
        return t

    # ---------------------------------------------------------------- chains
    def chain_of(self, st, e: tuple, k: int) -> tuple:
        """The chain of entry `e`, about to be line `k` of the log."""
        ix = self.index
        if k == 0:
            return (Step(StepKind.GAME, ix.first_line(ix.game_span) if ix.game_span else st.game.title,
                         ix.game_span),)
        if self.ending is not None:  # the lines of the end: every step of the scoring, the scoring, what ended it
            scoring = Step(StepKind.SCORING, _text(ix, ix.scoring_span, "scoring"), ix.scoring_span)
            return ix.score_steps + (scoring,) + self.ending
        steps, frame = running(st)
        kind = e[0]
        if kind == Entry.CHOICE or kind == Entry.ACTION:  # (compiled rules write some kinds as plain ints)
            span, who = (st.game.points[e[3]].span, e[1]) if kind == Entry.CHOICE else (self.asked or (None, e[1]))
            if not steps and span is not None:
                steps = ix.running(st, span, st.stack[-1].env if st.stack else None)
            steps = (Step(StepKind.DECISION, f"{st.player_name(who)} decided", span, player=who),) + steps
        return steps + self.frame_chain(st, frame)

    def here(self, st) -> tuple:
        """The chain of what runs now."""
        steps, frame = running(st)
        return steps + self.frame_chain(st, frame)

    def frame_chain(self, st, f) -> tuple:
        """The chain of frame `f` of the effect stack, running or waiting (None: the top one, if any)."""
        if f is None:
            if not st.stack:
                return ()
            f = st.stack[-1]
        rec = self.frames.get(id(f))
        below, line = (rec[1], rec[2]) if rec is not None and rec[0] is f else ((), None)
        return self.frame_steps(st, f, line) + below

    def frame_steps(self, st, f, line: Optional[int]) -> tuple:
        """The steps of a frame itself: the rule it runs (none for a nested block)."""
        g, ix = st.game, self.index
        span = g.block_spans[f.code]
        if f.kind is ACTION:
            step = ix.rule_step(span, StepKind.ACTION, g.block_names[f.code])
            return (attrs.evolve(step, player=f.env.get("you"), log_line=line),)
        if f.kind is TRIGGER:
            t = g.trigger_defs[f.data]
            text = ix.first_line(t.span) or t.label
            if t.source is not None:
                text = f"{g.card_defs[t.source].name}: {text}"
            steps = (Step(StepKind.TRIGGER, text, t.span),)
            cond = ix.trigger_conds.get(t.span)
            return steps + ((ix.condition(cond, True, "if"),) if cond is not None else ())
        if f.code == g.setup_code:
            return (ix.rule_step(span, StepKind.SETUP, "setup"),)
        if f.code == g.play_code:
            return (ix.rule_step(span, StepKind.PLAY, "play"),)
        name = g.block_names[f.code]
        if name.startswith("procedure "):
            return (ix.rule_step(span, StepKind.PROCEDURE, name).with_bindings(st, f.env, ix.params.get(name, ())),)
        if name:
            step = ix.rule_step(span, StepKind.ABILITY, name)
            card = name.rsplit(": ", 1)[0]
            return (attrs.evolve(step, text=f"{card}: {step.text}") if step.text != name else step,)
        return ()


def running(st) -> tuple:
    """(the statements running now in the compiled rules' Python frames, innermost first, with the procedures
    called directly (without a frame of the effect stack) between them; the frame of the effect stack whose
    function runs them, or None when no rule runs). That frame need not be the top one: triggers pushed while
    it runs lie above it until it stops."""
    g, ix = st.game, st.trace.index
    spans = g.rules.spans
    steps: list = []
    fr = sys._getframe(0)  # the innermost Python frame on: a compiled function has none
    while fr is not None:
        code = fr.f_code
        if code.co_filename == MODULE_NAME:
            local = fr.f_locals
            env = local.get("env")
            s = local.get("_s")
            if s is not None:
                steps.extend(ix.running(st, spans[s], env))
            name = code.co_name
            if name[0] == "b" and name[1:].isdigit():
                return tuple(steps), local.get("f")
            if name[0] == "p" and name[1:].isdigit():
                code_number = int(name[1:])
                rule = g.block_names[code_number]
                if rule:
                    step = ix.rule_step(g.block_spans[code_number], StepKind.PROCEDURE, rule)
                    steps.append(step.with_bindings(st, env or {}, ix.params.get(rule, ())))
        fr = fr.f_back
    return tuple(steps), None


class ExplainingState(State):
    """A State whose log lines can be explained (`explain`). Its clones explain too (a person's `undo`)."""

    __slots__ = ("trace",)

    @classmethod
    def start(cls, game, players: int, seed: int, timed: bool = False) -> "ExplainingState":
        game = game.explainable()
        game.check_players(players)
        return cls.fresh(game, players, int(seed), timed)

    def _bind(self, game, players: int) -> None:
        super()._bind(game, players)
        index = INDEXES.get(game)
        if index is None:
            index = INDEXES[game] = RuleIndex(game)  # beside the Game, never in it (a Game is pickled)
        self.trace = Trace(index)

    def new_log(self) -> list:
        return TracedLog(self)

    def push(self, code: int, env: dict, kind, data, depth: int, span) -> None:
        trace = self.trace
        if kind is TRIGGER and id(env) in trace.after and trace.after[id(env)][0] is env:
            below = trace.after.pop(id(env))[1]
        else:
            here, frame = running(self)
            if not here and kind is ACTION and trace.asked is not None and trace.asked[0] is not None:
                here = trace.index.running(self, trace.asked[0], self.stack[-1].env if self.stack else None)
            below = here + trace.frame_chain(self, frame)
        line = len(self.log) - 1 if kind is ACTION else None  # start_action has just written its line
        State.push(self, code, env, kind, data, depth, span)
        f = self.stack[-1]
        frames = trace.frames
        if len(frames) > 2 * len(self.stack) + 256:  # forget the frames that have ended (their chains are copied)
            on = {id(g) for g in self.stack}
            trace.frames = frames = {k: rec for k, rec in frames.items() if k in on}
        frames[id(f)] = (f, below, line)

    def emit(self, key, args: tuple) -> None:
        waiting = len(self.after)
        State.emit(self, key, args)
        if len(self.after) > waiting:
            chain = self.trace.here(self)
            for _, env, _ in self.after[waiting:]:
                self.trace.after[id(env)] = (env, chain)

    def start_action(self, key, who: int, depth: int, span) -> None:
        self.trace.asked = (span, who)
        try:
            State.start_action(self, key, who, depth, span)
        finally:
            self.trace.asked = None

    def finish(self) -> None:
        trace = self.trace
        ended = trace.here(self)
        if not ended:
            play = self.game.play_code
            ended = (trace.index.rule_step(self.game.block_spans[play], StepKind.PLAY, "play"),)
        trace.ending = ended
        State.finish(self)

    def restore(self, other: "State") -> None:
        State.restore(self, other)
        self.log = TracedLog(self, self.log)
        if isinstance(other, ExplainingState):
            self.trace = other.trace.copied(other, self)

    def clone(self) -> "ExplainingState":
        st = ExplainingState.__new__(ExplainingState)
        self.copy_into(st)
        st.log = TracedLog(st, st.log)
        st.trace = self.trace.copied(self, st)
        return st


def _text(ix: RuleIndex, span, fallback: str) -> str:
    return (ix.first_line(span) if span is not None else "") or fallback


# ---------------------------------------------------------------- reading the chains
def explain(st: ExplainingState, k: int) -> tuple:
    """The chain of log line `k` (0-based), innermost first."""
    return st.trace.chains[k]


def shown_to(st, chain: tuple, reader: Optional[int]) -> tuple:
    """The chain as `reader` may see it (None: all of it). Which statement wrote a line tells which branch ran:
    from the outermost condition reading what not every player sees inwards, a player sees one HIDDEN step."""
    if reader is None:
        return chain
    cut = max((i for i, s in enumerate(chain) if s.secret), default=None)
    if cut is None:
        return chain
    return (Step(StepKind.HIDDEN, "(depends on what you cannot see)"),) + chain[cut + 1:]


def step_text(st, step: Step, reader: Optional[int]) -> str:
    """One step as a line: where it is written, what it is."""
    where = f"{step.span.file}:{step.span.line}" if step.span is not None and step.span.line > 0 else ""
    text = step.text
    if step.kind is StepKind.CONDITION:
        text = f"{text}  → {'true' if step.value else 'false'}"
    elif step.kind is StepKind.ACTION and step.log_line is not None:
        text = f"{text}  [line {step.log_line + 1}: {render(st, st.log[step.log_line], reader)}]"
    elif step.kind is StepKind.DECISION:
        text = f"{st.player_name(step.player)} decided" if step.player is not None else text
    if step.bindings:
        text += "  (" + ", ".join(f"{name} = {log.label(st, v, ty, reader)}" for name, v, ty in step.bindings) + ")"
    label = step.kind.value
    return f"{label:<10} {where + '  ' if where else ''}{text}"


def explanation_lines(st, k: int, reader: Optional[int] = None) -> list:
    """Log line `k` (0-based) and, indented below it, why it was written, as `reader` may read it."""
    if not 0 <= k < len(st.log):
        return [f"there is no line {k + 1}: the log has {len(st.log)} lines"]
    lines = [f"{k + 1:>5}  {render(st, st.log[k], reader)}"]
    for step in shown_to(st, explain(st, k), reader):
        lines.append(f"       ← {step_text(st, step, reader)}")
    return lines


def chain_json(st, k: int) -> list:
    """The chain of line `k` as JSON: its steps, with their bindings as everyone-knows-all text."""
    out = []
    for s in explain(st, k):
        d = s.to_json()
        if s.bindings:
            d["bindings"] = {name: log.label(st, v, ty, None) for name, v, ty in s.bindings}
        out.append(d)
    return out


def is_rooted(chain: tuple) -> bool:
    """Does a chain end where every chain should: the set-up, the turn structure, the scoring or the game?"""
    return bool(chain) and chain[-1].kind in ROOTS


__all__ = ["ExplainingState", "Step", "StepKind", "chain_json", "explain", "explanation_lines", "is_rooted"]
