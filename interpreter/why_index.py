"""What `--why` reads in the checked game: for every statement, the conditions around it in its rule (an `if`
whose branch it is in, a `while` whose body it is in), the rule each block belongs to, the condition of each
trigger, and the source text of a span (interpreter/why.py builds the chains from these).

A step of a chain is a `Step`; its kind a `StepKind`. Everything here is built once per game, when the first
explaining state of it starts.
"""
from __future__ import annotations

import enum
from typing import Optional

import attrs

from dsl import ast as A
from dsl import linked
from dsl.check_table import secret_read
from dsl.errors import WishError
from dsl.types import holds_cards

from . import log
from .game import source_digests


class StepKind(enum.Enum):
    """What a step of a chain is."""

    STATEMENT = "statement"  # a statement of a rule, running (or waiting for what it started)
    CONDITION = "condition"  # an `if` or `while` around it, or a trigger's `if`, with its value
    LOOP = "loop"  # a `for` or `repeat` around it (a `for` with the value of its variable)
    DECISION = "decision"  # a player's answer to a choice or an `act`
    PROCEDURE = "procedure"  # a procedure called
    ABILITY = "ability"  # an Instant ability resolving
    ACTION = "action"  # an action a player took
    TRIGGER = "trigger"  # a rule or an Ongoing ability reacting to an event
    SETUP = "setup"  # the set-up
    PLAY = "play"  # the turn structure (`play`)
    SCORING = "scoring"  # the end of the game and its scoring
    GAME = "game"  # the game itself (its first line)
    HIDDEN = "hidden"  # steps a player may not see, left out


ROOTS = (StepKind.SETUP, StepKind.PLAY, StepKind.SCORING, StepKind.GAME)  # where every chain ends


@attrs.frozen
class Step:
    """One link of a chain: what it is, its text (source, or a name), where it is written, and for a condition
    its value, for an action or decision who took it (and the action's own line of the log)."""

    kind: StepKind
    text: str
    span: Optional[A.Span] = None
    value: Optional[bool] = None
    player: Optional[int] = None
    log_line: Optional[int] = None
    secret: bool = False  # a condition reading what not every player sees (what a player is shown stops here)
    bindings: tuple = ()  # (name, value as the log keeps it, type): a procedure's parameters, a loop's variable

    def to_json(self) -> dict:
        out = {"kind": self.kind.value, "text": self.text}
        if self.span is not None:
            out.update(file=self.span.file, line=self.span.line, col=self.span.col)
        for key in ("value", "player", "log_line"):
            v = getattr(self, key)
            if v is not None:
                out[key] = v
        return out

    def with_bindings(self, st, env: dict, names: tuple) -> "Step":
        """This step with the values `env` holds for `names` ((name, type) pairs), kept as the log keeps them."""
        found = tuple((name, log.frozen(st, env[name], ty), ty) for name, ty in names if name in env)
        return attrs.evolve(self, bindings=found) if found else self


RULE_KINDS = {A.Procedure: StepKind.PROCEDURE, A.Action: StepKind.ACTION, A.Trigger: StepKind.TRIGGER,
              A.Setup: StepKind.SETUP, A.Play: StepKind.PLAY}


class RuleIndex:
    """The checked game read for explanations."""

    def __init__(self, game):
        self.sym = game.sym
        sources = linked.sources(game.program)
        if source_digests(sources) != game.sources:  # read again from disk since it loaded
            raise WishError(f"{game.path} changed on disk since the game was loaded: its lines cannot explain "
                            "this game; run it again")
        self.texts = {path: text.splitlines() for path, text in sources.items()}
        self.around: dict = {}  # statement span → ((condition, value, word), …), innermost first
        self.owners: dict = {}  # block span → the declaration (or ability) whose body it is
        self.loop_vars: dict = {}  # span of a `for` → ((its variable, its type),)
        self.trigger_conds: dict = {}  # trigger span → its condition
        self.params = {f"procedure {name}": tuple(zip((q.name for q in d.params), types or ()))
                       for name, (d, types) in game.sym.procedures.items()}  # rule name → (name, type) pairs
        self._steps: dict = {}
        self.game_span = self.scoring_span = None
        self.score_steps: tuple = ()  # the scoring's steps, each where it is written (a house rule's in its file)
        for d in game.decls:
            if isinstance(d, A.Game):
                self.game_span = d.span
            elif isinstance(d, A.Scoring):
                self.scoring_span = d.span
                self.score_steps = tuple(Step(StepKind.STATEMENT, self.first_line(t.span), t.span) for t in d.steps)
            self._walk(d, ())

    # ---------------------------------------------------------------- reading the tree
    def _walk(self, node, conds: tuple) -> None:
        if isinstance(node, A.Trigger) and node.cond is not None:
            self.trigger_conds[node.span] = node.cond
        if isinstance(node, A.Block):
            for s in node.stmts:
                self.around.setdefault(s.span, conds)
                self._stmt(s, conds)
            return
        for child in A.children(node):
            if isinstance(child, A.Block) and not isinstance(node, A.Stmt):
                self.owners.setdefault(child.span, node)
            self._walk(child, conds)

    def _stmt(self, s: A.Stmt, conds: tuple, ladder: tuple = ()) -> None:
        """`ladder`: the false conditions of the `if … else if …` this `if` is an `else if` of: a branch taken
        is explained by its own condition, the final `else` by all of them."""
        if isinstance(s, A.If):
            self._walk(s.then, ((s.cond, True, "if"),) + conds)
            if s.other is None:
                return
            ladder = ((s.cond, False, "if"),) + ladder
            inner = s.other.stmts
            if len(inner) == 1 and isinstance(inner[0], A.If) and inner[0].span.line == s.other.span.line:
                self.around.setdefault(inner[0].span, conds)
                self._stmt(inner[0], conds, ladder)
            else:
                self._walk(s.other, ladder + conds)
        elif isinstance(s, A.While):
            self._walk(s.body, ((s.cond, True, "while"),) + conds)
        elif isinstance(s, (A.For, A.Repeat)):
            ty = s.source.ty if isinstance(s, A.For) else None
            elem = None if ty is None else ty.elem if ty.kind != "zone" else type(ty)("card", ty.name)
            if elem is not None:
                self.loop_vars[s.span] = ((s.var, elem),)
            self._walk(s.body, ((s, None, "loop"),) + conds)
        else:
            for child in A.children(s):
                self._walk(child, conds)

    # ---------------------------------------------------------------- steps
    def statement(self, span: A.Span) -> tuple:
        """The steps of a running statement: the statement, then the conditions around it in its rule."""
        steps = self._steps.get(span)
        if steps is None:
            steps = [Step(StepKind.STATEMENT, self.first_line(span), span)]
            for node, value, word in self.around.get(span, ()):
                if word == "loop":
                    steps.append(Step(StepKind.LOOP, self.first_line(node.span), node.span))
                else:
                    steps.append(self.condition(node, value, word))
            steps = self._steps[span] = tuple(steps)
        return steps

    def running(self, st, span: A.Span, env: Optional[dict]) -> tuple:
        """The steps of a statement running with the locals `env`: its loops with their variables' values."""
        steps = self.statement(span)
        if env is None or not any(s.kind is StepKind.LOOP for s in steps):
            return steps
        return tuple(s.with_bindings(st, env, self.loop_vars.get(s.span, ())) if s.kind is StepKind.LOOP else s
                     for s in steps)

    def condition(self, cond: A.Expr, value: bool, word: str) -> Step:
        text = f"{word} {self.text(cond.span)}"
        return Step(StepKind.CONDITION, text, cond.span, value=value, secret=self.reads_secret(cond))

    def reads_secret(self, cond: A.Expr) -> bool:
        """Does a condition read what some player may not see: a hidden zone, a rule value hidden cards change,
        or any card at all (which card a name holds may be one a player never saw)."""
        return secret_read(cond, self.sym) is not None or any(
            getattr(n, "ty", None) is not None and holds_cards(n.ty) for n, _ in A.walk(cond))

    def rule_step(self, block_span: A.Span, kind: StepKind, fallback: str) -> Step:
        """The step of a rule running from a frame: its declaration's first line where the block is known."""
        owner = self.owners.get(block_span)
        span = owner.span if owner is not None else block_span
        text = self.first_line(span) if span is not None and span.line > 0 else fallback
        return Step(kind, text or fallback, span)

    # ---------------------------------------------------------------- source text
    def first_line(self, span: A.Span) -> str:
        lines = self.texts.get(span.file)
        if lines is None or not 0 < span.line <= len(lines):
            return ""
        return lines[span.line - 1][span.col - 1:].strip()

    def text(self, span: A.Span) -> str:
        """The source text of a span, its lines joined by single spaces."""
        lines = self.texts.get(span.file)
        if lines is None or not 0 < span.line <= span.end_line <= len(lines):
            return ""
        if span.line == span.end_line:
            return lines[span.line - 1][span.col - 1:span.end_col - 1].strip()
        parts = [lines[span.line - 1][span.col - 1:]] + lines[span.line:span.end_line - 1]
        parts.append(lines[span.end_line - 1][:span.end_col - 1])
        return " ".join(" ".join(p.split()) for p in parts if p.strip())
