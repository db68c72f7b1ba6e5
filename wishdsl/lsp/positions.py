"""Where things are in a text, in the two ways of counting.

The parser and the checker give spans: 1-based lines and columns, columns counted in characters (code points),
the end exclusive. LSP counts 0-based lines and, within a line, code units of the encoding the client and the
server agreed on: UTF-16 unless the client offered UTF-8 or UTF-32. "—" is one UTF-16 unit but three UTF-8
bytes; "🎲" is two UTF-16 units. Lines are split at "\\n" only, as the parser counts them (a CRLF text is read
with its "\\r" dropped, as the CLI reads files).
"""
from __future__ import annotations

import re
from typing import Optional

from dsl.errors import source_lines

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
STRING = re.compile(r'"(?!"")([^"\\\n]|\\.)*"')  # the grammar's STRING (a doc string's quotes are not one)

Position = tuple  # (line, character), both 0-based, the character in the agreed encoding's units
Range = tuple  # (start Position, end Position)


def width(text: str, encoding: str = UTF16) -> int:
    """How many code units `text` takes in `encoding`."""
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == UTF32:
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


class Lines:
    """One text's lines, to turn spans into LSP positions and back."""

    def __init__(self, text: str, encoding: str = UTF16, lines: Optional[list] = None):
        self.lines = lines if lines is not None else source_lines(text)
        self.encoding = encoding

    def line(self, index: int) -> str:
        """The text of line `index` (0-based); "" past the end."""
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def position(self, line: int, col: int) -> Position:
        """The LSP position of 1-based `line`, `col` (in characters), kept inside the text."""
        if line < 1:
            return (0, 0)
        if line > len(self.lines):
            last = len(self.lines) - 1
            return (last, width(self.lines[last], self.encoding))
        text = self.lines[line - 1]
        return (line - 1, width(text[:max(col - 1, 0)], self.encoding))

    def span_range(self, span) -> Range:
        """A span's LSP range; an empty or missing end reaches at least one character further (or the end of
        the line), so that an editor has something to underline."""
        start = self.position(span.line, span.col)
        end = self.position(span.end_line, span.end_col) if span.end_line >= span.line else start
        if end <= start:
            text = self.line(start[0])
            end = (start[0], min(start[1] + 1, width(text, self.encoding)))
            if end <= start:
                end = start
        return (start, end)

    def column(self, line: int, character: int) -> int:
        """The 0-based character index in line `line` (0-based) of an LSP `character`."""
        text, units = self.line(line), 0
        for i, ch in enumerate(text):
            if units >= character:
                return i
            units += width(ch, self.encoding)
        return len(text)

    def where(self, position: Position) -> tuple:
        """An LSP position as the parser counts: (1-based line, 1-based column in characters)."""
        line, character = position
        return (line + 1, self.column(line, character) + 1)

    def range_of(self, line: int, start: int, end: int) -> Range:
        """The LSP range of characters `start`..`end` (0-based, end exclusive) of line `line` (0-based)."""
        text = self.line(line)
        return ((line, width(text[:start], self.encoding)), (line, width(text[:end], self.encoding)))


def token_at(text: str, col: int) -> Optional[tuple]:
    """The name or string of a line at 0-based character `col` (or just before it, where a cursor ends a word):
    (kind "name" | "string", value, start, end); a string's value is its text between the quotes."""
    for m in STRING.finditer(text):
        if m.start() <= col < m.end() or (col == m.end() and m.end() > m.start()):
            return ("string", m.group()[1:-1], m.start(), m.end())
        if m.start() > col:
            break
    for m in WORD.finditer(text):
        if m.start() <= col <= m.end():
            return ("name", m.group(), m.start(), m.end())
    return None


def contains(span, line: int, col: int) -> bool:
    """Whether 1-based `line`, `col` lies inside `span` (its end exclusive)."""
    if span is None or span.line <= 0:
        return False
    return (span.line, span.col) <= (line, col) < (span.end_line, span.end_col)
