"""Stage 2, expressions: the type of every expression, and what each name refers to.

A mixin of the checker (`dsl.check.Checker`): it fills `expr.ty` and `expr.ref` for the compiler and reports
unknown names (with "did you mean"), wrong types and wrong arity through the checker's `error`.
"""
from __future__ import annotations

from . import ast as A
from . import types as T
from .errors import did_you_mean
from .limits import MAX_INT
from .refs import Ref, RefKind
from .scope import BUILTINS, CARD_BUILTIN_FIELDS, Scope


class ExprChecks:
    """Typing of expressions; the checker provides `sym`, `error`, `unknown`, `no_shadow`, `args` and `target`."""

    def expect(self, e: A.Expr, want: T.Type, sc: Scope, what: str) -> T.Type:
        t = self.expr(e, sc)
        t = self.empty_bag(e, t, want)
        if not T.assignable(t, want):
            self.error(e, f"{what} must be {want}, found {t}")
        return t

    def expr(self, e: A.Expr, sc: Scope) -> T.Type:
        t = getattr(self, "e_" + type(e).__name__)(e, sc)
        e.ty = t
        return t

    def e_Literal(self, e: A.Literal, sc):
        v = e.value
        if v is None:
            return T.NONE
        if isinstance(v, bool):
            return T.BOOL
        if isinstance(v, int):
            if abs(v) > MAX_INT:  # a literal is read up to MAX_INT_DIGITS digits already
                self.error(e, f"this number is too large; a game's numbers are at most {MAX_INT:,}")
            return T.INT
        return T.TEXT

    def e_Name(self, e: A.Name, sc):
        n = e.name
        s = self.sym
        if n in sc.locals:
            e.ref = Ref(RefKind.LOCAL, n)
            return sc.locals[n]
        if n == "you":
            if not sc.you:
                self.error(e, "'you' is only known in an action or an ability", "name the player instead")
                return T.PLAYER
            e.ref = Ref(RefKind.YOU)
            return T.PLAYER
        if n == "self":
            if sc.self_kind is None:
                self.error(e, "'self' is only known in a card's abilities")
                return T.card(None)
            e.ref = Ref(RefKind.SELF)
            return T.card(sc.self_kind)
        if n == "players":
            e.ref = Ref(RefKind.PLAYERS)
            return T.list_of(T.PLAYER)
        if n in s.vars:
            v, t = s.vars[n]
            if v.per_player:
                self.error(e, f"'{n}' belongs to each player: write PLAYER.{n}")
            elif v.keyed_by is not None:
                self.error(e, f"'{n}' has one value per {s.var_keys[n]}: write {n}[…]")
            e.ref = Ref(RefKind.VAR, n)
            return t
        if n in s.params:
            p, t = s.params[n]
            if p.per_player:
                self.error(e, f"'{n}' belongs to each player: write PLAYER.{n}")
            e.ref = Ref(RefKind.PARAM, n)
            return t
        if n in s.zones:
            z = s.zones[n]
            if z.per_player:
                self.error(e, f"each player has a zone '{n}': write PLAYER.{n}")
            e.ref = Ref(RefKind.ZONE, n)
            return T.zone(z.kind)
        if n in s.members:
            e.ref = Ref(RefKind.MEMBER, n, enum=s.members[n])
            return T.enum(s.members[n])
        if n in s.enums:
            e.ref = Ref(RefKind.ENUM, n)
            return T.list_of(T.enum(n))
        if n in s.functions or n in s.procedures or n in BUILTINS:
            self.error(e, f"'{n}' is called with parentheses: {n}(…)")
            return T.ANY
        self.unknown(e, "name", n, [*self.all_global_names(), *sc.locals, *(("you",) if sc.you else ())])
        return T.ANY

    def e_FieldOf(self, e: A.FieldOf, sc):
        ot = self.expr(e.obj, sc)
        s = self.sym
        if ot.kind == "any":
            return T.ANY
        if ot.kind == "player":
            if e.name in s.vars and s.vars[e.name][0].per_player:
                e.ref = Ref(RefKind.PVAR, e.name)
                return s.vars[e.name][1]
            if e.name in s.params and s.params[e.name][0].per_player:
                e.ref = Ref(RefKind.PPARAM, e.name)
                return s.params[e.name][1]
            if e.name in s.zones and s.zones[e.name].per_player:
                e.ref = Ref(RefKind.PZONE, e.name)
                return T.zone(s.zones[e.name].kind)
            cands = [n for n, (v, _) in s.vars.items() if v.per_player]
            cands += [n for n, (p, _) in s.params.items() if p.per_player]
            cands += [n for n, z in s.zones.items() if z.per_player]
            self.unknown(e, "player variable, parameter or zone", e.name, cands)
            return T.ANY
        if ot.kind == "enum":
            fields = s.enum_fields.get(ot.name, {})
            if e.name not in fields:
                self.unknown(e, f"field of {ot.name}", e.name, fields)
                return T.ANY
            e.ref = Ref(RefKind.EFIELD, e.name)
            return fields[e.name]
        if ot.kind == "card":
            if e.name in CARD_BUILTIN_FIELDS:
                e.ref = Ref(RefKind.CBUILTIN, e.name)
                return CARD_BUILTIN_FIELDS[e.name]
            if ot.name is None:
                kinds = [k for k, fs in s.fields.items() if e.name in fs]
                if len(kinds) == 1:
                    e.ref = Ref(RefKind.CFIELD, e.name)
                    return s.fields[kinds[0]][e.name]
                self.error(e, f"cannot tell which card kind has field '{e.name}' here")
                return T.ANY
            fields = s.fields.get(ot.name, {})
            if e.name not in fields:
                self.unknown(e, f"field of {ot.name}", e.name, [*fields, *CARD_BUILTIN_FIELDS])
                return T.ANY
            e.ref = Ref(RefKind.CFIELD, e.name)
            return fields[e.name]
        self.error(e, f"a {ot} has no field '{e.name}'")
        return T.ANY

    def e_Index(self, e: A.Index, sc):
        s = self.sym
        if not (isinstance(e.obj, A.Name) and e.obj.name in s.var_keys):
            ot = self.expr(e.obj, sc)
            if ot.kind == "bag":  # how many of one member a bag holds
                self.expect(e.key, ot.elem, sc, "a member of the bag's enum")
                e.ref = Ref(RefKind.BAGCOUNT)
                return T.INT
            keyed = list(s.var_keys)
            name = e.obj.name if isinstance(e.obj, A.Name) else ""
            self.error(e.obj, "only a keyed variable takes […]", did_you_mean(name, keyed) if keyed else None)
            self.expr(e.key, sc)
            return T.ANY
        name = e.obj.name
        e.obj.ref = Ref(RefKind.KEYED, name)
        self.expect(e.key, s.var_keys[name], sc, f"the key of '{name}'")
        e.ref = Ref(RefKind.KVAR, name)
        return s.vars[name][1]

    def gen(self, g: A.Generator, sc: Scope) -> T.Type:
        inner = sc.child()
        for cl in g.clauses:
            st = self.expr(cl.source, inner)
            et = st.element()
            if et is None:
                self.error(cl.source, f"'for … in' needs a list, set or zone, found {st}")
                et = T.ANY
            self.no_shadow(cl, cl.var)
            inner.locals[cl.var] = et
            if cl.cond is not None:
                self.expect(cl.cond, T.BOOL, inner, "a filter")
        return self.expr(g.elem, inner)

    def e_Call(self, e: A.Call, sc):
        s = self.sym
        n = e.name
        if n in s.functions:
            f, ptypes, ret = s.functions[n]
            e.ref = Ref(RefKind.FUNC, n)
            if e.gen is not None:
                self.error(e, f"function '{n}' takes arguments, not a generator")
            self.args(e, e.args, ptypes, sc, f"function '{n}'")
            return ret
        if n in s.procedures:
            self.error(e, f"procedure '{n}' has effects; it cannot be used as a value",
                       "declare a 'function' to compute a value")
            return T.ANY
        if n not in BUILTINS:
            self.unknown(e, "function", n, [*s.functions, *BUILTINS])
            for a in e.args:
                self.expr(a, sc)
            return T.ANY
        lo, hi, gen_ok = BUILTINS[n]
        e.ref = Ref(RefKind.BUILTIN, n)
        if e.gen is not None:
            if not gen_ok:
                self.error(e, f"'{n}' takes a list, not a generator")
            et = self.gen(e.gen, sc)
            coll = T.list_of(et)
            argc = 1
        else:
            argc = len(e.args)
            if not lo <= argc <= hi:
                want = str(lo) if lo == hi else f"{lo} or {hi}"
                self.error(e, f"'{n}' takes {want} argument(s), found {argc}")
                for a in e.args:
                    self.expr(a, sc)
                return T.ANY
            coll = self.expr(e.args[0], sc)
        return self.builtin_type(e, n, coll, sc, argc)

    def builtin_type(self, e, n, coll: T.Type, sc, argc) -> T.Type:
        if n in ("random", "first_to_answer") and sc.pure:
            self.error(e, f"{n}() is an effect; it cannot be used in a function, condition or requirement",
                       f"bind it first: let x = {n}(…)")
        if n in ("next", "after"):
            if not T.assignable(coll, T.PLAYER):
                self.error(e, f"'{n}' needs a player, found {coll}")
            return T.PLAYER if n == "next" else T.list_of(T.PLAYER)
        if n == "owner":
            if not T.assignable(coll, T.card(None)):
                self.error(e, f"'owner' needs a card, found {coll}")
            return T.PLAYER.opt()
        if n == "abs":
            if not T.assignable(coll, T.INT):
                self.error(e, f"'abs' needs a number, found {coll}")
            return T.INT
        if n in ("rest", "remove"):
            if coll.kind not in ("list", "zone", "any"):
                self.error(e, f"'{n}' needs a list, found {coll}")
                return T.ANY
            if n == "remove":
                self.expect(e.args[1], coll.element() or T.ANY, sc, "the value to remove")
            return T.list_of(coll.element() or T.ANY)
        if n == "bag":
            if coll.kind not in ("enum", "any"):
                self.error(e.args[0], f"'bag' needs an enum value, found {coll}")
                return T.ANY
            self.expect(e.args[1], T.INT, sc, "a count")
            return T.bag_of(coll.plain())
        if n == "members":
            if coll.kind not in ("bag", "any"):
                self.error(e, f"'members' needs a bag, found {coll}")
                return T.ANY
            return T.list_of(coll.elem or T.ANY)
        if argc == 2 and n in ("min", "max"):  # min(a, b) / max(a, b)
            self.expect(e.args[1], T.INT, sc, "an argument")
            if not T.assignable(coll, T.INT):
                self.error(e.args[0], f"'{n}' of two values needs numbers, found {coll}")
            return T.INT
        et = coll.element()
        if n == "count":
            if et is None and coll.kind not in ("bag",):
                self.error(e, f"'count' needs a list, set, bag or zone, found {coll}")
            return T.INT
        if et is None:
            self.error(e, f"'{n}' needs a list, set or zone, found {coll}")
            return T.ANY
        if n in ("sum", "min", "max"):
            if not T.assignable(et, T.INT):
                self.error(e, f"'{n}' needs numbers, found {coll}")
            return T.INT
        if n in ("any", "all"):
            if not T.assignable(et, T.BOOL):
                self.error(e, f"'{n}' needs yes/no values, found {coll}")
            return T.BOOL
        if n == "first_to_answer" and not T.assignable(et, T.PLAYER):
            self.error(e, f"'first_to_answer' needs players, found {coll}")
            return T.PLAYER
        return et  # first, last, random, first_to_answer

    def e_ListLit(self, e: A.ListLit, sc):
        if e.gen is not None:
            return T.list_of(self.gen(e.gen, sc))
        return T.list_of(self.same_type(e.items, sc, "list"))

    def same_type(self, items, sc, what) -> T.Type:
        et = None
        for it in items:
            t = self.expr(it, sc)
            if et is None or et.kind == "any":
                et = t
            elif not T.comparable(t, et):
                self.error(it, f"a {what} holds values of one type: expected {et}, found {t}")
        return et or T.ANY

    def e_SetLit(self, e: A.SetLit, sc):
        et = self.same_type(e.items, sc, "set")
        if et.kind not in ("enum", "any"):
            self.error(e, f"a set holds enum values, found {et}", "use a list: [ … ]")
        return T.set_of(et)

    def e_BagLit(self, e: A.BagLit, sc):
        enum_name = None
        for name, value, span in e.items:
            en = self.sym.members.get(name)
            if en is None:
                self.unknown(span, "enum member", name, self.sym.members)
            elif enum_name is None:
                enum_name = en
            elif en != enum_name:
                self.error(span, f"a bag holds members of one enum: '{name}' is a {en}, not a {enum_name}")
            self.expect(value, T.INT, sc, "a count")
        return T.bag_of(T.enum(enum_name) if enum_name else T.ANY)

    def e_Slice(self, e: A.Slice, sc):
        self.expect(e.count, T.INT, sc, f"'{e.end} N of'")
        t = self.expr(e.source, sc)
        et = t.element()
        if et is None or t.kind == "set":
            self.error(e.source, f"'{e.end} N of' needs a zone or a list, found {t}")
            return T.ANY
        return T.list_of(et)

    def e_IfExpr(self, e: A.IfExpr, sc):
        self.expect(e.cond, T.BOOL, sc, "a condition")
        a = self.expr(e.then, sc)
        b = self.expr(e.other, sc)
        if not T.comparable(a, b):
            self.error(e.other, f"both branches must have one type: {a} and {b}")
        return a if a.kind != "none" else b.opt()

    def e_UnOp(self, e: A.UnOp, sc):
        if e.op == "not":
            self.expect(e.operand, T.BOOL, sc, "'not'")
            return T.BOOL
        self.expect(e.operand, T.INT, sc, "'-'")
        return T.INT

    def e_BinOp(self, e: A.BinOp, sc):
        op = e.op
        if op in ("and", "or"):
            self.expect(e.left, T.BOOL, sc, f"'{op}'")
            self.expect(e.right, T.BOOL, sc, f"'{op}'")
            return T.BOOL
        a = self.expr(e.left, sc)
        b = self.expr(e.right, sc)
        if op in ("in", "not in"):
            et = b.element() if b.kind != "bag" else b.elem
            if et is None:
                self.error(e.right, f"'{op}' needs a list, set, bag or zone on its right, found {b}")
            elif not T.comparable(a, et):
                self.error(e.left, f"'{op}' {b} needs {et} on its left, found {a}")
            return T.BOOL
        if op in ("==", "!="):
            if not T.comparable(a, b):
                self.error(e, f"cannot compare {a} with {b}")
            return T.BOOL
        if op in ("<", "<=", ">", ">="):
            for side, t in ((e.left, a), (e.right, b)):
                if not T.assignable(t, T.INT):
                    self.error(side, f"'{op}' compares numbers, found {t}")
            return T.BOOL
        if op in ("+", "-") and (a.kind == "bag" or b.kind == "bag"):
            if not T.comparable(a, b):
                self.error(e, f"'{op}' on bags needs two bags of one enum, found {a} and {b}")
            return a if a.kind == "bag" else b
        if op == "+" and a.kind in ("list", "zone") and b.kind in ("list", "zone"):
            return T.list_of(a.element())
        if op == "+" and a.kind == "text" and b.kind == "text":
            return T.TEXT
        for side, t in ((e.left, a), (e.right, b)):
            if not T.assignable(t, T.INT):
                self.error(side, f"'{op}' needs numbers, found {t}")
        return T.INT
