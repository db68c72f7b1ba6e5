"""Parsing a file declaration by declaration, each declaration's parse tree remembered by its text.

An editor sends the whole buffer after every keystroke, and a test parses many texts that differ from a game
file in a line or two: parsed part by part, only the parts that changed are read again (the language server's
analysis of Wish after an edit: its parse ~0.2 s → a few milliseconds, the syntax tree still built afresh). A
part is a top-level declaration with its doc string and annotations, from the line where it starts to the next
one (the file's opening comments go with the first); each is parsed as a file of its own and its spans moved down
by the lines before it. The grammar reads a file as a sequence of declarations and is unambiguous, so parts that
each parse give the tree the whole file gives (tested on every file of the project and on generated and mutated
ones); when a part does not parse, or anything else is unusual (a number too long, nesting too deep), None is
returned and the file is parsed whole, so every error and its place are those of a whole parse.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Optional

from . import ast as A
from .recover import decl_starts

MAX_REMEMBERED = 1000  # parse trees of parts (Wish's 183 take ~4 MB)
_trees: OrderedDict = OrderedDict()
_lock = threading.Lock()  # a web server may compile games in several threads


def parts(text: str) -> list:
    """(lines before it, its text) of each part of `text`, in order."""
    lines = text.split("\n")
    firsts, opened = [], None
    for i in decl_starts(lines):
        if opened is None:
            opened = i
        if not lines[i].startswith(('"""', "@")):  # the declaration's keyword: its doc and annotations are above
            firsts.append(opened)
            opened = None
    bounds = [0] + firsts[1:] + [len(lines)]
    return [(a, "\n".join(lines[a:b])) for a, b in zip(bounds, bounds[1:])]


def parse_parts(text: str, path: str, lark_parser, max_depth: int) -> Optional[A.Program]:
    """The syntax tree of `text`, parsed part by part; None when it must be parsed whole."""
    from lark.exceptions import UnexpectedInput, VisitError

    from .build import ToAst
    decls: list = []
    for before, part in parts(text):
        tree = _remembered(part)
        if tree is None:
            try:
                tree = lark_parser.parse(part)
            except (UnexpectedInput, RecursionError):
                return None
            _remember(part, tree)
        builder = ToAst(path, before)
        try:
            decls.extend(builder.transform(tree).decls)
        except (VisitError, RecursionError):
            return None
        if builder.problems:
            return None
    prog = A.Program(decls, path=path)
    if A.deepest(prog)[0] > max_depth:
        return None
    return prog


def _remembered(part: str):
    with _lock:
        tree = _trees.get(part)
        if tree is not None:
            _trees.move_to_end(part)
        return tree


def _remember(part: str, tree) -> None:
    with _lock:
        _trees[part] = tree
        while len(_trees) > MAX_REMEMBERED:
            _trees.popitem(last=False)
