"""Plain English for every construct of the .wish language.

One function per AST class, in the dispatch table `RENDER`; a class without an entry raises `NoEnglish`, so a
new construct cannot silently fall back to a placeholder. Expressions render as noun phrases or conditions
("the number of cards in the player's hand with points 5"), statements as steps (`Step`: a sentence and the
steps nested under it), declarations as a one-line summary.

`English(sym)` needs the checked game's `Symbols` (for display names of enum members, doc strings and the types
the checker wrote into `expr.ty`).
"""
from __future__ import annotations

from . import english_decls as D
from . import english_exprs as E
from . import english_stmts as S
from .english_base import EnglishBase
from .words import NoEnglish, Step, walk


class English(EnglishBase):
    """Renders nodes of one checked game in English: every construct of the language has its function."""

    RENDER = {**E.RENDER, **S.RENDER, **D.RENDER}


RENDER: dict = English.RENDER


def describe_decl(decl, sym) -> str:
    """One declaration of a checked game (`sym`: its `Symbols`) in plain English, as Markdown-free text.

    Procedures, actions and triggers give a heading line and their steps as indented lines; everything else one
    line. This is the single-declaration entry point (e.g. for showing what a house rule changes).
    """
    return English(sym).describe(decl)


__all__ = ["English", "NoEnglish", "Step", "RENDER", "describe_decl", "walk"]
