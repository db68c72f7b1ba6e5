"""Saved games: `wishdsl run GAME --save FILE`, `--resume FILE`, and the save a terminal game makes on Ctrl-C.

A save file is one JSON object: `{"format": "wishdsl-save", "version": 2, "checksum": "sha256:…", "body": …}`
(version 2: states record their shuffles; a version-1 file is refused with a message).
The checksum is the SHA-256 of the body written canonically (sorted keys, no spaces), so a truncated or edited
file is refused. The body holds the game file's path, variant and fingerprint, the players, the seed, the agent
of every seat, the actions taken so far (`[seat, label]`) and the state (`state.to_json()`, as an object).

The seed and the actions are authoritative: loading replays them on a fresh game (asking the seats' agents
again, so that their own generators are where they were), and the saved state must equal the replayed one.
Everything is checked before anything is returned, so a file is loaded whole or refused with a message.
Writes go to a temporary file beside the target, then `os.replace`: an interrupted save leaves the last one.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Optional

import attrs

from dsl.errors import WishError
from interpreter.state import STATE_FORMAT

from .replay import ReplayError, check_actions, first_difference, read_json, replay_actions
from .version import version

FORMAT = "wishdsl-save"
VERSION = 2  # 2: states record their shuffles


@attrs.define
class Saved:
    """A loaded save: what is needed to go on playing."""

    path: str  # the game file
    variant: Optional[str]
    players: int
    seed: int
    agents: list  # one spec per seat
    actions: list  # [seat, label]
    game: object = None
    state: object = None
    seat_agents: list = attrs.Factory(list)


def canonical(body: dict) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def checksum(body: dict) -> str:
    return "sha256:" + hashlib.sha256(canonical(body)).hexdigest()


def save_body(game, game_path: str, state, seed: int, agents: list, actions: list) -> dict:
    return {
        "wishdsl": version(), "game": game_path, "variant": game.variant, "fingerprint": game.fingerprint,
        "players": state.n, "seed": seed, "agents": list(agents),
        "actions": [[a.player, a.label] if hasattr(a, "label") else list(a) for a in actions],
        "state": json.loads(state.to_json()),
    }


def write_save(path: str, body: dict) -> None:
    doc = {"format": FORMAT, "version": VERSION, "checksum": checksum(body), "body": body}
    try:
        write_text_atomic(path, json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
    except OSError as err:
        raise WishError(f"cannot save to {path}: {err.strerror or err}") from None


def write_text_atomic(path: str, text: str) -> None:
    """Write a temporary file in the same folder, flush it to disk, then rename it over `path`: an
    interruption leaves either the old file or the new one, never a part."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def save_game(path: str, game, game_path: str, state, seed: int, agents: list, actions: list) -> None:
    write_save(path, save_body(game, game_path, state, seed, agents, actions))


def read_body(path: str) -> dict:
    """The body of a save file, after the format, version and checksum are checked."""
    doc = read_json(path, "save file")
    if doc.get("format") != FORMAT:
        raise WishError(f"{path}: not a wishdsl save file" + _looks_like(doc))
    if doc.get("version") != VERSION:
        raise WishError(f"{path}: a wishdsl save file of version {doc.get('version')!r}; "
                        f"this wishdsl reads version {VERSION}")
    body = doc.get("body")
    if not isinstance(body, dict):
        raise WishError(f"{path}: damaged: the save has no body")
    if doc.get("checksum") != checksum(body):
        raise WishError(f"{path}: damaged: checksum mismatch (the file was changed or cut short)")
    return body


def _looks_like(doc: dict) -> str:
    if doc.get("format") == STATE_FORMAT:
        return " (it is a bare game state: load it with game.state_from_json)"
    if "actions" in doc and "seed" in doc:
        return " (it looks like a game log: use wishdsl replay)"
    return ""


def _field(body: dict, key: str, kind, path: str):
    v = body.get(key)
    if kind is int and type(v) is not int or kind is not int and not isinstance(v, kind):
        raise WishError(f"{path}: damaged: '{key}' is missing or of the wrong kind")
    return v


def load_save(path: str, game_path: Optional[str] = None) -> Saved:
    """Read, check and restore a save; `game_path` (from the command line) must be the same game.
    Raises WishError without returning anything half-loaded."""
    from interpreter.agents import make_agent, agent_seed
    from interpreter.game import load_game, older_format

    body = read_body(path)
    saved = Saved(_field(body, "game", str, path), body.get("variant"), _field(body, "players", int, path),
                  _field(body, "seed", int, path), _field(body, "agents", list, path),
                  check_actions(body.get("actions"), path))
    if saved.variant is not None and not isinstance(saved.variant, str):
        raise WishError(f"{path}: damaged: 'variant' is of the wrong kind")
    if len(saved.agents) != saved.players or not all(isinstance(a, str) for a in saved.agents):
        raise WishError(f"{path}: damaged: 'agents' must name one agent per player")
    gpath = game_path or saved.path
    game = load_game(gpath, saved.variant)
    fingerprint = body.get("fingerprint")
    if fingerprint != game.fingerprint:
        raise WishError(f"{path}: saved from a different version of {saved.path} (fingerprint {fingerprint}); "
                        f"{gpath} now gives {game.fingerprint}")
    state_doc = body.get("state")
    stored = None  # a state an older wishdsl wrote cannot be compared: its seed and actions are enough
    if not (isinstance(state_doc, dict) and older_format(state_doc.get("format"))):
        try:
            stored = game.state_from_json(json.dumps(state_doc))
        except WishError as err:
            raise WishError(f"{path}: damaged: the saved state does not load: {err}") from None
    agents = [make_agent(spec, seat, agent_seed(saved.seed, seat)) for seat, spec in enumerate(saved.agents)]
    try:
        state = replay_actions(game, saved.players, saved.seed, saved.actions, "the save", agents)
    except ReplayError as err:
        raise WishError(f"{path}: damaged: replaying its actions fails: {err}") from None
    where = stored is not None and first_difference(json.loads(state.to_json()), json.loads(stored.to_json()))
    if where:
        raise WishError(f"{path}: damaged: replaying its actions does not give the saved state (at {where})")
    saved.path, saved.game, saved.state, saved.seat_agents = gpath, game, state, agents
    return saved


def default_save_path(game_path: str, seed: int) -> str:
    return f"{Path(game_path).stem}-{seed}.wishsave.json"
