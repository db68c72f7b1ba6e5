"""Rule cheat-sheets: a checked game → a context of plain data → Jinja templates (Markdown, HTML).

    from docgen.render import render_sheet
    text = render_sheet("games/wish.wish", variant=None, fmt="html")

The context holds only strings, numbers, lists and dicts (no AST nodes), so the templates cannot reach into the
game; the HTML environment is sandboxed and autoescapes every value, so names from a game file cannot inject
markup. The one value that is HTML already is a rule's highlighted source (HTML sheets only, docgen/source.py),
which Pygments has escaped. Generation is deterministic: the same file gives the same bytes (no dates, no hashes
of memory).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from dsl import ast as A
from dsl import variants as V
from dsl.front import front_end
from dsl.link import load_program
from dsl.linked import find_variant, variant_names
from dsl.refs import RefKind, kind_of

from .endings import explain_end
from .english import English
from .english_decls import VISIBILITY, cell, static_text, trigger_parts, weight_text
from .source import Sources, stylesheet
from .words import Step, camel_words, cap, humanize, join_and, kind_noun, quote, sentence, walk

TEMPLATES = Path(__file__).with_name("templates")
FORMATS = ("md", "html")


# ---------------------------------------------------------------- footnotes for reconstructed values


class Marks:
    """Numbered footnotes for reconstructed values; one number per distinct reason."""

    def __init__(self):
        self.notes: list = []  # [{"n": 1, "reason": …, "where": [...]}]
        self.index: dict = {}

    def mark(self, reason: Optional[str], where: str) -> Optional[int]:
        if not reason:
            return None
        if reason not in self.index:
            self.index[reason] = len(self.notes) + 1
            self.notes.append({"n": self.index[reason], "reason": reason, "where": []})
        note = self.notes[self.index[reason] - 1]
        if where not in note["where"]:
            note["where"].append(where)
        return self.index[reason]


def reconstructed(annots) -> Optional[str]:
    for a in annots or ():
        if a.name == "reconstructed":
            return a.text or "not printed in the rulebook"
    return None


# ---------------------------------------------------------------- steps as plain data


def steps_data(steps: list) -> list:
    return [{"text": s.text, "children": steps_data(s.children)} for s in steps]


def block_data(en: English, block: Optional[A.Block]) -> list:
    return steps_data(en.render(block)) if block is not None else []


# ---------------------------------------------------------------- loading


def sheet_name(path: str, variant: Optional[str]) -> str:
    """`games/wish.wish`, "Solo" → "wish-solo"."""
    stem = Path(path).stem
    if variant is None:
        return stem
    slug = "".join(ch.lower() if ch.isalnum() else "-" for ch in variant).strip("-")
    while "--" in slug:
        slug = slug.replace("--", "-")
    return f"{stem}-{slug}"


# ---------------------------------------------------------------- the context


def routes(en: English, e: A.Enum, table_rows: dict) -> list:
    """A field whose value is another member of the same enum (`next: Area?`) links the members into routes:
    [{"field": "next", "stops": ["Sandhills", "Oasis", …, "Dock"]}], each route from a member nothing leads to."""
    out = []
    for f in e.fields:
        if not (f.type.form == "named" and f.type.name == e.name):
            continue
        nxt = {}
        for m, cells in table_rows.items():
            c = cells.get(f.name)
            if isinstance(c, A.Name) and c.name in table_rows:
                nxt[m] = c.name
        for start in [m.name for m in e.members if m.name in nxt and m.name not in nxt.values()]:
            stops, seen = [start], {start}
            while stops[-1] in nxt and nxt[stops[-1]] not in seen:
                stops.append(nxt[stops[-1]])
                seen.add(stops[-1])
            out.append({"field": humanize(f.name), "stops": [en.display(m) for m in stops]})
    return out


def revealed_in(decls) -> dict:
    """zone name → the rules ("Deal", "Settle") that reveal its cards to everyone."""
    out: dict = {}
    for d in decls:
        where = f"see {cap(humanize(d.name))}" if isinstance(d, (A.Procedure, A.Action)) else \
            {A.Setup: "at setup", A.Play: "at the end of the play sequence"}.get(type(d))
        if where is None:
            continue
        for n in walk(d):
            if isinstance(n, A.Reveal):
                zone = n.cards.name if isinstance(n.cards, (A.Name, A.FieldOf)) and kind_of(n.cards) in (
                    RefKind.ZONE, RefKind.PZONE) else None
                if zone is not None and where not in out.setdefault(zone, []):
                    out[zone].append(where)
    return out


def calls_in(node) -> list:
    """Procedure names called under `node`, in order of first call."""
    out = []
    for n in walk(node):
        if isinstance(n, A.ExprStmt) and isinstance(n.expr, A.Call) and n.expr.name not in out:
            out.append(n.expr.name)
    return out


def heuristic_data(en: English, h: A.Heuristic) -> dict:
    """The heuristic, for the designers' appendix: its doc and each estimate with its weight, in English."""
    with en.as_you(h.var):
        return {"doc": h.doc, "terms": [{"label": t.label, "weight": weight_text(t.weight), "text": en.expr(t.expr)}
                                        for t in h.terms],
                "advice": [{"action": humanize(t.action), "label": t.label, "text": en.expr(t.cond)} for t in h.advice]}


def decl_label(d) -> str:
    """A short name of a declaration, for the list of what a variant changes."""
    if isinstance(d, A.Game):
        return f"the game itself ({A.players_text(d.min_players, d.max_players)})"
    if isinstance(d, A.Abilities):
        return "the abilities of " + ", ".join(quote(c) for c in d.cards)
    if isinstance(d, A.Cards):
        return f"the {kind_noun(d.kind)} cards"
    if isinstance(d, A.Trigger):
        return "a rule that reacts: " + humanize(d.event.name or d.event.form)
    if isinstance(d, (A.Setup, A.Play, A.Scoring, A.Table, A.Heuristic)):
        return {A.Setup: "the setup", A.Play: "the play sequence", A.Scoring: "the scoring",
                A.Table: "what the table shows", A.Heuristic: "how AI players judge a game"}[type(d)]
    if isinstance(d, A.Invariant):
        return f"the invariant {quote(d.name)}"
    kind = {A.Enum: "enum", A.CardKind: "card kind", A.Zone: "zone", A.Var: "variable", A.Param: "parameter",
            A.Event: "event", A.Function: "term", A.Procedure: "procedure", A.Action: "action"}.get(type(d), "")
    name = getattr(d, "name", "")
    return f"{kind} {quote(name if isinstance(d, (A.Enum, A.CardKind)) else humanize(name))}".strip()


def build_context(path: str, variant: Optional[str] = None, source: bool = False) -> dict:
    """The sheet's context; with `source`, each rule also carries its highlighted `.wish` source (HTML only)."""
    checked = front_end(path, variant)
    program, decls, sym = checked.program, checked.decls, checked.sym
    en = English(sym)
    marks = Marks()
    src = Sources(program, enabled=source)
    g = sym.game
    ctx: dict = {"source_css": stylesheet() if source else ""}
    players = f"{g.min_players}" if g.min_players == g.max_players else f"{g.min_players}–{g.max_players}"
    head = split_header(base_game_doc(program))
    ctx["game"] = {"name": g.name, "players": players, "source": g.source, "summary": en.describe(g),
                   "doc": head["overview"]}
    ctx["about"] = head
    ctx["title"] = g.name + (f" — {variant}" if variant else "")
    ctx["variant"] = None
    all_variants = [d for d in program.decls if isinstance(d, A.Variant)]
    if variant is not None:
        v = find_variant(program, variant)  # the file's own, or one it inherits (front_end checked it exists)
        ctx["variant"] = {"name": v.name, "doc": v.doc}

    # components
    enums = []
    for e in sym.enums.values():
        fields = [f.name for f in e.fields]
        table_rows = {}
        for r in e.rows:
            by_col = dict(zip(e.columns, r.cells))
            if isinstance(by_col.get("member"), A.Name):
                table_rows[by_col["member"].name] = by_col
        rows = []
        for m in e.members:
            rec = marks.mark(reconstructed(m.annots), f"{e.name}: {m.display or m.name}")
            by_col = table_rows.get(m.name, {})
            cells = [cell(en, by_col[f]) if f in by_col else "" for f in fields] if e.columns else []
            rows.append({"name": m.display or humanize(m.name), "cells": cells, "rec": rec})
        enums.append({"name": camel_words(e.name), "doc": e.doc, "rec": marks.mark(e.reconstructed, e.name),
                      "fields": [humanize(f) for f in fields], "members": rows,
                      "routes": routes(en, e, table_rows)})
    ctx["enums"] = enums

    ctx["kinds"] = [{"name": kind_noun(k.name) + " card", "doc": k.doc, "summary": en.describe(k),
                     "fields": [{"name": humanize(f.name), "type": en.typeref(f.type),
                                 "default": en.expr(f.default) if f.default is not None else ""} for f in k.fields],
                     "active_in": [humanize(z) for z in k.active_in]} for k in sym.kinds.values()]
    revealed = revealed_in(decls)
    ctx["zones"] = [{"name": humanize(z.name), "kind": kind_noun(z.kind), "doc": z.doc, "per_player": z.per_player,
                     "visibility": VISIBILITY.get(z.visibility, z.visibility) + (
                         "; revealed to everyone (" + join_and(revealed[z.name]) + ")"
                         if z.visibility != "public" and z.name in revealed else ""),
                     "limit": en.expr(z.limit) if z.limit is not None else "",
                     "rec": marks.mark(z.reconstructed, humanize(z.name))} for z in sym.zones.values()]
    state = []
    for d in decls:
        if isinstance(d, A.Var) and any(a.name == "bookkeeping" for a in d.annots):
            continue
        if isinstance(d, A.Var) and not any(a.name == "quiet" for a in d.annots) or isinstance(d, A.Param):
            state.append({"name": cap(en.varname(d.name)), "kind": "rule value" if isinstance(d, A.Param) else
                          ("each player" if d.per_player else "shared"),
                          "per_player": d.per_player, "text": en.describe(d).split(": ", 1)[-1],
                          "doc": d.doc, "rec": marks.mark(d.reconstructed, humanize(d.name))})
    for d in decls:  # the variables whose changes are not logged, after the rest
        if isinstance(d, A.Var) and any(a.name == "quiet" for a in d.annots) and \
                not any(a.name == "bookkeeping" for a in d.annots):
            state.append({"name": cap(en.varname(d.name)), "kind": "each player" if d.per_player else "shared",
                          "per_player": d.per_player, "text": en.describe(d).split(": ", 1)[-1], "doc": d.doc,
                          "rec": marks.mark(d.reconstructed, humanize(d.name))})
    ctx["state"] = state

    # structure: setup, play, the procedures they call
    ctx["setup"] = block_data(en, sym.setup.body) if sym.setup else [
        {"text": "No separate setup: the play sequence below prepares everything.", "children": []}]
    ctx["setup_doc"] = sym.setup.doc if sym.setup else None
    ctx["setup_source"] = src.cite(sym.setup) if sym.setup else None
    ctx["play"] = block_data(en, sym.play.body) if sym.play else []
    ctx["play_doc"] = sym.play.doc if sym.play else None
    ctx["play_source"] = src.cite(sym.play) if sym.play else None
    order: list = []
    todo = [n for root in (sym.setup, sym.play) if root is not None for n in calls_in(root)]
    while todo:
        name = todo.pop(0)
        if name in sym.procedures and name not in order:
            order.append(name)
            todo.extend(calls_in(sym.procedures[name][0]))
    ctx["structure"] = [proc_data(en, marks, sym.procedures[n][0], src) for n in order]
    ctx["procedures"] = [proc_data(en, marks, p, src) for n, (p, _) in sym.procedures.items() if n not in order]

    # actions
    actions = []
    for a in sym.actions.values():
        reqs = [s for s in a.body.stmts if isinstance(s, A.Require)]
        rest = A.Block([s for s in a.body.stmts if not isinstance(s, A.Require)])
        with en.scope(a):
            actions.append({
                "name": cap(humanize(a.name)), "doc": a.doc, "rec": marks.mark(a.reconstructed, humanize(a.name)),
                "params": [en.describe(p) for p in a.params],
                "requires": [en.describe(r) for r in reqs],
                "effects": block_data(en, rest) if rest.stmts else [{"text": "Nothing else happens.", "children": []}],
                "source": src.cite(a),
            })
    ctx["actions"] = actions

    ctx["triggers"] = [trigger_data(en, t, src) for t in sym.triggers]
    ctx["events"] = [{"name": humanize(e.name), "doc": e.doc, "text": en.describe(e)}
                     for e, _ in sym.events.values()]

    # cards
    card_kinds_abilities = {}
    for name, ab in sym.abilities.items():
        kinds = []
        if ab.instant:
            kinds.append("Instant")
        if ab.triggers or ab.statics:  # the rulebook's one word for a steady ability
            kinds.append("Ongoing")
        card_kinds_abilities[name] = kinds
    decks = []
    for cd in sym.card_decls:
        cols = [c for c in cd.columns if c not in ("name", "count")]
        rows = []
        for r in cd.rows:
            by_col = dict(zip(cd.columns, r.cells))
            name = cell(en, by_col["name"]) if "name" in by_col else ""
            rows.append({
                "name": name, "count": cell(en, by_col["count"]) if "count" in by_col else "1",
                "cells": [cell(en, by_col[c]) if c in by_col else "" for c in cols],
                "abilities": ", ".join(card_kinds_abilities.get(name, [])) or "—",
                "rec": marks.mark(reconstructed(r.annots), name), "source": src.cite(r),
            })
        decks.append({"kind": kind_noun(cd.kind), "zone": humanize(cd.zone), "doc": cd.doc, "summary": en.describe(cd),
                      "columns": [humanize(c) for c in cols], "rows": rows,
                      "has_abilities": any(r["abilities"] != "—" for r in rows),
                      "rec": marks.mark(cd.reconstructed, f"{kind_noun(cd.kind)} cards")})
    ctx["decks"] = decks

    abilities = []
    by_kind = {"Instant": [], "Ongoing": []}
    for ab in {id(ab): ab for ab in sym.abilities.values()}.values():
        item = {"cards": ab.cards, "doc": ab.doc, "instant": None, "ongoing": [], "static": [], "source": src.cite(ab)}
        if ab.instant:
            item["instant"] = {"doc": ab.instant.doc, "steps": block_data(en, ab.instant.body)}
            by_kind["Instant"].extend(ab.cards)
        for t in ab.triggers:
            item["ongoing"].append(trigger_data(en, t, src))
        for s in ab.statics:
            item["static"].append({"doc": s.doc, "text": static_text(en, s)})
        if ab.triggers or ab.statics:
            by_kind["Ongoing"].extend(ab.cards)
        abilities.append(item)
    ctx["abilities"] = abilities
    ctx["abilities_by_kind"] = [{"kind": k, "cards": v, "meaning": KIND_MEANING[k]}
                                for k, v in by_kind.items() if v]

    # scoring, end, invariants, terms
    sc = sym.scoring
    ctx["scoring"] = None
    if sc is not None:
        with en.as_you(sc.var):
            ctx["scoring"] = {
                "doc": sc.doc,
                "score": [{"label": s.label, "text": en.expr(s.expr), "source": src.cite(s)}
                          for s in sc.steps if s.form == "score"],
                "numbered": not all(re.match(r"\d+\.", s.label) for s in sc.steps if s.form == "score"),
                "tiebreak": [{"label": s.label, "text": en.expr(s.expr), "source": src.cite(s)}
                             for s in sc.steps if s.form == "tiebreak"],
                "lose": [en.expr(s.expr) for s in sc.steps if s.form == "lose"],
                "lose_source": [src.cite(s) for s in sc.steps if s.form == "lose"],
                "intro": ("At the end, each player scores:" if len([s for s in sc.steps if s.form == "score"]) == 1
                          else "At the end, each player adds up these scores:"),
                "rule": " ".join(filter(None, [
                    "The highest score wins.",
                    "A player who loses cannot win." if any(s.form == "lose" for s in sc.steps) else "",
                    "Players still tied share the win." if any(s.form == "tiebreak" for s in sc.steps)
                    else "Tied players share the win."])),
            }
    ctx["end"] = steps_data(explain_end(en, sym, decls))
    ctx["table"] = None
    if sym.table is not None:
        ctx["table"] = [{"doc": p.doc, "text": en.describe(p)} for p in sym.table.parts]
    ctx["invariants"] = [{"name": cap(i.name), "doc": i.doc, "text": en.describe(i).split(": ", 1)[-1]}
                         for i in sym.invariants]
    ctx["heuristic"] = heuristic_data(en, sym.heuristic) if sym.heuristic is not None else None
    ctx["terms"] = [term_data(en, marks, f, src) for f, _, _ in sym.functions.values()]

    # variants
    base = V.base_decls(program)
    base_keys = {d.key for d in base}
    variants = []
    for v in all_variants:
        replaces = [decl_label(d) for d in v.decls if not isinstance(d, A.Remove) and d.key in base_keys]
        adds = [decl_label(d) for d in v.decls if not isinstance(d, A.Remove) and d.key not in base_keys]
        removes = [quote(humanize(d.name)) for d in v.decls if isinstance(d, A.Remove)]
        variants.append({"name": v.name, "doc": v.doc, "replaces": replaces, "adds": adds, "removes": removes,
                         "sheet": sheet_name(path, v.name), "current": v.name == variant})
    ctx["variants"] = variants
    ctx["base_sheet"] = sheet_name(path, None)
    ctx["notes"] = marks.notes
    return ctx


KIND_MEANING = {
    "Instant": "resolved once, when the card is played",
    "Ongoing": "works while the card is in play: it reacts to events or changes a rule's value",
}


def doc_blocks(doc: Optional[str]) -> list:
    """A doc string as paragraphs and bullet lists, with hard-wrapped lines joined again."""
    if not doc:
        return []
    blocks: list = []
    for para in doc.split("\n\n"):
        lines = [ln.strip() for ln in para.strip().splitlines() if ln.strip()]
        items: list = []
        text: list = []
        for ln in lines:
            if ln.startswith(("- ", "* ")):
                if text:
                    blocks.append({"kind": "p", "text": " ".join(text)})
                    text = []
                items.append(ln[2:])
            elif items:
                items[-1] += " " + ln
            else:
                text.append(ln)
        if text:
            blocks.append({"kind": "p", "text": " ".join(text)})
        if items:
            blocks.append({"kind": "ul", "items": items})
    return blocks


SOURCES = re.compile(r"Sources?:")


def split_header(doc: Optional[str]) -> dict:
    """A game's header doc string, split for players: the overview (everything before the first paragraph that
    starts with "Source:") and, for the footnotes, the sources, the decisions where the rulebook is silent (a
    paragraph followed by a list) and what else the header says (what is and is not implemented)."""
    out: dict = {"overview": doc, "sources": [], "decisions_intro": None, "decisions": [], "status": []}
    if not doc:
        return out
    paras = [p for p in doc.split("\n\n") if p.strip()]
    first = next((i for i, p in enumerate(paras) if SOURCES.match(p.strip())), len(paras))
    out["overview"] = "\n\n".join(paras[:first]) or None
    blocks = doc_blocks("\n\n".join(paras[first:]))
    for i, b in enumerate(blocks):
        listed = i + 1 < len(blocks) and blocks[i + 1]["kind"] == "ul"
        if b["kind"] == "ul":
            out["decisions"].extend(b["items"])
        elif SOURCES.match(b["text"]):
            out["sources"].append(b["text"])
        elif listed and out["decisions_intro"] is None:
            out["decisions_intro"] = b["text"]
        else:
            out["status"].append(b["text"])
    return out


def base_game_doc(program: A.Program) -> Optional[str]:
    """The game's overview: a house rule's own doc (on its `extends` line) first, then its game's."""
    own = next((d.doc for d in program.decls if isinstance(d, A.Game) and d.doc), None)
    house = next((d.doc for d in program.decls if isinstance(d, A.Extends) and d.doc), None)
    under = base_game_doc(program.parent) if program.parent is not None and own is None else None
    parts = [t for t in (house, own or under) if t]
    return "\n\n".join(parts) if parts else None


def proc_data(en: English, marks: Marks, p: A.Procedure, src: Sources) -> dict:
    with en.scope(p):
        return {"name": cap(humanize(p.name)), "params": [en.param_name(x.name) for x in p.params], "doc": p.doc,
                "steps": block_data(en, p.body), "rec": marks.mark(p.reconstructed, humanize(p.name)),
                "source": src.cite(p)}


def term_data(en: English, marks: Marks, f: A.Function, src: Sources) -> dict:
    with en.scope(f):
        return {"name": cap(humanize(f.name)), "params": [en.param_name(x.name) for x in f.params], "doc": f.doc,
                "text": sentence(en.expr(f.body)), "rec": marks.mark(f.reconstructed, f.name), "source": src.cite(f)}


def trigger_data(en: English, t: A.Trigger, src: Sources) -> dict:
    with en.scope(t):
        head, steps = trigger_parts(en, t)
    return {"doc": t.doc, "head": head, "steps": steps_data(steps), "source": src.cite(t)}


# ---------------------------------------------------------------- templates


def md_cell(value) -> str:
    """A Markdown table cell (of text already escaped by `md_text`): no pipes, no line breaks."""
    return str(value if value is not None else "").replace("|", "\\|").replace("\n", " ")


MD_INLINE = re.compile(r"([\\`*_\[\]~])")
MD_LINE_START = re.compile(r"^(\s*)(?:([#+=-])|(\d+)([.)]))", re.M)
MD_NO_LINE_START = re.compile(r"(?!)")  # text inside a line: no line starts to escape


def md_line(value) -> str:
    """`md_text` for a value that starts a line of the sheet: a block mark at its very start is escaped too."""
    return md_text(value, MD_LINE_START)


def md_text(value, line_start=MD_NO_LINE_START) -> str:
    """Text from a game file as literal Markdown, on one line: emphasis, code, link and strike-through marks are
    escaped, so are entities and angle brackets (no raw HTML gets through); `md_line` also escapes a block mark
    (#, -, +, "1.") at the start."""
    s = re.sub(r"\s*\n\s*", " ", str(value if value is not None else ""))  # hard-wrapped lines join
    s = MD_INLINE.sub(r"\\\1", s)
    s = re.sub(r"&(?=#?\w+;)", "&amp;", s).replace("<", "&lt;").replace(">", "&gt;")
    return line_start.sub(lambda m: m.group(1) + ("\\" + m.group(2) if m.group(2) else
                                                     m.group(3) + "\\" + m.group(4)), s)


def environment(fmt: str) -> SandboxedEnvironment:
    env = SandboxedEnvironment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=(fmt == "html"),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["cell"] = lambda v: md_cell(md_text(v))
    env.filters["mdtext"] = md_text
    env.filters["mdline"] = md_line
    env.filters["blocks"] = doc_blocks
    return env


def render_sheet(path: str, variant: Optional[str] = None, fmt: str = "md") -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    ctx = build_context(path, variant, source=(fmt == "html"))
    return tidy(environment(fmt).get_template(f"sheet.{fmt}.j2").render(**ctx))


def tidy(text: str) -> str:
    """Rendered text without trailing spaces, with at most one blank line in a row, ending in one newline."""
    out: list = []
    for line in (line.rstrip() for line in text.splitlines()):
        if line == "" and out and out[-1] == "":
            continue
        out.append(line)
    return "\n".join(out).strip() + "\n"


def all_sheets(games: list) -> list:
    """(game path, variant, sheet name) of every game and each of its variants."""
    out = []
    for path in games:
        program = load_program(str(path))
        for v in [None] + variant_names(program):
            out.append((str(path), v, sheet_name(str(path), v)))
    return out


def write_all(games: list, out_dir: str) -> list:
    """Write `NAME.md` and `NAME.html` of every game and variant into `out_dir`; return the paths written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path, variant, name in all_sheets(games):
        for fmt in FORMATS:
            target = out / f"{name}.{fmt}"
            target.write_text(render_sheet(path, variant, fmt), encoding="utf-8")
            written.append(str(target))
    return written


__all__ = ["render_sheet", "build_context", "write_all", "all_sheets", "sheet_name", "Step"]
