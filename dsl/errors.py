"""Diagnostics and the one error hierarchy of wishdsl, rooted at WishError."""
from __future__ import annotations

import difflib
import re
import warnings
from typing import TYPE_CHECKING, Iterable, Optional

import attrs

if TYPE_CHECKING:
    from .ast import Span


@attrs.frozen
class Diagnostic:
    """One message about a place in a file: `file:line:col: error: message`, the line, a caret, a hint."""

    span: Optional["Span"]
    message: str
    hint: Optional[str] = None
    severity: str = "error"

    def render(self, source: Optional[str] = None) -> str:
        if self.span is None or self.span.line <= 0:
            head = f"{self.span.file + ': ' if self.span else ''}{self.severity}: {self.message}"
            return head + (f"\n  hint: {self.hint}" if self.hint else "")
        sp = self.span
        out = [f"{sp.file}:{sp.line}:{sp.col}: {self.severity}: {self.message}"]
        lines = source_lines(source) if source is not None else []
        if 0 < sp.line <= len(lines):
            text = printable(lines[sp.line - 1].replace("\t", " "))
            out.append(f"  {sp.line:>4} | {text}")
            width = 1
            if sp.end_line == sp.line and sp.end_col > sp.col:
                width = sp.end_col - sp.col
            width = max(1, min(width, len(text) - sp.col + 2))
            out.append("       | " + " " * (sp.col - 1) + "^" + "~" * (width - 1))
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)


def source_lines(source: str) -> list:
    """The lines of a source as the parser counts them: split at "\n" only (a U+2028 or a form feed inside a
    comment or a string does not start a line)."""
    return [line.removesuffix("\r") for line in source.split("\n")]


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` safe for a terminal: control characters (but tab and newline) become U+FFFD, one for one."""
    return _CONTROL.sub("\ufffd", text)


def closest(name: str, candidates: Iterable[str]) -> Optional[str]:
    """The one known name `name` most likely misspells (a close match only), or None."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.75)
    return close[0] if close else None


def did_you_mean(name: str, candidates: Iterable[str]) -> Optional[str]:
    """A hint naming the closest known names, or None."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


class WishError(Exception):
    """Root of every error wishdsl reports to a user."""

    def __init__(self, message: str, diagnostics: Optional[list] = None, sources: Optional[dict] = None):
        super().__init__(message)
        self.diagnostics: list = diagnostics or []
        self.sources: dict = sources or {}

    def render(self) -> str:
        """The message and diagnostics, safe to print: no control character of a file reaches the terminal."""
        if not self.diagnostics:
            return printable(f"error: {self}")
        parts = [d.render(self.sources.get(d.span.file) if d.span else None) for d in self.diagnostics]
        n = sum(1 for d in self.diagnostics if d.severity == "error")
        if n > 1:
            parts.append(f"{n} errors")
        return printable("\n".join(parts))


class WishSyntaxError(WishError):
    """The text does not follow the grammar."""


class WishCheckError(WishError):
    """The file parses but names, types or structure are wrong."""


class WishRuntimeError(WishError):
    """A rule went wrong while the game ran (a runaway chain, a broken invariant)."""

    def __init__(self, message: str, span: Optional["Span"] = None, state=None, **kw):
        diags = [Diagnostic(span, message)] if span is not None else None
        super().__init__(message, diags, **kw)
        self.state = state


class IllegalAction(WishError):
    """A move that the rules do not allow now; `.reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class ScenarioError(WishError):
    """A rule scenario file is malformed or its expectations do not hold."""


class WishWarning(UserWarning):
    """Something a user should know that stops nothing (issued with `warnings.warn`; the command line prints it
    as `warning: message`)."""


def warning_line(message, category, filename, lineno, line=None) -> str:
    """How the command line shows a warning: a WishWarning as `warning: message`, any other as Python does."""
    if issubclass(category, WishWarning):
        return printable(f"warning: {message}") + "\n"
    return _python_format(message, category, filename, lineno, line)


_python_format = warnings.formatwarning
