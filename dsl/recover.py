"""Every syntax error of a file, not just the first (stage 1, after a parse failed).

The broken top-level declaration is blanked out and the file read on from there, until it parses or
MAX_SYNTAX_ERRORS are found. Reading on does not start again at the top: the parser's state is saved at every line
that starts in its first column (each declaration's first line among them), and the parse resumes from the state
saved where the blanked declaration began. The text before that line is the same as before, so the state is the one
a parse from the top would reach there, and every error found is the one a whole new parse would find — but a file
with N errors is read about twice, not N + 1 times. While errors are sought no syntax tree is built (the file will
not become one).
"""
from __future__ import annotations

import re
from copy import copy

from lark.exceptions import UnexpectedInput

try:  # Lark's parser internals as of Lark 1.3 (pyproject asks for 1.1.9 or newer)
    from lark.lexer import LexerState, LexerThread, LineCounter, Token
    from lark.parsers.lalr_interactive_parser import InteractiveParser
    from lark.parsers.lalr_parser_state import ParserState
    from lark.utils import TextSlice
except ImportError:  # an older Lark: every error is found by parsing the whole text again, as before
    ParserState = None

from .words import OPENS_BEFORE_BRACE, RESERVED_AT_LINE_START

_WORDS = "|".join(sorted(RESERVED_AT_LINE_START, key=len, reverse=True))
_UNRESERVED = "".join(f"|{w}(?=\\s*\\{{)" for w in sorted(OPENS_BEFORE_BRACE))
_DECL_LINE = re.compile(  # a declaration word (`table` only before its `{`), an annotation or a doc string
    r"^(" + _WORDS + _UNRESERVED + r"|@|\"\"\")(\b|\s|$|\")"
)


def decl_starts(lines: list) -> list:
    """Line indexes (0-based) where a top-level declaration starts, outside doc strings."""
    starts, in_doc = [], False
    for i, line in enumerate(lines):
        if not in_doc and _DECL_LINE.match(line):
            starts.append(i)
        if line.count('"""') % 2 == 1:
            in_doc = not in_doc
    return starts


def every_error(lark_parser, text: str, path: str, first, diagnose, limit: int) -> list:
    """The diagnostics of every broken declaration of `text`, given the first one (`first`, found by a whole
    parse); `diagnose(err, path)` turns Lark's error (or a RecursionError) into a diagnostic."""
    diags = [first]
    lines = text.split("\n")
    reader = _reader(lark_parser)
    while True:
        region = _broken_region(lines, first)
        if region is None or len(diags) >= limit:
            return diags
        start, end = region
        for i in range(start, end):
            lines[i] = ""
        blanked = "\n".join(lines)
        try:
            err = reader.next_error(blanked, start) if reader else _whole(lark_parser, blanked)
        except RecursionError as deep:
            err = deep
        if err is None:
            return diags
        again = diagnose(err, path)
        if again == first:  # blanking did not get past it (an error at the end of the file): reported once
            return diags
        first = again
        diags.append(first)


def _broken_region(lines: list, diag):
    """The lines to blank for the error `diag`: from the declaration it is in (with its doc string and
    annotations) to the next declaration; None when no declaration follows."""
    starts = decl_starts(lines)
    err = diag.span.line - 1
    at_start = err in starts and diag.span.col == 1
    before = [i for i in starts if i < err or (i == err and not at_start)]
    after = [i for i in starts if i > err or (i == err and at_start)]
    if not after:
        return None
    first = before[-1] if before else err
    while before and first in before and before.index(first) > 0:
        prev = before[before.index(first) - 1]
        if not lines[prev].lstrip().startswith(('"""', "@")):
            break
        first = prev
    return first, after[0]


def _whole(lark_parser, text: str):
    """The first error of `text` by a whole parse (None when it parses): where resuming is not available."""
    try:
        lark_parser.parse(text)
    except UnexpectedInput as err:
        return err
    return None


def _reader(lark_parser):
    """A resuming reader, or None when this Lark's internals are not the ones it was written for."""
    if ParserState is None:
        return None
    try:
        return _Reader(lark_parser)
    except (AttributeError, TypeError):
        return None


class _Reader:
    """Parses for errors only, saving the parser's state before each line whose first token is in column 1."""

    def __init__(self, lark_parser):
        front = lark_parser.parser
        self.lexer = front.lexer
        self.parser = front.parser.parser  # Lark's LALR loop, for the errors' interactive parser
        conf = copy(lark_parser.parse_interactive("").parser_state.parse_conf)
        conf.callbacks = {}  # no tree: reductions keep their children as lists
        self.conf = conf
        self.saved: dict = {}  # line index → (state stack, value stack, token before, its offset)

    def next_error(self, text: str, start: int):
        """The first error of `text`, read from line `start` on when a state was saved there (the text before
        it unchanged), else from the top; None when the text parses."""
        point = self.saved.get(start)
        for k in [k for k in self.saved if k >= start]:
            del self.saved[k]
        if point is None:
            state_stack, value_stack, last, counter = None, None, None, LineCounter("\n")
        else:
            state_stack, value_stack, last, offset = point
            counter = LineCounter("\n")
            counter.char_pos = counter.line_start_pos = offset
            counter.line = start + 1
        thread = LexerThread(self.lexer, LexerState(TextSlice(text, 0, len(text)), counter, last))
        return self._run(ParserState(self.conf, thread, state_stack, value_stack), last)

    def _run(self, state: ParserState, token):
        saved = self.saved
        line = 0
        try:
            for tok in state.lexer.lex(state):
                if tok.line != line:
                    line = tok.line
                    if tok.column == 1:
                        saved[line - 1] = (list(state.state_stack), list(state.value_stack), token, tok.start_pos)
                state.feed_token(tok)
                token = tok
            end = Token.new_borrow_pos("$END", "", token) if token else Token("$END", "", 0, 1, 1)
            state.feed_token(end, True)
            return None
        except UnexpectedInput as err:
            err.interactive_parser = InteractiveParser(self.parser, state, state.lexer)
            return err
