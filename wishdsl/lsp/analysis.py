"""One document as the language server sees it: its text parsed, linked and checked as `wishdsl check` does,
its diagnostics, and what hover, definition, completion and the outline read (pure functions, no protocol).

    a = analyse(text, "/games/house/mine.wish")        # the editor's buffer, not the file on disk
    a.problems                                         # every error, as LSP-shaped Problems
    a.model.index, a.game.reference(), a.game.changes()

The buffer is parsed as `dsl.parser.parse` parses a file, but without the disk cache (a buffer changes at every
keystroke); `extends` is resolved relative to the document's path, confined as `dsl.link.load_program` confines
it (the document's project folder, `wishdsl --allow DIR`). The last text that parsed (`model`) and the last that
checked (`game`) are kept, so hover, definition and completion keep working while the text is half typed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

import attrs

from dsl import ast as A
from dsl import link
from dsl import parser as P
from dsl.errors import Diagnostic, WishError
from dsl.front import Checked, check_all, front_end

from .positions import UTF16, Lines

SEVERITY = {"error": 1, "warning": 2, "info": 3, "note": 3, "hint": 4}


class Document(A.Program):
    """A program parsed from an editor's buffer. It is also a path (its file's), so docgen's entry points that
    take a game's path (`Reference`, `game_diff`) read the buffer instead of the file on disk."""

    __slots__ = ()

    def __fspath__(self) -> str:
        return self.path


@attrs.define
class Problem:
    """A diagnostic as LSP has it: a range in this document, severity 1 (error) to 4, and related places in
    other files as (path, range, message)."""

    range: tuple
    message: str
    severity: int = 1
    related: list = attrs.Factory(list)


@attrs.define(eq=False)
class Model:
    """A text that parsed and was linked to the game it extends (if any), with its index."""

    program: A.Program
    _index: object = None

    @property
    def index(self):
        if self._index is None:
            from .index import Index
            self._index = Index(self.program)
        return self._index


@attrs.define(eq=False)
class Game:
    """A text whose base game checked: its Symbols, and (lazily) its cheat-sheet and its changes to its game."""

    checked: Checked
    _reference: object = None
    _changes: Optional[dict] = None
    _english: object = None

    def english(self):
        """The cheat-sheet's English generator for this game (`docgen.english.English`)."""
        if self._english is None:
            from docgen.english import English
            self._english = English(self.checked.sym)
        return self._english

    def reference(self):
        """The cheat-sheet to look cards and components up in (`docgen.lookup.Reference`)."""
        if self._reference is None:
            from docgen.lookup import Reference
            self._reference = Reference(self.checked.program)
        return self._reference

    def changes(self) -> dict:
        """A house rule's changes to the game it extends, by key, as `wishdsl diff` gives them; {} for a game."""
        if self._changes is None:
            program = self.checked.program
            self._changes = {}
            if program.parent is not None and str(program.path).endswith(".wish"):
                from docgen.diff import game_diff
                self._changes = {c.key: c for c in game_diff(program.parent.path, program).changes}
        return self._changes


@attrs.define(eq=False)
class Analysis:
    """What the server knows of one document after its latest text."""

    path: str
    text: str
    lines: Lines
    problems: list
    fresh: bool = False  # this text parsed and linked: `model` is of this text
    model: Optional[Model] = None  # this text's, or the last one that parsed
    game: Optional[Game] = None  # this text's, or the last one that checked


def analyse(text: str, path: str, allow: Iterable[str] = (), previous: Optional[Analysis] = None,
            encoding: str = UTF16) -> Analysis:
    """Parse, link and check `text` as the file `path`; every problem becomes a Problem of this document."""
    text = text.replace("\r\n", "\n")
    program = checked = None
    linked = False
    diags: list = []
    texts: dict = {path: text}
    try:
        program = parse_buffer(text, path)
        link_buffer(program, allow)
        linked = True
        checked = check_all(program)
    except WishError as err:
        diags, texts = err.diagnostics or [Diagnostic(None, str(err))], {**err.sources, path: text}
        checked = base_game(program) if linked else None
    lines = Lines(text, encoding)
    problems = problems_of(diags, path, lines, program, texts)
    model = previous.model if previous is not None and not linked else None
    if model is None and program is not None:
        model = Model(program)  # unlinked only when nothing better is known
    game = Game(checked) if checked is not None else previous.game if previous else None
    return Analysis(path, text, lines, problems, linked, model, game)


def parse_buffer(text: str, path: str) -> Document:
    """`text` parsed as the file `path`, without the disk cache of parses."""
    parsed = P.parse(text, path, cached=False)
    return Document(decls=parsed.decls, path=path, source=text, span=parsed.span)


def link_buffer(program: A.Program, allow: Iterable[str] = ()) -> A.Program:
    """Link the buffer's program to the game it `extends`, as a file is linked (`dsl.link.link_program`): the
    path relative to the document's folder, inside its project or an allowed folder. Raises WishCheckError."""
    return link.link_program(program, allow)


def base_game(program: A.Program) -> Optional[Checked]:
    """The base game of a program that does not check as a whole (an error in a variant), or None."""
    try:
        return front_end(program)
    except WishError:
        return None


def problems_of(diags: list, path: str, lines: Lines, program: Optional[A.Program], texts: dict) -> list:
    """The diagnostics as Problems of the document `path`; one about another file (the game it extends) is put
    on the `extends` line, with its own place as related information."""
    here = _extends_span(program)
    out = []
    for d in diags:
        message = f"{d.message}; {d.hint}" if d.hint else d.message
        severity = SEVERITY.get(d.severity, 1)
        span = d.span
        if span is not None and _same_file(span.file, path):
            rng = lines.span_range(span) if span.line > 0 else _first_line(lines, here)
            out.append(Problem(rng, message, severity))
            continue
        rng = lines.span_range(here) if here is not None else _first_line(lines, None)
        if span is None:
            out.append(Problem(rng, message, severity))
            continue
        other = Lines(texts.get(span.file) or _read(span.file), lines.encoding)
        where = f"{Path(span.file).name}:{span.line}:{span.col}" if span.line > 0 else Path(span.file).name
        related = [(span.file, other.span_range(span) if span.line > 0 else ((0, 0), (0, 0)), d.message)]
        out.append(Problem(rng, f"in {where}: {message}", severity, related))
    return out


def _extends_span(program: Optional[A.Program]) -> Optional[A.Span]:
    if program is None:
        return None
    return next((d.span for d in program.decls if isinstance(d, A.Extends)), None)


def _first_line(lines: Lines, span: Optional[A.Span]) -> tuple:
    if span is not None:
        return lines.span_range(span)
    return ((0, 0), (0, len(lines.line(0))))


def _same_file(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        return Path(a).resolve() == Path(b).resolve()
    except (OSError, ValueError):
        return False


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return ""
