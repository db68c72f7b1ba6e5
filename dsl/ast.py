"""The syntax tree of a .wish file: one attrs class per grammar construct, each with its source span."""
from __future__ import annotations

import re
from typing import Any, Optional

import attrs


@attrs.frozen
class Span:
    """Where a construct stands in its file (1-based lines and columns, end exclusive)."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NOWHERE = Span("<builtin>", 0, 0, 0, 0)


@attrs.define(eq=False, repr=False)
class Node:
    """A construct of the syntax tree. (Nodes have no generated __repr__: attrs writes one per class, and those
    classes are most of the time it takes to import this module, which every command does.)"""

    span: Span = attrs.field(default=NOWHERE, kw_only=True, repr=False)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at {self.span}>"


# ---------------------------------------------------------------- types


@attrs.define(eq=False, repr=False)
class TypeRef(Node):
    """`int`, `Item`, `set of Item`, `list of player`, `bag of Crystal`, `player?`."""

    form: str  # "named" | "set" | "list" | "bag"
    name: Optional[str] = None
    elem: Optional["TypeRef"] = None
    optional: bool = False


# ---------------------------------------------------------------- expressions


@attrs.define(eq=False, repr=False)
class Expr(Node):
    """An expression. The checker fills `ty` (its Type) and `ref` (a `dsl.refs.Ref`: what it resolves to)."""

    ty: Any = attrs.field(default=None, kw_only=True, repr=False)
    ref: Any = attrs.field(default=None, kw_only=True, repr=False)


@attrs.define(eq=False, repr=False)
class Literal(Expr):
    value: Any


@attrs.define(eq=False, repr=False)
class Name(Expr):
    name: str


@attrs.define(eq=False, repr=False)
class FieldOf(Expr):
    obj: Expr
    name: str


@attrs.define(eq=False, repr=False)
class Index(Expr):
    """`name[key]`: one entry of a keyed variable."""

    obj: Expr
    key: Expr


@attrs.define(eq=False, repr=False)
class GenClause(Node):
    """`for var in source if cond`, one clause of a generator."""

    var: str
    source: Expr
    cond: Optional[Expr] = None


@attrs.define(eq=False, repr=False)
class Generator(Node):
    """`elem for var in source if cond [for …]` inside a call or a list; later clauses nest in earlier ones."""

    elem: Expr
    clauses: list


@attrs.define(eq=False, repr=False)
class Call(Expr):
    name: str
    args: list = attrs.Factory(list)
    gen: Optional[Generator] = None


@attrs.define(eq=False, repr=False)
class ListLit(Expr):
    items: list = attrs.Factory(list)
    gen: Optional[Generator] = None


@attrs.define(eq=False, repr=False)
class SetLit(Expr):
    items: list = attrs.Factory(list)


@attrs.define(eq=False, repr=False)
class BagLit(Expr):
    items: list = attrs.Factory(list)  # [(member name, Expr)]


@attrs.define(eq=False, repr=False)
class Slice(Expr):
    """`top N of zone` / `bottom N of zone`."""

    end: str  # "top" | "bottom"
    count: Expr
    source: Expr


@attrs.define(eq=False, repr=False)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    other: Expr


@attrs.define(eq=False, repr=False)
class BinOp(Expr):
    """Arithmetic, comparison, `and`, `or`, `in`, `not in`."""

    op: str
    left: Expr
    right: Expr


@attrs.define(eq=False, repr=False)
class UnOp(Expr):
    op: str  # "not" | "-"
    operand: Expr


# ---------------------------------------------------------------- statements


@attrs.define(eq=False, repr=False)
class Stmt(Node):
    pass


@attrs.define(eq=False, repr=False)
class Block(Node):
    stmts: list = attrs.Factory(list)


@attrs.define(eq=False, repr=False)
class Let(Stmt):
    name: str
    value: Expr


@attrs.define(eq=False, repr=False)
class Assign(Stmt):
    target: Expr
    op: str  # "=" | "+=" | "-="
    value: Expr


@attrs.define(eq=False, repr=False)
class Transfer(Stmt):
    """`transfer AMOUNT from PLACE to PLACE`: both change before anyone reacts to either change."""

    amount: Expr
    source: Expr
    dest: Expr


@attrs.define(eq=False, repr=False)
class ExprStmt(Stmt):
    expr: Expr


@attrs.define(eq=False, repr=False)
class If(Stmt):
    cond: Expr
    then: Block
    other: Optional[Block] = None


@attrs.define(eq=False, repr=False)
class For(Stmt):
    var: str
    source: Expr
    body: Block


@attrs.define(eq=False, repr=False)
class Repeat(Stmt):
    count: Expr
    body: Block


@attrs.define(eq=False, repr=False)
class While(Stmt):
    cond: Expr
    body: Block


@attrs.define(eq=False, repr=False)
class Move(Stmt):
    cards: Expr
    dest: Expr
    place: str = "top"  # "top" | "bottom"
    facing: Optional[str] = None  # "up" | "down" | None (keep)


@attrs.define(eq=False, repr=False)
class Shuffle(Stmt):
    zone: Expr


@attrs.define(eq=False, repr=False)
class Peek(Stmt):
    cards: Expr
    by: Expr


@attrs.define(eq=False, repr=False)
class Reveal(Stmt):
    cards: Expr


@attrs.define(eq=False, repr=False)
class Turn(Stmt):
    cards: Expr
    facing: str


@attrs.define(eq=False, repr=False)
class Swap(Stmt):
    first: Expr
    second: Expr


@attrs.define(eq=False, repr=False)
class Announce(Stmt):
    value: Expr


@attrs.define(eq=False, repr=False)
class Log(Stmt):
    parts: list


@attrs.define(eq=False, repr=False)
class Choose(Stmt):
    target: Expr
    options: Expr
    by: Optional[Expr] = None
    prompt: Optional[str] = None
    verb: Optional[str] = None
    distinct: bool = False
    skip: Optional[str] = None  # `optional "label"`: an extra option that chooses none


@attrs.define(eq=False, repr=False)
class Simultaneous(Stmt):
    var: str
    players: Expr
    target: Expr
    options: Expr
    prompt: Optional[str] = None
    verb: Optional[str] = None
    distinct: bool = False
    skip: Optional[str] = None  # `optional "label"`: an extra option that chooses none


@attrs.define(eq=False, repr=False)
class Act(Stmt):
    actions: list
    by: Expr
    prompt: Optional[str] = None


@attrs.define(eq=False, repr=False)
class Resolve(Stmt):
    card: Expr


@attrs.define(eq=False, repr=False)
class Emit(Stmt):
    name: str
    args: list = attrs.Factory(list)


@attrs.define(eq=False, repr=False)
class Require(Stmt):
    cond: Expr
    message: str


@attrs.define(eq=False, repr=False)
class EndGame(Stmt):
    pass


# ---------------------------------------------------------------- declarations


@attrs.define(eq=False, repr=False)
class Annotation(Node):
    name: str
    text: Optional[str] = None


@attrs.define(eq=False, repr=False)
class Decl(Node):
    doc: Optional[str] = attrs.field(default=None, kw_only=True)
    annots: list = attrs.field(factory=list, kw_only=True)

    @property
    def key(self) -> str:
        """The name a variant replaces or removes this declaration by."""
        return getattr(self, "name")

    @property
    def reconstructed(self) -> Optional[str]:
        for a in self.annots:
            if a.name == "reconstructed":
                return a.text or "reconstructed"
        return None

    @property
    def reads(self) -> Optional[str]:
        """The English phrase of `@reads("…")`, with `{param}` slots (see docgen)."""
        return next((a.text for a in self.annots if a.name == "reads" and a.text), None)


def players_text(lo: int, hi: int, between: str = "–") -> str:
    """"1 player", "3 players", "3–6 players" (`between` "to": "3 to 6 players")."""
    count = str(lo) if lo == hi else f"{lo}{between}{hi}"
    return f"{count} player{'' if hi == 1 else 's'}"


@attrs.define(eq=False, repr=False)
class Game(Decl):
    name: str
    min_players: int = 1
    max_players: int = 1
    source: Optional[str] = None

    @property
    def key(self) -> str:
        return "game"


@attrs.define(eq=False, repr=False)
class EnumMember(Node):
    name: str
    display: Optional[str] = None
    annots: list = attrs.Factory(list)


@attrs.define(eq=False, repr=False)
class Enum(Decl):
    """An enumeration; in its table form each member also has fields (`enum Area(crystals: …) { | … | }`)."""

    name: str
    members: list = attrs.Factory(list)
    fields: list = attrs.Factory(list)  # ParamDecl
    columns: list = attrs.Factory(list)
    rows: list = attrs.Factory(list)  # CardRow
    columns_span: Span = NOWHERE


@attrs.define(eq=False, repr=False)
class FieldDecl(Node):
    name: str
    type: TypeRef
    default: Optional[Expr] = None


@attrs.define(eq=False, repr=False)
class CardKind(Decl):
    name: str
    fields: list = attrs.Factory(list)
    active_in: list = attrs.Factory(list)


@attrs.define(eq=False, repr=False)
class CardRow(Node):
    cells: list
    annots: list = attrs.Factory(list)


@attrs.define(eq=False, repr=False)
class Cards(Decl):
    kind: str
    zone: str
    columns: list = attrs.Factory(list)
    rows: list = attrs.Factory(list)
    columns_span: Span = NOWHERE
    merge: bool = False  # `change cards …` in a variant: rows replace or add cards by name

    @property
    def key(self) -> str:
        return f"cards {self.kind}"


@attrs.define(eq=False, repr=False)
class Zone(Decl):
    name: str
    kind: str
    per_player: bool = False
    visibility: str = "hidden"
    limit: Optional[Expr] = None


@attrs.define(eq=False, repr=False)
class Var(Decl):
    """A variable: shared, one per player, or one per key (`var people[a: Area]: … = …`)."""

    name: str
    type: TypeRef
    init: Expr
    per_player: bool = False
    minimum: Optional[Expr] = None
    keyed_by: Optional["ParamDecl"] = None


@attrs.define(eq=False, repr=False)
class Param(Decl):
    name: str
    type: TypeRef
    value: Expr
    per_player: bool = False


@attrs.define(eq=False, repr=False)
class ParamDecl(Node):
    """A typed parameter of a function, procedure or event."""

    name: str
    type: TypeRef


@attrs.define(eq=False, repr=False)
class Event(Decl):
    name: str
    params: list = attrs.Factory(list)


@attrs.define(eq=False, repr=False)
class Function(Decl):
    name: str
    params: list
    type: TypeRef
    body: Expr


@attrs.define(eq=False, repr=False)
class Procedure(Decl):
    name: str
    params: list
    body: Block


@attrs.define(eq=False, repr=False)
class ActionParam(Node):
    name: str
    type: Optional[TypeRef] = None
    domain: Optional[Expr] = None


@attrs.define(eq=False, repr=False)
class Action(Decl):
    name: str
    params: list
    body: Block


@attrs.define(eq=False, repr=False)
class EventPattern(Node):
    form: str  # "custom" | "changed" | "moved"
    name: Optional[str]
    binders: list = attrs.Factory(list)


@attrs.define(eq=False, repr=False)
class Trigger(Decl):
    event: EventPattern
    cond: Optional[Expr]
    after_action: bool
    order: int
    body: Block
    name: Optional[str] = None  # `when NAME: EVENT …` names a trigger (for `remove`, `--ablate`, coverage)

    @property
    def key(self) -> str:
        if self.name is not None:
            return f"when {self.name}"
        return f"when {self.event.form} {self.event.name or ''} @{self.span.line}"


@attrs.define(eq=False, repr=False)
class Instant(Node):
    body: Block
    doc: Optional[str] = None


@attrs.define(eq=False, repr=False)
class StaticMod(Node):
    name: str
    op: str
    value: Expr
    doc: Optional[str] = None


@attrs.define(eq=False, repr=False)
class Abilities(Decl):
    """`abilities "Card" [, "Card" …] { instant … when … static … }`: the abilities of the named cards."""

    cards: list
    instant: Optional[Instant] = None
    triggers: list = attrs.Factory(list)
    statics: list = attrs.Factory(list)

    @property
    def key(self) -> str:
        return "abilities " + ", ".join(self.cards)


@attrs.define(eq=False, repr=False)
class Setup(Decl):
    body: Block

    @property
    def key(self) -> str:
        return "setup"


@attrs.define(eq=False, repr=False)
class Play(Decl):
    body: Block

    @property
    def key(self) -> str:
        return "play"


@attrs.define(eq=False, repr=False)
class ScoreStep(Node):
    form: str  # "score" | "tiebreak" | "lose"
    label: Optional[str]
    expr: Expr


@attrs.define(eq=False, repr=False)
class Scoring(Decl):
    var: str
    steps: list = attrs.Factory(list)
    merge: bool = False  # `change scoring …` in a variant: steps replace or add steps by label

    @property
    def key(self) -> str:
        return "scoring"


@attrs.define(eq=False, repr=False)
class Estimate(Node):
    """`weigh W% "label" EXPR`: one quantity a heuristic counts, with its weight in percent."""

    weight: int
    label: str
    expr: Expr


@attrs.define(eq=False, repr=False)
class Heuristic(Decl):
    """`heuristic p { weigh … }`: how AI players judge an unfinished game for player p — the score if the game
    ended now plus the weighted estimates. Not a rule: nothing in the game reads it."""

    var: str
    terms: list = attrs.Factory(list)

    @property
    def key(self) -> str:
        return "heuristic"


@attrs.define(eq=False, repr=False)
class Variant(Decl):
    name: str
    decls: list = attrs.Factory(list)

    @property
    def key(self) -> str:
        return f"variant {self.name}"


@attrs.define(eq=False, repr=False)
class Remove(Decl):
    """`remove NAME` (a declaration) or `remove "Name"` (a card of a table, or a scoring step by its label)."""

    name: str
    quoted: bool = False

    @property
    def key(self) -> str:
        return f"remove {self.name}"


@attrs.define(eq=False, repr=False)
class Extends(Decl):
    """`extends "PATH" [variant "NAME"]`: this file changes the game in PATH (under that variant)."""

    path: str
    variant: Optional[str] = None

    @property
    def key(self) -> str:
        return "extends"


@attrs.define(eq=False, repr=False)
class Invariant(Decl):
    """`invariant "name" COND`: a property that must hold after every step of every game."""

    name: str
    cond: Expr

    @property
    def key(self) -> str:
        return f"invariant {self.name}"


@attrs.define(eq=False, repr=False)
class ZoneMark(Node):
    """`marked "label" CARDS` after `zone …`: the label on each card of the zone that is among CARDS (a token on
    a card: Wish's Frostflakes on the Offer), shown on the cards the looking player knows."""

    label: str
    cards: Expr


@attrs.define(eq=False, repr=False)
class ShowItem(Node):
    """One thing a table shows: `"label" EXPR` (a value), or `zone EXPR [by N [beside LIST]]` (a zone's cards, as
    the viewer sees them, in rows of N, each row with the item of LIST for it)."""

    label: Optional[str]
    expr: Expr
    zone: bool = False
    rows: Optional[Expr] = None  # `zone EXPR by N`: the cards in rows of N, the top row first
    marks: list = attrs.Factory(list)  # ZoneMark
    beside: Optional[Expr] = None  # `… by N beside LIST`: LIST's first item beside the first row laid, and so on


@attrs.define(eq=False, repr=False)
class TablePart(Node):
    """`board V in CELLS { … }` (a cell for each member in CELLS, a list or a list of rows), `panel P { … }` (a
    panel for each player) or `shared { … }`."""

    form: str  # "board" | "panel" | "shared"
    var: Optional[str]
    cells: Optional[Expr]
    items: list = attrs.Factory(list)
    doc: Optional[str] = None


@attrs.define(eq=False, repr=False)
class Table(Decl):
    """`table { … }`: what a table shows of the game, drawn from each player's view."""

    parts: list = attrs.Factory(list)

    @property
    def key(self) -> str:
        return "table {}"  # not a name: a zone may be called `table` (Wunschmaschine's is)


@attrs.define(eq=False, repr=False)
class Program(Node):
    """A whole file: its declarations in source order."""

    decls: list = attrs.Factory(list)
    path: str = "<string>"
    source: str = ""
    parent: Optional["Program"] = None  # the game this file `extends` (set by dsl.link)
    parent_variant: Optional[str] = None


def field_names(cls) -> tuple:
    """The names of a node class's fields, in order (worked out once per class)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in attrs.fields(cls)) if attrs.has(cls) else ()
    return names


_FIELDS: dict = {}


def children(node: Node) -> list:
    """The nodes directly under `node`, in field order (in lists, and in tuples inside lists), never an extended
    file's Program."""
    out = []
    for name in field_names(type(node)):
        value = getattr(node, name)
        for item in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(item, tuple):
                out.extend(x for x in item if isinstance(x, Node))
            elif isinstance(item, Node) and not isinstance(item, Program):
                out.append(item)
    return out


def walk(root: Node):
    """Every node under `root` (itself included) with its depth, without recursion."""
    todo = [(root, 1)]
    while todo:
        node, depth = todo.pop()
        yield node, depth
        todo.extend((child, depth + 1) for child in children(node))


def deepest(root: Node):
    """(depth, node) of the most deeply nested node."""
    best = (0, root)
    for node, depth in walk(root):
        if depth > best[0]:
            best = (depth, node)
    return best


def difference(a, b) -> Optional[str]:
    """None when two syntax trees say the same thing — source positions (every Span) and a Program's text
    aside — else where they first differ (a path such as `program.decls[3].body`, near a node's place)."""
    todo = [(a, b, "program", None)]
    while todo:
        x, y, where, near = todo.pop()
        if type(x) is not type(y):
            return _near(where, near)
        if isinstance(x, Span):
            continue
        if isinstance(x, (list, tuple)):
            if len(x) != len(y):
                return _near(where, near)
            todo.extend((p, q, f"{where}[{i}]", near) for i, (p, q) in enumerate(zip(x, y)))
        elif isinstance(x, dict):
            if x.keys() != y.keys():
                return _near(where, near)
            todo.extend((x[k], y[k], f"{where}[{k!r}]", near) for k in x)
        elif isinstance(x, Node):
            todo.extend((getattr(x, n), getattr(y, n), f"{where}.{n}", x) for n in field_names(type(x))
                        if not (n == "source" and isinstance(x, Program)))
        elif x != y:
            return _near(where, near)
    return None


def _near(path: str, node) -> str:
    span = getattr(node, "span", None)
    return f"{path}, near {span}" if span is not None and span.line > 0 else path


def uses_names(root: Node, names: set) -> bool:
    """Does any plain name inside `root` read one of `names`?"""
    return any(isinstance(node, Name) and node.name in names for node, _ in walk(root))


READS_SLOT = re.compile(r"\{(\w+)(?:'s)?\}")


def reads_params(d) -> Optional[list]:
    """The names a declaration's `@reads` phrase may use, or None where `@reads` does not belong."""
    if isinstance(d, (Function, Procedure, Event, Action)):
        return [p.name for p in d.params]
    if isinstance(d, Var) and d.keyed_by is not None:
        return [d.keyed_by.name]
    if isinstance(d, Var):
        return ["player"] if d.per_player else []
    if isinstance(d, Zone):
        return []
    return None
