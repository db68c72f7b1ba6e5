"""Statements of a checked game as Python statements (the statement half of interpreter/codegen.py).

A rule that can stop — for a decision, or for frames it starts (a procedure that decides, an ability, the
triggers an event fires) — is a *frame function* `def bN(st, f)` run from a frame on the effect stack: its
statements are cut into segments at the points where it stops, `if pc <= K:` opens segment K, and a stop
stores the segment to resume at in `f.pc` and returns. Everything between stops runs straight through as
plain Python: nested blocks without a stop are Python `if`/`for`/`while`, and a procedure that never stops
is a plain function `pN(st, env)` called directly. A frame function returns True when it has finished.

Every statement sets `_s` to its index in the table of spans, so a Python error in a user's rule is reported
at the statement (runtime.failed).
"""
from __future__ import annotations

from dsl import ast as A
from dsl.refs import RefKind

from .frames import FrameKind
from .log import Entry, has_card_refs

DECISIONS = (A.Choose, A.Simultaneous, A.Act)
ALWAYS_STOPPING = (*DECISIONS, A.Resolve)  # written by `stopping` alone; every other statement has its `s_` case
MAX_BLOCKS = 12  # Python loops nested in one generated function (CPython refuses more than 20 blocks)
MAX_LEVEL = 40  # indentation levels of one generated function (CPython refuses more than 100)


class Out:
    """Lines of Python with an indentation level."""

    def __init__(self):
        self.lines: list = []
        self.level = 0

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.level + line)

    def indent(self, by: int = 1) -> None:
        self.level += by


class StmtGen:
    """A mixin of the code generator: frame functions, direct procedures and statements."""

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

    # ---------------------------------------------------------------- plain statements
    def stmts(self, stmts: list, where: str) -> None:
        for s in stmts:
            self.stmt(s, where)

    def stmt(self, s: A.Stmt, where: str) -> None:
        """A statement that does not stop, run straight through (`where`: "frame" or "direct")."""
        self.out(f"_s = {self.span(s)}")
        if isinstance(s, (A.If, A.For, A.Repeat, A.While)) and (
                self.blocks >= MAX_BLOCKS or self.out.level >= MAX_LEVEL):
            self.hoisted(s)
            return
        getattr(self, "s_" + type(s).__name__)(s)

    def hoisted(self, s: A.Stmt) -> None:
        """A compound statement nested too deeply for one Python function runs as a function of its own."""
        code = self.new_code("")
        self.pending.append((code, s, None, "", None))
        self.out(f"p{code}(st, env)")
        if self.ends(s):
            self.out("if st.over:")
            self.out("    return")

    def s_Let(self, s: A.Let):
        self.out(f"env[{s.name!r}] = {self.expr(s.value, {})}")

    def s_Assign(self, s: A.Assign):
        out, t = self.out, s.target
        out(f"_v = {self.expr(s.value, {})}")
        if s.op != "=":
            old = self.read_place(t)
            if t.ty is not None and t.ty.kind == "bag":
                new = f"_bag_add({old}, _v)" if s.op == "+=" else f"_bag_sub({old}, _v, _S[{self.span(s)}])"
            else:
                new = f"{old} {s.op[0]} _v"
            out(f"_v = {new}")
        self.bound(s, "_v")
        self.write_place(t, "_v", s)

    def bound(self, s: A.Assign, value: str) -> None:
        """A value that may grow (a number, a list, a text, a bag, computed rather than copied from a variable,
        which holds only what passed here) is held to the game's limits before it is stored (dsl.limits)."""
        t = s.target
        kind = t.ty.plain().kind if t.ty is not None else None
        ref = s.value.ref
        copied = isinstance(s.value, A.Literal) or (
            ref is not None and ref.kind in (RefKind.VAR, RefKind.PVAR, RefKind.KVAR))
        if s.op == "=" and copied:
            return
        k = self.span(s)
        if kind == "int":
            self.out(f"if not -_MAXINT <= {value} <= _MAXINT: _oversize({value}, _S[{k}])")
        elif kind in ("list", "text"):
            self.out(f"if len({value}) > _MAXSIZE: _oversize({value}, _S[{k}])")
        elif kind == "bag":
            self.out(f"if {value} and max({value}) > _MAXINT: _oversize({value}, _S[{k}])")

    def read_place(self, t: A.Expr) -> str:
        """The text reading an assignable place (its player or key evaluated again, as it always was)."""
        if t.ref.kind is RefKind.LOCAL:
            return f"env[{t.ref.name!r}]"
        return self.expr(t, {})

    def write_place(self, t: A.Expr, value: str, s, scope: dict = None) -> None:
        """Store `value` (a Python expression) in an assignable place. Every write but a `let` counts as a
        change of the state (`st.version`), as it always has: remembered function results start again."""
        kind, name = t.ref.kind, t.ref.name
        g, out, k, scope = self.g, self.out, self.span(s), scope or {}
        if kind is RefKind.LOCAL:
            out("st.version += 1")
            out(f"env[{name!r}] = {value}")
            return
        plain = self.plain_var(name)
        if kind is RefKind.VAR:
            i = g.gvar_index[name]
            line = f"st.gvars[{i}] = {value}" if plain else f"st.set_gvar({i}, {value}, _S[{k}])"
        elif kind is RefKind.PVAR:
            i, p = g.pvar_index[name], self.expr(t.obj, scope)
            line = f"st.pvars[{p}][{i}] = {value}" if plain else f"st.set_pvar({i}, {p}, {value}, _S[{k}])"
        else:
            i, key = g.kvar_index[name], self.expr(t.key, scope)
            if not plain:
                line = f"st.set_kvar({i}, {key}, {value}, _S[{k}])"
            elif g.kvars[i].keys is not None:
                line = f"st.kvars[{i}][{self.const(('order',))}[{key}]] = {value}"
            else:
                line = f"st.kvars[{i}][{key}] = {value}"
        if plain:
            out("st.version += 1")
        out(line)

    def plain_var(self, name: str) -> bool:
        """Is writing this variable only storing its value: not logged, watched by no trigger, no minimum?"""
        v = self.sym.vars[name][0]
        return (v.minimum is None and not self.var_logged[name] and ("changed", name) not in self.listened)

    def s_Transfer(self, s: A.Transfer):
        """Both places change before anyone hears of either (`World.write_vars`); a local place, rarely
        transferred to, goes through the engine's general places."""
        out = self.out
        bag = s.amount.ty.kind == "bag"
        k = self.span(s)
        out(f"_v = {self.expr(s.amount, {})}")
        if RefKind.LOCAL in (s.source.ref.kind, s.dest.ref.kind):
            src, dst = self.place_ref(s.source), self.place_ref(s.dest)
            out(f"_a, _b = st.read_place({src}, env), st.read_place({dst}, env)")
            write = f"st.write_places((({src}, _a), ({dst}, _b)), env, _S[{k}])"
        else:
            (ga, ia, ka, ra), (gb, ib, kb, rb) = self.var_ref(s.source, "_ka"), self.var_ref(s.dest, "_kb")
            out(f"_ka, _kb = {ka}, {kb}")
            out(f"_a, _b = {ra}, {rb}")
            write = f"st.write_vars((({ga}, {ia}, _ka, _a), ({gb}, {ib}, _kb, _b)), _S[{k}])"
        if bag:
            out(f"_a, _b = _bag_sub(_a, _v, _S[{k}]), _bag_add(_b, _v)")
        else:
            out("_a, _b = _a - _v, _b + _v")
        out(write)

    def var_ref(self, t: A.Expr, key: str) -> tuple:
        """(group, index, the text of its player or key, the text reading it once `key` holds that) of a
        variable: group 0 shared, 1 per player, 2 keyed."""
        kind, name, g = t.ref.kind, t.ref.name, self.g
        if kind is RefKind.VAR:
            i = g.gvar_index[name]
            return 0, i, "None", f"st.gvars[{i}]"
        if kind is RefKind.PVAR:
            i = g.pvar_index[name]
            return 1, i, self.expr(t.obj, {}), f"st.pvars[{key}][{i}]"
        i = g.kvar_index[name]
        at = f"{self.const(('order',))}[{key}]" if g.kvars[i].keys is not None else key
        return 2, i, self.expr(t.key, {}), f"st.kvars[{i}][{at}]"

    def place_ref(self, t: A.Expr) -> str:
        """A place as the engine's (kind, index, player or key function) triple, for `read_place`."""
        kind, name = t.ref.kind, t.ref.name
        if kind is RefKind.LOCAL:
            return f"('local', {name!r}, None)"
        if kind is RefKind.VAR:
            return f"('gvar', {self.g.gvar_index[name]}, None)"
        if kind is RefKind.PVAR:
            return f"('pvar', {self.g.pvar_index[name]}, {self.root(t.obj)})"
        return f"('kvar', {self.g.kvar_index[name]}, {self.root(t.key)})"

    def s_ExprStmt(self, s: A.ExprStmt):
        c = s.expr
        code = self.procedure_code(c.name)
        self.out(f"p{code}(st, {self.call_env(c)})")
        if c.name in self.ending_procs:
            self.out("if st.over:")
            self.out("    return")

    def call_env(self, c: A.Call) -> str:
        params = self.sym.procedures[c.name][0].params
        items = "".join(f"{p.name!r}: {self.expr(a, {})}, " for p, a in zip(params, c.args))
        return f"_with_you({{{items}}}, env)"

    def s_If(self, s: A.If):
        out = self.out
        out(f"if {self.expr(s.cond, {})}:")
        self.inline_block(s.then)
        if s.other is not None and s.other.stmts:
            out("else:")
            self.inline_block(s.other)

    def inline_block(self, b: A.Block, first: list = ()) -> None:
        out = self.out
        out.indent()
        for line in first:
            out(line)
        self.stmts(b.stmts, "inline")
        if not b.stmts and not first:
            out("pass")
        out.indent(-1)

    def tick(self, b: A.Block, at) -> list:
        """The lines that count one pass of an inline loop against the run's step limit."""
        k = self.span(b.stmts[0] if b.stmts else at)
        return ["st.steps += 1", "if st.steps > st.step_limit:", f"    st.runaway(_S[{k}])"]

    def s_For(self, s: A.For):
        var = self.fresh("_x")
        self.out(f"for {var} in tuple({self.coll(s.source, {}, copy=False)}):")
        self.blocks += 1
        self.inline_block(s.body, [f"env[{s.var!r}] = {var}", *self.tick(s.body, s)])
        self.blocks -= 1

    def s_Repeat(self, s: A.Repeat):
        out, n = self.out, self.fresh("_n")
        out(f"{n} = {self.expr(s.count, {})}")
        out(f"if {n} > _MAX_LOOP:")
        out(f"    raise _repeat_limit({n}, _S[{self.span(s)}])")
        out(f"for _ in range({n}):")
        self.blocks += 1
        self.inline_block(s.body, self.tick(s.body, s))
        self.blocks -= 1

    def s_While(self, s: A.While):
        out, k = self.out, self.fresh("_k")
        out(f"{k} = 0")
        out(f"while {self.expr(s.cond, {})}:")
        self.blocks += 1
        self.inline_block(s.body, self.tick(s.body, s))
        self.blocks -= 1
        out.indent()
        out(f"{k} += 1")
        out(f"if {k} >= _MAX_LOOP:")
        out(f"    raise _loop_limit(_S[{self.span(s.body)}])")
        out(f"_s = {self.span(s)}")
        out.indent(-1)

    def cards(self, e: A.Expr) -> str:
        """A tuple of card ids for a card, list or zone expression."""
        if e.ty is not None and e.ty.kind == "card":
            return f"({self.expr(e, {})},)"
        if e.ty is not None and e.ty.kind == "zone":
            return self.coll(e, {})
        return f"tuple({self.expr(e, {})})"

    def s_Move(self, s: A.Move):
        rest = f"{self.expr(s.dest, {})}, {s.place!r}, {s.facing!r}, _S[{self.span(s)}]"
        c = s.cards
        if isinstance(c, A.Slice) and c.end == "top" and c.source.ty is not None and c.source.ty.kind == "zone":
            self.out(f"st.move_top({self.expr(c.source, {})}, {self.expr(c.count, {})}, {rest})")
        elif c.ty is not None and c.ty.kind == "zone":
            self.out(f"st.move_all({self.expr(c, {})}, {rest})")
        else:
            self.out(f"st.move({self.cards(c)}, {rest})")

    def s_Shuffle(self, s: A.Shuffle):
        self.out(f"st.shuffle({self.expr(s.zone, {})})")

    def s_Peek(self, s: A.Peek):
        self.out(f"st.peek({self.cards(s.cards)}, {self.expr(s.by, {})})")

    def s_Reveal(self, s: A.Reveal):
        self.out(f"st.reveal({self.cards(s.cards)})")

    def s_Turn(self, s: A.Turn):
        self.out(f"st.turn({self.cards(s.cards)}, {s.facing == 'up'!r})")

    def s_Swap(self, s: A.Swap):
        self.out(f"st.swap({self.expr(s.first, {})}, {self.expr(s.second, {})}, _S[{self.span(s)}])")

    def s_Announce(self, s: A.Announce):
        self.out(f"_P[{self.announcement(s)}].run(st, env)")

    def s_Log(self, s: A.Log):
        values = "".join(f"{self.expr(p, {})}, " for p in s.parts)
        point = self.say_point(s)
        if any(has_card_refs(p.ty) for p in s.parts):
            self.out(f"_P[{point}].run(st, ({values}))")
        else:  # a compact entry of the log (interpreter/log.py)
            self.out(f"st.log.append(({int(Entry.SAY)}, ({values}), {point}))")

    def s_Emit(self, s: A.Emit):
        args = "".join(f"{self.expr(a, {})}, " for a in s.args)
        self.out(f"st.emit(('custom', {s.name!r}), ({args}))")

    def s_Require(self, s: A.Require):
        self.out(f"if not {self.expr(s.cond, {})}:")
        self.out(f"    raise _required({s.message!r}, _S[{self.span(s)}])")

    def s_EndGame(self, s: A.EndGame):
        self.out("st.end_game()")
        self.out("return")
