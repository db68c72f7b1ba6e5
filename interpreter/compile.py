"""Stage 4: checked syntax tree → runtime rules. Expressions become Python closures `f(state, env)`;
statements become op objects (interpreter/effects.py) in numbered code blocks that stack frames point at.
Nothing from a file is ever passed to eval or exec."""
from __future__ import annotations

import operator

from dsl import ast as A
from dsl.errors import WishRuntimeError
from dsl.refs import RefKind

from . import effects as E

MAX_CALL_DEPTH = 200
LASTING_LIMIT = 50_000  # results kept of functions that read only their arguments; then the cache starts again
STATE_BUILTINS = {"next", "after", "owner", "random"}  # builtins that read the state (the table, the dice)


def lasting_functions(functions: dict) -> set:
    """The functions whose result depends on their arguments alone, so it holds while the state changes:
    they read no variable, zone, parameter, card identity or player count (enum data only), and call only
    such functions (`fits(acts, columns)` in Wish). A card's identity is left out on purpose: samples of an
    information set change identities under the same game."""
    facts = {}
    for name, (f, *_) in functions.items():
        reads, calls = False, set()
        for node, _ in A.walk(f.body):
            if not isinstance(node, A.Expr):
                continue
            ref = node.ref
            if isinstance(node, A.Name):
                reads |= ref is None or not ref.is_(RefKind.LOCAL, RefKind.MEMBER, RefKind.ENUM)
            elif isinstance(node, A.FieldOf):
                reads |= ref is None or ref.kind is not RefKind.EFIELD
            elif isinstance(node, A.Call):
                if ref is not None and ref.kind is RefKind.FUNC:
                    calls.add(ref.name)
                else:
                    reads |= ref is None or ref.name in STATE_BUILTINS
        facts[name] = (reads, calls)
    lasting = {name for name, (reads, _) in facts.items() if not reads}
    while True:  # a function calling one that reads the state reads it too
        reading = {name for name in lasting if not facts[name][1] <= lasting}
        if not reading:
            return lasting
        lasting -= reading


def fail(span, message):
    raise WishRuntimeError(message, span)


class Compiler:
    """Compiles expressions and statements of one resolved game into `game.codes`."""

    def __init__(self, game):
        self.g = game
        self.sym = game.sym
        self.lasting_names = lasting_functions(self.sym.functions)
        self.lasting: dict = {}  # (function, arguments) → result, for the functions in lasting_names

    # ---------------------------------------------------------------- expressions
    def expr(self, e: A.Expr):
        return getattr(self, "x_" + type(e).__name__)(e)

    def coll(self, e: A.Expr):
        """An expression used as a collection: zones become the tuple of their cards."""
        f = self.expr(e)
        if e.ty is not None and e.ty.kind == "zone":
            return lambda st, env: tuple(st.zones[f(st, env)])
        return f

    def x_Literal(self, e):
        v = e.value
        return lambda st, env: v

    def x_Name(self, e: A.Name):
        ref = e.ref
        kind = ref.kind
        if kind is RefKind.LOCAL:
            name = ref.name
            return lambda st, env: env[name]
        if kind is RefKind.YOU:
            return lambda st, env: env["you"]
        if kind is RefKind.SELF:
            return lambda st, env: env["self"]
        if kind is RefKind.PLAYERS:
            return lambda st, env: st.seats
        if kind is RefKind.VAR:
            i = self.g.gvar_index[ref.name]
            return lambda st, env: st.gvars[i]
        if kind is RefKind.PARAM:
            i = self.g.param_index[ref.name]
            return lambda st, env: st.param(i, None)
        if kind is RefKind.ZONE:
            slot = self.g.zone_base[ref.name]
            return lambda st, env: slot
        if kind is RefKind.MEMBER:
            v = ref.name
            return lambda st, env: v
        if kind is RefKind.ENUM:
            v = tuple(m.name for m in self.sym.enums[ref.name].members)
            return lambda st, env: v
        raise AssertionError(ref)

    def x_FieldOf(self, e: A.FieldOf):
        obj = self.expr(e.obj)
        kind, name = e.ref.kind, e.ref.name
        if kind is RefKind.PVAR:
            i = self.g.pvar_index[name]
            return lambda st, env: st.pvars[obj(st, env)][i]
        if kind is RefKind.PPARAM:
            i = self.g.param_index[name]
            return lambda st, env: st.param(i, obj(st, env))
        if kind is RefKind.PZONE:
            zi = self.g.pzone_index[name]
            return lambda st, env: st.pzone_slot(zi, obj(st, env))
        # A card's identity is the state's (st.ids), looked up at run time: samples of an information set are
        # states of the same game with other identities.
        if kind is RefKind.EFIELD:
            data = self.g.enum_data
            return lambda st, env: data[obj(st, env)][name]
        if kind is RefKind.CBUILTIN:
            return lambda st, env: st.game.card_defs[st.ids.of[obj(st, env)]].name
        if kind is RefKind.CFIELD:
            return lambda st, env: st.game.card_defs[st.ids.of[obj(st, env)]].fields[name]
        raise AssertionError(e.ref)

    def x_Index(self, e: A.Index):
        if e.ref.kind is RefKind.BAGCOUNT:
            bag, member, order = self.expr(e.obj), self.expr(e.key), self.g.member_order
            return lambda st, env: bag(st, env)[order[member(st, env)]]
        i = self.g.kvar_index[e.obj.name]
        key = self.expr(e.key)
        info = self.g.kvars[i]
        return lambda st, env: st.kvars[i][info.key_index(st.game, key(st, env))]

    def x_Call(self, e: A.Call):
        kind, name = e.ref.kind, e.ref.name
        if kind is RefKind.FUNC:
            return self.call_function(e)
        return self.builtin(e, name)

    def call_function(self, e: A.Call):
        g = self.g
        name = e.name
        f_decl = self.sym.functions[name][0]
        pnames = [p.name for p in f_decl.params]
        args = [self.expr(a) for a in e.args]
        span = e.span

        def evaluate(st, argv, memo, key):
            st.call_depth += 1
            try:
                if st.call_depth > MAX_CALL_DEPTH:
                    fail(span, f"function '{name}' calls itself more than {MAX_CALL_DEPTH} deep")
                result = memo[key] = g.functions[name](st, dict(zip(pnames, argv)))
                return result
            except RecursionError:
                fail(span, f"function '{name}' calls itself too deep for Python's stack (its expressions nest deeply)")
            finally:
                st.call_depth -= 1

        if name in self.lasting_names:
            lasting = self.lasting

            def call_lasting(st, env):
                argv = tuple(a(st, env) for a in args)
                key = (name, argv)
                if key in lasting:
                    return lasting[key]
                if len(lasting) >= LASTING_LIMIT:
                    lasting.clear()
                return evaluate(st, argv, lasting, key)
            return call_lasting

        def call(st, env):
            argv = tuple(a(st, env) for a in args)
            memo = st.memo
            if st.memo_version != st.version:  # functions are pure: results hold until the state changes
                memo.clear()
                st.memo_version = st.version
            key = (name, argv)
            if key in memo:
                return memo[key]
            return evaluate(st, argv, memo, key)
        return call

    def generator(self, g: A.Generator):
        """A closure giving the tuple of values a generator produces (clauses nest left to right)."""
        clauses = [(cl.var, self.coll(cl.source), self.expr(cl.cond) if cl.cond else None) for cl in g.clauses]
        elem = self.expr(g.elem)

        def gen(st, env):
            out = []
            local = dict(env)

            def walk(i):
                if i == len(clauses):
                    out.append(elem(st, local))
                    return
                var, src, cond = clauses[i]
                for x in src(st, local):
                    local[var] = x
                    if cond is None or cond(st, local):
                        walk(i + 1)
            walk(0)
            return tuple(out)
        return gen

    def items(self, e: A.Call):
        """The values a builtin works on: its generator's, or its one argument's."""
        if e.gen is not None:
            return self.generator(e.gen)
        return self.coll(e.args[0])

    def builtin(self, e: A.Call, name: str):
        span = e.span
        if name in ("min", "max") and e.gen is None and len(e.args) == 2:
            a, b = self.expr(e.args[0]), self.expr(e.args[1])
            pick = min if name == "min" else max
            return lambda st, env: pick(a(st, env), b(st, env))
        if name == "next":
            p = self.expr(e.args[0])
            return lambda st, env: (p(st, env) + 1) % st.n
        if name == "after":
            p = self.expr(e.args[0])
            return lambda st, env: tuple((p(st, env) + k) % st.n for k in range(1, st.n))
        if name == "abs":
            a = self.expr(e.args[0])
            return lambda st, env: abs(a(st, env))
        if name == "rest":
            xs = self.coll(e.args[0])
            return lambda st, env: tuple(xs(st, env))[1:]
        if name == "remove":
            xs, x = self.coll(e.args[0]), self.expr(e.args[1])

            def remove(st, env):
                items, item = list(xs(st, env)), x(st, env)
                if item in items:
                    items.remove(item)
                return tuple(items)
            return remove
        if name == "bag":
            m, n = self.expr(e.args[0]), self.expr(e.args[1])
            members = self.g.enum_members[e.ty.elem.name]
            span = e.span

            def one(st, env):
                k, member = n(st, env), m(st, env)
                if k < 0:
                    fail(span, f"a bag cannot hold {k} {member}")
                return tuple(k if x == member else 0 for x in members)
            return one
        if name == "members":
            b = self.expr(e.args[0])
            members = self.g.enum_members[e.args[0].ty.elem.name]
            return lambda st, env: tuple(x for x, k in zip(members, b(st, env)) if k > 0)
        if name == "owner":
            c = self.expr(e.args[0])
            return lambda st, env: st.lay.slot_owner[st.where[c(st, env)]]
        items = self.items(e)
        arg_ty = e.args[0].ty if e.gen is None else None
        if name == "count":
            if arg_ty is not None and arg_ty.kind == "bag":
                return lambda st, env: sum(items(st, env))
            return lambda st, env: len(items(st, env))
        if name == "sum":
            return lambda st, env: sum(items(st, env))
        if name == "any":
            return lambda st, env: any(items(st, env))
        if name == "all":
            return lambda st, env: all(items(st, env))

        def nonempty(st, env):
            xs = items(st, env)
            if not xs:
                fail(span, f"{name}() of an empty collection")
            return xs
        if name == "min":
            return lambda st, env: min(nonempty(st, env))
        if name == "max":
            return lambda st, env: max(nonempty(st, env))
        if name == "first":
            return lambda st, env: nonempty(st, env)[0]
        if name == "last":
            return lambda st, env: nonempty(st, env)[-1]
        if name == "random":
            return lambda st, env: st.random_pick(nonempty(st, env))
        raise AssertionError(name)

    def x_ListLit(self, e: A.ListLit):
        if e.gen is not None:
            return self.generator(e.gen)
        parts = [self.expr(i) for i in e.items]
        return lambda st, env: tuple(p(st, env) for p in parts)

    def x_SetLit(self, e: A.SetLit):
        if e.ty is not None and e.ty.kind == "bag":  # `{}` as an empty bag
            zero = tuple(0 for _ in self.g.enum_members.get(e.ty.elem.name, ()))
            return lambda st, env: zero
        parts = [self.expr(i) for i in e.items]
        order = self.g.member_order
        return lambda st, env: tuple(sorted({p(st, env) for p in parts}, key=order.__getitem__))

    def x_BagLit(self, e: A.BagLit):
        en = e.ty.elem.name
        members = [m.name for m in self.sym.enums[en].members] if en else []
        parts = {name: self.expr(v) for name, v, _ in e.items}
        spans = {name: v.span for name, v, _ in e.items}

        def bag(st, env):
            out = []
            for m in members:
                f = parts.get(m)
                k = f(st, env) if f else 0
                if k < 0:
                    fail(spans[m], f"a bag cannot hold {k} {m}")
                out.append(k)
            return tuple(out)
        return bag

    def x_Slice(self, e: A.Slice):
        n = self.expr(e.count)
        src = self.coll(e.source)
        if e.end == "top":
            return lambda st, env: tuple(src(st, env)[:max(0, n(st, env))])

        def bottom(st, env):
            k = n(st, env)
            xs = src(st, env)
            return tuple(xs[-k:]) if k > 0 else ()
        return bottom

    def x_IfExpr(self, e: A.IfExpr):
        c, a, b = self.expr(e.cond), self.expr(e.then), self.expr(e.other)
        return lambda st, env: a(st, env) if c(st, env) else b(st, env)

    def x_UnOp(self, e: A.UnOp):
        a = self.expr(e.operand)
        if e.op == "not":
            return lambda st, env: not a(st, env)
        return lambda st, env: -a(st, env)

    def x_BinOp(self, e: A.BinOp):
        op = e.op
        if op == "and":
            a, b = self.expr(e.left), self.expr(e.right)
            return lambda st, env: a(st, env) and b(st, env)
        if op == "or":
            a, b = self.expr(e.left), self.expr(e.right)
            return lambda st, env: a(st, env) or b(st, env)
        if op in ("in", "not in"):
            a = self.expr(e.left)
            if e.right.ty.kind == "bag":
                b = self.expr(e.right)
                idx = self.g.member_index
                test = lambda st, env: b(st, env)[idx[a(st, env)]] > 0  # noqa: E731
            else:
                b = self.coll(e.right)
                test = lambda st, env: a(st, env) in b(st, env)  # noqa: E731
            if op == "in":
                return test
            return lambda st, env: not test(st, env)
        a, b = self.expr(e.left), self.expr(e.right)
        lt, rt = e.left.ty, e.right.ty
        if op in ("+", "-") and (lt.kind == "bag" or rt.kind == "bag"):
            return self.bag_arith(e, a, b)
        if op == "+" and lt.kind in ("list", "zone") and rt.kind in ("list", "zone"):
            a, b = self.coll(e.left), self.coll(e.right)
            return lambda st, env: a(st, env) + b(st, env)
        span = e.span
        if op == "/":
            def div(st, env):
                d = b(st, env)
                if d == 0:
                    fail(span, "division by zero")
                return a(st, env) // d
            return div
        if op == "%":
            def mod(st, env):
                d = b(st, env)
                if d == 0:
                    fail(span, "division by zero")
                return a(st, env) % d
            return mod
        fn = {"+": operator.add, "-": operator.sub, "*": operator.mul, "==": operator.eq, "!=": operator.ne,
              "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]
        return lambda st, env: fn(a(st, env), b(st, env))

    def bag_arith(self, e, a, b):
        span = e.span
        if e.op == "+":
            return lambda st, env: E.bag_add(a(st, env), b(st, env))
        return lambda st, env: E.bag_sub(a(st, env), b(st, env), span)

    # ---------------------------------------------------------------- statements
    def block(self, block: A.Block, loop=None) -> int:
        """Compile a block into a new code entry and return its number."""
        code = E.Code(loop=loop, span=block.span)
        cid = self.g.add_code(code)
        code.ops = [self.stmt(s) for s in block.stmts]
        for i, op in enumerate(code.ops):
            op.code, op.index = cid, i
        return cid

    def stmt(self, s: A.Stmt):
        return getattr(self, "s_" + type(s).__name__)(s)

    def s_Let(self, s: A.Let):
        return E.SetLocal(s.span, s.name, self.expr(s.value))

    def s_Assign(self, s: A.Assign):
        return E.Assign(s.span, self.place(s.target), s.op, self.expr(s.value), s.target.ty)

    def s_Transfer(self, s: A.Transfer):
        bag = s.amount.ty.kind == "bag"
        return E.TransferOp(s.span, self.expr(s.amount), self.place(s.source), self.place(s.dest), bag)

    def place(self, t: A.Expr):
        """(kind, index, player closure) of an assignable place."""
        ref = t.ref
        if ref.kind is RefKind.LOCAL:
            return ("local", ref.name, None)
        if ref.kind is RefKind.VAR:
            return ("gvar", self.g.gvar_index[ref.name], None)
        if ref.kind is RefKind.PVAR:
            return ("pvar", self.g.pvar_index[ref.name], self.expr(t.obj))
        if ref.kind is RefKind.KVAR:
            return ("kvar", self.g.kvar_index[ref.name], self.expr(t.key))
        raise AssertionError(ref)

    def s_ExprStmt(self, s: A.ExprStmt):
        c: A.Call = s.expr
        proc = self.sym.procedures[c.name][0]
        return E.CallProc(s.span, c.name, [p.name for p in proc.params], [self.expr(a) for a in c.args])

    def s_If(self, s: A.If):
        other = self.block(s.other) if s.other is not None else None
        return E.IfOp(s.span, self.expr(s.cond), self.block(s.then), other)

    def s_For(self, s: A.For):
        return E.ForOp(s.span, s.var, self.coll(s.source), self.block(s.body, loop=("for", s.var)))

    def s_Repeat(self, s: A.Repeat):
        return E.RepeatOp(s.span, self.expr(s.count), self.block(s.body, loop=("repeat",)))

    def s_While(self, s: A.While):
        cond = self.expr(s.cond)
        return E.WhileOp(s.span, cond, self.block(s.body, loop=("while", cond)))

    def cards(self, e: A.Expr):
        """A closure giving a tuple of card ids for a card, list or zone expression."""
        f = self.coll(e)
        if e.ty is not None and e.ty.kind == "card":
            return lambda st, env: (f(st, env),)
        return f

    def s_Move(self, s: A.Move):
        return E.MoveOp(s.span, self.cards(s.cards), self.expr(s.dest), s.place, s.facing)

    def s_Shuffle(self, s: A.Shuffle):
        return E.ShuffleOp(s.span, self.expr(s.zone))

    def s_Peek(self, s: A.Peek):
        return E.PeekOp(s.span, self.cards(s.cards), self.expr(s.by))

    def s_Reveal(self, s: A.Reveal):
        return E.RevealOp(s.span, self.cards(s.cards))

    def s_Turn(self, s: A.Turn):
        return E.TurnOp(s.span, self.cards(s.cards), s.facing)

    def s_Swap(self, s: A.Swap):
        return E.SwapOp(s.span, self.expr(s.first), self.expr(s.second))

    def s_Announce(self, s: A.Announce):
        return E.AnnounceOp(s.span, self.expr(s.value), s.value.ty)

    def s_Log(self, s: A.Log):
        return E.LogOp(s.span, [(self.expr(p), p.ty) for p in s.parts])

    def s_Choose(self, s: A.Choose):
        by = self.expr(s.by) if s.by is not None else (lambda st, env: env["you"])
        among = self.coll(s.options)
        return E.ChooseOp(s.span, self.place(s.target), self.options(s, among), s.options.ty.element(), by,
                          s.prompt, s.verb or self.verb(s.target), s.distinct, s.skip, among)

    def options(self, s, among=None):
        """The options of a choice (`among`: the collection, already compiled); with `distinct`, options that
        look the same to the decider come once; with `optional "label"`, a last option chooses none."""
        f = among if among is not None else self.coll(s.options)
        if s.skip is not None:
            g = f
            f = lambda st, env: tuple(g(st, env)) + (None,)  # noqa: E731
        if not s.distinct:
            return f
        is_card = s.options.ty.element().kind == "card"
        return lambda st, env, who: st.distinct_options(f(st, env), is_card, who)

    def verb(self, target: A.Expr) -> str:
        return target.name if isinstance(target, (A.Name, A.FieldOf)) else "choose"

    def s_Simultaneous(self, s: A.Simultaneous):
        return E.SimultaneousOp(s.span, s.var, self.coll(s.players), self.place(s.target), self.options(s),
                                s.options.ty.element(), s.prompt, s.verb or self.verb(s.target), s.distinct,
                                s.skip)

    def s_Act(self, s: A.Act):
        return E.ActOp(s.span, list(s.actions), self.expr(s.by), s.prompt)

    def s_Resolve(self, s: A.Resolve):
        return E.ResolveOp(s.span, self.expr(s.card))

    def s_Emit(self, s: A.Emit):
        return E.EmitOp(s.span, s.name, [self.expr(a) for a in s.args])

    def s_Require(self, s: A.Require):
        return E.RequireOp(s.span, self.expr(s.cond), s.message)

    def s_EndGame(self, s: A.EndGame):
        return E.EndGameOp(s.span)
