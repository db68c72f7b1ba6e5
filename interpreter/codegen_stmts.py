"""Statements of a checked game as Python statements (the statement half of interpreter/codegen.py): each
statement that runs straight through, between the stops that interpreter/codegen_frames.py cuts a rule at.

Every statement sets `_s` to its index in the table of spans, so a Python error in a user's rule is reported
at the statement (runtime.failed).
"""
from __future__ import annotations

from dsl import ast as A
from dsl.refs import RefKind

from .log import Entry, has_card_refs

MAX_BLOCKS = 12  # Python loops nested in one generated function (CPython refuses more than 20 blocks)
MAX_LEVEL = 40  # indentation levels of one generated function (CPython refuses more than 100)


class StmtGen:
    """A mixin of the code generator: statements that run straight through."""

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
        change of the state, as it always has: remembered function results are forgotten (`st.memo`)."""
        kind, name = t.ref.kind, t.ref.name
        g, out, k, scope = self.g, self.out, self.span(s), scope or {}
        if kind is RefKind.LOCAL:
            out("st.memo.clear()")
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
            out("st.memo.clear()")
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
