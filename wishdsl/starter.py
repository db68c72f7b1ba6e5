"""`wishdsl new NAME --extends GAME`: a starter house rule, and its scenario file beside it.

The house rule extends GAME and names itself; as comments it lists what the game lets one change by writing a
definition again (its parameters, with their values, and the names of its functions, procedures and actions).
The scenario file holds one scenario that already passes (the game starts, under the house rule's name), to
grow with the rules the house rule changes. Both are checked before the command returns; nothing is overwritten.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from dsl import ast as A
from dsl.errors import WishError
from dsl.fmt import format_source

NAME = re.compile(r"[a-z][a-z0-9_]{0,59}")


def new_house_rule(name: str, base: str, folder: str = None, allow: tuple = ()) -> tuple:
    """Write NAME.wish (extending `base`) and NAME.yaml into `folder` (default: `house/` beside the base game);
    return their paths and that of the `.wishroot` written to make the base game's folder a project, or None.
    Raises WishError when the name, the game or the folder will not do."""
    from dsl.front import front_end
    from interpreter.game import load_game

    from .scenario import run_paths

    if not NAME.fullmatch(name):
        raise WishError(f"'{name}': a house rule's name is lower-case letters, digits and '_', starting with a "
                        "letter (it names its file: NAME.wish)")
    base_path = Path(base)
    game = load_game(base, None, allow)  # the base game must check first
    where = Path(folder) if folder is not None else base_path.parent / "house"
    rule, scenario = where / f"{name}.wish", where / f"{name}.yaml"
    for f in (rule, scenario):
        if f.exists():
            raise WishError(f"{f} exists already; choose another name (nothing was written)")
    checked = front_end(base, None, allow)
    where.mkdir(parents=True, exist_ok=True)
    marker = project_marker(base_path, where)
    if marker is not None:
        marker.write_text("# wishdsl: this folder is a project: house rules below it may extend its games\n",
                          encoding="utf-8")
    title = f"{game.title} — {name.replace('_', ' ')}"
    rule.write_text(rule_text(checked, game, title, os.path.relpath(base_path, where)), encoding="utf-8")
    scenario.write_text(scenario_text(title, rule.name, game.min_players), encoding="utf-8")
    try:
        front_end(str(rule), None, allow)
        failed = [r for r in run_paths([str(scenario)]) if not r.ok]
        if failed:
            raise WishError(f"the starter scenario fails: {failed[0].message}")
    except WishError:
        for f in (rule, scenario, marker):
            if f is not None:
                f.unlink()
        raise
    return str(rule), str(scenario), None if marker is None else str(marker)


def project_marker(base: Path, where: Path):
    """The `.wishroot` to write so that a house rule in `where` may extend `base` (dsl/link.py confines
    `extends` to a project): None when they already share a project, or when `where` is not below the base
    game's folder (then the check says why)."""
    from dsl.link import project_root

    game_dir, where = base.resolve().parent, where.resolve()
    root = project_root(where)
    if root == game_dir or root in game_dir.parents or game_dir not in (where, *where.parents):
        return None
    return game_dir / ".wishroot"


def rule_text(checked, game, title: str, extends: str) -> str:
    sources = {}
    program = checked.program
    while program is not None:  # the base game may itself be a house rule: its lines and its game's
        sources[program.path] = program.source.splitlines()
        program = program.parent
    params = [d for d in checked.decls if isinstance(d, A.Param)]
    named = {"function": A.Function, "procedure": A.Procedure, "action": A.Action}
    out = [
        '"""',
        f"{title}: a house rule on {game.title}. Say here what it changes, and why.",
        '"""',
        f'extends "{Path(extends).as_posix()}"',
        "",
        f'game "{title}" {{',
        f"  players {game.min_players}..{game.max_players}",
        f'  source "a house rule on {game.title}"',
        "}",
        "",
        "# Change a rule by writing its definition again under the same name (`wishdsl diff` shows what changed).",
    ]
    if params:
        out.append("# The game's parameters, as it has them:")
        out += [f"#   {sources[d.span.file][d.span.line - 1].strip()}" for d in params]
    for word, kind in named.items():
        names = [d.name for d in checked.decls if isinstance(d, kind)]
        if names:
            out.append(f"# Its {word}s: " + ", ".join(names))
    return format_source("\n".join(out) + "\n")  # in the canonical layout (`wishdsl fmt`)


def scenario_text(title: str, rule_file: str, players: int) -> str:
    return "\n".join([
        f"# Scenarios of the house rule {rule_file}: run them with `wishdsl test` on this file.",
        f"game: {rule_file}",
        "seed: 1",
        "scenarios:",
        "  - name: the game starts under the house rule's name",
        f"    players: {players}",
        "    expect:",
        "      over: false",
        f'      log: ["{title}: {players} player{"" if players == 1 else "s"}"]',
        "",
    ])
