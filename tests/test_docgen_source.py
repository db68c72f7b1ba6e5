"""A rule's `.wish` source in the HTML sheets and diffs (issue 22, docgen/source.py): each rule the sheet explains
cites its file and line in a collapsed block, highlighted by Pygments with CSS classes, hidden on paper; the text
is the file's own lines at the rule's span, escaped; the Markdown sheets show no source."""
import html as htmllib
import re
import subprocess
import zlib
from pathlib import Path

import pytest

from docgen.diff import game_diff, render_diff
from docgen.render import build_context, render_sheet
from dsl import ast as A
from dsl.front import front_end
from dsl.link import load_program
from web_browser import chromium  # the one way the tests find Chromium

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").glob("*.wish")) + \
    sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games" / "house").glob("*.wish"))
BLOCK = re.compile(r'<details class="source"><summary>Source · (.+?)</summary>(.*?)</details>', re.S)
LINENO = re.compile(r'<span class="linenos">\s*(\d+)</span>')


def blocks(page: str) -> list:
    """(cite, inner HTML) of every source block of a page, in order."""
    return BLOCK.findall(page)


def block_text(inner: str) -> str:
    """The source text a block shows: its line numbers and tags dropped, its entities undone."""
    return htmllib.unescape(re.sub(r"<[^>]+>", "", LINENO.sub("", inner)))


def file_lines(span) -> str:
    """The lines of the file at `span`, read now from the file the span names."""
    lines = Path(span.file).read_text(encoding="utf-8").splitlines(keepends=True)
    return "".join(lines[span.line - 1:span.end_line])


def cite(span) -> str:
    return f"{Path(span.file).name}:{span.line}"


@pytest.fixture(scope="module")
def wish_html():
    return render_sheet("games/wish.wish", None, "html")


def test_each_action_and_procedure_shows_its_own_lines(wish_html):
    sym = front_end("games/wish.wish").sym
    shown = dict(blocks(wish_html))
    rules = list(sym.actions.values()) + [p for p, _ in sym.procedures.values()]
    assert len(rules) > 10
    for rule in rules:
        where = cite(rule.span)
        assert where in shown, f"no source block for {rule.name} ({where})"
        inner = shown[where]
        assert block_text(inner) == file_lines(rule.span), rule.name
        numbers = [int(n) for n in LINENO.findall(inner)]
        assert numbers == list(range(rule.span.line, rule.span.end_line + 1)), rule.name


def test_setup_play_triggers_abilities_scoring_terms_and_cards_cite_their_source(wish_html):
    sym = front_end("games/wish.wish").sym
    shown = dict(blocks(wish_html))
    nodes = [sym.setup, sym.play, *sym.triggers, *sym.scoring.steps, *[f for f, _, _ in sym.functions.values()],
             *{id(ab): ab for ab in sym.abilities.values()}.values(), *[r for cd in sym.card_decls for r in cd.rows]]
    for node in nodes:
        assert cite(node.span) in shown, node
        assert block_text(shown[cite(node.span)]) == file_lines(node.span), node


def test_source_is_highlighted_with_css_classes_and_hidden_in_print(wish_html):
    inner = "".join(b for _, b in blocks(wish_html))
    assert 'class="k"' in inner and 'class="kd"' in inner and 'class="s2"' in inner  # keywords, strings
    assert "style=" not in inner  # classes, not inline styles
    style = wish_html[wish_html.index("<style>"):wish_html.index("</style>")]
    assert style.count(".highlight .k {") == 1  # Pygments' style sheet, once
    printed = style[style.index("@media print"):]
    assert re.search(r"details\.source\s*\{\s*display:\s*none", printed)
    assert wish_html.count("<details") == len(blocks(wish_html))  # every <details> is a source block, collapsed
    assert "<details open" not in wish_html


def own_sheets(path: str) -> list:
    """(path, variant) of a game's sheet and of each variant its own file declares."""
    return [(path, None)] + [(path, d.name) for d in load_program(path).decls if isinstance(d, A.Variant)]


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: Path(p).stem)
def test_no_source_block_of_any_game_has_an_error_token(path):
    by_name = {Path(p).name: p for p in GAME_FILES}
    for game, variant in own_sheets(path):
        page = render_sheet(game, variant, "html")
        found = blocks(page)
        assert found, (game, variant)
        for where, inner in found:
            assert 'class="err"' not in inner, (game, variant, where)
            name, line = where.rsplit(":", 1)
            numbers = [int(n) for n in LINENO.findall(inner)]
            assert numbers[0] == int(line)
            lines = Path(by_name[name]).read_text(encoding="utf-8").splitlines(keepends=True)
            assert block_text(inner) == "".join(lines[numbers[0] - 1:numbers[-1]]), (game, variant, where)


HOSTILE = '''
game "G" { players 2..2 }
card Thing { label: text }
zone deck: Thing public
cards Thing in deck {
  | name    | label                       |
  | "Plain" | "<script>alert(1)</script>" |
}
abilities "Plain" {
  """<script>alert(2)</script> & <b>bold</b>"""
  instant {
    log "<img src=x onerror=alert(3)>"
  }
}
procedure shout() {
  log "</details></pre><script>alert(4)</script>"
}
play { shout() }
'''


def test_script_in_a_string_or_docstring_is_escaped_in_the_source(tmp_path):
    game = tmp_path / "hostile.wish"
    game.write_text(HOSTILE, encoding="utf-8")
    page = render_sheet(str(game), None, "html")
    assert "<script" not in page.lower() and "<img" not in page and "<b>bold" not in page
    found = dict(blocks(page))
    sym = front_end(str(game)).sym
    shout = found[cite(sym.procedures["shout"][0].span)]
    assert "&lt;/details&gt;&lt;/pre&gt;&lt;script&gt;alert(4)&lt;/script&gt;" in shout
    ability = found[cite(next(iter(sym.abilities.values())).span)]
    assert "&lt;script&gt;alert(2)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in ability
    assert "&lt;img src=x onerror=alert(3)&gt;" in ability
    row = found[cite(sym.card_decls[0].rows[0].span)]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in row
    assert block_text(shout) == file_lines(sym.procedures["shout"][0].span)


def test_only_the_source_module_marks_html_as_safe():
    for path in sorted((ROOT / "docgen").glob("*.py")) + sorted((ROOT / "docgen" / "templates").glob("*.j2")):
        if path.name == "source.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "Markup" not in text and "|safe" not in text.replace(" ", ""), path.name


def test_a_house_rule_sheet_cites_its_own_file_and_its_base_game():
    house = "games/house/wish_four_markers.wish"
    page = render_sheet(house, None, "html")
    shown = dict(blocks(page))
    sym = front_end(house).sym
    own = sym.functions["is_open"][0]
    assert own.span.file.endswith("wish_four_markers.wish") and cite(own.span) in shown
    assert block_text(shown[cite(own.span)]) == file_lines(own.span)
    travel = sym.actions["travel"]
    assert travel.span.file.endswith("games/wish.wish") and cite(travel.span).startswith("wish.wish:")
    assert block_text(shown[cite(travel.span)]) == file_lines(travel.span)
    files = {where.rsplit(":", 1)[0] for where in shown}
    assert files == {"wish.wish", "wish_four_markers.wish"}


def test_the_html_diff_shows_the_new_source_and_the_old_one_it_replaces():
    base, house = "games/wish.wish", "games/house/wish_four_markers.wish"
    page = render_diff(game_diff(base, house), "html")
    old = front_end(base).sym.functions["is_open"][0]
    new = front_end(house).sym.functions["is_open"][0]
    change = re.search(r'<section class="change changed">\s*<h3>Term “is open”</h3>(.*?)</section>', page, re.S)
    assert change, "no change of the term"
    was, now = change.group(1).split('<div class="now">')
    assert '<div class="was">' in was
    before, after = dict(blocks(was)), dict(blocks(now))
    assert list(before) == [cite(old.span)] and list(after) == [cite(new.span)]
    assert block_text(before[cite(old.span)]) == file_lines(old.span)
    assert block_text(after[cite(new.span)]) == file_lines(new.span)
    assert "is_open" in block_text(after[cite(new.span)]) and "column != potion" in block_text(after[cite(new.span)])
    assert re.search(r"details\.source\s*\{\s*display:\s*none", page[page.index("@media print"):])


def test_an_added_card_in_a_diff_shows_its_row(tmp_path):
    (tmp_path / ".wishroot").write_text("")
    (tmp_path / "g.wish").write_text('game "G" { players 2..2 }\ncard Thing { label: text }\nzone deck: Thing public\n'
                                     'cards Thing in deck {\n  | name | label |\n  | "A" | "a" |\n}\nplay { }\n')
    (tmp_path / "h.wish").write_text('extends "g.wish"\ncards Thing in deck {\n  | name | label |\n  | "A" | "a" |\n'
                                     '  | "B" | "<script>b</script>" |\n}\n')
    page = render_diff(game_diff(str(tmp_path / "g.wish"), str(tmp_path / "h.wish")), "html")
    shown = dict(blocks(page))
    assert list(shown) == ["h.wish:5"]
    assert block_text(shown["h.wish:5"]) == '  | "B" | "<script>b</script>" |\n'
    assert "<script" not in page


def test_markdown_sheets_and_diffs_show_no_source():
    md = render_sheet("games/wish.wish", None, "md")
    assert "Source ·" not in md and "<details" not in md and "highlight" not in md
    diff = render_diff(game_diff("games/wish.wish", "games/house/wish_four_markers.wish"), "md")
    assert "Source ·" not in diff and "<details" not in diff
    ctx = build_context("games/wish.wish")  # the look-up commands' context: no highlighting
    assert ctx["source_css"] == "" and all(a["source"] is None for a in ctx["actions"])


def printed_pages(page: str, tmp_path: Path, name: str) -> list:
    """The content streams of `page` printed to PDF by headless Chromium, decompressed (no dates, no ids)."""
    src, pdf = tmp_path / f"{name}.html", tmp_path / f"{name}.pdf"
    src.write_text(page, encoding="utf-8")
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--no-first-run", f"--user-data-dir={tmp_path / ('profile-' + name)}",
           "--no-pdf-header-footer", f"--print-to-pdf={pdf}", src.as_uri()]
    subprocess.run(cmd, capture_output=True, timeout=180, check=False)
    assert pdf.exists() and pdf.stat().st_size > 0, "Chromium printed no PDF"
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", pdf.read_bytes(), re.S):
        try:
            out.append(zlib.decompress(m.group(1)))
        except zlib.error:
            out.append(m.group(1))
    return out


@pytest.mark.skipif(chromium() is None, reason="no Chromium on this machine (install the Debian package 'chromium')")
def test_the_printed_sheet_is_the_same_with_and_without_source_blocks(tmp_path):
    page = render_sheet("games/wunschmaschine.wish", None, "html")
    assert blocks(page)
    without = BLOCK.sub("", page)
    assert printed_pages(page, tmp_path, "with") == printed_pages(without, tmp_path, "without")
