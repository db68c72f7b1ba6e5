"""`wishdsl fmt`: one canonical layout for .wish files.

A printer over the parser's own grammar and lexer. The text is parsed with every token kept (comments are
collected by a lexer callback); the tree says where items (declarations, statements, fields, rows…) start and
which braces hold bodies; the tokens are written again with canonical spacing and indentation. Line breaks
inside an item are the author's, blank lines are kept (one at most), doc strings keep their text. What is
written must parse to the same program, spans aside (`dsl.ast.difference`), or it is refused.
"""
from __future__ import annotations

import inspect
import os
import shutil
from pathlib import Path
from typing import Optional

from . import ast as A
from .errors import WishError
from .fmt_layout import Tok, space, tokens
from .parser import parse, parse_file

UNIT = 2  # spaces per level of indentation


class FormatError(WishError):
    """The formatter would change what a file says (a bug of the formatter): nothing is written."""


def format_source(text: str, path: str = "<string>", before: Optional[A.Program] = None) -> str:
    """The canonical layout of a .wish text. Raises WishSyntaxError (the parser's diagnostics) when the text
    does not parse, FormatError when the layout would not parse to the same program. `before`: the text's
    program, when it is parsed already."""
    before = parse(text, path) if before is None else before
    out = _print(tokens(text))
    try:
        after = parse(out, path)
    except WishError as err:
        raise FormatError(f"{path}: internal error of fmt: the formatted text does not parse "
                          f"({err.render()}); the file is left unchanged") from None
    where = A.difference(before, after)
    if where is not None:
        raise FormatError(f"{path}: internal error of fmt: the formatted text would mean something else ({where}); "
                          "the file is left unchanged")
    return out


def wish_files(paths: list) -> list:
    """The files named, and every .wish file under the folders named (sorted), in the order given."""
    files = []
    for name in paths:
        p = Path(name)
        if p.is_dir():
            found = sorted(str(q) for q in p.rglob("*.wish") if q.is_file())
            if not found:
                raise WishError(f"{name}: no .wish files in this folder")
            files += found
        elif p.exists():
            files.append(name)
        else:
            raise WishError(f"{name}: no such file or folder")
    return files


def format_file(path: str) -> tuple:
    """(the file's text as it is, its canonical layout); WishError when it cannot be read or does not parse."""
    program = parse_file(path)
    return Path(path).read_bytes().decode("utf-8"), format_source(program.source, path, program)


def write_formatted(path: str, text: str) -> None:
    """Replace a file's text in one step (a temporary file beside it, renamed over it), keeping its mode."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.fmt-tmp")
    try:
        tmp.write_bytes(text.encode("utf-8"))
        shutil.copymode(p, tmp)
        os.replace(tmp, p)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise WishError(f"{path}: cannot write it: {err.strerror}") from None


# ---------------------------------------------------------------- the printer


class _Printer:
    """Writes the tokens line by line: forced breaks around items and bodies, the author's breaks elsewhere."""

    def __init__(self, toks: list):
        self.toks = toks
        self.lines: list = []
        self.depth = 0
        self.brackets: list = []  # open brackets inside an item: [indent of their line, column to align to]
        self.indent = 0
        self.open_line = -1  # the output line that ends with an opening bracket or brace (and comments)

    def run(self) -> str:
        prev = None
        for i, t in enumerate(self.toks):
            if t.body and t.text == "}":
                self.depth -= 1
            if prev is None or self._breaks(prev, t):
                self._new_line(prev, t, i)
            else:
                self.lines[-1] += space(prev, t)
                if self.brackets and self.brackets[-1][1] is None and prev.opens and t.kind != "comment":
                    self.brackets[-1][1] = len(self.lines[-1])
            self._write(t)
            self._after(t)
            prev = t
        return "\n".join(self.lines) + "\n" if self.lines else ""

    def _new_line(self, prev: Optional[Tok], t: Tok, i: int) -> None:
        """Start the line of `t`, after one blank line where the author left some (not after an opening bracket
        or brace, nor before a closing one)."""
        at_open = self.open_line == len(self.lines) - 1
        if prev is not None and t.line - prev.end_line > 1 and not at_open and not t.closes:
            self.lines.append("")
        self.indent = self._indent(t, i)
        self.lines.append(" " * self.indent)

    def _breaks(self, prev: Tok, t: Tok) -> bool:
        if t.kind == "comment":
            return t.line > prev.end_line
        if prev.kind == "comment" or t.item or (t.body and t.text == "}") or (prev.body and prev.text == "{"):
            return True
        return not t.glue and t.line > prev.end_line

    def _indent(self, t: Tok, i: int) -> int:
        if t.kind == "comment":
            nxt = next((self.toks[j] for j in range(i + 1, len(self.toks)) if self.toks[j].kind != "comment"), None)
            if nxt is None or nxt.item or nxt.glue or nxt.body:
                return self.depth * UNIT
            return self._continuation(closing=False)
        if t.item or t.glue or t.body:
            return self.depth * UNIT
        return self._continuation(closing=t.kind == "close")

    def _continuation(self, closing: bool) -> int:
        if not self.brackets:
            return self.depth * UNIT + UNIT
        line_indent, align = self.brackets[-1]
        if closing:
            return line_indent
        return align if align is not None else line_indent + UNIT

    def _write(self, t: Tok) -> None:
        if "\n" not in t.text:
            self.lines[-1] += t.text
            return
        delta = len(self.lines[-1]) - (t.col - 1)
        first, *rest = _shift_doc(t.text, delta).split("\n")
        self.lines[-1] += first
        self.lines.extend(rest)

    def _after(self, t: Tok) -> None:
        if t.kind != "comment":
            self.open_line = len(self.lines) - 1 if t.opens else -1
        if t.body:
            self.depth += t.text == "{"
        elif t.kind == "open":
            self.brackets.append([self.indent, None])
        elif t.kind == "close" and self.brackets:
            self.brackets.pop()


def _print(toks: list) -> str:
    return _Printer(toks).run()


def _shift_doc(doc: str, delta: int) -> str:
    """A doc string whose opening quotes move `delta` columns: its other lines move too, when that leaves what
    the doc says (inspect.cleandoc, as dsl.build reads it) the same; otherwise it is kept byte for byte."""
    if delta == 0:
        return doc
    first, *rest = doc.split("\n")
    moved = []
    for line in rest:
        if "\t" in line[:len(line) - len(line.lstrip())]:
            return doc
        if not line.strip():
            moved.append(line)
        elif delta > 0:
            moved.append(" " * delta + line)
        elif line[:-delta].strip(" "):
            return doc
        else:
            moved.append(line[-delta:])
    shifted = "\n".join([first, *moved])
    return shifted if inspect.cleandoc(shifted[3:-3]) == inspect.cleandoc(doc[3:-3]) else doc
