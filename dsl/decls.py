"""The syntax tree's declarations: one attrs class per top-level construct of a .wish file (`dsl.ast` gathers
them with the nodes of `dsl.nodes`)."""
from __future__ import annotations

from typing import Optional

import attrs

from .nodes import NOWHERE, Block, Expr, Node, Span, TypeRef


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

    @property
    def cells_span(self) -> Span:
        """Where its cells stand: from its first cell on (its span begins with the annotations above it)."""
        if not self.annots or not self.cells or self.cells[0].span is NOWHERE:
            return self.span
        first = self.cells[0].span
        return Span(self.span.file, first.line, first.col, self.span.end_line, self.span.end_col)


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
class Advice(Node):
    """`consider ACTION only when "label" COND`: AI players offer themselves the action only while COND holds for
    them (a free action worth taking only for what it enables). Not a rule: people may still take it."""

    action: str
    label: str
    cond: Expr


@attrs.define(eq=False, repr=False)
class Heuristic(Decl):
    """`heuristic p { weigh … }`: how AI players judge an unfinished game for player p — the score if the game
    ended now plus the weighted estimates — and which actions they consider only at times (`advice`). Not a
    rule: nothing in the game reads it."""

    var: str
    terms: list = attrs.Factory(list)
    advice: list = attrs.Factory(list)

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


__all__ = ["players_text"] + [name for name, value in list(globals().items())
                                     if isinstance(value, type) and value.__module__ == __name__]
