"""The language server: pygls handlers over the analysis of each open document.

    wishdsl lsp                    # on standard input and output, as editors start it
    wishdsl lsp --tcp 127.0.0.1:2087

A document is analysed whole (parse, link and check, as `wishdsl check` does) and its diagnostics published once its
text has been quiet for DEBOUNCE seconds: a burst of keystrokes costs one analysis, not one each (Wish: about 0.4 s
the first time, about 0.12 s after an edit, as only the edited declarations are parsed again). Hover, definition,
completion and document symbols first bring a document whose analysis is pending up to its current text, then read
it; while a text does not parse they read the last one that did. No exception reaches the client: an internal error
is logged (window/logMessage) and the request answered with nothing.
"""
from __future__ import annotations

import asyncio
import functools
import os
import sys
import traceback
from typing import Optional

from lsprotocol import types as T
from pygls import uris
from pygls.lsp.server import LanguageServer

from ..version import version
from .analysis import analyse
from .complete import KINDS, completions
from .hover import hover
from .index import definition_at
from .outline import outline
from .positions import UTF16, Lines

DEBOUNCE = 0.3  # seconds of quiet after a change before the document is analysed again


class WishServer(LanguageServer):
    """The server, with the latest analysis of each open document by URI."""

    def __init__(self):
        super().__init__("wishdsl", version())
        self.analyses: dict = {}
        self.pending: dict = {}  # uri → the timer of an analysis waiting for the text to be quiet

    def encoding(self) -> str:
        enc = self.workspace.position_encoding
        return str(getattr(enc, "value", enc) or UTF16)

    def log(self, message: str, kind: T.MessageType = T.MessageType.Log) -> None:
        self.window_log_message(T.LogMessageParams(type=kind, message=message))


def guarded(default=None):
    """A handler that logs an internal error instead of letting it reach the client."""
    def wrap(fn):
        @functools.wraps(fn)
        def run(ls, params):
            try:
                return fn(ls, params)
            except Exception:  # noqa: BLE001 - the server must go on; the error is logged for the user
                ls.log(f"wishdsl lsp: internal error in {fn.__name__}:\n{traceback.format_exc()}",
                       T.MessageType.Error)
                return default
        return run
    return wrap


# ---------------------------------------------------------------- conversions


def path_of(uri: str) -> str:
    return uris.to_fs_path(uri) or uri


def uri_of(path: str) -> str:
    return uris.from_fs_path(os.path.abspath(path)) or path


def lsp_range(rng: tuple) -> T.Range:
    (l0, c0), (l1, c1) = rng
    return T.Range(start=T.Position(line=l0, character=c0), end=T.Position(line=l1, character=c1))


def position(params) -> tuple:
    return (params.position.line, params.position.character)


def diagnostic(p) -> T.Diagnostic:
    related = [T.DiagnosticRelatedInformation(location=T.Location(uri=uri_of(path), range=lsp_range(rng)),
                                              message=message) for path, rng, message in p.related]
    return T.Diagnostic(range=lsp_range(p.range), message=p.message, severity=T.DiagnosticSeverity(p.severity),
                        source="wishdsl", related_information=related or None)


def symbol(s) -> T.DocumentSymbol:
    return T.DocumentSymbol(name=s.name, kind=T.SymbolKind(s.kind), range=lsp_range(s.range),
                            selection_range=lsp_range(s.selection), detail=s.detail or None,
                            children=[symbol(c) for c in s.children] or None)


# ---------------------------------------------------------------- documents


def refresh(ls: WishServer, uri: str) -> None:
    """Analyse the document's current text and publish its diagnostics."""
    doc = ls.workspace.get_text_document(uri)
    a = analyse(doc.source, path_of(uri), (), ls.analyses.get(uri), ls.encoding())
    ls.analyses[uri] = a
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
        uri=uri, version=doc.version, diagnostics=[diagnostic(p) for p in a.problems]))


@guarded()
def did_open(ls: WishServer, params: T.DidOpenTextDocumentParams) -> None:
    refresh(ls, params.text_document.uri)


def unschedule(ls: WishServer, uri: str) -> bool:
    """Cancel the document's pending analysis; whether there was one."""
    timer = ls.pending.pop(uri, None)
    if timer is not None:
        timer.cancel()
    return timer is not None


def schedule(ls: WishServer, uri: str) -> None:
    """Analyse the document once its text has been quiet for DEBOUNCE seconds (at once without an event loop)."""
    unschedule(ls, uri)
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        refresh(ls, uri)
        return
    ls.pending[uri] = loop.call_later(DEBOUNCE, quiet, ls, uri)


@guarded()
def quiet(ls: WishServer, uri: str) -> None:
    """The timer of `schedule`: the text stopped changing."""
    if ls.pending.pop(uri, None) is not None:
        refresh(ls, uri)


def current(ls: WishServer, uri: str):
    """The document's analysis, of its current text (a pending one runs now)."""
    if unschedule(ls, uri):
        refresh(ls, uri)
    return ls.analyses.get(uri)


@guarded()
def did_change(ls: WishServer, params: T.DidChangeTextDocumentParams) -> None:
    schedule(ls, params.text_document.uri)


@guarded()
def did_save(ls: WishServer, params: T.DidSaveTextDocumentParams) -> None:
    """A saved file may be the game other open documents extend: analyse them all again."""
    for uri in list(ls.analyses):
        unschedule(ls, uri)
        refresh(ls, uri)


@guarded()
def did_close(ls: WishServer, params: T.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    unschedule(ls, uri)
    ls.analyses.pop(uri, None)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# ---------------------------------------------------------------- requests


@guarded()
def on_hover(ls: WishServer, params: T.HoverParams) -> Optional[T.Hover]:
    a = current(ls, params.text_document.uri)
    found = hover(a, position(params)) if a is not None else None
    if found is None:
        return None
    text, rng = found
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text), range=lsp_range(rng))


@guarded()
def on_definition(ls: WishServer, params: T.DefinitionParams) -> Optional[T.Location]:
    uri = params.text_document.uri
    a = current(ls, uri)
    d = definition_at(a, position(params)) if a is not None else None
    if d is None or d.span is None:
        return None
    if d.path == a.path:
        return T.Location(uri=uri, range=lsp_range(a.lines.span_range(d.span)))
    texts = a.model.index.texts.get(d.path)
    lines = Lines("", ls.encoding(), texts) if texts is not None else Lines("", ls.encoding())
    return T.Location(uri=uri_of(d.path), range=lsp_range(lines.span_range(d.span)))


@guarded(T.CompletionList(is_incomplete=False, items=[]))
def on_completion(ls: WishServer, params: T.CompletionParams) -> T.CompletionList:
    a = current(ls, params.text_document.uri)
    items = completions(a, position(params)) if a is not None else []
    return T.CompletionList(is_incomplete=False, items=[
        T.CompletionItem(label=i.label, kind=T.CompletionItemKind(KINDS[i.kind]), detail=i.detail,
                         text_edit=T.TextEdit(range=lsp_range(i.range), new_text=i.insert)) for i in items])


@guarded(None)
def on_formatting(ls: WishServer, params: T.DocumentFormattingParams) -> Optional[list]:
    """`wishdsl fmt` of the document's text: one edit replacing the whole text, none when it is formatted
    already, and no answer (null) when the text does not parse (its diagnostics say why)."""
    from dsl.errors import WishError
    from dsl.fmt import format_source

    uri = params.text_document.uri
    text = ls.workspace.get_text_document(uri).source
    try:
        out = format_source(text.replace("\r\n", "\n"), path_of(uri))
    except WishError:
        return None
    if out == text:
        return []
    lines = Lines(text, ls.encoding())
    end = lines.position(len(lines.lines) + 1, 1)  # past the last line: the end of the text
    return [T.TextEdit(range=lsp_range(((0, 0), end)), new_text=out)]


@guarded([])
def on_symbols(ls: WishServer, params: T.DocumentSymbolParams) -> list:
    a = current(ls, params.text_document.uri)
    return [symbol(s) for s in outline(a)] if a is not None else []


def build_server() -> WishServer:
    """A server with every handler registered."""
    server = WishServer()
    server.feature(T.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(T.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(T.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.feature(T.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(T.TEXT_DOCUMENT_HOVER)(on_hover)
    server.feature(T.TEXT_DOCUMENT_DEFINITION)(on_definition)
    server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=['"', "."]))(on_completion)
    server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(on_symbols)
    server.feature(T.TEXT_DOCUMENT_FORMATTING)(on_formatting)
    return server


def serve(tcp: Optional[tuple] = None) -> int:
    """Run the server on standard input and output, or on TCP (host, port), until the client exits."""
    server = build_server()
    if tcp is not None:
        server.start_tcp(*tcp)
        return 0
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the protocol on standard output
    server.start_io(stdin, stdout)
    return 0
