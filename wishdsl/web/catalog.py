"""The games a server offers: the .wish files named on `wishdsl serve`'s command line, and every .wish file under
a folder named there (house rules included). Each is checked when the server starts; one that does not check
is listed with its first error and cannot be played. A game's `extends` may reach the offered folders (as if
they were given to `wishdsl --allow`) besides its own project."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import attrs

from dsl.errors import WishError


@attrs.define
class Offered:
    """One game file on offer."""

    key: str  # its path as the server names it (relative to where it was found), with '/'
    path: str
    name: str = ""
    variants: list = attrs.Factory(list)
    players: dict = attrs.Factory(dict)  # variant name ("" for the base game) → [fewest, most]
    error: Optional[str] = None


class Catalog:
    """The offered games, in a stable order."""

    def __init__(self, paths: list, allow: tuple = ()):
        self.folders = tuple(str(Path(p) if Path(p).is_dir() else Path(p).parent) for p in paths)
        self.allow = tuple(str(a) for a in allow) + self.folders  # `extends` reaches the offered folders too
        self.games: dict = {}
        for path in paths:
            p = Path(path)
            if not p.exists():
                raise WishError(f"{path}: no such file or folder (name game files, or folders that hold them)")
            files = sorted(p.rglob("*.wish"), key=lambda f: (len(f.parts), f.as_posix())) if p.is_dir() else [p]
            for f in files:
                self.add(f)
        if not self.games:
            raise WishError("no .wish files to serve: name game files or folders that hold them")
        if not self.playable():
            problems = "; ".join(f"{e.key}: {e.error}" for e in self.games.values())
            raise WishError(f"none of the games checks: {problems}")

    def add(self, f: Path) -> Offered:
        """Offer the game file `f` (checked now; one that does not check is listed with its first error)."""
        from interpreter.game import load_game

        entry = Offered(f.as_posix(), str(f))
        try:
            game = load_game(str(f), None, self.allow)
            entry.name = game.title
            entry.variants = list(game.variants)
            entry.players[""] = [game.min_players, game.max_players]
            for v in entry.variants:
                other = load_game(str(f), v, self.allow)
                entry.players[v] = [other.min_players, other.max_players]
        except WishError as err:
            entry.error = str(err).splitlines()[0]
        self.games[entry.key] = entry
        return entry

    def remove(self, f: Path) -> None:
        self.games.pop(f.as_posix(), None)

    def entry_at(self, f: Path):
        return self.get(f.as_posix())

    def get(self, key: str) -> Optional[Offered]:
        entry = self.games.get(key)
        return entry if entry is not None and entry.error is None else None

    def playable(self) -> list:
        return [e for e in self.games.values() if e.error is None]
