"""Completion of names and keywords, in the context of the cursor.

    at the start of a top-level line (or in a variant block)   the words that open a declaration
    at the start of a line in a block                          what the block holds: statements, `score` …
    after `.`                                                  per-player variables, parameters, zones, fields
    inside a string                                            card names (and scoring labels after `remove`)
    elsewhere                                                  the game's names, built-ins, expression words
    in a comment or a doc string                               nothing

The keywords are the grammar's own (`dsl.highlight` derives them from dsl/grammar.lark, the words that open
a declaration from `dsl.parser.RESERVED_AT_LINE_START`); the built-in functions are the checker's
(`dsl.scope.BUILTINS`). The context is read from the text itself, so it works on half-typed text.
"""
from __future__ import annotations

import re
from typing import Optional

import attrs

from dsl import ast as A
from dsl.parser import RESERVED
from dsl.scope import BUILTINS
from dsl.words import OPENS_BEFORE_BRACE

from dsl.highlight import CONSTANTS, DECLARATIONS, KEYWORDS, OPERATOR_WORDS

from .index import IDENT_ORDER, PER_PLAYER, PSEUDO, DefKind

DECLARATION_WORDS = DECLARATIONS | OPENS_BEFORE_BRACE
STATEMENT_WORDS = RESERVED - CONSTANTS - OPERATOR_WORDS - {"then"}
EXPRESSION_WORDS = (KEYWORDS | CONSTANTS | OPERATOR_WORDS) - STATEMENT_WORDS | {"if", "else", "for"}
BLOCK_WORDS = {"game": {"players", "source"}, "scoring": {"score", "tiebreak", "lose"}, "heuristic": {"weigh", "consider"},
               "abilities": {"instant", "when", "static"}, "table": {"board", "panel", "shared"},
               "board": {"zone"}, "panel": {"zone"}, "shared": {"zone"}, "card": {"active"}, "enum": set(),
               "cards": set()}
TOP = {"", "variant"}
KEYWORD = "keyword"  # a completion that is a word of the language, not a definition
# LSP's CompletionItemKind numbers, for every kind of definition and for keywords
K = DefKind
KINDS = {K.PROCEDURE: 3, K.FUNCTION: 3, K.BUILTIN: 3, K.ACTION: 2, K.VAR: 6, K.PVAR: 10, K.PARAM: 21, K.PPARAM: 21,
         K.ZONE: 6, K.PZONE: 10, K.MEMBER: 20, K.ENUM: 13, K.CARD_KIND: 7, K.EVENT: 23, K.RULE: 23, K.FIELD: 5,
         K.CARD: 12, K.SCORING_STEP: 12, K.TIEBREAK: 12, K.VARIANT: 12, K.INVARIANT: 12, K.ESTIMATE: 12, K.GAME: 12,
         K.SETUP: 14, K.PLAY: 14, K.SCORING: 14, K.HEURISTIC: 14, K.TABLE: 14, K.GAME_FILE: 17, K.LOCAL: 6,
         KEYWORD: 14}
OPENER = re.compile(r"^[\s}]*(?:else\s*)?(?:change\s+|player\s+)?([a-z_]+)")


@attrs.frozen
class Item:
    """One completion: its label, kind (a key of KINDS), detail, and the text replacing `range`."""

    label: str
    kind: object  # a DefKind, or KEYWORD
    detail: str
    insert: str
    range: tuple


@attrs.define
class Context:
    """Where the cursor stands: in code, a string (from column `start`) or a comment; the block around it."""

    where: str = "code"  # "code" | "string" | "comment"
    block: str = ""  # the word that opened the innermost open block ("" at the top level)
    start: int = 0  # the column a string's text starts at


def context_at(text: str, line: int, col: int) -> Context:
    """Scan `text` up to 0-based `line`, `col`: strings, comments, doc strings and the open blocks."""
    lines = text.split("\n")
    openers: list = []
    in_doc = False
    for i, row in enumerate(lines[:line + 1]):
        end = col if i == line else len(row)
        j, ctx = 0, None
        while j < end:
            if in_doc:
                k = row.find('"""', j)
                if k < 0 or k + 3 > end:
                    j = end
                    ctx = Context("comment")
                    break
                in_doc, j = False, k + 3
                continue
            ch = row[j]
            if row.startswith('"""', j):
                in_doc, j = True, j + 3
                continue
            if ch == "#":
                ctx = Context("comment")
                break
            if ch == '"':
                k = _string_end(row, j)
                if k is None or k >= end:
                    ctx = Context("string", start=j + 1)
                    break
                j = k + 1
                continue
            if ch == "{":
                m = OPENER.match(row)
                openers.append(m.group(1) if m else "")
            elif ch == "}" and openers:
                openers.pop()
            j += 1
        if i == line:
            block = openers[-1] if openers else ""
            if in_doc and ctx is None:
                ctx = Context("comment")
            return attrs.evolve(ctx, block=block) if ctx else Context("code", block)
    return Context("code", openers[-1] if openers else "")


def _string_end(row: str, start: int) -> Optional[int]:
    j = start + 1
    while j < len(row):
        if row[j] == "\\":
            j += 2
            continue
        if row[j] == '"':
            return j
        j += 1
    return None


def completions(analysis, position: tuple) -> list:
    """The completion Items at an LSP position of the analysed document."""
    lines = analysis.lines
    line, col1 = lines.where(position)
    row, col = lines.line(line - 1), col1 - 1
    ctx = context_at(analysis.text, line - 1, col)
    if ctx.where == "comment":
        return []
    if ctx.where == "string":
        return _strings(analysis, row, line - 1, ctx.start, col)
    m = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", row[:col])
    start = m.start() if m else col
    rng = lines.range_of(line - 1, start, col)
    before = row[:start]
    if before.endswith("."):
        return _names(analysis, rng, PER_PLAYER) + [Item("name", K.FIELD, "a card's name", "name", rng)]
    if not before.strip():
        if ctx.block in TOP:
            return _words(DECLARATION_WORDS, rng)
        if ctx.block in BLOCK_WORDS:
            return _words(BLOCK_WORDS[ctx.block], rng)
        return _words(STATEMENT_WORDS, rng) + _locals(analysis, line, rng) + _names(analysis, rng) + \
            _builtins(rng)
    return _locals(analysis, line, rng) + _names(analysis, rng) + _builtins(rng) + _words(EXPRESSION_WORDS, rng)


def _words(words, rng) -> list:
    return [Item(w, KEYWORD, "keyword", w, rng) for w in sorted(words)]


def _builtins(rng) -> list:
    out = [Item(n, K.BUILTIN, "built-in function", n, rng) for n in sorted(BUILTINS)]
    return out + [Item(n, K.LOCAL, PSEUDO[n], n, rng) for n in PSEUDO]


def _names(analysis, rng, kinds: tuple = IDENT_ORDER) -> list:
    """The game's names of these kinds, each once (the active definition's)."""
    model = analysis.model
    if model is None:
        return []
    out, seen = [], set()
    for d in sorted(model.index.names(), key=lambda d: (d.variant is not None, IDENT_ORDER.index(d.kind))):
        if d.kind in kinds and d.name not in seen:
            seen.add(d.name)
            out.append(Item(d.name, d.kind, _detail(d), d.name, rng))
    return out


def _detail(d) -> str:
    where = f" of {d.owner}" if d.owner else ""
    return f"{d.kind.value}{where}" + (f" (variant “{d.variant}”)" if d.variant else "")


def _strings(analysis, row: str, line: int, start: int, col: int) -> list:
    """Card names (and, after `remove`, scoring labels) completing the string the cursor is in."""
    model = analysis.model
    if model is None:
        return []
    kinds = (K.CARD, K.SCORING_STEP, K.TIEBREAK) if row.lstrip().startswith("remove") else (K.CARD,)
    typed = row[start:col].lower()
    close = "" if row[col:col + 1] == '"' else '"'
    rng = analysis.lines.range_of(line, start, col)
    out, seen = [], set()
    for d in model.index.defs:
        if d.kind in kinds and d.name not in seen and d.name.lower().startswith(typed):
            seen.add(d.name)
            out.append(Item(d.name, d.kind, _detail(d), d.name + close, rng))
    return out


def _locals(analysis, line: int, rng) -> list:
    """The local names bound in the declaration around `line`: parameters, `let`, loop and choice variables."""
    model = analysis.model
    if model is None:
        return []
    decl = next((d for d in model.program.decls if d.span.line <= line <= d.span.end_line), None)
    names: list = []
    todo = [decl] if decl is not None else []
    while todo:
        node = todo.pop()
        name = _bound(node)
        if name and name not in names:
            names.append(name)
        if isinstance(node, A.Trigger):
            names.extend(n for n in node.event.binders if n not in names)
        todo.extend(reversed(A.children(node)))
    return [Item(n, K.LOCAL, "local name", n, rng) for n in names]


def _bound(node) -> Optional[str]:
    if isinstance(node, (A.ParamDecl, A.ActionParam, A.Let)):
        return node.name
    if isinstance(node, (A.For, A.GenClause, A.Simultaneous)):
        return node.var
    if isinstance(node, (A.Scoring, A.Heuristic)):
        return node.var
    if isinstance(node, A.Choose) and isinstance(node.target, A.Name):
        return node.target.name
    return None
