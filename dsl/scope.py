"""What the checker knows at a point of a body (`Scope`), and the names every game has: built-in functions, reserved
names, the fields every card has. Shared by the checker (`dsl.check`) and its expression and statement checks."""
from __future__ import annotations

from typing import Optional

import attrs

from . import types as T

# builtin functions: name → (min args, max args, accepts a generator)
BUILTINS = {
    "count": (1, 1, True),
    "sum": (1, 1, True),
    "any": (1, 1, True),
    "all": (1, 1, True),
    "min": (1, 2, True),
    "max": (1, 2, True),
    "first": (1, 1, False),
    "last": (1, 1, False),
    "random": (1, 1, False),
    "first_to_answer": (1, 1, False),
    "next": (1, 1, False),
    "after": (1, 1, False),
    "abs": (1, 1, False),
    "rest": (1, 1, False),
    "remove": (2, 2, False),
    "bag": (2, 2, False),
    "members": (1, 1, False),
    "owner": (1, 1, False),
}
RESERVED = {"players", "you", "self", *BUILTINS}
CARD_BUILTIN_FIELDS = {"name": T.TEXT}


@attrs.define
class Scope:
    """The locals and their types at a point of a body, and what that place allows."""

    locals: dict = attrs.Factory(dict)
    you: bool = False
    self_kind: Optional[str] = None
    pure: bool = False  # no random() here
    in_action: bool = False

    def child(self) -> "Scope":
        return attrs.evolve(self, locals=dict(self.locals))
