"""The tokens `wishdsl fmt` writes, each with its role in the layout, and the spaces between two of them.

The text is parsed by the grammar's own LALR parser with every token kept; comments are collected by a lexer
callback. The tree says which tokens start an item (a declaration, a statement, a field, a table row…), which
braces hold a body, which parentheses belong to a call, and how wide the columns of a card table are.
"""
from __future__ import annotations

from .parser import layout_parser

ALIGN_LIMIT = 64  # a table column with a wider cell is not padded, nor any column after it

# Rules whose `{ … }` hold a body: one item a line, indented one level.
BODIES = frozenset({"game_decl", "enum_table", "card_decl", "cards_decl", "abilities_decl", "scoring_decl",
                    "heuristic_decl", "variant_decl", "table_decl", "table_board", "table_panel", "table_shared",
                    "block"})
ITEM_LISTS = frozenset({"start", "documented", "ability"})  # each child starts a line
CALL_PARENS = frozenset({"call", "event_decl", "function_decl", "procedure_decl", "action_decl", "emit_stmt",
                         "custom_pattern", "changed_pattern", "moved_pattern", "enum_table", "annotation"})
INDEX_BRACKETS = frozenset({"index", "var_key"})
TIGHT_BEFORE = frozenset({",", ":", "?", ";", ".", ".."})
TIGHT_AFTER = frozenset({".", ".."})
OPENS, CLOSES = ("(", "[", "{"), (")", "]", "}")

_parser = None
_comments: list = []


class Tok:
    """One token as written: its text, where it stood, and its role."""

    __slots__ = ("text", "kind", "line", "col", "end_line", "pos", "item", "glue", "body", "spaced", "prefix",
                 "attached", "pad")

    def __init__(self, token, kind: str, text: str):
        self.text, self.kind = text, kind
        self.line, self.col, self.pos = token.line, token.column, token.start_pos
        self.end_line = token.end_line or token.line
        self.item = self.glue = self.body = self.spaced = self.prefix = self.attached = False
        self.pad = None  # the spaces before a table's '|', when its columns are aligned

    @classmethod
    def of(cls, token) -> "Tok":
        v = token.value
        return cls(token, "open" if v in OPENS else "close" if v in CLOSES else "word", v)

    @classmethod
    def comment(cls, token) -> "Tok":
        return cls(token, "comment", token.value.rstrip())

    @property
    def opens(self) -> bool:
        return self.kind == "open"

    @property
    def closes(self) -> bool:
        return self.kind == "close"


def tokens(text: str) -> list:
    """Every token and comment of a text that parses, in order, each marked with its role."""
    from lark import Token, Tree

    _comments.clear()
    tree = _fmt_parser().parse(text)
    comments = [Tok.comment(c) for c in _comments]
    _comments.clear()
    toks: dict = {}
    todo = [tree]
    while todo:
        node = todo.pop()
        kids = [k for k in node.children if k is not None]
        for k in kids:
            if isinstance(k, Token):
                toks.setdefault(id(k), Tok.of(k))
        _mark(node.data, kids, toks, Token)
        todo.extend(k for k in kids if isinstance(k, Tree))
    for node in tree.iter_subtrees():
        if node.data in ("cards_decl", "enum_table"):
            _align_table(node, toks, Token)
    return sorted(list(toks.values()) + comments, key=lambda t: t.pos)


def _fmt_parser():
    """The grammar's LALR parser keeping every token (dsl.parser.layout_parser); comments collected."""
    global _parser
    if _parser is None:
        _parser = layout_parser(_comments.append)
    return _parser


def _first(node, toks: dict) -> Tok:
    while not hasattr(node, "type"):
        node = next(k for k in node.children if k is not None)
    return toks.setdefault(id(node), Tok.of(node))


def _mark(rule: str, kids: list, toks: dict, Token) -> None:
    """Mark the roles of the tokens of one tree node (a parent is marked before its children)."""
    mine = [toks[id(k)] for k in kids if isinstance(k, Token)]
    if rule in BODIES:
        _mark_body(rule, kids, toks, Token)
    elif rule in ITEM_LISTS:
        for k in kids:
            _first(k, toks).item = True
    elif rule == "table_row":
        for k in kids:
            _first(k, toks).item = True
            if isinstance(k, Token):
                break
    elif rule == "extends_then_variant":  # the variant declared after the extends starts a line of its own
        _first(kids[-1], toks).item = True
    elif rule == "empty_stmt":
        mine[0].item, mine[0].glue = False, True
    elif rule == "if_stmt":
        for t in mine:
            t.glue = t.glue or t.text == "else"
    elif rule == "enum_decl":
        for t in mine:
            t.spaced = t.text in ("{", "}")
    elif rule in ("neg", "annotation"):
        mine[0].prefix = True
    if rule in CALL_PARENS or rule in INDEX_BRACKETS:
        for t in mine:
            t.attached = t.attached or t.text in ("(", "[")


def _mark_body(rule: str, kids: list, toks: dict, Token) -> None:
    """A body's braces; each child between them starts a line; the '{' stays on the line before."""
    inside = False
    for k in kids:
        if isinstance(k, Token) and k.value in ("{", "}"):
            t = toks[id(k)]
            t.body, inside = True, k.value == "{"
            t.glue = inside
        elif inside:
            _first(k, toks).item = True
    if rule.startswith("table_") and getattr(kids[0], "type", "") == "DOC":
        _first(kids[1], toks).item = True


def space(a: Tok, b: Tok) -> str:
    """The spaces between two tokens written on one line."""
    if b.kind == "comment":
        return "  "
    if b.pad is not None:
        return b.pad
    if (a.text == "{" and a.spaced) or (b.text == "}" and b.spaced):
        return " "
    if a.kind == "open" or a.prefix or a.text in TIGHT_AFTER:
        return ""
    if b.kind == "close" or b.text in TIGHT_BEFORE or b.attached:
        return ""
    return " "


# ---------------------------------------------------------------- card tables


def _align_table(node, toks: dict, Token) -> None:
    """Pad the cells of a card table (or an enum's) to align its columns, when every row is on one line. A
    column wider than ALIGN_LIMIT, and every column after it, is written with single spaces."""
    rows = []
    for row in node.children:
        if getattr(row, "data", None) not in ("table_header", "table_row"):
            continue
        cells = _cells(row, toks, Token)
        if cells is None:
            return
        rows.append(cells)
    widths: list = []
    for cells in rows:
        for c, (_, text) in enumerate(cells):
            if c == len(widths):
                widths.append(0)
            widths[c] = max(widths[c], len(text))
    ragged = next((c for c, w in enumerate(widths) if w > ALIGN_LIMIT), len(widths))
    for cells in rows:
        for c, (bar, text) in enumerate(cells):
            bar.pad = " " * (1 + widths[c] - len(text)) if c < ragged else " "


def _cells(row, toks: dict, Token):
    """[(the '|' closing the cell, the cell's text)] of a row written on one line, else None."""
    kids = [k for k in row.children if k is not None and getattr(k, "data", None) != "annotation"]
    bars = [toks[id(k)] for k in kids if isinstance(k, Token) and k.value == "|"]
    if bars[0].line != bars[-1].line:
        return None
    cells = []
    for i in range(1, len(kids), 2):
        cell = sorted((toks[id(t)] for t in _leaves(kids[i], Token)), key=lambda t: t.pos)
        text = cell[0].text + "".join(space(a, b) + b.text for a, b in zip(cell, cell[1:]))
        cells.append((toks[id(kids[i + 1])], text))
    return cells


def _leaves(node, Token) -> list:
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        if isinstance(n, Token):
            out.append(n)
        elif n is not None:
            todo.extend(n.children)
    return out
