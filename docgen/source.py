"""A rule's own `.wish` source for the HTML sheets: the lines of the file its span names, highlighted by Pygments.

    src = Sources(program)          # the programs the page is made from (their `extends` parents too)
    block = src.cite(action)        # {"cite": "wish.wish:661", "file": …, "line": 661, "html": Markup(…)}

The text comes from the declaration's span alone (dsl/ast.py: file, first and last line), read from the text the
parser read for that file, so the line numbers are the file's and a house rule cites its own file for what it
defines and its base game's file for the rest. Pygments escapes every character of the source it writes out;
this module is the only place that marks its output as safe HTML (`markupsafe.Markup`), so the sandboxed,
autoescaping templates never trust text from a game file anywhere else.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from markupsafe import Markup
from pygments import highlight
from pygments.filter import simplefilter
from pygments.formatters import HtmlFormatter
from pygments.token import Text, Whitespace

from dsl import ast as A
from dsl.limits import MAX_SOURCE, TooLarge, read_text
from dsl.highlight import WishLexer

CSS_CLASS = "highlight"  # the class of the <div> around each block; the stylesheet is scoped to it
STYLE = "default"  # Pygments' own style: CSS classes in the page, no inline styles


def stylesheet() -> Markup:
    """The Pygments style sheet for the highlighted blocks, once per page (fixed text, no game data)."""
    return Markup(HtmlFormatter(style=STYLE, cssclass=CSS_CLASS).get_style_defs("." + CSS_CLASS))


def source_lines(text: str, span: A.Span) -> str:
    """The whole lines `span` covers in `text`, each with its newline."""
    return "".join(text.splitlines(keepends=True)[span.line - 1:span.end_line])


@simplefilter
def plain_whitespace(self, lexer, stream, options):
    """Whitespace as plain text: the page is a fifth smaller without a <span> around every space."""
    for ttype, value in stream:
        yield (Text if ttype in Whitespace else ttype), value


def highlighted(code: str, first_line: int) -> Markup:
    """`code` as escaped, highlighted HTML, numbered from `first_line` (the numbers are the file's)."""
    lexer = WishLexer(stripnl=False)
    lexer.add_filter(plain_whitespace())
    formatter = HtmlFormatter(style=STYLE, cssclass=CSS_CLASS, linenos="inline", linenostart=first_line)
    return Markup(highlight(code, lexer, formatter).rstrip("\n"))


def in_a_file(span: Optional[A.Span]) -> bool:
    """Whether `span` stands somewhere in a file (built-in and made-up nodes have no lines to show)."""
    return span is not None and span != A.NOWHERE and 1 <= span.line <= span.end_line


class Sources:
    """The source blocks of one page: each file's text read once, by the path the spans name.

    `enabled=False` gives no blocks at all (None for every node): the Markdown sheet and the look-up commands
    build the same context without the cost of highlighting."""

    def __init__(self, *programs: A.Program, enabled: bool = True):
        self.enabled = enabled
        self.texts: dict = {}  # span file → the text the parser read from it
        for program in programs:
            while program is not None:
                if program.source:
                    self.texts.setdefault(program.path, program.source)
                program = program.parent

    def text(self, file: str) -> Optional[str]:
        """The text of `file`: the parser's when this sheet's program read it, else the file on disk."""
        if file not in self.texts:
            try:
                self.texts[file] = read_text(file, MAX_SOURCE * 4)
            except (OSError, UnicodeDecodeError, TooLarge):
                self.texts[file] = None
        return self.texts[file]

    def cite(self, node) -> Optional[dict]:
        """The source block of `node` (see `at`)."""
        return self.at(getattr(node, "span", None))

    def at(self, span: Optional[A.Span]) -> Optional[dict]:
        """The source block of the lines `span` covers: where they stand ("wish.wish:661") and the lines as
        highlighted HTML; None when blocks are off or the span has no lines in a readable file."""
        if not self.enabled or not in_a_file(span):
            return None
        text = self.text(span.file)
        code = source_lines(text, span) if text else ""
        if not code.strip():
            return None
        return {"cite": f"{Path(span.file).name}:{span.line}", "file": span.file, "line": span.line,
                "html": highlighted(code, span.line)}


__all__ = ["Sources", "stylesheet", "highlighted", "source_lines"]
