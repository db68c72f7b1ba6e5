"""Plain English for every construct of the .wish language.

One function per AST class, in the dispatch table `RENDER`; a class without an entry raises `NoEnglish`, so a
new construct cannot silently fall back to a placeholder. Expressions render as noun phrases or conditions
("the number of cards in the player's hand with points 5"), statements as steps (`Step`: a sentence and the
steps nested under it), declarations as a one-line summary.

`English(sym)` needs the checked game's `Symbols` (for display names of enum members, doc strings and the types
the checker wrote into `expr.ty`).
"""
from __future__ import annotations

import re
from typing import Optional

import attrs

from dsl import ast as A


class NoEnglish(Exception):
    """A construct has no English rendering (a missing entry of the dispatch table)."""


@attrs.define
class Step:
    """One step of a procedure in English, with the steps nested under it."""

    text: str
    children: list = attrs.Factory(list)

    def flat(self, depth: int = 0) -> str:
        lines = ["  " * depth + self.text]
        for c in self.children:
            lines.append(c.flat(depth + 1))
        return "\n".join(lines)


ABBREVIATIONS = {"vp": "VP", "vps": "VPs", "ok": "OK"}
IRREGULAR = {"have": "has", "do": "does", "go": "goes", "be": "is", "may": "may", "can": "can", "must": "must"}
COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
           ">=": "is at least"}
ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}
WORD_NUMBERS = {1: "once", 2: "twice"}


def humanize(name: str) -> str:
    """`vp_tokens` → "VP tokens", `WishCard` → "wish card"."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").strip()
    words = [ABBREVIATIONS.get(w.lower(), w.lower() if w[:1].isupper() and w[1:].islower() else w)
             for w in s.split()]
    return " ".join(words) or name


def title(name: str) -> str:
    h = humanize(name)
    return h[:1].upper() + h[1:]


def cap(s: str) -> str:
    return s[:1].upper() + s[1:] if s else s


def sentence(s: str) -> str:
    s = cap(s.strip())
    return s if s.endswith((".", "!", "?", ":")) else s + "."


def possessive(np: str) -> str:
    if np == "you":
        return "your"
    if np == "it":
        return "its"
    if np in ("they", "them"):
        return "their"
    return np + ("'" if np.endswith("s") and not np.endswith("'s") and " " not in np[-3:] and np[-2:] != "ss"
                 else "'s")


def third_person(phrase: str) -> str:
    """"gain any" → "gains any"."""
    verb, _, rest = phrase.partition(" ")
    if verb in IRREGULAR:
        v = IRREGULAR[verb]
    elif verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        v = verb + "es"
    elif verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        v = verb[:-1] + "ies"
    else:
        v = verb + "s"
    return v + (" " + rest if rest else "")


def conjugate(subject: str, phrase: str) -> str:
    return phrase if subject == "you" else third_person(phrase)


def join_and(items: list, word: str = "and") -> str:
    items = [i for i in items if i]
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def quote(s: str) -> str:
    return f"“{s}”"


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def plural(noun: str) -> str:
    if noun.endswith(("s", "sh", "ch", "x")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + "s"


def singular(noun: str) -> str:
    if noun.endswith("ies"):
        return noun[:-3] + "y"
    if noun.endswith("s") and not noun.endswith("ss"):
        return noun[:-1]
    return noun


ALIASES = {"to": "the destination", "from": "the origin", "at": "the place"}


def occurrences(node, name: str) -> int:
    return sum(1 for n in walk(node) if isinstance(n, A.Name) and n.name == name)


class English:
    """Renders nodes of one checked game in English."""

    def __init__(self, sym):
        self.sym = sym
        self.you_names: set = set()  # locals read as "you" (the scoring variable)
        self.it_name: Optional[str] = None  # a generator's variable inside its filter reads as "it"
        self.roles: dict = {}  # a trigger's binders: "the moved card", "the zone it left"

    # ---------------------------------------------------------------- entry points
    def describe(self, node) -> str:
        """Any node as plain text (statements and blocks flattened to lines)."""
        out = self.render(node)
        if isinstance(out, list):
            return "\n".join(s.flat() for s in out)
        if isinstance(out, Step):
            return out.flat()
        return out

    def render(self, node):
        fn = RENDER.get(type(node))
        if fn is None:
            raise NoEnglish(f"no English for {type(node).__name__}")
        return fn(self, node)

    def expr(self, e) -> str:
        if not isinstance(e, A.Expr):
            raise NoEnglish(f"not an expression: {type(e).__name__}")
        return self.render(e)

    def steps(self, block: Optional[A.Block]) -> list:
        if block is None:
            return []
        out: list = []
        for st in block.stmts:
            r = self.render(st)
            out.extend(r if isinstance(r, list) else [r])
        return out

    # ---------------------------------------------------------------- names and nouns
    def display(self, member: str) -> str:
        enum = self.sym.members.get(member)
        if enum is not None:
            for m in self.sym.enums[enum].members:
                if m.name == member:
                    return m.display if m.display and len(m.display) <= 30 else humanize(member)
        return humanize(member)

    def type_noun(self, ty) -> str:
        """A singular noun for a value of this type."""
        if ty is None:
            return "value"
        if ty.kind == "enum":
            return ty.name or "value"
        if ty.kind == "card":
            return (ty.name if ty.name and not re.search(r"[a-z][A-Z]", ty.name) else
                    humanize(ty.name) if ty.name else "card")
        if ty.kind == "player":
            return "player"
        if ty.kind == "int":
            return "number"
        if ty.kind == "text":
            return "text"
        if ty.kind == "bool":
            return "yes-or-no"
        if ty.kind in ("list", "set", "bag"):
            return plural(self.type_noun(ty.elem)) if ty.elem else "values"
        if ty.kind == "zone":
            return "zone"
        return "value"

    def local(self, name: str, ty) -> str:
        if name in self.you_names:
            return "you"
        if name == self.it_name:
            return "it"
        if name in self.roles:
            return self.roles[name]
        if name in ALIASES:
            return ALIASES[name]
        t = ty.plain() if ty is not None else None
        if t is not None and t.kind == "bool":
            return humanize(name)
        if len(name) <= 2:
            if t is not None and t.kind == "player":
                return "the player" if name == "p" else f"player {name}"
            if t is not None and t.kind in ("enum", "card"):
                return f"{self.type_noun(t)} {name}"
            return name
        return "the " + humanize(name)

    def zone_name(self, name: str) -> str:
        return "the " + humanize(name)

    def subject_of(self, e) -> str:
        return self.expr(e) if e is not None else "you"

    # ---------------------------------------------------------------- types
    def typeref(self, t: A.TypeRef) -> str:
        if t.form == "named":
            base = {"int": "a number", "bool": "yes or no", "text": "a text", "player": "a player"}.get(t.name)
            if base is None:
                base = article(t.name)
        else:
            inner = self.typeref(t.elem)
            inner_plural = plural(re.sub(r"^(a|an) ", "", inner))
            base = {"set": "a set of ", "list": "a list of ", "bag": "a bag of "}[t.form] + inner_plural
        return base + (" (or none)" if t.optional else "")

    # ---------------------------------------------------------------- generators
    def source_phrase(self, src, var_ty) -> str:
        """What a generator ranges over: "the cards in the deck", "players", "Crystals"."""
        if isinstance(src, A.Name) and src.ref == ("players",):
            return "players"
        if isinstance(src, A.Name) and src.ref and src.ref[0] == "enum":
            return plural(src.name)
        st = src.ty
        s = self.expr(src)
        if st is not None and st.kind == "zone":
            return f"cards in {s}"
        return s

    def filter_phrase(self, cond, var: str) -> str:
        """A generator's filter, after its noun: "with points 5", "other than the machine"."""
        if cond is None:
            return ""
        if isinstance(cond, A.BinOp) and cond.op == "and":
            return self.filter_phrase(cond.left, var) + " and" + self.filter_phrase(cond.right, var)
        if isinstance(cond, A.BinOp) and isinstance(cond.left, A.FieldOf) and isinstance(cond.left.obj, A.Name) \
                and cond.left.obj.name == var and not self.mentions(cond.right, var):
            field = humanize(cond.left.name)
            right = self.expr(cond.right)
            if cond.op == "==":
                return f" with {field} {right}"
            if cond.op in ("in",):
                return f" whose {field} is {self.one_of(cond.right)}"
            if cond.op in COMPARE:
                return f" whose {field} {COMPARE[cond.op]} {right}"
        if isinstance(cond, A.BinOp) and cond.op == "!=" and isinstance(cond.left, A.Name) \
                and cond.left.name == var:
            return f" other than {self.expr(cond.right)}"
        if isinstance(cond, A.BinOp) and cond.op in ("in", "not in") and isinstance(cond.left, A.Name) \
                and cond.left.name == var:
            return f" {'in' if cond.op == 'in' else 'not in'} {self.expr(cond.right)}"
        saved, self.it_name = self.it_name, var
        try:
            return " where " + self.expr(cond)
        finally:
            self.it_name = saved

    @staticmethod
    def mentions(node, name: str) -> bool:
        return A.uses_names(node, {name})

    def one_of(self, e) -> str:
        if isinstance(e, (A.ListLit, A.SetLit)) and e.items and getattr(e, "gen", None) is None:
            return join_and([self.expr(i) for i in e.items], "or")
        return "one of " + self.expr(e)

    def over(self, gen: A.Generator) -> tuple:
        """(noun phrase of what is iterated, filter) for a one-clause generator whose element is its variable."""
        cl = gen.clauses[0]
        var_ty = cl.source.ty.element() if cl.source.ty is not None else None
        return self.source_phrase(cl.source, var_ty), self.filter_phrase(cl.cond, cl.var)

    def gen_list(self, gen: A.Generator) -> str:
        """`[x for x in S if C]` as "the S with C"; other generators as "E for each v in S …"."""
        cl = gen.clauses[0]
        if len(gen.clauses) == 1 and isinstance(gen.elem, A.Name) and gen.elem.name == cl.var:
            src, filt = self.over(gen)
            return ("the " + src if not src.startswith(("the ", "your ", "player")) else src) + filt
        return self.expr(gen.elem) + " " + self.clauses(gen)

    def clauses(self, gen: A.Generator) -> str:
        parts = []
        for cl in gen.clauses:
            var_ty = cl.source.ty.element() if cl.source.ty is not None else None
            noun = self.local(cl.var, var_ty)
            src = self.expr(cl.source)
            part = f"for each {re.sub(r'^the ', '', noun)} in {src}"
            if cl.cond is not None:
                part += " where " + self.expr(cl.cond)
            parts.append(part)
        return ", ".join(parts)

    def quantified(self, gen: A.Generator, word: str) -> str:
        """any/all: "some player's coins is at least 5", or "for some player in …, COND"."""
        cl = gen.clauses[0]
        src = cl.source
        simple = isinstance(src, A.Name) and (src.ref == ("players",) or (src.ref and src.ref[0] == "enum"))
        if len(gen.clauses) == 1 and simple and cl.cond is None and occurrences(gen.elem, cl.var) == 1 \
                and not any(isinstance(n, A.Call) and n.gen is not None for n in walk(gen.elem)):
            noun = "player" if src.ref == ("players",) else src.name
            saved = dict(self.roles)
            self.roles[cl.var] = ("some " if word == "for some" else "every ") + noun
            try:
                return self.expr(gen.elem)
            finally:
                self.roles = saved
        parts = []
        for cl in gen.clauses:
            var_ty = cl.source.ty.element() if cl.source.ty is not None else None
            noun = re.sub(r"^the ", "", self.local(cl.var, var_ty))
            src = cl.source
            if isinstance(src, A.Name) and (src.ref == ("players",) or (src.ref and src.ref[0] == "enum")):
                p = f"{word} {noun}"
            else:
                p = f"{word} {noun} in {self.expr(src)}"
            if cl.cond is not None:
                p += " where " + self.expr(cl.cond)
            parts.append(p)
        return ", ".join(parts) + ", " + self.expr(gen.elem)

    # ---------------------------------------------------------------- helpers for statements
    def proc_call(self, e: A.Call, what: str = "procedure") -> str:
        """A call of a procedure or function whose first parameter is a player reads as subject and verb."""
        args = [self.expr(a) for a in e.args]
        decl = None
        if e.name in self.sym.procedures:
            decl = self.sym.procedures[e.name][0]
        elif e.name in self.sym.functions:
            decl = self.sym.functions[e.name][0]
        phrase = humanize(e.name)
        first_is_player = bool(decl and decl.params and decl.params[0].type.form == "named"
                               and decl.params[0].type.name == "player")
        if first_is_player and args:
            subject, rest = args[0], args[1:]
            tail = "" if not rest else (" " + rest[0] if len(rest) == 1 and len(rest[0].split()) <= 4
                                        else " (" + ", ".join(rest) + ")")
            return f"{subject} {conjugate(subject, phrase)}{tail}"
        if not args:
            return phrase
        return f"{phrase} ({', '.join(args)})" if len(args) > 1 else f"{phrase} {args[0]}"

    def amount(self, e) -> str:
        """An amount moved by `transfer`: a number, a bag, `bag(x, n)`."""
        if isinstance(e, A.Call) and e.name == "bag" and len(e.args) == 2:
            n = self.expr(e.args[1])
            x = self.expr(e.args[0])
            return x if n == "1" else f"{n} × {x}"
        return self.expr(e)

    def var_noun(self, target) -> tuple:
        """(owner phrase or None, humanized variable name) of an assignment target."""
        if isinstance(target, A.FieldOf) and target.ref and target.ref[0] in ("pvar", "pparam"):
            return self.expr(target.obj), self.varname(target.name)
        return None, self.expr(target)

    def varname(self, name: str) -> str:
        if name in ("at", "in", "on", "to", "from"):
            v = self.sym.vars.get(name)
            if v and v[1] is not None:
                return self.type_noun(v[1].plain())
        return humanize(name)


# ---------------------------------------------------------------- expressions


def e_literal(en: English, e: A.Literal) -> str:
    v = e.value
    if v is None:
        return "nobody" if e.ty is not None and e.ty.kind == "player" else "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return quote(v)


def e_name(en: English, e: A.Name) -> str:
    ref = e.ref or ()
    kind = ref[0] if ref else None
    if kind == "local":
        return en.local(e.name, e.ty)
    if kind == "you" or e.name == "you":
        return "you"
    if kind == "self" or e.name == "self":
        return "this card"
    if kind == "players" or e.name == "players":
        return "all players"
    if kind == "member":
        return en.display(e.name)
    if kind == "enum":
        return "every " + e.name
    if kind == "zone":
        return en.zone_name(e.name)
    if kind in ("var", "param", "keyed"):
        return "the " + en.varname(e.name)
    if e.name in en.you_names:
        return "you"
    if e.name in en.sym.members:
        return en.display(e.name)
    return en.local(e.name, e.ty)


def e_field(en: English, e: A.FieldOf) -> str:
    obj = en.expr(e.obj)
    kind = e.ref[0] if e.ref else None
    name = en.varname(e.name) if kind in ("pvar", "pparam", "pzone") else humanize(e.name)
    return f"{possessive(obj)} {name}"


def e_index(en: English, e: A.Index) -> str:
    if e.ref and e.ref[0] == "bagcount":
        return f"the number of {en.expr(e.key)} in {en.expr(e.obj)}"
    name = e.obj.name if isinstance(e.obj, A.Name) else en.expr(e.obj)
    return f"the {en.varname(name)} of {en.expr(e.key)}"


def e_call(en: English, e: A.Call) -> str:
    n = e.name
    args = e.args
    g = e.gen
    if n in en.sym.functions:
        f = en.sym.functions[n][0]
        returns_bool = f.type.form == "named" and f.type.name == "bool"
        rendered = [en.expr(a) for a in args]
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
            return f"the number of {en.expr(g.elem)} {en.clauses(g)}"
        a = args[0]
        if a.ty is not None and a.ty.kind == "zone":
            return f"the number of cards in {en.expr(a)}"
        return f"the number of {en.expr(a)}"
    if n == "sum":
        if g is not None:
            cl = g.clauses[0]
            el = g.elem
            if len(g.clauses) == 1 and isinstance(el, A.FieldOf) and isinstance(el.obj, A.Name) \
                    and el.obj.name == cl.var:
                src, filt = en.over(g)
                return f"the total {humanize(el.name)} of the {src}{filt}".replace("of the the ", "of the ")
            return f"the sum of {en.expr(el)} {en.clauses(g)}"
        return f"the sum of {en.expr(args[0])}"
    if n in ("any", "all"):
        if g is not None:
            return en.quantified(g, "for some" if n == "any" else "for every")
        return f"{'any' if n == 'any' else 'all'} of {en.expr(args[0])}"
    if n in ("min", "max"):
        word = "smallest" if n == "min" else "largest"
        if g is not None:
            return f"the {word} {en.expr(g.elem)} {en.clauses(g)}"
        if len(args) == 2:
            return f"the {'smaller' if n == 'min' else 'larger'} of {en.expr(args[0])} and {en.expr(args[1])}"
        return f"the {word} of {en.expr(args[0])}"
    a0 = en.expr(args[0]) if args else ""
    if n == "first":
        if isinstance(args[0], A.Name) and args[0].ref == ("players",):
            return "the first player"
        if args[0].ty is not None and args[0].ty.kind == "zone":
            return f"the top card of {a0}"
        return f"the first of {a0}"
    if n == "last":
        if args[0].ty is not None and args[0].ty.kind == "zone":
            return f"the bottom card of {a0}"
        return f"the last of {a0}"
    if n == "random":
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
        return f"{en.expr(args[1])} × {a0}"
    if n == "members":
        return f"the kinds of {plural(en.type_noun(args[0].ty.elem)) if args[0].ty and args[0].ty.elem else 'values'} in {a0}"
    if n == "owner":
        return f"the owner of {a0}"
    # an unknown name: still words, never a class name
    return en.proc_call(e)


def e_list(en: English, e: A.ListLit) -> str:
    if e.gen is not None:
        return en.gen_list(e.gen)
    if not e.items:
        return "no one" if e.ty is not None and e.ty.elem is not None and e.ty.elem.kind == "player" \
            else "nothing"
    return join_and([en.expr(i) for i in e.items])


def e_set(en: English, e: A.SetLit) -> str:
    if not e.items:
        return "nothing"
    return join_and([en.expr(i) for i in e.items])


def e_bag(en: English, e: A.BagLit) -> str:
    if not e.items:
        return "nothing"
    return join_and([f"{en.expr(v)} {en.display(n)}" for n, v, _ in e.items])


def e_slice(en: English, e: A.Slice) -> str:
    src = en.expr(e.source)
    n = en.expr(e.count)
    if n == "1":
        return f"the {e.end} card of {src}"
    if isinstance(e.count, A.Literal):
        return f"the {e.end} {n} cards of {src}"
    return f"the {e.end} cards of {src} ({n} of them)"


def e_ifexpr(en: English, e: A.IfExpr) -> str:
    return f"{en.expr(e.then)} if {en.expr(e.cond)}, otherwise {en.expr(e.other)}"


def _is_count(e) -> bool:
    return isinstance(e, A.Call) and e.name == "count"


def e_binop(en: English, e: A.BinOp) -> str:
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
        if left.gen is None:
            return f"{en.expr(left.args[0])} is {'empty' if empty else 'not empty'}"
        inner = en.expr(left)
        what = inner[len("the number of "):] if inner.startswith("the number of ") else inner
        return f"there are no {what}" if empty else f"there are some {what}"
    if op in ("==", "!=") and isinstance(right, A.Literal) and right.value is None:
        l_ = en.expr(left)
        m = re.match(r"^(.*?)(?:'s|') (.+)$", l_) if not l_.startswith("the ") else None
        if l_.startswith("your "):
            return f"you have {'no' if op == '==' else 'a'} {l_[5:]}"
        if m:
            return f"{m.group(1)} has {'no' if op == '==' else 'a'} {m.group(2)}"
        if l_.startswith("the "):
            return f"there is no {l_[4:]}" if op == "==" else f"there is {article(l_[4:])}"
        return f"{l_} is {'none' if op == '==' else 'not none'}"
    if op in COMPARE:
        return f"{en.expr(left)} {COMPARE[op]} {en.expr(right)}"
    if op == "in":
        return f"{en.expr(left)} is {en.one_of(right) if isinstance(right, (A.ListLit, A.SetLit)) else 'in ' + en.expr(right)}"
    if op == "not in":
        if isinstance(right, (A.ListLit, A.SetLit)) and right.items:
            return f"{en.expr(left)} is neither {join_and([en.expr(i) for i in right.items], 'nor')}"
        return f"{en.expr(left)} is not in {en.expr(right)}"
    if op in ARITH:
        if op == "+" and left.ty is not None and left.ty.kind in ("list", "zone"):
            return f"{en.expr(left)} and {en.expr(right)}"
        if op == "*" and isinstance(left, A.Literal):
            return f"{left.value} × {en.expr(right)}"
        return f"{en.expr(left)} {ARITH[op]} {en.expr(right)}"
    return f"{en.expr(left)} {op} {en.expr(right)}"


def e_unop(en: English, e: A.UnOp) -> str:
    if e.op == "not":
        inner = e.operand
        if isinstance(inner, (A.Name, A.FieldOf, A.Index)):
            return en.expr(inner) + " is false"
        return "not " + en.expr(inner)
    return "minus " + en.expr(e.operand)


def n_genclause(en: English, c: A.GenClause) -> str:
    var_ty = c.source.ty.element() if c.source.ty is not None else None
    s = f"for each {re.sub(r'^the ', '', en.local(c.var, var_ty))} in {en.expr(c.source)}"
    return s + (" where " + en.expr(c.cond) if c.cond is not None else "")


def n_generator(en: English, g: A.Generator) -> str:
    return en.gen_list(g)


# ---------------------------------------------------------------- statements


def s_let(en: English, st: A.Let) -> Step:
    return Step(sentence(f"let {en.local(st.name, st.value.ty)} be {en.expr(st.value)}"))


def s_assign(en: English, st: A.Assign) -> Step:
    owner, noun = en.var_noun(st.target)
    v = st.value
    ty = st.target.ty
    # list append and removal: x = x + [a] / x = remove(x, a)
    if st.op == "=" and isinstance(v, A.BinOp) and v.op == "+" and _same(v.left, st.target):
        return Step(sentence(f"add {en.expr(v.right)} to {en.expr(st.target)}"))
    if st.op == "=" and isinstance(v, A.Call) and v.name == "remove" and _same(v.args[0], st.target):
        return Step(sentence(f"remove {en.expr(v.args[1])} from {en.expr(st.target)}"))
    if st.op == "=":
        if owner is not None:
            return Step(sentence(f"set {possessive(owner)} {noun} to {en.expr(v)}"))
        return Step(sentence(f"set {noun} to {en.expr(v)}"))
    amount = en.expr(v)
    if owner is not None:
        verb = "gain" if st.op == "+=" else "lose"
        what = noun
        if ty is not None and ty.kind == "int":
            what = singular(noun) if amount == "1" else noun
            return Step(sentence(f"{owner} {conjugate(owner, verb)} {amount} {what}"))
        if ty is not None and ty.kind == "bag":
            return Step(sentence(f"{owner} {conjugate(owner, verb)} {amount}"))
        return Step(sentence(f"{owner} {conjugate(owner, verb)} {amount} ({noun})"))
    if st.op == "+=":
        return Step(sentence(f"add {amount} to {noun}"))
    return Step(sentence(f"take {amount} from {noun}"))


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, A.Name):
        return a.name == b.name
    if isinstance(a, A.FieldOf):
        return a.name == b.name and _same(a.obj, b.obj)
    return False


def s_transfer(en: English, st: A.Transfer) -> Step:
    return Step(sentence(f"move {en.amount(st.amount)} from {en.expr(st.source)} to {en.expr(st.dest)}"))


def s_exprstmt(en: English, st: A.ExprStmt) -> Step:
    e = st.expr
    if isinstance(e, A.Call):
        return Step(sentence(en.proc_call(e)))
    return Step(sentence(en.expr(e)))


def s_if(en: English, st: A.If) -> list:
    out = [Step(f"If {en.expr(st.cond)}:", en.steps(st.then))]
    other = st.other
    while other is not None:
        if len(other.stmts) == 1 and isinstance(other.stmts[0], A.If):
            nested = other.stmts[0]
            out.append(Step(f"Otherwise, if {en.expr(nested.cond)}:", en.steps(nested.then)))
            other = nested.other
        else:
            out.append(Step("Otherwise:", en.steps(other)))
            other = None
    return out


def s_for(en: English, st: A.For) -> Step:
    var_ty = st.source.ty.element() if st.source.ty is not None else None
    noun = re.sub(r"^the ", "", en.local(st.var, var_ty))
    src = st.source
    if isinstance(src, A.Name) and src.ref == ("players",):
        head = f"For each {noun}:" if noun != "player" else "For each player:"
    elif isinstance(src, A.Name) and src.ref and src.ref[0] == "enum":
        head = f"For each {noun}:"
    else:
        head = f"For each {noun} in {en.expr(src)}:"
    return Step(head, en.steps(st.body))


def s_repeat(en: English, st: A.Repeat) -> Step:
    c = st.count
    if isinstance(c, A.Literal) and c.value in WORD_NUMBERS:
        head = cap(WORD_NUMBERS[c.value]) + ":"
    elif isinstance(c, (A.Literal, A.Name, A.FieldOf)):
        head = f"Repeat {en.expr(c)} times:"
    else:
        head = f"Repeat as many times as {en.expr(c)}:"
    return Step(head, en.steps(st.body))


def s_while(en: English, st: A.While) -> Step:
    if isinstance(st.cond, A.Literal) and st.cond.value is True:
        return Step("Again and again, until the game ends:", en.steps(st.body))
    return Step(f"As long as {en.expr(st.cond)}:", en.steps(st.body))


def s_move(en: English, st: A.Move) -> Step:
    s = f"move {en.expr(st.cards)} to {en.expr(st.dest)}"
    if st.place == "bottom":
        s += " (at the bottom)"
    if st.facing:
        s += f" face {st.facing}"
    return Step(sentence(s))


def s_shuffle(en: English, st: A.Shuffle) -> Step:
    return Step(sentence(f"shuffle {en.expr(st.zone)}"))


def s_peek(en: English, st: A.Peek) -> Step:
    who = en.expr(st.by)
    return Step(sentence(f"{who} {conjugate(who, 'look')} at {en.expr(st.cards)} (secretly)"))


def s_reveal(en: English, st: A.Reveal) -> Step:
    return Step(sentence(f"reveal {en.expr(st.cards)} to everyone"))


def s_turn(en: English, st: A.Turn) -> Step:
    return Step(sentence(f"turn {en.expr(st.cards)} face {st.facing}"))


def s_swap(en: English, st: A.Swap) -> Step:
    return Step(sentence(f"swap {en.expr(st.first)} with {en.expr(st.second)}"))


def s_announce(en: English, st: A.Announce) -> Step:
    return Step(sentence(f"announce {en.expr(st.value)}"))


def s_log(en: English, st: A.Log) -> Step:
    parts = []
    for p in st.parts:
        if isinstance(p, A.Literal) and isinstance(p.value, str):
            parts.append(p.value)
        else:
            parts.append(en.expr(p))
    return Step("(Note: " + " ".join(parts) + ")")


def _options(en: English, options, target) -> str:
    if isinstance(options, A.Name) and options.ref and options.ref[0] == "enum":
        return article(options.name)
    if isinstance(options, A.ListLit) and options.gen is None and all(
            isinstance(i, A.Literal) and isinstance(i.value, str) for i in options.items):
        return join_and([quote(i.value) for i in options.items], "or")
    et = options.ty.element() if options.ty is not None else None
    noun = en.type_noun(et) if et is not None else "one"
    return f"{article(noun)} from {en.expr(options)}"


def _target(en: English, target, options=None) -> str:
    if isinstance(target, A.Name):
        ty = target.ty
        if ty is None and options is not None and options.ty is not None:
            ty = options.ty.element()
        return en.local(target.name, ty)
    return en.expr(target)


def s_choose(en: English, st: A.Choose) -> Step:
    who = en.subject_of(st.by)
    tgt = _target(en, st.target, st.options)
    named = isinstance(st.target, A.Name) and len(st.target.name) <= 2 and tgt.endswith(" " + st.target.name)
    if named:
        whole_enum = isinstance(st.options, A.Name) and st.options.ref and st.options.ref[0] == "enum"
        s = f"{who} {conjugate(who, 'choose')} {article(tgt) if whole_enum else tgt}" + (
            "" if whole_enum else f" from {en.expr(st.options)}")
    else:
        s = f"{who} {conjugate(who, 'choose')} {_options(en, st.options, st.target)} as {tgt}"
    if st.skip:
        s += f", or {quote(st.skip)} for none"
    if st.prompt:
        s += f" ({quote(st.prompt)})"
    return Step(sentence(s))


def s_simultaneous(en: English, st: A.Simultaneous) -> Step:
    pty = st.players.ty.element() if st.players.ty is not None else None
    noun = en.local(st.var, pty)
    s = f"at the same time, each of {en.expr(st.players)} secretly chooses {_options(en, st.options, st.target)}"
    s += f" as {en.expr(st.target)}".replace(noun + "'s ", "their ")
    if st.skip:
        s += f", or {quote(st.skip)} for none"
    if st.prompt:
        s += f" ({quote(st.prompt)})"
    return Step(sentence(s))


def s_act(en: English, st: A.Act) -> Step:
    who = en.expr(st.by)
    names = [humanize(a) for a in st.actions]
    s = f"{who} {conjugate(who, 'take')} one action: {join_and(names, 'or')}"
    if st.prompt:
        s += f" ({quote(st.prompt)})"
    return Step(sentence(s))


def s_resolve(en: English, st: A.Resolve) -> Step:
    return Step(sentence(f"resolve the Instant ability of {en.expr(st.card)}"))


def s_emit(en: English, st: A.Emit) -> Step:
    args = [en.expr(a) for a in st.args]
    s = f"this counts as {quote(humanize(st.name))}"
    if args:
        s += " (" + ", ".join(args) + ")"
    return Step(sentence(s))


def s_require(en: English, st: A.Require) -> Step:
    return Step(f"Only if {en.expr(st.cond)}; otherwise: {quote(st.message)}.")


def s_endgame(en: English, st: A.EndGame) -> Step:
    return Step("The game ends.")


def n_block(en: English, b: A.Block) -> list:
    return en.steps(b) or [Step("Nothing happens.")]


# ---------------------------------------------------------------- declarations and their parts


def d_typeref(en: English, t: A.TypeRef) -> str:
    return en.typeref(t)


def d_annotation(en: English, a: A.Annotation) -> str:
    if a.name == "reconstructed":
        return "reconstructed: " + (a.text or "not printed in the rulebook")
    return f"{humanize(a.name)}" + (f": {a.text}" if a.text else "")


def d_game(en: English, g: A.Game) -> str:
    n = f"{g.min_players}" if g.min_players == g.max_players else f"{g.min_players}–{g.max_players}"
    s = f"{g.name}, for {n} player{'s' if g.max_players != 1 else ''}"
    if g.source:
        s += f" (source: {g.source})"
    return s + "."


def d_enum_member(en: English, m: A.EnumMember) -> str:
    return m.display or humanize(m.name)


def d_enum(en: English, e: A.Enum) -> str:
    members = join_and([d_enum_member(en, m) for m in e.members])
    s = f"{e.name}: {members}"
    if e.fields:
        s += "; each with " + join_and([humanize(f.name) for f in e.fields])
    return s + "."


def d_field(en: English, f: A.FieldDecl) -> str:
    s = f"{humanize(f.name)} ({en.typeref(f.type)})"
    if f.default is not None:
        s += f", {en.expr(f.default)} unless given"
    return s


def d_cardkind(en: English, k: A.CardKind) -> str:
    s = f"A {k.name} card has " + (join_and([d_field(en, f) for f in k.fields]) if k.fields else "a name only")
    if k.active_in:
        s += "; its Ongoing and Static abilities work while it is in " + join_and(
            [en.zone_name(z) for z in k.active_in], "or")
    return s + "."


def cell(en: English, c) -> str:
    """A table cell: a quoted text without its quotes, anything else as an expression."""
    if isinstance(c, A.Literal) and isinstance(c.value, str):
        return c.value
    if isinstance(c, A.Name) and c.name in en.sym.members:
        return en.display(c.name)
    if isinstance(c, A.Literal) and c.value is None:
        return "—"
    return en.expr(c)


def d_cardrow(en: English, r: A.CardRow) -> str:
    return " | ".join(cell(en, c) for c in r.cells)


def d_cards(en: English, c: A.Cards) -> str:
    total = 0
    idx = c.columns.index("count") if "count" in c.columns else None
    for r in c.rows:
        if idx is not None and idx < len(r.cells) and isinstance(r.cells[idx], A.Literal):
            total += int(r.cells[idx].value)
        else:
            total += 1
    return f"{total} {c.kind} card{'s' if total != 1 else ''} ({len(c.rows)} different), starting in " \
           f"{en.zone_name(c.zone)}."


VISIBILITY = {"public": "face up, seen by everyone", "hidden": "face down, seen by no one",
              "owner": "seen only by its owner"}


def d_zone(en: English, z: A.Zone) -> str:
    s = f"{cap(humanize(z.name))}: {z.kind} cards, {VISIBILITY.get(z.visibility, z.visibility)}"
    if z.per_player:
        s += "; one per player"
    if z.limit is not None:
        s += f"; at most {en.expr(z.limit)}"
    return s + "."


def d_var(en: English, v: A.Var) -> str:
    name = cap(en.varname(v.name))
    if isinstance(v.init, A.Literal) and v.init.value is None:
        init = "nobody" if v.type.form == "named" and v.type.name == "player" else "none"
        return f"{name}{' (each player)' if v.per_player else ''}: starts as {init}."
    if v.keyed_by is not None:
        s = f"{name} of each {v.keyed_by.type.name or 'key'}: starts as {en.expr(v.init)}"
    else:
        s = f"{name}{' (each player)' if v.per_player else ''}: starts at {en.expr(v.init)}"
    if v.minimum is not None:
        s += f", never below {en.expr(v.minimum)}"
    return s + "."


def d_param(en: English, p: A.Param) -> str:
    return f"{cap(en.varname(p.name))}{' (each player)' if p.per_player else ''}: {en.expr(p.value)}."


def d_paramdecl(en: English, p: A.ParamDecl) -> str:
    return f"{humanize(p.name)} ({en.typeref(p.type)})"


def d_event(en: English, e: A.Event) -> str:
    s = f"Event {quote(humanize(e.name))}"
    if e.params:
        s += " with " + join_and([d_paramdecl(en, p) for p in e.params])
    return s + "."


def d_function(en: English, f: A.Function) -> str:
    params = ", ".join(humanize(p.name) for p in f.params)
    head = humanize(f.name) + (f" ({params})" if params else "")
    return f"{cap(head)}: {en.expr(f.body)}."


def d_procedure(en: English, p: A.Procedure) -> str:
    return "\n".join([cap(humanize(p.name)) + ":"] + ["  " + s.flat(1).strip() for s in en.render(p.body)])


def d_actionparam(en: English, p: A.ActionParam) -> str:
    if p.domain is not None:
        return f"{humanize(p.name)} from {en.expr(p.domain)}"
    return f"{humanize(p.name)}: any {en.typeref(p.type).split(' ', 1)[-1]}"


def d_action(en: English, a: A.Action) -> str:
    s = cap(humanize(a.name))
    if a.params:
        s += " (choose " + join_and([d_actionparam(en, p) for p in a.params]) + ")"
    return s + ":\n" + "\n".join("  " + st.flat(1).strip() for st in en.render(a.body))


def d_eventpattern(en: English, p: A.EventPattern) -> str:
    return trigger_head(en, p)


def trigger_head(en: English, p: A.EventPattern) -> str:
    if p.form == "moved":
        return "whenever a card moves from one zone to another"
    if p.form == "changed":
        v = en.sym.vars.get(p.name)
        per_player = v is not None and v[0].per_player
        return f"whenever {'a player’s ' if per_player else 'the '}{en.varname(p.name)} changes"
    s = f"whenever {quote(humanize(p.name))} happens"
    ev = en.sym.events.get(p.name)
    types = (ev[1] or []) if ev else []
    binders = [(b, types[i] if i < len(types) else None) for i, b in enumerate(p.binders) if b != "_"]
    if binders:
        s += " (" + ", ".join(en.local(b, t) for b, t in binders) + ")"
    return s


def bind_trigger(en: English, t: A.Trigger) -> dict:
    """How a trigger's binders read inside its condition and body."""
    names = {}
    p = t.event
    if p.form == "moved":
        roles = ["the moved card", "the zone it left", "the zone it entered"]
    elif p.form == "changed":
        v = en.sym.vars.get(p.name)
        roles = (["the player", "the old value", "the new value"] if v and v[0].per_player
                 else ["the key", "the old value", "the new value"] if v and v[0].keyed_by
                 else ["the old value", "the new value"])
    else:
        roles = []
    for b, r in zip(p.binders, roles):
        names[b] = r
    return names


def d_trigger(en: English, t: A.Trigger) -> str:
    head, steps = trigger_parts(en, t)
    return head + "\n" + "\n".join("  " + s.flat(1).strip() for s in steps)


def trigger_parts(en: English, t: A.Trigger) -> tuple:
    saved = dict(en.roles)
    en.roles.update(bind_trigger(en, t))
    try:
        head = cap(trigger_head(en, t.event))
        if t.cond is not None:
            head += f", if {en.expr(t.cond)}"
        if t.after_action:
            head += ", after the current action has fully resolved"
        if t.order:
            head += f" (order {t.order} among effects that happen together)"
        head += ":"
        steps = en.steps(t.body)
    finally:
        en.roles = saved
    return head, steps


def d_instant(en: English, i: A.Instant) -> str:
    return "Instant: " + " ".join(s.flat().replace("\n", " ") for s in en.steps(i.body))


def static_text(en: English, s: A.StaticMod) -> str:
    p = en.sym.params.get(s.name)
    per_player = p is not None and p[0].per_player
    name = ("your " if per_player else "the ") + en.varname(s.name)
    v = en.expr(s.value)
    if s.op == "=":
        return sentence(f"{name} is {v}")
    if s.op == "+=":
        return sentence(f"add {v} to {name}")
    return sentence(f"subtract {v} from {name}")


def d_static(en: English, s: A.StaticMod) -> str:
    return "Static: " + static_text(en, s)


def d_abilities(en: English, ab: A.Abilities) -> str:
    parts = []
    if ab.instant:
        parts.append(d_instant(en, ab.instant))
    for t in ab.triggers:
        parts.append("Ongoing: " + d_trigger(en, t))
    for s in ab.statics:
        parts.append(d_static(en, s))
    return f"{join_and([quote(c) for c in ab.cards])}: " + " ".join(parts)


def d_setup(en: English, s: A.Setup) -> str:
    return "Setup:\n" + "\n".join(st.flat(1) for st in en.steps(s.body))


def d_play(en: English, s: A.Play) -> str:
    return "Play:\n" + "\n".join(st.flat(1) for st in en.steps(s.body))


def score_step(en: English, st: A.ScoreStep, var: str) -> str:
    en.you_names.add(var)
    try:
        if st.form == "score":
            return f"{st.label}: {en.expr(st.expr)}."
        if st.form == "tiebreak":
            return f"Ties are broken by {st.label}: {en.expr(st.expr)}."
        return f"You lose (whatever your score) if {en.expr(st.expr)}."
    finally:
        en.you_names.discard(var)


def d_scorestep(en: English, st: A.ScoreStep) -> str:
    var = en.sym.scoring.var if en.sym.scoring is not None else "p"
    return score_step(en, st, var)


def d_scoring(en: English, s: A.Scoring) -> str:
    return "Scoring: " + " ".join(score_step(en, st, s.var) for st in s.steps)


def d_variant(en: English, v: A.Variant) -> str:
    return f"Variant {quote(v.name)}: " + (v.doc or f"changes {len(v.decls)} rule(s)").splitlines()[0]


def d_remove(en: English, r: A.Remove) -> str:
    return f"Removes {quote(r.name) if r.quoted else humanize(r.name)}."


def d_extends(en: English, e: A.Extends) -> str:
    under = f", variant {quote(e.variant)}" if e.variant else ""
    return f"A house rule: the game of {e.path}{under}, changed as follows."


def d_invariant(en: English, i: A.Invariant) -> str:
    return f"{cap(i.name)}: at every moment, {en.expr(i.cond)}."


def d_program(en: English, p: A.Program) -> str:
    return f"A game file with {len(p.decls)} declarations."


RENDER: dict = {
    # expressions
    A.Literal: e_literal, A.Name: e_name, A.FieldOf: e_field, A.Index: e_index, A.Call: e_call,
    A.ListLit: e_list, A.SetLit: e_set, A.BagLit: e_bag, A.Slice: e_slice, A.IfExpr: e_ifexpr,
    A.BinOp: e_binop, A.UnOp: e_unop, A.GenClause: n_genclause, A.Generator: n_generator,
    # statements
    A.Block: n_block, A.Let: s_let, A.Assign: s_assign, A.Transfer: s_transfer, A.ExprStmt: s_exprstmt,
    A.If: s_if, A.For: s_for, A.Repeat: s_repeat, A.While: s_while, A.Move: s_move, A.Shuffle: s_shuffle,
    A.Peek: s_peek, A.Reveal: s_reveal, A.Turn: s_turn, A.Swap: s_swap, A.Announce: s_announce,
    A.Log: s_log, A.Choose: s_choose, A.Simultaneous: s_simultaneous, A.Act: s_act, A.Resolve: s_resolve,
    A.Emit: s_emit, A.Require: s_require, A.EndGame: s_endgame,
    # declarations and their parts
    A.TypeRef: d_typeref, A.Annotation: d_annotation, A.Game: d_game, A.EnumMember: d_enum_member,
    A.Enum: d_enum, A.FieldDecl: d_field, A.CardKind: d_cardkind, A.CardRow: d_cardrow, A.Cards: d_cards,
    A.Zone: d_zone, A.Var: d_var, A.Param: d_param, A.ParamDecl: d_paramdecl, A.Event: d_event,
    A.Function: d_function, A.Procedure: d_procedure, A.ActionParam: d_actionparam, A.Action: d_action,
    A.EventPattern: d_eventpattern, A.Trigger: d_trigger, A.Instant: d_instant, A.StaticMod: d_static,
    A.Abilities: d_abilities, A.Setup: d_setup, A.Play: d_play, A.ScoreStep: d_scorestep,
    A.Scoring: d_scoring, A.Variant: d_variant, A.Remove: d_remove, A.Extends: d_extends, A.Invariant: d_invariant,
    A.Program: d_program,
}


def walk(node):
    """Every AST node under `node` (itself included), depth first, in field order."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        children = []
        for value in attrs.astuple(n, recurse=False) if attrs.has(type(n)) else ():
            items = value if isinstance(value, (list, tuple)) else (value,)
            for item in items:
                if isinstance(item, tuple):
                    children.extend(x for x in item if isinstance(x, A.Node))
                elif isinstance(item, A.Node):
                    children.append(item)
        todo.extend(reversed(children))
