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

import glob
import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
from pathlib import Path
from typing import Optional

import attrs

from dsl.errors import WishError
from dsl.link import named_game
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
        "wishdsl": version(), "game": game_path, "name": game.name, "variant": game.variant,
        "fingerprint": game.fingerprint,
        "players": state.n, "seed": seed, "agents": list(agents),
        "actions": [[a.player, a.label] if hasattr(a, "label") else list(a) for a in actions],
        "state": json.loads(state.to_json()),
    }


def user_key(create: bool) -> Optional[bytes]:
    """This user's secret for signing saves (`~/.config/wishdsl/save-key`, readable by the user alone), made on
    the first save; None when there is none and none can be made (a read-only home)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    file = Path(base) / "wishdsl" / "save-key"
    try:
        if file.is_file() and file.stat().st_uid == os.getuid() and not file.stat().st_mode & 0o077:
            return bytes.fromhex(file.read_text(encoding="ascii").strip())
        if not create or file.exists():
            return None
        file.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        key = secrets.token_bytes(32)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key.hex())
        return key
    except (OSError, ValueError):
        return None


def signature(body: dict, create: bool = False) -> Optional[str]:
    """The body signed with this user's key: a save that carries it was written by this user, so the game file
    it names is opened wherever it is (a save from anyone else names a game inside its own folder tree only)."""
    key = user_key(create)
    return None if key is None else "hmac-sha256:" + hmac.new(key, canonical(body), hashlib.sha256).hexdigest()


def write_save(path: str, body: dict) -> None:
    doc = {"format": FORMAT, "version": VERSION, "checksum": checksum(body), "body": body}
    signed = signature(body, create=True)
    if signed is not None:
        doc["signature"] = signed
    try:
        write_text_atomic(path, json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
    except OSError as err:
        raise WishError(f"cannot save to {path}: {err.strerror or err}") from None


def write_text_atomic(path: str, text: str) -> None:
    """Write a temporary file in the same folder, flush it to disk, then rename it over `path`: an
    interruption leaves either the old file or the new one, never a part."""
    target = Path(path)
    clean_stale_temps(target)
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


_CLEANED: set = set()  # saves whose folder this process has cleaned of earlier runs' temporary files


def clean_stale_temps(target: Path) -> None:
    """The temporary files an earlier run left beside this save when it was killed while writing (`kill -9`
    between creating and renaming one): removed once, at this process's first write of the save. Only files
    named as `write_text_atomic` names them for this very save are touched."""
    key = str(target.resolve())
    if key in _CLEANED:
        return
    _CLEANED.add(key)
    for stale in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        if re.fullmatch(rf"\.{re.escape(target.name)}\.[A-Za-z0-9_]+\.tmp", stale.name):
            try:
                stale.unlink()
            except OSError:
                pass


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def save_game(path: str, game, game_path: str, state, seed: int, agents: list, actions: list) -> None:
    """Save a game; the game file is named relative to the save's own folder, so that the save resumes from
    any working folder (`load_save`)."""
    relative = os.path.relpath(Path(game_path).resolve(), Path(path).resolve().parent)
    write_save(path, save_body(game, relative, state, seed, agents, actions))


def read_body(path: str) -> tuple:
    """(the body of a save file, whether this user signed it), after the format, version and checksum are
    checked."""
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
    signed, expected = doc.get("signature"), signature(body)
    return body, isinstance(signed, str) and expected is not None and hmac.compare_digest(signed, expected)


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


def load_save(path: str, game_path: Optional[str] = None, why: bool = False) -> Saved:
    """Read, check and restore a save; `game_path` (from the command line) must be the same game; `why`: the
    state explains its lines. Raises WishError without returning anything half-loaded."""
    from interpreter.agents import make_agent, agent_seed
    from interpreter.game import load_game, older_format

    body, mine = read_body(path)
    saved = Saved(_field(body, "game", str, path), body.get("variant"), _field(body, "players", int, path),
                  _field(body, "seed", int, path), _field(body, "agents", list, path),
                  check_actions(body.get("actions"), path))
    if saved.variant is not None and not isinstance(saved.variant, str):
        raise WishError(f"{path}: damaged: 'variant' is of the wrong kind")
    if len(saved.agents) != saved.players or not all(isinstance(a, str) for a in saved.agents):
        raise WishError(f"{path}: damaged: 'agents' must name one agent per player")
    gpath = game_path or game_of_save(path, body, mine)
    game = load_game(gpath, saved.variant)
    fingerprint = body.get("fingerprint")
    if fingerprint != game.fingerprint:
        name = body.get("name")
        if isinstance(name, str) and name != game.name:
            raise WishError(f"{path}: a save of {name}, not of {game.name} ({gpath})")
        raise WishError(f"{path}: saved from a different version of {beside(path, saved.path)} (fingerprint "
                        f"{fingerprint}); {gpath} now gives {game.fingerprint}")
    state_doc = body.get("state")
    stored = None  # a state an older wishdsl wrote cannot be compared: its seed and actions are enough
    if not (isinstance(state_doc, dict) and older_format(state_doc.get("format"))):
        try:
            stored = game.state_from_json(json.dumps(state_doc))
        except WishError as err:
            raise WishError(f"{path}: damaged: the saved state does not load: {err}") from None
    agents = [make_agent(spec, seat, agent_seed(saved.seed, seat)) for seat, spec in enumerate(saved.agents)]
    try:
        state = replay_actions(game, saved.players, saved.seed, saved.actions, "the save", agents, why=why)
    except ReplayError as err:
        raise WishError(f"{path}: damaged: replaying its actions fails: {err}") from None
    where = stored is not None and first_difference(json.loads(state.to_json()), json.loads(stored.to_json()))
    if where:
        raise WishError(f"{path}: damaged: replaying its actions does not give the saved state (at {where})")
    saved.path, saved.game, saved.state, saved.seat_agents = gpath, game, state, agents
    return saved


def game_of_save(path: str, body: dict, mine: bool) -> str:
    """The game file a save names, relative to the save's folder. This user's own save (signed with their key)
    may name it anywhere; anyone else's only inside the save's folder tree or a folder the user allowed."""
    name = body.get("game")
    if mine:
        game = beside(path, name)
        if game.suffix == ".wish" and game.is_file():
            return str(game)
    return str(named_game(path, name, "give the game: wishdsl run GAME --resume FILE"))


def beside(path: str, name: str) -> Path:
    """The file `name` names relative to the folder of the save `path`."""
    return Path(os.path.normpath(Path(path).resolve().parent / name))


def default_save_path(game_path: str, seed: int) -> str:
    return f"{Path(game_path).stem}-{seed}.wishsave.json"
