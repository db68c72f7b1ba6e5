"""The value types of the .wish language and the rules for combining them."""
from __future__ import annotations

from typing import Optional

import attrs


@attrs.frozen
class Type:
    """A value type. `kind` is one of: int bool text player none any enum card zone list set bag."""

    kind: str
    name: Optional[str] = None  # enum or card-kind name
    elem: Optional["Type"] = None
    optional: bool = False

    def __str__(self) -> str:
        if self.kind in ("enum", "card"):
            s = self.name or self.kind
        elif self.kind == "zone":
            s = f"zone of {self.name}"
        elif self.kind in ("list", "set", "bag"):
            s = f"{self.kind} of {self.elem}"
        else:
            s = self.kind
        return s + ("?" if self.optional and self.kind != "none" else "")

    def opt(self) -> "Type":
        return attrs.evolve(self, optional=True)

    def plain(self) -> "Type":
        return attrs.evolve(self, optional=False) if self.optional else self

    @property
    def is_collection(self) -> bool:
        return self.kind in ("list", "set", "zone")

    def element(self) -> Optional["Type"]:
        """The type of one element when iterating over a value of this type."""
        if self.kind in ("list", "set", "bag"):
            return self.elem
        if self.kind == "zone":
            return card(self.name)
        if self.kind == "any":
            return ANY
        return None


INT = Type("int")
BOOL = Type("bool")
TEXT = Type("text")
PLAYER = Type("player")
NONE = Type("none", optional=True)
ANY = Type("any")


def holds_cards(t: Optional[Type]) -> bool:
    """Is a value of this type a card, or a list or set holding cards (names some players may not know)?"""
    return t is not None and (t.kind == "card" or (t.kind in ("list", "set") and holds_cards(t.elem)))


def enum(name: str) -> Type:
    return Type("enum", name)


def card(kind: Optional[str]) -> Type:
    return Type("card", kind)


def zone(kind: Optional[str]) -> Type:
    return Type("zone", kind)


def list_of(t: Type) -> Type:
    return Type("list", elem=t)


def set_of(t: Type) -> Type:
    return Type("set", elem=t)


def bag_of(t: Type) -> Type:
    return Type("bag", elem=t)


def assignable(value: Type, target: Type) -> bool:
    """May a value of type `value` be stored where `target` is expected?"""
    if value.kind == "any" or target.kind == "any":
        return True
    if value.kind == "none":
        return target.optional
    if value.kind == "card" and target.kind == "card":
        return value.name is None or target.name is None or value.name == target.name
    if target.kind == "list" and value.kind in ("list", "zone", "set"):
        ve = value.element()
        return ve is None or assignable(ve, target.elem)
    if value.kind != target.kind:
        return False
    if value.kind in ("list", "set", "bag"):
        return assignable(value.elem, target.elem)
    if value.kind in ("enum", "zone"):
        return value.name == target.name or value.name is None or target.name is None
    return True


def comparable(a: Type, b: Type) -> bool:
    if a.kind == "none" or b.kind == "none":
        return True
    return assignable(a, b) or assignable(b, a)


def from_ref(ref, enums: set, kinds: set) -> Optional[Type]:
    """The Type named by a TypeRef, or None when the name is unknown."""
    if ref.form == "named":
        base = {"int": INT, "bool": BOOL, "text": TEXT, "player": PLAYER}.get(ref.name)
        if base is None:
            if ref.name in enums:
                base = enum(ref.name)
            elif ref.name in kinds:
                base = card(ref.name)
            else:
                return None
    else:
        inner = from_ref(ref.elem, enums, kinds)
        if inner is None:
            return None
        base = Type(ref.form, elem=inner)
    return base.opt() if ref.optional else base


BASE_TYPE_NAMES = ("int", "bool", "text", "player")
