"""The definitions of a game: every name its file and the files it `extends` declare, where each is written, and
what a position of the document names.

    index = Index(program)                   # the program linked to its `extends` chain
    index.lookup("badges")                   # [Definition(kind=DefKind.PVAR, path=".../wish.wish", …)]
    target_at(analysis, (line, character))   # the Definition the name or string there refers to

The definitions of the document come first, then those of the game it extends (so a house rule's replacement
is found before the definition it replaces), then those inside variants. A name's place is found in its file's
text from the start of its declaration (the syntax tree keeps a declaration's span, not its name's).
"""
from __future__ import annotations

import enum
import re
from typing import Optional

import attrs

from dsl import ast as A
from dsl.errors import source_lines
from dsl.refs import RefKind
from dsl.scope import BUILTINS

from .positions import contains, token_at


class DefKind(enum.Enum):
    """What a definition is; its value is how a hover's heading and a completion's detail name it."""

    PROCEDURE = "procedure"
    FUNCTION = "function"
    ACTION = "action"
    PVAR = "player variable"
    VAR = "variable"
    PPARAM = "player parameter"
    PARAM = "parameter"
    PZONE = "player zone"
    ZONE = "zone"
    MEMBER = "enum member"
    ENUM = "enum"
    CARD_KIND = "card kind"
    EVENT = "event"
    RULE = "rule"  # a named trigger
    FIELD = "field"
    CARD = "card"
    SCORING_STEP = "scoring step"
    TIEBREAK = "tie-breaker"
    VARIANT = "variant"
    INVARIANT = "invariant"
    ESTIMATE = "estimate"
    GAME = "game"
    SETUP = "setup"
    PLAY = "play"
    SCORING = "scoring"
    HEURISTIC = "heuristic"
    TABLE = "table"
    GAME_FILE = "game file"  # the file an `extends` names
    BUILTIN = "built-in"
    LOCAL = "local"  # a parameter, `let`, loop or choice variable, or an event binder


K = DefKind
IDENT_ORDER = (K.PROCEDURE, K.FUNCTION, K.ACTION, K.PVAR, K.VAR, K.PPARAM, K.PARAM, K.PZONE, K.ZONE, K.MEMBER,
               K.ENUM, K.CARD_KIND, K.EVENT, K.RULE, K.FIELD)
STRING_ORDER = (K.CARD, K.SCORING_STEP, K.TIEBREAK, K.VARIANT, K.INVARIANT, K.ESTIMATE, K.GAME)
KEYWORD_NAMED = {A.Setup: K.SETUP, A.Play: K.PLAY, A.Scoring: K.SCORING, A.Heuristic: K.HEURISTIC, A.Table: K.TABLE}
PLAIN = {A.Enum: K.ENUM, A.CardKind: K.CARD_KIND, A.Event: K.EVENT, A.Function: K.FUNCTION,
         A.Procedure: K.PROCEDURE, A.Action: K.ACTION}
DECLARED = {(A.Var, False): K.VAR, (A.Var, True): K.PVAR, (A.Param, False): K.PARAM, (A.Param, True): K.PPARAM,
            (A.Zone, False): K.ZONE, (A.Zone, True): K.PZONE}
PSEUDO = {"players": "every seat, in turn order", "you": "the player of the action or the owner of the ability",
          "self": "the card whose ability runs"}
REF_KINDS = {
    RefKind.VAR: (K.VAR,), RefKind.KEYED: (K.VAR,), RefKind.KVAR: (K.VAR,), RefKind.PARAM: (K.PARAM,),
    RefKind.ZONE: (K.ZONE,), RefKind.MEMBER: (K.MEMBER,), RefKind.ENUM: (K.ENUM,), RefKind.PVAR: (K.PVAR,),
    RefKind.PPARAM: (K.PPARAM,), RefKind.PZONE: (K.PZONE,), RefKind.EFIELD: (K.FIELD,), RefKind.CFIELD: (K.FIELD,),
    RefKind.FUNC: (K.FUNCTION,), RefKind.PROC: (K.PROCEDURE,),
}
PER_PLAYER = (K.PVAR, K.PPARAM, K.PZONE, K.FIELD)


@attrs.frozen
class Definition:
    """One declared name: what it is, where its name is written (`span`), the node that declares it and the
    top-level declaration holding that node."""

    name: str
    kind: DefKind
    span: Optional[A.Span]  # None: a built-in
    node: object = None
    decl: object = None
    owner: Optional[str] = None  # the enum or card kind of a member, a field or a card
    variant: Optional[str] = None  # declared inside this variant block
    key: Optional[str] = None  # the key `wishdsl diff` reports a change of it by

    @property
    def path(self) -> Optional[str]:
        return self.span.file if self.span is not None else None


class Index:
    """Every definition of a program's `extends` chain, by name."""

    def __init__(self, program: A.Program):
        self.program = program
        self.texts: dict = {}  # path → lines of the file
        self.defs: list = []
        self.by_name: dict = {}
        files = []
        while program is not None:
            files.append(program)
            self.texts.setdefault(program.path, source_lines(program.source))
            program = program.parent
        for f in files:
            for d in f.decls:
                if not isinstance(d, A.Variant):
                    self._decl(d, f.path, None)
        for f in files:
            for v in (d for d in f.decls if isinstance(d, A.Variant)):
                self._add(v.name, K.VARIANT, self._find(f.path, v.span, v.name, True), v, v, key=v.key)
                for d in v.decls:
                    self._decl(d, f.path, v.name)

    # ---------------------------------------------------------------- building
    def _add(self, name, kind, span, node, decl, owner=None, variant=None, key=None) -> None:
        d = Definition(name, kind, span, node, decl, owner, variant, key)
        self.defs.append(d)
        self.by_name.setdefault(name, []).append(d)

    def _decl(self, d, path: str, variant: Optional[str]) -> None:
        kind = (PLAIN.get(type(d)) or KEYWORD_NAMED.get(type(d))
                or DECLARED.get((type(d), bool(getattr(d, "per_player", False)))))
        if isinstance(d, A.Game):
            self._add(d.name, K.GAME, self._find(path, d.span, d.name, True), d, d, variant=variant, key=d.key)
        elif isinstance(d, A.Trigger):
            if d.name is not None:
                self._add(d.name, K.RULE, self._find(path, d.span, d.name), d, d, variant=variant, key=d.key)
        elif isinstance(d, A.Invariant):
            self._add(d.name, K.INVARIANT, self._find(path, d.span, d.name, True), d, d, variant=variant,
                      key=d.key)
        elif type(d) in KEYWORD_NAMED:
            self._add(kind.value, kind, self._find(path, d.span, kind.value), d, d, variant=variant, key=d.key)
        elif kind is not None:
            self._add(d.name, kind, self._find(path, d.span, d.name), d, d, variant=variant, key=d.key)
        self._parts(d, path, variant)

    def _parts(self, d, path: str, variant: Optional[str]) -> None:
        """The names declared inside a declaration: members, fields, cards, scoring steps, estimates."""
        if isinstance(d, A.Enum):
            for m in d.members or table_members(d):
                self._add(m.name, K.MEMBER, m.span, m, d, d.name, variant)
        if isinstance(d, (A.Enum, A.CardKind)):
            for f in d.fields:
                self._add(f.name, K.FIELD, f.span, f, d, d.name, variant)
        if isinstance(d, A.Cards) and "name" in d.columns:
            at = d.columns.index("name")
            for row in d.rows:
                cell = row.cells[at] if at < len(row.cells) else None
                if isinstance(cell, A.Literal) and isinstance(cell.value, str):
                    self._add(cell.value, K.CARD, cell.span, row, d, d.kind, variant, f"card {cell.value}")
        if isinstance(d, A.Scoring):
            for s in d.steps:
                if s.label is not None:
                    kind = K.SCORING_STEP if s.form == "score" else K.TIEBREAK
                    self._add(s.label, kind, self._find(path, s.span, s.label, True), s, d, None, variant,
                              f"scoring {s.form} {s.label}")
        if isinstance(d, A.Heuristic):
            for t in d.terms:
                self._add(t.label, K.ESTIMATE, self._find(path, t.span, t.label, True), t, d, None, variant)

    def _find(self, path: str, span: A.Span, name: str, quoted: bool = False) -> A.Span:
        """Where `name` is written in the declaration starting at `span` (its first few lines)."""
        lines = self.texts.get(path, [])
        pattern = re.escape(f'"{name}"') if quoted else rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])"
        for i in range(span.line, min(span.line + 3, span.end_line + 1, len(lines) + 1)):
            text = lines[i - 1]
            m = re.compile(pattern).search(text, span.col - 1 if i == span.line else 0)
            if m:
                return A.Span(path, i, m.start() + 1, i, m.end() + 1)
        return A.Span(path, span.line, span.col, span.line, span.col + 1)

    # ---------------------------------------------------------------- looking up
    def lookup(self, name: str, kinds: tuple = (), owner: Optional[str] = None) -> list:
        """The definitions of `name` (of these kinds, by their order; of this owner first), the active first."""
        found = [d for d in self.by_name.get(name, []) if not kinds or d.kind in kinds]
        if kinds:
            found.sort(key=lambda d: (d.variant is not None, kinds.index(d.kind)))
        if owner is not None:
            found.sort(key=lambda d: d.owner != owner)
        return found

    def at(self, path: str, line: int, col: int) -> Optional[Definition]:
        """The definition whose name is written at 1-based `line`, `col` of the file `path`."""
        return next((d for d in self.defs if d.path == path and contains(d.span, line, col)), None)

    def names(self) -> list:
        """Every definition with a name one can write in an expression (not cards, labels or keywords)."""
        return [d for d in self.defs if d.kind in IDENT_ORDER]


def table_members(e: A.Enum) -> list:
    """The members of a table-form enum before the checker lists them: the `member` column's names."""
    if "member" not in e.columns:
        return []
    at = e.columns.index("member")
    cells = [r.cells[at] for r in e.rows if at < len(r.cells)]
    return [A.EnumMember(c.name, span=c.span) for c in cells if isinstance(c, A.Name)]


# ---------------------------------------------------------------- what a position names


def target_at(analysis, position: tuple) -> tuple:
    """(Definition or None, the token's LSP range) for the name or string at an LSP position."""
    model = analysis.model
    lines = analysis.lines
    line, col = lines.where(position)
    token = token_at(lines.line(line - 1), col - 1)
    if model is None or token is None:
        return None, None
    form, value, start, end = token
    rng = lines.range_of(line - 1, start, end)
    index = model.index
    own = index.at(analysis.path, line, col) if analysis.fresh else None
    if own is not None:
        return own, rng
    if form == "string" and value.endswith(".wish") and model.program.parent is not None:
        return Definition(value, K.GAME_FILE, A.Span(model.program.parent.path, 1, 1, 1, 1)), rng
    if form == "string":
        found = index.lookup(value, STRING_ORDER)
        return (found[0] if found else None), rng
    node = node_at(model.program, line, col, value) if analysis.fresh else None
    return resolve(index, node, value, analysis, line), rng


def definition_at(analysis, position: tuple) -> Optional[Definition]:
    """Where the name at an LSP position is defined; on a house rule's own replacement of a definition, the
    definition it replaces in the game it extends."""
    d, _ = target_at(analysis, position)
    if d is None or d.span is None or d.path != analysis.path or d.key is None:
        return d
    line, col = analysis.lines.where(position)
    if not contains(d.span, line, col):
        return d
    replaced = [x for x in analysis.model.index.lookup(d.name, (d.kind,)) if x.path != d.path and x.key == d.key]
    return replaced[0] if replaced else d


def resolve(index: Index, node, word: str, analysis, line: int) -> Optional[Definition]:
    """The definition `word` refers to, from the node it is written in (its checked reference) or by name."""
    ref = getattr(node, "ref", None)
    if isinstance(node, BINDERS) or ref is not None and ref.kind is RefKind.LOCAL:
        return local_definition(analysis, word, line)
    if ref is not None and ref.kind in REF_KINDS:
        owner = _owner(node) if ref.kind in (RefKind.EFIELD, RefKind.CFIELD) else None
        found = index.lookup(word, REF_KINDS[ref.kind], owner)
        if found:
            return found[0]
    kinds = _kinds_of(node)
    found = index.lookup(word, kinds or IDENT_ORDER)
    if found:
        return found[0]
    if word in BUILTINS or word in PSEUDO:
        return Definition(word, K.BUILTIN, None)
    return local_definition(analysis, word, line) if analysis.fresh else None


def _owner(node) -> Optional[str]:
    ty = getattr(getattr(node, "obj", None), "ty", None)
    return getattr(ty, "name", None)


def _kinds_of(node) -> tuple:
    """The kinds a name may be, from the construct it is written in, when the checker did not resolve it."""
    if isinstance(node, A.FieldOf):
        return PER_PLAYER
    if isinstance(node, A.Call):
        return (K.FUNCTION, K.PROCEDURE)
    if isinstance(node, A.TypeRef):
        return (K.ENUM, K.CARD_KIND)
    if isinstance(node, (A.Emit, A.EventPattern)) and not getattr(node, "form", "custom") == "changed":
        return (K.EVENT,)
    if isinstance(node, (A.Act, A.Advice)):
        return (K.ACTION,)
    if isinstance(node, A.StaticMod):
        return (K.PPARAM, K.PARAM)
    return ()


def node_at(program: A.Program, line: int, col: int, word: str):
    """The innermost node of the document at `line`, `col` that names `word`, or None."""
    best = None
    todo = [d for d in program.decls if contains(d.span, line, col)]
    while todo:
        node = todo.pop()
        if _names(node, word) and (best is None or _inside(node.span, best.span)):
            best = node
        todo.extend(c for c in A.children(node) if c.span is A.NOWHERE or contains(c.span, line, col))
    return best


BINDERS = (A.ParamDecl, A.ActionParam, A.Let, A.For, A.GenClause, A.Simultaneous)


def _names(node, word: str) -> bool:
    if isinstance(node, A.Act):
        return word in node.actions
    if isinstance(node, A.Advice):
        return node.action == word
    if isinstance(node, (A.For, A.GenClause, A.Simultaneous)):
        return node.var == word
    return getattr(node, "name", None) == word and not isinstance(node, A.Decl)


def _inside(inner: A.Span, outer: A.Span) -> bool:
    return (inner.line, inner.col) >= (outer.line, outer.col) and \
        (inner.end_line, inner.end_col) <= (outer.end_line, outer.end_col)


BINDING = (r"(?:\b(?:let|for|choose|simultaneously|scoring|heuristic|board|panel)\s+{w}\b"
           r"|\b{w}\s*(?::(?!:)|\bin\b)|[(,]\s*{w}\s*[,)])")


def local_definition(analysis, word: str, line: int) -> Optional[Definition]:
    """Where a local name (a parameter, `let`, loop or choice variable, event binder) is bound: its first
    binding in the declaration around `line`."""
    model = analysis.model
    decl = next((d for d in model.program.decls if d.span.line <= line <= d.span.end_line), None)
    if decl is None:
        return None
    lines = analysis.lines.lines
    pattern = re.compile(BINDING.format(w=re.escape(word)))
    for i in range(decl.span.line, min(decl.span.end_line, len(lines)) + 1):
        m = pattern.search(lines[i - 1])
        if m:
            w = re.search(rf"\b{re.escape(word)}\b", lines[i - 1][m.start():])
            col = m.start() + w.start() + 1
            return Definition(word, K.LOCAL, A.Span(analysis.path, i, col, i, col + len(word)), None, decl)
    return None
