"""Stage 4: the checked game → one Python module of rules, compiled once per game (the rules of docs/design.md).

Only the checked, resolved syntax tree is read. Python names in the module are built by this generator from
fixed prefixes and numbers (`b12`, `x3`, `g7`); a name of the game appears only as the `repr()` of a str (an
environment key, a message); literals are `repr()` of an int, bool, str or None; cards, zones, enums, spans,
types and decision points are indices into tables the namespace holds. The module imports nothing: its
namespace is the engine's runtime helpers (`runtime.NAMESPACE`) and these tables. Its text is a deterministic
function of the checked game (`wishdsl rules GAME` prints it).

What the module defines:
- `xN(st, env)`: an expression (a variable's start value, a requirement, a scoring step, options of a choice);
- `fN(st, a0, …)` and its memoised twin `FN(st, span, a0, …)`: a function of the game;
- `pN(st, env)`: a procedure that never stops, called directly;
- `bN(st, f)`: a block run from a frame of the effect stack (codegen_frames.py).
"""
from __future__ import annotations

import builtins
import re
from typing import Optional

from dsl import ast as A
from dsl.refs import RefKind

from . import native_rules
from . import runtime as R
from .codegen_exprs import ExprGen, lasting_functions
from .codegen_frames import FrameGen, Out
from .codegen_stmts import StmtGen
from .frames import MODULE_NAME, FrameKind
from .log import logged

DRAWS = ("random", "first_to_answer")  # builtins that may draw from the game's generator


class Rules:
    """The compiled module: its text, and the callables and tables the engine runs on."""

    def __init__(self, source: str, code, namespace: dict, blocks: list, names: list, points: list,
                 block_spans: list, spans: tuple, consts: dict, key: str, native: Optional[str] = None):
        self.source = source
        self.key = key  # what these rules compiled to machine code are found by (native_rules.key_of)
        self.native = native  # `key` when the rules run as machine code (native_rules.py), else None
        self.code = code  # the compiled module (kept to cache the game: interpreter/cache.py)
        self.namespace = namespace
        self.blocks = blocks  # code number → frame function (or the direct function of a procedure)
        self.names = names  # code number → the rule's name ("procedure round"; "" for a nested block)
        self.points = points  # decision points and announcements, by index
        self.block_spans = block_spans  # code number → the span of its block
        self.spans = spans  # the spans the module's statements and calls refer to (`_S`)
        self.consts = consts

    def fn(self, name: str):
        return self.namespace[name]

    def __getstate__(self) -> dict:
        """What the cache of compiled games keeps (interpreter/cache.py keeps the code object beside it)."""
        state = dict(self.__dict__)
        state["code"] = None
        return state

    @staticmethod
    def provide(ns: dict) -> dict:
        """Put the engine's helpers in a module's namespace; its tables come later (`bind`, `fill`)."""
        ns.update(R.NAMESPACE)
        ns.update({"_MAX_LOOP": R.MAX_LOOP, "_MAX_OPTIONS": R.MAX_ACTION_OPTIONS, "_LASTING": {},
                   "_MISSING": R.MISSING, "_LASTING_LIMIT": R.LASTING_LIMIT, "_BLOCK": FrameKind.BLOCK})
        return ns

    @staticmethod
    def run_module(code) -> dict:
        """Run the compiled module in a namespace of the engine's helpers."""
        ns = Rules.provide({"__builtins__": BUILTINS})
        exec(code, ns)  # the generated module: see the module docstring
        return ns

    @staticmethod
    def namespace_of(code, key: Optional[str]) -> tuple:
        """(namespace, native digest or None): the module built to machine code under `key` when there is one
        (native_rules.py), else the module `code` run as Python."""
        ns = native_rules.namespace(key) if key else None
        if ns is not None:
            return Rules.provide(ns), key
        return Rules.run_module(code), None

    def python_namespace(self) -> dict:
        """A namespace of these rules run as Python (of a game whose rules run as machine code)."""
        if self.code is None:
            self.code = compile(self.source, MODULE_NAME, "exec")
        return Rules.run_module(self.code)

    def build_native(self):
        """Compile these rules to machine code, kept for every later load of the game (native_rules.build)."""
        return native_rules.build(self.key, self.source, set(self.namespace), set(BUILTINS))

    def bind(self) -> None:
        """Give the module the tables its functions read: spans and points (the constants come by `fill`)."""
        self.namespace["_S"] = self.spans
        self.namespace["_P"] = tuple(self.points)

    def fill(self, table, kinds=None) -> None:
        """Give the module its tables: `table(key)` of each key the code refers to (Game.table), only those
        of these `kinds` when given."""
        for key, name in self.consts.items():
            if kinds is None or key[0] in kinds:
                self.namespace[name] = table(key)


class CodeGen(ExprGen, FrameGen, StmtGen):
    """Generates the rules module of one game. Request what the Game needs (`root`, `procedure_code`,
    `action_block`, …), then `compile()` once."""

    def __init__(self, game):
        self.g = game
        self.sym = game.sym
        self.out = Out()
        self.roots_out = Out()
        self.params_out = Out()  # written whole, while other functions may be half written
        self.tests_out = Out()  # the functions of `any` and `all` (codegen_exprs.test_function), likewise
        self.spans: list = []
        self._span_ids: dict = {}
        self.consts: dict = {}
        self.names: list = []
        self.block_spans: dict = {}
        self.pending: list = []
        self.point_specs: list = []
        self._counter = 0
        self.function_index = {name: i for i, name in enumerate(self.sym.functions)}
        self.lasting = lasting_functions(self.sym.functions)
        self._classify_functions()
        self.listened = set(game.trigger_keys)
        self.static_params = {s.name for ab in self.sym.abilities.values() for s in ab.statics}
        self.param_functions: dict = {}
        self.var_logged = {name: logged(v, ty) for name, (v, ty) in self.sym.vars.items()}
        self.procedures: dict = {}
        self._classify_procedures()

    # ---------------------------------------------------------------- tables and names
    def span(self, node) -> int:
        k = self._span_ids.get(id(node))
        if k is None:
            k = self._span_ids[id(node)] = len(self.spans)
            self.spans.append(node.span)
        return k

    def const(self, key) -> str:
        """The namespace name of a table identified by `key` (filled in by `tables`)."""
        name = self.consts.get(key)
        if name is None:
            name = self.consts[key] = f"_c{len(self.consts)}"
        return name

    def fresh(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}{self._counter}"

    def new_code(self, name: str) -> int:
        self.names.append(name)
        return len(self.names) - 1

    def deferred(self, block: A.Block, kind: FrameKind, name: str, trigger=None) -> int:
        """A code number for a frame function generated once the current one is written."""
        code = self.new_code(name)
        self.pending.append((code, block, kind, name, trigger))
        return code

    def function_name(self, name: str) -> str:
        return f"F{self.function_index[name]}"

    def procedure_code(self, name: str) -> int:
        return self.procedures[name]

    # ---------------------------------------------------------------- what stops, what ends
    def _classify_procedures(self) -> None:
        """Which procedures may stop (they run in frames) and which may end the game: fixpoints over the calls.
        A procedure that calls itself, directly or not, runs in frames too, so the stack bounds its depth."""
        procs = {name: p for name, (p, _) in self.sym.procedures.items()}
        calls = {name: {c.expr.name for c, _ in A.walk(p.body) if isinstance(c, A.ExprStmt)}
                 for name, p in procs.items()}
        self.stopping_procs = {name for name in procs if self._reaches(name, name, calls)}
        self.ending_procs: set = set()
        while True:
            stopping = {name for name, p in procs.items() if name not in self.stopping_procs
                        and self.block_stops(p.body)}
            ending = {name for name, p in procs.items() if any(self.ends(s) for s in p.body.stmts)}
            if not stopping and ending <= self.ending_procs:
                break
            self.stopping_procs |= stopping
            self.ending_procs |= ending
        for name in procs:
            self.procedures[name] = self.new_code(f"procedure {name}")

    @staticmethod
    def _reaches(start: str, goal: str, calls: dict) -> bool:
        seen, todo = set(), list(calls.get(start, ()))
        while todo:
            name = todo.pop()
            if name == goal:
                return True
            if name not in seen:
                seen.add(name)
                todo.extend(calls.get(name, ()))
        return False

    # ---------------------------------------------------------------- what the Game asks for
    def root(self, e: A.Expr, collection: bool = False) -> str:
        """The name of `def xN(st, env)` evaluating `e` (as a tuple of values when `collection`). Each name of the
        environment it reads is read once, into a local (`_eN = env['p']`), not at each element of a loop."""
        scope = self.environment_locals(e)
        text, first = self.hoisting_of(lambda: self.coll(e, scope) if collection else self.expr(e, scope))
        first = [f"{var} = env[{name!r}]" for name, var in scope.items() if re.search(rf"\b{var}\b", text)] + first
        return self._root(text, e.span.line, first)

    def environment_locals(self, e: A.Expr) -> dict:
        """A local per name of the environment that `e` reads (`you`, `self`, the block's locals): the names it
        binds itself (a comprehension's variables) left out. The environment holds every one of them whenever
        `e` is evaluated (the checker allows no read of a local before it is bound)."""
        names, bound = [], set()
        for n, _ in A.walk(e):
            if isinstance(n, A.GenClause):
                bound.add(n.var)
            elif isinstance(n, A.Name) and n.ref is not None:
                if n.ref.kind is RefKind.LOCAL:
                    names.append(n.ref.name)
                elif n.ref.kind is RefKind.YOU:
                    names.append("you")
                elif n.ref.kind is RefKind.SELF:
                    names.append("self")
        return {name: self.fresh("_e") for name in dict.fromkeys(names) if name not in bound}

    def _root(self, text: str, line: int, first: list = ()) -> str:
        name = self.fresh("x")
        self.roots_out(f"def {name}(st, env):  # line {line}")
        for stmt in first:
            self.roots_out(f"    {stmt}")
        self.roots_out(f"    return {text}")
        return name

    def block(self, block: A.Block, kind: FrameKind, name: str, trigger=None) -> int:
        """The code number of a block that runs in frames of its own (setup, play, an action, a trigger)."""
        return self.deferred(block, kind, name, trigger=trigger)

    def decision_point(self, s) -> int:
        """The index of the decision point of a choose, simultaneously or act statement."""
        index = len(self.point_specs)
        span = s.span
        if isinstance(s, A.Act):
            by = self.root(s.by)
            self.point_specs.append((R.Act, (index, span, list(s.actions), Fn(by), s.prompt)))
        elif isinstance(s, A.Choose):
            among = self.root(s.options, collection=True)
            by = self.root(s.by) if s.by is not None else self._root("env['you']", s.span.line)
            verb = s.verb or self.verb(s.target)
            self.point_specs.append((R.Choice, (index, span, Fn(self.writer(s, "value")), Fn(among), Fn(among),
                                                s.options.ty.element(), Fn(by), s.prompt, verb, s.distinct,
                                                s.skip)))
        else:
            players, options = self.root(s.players, collection=True), self.root(s.options, collection=True)
            verb = s.verb or self.verb(s.target)
            shared = not self.draws(s.options) and not any(isinstance(n, A.Name) and n.name == s.var
                                                           for n, _ in A.walk(s.options))
            self.point_specs.append((R.Simultaneous, (index, span, s.var, Fn(players), Fn(self.writer(s, "who, value")),
                                                      Fn(options), s.options.ty.element(), s.prompt, verb,
                                                      s.distinct, s.skip, shared)))
        return index

    def enumerator(self, a: A.Action, types: list, guards: list, requires: list) -> str:
        """The name of `def eN(st, who, out)`, which appends to `out` the key (name, parameter values) of every
        legal instance of action `a`, in the order `Machine._instances` lists them: `guards` are the leading
        requirements that read no parameter, `requires` the others as (level, condition), each checked once
        the `level` first parameters are chosen.

        A parameter whose values and requirements read none of the parameters before it (Wish's `column`
        after a destination) has the same legal values for every choice of those: they are worked out when
        its loop is first reached and kept for the others (never when something there draws at random)."""
        name = self.fresh("e")
        out = Out()  # written whole into roots_out at the end: writing an expression may write other functions
        out(f"def {name}(st, who, out):  # action {a.name!r}, line {a.span.line}")
        scope = {"you": "who"}  # the parameters chosen so far are Python locals too (no env dict)
        if guards:
            out("    if not (" + " and ".join(f"({self.expr(g, scope)})" for g in guards) + "):")
            out("        return")
        indent, values = "    ", []
        for i, p in enumerate(a.params):
            checks = [c for level, c in requires if level == i + 1]
            last = i == len(a.params) - 1 and not checks
            var = self.fresh("v")
            values.append(var)
            domain = self.domain(p, types[i], scope)
            scope = {**scope, p.name: var}
            test = " and ".join(f"({self.expr(c, scope)})" for c in checks)
            if checks and self.kept(a, i, checks):
                kept = self.fresh("_kept")
                out.lines.insert(1, f"    {kept} = None")
                out(f"{indent}if {kept} is None:")
                out(f"{indent}    {kept} = []")
                out(f"{indent}    for {var} in tuple({domain}):")
                out(f"{indent}        if {test}:")
                out(f"{indent}            {kept}.append({var})")
                out(f"{indent}for {var} in {kept}:")
                indent += "    "
                continue
            out(f"{indent}for {var} in {domain if last else f'tuple({domain})'}:")
            indent += "    "
            if checks:
                out(f"{indent}if not ({test}):")
                out(f"{indent}    continue")
        out(f"{indent}out.append(({a.name!r}, (" + "".join(f"{v}, " for v in values) + ")))")
        # the bound on options is checked once the last parameter's values are listed, not at every option: a
        # collection's size is bounded too (MAX_SIZE), so at most that many more are made before it stops them
        check = indent[:-4] if a.params else indent
        out(f"{check}if len(out) > _MAX_OPTIONS:")
        out(f"{check}    raise _too_many({a.name!r}, _S[{self.span(a)}])")
        self.roots_out.lines.extend(out.lines)
        return name

    def kept(self, a: A.Action, i: int, checks: list) -> bool:
        """Are parameter i's legal values the same for every choice of the parameters before it?"""
        if i == 0:
            return False
        before = {p.name for p in a.params[:i]}
        p = a.params[i]
        parts = [*checks, *([p.domain] if p.domain is not None else [])]
        return not any(A.uses_names(x, before) or self.draws(x) for x in parts)

    def domain(self, p: A.ActionParam, t, scope: dict = None) -> str:
        """The values a parameter of an action ranges over: its `in` collection, or every value of type `t`
        (`scope`: the Python names of the locals it may read; by default they are read from `env`)."""
        if p.domain is not None:
            return self.coll(p.domain, scope or {}, copy=False)
        if t.kind == "enum":
            return repr(self.g.enum_members[t.name])
        if t.kind == "player":
            return "st.seats"
        return "(False, True)"

    def say_point(self, s: A.Log) -> int:
        index = len(self.point_specs)
        self.point_specs.append((R.Say, (index, s.span, tuple(p.ty for p in s.parts))))
        return index

    def announcement(self, s: A.Announce) -> int:
        index = len(self.point_specs)
        self.point_specs.append((R.Announcement, (index, s.span, Fn(self.root(s.value)), s.value.ty)))
        return index

    def writer(self, s, args: str) -> str:
        """The name of `def wN(st, env, …)` storing a decision's answer `value` in its target (for a
        simultaneous decision, `who`'s answer, `who` standing for the statement's player variable)."""
        name = self.fresh("w")
        saved, self.out = self.out, Out()
        self.out(f"def {name}(st, env, {args}):  # line {s.span.line}")
        self.out.indent()
        scope = {s.var: "who"} if isinstance(s, A.Simultaneous) else {}
        self.write_place(s.target, "value", s, scope)
        self.roots_out.lines.extend(self.out.lines)
        self.out = saved
        return name

    @staticmethod
    def verb(target: A.Expr) -> str:
        return target.name if isinstance(target, (A.Name, A.FieldOf)) else "choose"

    # ---------------------------------------------------------------- generation
    def _classify_functions(self) -> None:
        """Which functions call themselves (directly or not: their depth is bounded by `runtime.call_function`)
        and which are remembered per state (`memoised`): those that walk collections, draw at random or call
        one that is remembered. A function that is neither is called as it is: looking up a remembered result
        would cost more than computing it again, and it draws nothing, so the game cannot tell."""
        funcs = {name: f for name, (f, _, _) in self.sym.functions.items()}
        calls, heavy = {}, set()
        for name, f in funcs.items():
            nodes = [n for n, _ in A.walk(f.body)]
            calls[name] = {n.ref.name for n in nodes if isinstance(n, A.Call) and n.ref is not None
                           and n.ref.kind is RefKind.FUNC}
            if any(isinstance(n, A.Generator) for n in nodes):
                heavy.add(name)
        self.recursive = {name for name in funcs if self._reaches(name, name, calls)}
        self.memoised = heavy | self.recursive
        while True:
            more = {name for name in funcs if name not in self.memoised and calls[name] & self.memoised}
            if not more:
                break
            self.memoised |= more

    def reads_only_its_environment(self, e: A.Expr) -> bool:
        """Does expression `e` read nothing that changes while a game goes on: only its locals (a trigger's
        binders, `you`, `self`), constants, enum data, the fields of cards and functions of their arguments
        alone? Such a trigger condition is true when the event fires exactly when the trigger starts."""
        constant = {RefKind.LOCAL, RefKind.YOU, RefKind.SELF, RefKind.MEMBER, RefKind.ENUM, RefKind.PLAYERS,
                    RefKind.EFIELD, RefKind.CFIELD, RefKind.CBUILTIN}
        for n, _ in A.walk(e):
            if isinstance(n, (A.Literal, A.Generator, A.GenClause, A.UnOp, A.IfExpr, A.ListLit, A.SetLit)):
                continue
            if isinstance(n, A.BinOp):
                if n.op in ("in", "not in") and n.right.ty is not None and n.right.ty.kind == "zone":
                    return False
                continue
            ref = getattr(n, "ref", None)
            if isinstance(n, A.Name) and ref is not None and ref.kind is RefKind.ZONE:
                continue  # a zone as a value is its slot; as a collection it is caught above or below
            if isinstance(n, (A.Name, A.FieldOf)) and ref is not None and ref.kind in constant:
                continue
            if isinstance(n, A.Call) and ref is not None and (
                    (ref.kind is RefKind.FUNC and ref.name in self.lasting) or
                    (ref.kind is RefKind.BUILTIN and ref.name in ("min", "max", "abs", "count", "sum", "any", "all",
                                                                  "first", "last", "rest", "remove", "bag",
                                                                  "members"))):
                if any(a.ty is not None and a.ty.kind == "zone" for a in n.args):
                    return False
                continue
            return False
        return True

    def param_function(self, name: str) -> str:
        """The name of `qN(st, you)`, the value of a parameter no card's Static ability changes (for the
        player `you`, None for a shared one), written once per parameter."""
        fn = self.param_functions.get(name)
        if fn is None:
            fn = self.param_functions[name] = f"q{self.g.param_index[name]}"
            value = self.sym.params[name][0].value
            text = self.expr(value, {"you": "you"})
            self.params_out(f"def {fn}(st, you):  # parameter {name!r}, line {value.span.line}")
            self.params_out(f"    return {text}")
        return fn

    def draws(self, node) -> bool:
        """May evaluating `node` draw from the game's generator (`random`, `first_to_answer`)? A function never
        does: the checker refuses a draw in a function's body (it is an effect)."""
        return any(isinstance(n, A.Call) and n.ref is not None and n.ref.kind is RefKind.BUILTIN and n.name in DRAWS
                   for n, _ in A.walk(node))

    def function_call(self, name: str, args: list, span: int) -> str:
        k = self.function_index[name]
        if name in self.memoised or name in self.lasting:
            return f"F{k}(st, {span}" + "".join(f", {a}" for a in args) + ")"
        return f"f{k}(st" + "".join(f", {a}" for a in args) + ")"

    def functions(self) -> None:
        for name, (f, _, _) in self.sym.functions.items():
            k = self.function_index[name]
            params = [p.name for p in f.params]
            args = [f"a{i}" for i in range(len(params))]
            scope = dict(zip(params, args))
            sig = "".join(f", {a}" for a in args)
            out = self.out
            text, first = self.hoisting_of(lambda: self.expr(f.body, scope))
            out(f"def f{k}(st{sig}):  # function {name!r}, line {f.span.line}")
            for stmt in first:
                out(f"    {stmt}")
            out(f"    return {text}")
            if name in self.memoised or name in self.lasting:
                self.memo_wrapper(name, k, args)
            out("")

    def memo_wrapper(self, name: str, k: int, args: list) -> None:
        """`FN(st, span, …)`: function N's result, remembered while the state does not change (or for good,
        for a function of its arguments alone); a function that calls itself is bounded in depth. A function that
        does not call itself is on trial (`runtime.memo_trial`): once its first calls show that its
        results are seldom found again, it is called as it is — it returns the same either way."""
        out = self.out
        sig = "".join(f", {a}" for a in args)
        tup = "(" + "".join(f"{a}, " for a in args) + ")"
        call = f"_call(st, f{k}, {tup}, {name!r}, _S[_k])" if name in self.recursive else f"f{k}(st{sig})"
        on_trial = name not in self.lasting and name not in self.recursive
        out(f"def F{k}(st, _k{sig}):")
        out.indent()
        if on_trial:
            out(f"_w = _WORTH[{k}]")
            out("if _w == 0:")
            out(f"    return {call}")
        out(f"key = ({k}, {', '.join(args)}{',' if len(args) == 1 else ''})" if args else f"key = ({k},)")
        if name in self.lasting:
            out("r = _LASTING.get(key, _MISSING)")
            out("if r is _MISSING:")
            out("    if len(_LASTING) >= _LASTING_LIMIT:")
            out("        _LASTING.clear()")
            out(f"    r = _LASTING[key] = {call}")
        else:
            out("memo: dict = st.memo")
            out("r = memo.get(key, _MISSING)")
            out("if r is _MISSING:")
            out(f"    r = memo[key] = {call}")
            if on_trial:
                out("    if _w == 1:")
                out(f"        _trial(_WORTH, _TRIED, _FOUND, {k}, False)")
                out("elif _w == 1:")
                out(f"    _trial(_WORTH, _TRIED, _FOUND, {k}, True)")
        out("return r")
        out.indent(-1)

    def procedure_functions(self) -> None:
        for name, (p, _) in self.sym.procedures.items():
            code = self.procedures[name]
            if name in self.stopping_procs:
                self.pending.append((code, p.body, FrameKind.BLOCK, f"procedure {name}", None))
            else:
                self.direct_procedure(code, p)

    def drain(self) -> None:
        """Write every frame function asked for, those asked for while writing included."""
        while self.pending:
            code, block, kind, name, trigger = self.pending.pop(0)
            if kind is None:  # a statement nested too deeply to stay inline (codegen_stmts.hoisted)
                self.direct_function(code, [block], block, f"line {block.span.line}")
            else:
                self.frame_function(code, block, kind, name, trigger=trigger)

    def source(self) -> str:
        n = len(self.function_index)
        head = ["# The rules of one game, generated by wishdsl from its checked syntax tree. Do not edit.", "",
                f"_WORTH, _TRIED, _FOUND = [1] * {n}, [0] * {n}, [0] * {n}  # remembering each function: on trial", ""]
        return "\n".join(head + self.params_out.lines + self.roots_out.lines + [""] + self.out.lines + [""]
                         + self.tests_out.lines) + "\n"

    def compile(self) -> Rules:
        """Write what is still pending, compile the module and build its tables and decision points."""
        self.functions()
        self.procedure_functions()
        self.drain()
        text = self.source()
        code = compile(text, MODULE_NAME, "exec")
        key = native_rules.key_of(self.g.fingerprint, text)
        ns, native = Rules.namespace_of(code, key)
        points = [cls(*[_resolved(a, ns) for a in args]) for cls, args in self.point_specs]
        blocks = [ns.get(f"b{code}") or ns.get(f"p{code}") for code in range(len(self.names))]
        block_spans = [self.block_spans.get(code) for code in range(len(self.names))]
        rules = Rules(text, code, ns, blocks, list(self.names), points, block_spans, tuple(self.spans),
                      dict(self.consts), key, native)
        rules.bind()
        return rules


class Fn(str):
    """The name of a function of the module, in a decision point's arguments (replaced by the function)."""

    __slots__ = ()


def _resolved(arg, ns: dict):
    if isinstance(arg, Fn):
        return ns[arg]
    if type(arg) is tuple:
        return tuple(_resolved(a, ns) for a in arg)
    return arg


BUILTINS = {name: getattr(builtins, name) for name in ("abs", "all", "any", "dict", "len", "max", "min", "range",
                                                        "sum", "tuple")}  # `dict`: the memo's annotation
