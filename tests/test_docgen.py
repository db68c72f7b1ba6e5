"""Rule cheat-sheets (issue 5): English for every construct, Markdown and HTML sheets, docs/ kept current."""
import re
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from docgen.english import English, NoEnglish, walk
from docgen.render import all_sheets, build_context, render_sheet
from dsl import ast as A
from dsl.front import front_end
from dsl.linked import variant_names
from dsl.parser import parse, parse_file
from wishdsl.cli import main
from web_browser import chromium  # the one way the tests find Chromium

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").glob("*.wish"))
CLASS_NAMES = {name for name in dir(A) if isinstance(getattr(A, name), type) and issubclass(getattr(A, name), A.Node)}
# Class names that are also ordinary English words or game words ("Move the deck", enum Act) are not a sign of a
# fallback; every other class name (FieldOf, BinOp, ExprStmt …) must never show.
ENGLISH_WORDS = {"Name", "Index", "Call", "Slice", "Block", "Let", "Transfer", "If", "For", "Repeat", "While", "Move",
                 "Shuffle", "Peek", "Reveal", "Turn", "Swap", "Announce", "Log", "Choose", "Act", "Resolve", "Emit",
                 "Require", "Annotation", "Game", "Enum", "Cards", "Zone", "Var", "Param", "Event", "Function",
                 "Procedure", "Action", "Trigger", "Instant", "Setup", "Play", "Scoring", "Variant", "Remove", "Table",
                 "Invariant", "Program", "Node", "Expr", "Stmt", "Decl", "Literal", "Generator"}
FALLBACK = re.compile(r"\b(" + "|".join(sorted(CLASS_NAMES - ENGLISH_WORDS)) + r")\b|\bNone\b|object at 0x|dsl\.ast|"
                      r"<[A-Za-z]+ object|\b(" + "|".join(sorted(CLASS_NAMES)) + r")\(")


def checked(path, variant=None):
    c = front_end(path, variant)
    return c.program, c.decls, c.sym


def game_from_text(text):
    c = front_end(parse(text, "<test>"))
    return c.decls, c.sym


# ---------------------------------------------------------------- English


@pytest.mark.parametrize("path", GAMES)
def test_every_construct_of_every_game_reads_as_english(path):
    program = parse_file(path)
    seen = set()
    for variant in [None] + variant_names(program):
        _, decls, sym = checked(path, variant)
        en = English(sym)
        for decl in decls:
            for node in walk(decl):
                text = en.describe(node)
                seen.add(type(node))
                assert isinstance(text, str) and text.strip(), f"{type(node).__name__} at {node.span} is empty"
                bad = FALLBACK.search(text)
                assert bad is None, f"{type(node).__name__} at {node.span} reads {text!r}"
    # the variant blocks themselves (their doc and what they change)
    _, _, sym = checked(path)
    en = English(sym)
    for d in program.decls:
        if isinstance(d, A.Variant):
            assert en.describe(d).strip()


def test_the_three_games_use_most_constructs():
    seen = set()
    for path in GAMES:
        program = parse_file(path)
        for variant in [None] + variant_names(program):
            _, decls, _ = checked(path, variant)
            for d in decls:
                seen.update(type(n) for n in walk(d))
    # every construct the games use went through the walk above; the dispatch table covers all classes
    from docgen.english import RENDER
    concrete = {getattr(A, n) for n in CLASS_NAMES} - {A.Node, A.Expr, A.Stmt, A.Decl}
    assert concrete <= set(RENDER), sorted(c.__name__ for c in concrete - set(RENDER))
    assert len(seen) > 50


def test_a_class_without_english_raises():
    en = English(front_end(parse('game "G" { players 1..2 }\nplay { }\n')).sym)

    class Strange(A.Expr):
        pass

    with pytest.raises(NoEnglish):
        en.describe(Strange())


SMALL = '''
game "Small" { players 2..4 }
enum Crystal { ruby "Ruby", sapphire "Sapphire" }
enum Item { pig "Pig", heart "Heart" }
card Gem { points: int }
zone deck: Gem hidden
player zone hand: Gem owner
zone pile: Gem public
player var crystals: bag of Crystal = {}
player var guess: Item? = none
var pot: int = 3
cards Gem in deck {
  | name  | count | points |
  | "Big" | 2     | 5      |
  | "Small" | 3   | 1      |
}
function fives(p: player): int = count(c for c in p.hand if c.points == 5)
procedure ask(g: player) {
  choose x from Item by g prompt "Name the item"
  g.guess = x
}
action shine() {
  require fives(you) > 0 else "you have no five"
  you.crystals += {ruby: 2}
  transfer 1 from pot to pot
  move top 1 of deck to you.hand
  ask(you)
}
play { }
'''


def find(decls, cls, name):
    return next(d for d in decls if isinstance(d, cls) and d.name == name)


def test_english_reads_like_a_rulebook():
    decls, sym = game_from_text(SMALL)
    en = English(sym)
    fives = find(decls, A.Function, "fives")
    assert en.describe(fives.body) == "the number of cards in the player's hand with points 5"
    shine = find(decls, A.Action, "shine")
    lines = [en.describe(s) for s in shine.body.stmts]
    assert lines[0] == "Only if the player's fives is more than 0; otherwise: “you have no five”." or \
        lines[0] == "Only if your fives is more than 0; otherwise: “you have no five”."
    assert lines[1] == "You gain 2 Ruby."
    assert lines[2] == "Move 1 from the pot to the pot."
    assert lines[3] == "Move the top card of the deck to your hand."
    assert lines[4] == "You ask."
    ask = find(decls, A.Procedure, "ask")
    assert en.describe(ask.body.stmts[0]) == "That player chooses an Item (“Name the item”)."


# ---------------------------------------------------------------- sheets


def test_wish_sheet_has_every_section():
    md = render_sheet("games/wish.wish", None, "md")
    for heading in ["## Overview and goal", "## Components", "### Area", "### Monument", "### Djinn", "### Zones",
                    "## Setup", "## Round and turn structure", "## Actions", "## Rules that react", "## Cards",
                    "### Wish cards", "## Card abilities", "### Abilities by kind", "## Scoring and the end of the game",
                    "## Invariants", "## Variants", "## Footnotes: where the rulebook is silent",
                    "## Footnotes: sources", "## Footnotes: reconstructed values"]:
        assert heading in md, heading
    # tables of enums and cards, with reconstructed rows marked
    assert "| Area | crystals | people | monument | next | neighbours | ability |" in md
    assert re.search(r"\| Fall in Love †\d+ \| 1 \| red \|", md)
    assert "Only if you may take the Travel action now; otherwise: “no free action column shows Travel”." in md
    assert "Ties are broken by, in this order:" in md
    assert "**Instant**" in md and "**Ongoing**" in md
    assert "Static" not in md  # the rulebook's one word for a steady ability is "Ongoing", everywhere
    assert "Following next: Sandhills → Oasis → Palace Gardens → Palace → Dark Temple → Cataracts → Ruins → " \
        "Forest → Trade Market → Dock." in md
    assert "Replaces: procedure “choose djinns”" in md


def test_reconstructed_values_are_marked_with_their_reason():
    ctx = build_context("games/wunschmaschine.wish")
    item = next(e for e in ctx["enums"] if e["name"] == "Item")
    crown = next(m for m in item["members"] if m["name"] == "Crown")
    note = ctx["notes"][crown["rec"] - 1]
    assert note["reason"] == "the ninth item is not named in any source"
    html = render_sheet("games/wunschmaschine.wish", None, "html")
    assert 'title="Reconstructed: the ninth item is not named in any source"' in html
    md = render_sheet("games/wunschmaschine.wish", None, "md")
    assert f"Crown †{crown['rec']}" in md and f"†{crown['rec']} the ninth item is not named in any source" in md


def test_variant_sheet_shows_the_variant():
    md = render_sheet("games/wish.wish", "Solo", "md")
    assert md.startswith("# Wish — Solo")
    assert "Variant “Solo”" in md and "Challenge deck" in md
    assert "### Solo (this sheet)" in md
    ctx = build_context("games/wunschmaschine.wish")
    lr = next(v for v in ctx["variants"] if v["name"] == "Left-Right")
    assert "procedure “attempt”" in lr["replaces"] and "enum “Hand”" in lr["adds"]


def test_generation_is_deterministic():
    for fmt in ("md", "html"):
        assert render_sheet("games/three_wishes.wish", "Match", fmt) == render_sheet(
            "games/three_wishes.wish", "Match", fmt)


def test_docs_folder_is_up_to_date():
    stale = []
    for path, variant, name in all_sheets(GAMES):
        for fmt in ("md", "html"):
            target = ROOT / "docs" / f"{name}.{fmt}"
            if not target.exists() or target.read_text(encoding="utf-8") != render_sheet(path, variant, fmt):
                stale.append(str(target.relative_to(ROOT)))
    assert not stale, "out of date (regenerate with: python -m docgen): " + ", ".join(stale)


HOSTILE = '''
game "<b>Bold</b> & co" { players 2..2 }
"""A doc with <img src=x onerror=alert(2)>."""
enum Item { pig "<i>Pig</i>" }
card Thing { label: text }
zone deck: Thing public
cards Thing in deck {
  | name                        | label                |
  | "<script>alert(1)</script>" | "<style>*{}</style>" |
}
abilities "<script>alert(1)</script>" {
  instant {
    log "<script>alert(3)</script>"
  }
}
play { }
'''


def test_names_from_a_game_file_cannot_inject_markup(tmp_path):
    game = tmp_path / "hostile.wish"
    game.write_text(HOSTILE, encoding="utf-8")
    html = render_sheet(str(game), None, "html")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script" not in html.lower()
    assert "<img" not in html and "<i>Pig" not in html and "<b>Bold" not in html
    assert html.count("<style>") == 1  # the page's own style sheet only
    md = render_sheet(str(game), None, "md")
    assert "<script" not in md and "<img" not in md


HOSTILE_MD = '''
game "*Star* _game_" { players 2..2 }
"""
# Not a heading
- a real list item with `code`, *stars* and [a link](http://example.com)

1. not a numbered list
"""
enum Item { pig "# pig", cow "*cow*" }
card Thing { label: text }
zone deck: Thing public
cards Thing in deck {
  | name                               | label            |
  | "[click](http://evil.example) `x`" | "a | b ~~c~~ &amp;" |
}
play { }
'''


def test_markdown_of_hostile_names_renders_literally(tmp_path):
    markdown_it = pytest.importorskip("markdown_it")
    game = tmp_path / "hostile.wish"
    game.write_text(HOSTILE_MD, encoding="utf-8")
    md = render_sheet(str(game), None, "md")
    assert "\\*Star\\* \\_game\\_" in md and "\\[click\\](http://evil.example) \\`x\\`" in md
    html = markdown_it.MarkdownIt("commonmark").enable("table").enable("strikethrough").render(md)
    assert "evil.example" in html and "<a href" not in html  # the name's link is text, not a link
    assert "<em>Star</em>" not in html and "<em>cow</em>" not in html and "<s>" not in html
    assert "<h1>Not a heading</h1>" not in html and "# Not a heading" in html
    assert "<li>a real list item with `code`, *stars* and [a link](http://example.com)</li>" in html
    assert "<p>1. not a numbered list</p>" in html
    assert "<ol>" not in html  # "1." in a doc string is not a list
    assert "# pig" in html and "<h1>pig" not in html
    assert "a | b ~~c~~ &amp;amp;" in html  # the cell keeps its pipe, tildes and entity as text


def test_cli_docs(tmp_path, capsys):
    out = tmp_path / "w.html"
    assert main(["docs", "games/wunschmaschine.wish", "--format", "html", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == render_sheet("games/wunschmaschine.wish", None, "html")
    capsys.readouterr()
    assert main(["docs", "games/wunschmaschine.wish", "--variant", "Left-Right"]) == 0
    text = capsys.readouterr().out
    assert text == render_sheet("games/wunschmaschine.wish", "Left-Right", "md")
    assert main(["docs", "games/wunschmaschine.wish", "--variant", "Nope"]) == 1
    assert "unknown variant" in capsys.readouterr().err


# ---------------------------------------------------------------- the HTML in a real browser


def png_pixels(data: bytes):
    """(width, height, rows of pixel tuples) of an 8-bit RGB or RGBA PNG, decoded with the standard library."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), f"unexpected PNG format {depth}/{colour}"
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


@pytest.mark.skipif(chromium() is None, reason="no Chromium on this machine (install the Debian package 'chromium')")
@pytest.mark.parametrize("size", ["1200,2000", "390,1400"])
def test_html_sheet_renders_in_headless_chromium(tmp_path, size):
    page = tmp_path / "wish.html"
    page.write_text(render_sheet("games/wish.wish", None, "html"), encoding="utf-8")
    shot = tmp_path / "wish.png"
    cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
           f"--screenshot={shot}", f"--window-size={size}", page.as_uri()]
    subprocess.run(cmd, capture_output=True, timeout=120, check=False)
    assert shot.exists() and shot.stat().st_size > 0, "Chromium wrote no screenshot"
    width, height, bpp, rows = png_pixels(shot.read_bytes())
    assert (width, height) == tuple(int(x) for x in size.split(","))
    colours, inked = set(), 0
    background = rows[-1][:3]
    for row in rows[::7]:
        for x in range(0, width * bpp, bpp * 3):
            px = row[x:x + 3]
            colours.add(px)
            inked += px != background
    sampled = len(rows[::7]) * len(range(0, width * bpp, bpp * 3))
    assert len(colours) > 20, "the page is (nearly) a single colour: blank"
    assert inked / sampled > 0.02, "almost nothing is drawn on the page"


# ---------------------------------------------------------------- the sheet for players (issue 18)

ROUTE_GAME = '''
"""
Stops — a tiny game of a bus on a route.

The bus goes from stop to stop; the game ends when it reaches the depot.

Sources: made up for this test.

Decisions where the text is silent:
- The bus never waits.
- Ties are shared.

Everything the text states is implemented.
"""
game "Stops" { players 2..2 }
enum Stop(next: Stop?) {
  | member | display  | next   |
  | depot  | "Depot"  | none   |
  | market | "Market" | square |
  | square | "Square" | depot  |
  | yard   | "Yard"   | none   |
}
card Ticket { }
"""Tickets nobody has seen yet."""
zone drawer: Ticket hidden
zone bin: Ticket hidden
cards Ticket in drawer {
  | name  |
  | "One" |
}
var bus: Stop = market
@bookkeeping
var tick: int = 0
"""Moves of the bus."""
var moves: int = 0
@reads("the bus is in the depot")
var over: bool = false
procedure ride() {
  if bus.next != none {
    bus = bus.next
  }
  moves += 1
  if bus == depot {
    over = true
  }
}
play {
  while not over {
    ride()
  }
  reveal drawer
}
'''


def test_the_header_is_split_into_an_overview_and_footnotes(tmp_path):
    (tmp_path / "stops.wish").write_text(ROUTE_GAME)
    md = render_sheet(str(tmp_path / "stops.wish"), None, "md")
    overview = md.split("## Overview and goal")[1].split("## Components")[0]
    assert "The bus goes from stop to stop" in overview and "Sources" not in overview and "Decisions" not in overview
    silent = md.split("## Footnotes: where the rulebook is silent")[1].split("## Footnotes: sources")[0]
    assert "The rulebook does not say; this game does as written below." in silent
    assert "- The bus never waits.\n- Ties are shared." in silent
    sources = md.split("## Footnotes: sources")[1]
    assert "Sources: made up for this test." in sources and "Everything the text states is implemented." in sources
    html = render_sheet(str(tmp_path / "stops.wish"), None, "html")
    assert '<section id="silent">' in html and "<li>The bus never waits.</li>" in html


def test_a_field_naming_its_own_enum_is_drawn_as_a_route(tmp_path):
    (tmp_path / "stops.wish").write_text(ROUTE_GAME)
    md = render_sheet(str(tmp_path / "stops.wish"), None, "md")
    assert "Following next: Market → Square → Depot." in md
    assert "Yard →" not in md and "Depot →" not in md  # a stop on no route is no route


def test_revealed_zones_and_bookkeeping_in_the_tables(tmp_path):
    (tmp_path / "stops.wish").write_text(ROUTE_GAME)
    md = render_sheet(str(tmp_path / "stops.wish"), None, "md")
    assert "| drawer | Ticket cards | face down; revealed to everyone (at the end of the play sequence) |" in md
    assert "| bin | Ticket cards | face down |" in md
    assert "| Moves | shared |" in md and "| Tick |" not in md


def test_a_pass_is_said_to_finish_only_when_nothing_in_it_reads_the_condition(tmp_path):
    (tmp_path / "stops.wish").write_text(ROUTE_GAME)
    md = render_sheet(str(tmp_path / "stops.wish"), None, "md")
    assert "checked before each pass of “Ride”: a pass already begun is played to its end by everyone" in md
    three = render_sheet("games/three_wishes.wish", None, "md")  # a turn is skipped once the round is over
    assert "Play goes on as long as the round is not over; when that fails" in three
    assert "a pass already begun" not in three
