"""The syntax tree's spans, and its nodes of types, expressions and statements (the declarations are in
`dsl.decls`; `dsl.ast` gathers both: read the tree through it)."""
from __future__ import annotations

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


__all__ = ["NOWHERE"] + [name for name, value in list(globals().items())
                         if isinstance(value, type) and value.__module__ == __name__]
