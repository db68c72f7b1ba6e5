"""English for expressions: noun phrases and conditions."""
from __future__ import annotations

import re

import attrs

from dsl import ast as A
from dsl.refs import RefKind, kind_of

from .english_base import EnglishBase
from .words import (ARITH, COMPARE, article, humanize, join_and, plural,
                    possessive, quote)


def e_literal(en: EnglishBase, e: A.Literal) -> str:
    v = e.value
    if v is None:
        return "nobody" if e.ty is not None and e.ty.kind == "player" else "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return quote(v)


def e_name(en: EnglishBase, e: A.Name) -> str:
    kind = kind_of(e)
    if kind is RefKind.LOCAL:
        return en.local(e.name, e.ty)
    if kind is RefKind.YOU or e.name == "you":
        return "you"
    if kind is RefKind.SELF or e.name == "self":
        return "this card"
    if kind is RefKind.PLAYERS or e.name == "players":
        return "all players"
    if kind is RefKind.MEMBER:
        return en.display(e.name)
    if kind is RefKind.ENUM:
        return "every " + e.name
    if kind is RefKind.ZONE:
        return en.zone_name(e.name)
    if kind is RefKind.PARAM:
        return param_value(en, e)
    if kind in (RefKind.VAR, RefKind.KEYED):
        return en.var_reading(e) or "the " + en.varname(e.name)
    if e.name in en.you_names:
        return "you"
    if e.name in en.sym.members:
        return en.display(e.name)
    return en.local(e.name, e.ty)


def param_value(en: EnglishBase, e: A.Name) -> str:
    """A shared rule value: its `@reads` phrase, its value when that is a number or a member ("3", "Sandhills"),
    otherwise its name."""
    entry = en.sym.params.get(e.name)
    decl = entry[0] if entry else None
    reading = en.phrase(decl, []) if decl is not None else None
    if reading is not None:
        return reading
    if decl is not None and isinstance(decl.value, A.Literal) and isinstance(decl.value.value, int) \
            and not isinstance(decl.value.value, bool):
        return str(decl.value.value)
    if decl is not None and isinstance(decl.value, A.Name) and kind_of(decl.value) is RefKind.MEMBER:
        return en.display(decl.value.name)
    return "the " + en.varname(e.name)


def e_field(en: EnglishBase, e: A.FieldOf) -> str:
    reading = en.var_reading(e)
    if reading is not None:
        return reading
    obj = en.expr(e.obj)
    kind = kind_of(e)
    if kind is RefKind.PZONE:
        name = en.zone_noun(e.name)
    else:
        name = en.varname(e.name) if kind in (RefKind.PVAR, RefKind.PPARAM) else humanize(e.name)
    if isinstance(e.obj, A.FieldOf) or re.search(r" (of|in|on|at|from|with|for) ", obj):
        return f"the {name} of {obj}"
    return f"{possessive(obj)} {name}"


def e_index(en: EnglishBase, e: A.Index) -> str:
    if kind_of(e) is RefKind.BAGCOUNT:
        return f"the number of {en.expr(e.key)} in {en.expr(e.obj)}"
    name = e.obj.name if isinstance(e.obj, A.Name) else en.expr(e.obj)
    var = en.sym.vars.get(name)
    reading = en.phrase(var[0], [en.expr(e.key)]) if var is not None else None
    return reading if reading is not None else f"the {en.varname(name)} of {en.expr(e.key)}"


def e_call(en: EnglishBase, e: A.Call) -> str:
    n = e.name
    args = e.args
    g = e.gen
    if n in en.sym.functions:
        f = en.sym.functions[n][0]
        returns_bool = f.type.form == "named" and f.type.name == "bool"
        rendered = [en.expr(a) for a in args]
        reading = en.phrase(f, rendered)
        if reading is not None:
            return reading
        if returns_bool:
            if not rendered:
                return humanize(n)
            subj, rest = rendered[0], rendered[1:]
            name = humanize(n)
            if subj == "you":
                name = re.sub(r"^(has|is|was) ", lambda m: {"has": "have ", "is": "are ", "was": "were "}[m.group(1)],
                              name)
            return f"{subj} {name}" + (f" ({', '.join(rest)})" if rest else "")
        if not rendered:
            return "the " + humanize(n)
        if humanize(n).split()[-1] in ("of", "at", "in", "on", "for", "from", "to", "by", "with"):
            return f"the {humanize(n)} " + (rendered[0] if len(rendered) == 1 else f"({', '.join(rendered)})")
        if len(rendered) == 1:
            if args[0].ty is not None and args[0].ty.kind == "player":
                return f"{possessive(rendered[0])} {humanize(n)}"
            return f"the {humanize(n)} of {rendered[0]}"
        return f"the {humanize(n)} of ({', '.join(rendered)})"
    if n == "count":
        if g is not None:
            cl = g.clauses[0]
            if len(g.clauses) == 1 and isinstance(g.elem, A.Name) and g.elem.name == cl.var:
                src, filt = en.over(g)
                return f"the number of {src}{filt}"
            nested = en.nested_count(g)
            if nested is not None:
                return nested
            return f"the number of {en.expr(g.elem)} {en.clauses(g)}"
        a = args[0]
        if isinstance(a, A.Name) and kind_of(a) is RefKind.PLAYERS:
            return "the number of players"
        if a.ty is not None and a.ty.kind == "zone":
            return f"the number of {en.source_phrase(a, None)}"
        return f"the number of {en.expr(a)}"
    if n == "sum":
        if g is not None:
            cl = g.clauses[0]
            el = g.elem
            if len(g.clauses) == 1 and isinstance(el, A.FieldOf) and isinstance(el.obj, A.Name) \
                    and el.obj.name == cl.var:
                src, filt = en.over(g)
                src = src if src.startswith(("the ", "your ", "all ")) or "'s " in src else "the " + src
                return f"the total {humanize(el.name)} of {src}{filt}"
            simple = isinstance(cl.source, A.Name) and kind_of(cl.source) in (RefKind.PLAYERS, RefKind.ENUM)
            if len(g.clauses) == 1 and simple and cl.cond is None:
                saved = dict(en.roles)
                en.roles[cl.var] = "each player" if kind_of(cl.source) is RefKind.PLAYERS else "each " + cl.source.name
                try:
                    return f"the total of {en.expr(el)}"
                finally:
                    en.roles = saved
            return f"the sum of {en.expr(el)} {en.clauses(g)}"
        return f"the sum of {en.expr(args[0])}"
    if n in ("any", "all"):
        if g is not None:
            return en.quantified(g, "for some" if n == "any" else "for every")
        return f"{'any' if n == 'any' else 'all'} of {en.expr(args[0])}"
    if n in ("min", "max"):
        word = "smallest" if n == "min" else "largest"
        if g is not None:
            return extreme(en, g, word)
        if len(args) == 2:
            return f"the {'smaller' if n == 'min' else 'larger'} of {en.expr(args[0])} and {en.expr(args[1])}"
        return f"the {word} of {en.expr(args[0])}"
    a0 = en.expr(args[0]) if args else ""
    if n == "first":
        if isinstance(args[0], A.Name) and kind_of(args[0]) is RefKind.PLAYERS:
            return "the first player"
        if args[0].ty is not None and args[0].ty.kind == "zone":
            return f"the top card of {a0}"
        return f"the first of {a0}"
    if n == "last":
        if args[0].ty is not None and args[0].ty.kind == "zone":
            return f"the bottom card of {a0}"
        return f"the last of {a0}"
    if n == "first_to_answer":
        return f"whichever of {a0} answered first (drawn at random where answers are not timed)"
    if n == "random":
        if isinstance(args[0], A.Name) and kind_of(args[0]) is RefKind.PLAYERS:
            return "a player chosen at random"
        return f"one of {a0} at random"
    if n == "next":
        return f"the player after {a0}"
    if n == "after":
        return f"the other players in turn order after {a0}" if a0 != "you" else \
            "the other players in turn order from you"
    if n == "abs":
        return f"the absolute value of {a0}"
    if n == "rest":
        return f"{a0} but the first"
    if n == "remove":
        return f"{a0} without {en.expr(args[1])}"
    if n == "bag":
        count = en.expr(args[1])
        if re.match(r"(the|that) ", a0):  # a named Crystal: "the Crystal to give", "2 of that Crystal"
            return a0 if count == "1" else f"{count} of {a0}"
        return f"1 {a0}" if count == "1" else f"{count} × {a0}"
    if n == "members":
        kinds = plural(en.type_noun(args[0].ty.elem)) if args[0].ty and args[0].ty.elem else "values"
        return f"the kinds of {kinds} in {a0}"
    if n == "owner":
        return f"the owner of {a0}"
    # an unknown name: still words, never a class name
    return en.proc_call(e)


def extreme(en: EnglishBase, g: A.Generator, word: str) -> str:
    """min/max over a generator: "the smallest coins among the others", "the largest score of any player's hand"."""
    cl = g.clauses[0]
    if len(g.clauses) == 1 and cl.cond is None:
        src = en.expr(cl.source)
        among = "" if src in ("all players", "players") else f" among {src}"
        el = g.elem
        if isinstance(el, A.FieldOf) and isinstance(el.obj, A.Name) and el.obj.name == cl.var:
            return f"the {word} {en.varname(el.name)}{among}"
        var_ty = cl.source.ty.element() if cl.source.ty is not None else None
        saved = dict(en.roles)
        en.roles[cl.var] = "any " + en.type_noun(var_ty.plain() if var_ty is not None else None)
        try:
            inner = en.expr(el)
        finally:
            en.roles = saved
        return f"the {word} {inner[4:] if inner.startswith('the ') else inner}{among}"
    return f"the {word} {en.expr(g.elem)} {en.clauses(g)}"


def e_list(en: EnglishBase, e: A.ListLit) -> str:
    if e.gen is not None:
        return en.gen_list(e.gen)
    if not e.items:
        return "no one" if e.ty is not None and e.ty.elem is not None and e.ty.elem.kind == "player" \
            else "nothing"
    return join_and([en.expr(i) for i in e.items])


def e_set(en: EnglishBase, e: A.SetLit) -> str:
    if not e.items:
        return "nothing"
    return join_and([en.expr(i) for i in e.items])


def e_bag(en: EnglishBase, e: A.BagLit) -> str:
    if not e.items:
        return "nothing"
    return join_and([f"{en.expr(v)} {en.display(n)}" for n, v, _ in e.items])


def e_slice(en: EnglishBase, e: A.Slice) -> str:
    src = en.expr(e.source)
    n = en.expr(e.count)
    if n == "1":
        return f"the {e.end} card of {src}"
    if isinstance(e.count, A.Literal) or n.isdigit():
        return f"the {e.end} {n} cards of {src}"
    return f"the {e.end} cards of {src} (as many as {n})"


def e_ifexpr(en: EnglishBase, e: A.IfExpr) -> str:
    return f"{en.expr(e.then)} if {en.expr(e.cond)}, otherwise {en.expr(e.other)}"


def _is_count(e) -> bool:
    return isinstance(e, A.Call) and e.name == "count"


INVERSE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "in": "not in", "not in": "in"}


def be(node, phrase: str) -> str:
    """ "are" after a variable of many things ("your crystals are empty", "your coins are 5"), else "is"."""
    if not isinstance(node, (A.Name, A.FieldOf)) or node.ty is None or not phrase.endswith("s"):
        return "is"
    kind = node.ty.plain().kind
    many = kind in ("list", "set", "bag", "zone") or (kind == "int" and not phrase.endswith(("ss", "us")))
    return "are" if many else "is"


def turn_order_from(left, right):
    """`[x] + after(x)` is every player in turn order from x: return x (else None)."""
    if isinstance(left, A.ListLit) and left.gen is None and len(left.items) == 1 and isinstance(right, A.Call) \
            and right.name == "after" and len(right.args) == 1:
        a, b = left.items[0], right.args[0]
        if isinstance(a, A.Name) and isinstance(b, A.Name) and a.name == b.name:
            return a
    return None


def e_binop(en: EnglishBase, e: A.BinOp) -> str:
    op = e.op
    if op in ("and", "or"):
        parts = []
        for side in (e.left, e.right):
            s = en.expr(side)
            if isinstance(side, A.BinOp) and side.op in ("and", "or") and side.op != op:
                s = "(" + s + ")"
            parts.append(s)
        return f"{parts[0]} {op} {parts[1]}"
    left, right = e.left, e.right
    if op in ("==", "!=") and isinstance(left, A.BinOp) and left.op == "%" and isinstance(right, A.Literal) \
            and isinstance(left.right, A.Literal) and left.right.value == 2:
        odd = (right.value == 1) == (op == "==")
        return f"{en.expr(left.left)} is {'odd' if odd else 'even'}"
    if _is_count(left) and isinstance(right, A.Literal) and right.value == 0 and op in (">", "==", "!="):
        empty = op == "=="
        if left.gen is None and isinstance(left.args[0], A.Call) and left.args[0].name == "after":
            return "there are no other players" if empty else "there are other players"
        if left.gen is None:
            what = en.expr(left.args[0])
            return f"{what} {be(left.args[0], what)} {'empty' if empty else 'not empty'}"
        inner = en.expr(left)
        what = inner[len("the number of "):] if inner.startswith("the number of ") else inner
        return f"there are no {what}" if empty else f"there are some {what}"
    if op in ("==", "!=") and isinstance(right, A.Literal) and right.value is None:
        if isinstance(left, A.Name) and left.name in en.skips:
            who, label = en.skips[left.name]
            return f"{who} {'chose' if op == '==' else 'did not choose'} {quote(label)}"
        l_ = en.expr(left)
        if isinstance(left, A.FieldOf) and left.ty is not None and not l_.startswith(f"the {humanize(left.name)} "):
            owner = en.expr(left.obj)
            field, noun = humanize(left.name), en.type_noun(left.ty.plain())
            what = field if field.lower() == noun.lower() else f"{field} {noun}"
            return f"{owner} {'have' if owner == 'you' else 'has'} {'no' if op == '==' else 'a'} {what}"
        m = re.match(r"^(.*?)(?:'s|') (.+)$", l_) if not l_.startswith("the ") else None
        if l_.startswith("your "):
            return f"you have {'no' if op == '==' else 'a'} {l_[5:]}"
        if m:
            return f"{m.group(1)} has {'no' if op == '==' else 'a'} {m.group(2)}"
        if l_.startswith("the "):
            return f"there is no {l_[4:]}" if op == "==" else f"there is {article(l_[4:])}"
        return f"there is no {l_}" if op == "==" else f"{l_} exists"
    if op in ("==", "!=") and isinstance(left, A.Name) and left.name in en.choices \
            and isinstance(right, A.Literal) and isinstance(right.value, str):
        who = en.choices[left.name]
        return f"{who} chose {quote(right.value)}" if op == "==" else \
            f"{who} did not choose {quote(right.value)}"
    if op in COMPARE:
        what = en.expr(left)
        return f"{what} {be(left, what)}{COMPARE[op][2:]} {en.expr(right)}"
    if op == "in":
        where = en.one_of(right) if isinstance(right, (A.ListLit, A.SetLit)) else "in " + en.expr(right)
        return f"{en.expr(left)} is {where}"
    if op == "not in":
        if isinstance(right, (A.ListLit, A.SetLit)) and right.items:
            return f"{en.expr(left)} is neither {join_and([en.expr(i) for i in right.items], 'nor')}"
        return f"{en.expr(left)} is not in {en.expr(right)}"
    if op in ARITH:
        start = turn_order_from(left, right)
        if op == "+" and start is not None:
            return f"every player in turn order from {en.expr(start)}"
        if op == "+" and left.ty is not None and left.ty.kind in ("list", "zone"):
            return f"{en.expr(left)} and {en.expr(right)}"
        if op == "*" and isinstance(left, A.Literal):
            return f"{left.value} × {_operand(en, right, op, True)}"
        return f"{_operand(en, left, op, False)} {ARITH[op]} {_operand(en, right, op, True)}"
    return f"{en.expr(left)} {op} {en.expr(right)}"


PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2}


def _operand(en: EnglishBase, side, op: str, right: bool) -> str:
    """One side of an arithmetic operation, in brackets where English word order would lose the grouping:
    `a - (b - c)` reads "a minus (b minus c)", `(a + b) * c` "(a plus b) times c"."""
    s = en.expr(side)
    inner = PRECEDENCE.get(side.op) if isinstance(side, A.BinOp) else None
    if inner is not None and (inner < PRECEDENCE[op] or (right and inner == PRECEDENCE[op] and op in "-/%")):
        return "(" + s + ")"
    return s


def e_unop(en: EnglishBase, e: A.UnOp) -> str:
    if e.op == "not":
        inner = e.operand
        if isinstance(inner, A.Call) and inner.name in en.sym.functions:
            reading = en.phrase(en.sym.functions[inner.name][0], [en.expr(a) for a in inner.args], negated=True)
            if reading is not None:
                return reading
        negated = en.var_reading(inner, negated=True)
        if negated is not None:
            return negated
        if isinstance(inner, (A.Name, A.FieldOf, A.Index)):
            return en.expr(inner) + " is false"
        if isinstance(inner, A.BinOp) and inner.op in INVERSE:
            return en.expr(attrs.evolve(inner, op=INVERSE[inner.op]))
        return "not " + en.expr(inner)
    return "minus " + en.expr(e.operand)


def n_genclause(en: EnglishBase, c: A.GenClause) -> str:
    var_ty = c.source.ty.element() if c.source.ty is not None else None
    s = f"for each {en.bare(c.var, var_ty)} in {en.expr(c.source)}"
    return s + (" where " + en.expr(c.cond) if c.cond is not None else "")


def n_generator(en: EnglishBase, g: A.Generator) -> str:
    return en.gen_list(g)


RENDER: dict = {
    A.Literal: e_literal, A.Name: e_name, A.FieldOf: e_field, A.Index: e_index, A.Call: e_call,
    A.ListLit: e_list, A.SetLit: e_set, A.BagLit: e_bag, A.Slice: e_slice, A.IfExpr: e_ifexpr,
    A.BinOp: e_binop, A.UnOp: e_unop, A.GenClause: n_genclause, A.Generator: n_generator,
}
