"""Checks of a `table { … }` declaration: what a table shows of the game (issue 19).

A table is drawn from each player's view, so what it shows must be the same for everyone who looks: a value
item may read variables, rule values, enum fields and the cards of zones everyone sees, and may count the cards
of any zone; it may not read a card that some player cannot see (a hand, a deck, a card held in a variable),
directly or through a function it calls. Cards that not everyone sees are shown with `zone …`, which each
player's view draws with the cards that player knows.
"""
from __future__ import annotations

from typing import Optional

from . import ast as A
from . import types as T
from .types import holds_cards
from .refs import RefKind, kind_of
from .scope import Scope


class TableChecks:
    """Mixed into the Checker: `check_table`."""

    def check_table(self, t: A.Table) -> None:
        seen: dict = {}
        for part in t.parts:
            if part.form == "shared" and "shared" in seen:
                self.error(part, "a table has one 'shared' part; this is a second one",
                           f"the first is at line {seen['shared'].span.line}")
            seen.setdefault(part.form, part)
            sc = Scope(pure=True)
            if part.form == "board":
                elem = self.board_cells(part)
                if elem is not None:
                    sc = Scope(pure=True, locals={part.var: elem})
            elif part.form == "panel":
                sc = Scope(pure=True, locals={part.var: T.PLAYER})
            if part.var is not None:
                self.no_shadow(part, part.var)
            labels: dict = {}
            for item in part.items:
                if item.zone:
                    self.show_zone(item, sc)
                    continue
                if item.label in labels:
                    self.error(item, f"\"{item.label}\" is shown twice in this part",
                               f"the first is at line {labels[item.label].span.line}")
                labels.setdefault(item.label, item)
                self.expr(item.expr, sc)
                where = secret_read(item.expr, self.sym)
                if where is not None:
                    self.error(where, f"a table shows the same to everyone who looks: \"{item.label}\" reads "
                                      f"{what_is_secret(where, self.sym)}",
                               "show those cards with 'zone …' (each player sees what they may), or count them "
                               "with count(…)")

    def board_cells(self, part: A.TablePart) -> Optional[T.Type]:
        """The type of a board's cells: the members of one enum, as a list or a list of rows."""
        t = self.expr(part.cells, Scope(pure=True))
        elem = t.element() if t is not None and t.kind in ("list", "set") else None
        if elem is not None and elem.kind in ("list", "set"):
            elem = elem.element()
        if elem is None or elem.kind != "enum":
            self.error(part.cells, f"a board's cells must be members of an enum (a list, or a list of rows), "
                                   f"found {t}", "e.g. board a in [[north_west, north_east], [south_west, south_east]]")
            return None
        return elem

    def show_zone(self, item: A.ShowItem, sc: Scope) -> None:
        if item.rows is not None:
            self.expect(item.rows, T.INT, sc, "the cards of a row")
            where = secret_read(item.rows, self.sym)
            if where is not None:
                self.error(where, f"a table shows the same to everyone who looks: the row size reads "
                                  f"{what_is_secret(where, self.sym)}")
        if item.beside is not None:
            bt = self.expr(item.beside, sc)
            if bt is not None and bt.kind not in ("any", "list"):
                self.error(item.beside, f"'beside' needs a list (its first item beside the first row laid), "
                                        f"found {bt}", "e.g. zone table by 4 beside answers")
            where = secret_read(item.beside, self.sym)
            if where is not None:
                self.error(where, f"a table shows the same to everyone who looks: what is beside the rows reads "
                                  f"{what_is_secret(where, self.sym)}")
        for mark in item.marks:
            mt = self.expr(mark.cards, sc)
            if mt is not None and mt.kind != "any" and not holds_cards(mt):
                self.error(mark.cards, f"'marked' needs the cards to mark (a list of cards), found {mt}")
            where = Secrets(self.sym, None, cards_in_variables=True).read(mark.cards, frozenset())
            if where is not None:
                self.error(where, f"a table shows the same to everyone who looks: \"{mark.label}\" reads "
                                  f"{what_is_secret(where, self.sym)}")
        t = self.expr(item.expr, sc)
        if t is None or t.kind == "any":
            return  # its error is reported already
        if kind_of(item.expr) not in (RefKind.ZONE, RefKind.PZONE):
            self.error(item.expr, "'zone' shows a zone: write its name (`zone offer`) or a player's (`zone p.hand`)")


def zone_of(e, sym) -> Optional[A.Zone]:
    if kind_of(e) in (RefKind.ZONE, RefKind.PZONE):
        name = e.name
        return sym.zones.get(name)
    return None


def secret_read(e, sym, owner_var: Optional[str] = None):
    """The first node under `e` that reads what some player may not see, or None. With `owner_var` (a scoring
    step's player), that player's own zones and rule values are allowed too: what the player sees of themselves."""
    return Secrets(sym, owner_var).read(e, frozenset())


class Secrets:
    """Reads expressions for what not every player sees (see `secret_read`)."""

    def __init__(self, sym, owner_var: Optional[str], cards_in_variables: bool = False):
        self.sym, self.owner_var = sym, owner_var
        self.cards_in_variables = cards_in_variables  # a mark: which cards a variable holds, not what they are
        self.functions: dict = {}  # name → its first secret node (or None), once followed

    def owned(self, e) -> bool:
        """`p.X` with p the player whose own things may be read."""
        return self.owner_var is not None and isinstance(e, A.FieldOf) and isinstance(e.obj, A.Name) \
            and e.obj.name == self.owner_var

    def zone_ok(self, zone: A.Zone, e) -> bool:
        return zone.visibility == "public" or (zone.visibility == "owner" and zone.per_player and self.owned(e))

    def read(self, e, public: frozenset):
        sym = self.sym
        if isinstance(e, A.Call) and e.name == "count" and e.gen is None and len(e.args) == 1 \
                and zone_of(e.args[0], sym):
            return None  # how many cards a zone holds: every view shows that
        zone = zone_of(e, sym)
        if zone is not None:
            return None if self.zone_ok(zone, e) else e
        if kind_of(e) in (RefKind.PARAM, RefKind.PPARAM) and not self.param_ok(e):
            return e
        ty = getattr(e, "ty", None)
        if isinstance(e, A.FieldOf) and holds_cards(getattr(e.obj, "ty", None)) and self.cards_in_variables \
                and not (isinstance(e.obj, A.Name) and e.obj.name in public) and kind_of(e) is not RefKind.CBUILTIN:
            return e  # a mark may tell which cards, never what a card not everyone sees shows
        if holds_cards(ty):
            if isinstance(e, A.Name) and kind_of(e) is RefKind.LOCAL:
                return None if e.name in public or self.cards_in_variables else e
            if kind_of(e) in (RefKind.VAR, RefKind.PVAR, RefKind.KVAR) and self.cards_in_variables:
                return None  # a mark shows only on the cards the looking player knows
            if kind_of(e) in (RefKind.VAR, RefKind.PVAR, RefKind.KVAR, RefKind.SELF):
                return e  # a variable's cards are shown by name only to those who know them
        if isinstance(e, A.Call) and kind_of(e) is RefKind.FUNC:
            if e.name not in self.functions:
                self.functions[e.name] = None  # a function that calls itself: its other reads decide
                inner = Secrets(sym, None, self.cards_in_variables)
                inner.functions = self.functions
                self.functions[e.name] = inner.read(sym.functions[e.name][0].body, frozenset())
            if self.functions[e.name] is not None:
                return e
        if isinstance(e, A.Generator):
            inside = set(public)
            for cl in e.clauses:
                bad = self.read(cl.source, frozenset(inside))
                if bad is not None:
                    return bad
                zone = zone_of(cl.source, sym)
                if zone is not None and self.zone_ok(zone, cl.source):
                    inside.add(cl.var)
                if cl.cond is not None:
                    bad = self.read(cl.cond, frozenset(inside))
                    if bad is not None:
                        return bad
            return self.read(e.elem, frozenset(inside))
        for child in A.children(e):
            bad = self.read(child, public)
            if bad is not None:
                return bad
        return None

    def param_ok(self, e) -> bool:
        """A rule value is what everyone sees unless cards some player cannot see change it (a Static ability of
        a card in a hand or a secret Destiny)."""
        sym = self.sym
        for ab in {id(ab): ab for ab in sym.abilities.values()}.values():
            if not any(st.name == e.name for st in ab.statics):
                continue
            for card in ab.cards:
                kind = sym.kinds.get(sym.cards.get(card))
                for zname in (kind.active_in if kind is not None else ()):
                    zone = sym.zones.get(zname)
                    if zone is not None and not self.zone_ok(zone, e):
                        return False
        return True


def what_is_secret(e, sym) -> str:
    if kind_of(e) in (RefKind.PARAM, RefKind.PPARAM):
        return f"'{e.name}', which cards not everyone sees change"
    zone = zone_of(e, sym)
    if zone is not None:
        return f"the cards of '{zone.name}', which not everyone sees"
    if isinstance(e, A.Call) and kind_of(e) is RefKind.FUNC:
        return f"'{e.name}', which reads cards not everyone sees"
    return "a card that not everyone sees"
