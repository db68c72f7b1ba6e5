"""Expressions of a checked game as Python expression text (the expression half of interpreter/codegen.py).

Every expression becomes one Python expression over `st` (the State), `env` (the locals of the running rule)
and the comprehension variables of enclosing generators. Only the checked syntax tree is read: names become
indices into the Game's tables or `env[…]` with the name as a `repr()` literal, literals are `repr()` of an
int, bool, str or None, and no other text of the file reaches the generated code.

Values are those the engine has always held: ints, bools, strs (texts and enum members), None, card instance
ids, zone slots, tuples (lists, sets in member order, bags as counts per member). Collections that feed a
builtin are built eagerly, as list comprehensions, so `random()` and errors inside them happen exactly when
and as often as they always did.
"""
from __future__ import annotations

import symtable

from dsl import ast as A
from dsl.refs import RefKind

# builtins that read the state (the table, the dice, the order answers arrived in)
STATE_BUILTINS = {"next", "after", "owner", "random", "first_to_answer"}
ARITH = {"+": "+", "-": "-", "*": "*", "==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class ExprGen:
    """A mixin of the code generator: `expr(e, scope)` is the Python text of expression `e`.

    `scope` maps the names bound by enclosing generators and function parameters to their Python names;
    every other local is read from `env`. The generator provides `g` (the Game being built), `const(value)`
    (a name for a table held in the namespace) and `span(node)` (an index into the table of spans)."""

    of_ref = "st.ids.of"  # how a card's definition is read: `hoisting_of` makes it a local of the function

    def hoisting_of(self, make) -> tuple:
        """`make()`'s text with each card's definition read from a local `_of`, and the first lines of the function
        that holds it (`_of = st.ids.of` when the text reads it): one read of the identities, where a loop over
        cards read them once per card."""
        saved, self.of_ref = self.of_ref, "_of"
        try:
            text = make()
        finally:
            self.of_ref = saved
        return text, (["_of = st.ids.of"] if "_of[" in text else [])

    def expr(self, e: A.Expr, scope: dict) -> str:
        return getattr(self, "x_" + type(e).__name__)(e, scope)

    def coll(self, e: A.Expr, scope: dict, copy: bool = True) -> str:
        """An expression used as a collection: a zone is its cards (a tuple when `copy`, the list itself for
        reading right away)."""
        text = self.expr(e, scope)
        if e.ty is not None and e.ty.kind == "zone":
            return f"tuple(st.zones[{text}])" if copy else f"st.zones[{text}]"
        return text

    # ---------------------------------------------------------------- names and fields
    def x_Literal(self, e: A.Literal, scope) -> str:
        v = e.value
        if v is None or isinstance(v, (bool, int, str)):
            return repr(v)
        raise AssertionError(f"literal of type {type(v).__name__}")

    def x_Name(self, e: A.Name, scope) -> str:
        kind, name = e.ref.kind, e.ref.name
        g = self.g
        if kind is RefKind.LOCAL:
            return scope.get(name) or f"env[{name!r}]"
        if kind is RefKind.YOU:
            return scope.get("you") or "env['you']"
        if kind is RefKind.SELF:
            return scope.get("self") or "env['self']"
        if kind is RefKind.PLAYERS:
            return "st.seats"
        if kind is RefKind.VAR:
            return f"st.gvars[{g.gvar_index[name]}]"
        if kind is RefKind.PARAM:
            return self.param(name, "None")
        if kind is RefKind.ZONE:
            return repr(g.zone_base[name])
        if kind is RefKind.MEMBER:
            return repr(name)
        if kind is RefKind.ENUM:
            return repr(tuple(m.name for m in self.sym.enums[name].members))
        raise AssertionError(e.ref)

    def param(self, name: str, player: str) -> str:
        """A parameter's value: its literal when it has one and no card's Static ability changes it, else the
        engine's lookup."""
        value = self.sym.params[name][0].value
        if name in self.static_params:
            return f"st.param({self.g.param_index[name]}, {player})"
        if isinstance(value, A.Literal) and value.value is not None:
            return repr(value.value)
        return f"{self.param_function(name)}(st, {player})"

    def x_FieldOf(self, e: A.FieldOf, scope) -> str:
        obj = self.expr(e.obj, scope)
        kind, name = e.ref.kind, e.ref.name
        g = self.g
        if kind is RefKind.PVAR:
            return f"st.pvars[{obj}][{g.pvar_index[name]}]"
        if kind is RefKind.PPARAM:
            return self.param(name, obj)
        if kind is RefKind.PZONE:  # the zones of one kind, one per player, lie side by side
            k = g.pzone_index[name]
            return f"({g.pzone_base} + {k} * st.n + {obj})" if k else f"({g.pzone_base} + {obj})"
        if kind is RefKind.EFIELD:
            return f"{self.const(('efield', name))}[{obj}]"
        if kind is RefKind.CBUILTIN:
            return f"{self.const(('cname',))}[{self.of_ref}[{obj}]]"
        if kind is RefKind.CFIELD:
            return f"{self.const(('cfield', name))}[{self.of_ref}[{obj}]]"
        raise AssertionError(e.ref)

    def x_Index(self, e: A.Index, scope) -> str:
        g = self.g
        if e.ref.kind is RefKind.BAGCOUNT:
            bag, member = self.expr(e.obj, scope), self.expr(e.key, scope)
            return f"{bag}[{self.const(('order',))}[{member}]]"
        i = g.kvar_index[e.obj.name]
        key = self.expr(e.key, scope)
        if g.kvars[i].keys is not None:
            key = f"{self.const(('order',))}[{key}]"
        return f"st.kvars[{i}][{key}]"

    # ---------------------------------------------------------------- calls
    def x_Call(self, e: A.Call, scope) -> str:
        if e.ref.kind is RefKind.FUNC:
            return self.function_call(e.ref.name, [self.expr(a, scope) for a in e.args], self.span(e))
        return self.builtin(e, e.ref.name, scope)

    def generator(self, gen: A.Generator, scope: dict) -> str:
        """The text of a list comprehension for `gen` (clauses nest left to right)."""
        inner = dict(scope)
        parts = []
        for cl in gen.clauses:
            source = self.coll(cl.source, inner, copy=False)
            var = self.fresh("g")
            inner[cl.var] = var
            parts.append(f"for {var} in {source}")
            if cl.cond is not None:
                parts.append(f"if {self.expr(cl.cond, inner)}")
        body = f"{self.expr(gen.elem, inner)} {' '.join(parts)}"
        return f"[{body}]"

    def test_function(self, name: str, gen: A.Generator, scope: dict) -> str:
        """`any`/`all` of a generator as a call of a function of its own (`tN`) that loops and returns at the
        first answer: what a generator expression does, without making a generator and closing it early. It
        takes the names of the enclosing function that it reads (`st`, `env`, `you`, `who`, the variables of
        enclosing generators)."""
        text, first = self.hoisting_of(lambda: self.test_body(name, gen, scope))
        body = ["    " + line for line in first] + text.split("\n")
        fn = self.fresh("t")
        candidates = list(dict.fromkeys(["st", "env", "you", "who"] + sorted(set(scope.values()))))
        used = reads(f"def {fn}({', '.join(candidates)}):\n" + "\n".join(body) + "\n", candidates)
        self.tests_out.lines += [f"def {fn}({', '.join(used)}):  # {name}, line {gen.span.line}", *body]
        return f"{fn}({', '.join(used)})"

    def test_body(self, name: str, gen: A.Generator, scope: dict) -> str:
        """The loop of `test_function`, its lines joined."""
        inner = dict(scope)
        body, depth = [], 1
        for cl in gen.clauses:
            source = self.coll(cl.source, inner, copy=False)
            var = self.fresh("g")
            inner[cl.var] = var
            body.append("    " * depth + f"for {var} in {source}:")
            depth += 1
            if cl.cond is not None:
                body.append("    " * depth + f"if {self.expr(cl.cond, inner)}:")
                depth += 1
        elem = self.expr(gen.elem, inner)
        found = "True" if name == "any" else "False"
        body += ["    " * depth + (f"if {elem}:" if name == "any" else f"if not ({elem}):"),
                 "    " * (depth + 1) + f"return {found}", f"    return {'False' if name == 'any' else 'True'}"]
        return "\n".join(body)

    def items(self, e: A.Call, scope) -> str:
        """The values a builtin works on: its generator's list, or its one argument as a collection."""
        if e.gen is not None:
            return self.generator(e.gen, scope)
        return self.coll(e.args[0], scope, copy=False)

    def builtin(self, e: A.Call, name: str, scope) -> str:
        args = [self.expr(a, scope) for a in e.args] if e.gen is None else []
        span = self.span(e)
        if name in ("min", "max") and e.gen is None and len(e.args) == 2:
            return f"{name}({args[0]}, {args[1]})"
        if name == "next":
            return f"(({args[0]}) + 1) % st.n"
        if name == "after":
            return f"_after(st, {args[0]})"
        if name == "abs":
            return f"abs({args[0]})"
        if name == "rest":
            return f"tuple({self.coll(e.args[0], scope, copy=False)})[1:]"
        if name == "remove":
            return f"_remove({self.coll(e.args[0], scope, copy=False)}, {args[1]})"
        if name == "bag":  # the count is evaluated first, as it always was
            members = self.const(("members", e.ty.elem.name))
            return f"_one_bag({members}, {args[1]}, {args[0]}, {span})"
        if name == "members":
            members = self.const(("members", e.args[0].ty.elem.name))
            return f"_members({members}, {args[0]})"
        if name == "owner":
            return f"st.lay.slot_owner[st.where[{args[0]}]]"
        if name in ("any", "all") and e.gen is not None and not self.draws(e.gen):
            # Nothing in it draws at random: stopping at the first answer gives the same answer sooner (an
            # element that would fail after it is then never evaluated).
            return self.test_function(name, e.gen, scope)
        items = self.items(e, scope)
        arg_ty = e.args[0].ty if e.gen is None else None
        if name == "count":
            return f"sum({items})" if arg_ty is not None and arg_ty.kind == "bag" else f"len({items})"
        if name in ("sum", "any", "all"):
            return f"{name}({items})"
        if name in ("min", "max", "first", "last", "random", "first_to_answer"):
            return f"_{name}(st, {items}, {span})"
        raise AssertionError(name)

    # ---------------------------------------------------------------- collections
    def x_ListLit(self, e: A.ListLit, scope) -> str:
        if e.gen is not None:
            return f"tuple({self.generator(e.gen, scope)})"
        return "(" + "".join(f"{self.expr(i, scope)}, " for i in e.items) + ")"

    def x_SetLit(self, e: A.SetLit, scope) -> str:
        if e.ty is not None and e.ty.kind == "bag":  # `{}` as an empty bag
            return repr(tuple(0 for _ in self.g.enum_members.get(e.ty.elem.name, ())))
        parts = "".join(f"{self.expr(i, scope)}, " for i in e.items)
        return f"_set_of(({parts}), {self.const(('order',))})"

    def x_BagLit(self, e: A.BagLit, scope) -> str:
        en = e.ty.elem.name
        members = [m.name for m in self.sym.enums[en].members] if en else []
        given = {name: (self.expr(v, scope), self.span(v)) for name, v, _ in e.items}
        cells = []
        for m in members:
            if m in given:
                value, span = given[m]
                cells.append(f"_count({value}, {m!r}, {span})")
            else:
                cells.append("0")
        return "(" + "".join(f"{c}, " for c in cells) + ")"

    def x_Slice(self, e: A.Slice, scope) -> str:
        n, src = self.expr(e.count, scope), self.coll(e.source, scope, copy=False)
        if e.end == "top":
            return f"tuple({src}[:max(0, {n})])"
        return f"_bottom({n}, {src})"

    # ---------------------------------------------------------------- operators
    def x_IfExpr(self, e: A.IfExpr, scope) -> str:
        c, a, b = (self.expr(x, scope) for x in (e.cond, e.then, e.other))
        return f"({a} if {c} else {b})"

    def x_UnOp(self, e: A.UnOp, scope) -> str:
        a = self.expr(e.operand, scope)
        return f"(not {a})" if e.op == "not" else f"(-{a})"

    def x_BinOp(self, e: A.BinOp, scope) -> str:
        op = e.op
        if op in ("and", "or"):
            return f"({self.expr(e.left, scope)} {op} {self.expr(e.right, scope)})"
        if op in ("in", "not in"):
            a = self.expr(e.left, scope)
            if e.right.ty.kind == "bag":
                test = f"({self.expr(e.right, scope)}[{self.const(('order',))}[{a}]] > 0)"
            else:
                test = f"({a} in {self.coll(e.right, scope, copy=False)})"
            return test if op == "in" else f"(not {test})"
        lt, rt = e.left.ty, e.right.ty
        if op in ("+", "-") and (lt.kind == "bag" or rt.kind == "bag"):
            a, b = self.expr(e.left, scope), self.expr(e.right, scope)
            return f"_bag_add({a}, {b})" if op == "+" else f"_bag_sub({a}, {b}, {self.span(e)})"
        if op == "+" and lt.kind in ("list", "zone") and rt.kind in ("list", "zone"):
            return f"({self.coll(e.left, scope)} + {self.coll(e.right, scope)})"
        a, b = self.expr(e.left, scope), self.expr(e.right, scope)
        if op in ("/", "%"):  # the divisor first: division by zero is an error before the dividend is read
            return f"_{'div' if op == '/' else 'mod'}(_nonzero({b}, {self.span(e)}), {a})"
        return f"({a} {ARITH[op]} {b})"


def symbol_tables(top) -> list:
    """A symbol table and every one nested in it (functions, comprehensions)."""
    out, stack = [], [top]
    while stack:
        table = stack.pop()
        out.append(table)
        stack.extend(table.get_children())
    return out


def reads(text: str, names: list) -> list:
    """Which of `names` the one function of `text` reads (in its body or in comprehensions within it)."""
    fn, = symtable.symtable(text, "test", "exec").get_children()
    seen = {s.get_name() for t in symbol_tables(fn) for s in t.get_symbols() if s.is_referenced() or s.is_free()}
    return [n for n in names if n in seen]


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
