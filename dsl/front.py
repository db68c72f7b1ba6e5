"""The front end in one call: a game file, or a parsed program, → the game checked under one variant.

    checked = front_end("games/house/wish_four_markers.wish", variant=None)
    checked.program, checked.decls, checked.sym

parse (dsl/parser.py) → link `extends` (dsl/link.py) → apply the variant (dsl/variants.py) → check (dsl/check.py).
A stage that finds problems raises a WishError with all of them; the stages after it do not run.
"""
from __future__ import annotations

import os
from typing import Iterable, Optional, Union

import attrs

from . import ast as A
from .check import Symbols, check
from .errors import WishCheckError
from .link import load_program
from .linked import sources, variant_names
from .variants import resolve

Source = Union[str, os.PathLike, A.Program]


@attrs.frozen
class Checked:
    """A game checked under one variant."""

    program: A.Program  # the file as parsed, linked to the games it extends
    decls: list  # its declarations under the variant
    sym: Symbols  # what the checker resolved in them
    variant: Optional[str] = None


def program_of(source: Source, allow: Iterable[str] = ()) -> A.Program:
    """The program of `source`: a path is parsed and linked (`allow`: folders `extends` may reach besides the
    game's own tree); a program is taken as it is."""
    return source if isinstance(source, A.Program) else load_program(str(source), allow)


def front_end(source: Source, variant: Optional[str] = None, allow: Iterable[str] = ()) -> Checked:
    """The game of `source` checked under `variant` (None: the base game); raises WishError with diagnostics."""
    program = program_of(source, allow)
    decls = resolve(program, variant)
    return Checked(program, decls, check(decls, program.path, sources(program)), variant)


def check_all(source: Source, allow: Iterable[str] = ()) -> Checked:
    """The base game checked, once the base game and every variant check; else one WishCheckError with the
    problems of all of them."""
    program = program_of(source, allow)
    found: dict = {}  # every diagnostic once, in the order first found
    base = None
    for v in [None] + variant_names(program):
        try:
            checked = front_end(program, v)
        except WishCheckError as err:
            found.update(dict.fromkeys(err.diagnostics))
            continue
        if v is None:
            base = checked
    if found:
        raise WishCheckError(f"{len(found)} error(s) in {program.path}", list(found), sources(program))
    return base


def check_program(program: A.Program) -> Symbols:
    """Check the base game and every variant; raise one WishCheckError with all their problems."""
    return check_all(program).sym
