"""What every part of docgen's English is built from: names and nouns, types, generators, `@reads` phrases.

`EnglishBase` renders through a dispatch table it does not hold: `English` (docgen/english.py) gives it the table
of every construct, built from english_exprs, english_stmts and english_decls, which take an `EnglishBase` and so
do not import the module that imports them.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Optional

from dsl import ast as A
from dsl.ast import reads_params
from dsl.refs import RefKind, kind_of

from .naming import readings
from .words import (ALIASES, COMPARE, NoEnglish, Step, article, camel_words, conjugate, humanize, join_and, negate,
                    occurrences, plural, possessive, walk)


# locals named as owners: how they read when you chose them, and when another player did
PRONOUNS = {"mine": ("your", "their own"), "yours": ("your", "their own"), "theirs": ("their", "the other")}


class EnglishBase:
    """Renders nodes of one checked game in English, through the dispatch table `RENDER` of its subclass."""

    RENDER: dict = {}  # AST class → function(en, node); `docgen.english.English` holds one for every class

    def __init__(self, sym):
        self.sym = sym
        self.you_names: set = set()  # locals read as "you" (the scoring variable)
        self.it_name: Optional[str] = None  # a generator's variable inside its filter reads as "it"
        self.roles: dict = {}  # a trigger's binders: "the moved card", "the zone it left"
        self.choices: dict = {}  # locals chosen among texts: name → who chose
        self.choosers: dict = {}  # locals by who chose them
        self.skips: dict = {}  # locals of a choice with a way out: name → (who chose, the way out's label)
        self.names: Optional[dict] = None  # short locals of the declaration being read: name → naming.Reading

    @contextmanager
    def scope(self, node, params=()):
        """Read the short local names of `node` (one declaration) as words ("the Wish", "that Area")."""
        saved, self.names = self.names, readings(self, node, params)
        try:
            yield
        finally:
            self.names = saved

    @contextmanager
    def as_you(self, var: str):
        """Read the player variable of a scoring section or a heuristic (`p`) as "you"."""
        self.you_names.add(var)
        try:
            yield
        finally:
            self.you_names.discard(var)

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
        fn = self.RENDER.get(type(node))
        if fn is None:
            raise NoEnglish(f"no English for {type(node).__name__}")
        if self.names is None:
            with self.scope(node):
                return fn(self, node)
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
            return camel_words(ty.name) if ty.name else "value"
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
            t = ty.plain() if ty is not None else None
            if t is not None and t.kind == "player":
                return "that player"
            return f"that {t.name}" if t is not None and t.kind == "enum" and t.name else "it"
        if name in self.roles:
            return self.roles[name]
        if name in ALIASES:
            return ALIASES[name]
        if name in PRONOUNS:
            mine, other = PRONOUNS[name]
            you = self.choosers.get(name, "you") == "you"
            return f"{mine if you else other} {self.type_noun(ty.plain() if ty is not None else None)}"
        t = ty.plain() if ty is not None else None
        if t is not None and t.kind == "bool":
            return humanize(name)
        if self.names and name in self.names:
            return self.names[name].the
        if len(name) == 1 and t is not None and t.kind == "int":
            return name.upper()  # a number written as a rulebook writes one: "Repeat N times"
        if len(name) <= 2:
            if t is not None and t.kind == "player":
                return "the player" if name == "p" else f"player {name}"
            if t is not None and t.kind in ("enum", "card"):
                return f"{self.type_noun(t)} {name}"
            return name
        return "the " + humanize(name)

    def param_name(self, name: str) -> str:
        """A parameter in a list of parameters: "the Wish", "the player", "the column", "N"."""
        if self.names and name in self.names:
            return self.names[name].the
        if name == "p":
            return "the player"
        if name in ALIASES:
            return ALIASES[name]
        return name.upper() if len(name) == 1 else humanize(name) if len(name) <= 2 else "the " + humanize(name)

    def bare(self, name: str, ty) -> str:
        """A local as a bare noun, after "each" or "some": "Area", "player"."""
        return re.sub(r"^(the|that) ", "", self.local(name, ty))

    def intro(self, name: str, ty) -> str:
        """A local where it is chosen: "a Wish", "a Crystal to give", "another Crystal"."""
        r = (self.names or {}).get(name)
        if r is None:
            return self.local(name, ty)
        return "another " + r.noun[len("other "):] if r.noun.startswith("other ") else article(r.noun)

    def zone_noun(self, name: str) -> str:
        """A zone's noun: its `@reads` phrase ("fulfilled Wishes"), or its name in words."""
        z = self.sym.zones.get(name)
        return (z.reads if z is not None else None) or humanize(name)

    def zone_name(self, name: str) -> str:
        return "the " + self.zone_noun(name)

    def subject_of(self, e) -> str:
        return self.expr(e) if e is not None else "you"

    # ---------------------------------------------------------------- types
    def typeref(self, t: A.TypeRef) -> str:
        if t.form == "named":
            base = {"int": "a number", "bool": "yes or no", "text": "a text", "player": "a player"}.get(t.name)
            if base is None:
                base = article(camel_words(t.name))
        else:
            inner = self.typeref(t.elem)
            inner_plural = plural(re.sub(r"^(a|an) ", "", inner))
            base = {"set": "a set of ", "list": "a list of ", "bag": "a bag of "}[t.form] + inner_plural
        return base + (" (or none)" if t.optional else "")

    # ---------------------------------------------------------------- generators
    def source_phrase(self, src, var_ty) -> str:
        """What a generator ranges over: "the cards in the deck", "players", "Crystals"."""
        if isinstance(src, A.Name) and kind_of(src) is RefKind.PLAYERS:
            return "players"
        if isinstance(src, A.Name) and kind_of(src) is RefKind.ENUM:
            return plural(src.name)
        st = src.ty
        s = self.expr(src)
        zone = src.name if isinstance(src, (A.Name, A.FieldOf)) else None
        if st is not None and st.kind == "zone" and not self.zone_noun(zone or "").endswith("s"):
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

    def nested_count(self, gen: A.Generator) -> Optional[str]:
        """`count(w for q in players for w in q.fulfilled if C)`: "the number of cards in any player's fulfilled
        whose …", when the outer clauses range over all players or an enum, unfiltered."""
        *outer, last = gen.clauses
        simple = all(cl.cond is None and isinstance(cl.source, A.Name)
                     and kind_of(cl.source) in (RefKind.PLAYERS, RefKind.ENUM) for cl in outer)
        if not outer or not simple or not (isinstance(gen.elem, A.Name) and gen.elem.name == last.var):
            return None
        saved = dict(self.roles)
        for cl in outer:
            self.roles[cl.var] = "any player" if kind_of(cl.source) is RefKind.PLAYERS else "any " + cl.source.name
        try:
            var_ty = last.source.ty.element() if last.source.ty is not None else None
            return f"the number of {self.source_phrase(last.source, var_ty)}{self.filter_phrase(last.cond, last.var)}"
        finally:
            self.roles = saved

    def gen_list(self, gen: A.Generator) -> str:
        """`[x for x in S if C]` as "the S with C"; other generators as "E for each v in S …"."""
        cl = gen.clauses[0]
        if len(gen.clauses) == 1 and isinstance(gen.elem, A.Name) and gen.elem.name == cl.var:
            src, filt = self.over(gen)
            return ("the " + src if not src.startswith(("the ", "your ", "player ")) else src) + filt
        el = gen.elem
        if len(gen.clauses) == 1 and isinstance(el, A.FieldOf) and isinstance(el.obj, A.Name) and el.obj.name == cl.var:
            saved, self.it_name = self.it_name, cl.var
            try:
                src = self.expr(cl.source)
                filt = " where " + self.expr(cl.cond) if cl.cond is not None else ""
            finally:
                self.it_name = saved
            name = self.varname(el.name) if kind_of(el) in (RefKind.PVAR, RefKind.PPARAM) else humanize(el.name)
            return f"the {name} of {src if src.startswith(('the ', 'all ', 'your ')) else 'the ' + src}{filt}"
        return self.expr(gen.elem) + " " + self.clauses(gen)

    def clauses(self, gen: A.Generator) -> str:
        parts = []
        for cl in gen.clauses:
            var_ty = cl.source.ty.element() if cl.source.ty is not None else None
            part = f"for each {self.bare(cl.var, var_ty)} in {self.expr(cl.source)}"
            if cl.cond is not None:
                part += " where " + self.expr(cl.cond)
            parts.append(part)
        return ", ".join(parts)

    def quantified(self, gen: A.Generator, word: str) -> str:
        """any/all: "some player's coins is at least 5", or "for some player in …, COND"."""
        cl = gen.clauses[0]
        src = cl.source
        simple = isinstance(src, A.Name) and kind_of(src) in (RefKind.PLAYERS, RefKind.ENUM)
        if len(gen.clauses) == 1 and cl.cond is None and occurrences(gen.elem, cl.var) == 1 \
                and not any(isinstance(n, A.Call) and n.gen is not None for n in walk(gen.elem)):
            if simple:
                noun = "player" if kind_of(src) is RefKind.PLAYERS else src.name
            else:
                var_ty = src.ty.element() if src.ty is not None else None
                noun = f"{self.type_noun(var_ty.plain() if var_ty is not None else None)} in {self.expr(src)}"
            saved = dict(self.roles)
            self.roles[cl.var] = ("some " if word == "for some" else "every ") + noun
            try:
                return self.expr(gen.elem)
            finally:
                self.roles = saved
        parts = []
        for cl in gen.clauses:
            var_ty = cl.source.ty.element() if cl.source.ty is not None else None
            noun = self.bare(cl.var, var_ty)
            src = cl.source
            if isinstance(src, A.Name) and kind_of(src) in (RefKind.PLAYERS, RefKind.ENUM):
                p = f"{word} {noun}"
            else:
                p = f"{word} {noun} in {self.expr(src)}"
            if cl.cond is not None:
                p += " where " + self.expr(cl.cond)
            parts.append(p)
        return ", ".join(parts) + ", " + self.expr(gen.elem)

    # ---------------------------------------------------------------- helpers for statements
    def decl_of(self, name: str):
        """The function, procedure or event called `name`, or None."""
        for table in (self.sym.procedures, self.sym.functions, self.sym.events):
            if name in table:
                return table[name][0]
        return None

    def phrase(self, decl, args: list, negated: bool = False) -> Optional[str]:
        """A declaration's `@reads` phrase with its slots filled by the rendered arguments (None without one).

        A word right after a leading slot is a verb written for "you" ("{p} gain …"): it agrees with the
        subject, or is negated ("does not gain"; None when the phrase has no such verb). `{p's}` is a possessive;
        `[s]` a plural ending, dropped after a slot that reads "1"; a slot after a number drops its "the" or reads
        "Y of X" for "X's Y" ("gain one {x}" → "gain one crystal of this card's color").
        """
        template = decl.reads if decl is not None else None
        if template is None:
            return None
        values = dict(zip(reads_params(decl) or [], args))
        parts = re.split(r"(\{\w+(?:'s)?\}|\[s\])", template)
        out, last = "", None
        for i, part in enumerate(parts):
            slot = re.fullmatch(r"\{(\w+)('s)?\}", part)
            if slot:
                value = values.get(slot.group(1), humanize(slot.group(1)))
                named = self.names and value in {r.the for r in self.names.values()}
                if named and re.search(r"\b(1|one|a|an)\s$", out):  # "gain one {x}" of a named Crystal
                    out = re.sub(r"\b(1|one|a|an)\s$", "", out)
                elif re.search(r"['’]s?\s$", out) and re.match(r"(the|that) ", value):  # "{p's} {column}"
                    value = value.split(" ", 1)[1]
                elif re.search(r"\b(\d+|one|two|three|a|an|each|every|any)\s$", out):
                    owned = re.fullmatch(r"((?:(?:the|that) )?(?:[A-Z]\w* )?\w+)'s (\w[\w ]*)", value)
                    value = f"{owned.group(2)} of {owned.group(1)}" if owned else \
                        value[4:] if value.startswith("the ") else value
                value = possessive(value) if slot.group(2) else value
                out, last = out + value, value
            elif part == "[s]":
                out += "" if last == "1" else "s"
            elif i == 2 and parts[0] == "" and not parts[1].endswith("'s}") and part[:1] == " " \
                    and part[1:2].isalpha():
                out += " " + (negate(last, part[1:]) if negated else conjugate(last, part[1:]))
                negated = False
            else:
                out += part
        return None if negated else out

    def proc_call(self, e: A.Call, what: str = "procedure") -> str:
        """A call of a procedure or function whose first parameter is a player reads as subject and verb."""
        args = [self.expr(a) for a in e.args]
        decl = self.decl_of(e.name)
        if isinstance(decl, A.Event):
            decl = None
        reading = self.phrase(decl, args)
        if reading is not None:
            return reading
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

    def var_noun(self, target) -> tuple:
        """(owner phrase or None, humanized variable name) of an assignment target."""
        reading = self.var_reading(target)
        if reading is not None:
            return None, reading
        if isinstance(target, A.FieldOf) and kind_of(target) in (RefKind.PVAR, RefKind.PPARAM):
            return self.expr(target.obj), self.varname(target.name)
        return None, self.expr(target)

    def var_reading(self, e, negated: bool = False) -> Optional[str]:
        """A variable's `@reads` phrase for `v` or `P.v` ("this is the last round", "your turn is over"), or None.
        Negated: the first "is", "are", "has" … of the phrase takes a "not"."""
        if isinstance(e, A.Name) and kind_of(e) is RefKind.VAR:
            decl, args = self.sym.vars[e.name][0], []
        elif isinstance(e, A.FieldOf) and kind_of(e) is RefKind.PVAR and e.name in self.sym.vars:
            decl, args = self.sym.vars[e.name][0], [self.expr(e.obj)]
        else:
            return None
        reading = self.phrase(decl, args)
        if reading is None or not negated:
            return reading
        out, n = re.subn(r"\b(is|are|was|were|can|may|must|will|has|have)\b( \w+ed\b)?",
                         lambda m: m.group(1) + " not" + (m.group(2) or "") if m.group(2) or m.group(1) not in (
                             "has", "have") else {"has": "does not have", "have": "do not have"}[m.group(1)],
                         reading, count=1)
        return out if n else f"it is not the case that {reading}"

    def varname(self, name: str) -> str:
        if name in ("at", "in", "on", "to", "from"):
            v = self.sym.vars.get(name)
            if v and v[1] is not None:
                return self.type_noun(v[1].plain())
        return humanize(name)
