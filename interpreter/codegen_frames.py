"""Rules that may stop, as resumable Python (the frame half of interpreter/codegen.py).

A rule that can stop — for a decision, or for frames it starts (a procedure that decides, an ability, the
triggers an event fires) — is a *frame function* `def bN(st, f)` run from a frame on the effect stack: its
statements are cut into segments at the points where it stops, `if pc == K:` opens segment K, and a stop
stores the segment to resume at in `f.pc` and returns. Everything between stops runs straight through as
plain Python (interpreter/codegen_stmts.py): nested blocks without a stop are Python `if`/`for`/`while`, and a
procedure that never stops is a plain function `pN(st, env)` called directly. A frame function returns True
when it has finished.
"""
from __future__ import annotations

from dsl import ast as A
from dsl.refs import RefKind

from .frames import FrameKind

DECISIONS = (A.Choose, A.Simultaneous, A.Act)
ALWAYS_STOPPING = (*DECISIONS, A.Resolve)  # written by `stopping` alone; every other statement has its `s_` case


class Out:
    """Lines of Python with an indentation level."""

    def __init__(self):
        self.lines: list = []
        self.level = 0

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.level + line)

    def indent(self, by: int = 1) -> None:
        self.level += by


class FrameGen:
    """A mixin of the code generator: what may stop, frame functions cut into segments, direct procedures."""

    # ---------------------------------------------------------------- what a statement may do
    def stops(self, s: A.Stmt) -> bool:
        """May this statement stop the rule that runs it (a decision, or frames pushed above it)?"""
        if isinstance(s, ALWAYS_STOPPING):
            return True
        if isinstance(s, A.Emit):
            return ("custom", s.name) in self.listened
        if isinstance(s, (A.Move, A.Swap)):
            return ("moved",) in self.listened
        if isinstance(s, A.Assign):
            return self.watched(s.target)
        if isinstance(s, A.Transfer):
            return self.watched(s.source) or self.watched(s.dest)
        if isinstance(s, A.ExprStmt):
            return s.expr.name in self.stopping_procs
        if isinstance(s, A.If):
            return self.block_stops(s.then) or (s.other is not None and self.block_stops(s.other))
        if isinstance(s, (A.For, A.Repeat, A.While)):
            return self.block_stops(s.body)
        return False

    def block_stops(self, b: A.Block) -> bool:
        return any(self.stops(s) for s in b.stmts)

    def watched(self, target: A.Expr) -> bool:
        """Is this assignable place a variable some trigger watches (`when changed NAME`)?"""
        return target.ref.kind is not RefKind.LOCAL and ("changed", target.ref.name) in self.listened

    def ends(self, s: A.Stmt) -> bool:
        """May this statement, run straight through, end the game?"""
        if isinstance(s, A.EndGame):
            return True
        if isinstance(s, A.ExprStmt):
            return s.expr.name in self.ending_procs
        if isinstance(s, A.If):
            return any(self.ends(x) for x in s.then.stmts) or (
                s.other is not None and any(self.ends(x) for x in s.other.stmts))
        if isinstance(s, (A.For, A.Repeat, A.While)):
            return any(self.ends(x) for x in s.body.stmts)
        return False

    # ---------------------------------------------------------------- frame functions
    def frame_function(self, code: int, block: A.Block, kind: FrameKind, name: str, trigger=None) -> None:
        """Compile `block` into the frame function of code number `code` (`trigger`: the index of the trigger
        whose body it is). Its statements are cut into segments at the points where it may stop; `if pc == K:`
        runs segment K, and a stop stores the segment to resume at in `f.pc`. Branches and loops that may stop
        are segments of the same function (a loop keeps its place in `env` under a key no game can name, such
        as "$for3"), so only procedures, actions and triggers ever start a frame of their own."""
        self.block_spans[code] = block.span
        self.blocks = 2  # the try and the dispatch loop
        self.segment, self.emitted, self.jumped, self.next_segment = None, set(), False, 1
        out = self.out
        out(f"def b{code}(st, f):  # {name!r}, line {block.span.line}")
        out.indent()
        out("env = f.env")
        out(f"_s = {self.span(block)}")
        out("try:")
        out.indent()
        out("pc = f.pc")
        if trigger is not None:
            out("if pc == 0 and not st.trigger_holds(f):")
            out("    return True")
        out("while True:")
        out.indent()
        self.begin(0)
        self.flat(block.stmts)
        if len(out.lines) == self.segment_start:
            out("pass")
        out.indent(-1)
        out("return True")
        out.indent(-2)
        out("except _ERRORS as err:")
        out("    raise _failed(st, err, _S[_s]) from None")
        out.indent(-1)
        out("")

    def new_segment(self) -> int:
        k = self.next_segment
        self.next_segment += 1
        return k

    def begin(self, k: int) -> None:
        """Open segment `k` after the one being written, which falls into it unless it ended with a jump."""
        out = self.out
        if self.segment is not None:
            if not self.jumped:
                out(f"pc = {k}")
            out.indent(-1)
        out(f"if pc == {k}:")
        out.indent()
        self.segment, self.jumped, self.segment_start = k, False, len(out.lines)
        self.emitted.add(k)

    def jump(self, k: int) -> None:
        """Go on at segment `k`: a segment written before this one is reached by running the dispatch again."""
        self.out(f"pc = {k}")
        if k in self.emitted:
            self.out("continue")

    def flat(self, stmts: list) -> None:
        """Statements of a frame function: those that may stop cut it into segments, the others run inline."""
        for s in stmts:
            if self.stops(s):
                self.stopping(s)
            else:
                self.stmt(s, "frame")
                self.jumped = isinstance(s, A.EndGame)

    def stopping(self, s: A.Stmt) -> None:
        out = self.out
        k = self.span(s)
        if isinstance(s, DECISIONS):  # asked in a segment of its own: asking again (State.repose) asks only
            ask, resume = self.new_segment(), self.new_segment()
            self.begin(ask)
            out(f"_s = {k}")
            out(f"if _P[{self.decision_point(s)}].ask(st, env):")
            self.stop_at(resume)
            self.begin(resume)
        elif isinstance(s, A.If):
            self.flat_if(s)
        elif isinstance(s, (A.For, A.Repeat, A.While)):
            self.flat_loop(s)
        elif isinstance(s, A.ExprStmt):  # a procedure that may stop runs in a frame of its own
            resume = self.new_segment()
            out(f"_s = {k}")
            out(f"f.pc = {resume}")
            out(f"st.push({self.procedure_code(s.expr.name)}, {self.call_env(s.expr)}, _BLOCK, None, f.depth, "
                f"_S[{k}])")
            out("return")
            self.jumped = True
            self.begin(resume)
        else:
            resume = self.new_segment()
            out(f"_s = {k}")
            if isinstance(s, A.Resolve):
                out(f"if st.resolve_instant({self.expr(s.card, {})}, f.depth, _S[{k}]):")
            else:  # it may fire triggers: they run first, in frames of their own
                self.stmt(s, "frame")
                out("if st.stack[-1] is not f:")
            self.stop_at(resume)
            self.begin(resume)

    def stop_at(self, resume: int) -> None:
        """The indented lines that stop the function, to go on at segment `resume`."""
        self.out(f"    f.pc = {resume}")
        self.out("    return")

    def flat_if(self, s: A.If) -> None:
        out = self.out
        then, other, after = self.new_segment(), self.new_segment() if s.other is not None else None, \
            self.new_segment()
        out(f"_s = {self.span(s)}")
        out(f"if {self.expr(s.cond, {})}:")
        out.indent()
        self.jump(then)
        out.indent(-1)
        out("else:")
        out.indent()
        self.jump(other if other is not None else after)
        out.indent(-1)
        self.jumped = True
        self.begin(then)
        self.flat(s.then.stmts)
        if other is not None:
            if not self.jumped:
                self.jump(after)
                self.jumped = True
            self.begin(other)
            self.flat(s.other.stmts)
        self.begin(after)

    def flat_loop(self, s) -> None:
        """A loop that may stop: its head decides whether another pass runs, its body ends by going back there.
        The loop's place is kept in `env` under a key no game can name ("$for3")."""
        out = self.out
        kind = type(s).__name__.lower()
        key = repr(f"${kind}{self.fresh('')}")
        head, body, done = self.new_segment(), self.new_segment(), self.new_segment()
        out(f"_s = {self.span(s)}")
        if isinstance(s, A.For):
            out(f"env[{key}] = (tuple({self.coll(s.source, {}, copy=False)}), 0)")
        elif isinstance(s, A.Repeat):
            out(f"_n = {self.expr(s.count, {})}")
            out("if _n > _MAX_LOOP:")
            out(f"    raise _repeat_limit(_n, _S[{self.span(s)}])")
            out(f"env[{key}] = (_n, 0)")
        else:
            out(f"env[{key}] = 0")
        self.begin(head)
        if isinstance(s, A.While):
            out(f"_i = env[{key}]")
            out("if _i >= _MAX_LOOP:")
            out(f"    raise _loop_limit(_S[{self.span(s.body)}])")
            out(f"_s = {self.span(s)}")
            out(f"if not {self.expr(s.cond, {})}:")
            again = [f"env[{key}] = _i + 1"]
        else:
            out(f"_items, _i = env[{key}]")
            out(f"if _i >= {'len(_items)' if isinstance(s, A.For) else '_items'}:")
            again = [f"env[{key}] = (_items, _i + 1)"]
            if isinstance(s, A.For):
                again.insert(0, f"env[{s.var!r}] = _items[_i]")
        out.indent()
        self.jump(done)
        out.indent(-1)
        out("else:")
        out.indent()
        for line in again + self.tick(s.body, s):
            out(line)
        self.jump(body)
        out.indent(-1)
        self.jumped = True
        self.begin(body)
        self.flat(s.body.stmts)
        if not self.jumped:
            self.jump(head)
            self.jumped = True
        self.begin(done)

    # ---------------------------------------------------------------- direct procedures
    def direct_procedure(self, code: int, p: A.Procedure) -> None:
        """A procedure that never stops: a plain function of the state and its environment."""
        self.direct_function(code, p.body.stmts, p.body, f"procedure {p.name!r}, line {p.span.line}", counted=True)

    def direct_function(self, code: int, stmts: list, at, comment: str, counted: bool = False) -> None:
        """Statements that never stop as a plain function `pN(st, env)` (a procedure, or a statement nested
        too deeply to stay inline)."""
        self.block_spans[code] = at.span
        self.blocks = 1
        out = self.out
        out(f"def p{code}(st, env):  # {comment}")
        out.indent()
        if counted:
            out("if st.counting:")
            out(f"    st.counted({code})")
        out(f"_s = {self.span(at)}")
        out("try:")
        out.indent()
        self.stmts(stmts, "direct")
        if not stmts:
            out("pass")
        out.indent(-1)
        out("except _ERRORS as err:")
        out("    raise _failed(st, err, _S[_s]) from None")
        out.indent(-1)
        out("")
