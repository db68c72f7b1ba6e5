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
        if isinstance(s, (*DECISIONS, A.Resolve)):
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
    def frame_function(self, code: int, block: A.Block, kind: FrameKind, name: str, loop=None,
                       trigger=None) -> None:
        """Compile `block` into the frame function of code number `code`. `loop` is the statement whose body
        this is (For, Repeat, While), `trigger` the index of the trigger whose body it is."""
        self.block_spans[code] = block.span
        self.blocks = 2 if loop is not None else 1
        out = self.out
        out(f"def b{code}(st, f):  # {name!r}, line {block.span.line}")
        out.indent()
        out("env = f.env")
        out(f"_s = {self.span(block)}")
        out("try:")
        out.indent()
        if loop is not None:
            out("while True:")
            out.indent()
        out("pc = f.pc")
        if trigger is not None:
            out("if pc == 0 and not st.trigger_holds(f):")
            out("    return True")
        pc = 0
        out(f"if pc <= {pc}:")
        out.indent()
        body_start = len(out.lines)
        for s in block.stmts:
            if not self.stops(s):
                self.stmt(s, "frame")
                continue
            if isinstance(s, DECISIONS):
                pc = self.next_segment(pc, body_start)
                body_start = len(out.lines)
            pc = self.stopping(s, pc + 1)
            out.indent(-1)
            out(f"if pc <= {pc}:")
            out.indent()
            body_start = len(out.lines)
        if len(out.lines) == body_start:
            out("pass")
        out.indent(-1)
        if loop is None:
            out("return True")
        else:
            self.loop_advance(loop, kind)
            out.indent(-1)
        out.indent(-1)
        out("except _ERRORS as err:")
        out("    raise _failed(st, err, _S[_s]) from None")
        out.indent(-1)
        out("")

    def next_segment(self, pc: int, body_start: int) -> int:
        """Close the open segment (unless it is still empty) and open the next: a decision is asked in a
        segment of its own, so that asking again (`State.repose`) runs only the asking."""
        out = self.out
        if len(out.lines) == body_start:
            return pc
        out.indent(-1)
        out(f"if pc <= {pc + 1}:")
        out.indent()
        return pc + 1

    def stopping(self, s: A.Stmt, resume: int) -> int:
        """Emit a statement that may stop, resuming at segment `resume`; return that segment."""
        out = self.out
        k = self.span(s)
        out(f"_s = {k}")
        stop = [f"f.pc = {resume}", "return"]
        if isinstance(s, DECISIONS):
            point = self.decision_point(s)
            out(f"if _P[{point}].ask(st, env):")
            self.lines_in(stop)
        elif isinstance(s, A.Resolve):
            out(f"if st.resolve_instant({self.expr(s.card, {})}, f.depth, _S[{k}]):")
            self.lines_in(stop)
        elif isinstance(s, A.ExprStmt):
            out(f"{stop[0]}")
            out(f"st.push({self.procedure_code(s.expr.name)}, {self.call_env(s.expr)}, _BLOCK, None, f.depth, "
                f"_S[{k}])")
            out("return")
        elif isinstance(s, A.If):
            self.stopping_if(s, stop, k)
        elif isinstance(s, (A.For, A.Repeat, A.While)):
            self.stopping_loop(s, stop, k)
        else:
            self.stmt(s, "frame")
            out("if st.stack[-1] is not f:")
            self.lines_in(stop)
        return resume

    def lines_in(self, lines: list) -> None:
        self.out.indent()
        for line in lines:
            self.out(line)
        self.out.indent(-1)

    def stopping_if(self, s: A.If, stop: list, k: int) -> None:
        out = self.out
        out(f"if {self.expr(s.cond, {})}:")
        self.branch(s.then, stop, k)
        if s.other is not None:
            out("else:")
            self.branch(s.other, stop, k)

    def branch(self, block: A.Block, stop: list, k: int) -> None:
        """A branch of an `if`: its own frame when it may stop, else plain statements."""
        out = self.out
        out.indent()
        if self.block_stops(block):
            code = self.deferred(block, FrameKind.BLOCK, "")
            out(stop[0])
            out(f"st.push({code}, env, _BLOCK, None, f.depth, _S[{k}])")
            out("return")
        else:
            self.stmts(block.stmts, "frame")
        out.indent(-1)

    def stopping_loop(self, s, stop: list, k: int) -> None:
        out = self.out
        if isinstance(s, A.For):
            code = self.deferred(s.body, FrameKind.FOR, "", loop=s)
            out(f"_items = tuple({self.coll(s.source, {}, copy=False)})")
            out("if _items:")
            self.lines_in([f"env[{s.var!r}] = _items[0]", stop[0],
                           f"st.push({code}, env, _FOR, (_items, 0), f.depth, _S[{k}])", "return"])
        elif isinstance(s, A.Repeat):
            code = self.deferred(s.body, FrameKind.REPEAT, "", loop=s)
            out(f"_n = {self.expr(s.count, {})}")
            out("if _n > _MAX_LOOP:")
            out(f"    raise _repeat_limit(_n, _S[{k}])")
            out("if _n > 0:")
            self.lines_in([stop[0], f"st.push({code}, env, _REPEAT, (_n, 1), f.depth, _S[{k}])", "return"])
        else:
            code = self.deferred(s.body, FrameKind.WHILE, "", loop=s)
            out(f"if {self.expr(s.cond, {})}:")
            self.lines_in([stop[0], f"st.push({code}, env, _WHILE, 1, f.depth, _S[{k}])", "return"])

    def loop_advance(self, loop, kind: FrameKind) -> None:
        """The end of a loop body run in its own frame: the next pass, or True when the loop is done."""
        out = self.out
        if kind is FrameKind.FOR:
            out("_items, _i = f.data")
            out("_i += 1")
            out("if _i >= len(_items):")
            out("    return True")
            out(f"env[{loop.var!r}] = _items[_i]")
            out("f.data = (_items, _i)")
        elif kind is FrameKind.REPEAT:
            out("_n, _i = f.data")
            out("if _i >= _n:")
            out("    return True")
            out("f.data = (_n, _i + 1)")
        else:
            out("if f.data >= _MAX_LOOP:")
            out(f"    raise _loop_limit(_S[{self.span(loop.body)}])")
            out(f"_s = {self.span(loop)}")
            out(f"if not {self.expr(loop.cond, {})}:")
            out("    return True")
            out("f.data += 1")
        out("f.pc = 0")
        first = loop.body.stmts[0] if loop.body.stmts else loop
        out("st.steps += 1")
        out("if st.steps > st.step_limit:")
        out(f"    st.runaway(_S[{self.span(first)}])")

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
        self.pending.append((code, s, None, "", None, None))
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
        self.write_place(t, "_v", s)

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
