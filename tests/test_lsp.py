"""The language server (`wishdsl lsp`, issue 22).

A session through the protocol itself: the test starts `python -m wishdsl.cli lsp` and speaks LSP to it
(JSON-RPC with Content-Length framing over pipes): a house rule with an error gets its diagnostic at the right
place, the fixed text gets none, a card's hover has the cheat-sheet's English, a name of the base game jumps
into the base game's file, a name completes, the outline lists the declarations, a replaced definition shows
was / now. Then the analysis behind the server, as plain functions: positions past non-ASCII characters,
half-typed text, errors in the game a house rule extends, the folder a house rule may reach.
"""
from __future__ import annotations

import json
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from wishdsl.lsp.analysis import analyse
from wishdsl.lsp.complete import KINDS, completions
from wishdsl.lsp.hover import hover
from wishdsl.lsp.index import DefKind, target_at
from wishdsl.lsp.outline import outline
from wishdsl.lsp.positions import UTF8, UTF16, Lines

ROOT = Path(__file__).resolve().parent.parent
WAIT = 60  # seconds: a generous bound; a session takes a few

HOUSE = '''"""Double Monument Badges — a house rule 🎲 for the LSP test."""
extends "../wish.wish"

change scoring p {
  score "4. Monument Badges" 2 * sum(m.vp for m in p.badges)
  tiebreak "Badges — 🎲" count(p.badges) + count(w for w in p.fulfilled if w.name == "Fall in Love")
}
'''
BROKEN = HOUSE.replace("count(p.badges)", "count(p.badgez)")


@pytest.fixture
def project(tmp_path):
    """A project folder (it has a .wishroot) with a copy of Wish and a house/ folder for house rules."""
    shutil.copy(ROOT / "games" / "wish.wish", tmp_path / "wish.wish")
    (tmp_path / ".wishroot").write_text("")
    (tmp_path / "house").mkdir()
    return tmp_path


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def where(text: str, needle: str, offset: int = 0) -> tuple:
    """The LSP position (UTF-16) of `needle` (plus `offset` characters) in `text`."""
    i = text.index(needle) + offset
    line = text.count("\n", 0, i)
    start = text.rfind("\n", 0, i) + 1
    return line, utf16(text[start:i])


def line_of(path: Path, start: str) -> int:
    """The 0-based line of `path` that starts with `start`."""
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").split("\n")) if line.startswith(start))


# ---------------------------------------------------------------- a client speaking LSP over pipes


class Client:
    """A small synchronous LSP client: requests wait for their answer; notifications are kept."""

    def __init__(self, cwd: Path, log: Path):
        self.stderr = open(log, "wb")
        self.proc = subprocess.Popen([sys.executable, "-m", "wishdsl.cli", "lsp"], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr)
        self.inbox: queue.Queue = queue.Queue()
        self.notes: list = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
            self.inbox.put(json.loads(out.read(length).decode("utf-8")))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode("ascii") + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def _take(self, deadline: float) -> dict:
        message = self.inbox.get(timeout=max(deadline - time.monotonic(), 0.01))
        if message is None:
            raise AssertionError("the server closed its output")
        if "method" in message and "id" in message:  # a request of the server's: answer it
            self.send({"id": message["id"], "result": None})
        elif "method" in message:
            self.notes.append(message)
        return message

    def request(self, method: str, params) -> object:
        self.next_id += 1
        me = self.next_id
        self.send({"id": me, "method": method, "params": params})
        deadline = time.monotonic() + WAIT
        while True:
            message = self._take(deadline)
            if message.get("id") == me and "method" not in message:
                assert "error" not in message, message["error"]
                return message.get("result")

    def diagnostics(self, uri: str, version: int) -> list:
        """The diagnostics the server publishes for this version of the document."""
        deadline = time.monotonic() + WAIT
        while True:
            for note in self.notes:
                p = note["params"]
                if note["method"] == "textDocument/publishDiagnostics" and p["uri"] == uri and \
                        p.get("version") == version:
                    self.notes.remove(note)
                    return p["diagnostics"]
            self._take(deadline)

    def close(self) -> int:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.stderr.close()


@pytest.fixture
def client(project, tmp_path_factory, monkeypatch):
    """The server on pipes. It and this test share a parse cache of their own (the tests' is off): each parses
    the copy of Wish once."""
    monkeypatch.setenv("WISHDSL_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("lsp-cache")))
    c = Client(project, tmp_path_factory.mktemp("lsp-log") / "stderr.txt")
    try:
        yield c
    finally:
        if c.proc.poll() is None:
            c.proc.kill()
            c.proc.wait()
        c.stderr.close()


def test_a_session_through_the_protocol(project, client):
    house = project / "house" / "badges.wish"
    house.write_text(HOUSE, encoding="utf-8")
    uri = house.as_uri()
    init = client.request("initialize", {"processId": None, "rootUri": project.as_uri(), "capabilities": {
        "general": {"positionEncodings": ["utf-16"]},
        "textDocument": {"hover": {"contentFormat": ["markdown"]},
                         "documentSymbol": {"hierarchicalDocumentSymbolSupport": True}}}})
    caps = init["capabilities"]
    assert caps["hoverProvider"] and caps["definitionProvider"] and caps["documentSymbolProvider"]
    assert '"' in caps["completionProvider"]["triggerCharacters"]
    client.notify("initialized", {})

    # a house rule with an error: the diagnostic at its place (UTF-16 columns, past "—" and "🎲")
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wish", "version": 1,
                                                            "text": BROKEN}})
    diags = client.diagnostics(uri, 1)
    assert len(diags) == 1, diags
    (line, start) = where(BROKEN, "p.badgez")
    assert diags[0]["range"] == {"start": {"line": line, "character": start},
                                 "end": {"line": line, "character": start + len("p.badgez")}}
    assert "badgez" in diags[0]["message"] and "did you mean 'badges'" in diags[0]["message"]
    assert diags[0]["severity"] == 1

    # fixed: no diagnostic
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": HOUSE}]})
    assert client.diagnostics(uri, 2) == []

    # hover on a card: the cheat-sheet's English for it
    from docgen.lookup import Reference
    card = client.request("textDocument/hover", _at(uri, HOUSE, '"Fall in Love"', 3))
    assert card["contents"]["kind"] == "markdown"
    assert Reference(str(house)).card("Fall in Love") in card["contents"]["value"]

    # go to definition: `badges` is declared in the game the house rule extends
    found = client.request("textDocument/definition", _at(uri, HOUSE, "p.badges", 3))
    found = found[0] if isinstance(found, list) else found
    assert found["uri"] == (project / "wish.wish").as_uri()
    assert found["range"]["start"]["line"] == line_of(project / "wish.wish", "player var badges")

    # completion: after "p." the game's per-player names
    line, character = where(HOUSE, "count(p.badges)", len("count(p."))
    items = client.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                       "position": {"line": line, "character": character}})
    labels = {i["label"] for i in (items["items"] if isinstance(items, dict) else items)}
    assert {"badges", "crystals", "hand"} <= labels

    # the outline
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    names = [s["name"] for s in symbols]
    assert names == ["extends “../wish.wish”", "change scoring"]
    assert [c["name"] for c in symbols[1]["children"]] == ["4. Monument Badges", "Badges — 🎲"]

    # hover on a definition the house rule replaces: was / now, as `wishdsl diff` gives them
    from docgen.diff import game_diff
    change = next(c for c in game_diff(str(project / "wish.wish"), str(house)).changes if "4." in c.key)
    replaced = client.request("textDocument/hover", _at(uri, HOUSE, '"4. Monument Badges"', 3))["contents"]["value"]
    assert "was:" in replaced and "now:" in replaced
    assert change.before in replaced and change.after in replaced and change.before != change.after

    assert client.close() == 0


def _at(uri: str, text: str, needle: str, offset: int = 0) -> dict:
    line, character = where(text, needle, offset)
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def test_utf8_positions_half_typed_text_and_unknown_documents(project, client):
    init = client.request("initialize", {"processId": None, "rootUri": None,
                                         "capabilities": {"general": {"positionEncodings": ["utf-8"]}}})
    assert init["capabilities"]["positionEncoding"] == "utf-8"
    client.notify("initialized", {})
    unknown = (project / "house" / "never_opened.wish").as_uri()
    assert client.request("textDocument/hover", {"textDocument": {"uri": unknown},
                                                 "position": {"line": 0, "character": 0}}) is None
    uri = (project / "house" / "badges.wish").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wish", "version": 1,
                                                            "text": BROKEN}})
    (diag,) = client.diagnostics(uri, 1)
    line, _ = where(BROKEN, "p.badgez")
    row = BROKEN.split("\n")[line]
    assert diag["range"]["start"] == {"line": line, "character": len(row[:row.index("p.badgez")].encode("utf-8"))}
    half = 'extends "../wish.wish"\n\nchange scoring p {\n  score "4. Monument Badges" 2 * sum(m.vp for'
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": half}]})
    (diag,) = client.diagnostics(uri, 2)
    assert "end of the file" in diag["message"] and diag["range"]["start"]["line"] == 3
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["name"] for s in symbols] == ["extends “../wish.wish”", "change scoring"]  # the last good text's
    assert client.close() == 0


def test_a_burst_of_changes_is_checked_once_and_requests_see_the_latest_text(project, client):
    """Typing fast: the changes that come within the debounce time are analysed once, for the last text (one
    publication, of the last version); a request right after a change answers from the text as it is now."""
    client.request("initialize", {"processId": None, "rootUri": project.as_uri(), "capabilities": {}})
    client.notify("initialized", {})
    uri = (project / "house" / "badges.wish").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wish", "version": 1,
                                                            "text": HOUSE}})
    assert client.diagnostics(uri, 1) == []
    for version in range(2, 7):  # a name typed letter by letter, the last one wrong
        typed = HOUSE.replace("count(p.badges)", "count(p." + "badgez"[:version] + ")")
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": typed}]})
    (diag,) = client.diagnostics(uri, 6)
    assert "badgez" in diag["message"]
    client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})  # lets anything pending arrive
    published = [n for n in client.notes if n["method"] == "textDocument/publishDiagnostics"]
    assert published == [], "versions 2 to 5 were analysed on their own"

    more = HOUSE + '\n"""A new rule."""\nprocedure extra_rule() {\n  log "extra"\n}\n'
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 7},
                                             "contentChanges": [{"text": more}]})
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert [s["name"] for s in symbols][-1] == "extra_rule", "the outline of the text before the change"
    (diag,) = client.diagnostics(uri, 7)  # the text the request read is checked and published too
    assert "'extra_rule'" in diag["message"] and "must be used by the rules" in diag["message"]
    assert client.close() == 0


def test_formatting_is_wishdsl_fmt(project, client):
    """textDocument/formatting gives `wishdsl fmt`'s layout as one edit of the whole text; nothing for a text
    in that layout already; no answer for a text that does not parse."""
    from dsl.fmt import format_source

    init = client.request("initialize", {"processId": None, "rootUri": project.as_uri(), "capabilities": {}})
    assert init["capabilities"]["documentFormattingProvider"]
    client.notify("initialized", {})
    uri = (project / "house" / "badges.wish").as_uri()
    messy = HOUSE.replace("change scoring p {\n  score", "change scoring p{\n      score").replace(" * ", "*")
    assert format_source(messy) == HOUSE != messy
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "wish", "version": 1,
                                                            "text": messy}})
    options = {"tabSize": 2, "insertSpaces": True}
    (edit,) = client.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": options})
    lines = messy.split("\n")
    assert edit["range"] == {"start": {"line": 0, "character": 0},
                             "end": {"line": len(lines) - 1, "character": utf16(lines[-1])}}
    assert edit["newText"] == HOUSE
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": HOUSE}]})
    assert client.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": options}) == []
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3},
                                             "contentChanges": [{"text": HOUSE + "play {"}]})
    assert client.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": options}) is None
    assert client.close() == 0


def test_an_internal_error_is_logged_not_raised():
    from wishdsl.lsp.server import guarded

    logged = []

    class Server:
        def log(self, message, kind=None):
            logged.append(message)

    @guarded("nothing")
    def broken(ls, params):
        raise RuntimeError("boom")

    assert broken(Server(), None) == "nothing"
    assert "internal error in broken" in logged[0] and "RuntimeError: boom" in logged[0]


def test_wishdsl_lsp_without_pygls_says_how_to_install_it(monkeypatch, capsys):
    from wishdsl.cli import main

    monkeypatch.setitem(sys.modules, "pygls", None)
    monkeypatch.delitem(sys.modules, "wishdsl.lsp.server", raising=False)
    assert main(["lsp"]) == 2
    assert "pip install -e '.[lsp]'" in capsys.readouterr().err


# ---------------------------------------------------------------- the analysis, without the protocol


def test_positions_count_utf16_units_or_utf8_bytes():
    text = 'a — 🎲 b\nx'
    for encoding, expected in ((UTF16, 7), (UTF8, 11)):
        lines = Lines(text, encoding)
        assert lines.position(1, 7) == (0, expected)  # "b": the 7th character
        assert lines.where((0, expected)) == (1, 7)
    assert Lines(text).position(9, 1) == (1, 1)  # past the end: kept inside the text


def test_diagnostics_past_non_ascii_characters(project):
    path = project / "house" / "badges.wish"
    a = analyse(BROKEN, str(path))
    (problem,) = a.problems
    line, start = where(BROKEN, "p.badgez")
    assert problem.range == ((line, start), (line, start + 8))
    row = BROKEN.split("\n")[line]
    utf8 = len(row[:row.index("p.badgez")].encode("utf-8"))
    assert analyse(BROKEN, str(path), encoding=UTF8).problems[0].range[0] == (line, utf8)


def test_half_typed_text_is_a_diagnostic_and_keeps_the_last_good_analysis(project):
    path = str(project / "house" / "badges.wish")
    good = analyse(HOUSE, path)
    assert good.problems == [] and good.game is not None
    half = HOUSE.replace('"Fall in Love")\n}', '"Fall in')
    a = analyse(half, path, previous=good)
    assert len(a.problems) == 1 and a.problems[0].severity == 1
    assert not a.fresh and a.model is good.model and a.game is good.game
    d, _ = target_at(a, where(half, "p.badges", 3))
    assert (d.kind, Path(d.path).name) == (DefKind.PVAR, "wish.wish")
    assert "Fall in Love" in [i.label for i in completions(a, where(half, '"Fall in', 8))]
    assert [s.name for s in outline(a)] == ["extends “../wish.wish”", "change scoring"]


def test_errors_in_the_base_game_are_reported_at_the_extends_line(project):
    base = project / "wish.wish"
    text = base.read_text(encoding="utf-8")
    base.write_text(text.replace("player var badges: list of Monument = []",
                                 "player var badges: list of Monumnt = []"), encoding="utf-8")
    a = analyse(HOUSE, str(project / "house" / "badges.wish"))
    assert a.problems
    extends = where(HOUSE, "extends")[0]
    for p in a.problems:
        assert p.range[0][0] == extends and p.message.startswith("in wish.wish:")
        assert p.related and p.related[0][0] == str(base)
    assert any("Monumnt" in p.message for p in a.problems)
    related = next(p.related[0] for p in a.problems if "Monumnt" in p.message)
    assert related[1][0][0] == line_of(base, "player var badges")


def test_extends_is_confined_to_the_project_as_the_cli_confines_it(tmp_path):
    shutil.copy(ROOT / "games" / "wish.wish", tmp_path / "wish.wish")
    (tmp_path / "house").mkdir()  # no .wishroot: the house folder is its own project
    a = analyse(HOUSE, str(tmp_path / "house" / "badges.wish"))
    assert len(a.problems) == 1 and "outside the game's folder tree" in a.problems[0].message
    assert a.problems[0].range[0][0] == 1


def test_hover_and_completion_in_context(project):
    path = project / "house" / "badges.wish"
    path.write_text(HOUSE, encoding="utf-8")
    a = analyse(HOUSE, str(path))
    text, _ = hover(a, where(HOUSE, "p.badges", 3))
    assert "**player variable** `badges`" in text and "player var badges: list of Monument" in text
    assert "Badges (each player)" in text  # the sheet's English
    text, _ = hover(a, where(HOUSE, "sum(", 1))
    assert "built-in" in text
    top = completions(a, (len(HOUSE.split("\n")) - 1, 0))
    assert "procedure" in {i.label for i in top} and "badges" not in {i.label for i in top}
    inside = HOUSE.replace("  score", "  sc\n  score")
    a = analyse(inside, str(path), previous=a)
    assert {i.label for i in completions(a, where(inside, "  sc\n", 4))} == {"score", "tiebreak", "lose"}
    body = HOUSE + "\nprocedure extra(p: player) {\n  ga\n}\n"
    a = analyse(body, str(path), previous=a)
    labels = {i.label for i in completions(a, where(body, "  ga\n", 4))}
    assert {"gain", "let", "move", "p", "count"} <= labels and "procedure" not in labels


def test_definition_of_a_replacement_is_the_definition_it_replaces(project):
    from wishdsl.lsp.index import definition_at

    a = analyse(HOUSE, str(project / "house" / "badges.wish"))
    d = definition_at(a, where(HOUSE, '"4. Monument Badges"', 3))
    assert (d.kind, d.path) == (DefKind.SCORING_STEP, str(project / "wish.wish"))
    assert d.span.line - 1 == line_of(project / "wish.wish", '  score "4. Monument Badges"')
    d = definition_at(a, where(HOUSE, '"Badges — 🎲"', 3))  # added by the house rule: its own place
    assert (d.kind, d.path, d.span.line) == (DefKind.TIEBREAK, a.path, 6)
    d = definition_at(a, where(HOUSE, '"Fall in Love"', 3))
    row = line_of(project / "wish.wish", '  | "Fall in Love"')
    assert (d.kind, d.owner, d.span.line - 1) == (DefKind.CARD, "Wish", row)


def test_every_kind_of_definition_has_a_completion_kind():
    """A kind of definition added without an LSP completion kind would fail when offered (server.completion)."""
    assert set(DefKind) <= set(KINDS)


def test_an_advised_action_leads_to_its_definition_and_the_heuristic_completes_consider(project):
    from wishdsl.lsp.index import definition_at

    wish = (project / "wish.wish").read_text(encoding="utf-8")
    a = analyse(wish, str(project / "wish.wish"))
    d = definition_at(a, where(wish, "consider trade", len("consider ")))
    assert (d.kind, d.span.line - 1) == (DefKind.ACTION, line_of(project / "wish.wish", "action trade()"))
    inside = wish.replace("  consider trade", "  co\n  consider trade")
    a = analyse(inside, str(project / "wish.wish"), previous=a)
    assert {i.label for i in completions(a, where(inside, "  co\n", 4))} == {"weigh", "consider"}
