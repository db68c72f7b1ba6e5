"""The server's HTML pages, from Jinja templates in a sandboxed environment with autoescaping: a game's names
and texts come from files written by strangers, so none reaches a page unescaped. The table itself is drawn by
static/table.js from the messages of its WebSocket (with textContent only)."""
from __future__ import annotations

import json
from urllib.parse import quote

from jinja2 import FileSystemLoader, select_autoescape
from jinja2.sandbox import SandboxedEnvironment
from pathlib import Path

ENV = SandboxedEnvironment(loader=FileSystemLoader(str(Path(__file__).parent / "templates")),
                           autoescape=select_autoescape(default=True, default_for_string=True))


def lobby(catalog, uploads: bool = False, notice: str = "") -> str:
    games = [{"key": e.key, "name": e.name, "variants": e.variants, "players": e.players}
             for e in catalog.playable()]
    broken = [{"key": e.key, "error": e.error} for e in catalog.games.values() if e.error is not None]
    return ENV.get_template("lobby.html").render(games=games, broken=broken, games_json=json.dumps(games),
                                                 uploads=uploads, notice=notice)


def opened(links: dict) -> str:
    return ENV.get_template("opened.html").render(t=links)


def table_page(table, seat) -> str:
    from .table import SPECTATOR

    row = table.row
    return ENV.get_template("table.html").render(
        title=table.game.title if table.game else row.game_path, seat=None if seat == SPECTATOR else seat + 1,
        rules=f"/rules/{quote(row.game_path)}" + (f"?variant={quote(row.variant)}" if row.variant else ""))


def glossary(path: str, variant) -> dict:
    """Every card's one-line summary and full text, and every named thing's (an Area, a Djinn), from the game's
    cheat-sheet (docgen/lookup.py): what a page shows on a card and on hover."""
    from docgen.lookup import Reference

    ref = Reference(path, variant)
    return {"cards": {name: {"summary": ref.summary(name), "text": ref.card(name)} for name in ref.cards},
            "things": {name: ref.component(name) for name in ref.members}}


def message(text: str, details: str = "") -> str:
    return ENV.get_template("message.html").render(text=text, details=details)
