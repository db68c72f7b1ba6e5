"""What a name, field, index or call refers to: the checker writes a `Ref` into `expr.ref`, the compiler and
docgen read it.

    e.ref = Ref(RefKind.PVAR, "coins")          # `p.coins`, a per-player variable
    kind_of(e) is RefKind.PLAYERS               # `players`; None for an expression the checker did not resolve
"""
from __future__ import annotations

import enum
from typing import Optional

import attrs


class RefKind(enum.Enum):
    """The kinds of resolution; `Ref.name` is the name resolved (None for YOU, SELF, PLAYERS, BAGCOUNT)."""

    LOCAL = "local"
    """A local name: a parameter, `let`, loop or generator variable, choice target or event binder."""
    YOU = "you"
    """`you`: the player of the action or the owner of the ability."""
    SELF = "self"
    """`self`: the card whose ability runs."""
    PLAYERS = "players"
    """`players`: every seat, in turn order."""
    VAR = "var"
    """A shared variable."""
    PARAM = "param"
    """A shared parameter."""
    ZONE = "zone"
    """A shared zone."""
    MEMBER = "member"
    """An enum member (`Ref.enum`: its enum)."""
    ENUM = "enum"
    """An enum's name as a value: the list of its members."""
    PVAR = "pvar"
    """`P.name`: a per-player variable."""
    PPARAM = "pparam"
    """`P.name`: a per-player parameter."""
    PZONE = "pzone"
    """`P.name`: a per-player zone."""
    EFIELD = "efield"
    """`M.name`: a field of an enum member."""
    CBUILTIN = "cbuiltin"
    """`C.name`: a field every card has (its name)."""
    CFIELD = "cfield"
    """`C.name`: a field declared by a card kind."""
    BAGCOUNT = "bagcount"
    """`bag[member]`: how many of the member a bag holds."""
    KEYED = "keyed"
    """The name of a keyed variable in `name[key]`."""
    KVAR = "kvar"
    """`name[key]`: one entry of a keyed variable."""
    FUNC = "func"
    """A call of a declared function."""
    BUILTIN = "builtin"
    """A call of a built-in function (count, sum, next, random …)."""
    PROC = "proc"
    """A call of a procedure, as a statement."""


@attrs.frozen
class Ref:
    """What one expression refers to."""

    kind: RefKind
    name: Optional[str] = None
    enum: Optional[str] = None

    def is_(self, *kinds: RefKind) -> bool:
        return self.kind in kinds


def kind_of(node) -> Optional[RefKind]:
    """The kind of what `node` refers to; None when the checker resolved nothing there."""
    ref = getattr(node, "ref", None)
    return ref.kind if ref is not None else None
