"""What a linked program holds: the files of its `extends` chain, their texts, and its variants.

    sources(program)         # {path: text} of every file of the chain, for rendering diagnostics
    variant_names(program)   # its own variants, then those it inherits
"""
from __future__ import annotations

from typing import Optional

from . import ast as A


def sources(program: A.Program) -> dict:
    """The text of every file of the chain, by path, for rendering diagnostics."""
    out = {}
    while program is not None:
        out.setdefault(program.path, program.source)
        program = program.parent
    return out


def chain(program: A.Program) -> list:
    """The files of the chain, the named one first."""
    out = []
    while program is not None:
        out.append(program.path)
        program = program.parent
    return out


def describe(program: Optional[A.Program]) -> str:
    """'games/house/x.wish (extends games/wish.wish, variant "Solo")' for messages."""
    if program is None or program.parent is None:
        return program.path if program is not None else ""
    v = f', variant "{program.parent_variant}"' if program.parent_variant else ""
    return f"{program.path} (extends {program.parent.path}{v})"


def own_variants(program: A.Program) -> dict:
    """The variants the file itself declares, by name."""
    return {d.name: d for d in program.decls if isinstance(d, A.Variant)}


def variant_names(program: A.Program) -> list:
    """The file's own variants, then those it inherits from the game it extends (not the one it builds on)."""
    names = list(own_variants(program))
    if program.parent is not None:
        names += [n for n in variant_names(program.parent) if n != program.parent_variant and n not in names]
    return names


def find_variant(program: A.Program, name: str) -> A.Variant:
    """The block of variant `name`: the file's own, or that of the nearest game it extends."""
    while name not in own_variants(program):
        program = program.parent
    return own_variants(program)[name]
