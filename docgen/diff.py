"""What a house rule or a variant changes: the rules added, removed and changed, in docgen's English.

    from docgen.diff import game_diff, render_diff
    d = game_diff("games/wish.wish", "games/house/wish_four_markers.wish")   # or a variant name: "Solo"
    text = render_diff(d, fmt="md")

The two resolved games are compared declaration by declaration (by the key a variant replaces them by), card
tables card by card and scoring sections step by step. Two definitions are the same when their syntax trees are
equal apart from where they stand in their files. Each change reads as the cheat-sheet reads the rule.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import attrs

from dsl import ast as A
from dsl import variants as V
from dsl.front import front_end
from dsl.link import load_program
from dsl.linked import find_variant

from .english import English
from .words import quote
from .render import decl_label, environment, reconstructed, tidy
from .source import Sources, stylesheet



@attrs.define
class Change:
    """One difference: `kind` is added, removed or changed; `before`/`after` read as rules (None when absent),
    `before_span`/`after_span` say where the old and the new definition stand in their files."""

    kind: str
    key: str
    what: str
    before: Optional[str] = None
    after: Optional[str] = None
    doc: Optional[str] = None
    reconstructed: Optional[str] = None
    before_span: Optional[A.Span] = None
    after_span: Optional[A.Span] = None


@attrs.define
class GameDiff:
    base: str
    variant: str
    title: str
    doc: Optional[str]
    changes: list
    sources: Optional[Sources] = None  # the texts the two games were read from, for the HTML page's source blocks


def same(a, b) -> bool:
    """Equal syntax trees, ignoring source positions."""
    return A.difference(a, b) is None


def game_diff(base: str, variant: str) -> GameDiff:
    """Compare the game in `base` with `variant`: a house-rule file's path, or a variant name of `base`.
    A house rule that extends `base` under a variant is compared with `base` under that variant."""
    old = front_end(base)
    base_label = old.program.path
    if Path(variant).suffix == ".wish" or Path(variant).is_file():
        new = front_end(variant)
        label = variant
        ext = next((d for d in new.program.decls if isinstance(d, A.Extends)), None)
        doc = ext.doc if ext is not None else None
        parent, under = new.program.parent, new.program.parent_variant
        if parent is not None and under is not None and Path(parent.path).resolve() == Path(base).resolve():
            old = front_end(base, under)
            base_label = f'{old.program.path}, variant "{under}"'
    else:
        new = front_end(base, variant)
        label = f'variant "{variant}"'
        doc = find_variant(old.program, variant).doc  # `front_end` has refused an unknown variant
    out = compare(old.decls, new.decls, English(old.sym), English(new.sym))
    return GameDiff(base_label, label, new.sym.game.name, doc, out, Sources(new.program, old.program))


def compare(old: list, new: list, en_old: English, en_new: English) -> list:
    """The changes from declarations `old` to `new`, in the order of the game's file."""
    before = {d.key: d for d in old}
    after = {d.key: d for d in new}
    out: list = []
    for d in new:
        b = before.get(d.key)
        if b is None:
            out.append(_change("added", d, None, en_new.describe(d), en_new))
        elif isinstance(d, A.Cards) and isinstance(b, A.Cards):
            out.extend(_cards(b, d, en_old, en_new))
        elif isinstance(d, A.Scoring) and isinstance(b, A.Scoring):
            out.extend(_scoring(b, d, en_old, en_new))
        elif not same(b, d):
            out.append(_change("changed", d, en_old.describe(b), en_new.describe(d), en_new, was=b))
    for d in old:
        if d.key not in after:
            out.append(_change("removed", d, en_old.describe(d), None, en_old))
    return out


def _change(kind: str, d, before, after, en: English, was=None) -> Change:
    """The change of declaration `d` (the old one when removed; `was`: the old one it replaces)."""
    return Change(kind, d.key, _what(d), before, after, getattr(d, "doc", None),
                  reconstructed(getattr(d, "annots", None)),
                  before_span=(was or d).span if before is not None else None,
                  after_span=d.span if after is not None else None)


def _what(d) -> str:
    label = decl_label(d)
    return label[:1].upper() + label[1:]


def _row_text(en: English, cards: A.Cards, row: A.CardRow) -> str:
    cells = [f"{col}: {en.describe(cell)}" for col, cell in zip(cards.columns, row.cells) if col != "name"]
    return "; ".join(cells)


def _cards(b: A.Cards, d: A.Cards, en_old: English, en_new: English) -> list:
    if b.columns != d.columns or b.zone != d.zone:
        return [_change("changed", d, en_old.describe(b), en_new.describe(d), en_new, was=b)]
    old = {V.row_name(b, r): r for r in b.rows}
    new = {V.row_name(d, r): r for r in d.rows}
    out = []
    for name, r in new.items():
        what = f"{d.kind} card {quote(name)}"
        if name not in old:
            out.append(Change("added", f"card {name}", what, None, _row_text(en_new, d, r),
                              reconstructed=reconstructed(r.annots), after_span=r.span))
        elif not same(old[name], r):
            out.append(Change("changed", f"card {name}", what, _row_text(en_old, b, old[name]),
                              _row_text(en_new, d, r), reconstructed=reconstructed(r.annots),
                              before_span=old[name].span, after_span=r.span))
    for name, r in old.items():
        if name not in new:
            out.append(Change("removed", f"card {name}", f"{b.kind} card {quote(name)}",
                              _row_text(en_old, b, r), None, before_span=r.span))
    return out


def _step_key(s: A.ScoreStep, i: int) -> str:
    return f"{s.form} {s.label}" if s.label is not None else f"{s.form} #{i}"


def _step_what(s: A.ScoreStep) -> str:
    return f"Scoring step {quote(s.label)}" if s.label else "Scoring: who loses"


def _scoring(b: A.Scoring, d: A.Scoring, en_old: English, en_new: English) -> list:
    old = {_step_key(s, i): s for i, s in enumerate(b.steps)}
    new = {_step_key(s, i): s for i, s in enumerate(d.steps)}
    out = []
    for key, s in new.items():
        if key not in old:
            out.append(Change("added", f"scoring {key}", _step_what(s), None, en_new.describe(s), after_span=s.span))
        elif not same(old[key], s):
            out.append(Change("changed", f"scoring {key}", _step_what(s), en_old.describe(old[key]),
                              en_new.describe(s), before_span=old[key].span, after_span=s.span))
    for key, s in old.items():
        if key not in new:
            out.append(Change("removed", f"scoring {key}", _step_what(s), en_old.describe(s), None,
                              before_span=s.span))
    return out


def _lines(text: Optional[str]) -> Optional[list]:
    """A rule's text as (depth, line) pairs: nested steps are indented by two spaces a level."""
    if text is None:
        return None
    out = []
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if stripped:
            out.append({"depth": (len(line) - len(stripped)) // 2, "text": stripped})
    return out


def _data(c: Change, src: Sources) -> dict:
    """A change as plain data for the templates; `src` gives the source blocks of its old and new definition."""
    d = attrs.asdict(c, filter=lambda a, _: not a.name.endswith("_span"))
    d["before"], d["after"] = _lines(c.before), _lines(c.after)
    d["before_source"], d["after_source"] = src.at(c.before_span), src.at(c.after_span)
    return d


def render_diff(diff: GameDiff, fmt: str = "md") -> str:
    """The diff as a Markdown or self-contained HTML page (sandboxed, autoescaped templates)."""
    if fmt not in ("md", "html"):
        raise ValueError(f"unknown format {fmt!r}: use md or html")
    src = (diff.sources or Sources()) if fmt == "html" else Sources(enabled=False)
    groups = [(kind, [_data(c, src) for c in diff.changes if c.kind == kind])
              for kind in ("changed", "added", "removed")]
    return tidy(environment(fmt).get_template(f"diff.{fmt}.j2").render(
        base=diff.base, variant=diff.variant, title=diff.title, doc=diff.doc, groups=groups,
        count=len(diff.changes), source_css=stylesheet() if fmt == "html" else ""))


def house_diffs(house_dir: Path) -> list:
    """(house-rule path, its base game's path) for every house rule in `house_dir`, by name."""
    out = []
    for path in sorted(house_dir.glob("*.wish")):
        program = load_program(str(path))
        if program.parent is not None:
            out.append((str(path), program.parent.path))
    return out


def write_house_diffs(house_dir: Path, out_dir: Path, root: Path) -> list:
    """Write `NAME.md` and `NAME.html`, the diff of each house rule against its game, into `out_dir`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for path, base in house_diffs(house_dir):
        diff = game_diff(_rel(base, root), _rel(path, root))
        for fmt in ("md", "html"):
            target = out_dir / f"{Path(path).stem}.{fmt}"
            target.write_text(render_diff(diff, fmt), encoding="utf-8")
            written.append(str(target))
    return written


def _rel(path: str, root: Path) -> str:
    """A path as written from the project root, so that generated pages do not depend on where they were made."""
    p = Path(path).resolve()
    return str(p.relative_to(root)) if root in p.parents else path
