"""Replaying a game from its seed and its actions: `wishdsl replay LOG.json`, and the check behind `--resume`.

A log is the document `wishdsl run --json` prints: the game's path, variant, fingerprint, players, seed, agents,
the actions (`[seat, label]`), and the outcome (log lines, scores, winners, the final state). Replaying applies
the actions to a fresh game of the same seed; the first action that is not an option, or the first part of the
outcome that differs, is reported with where it happened.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from dsl.errors import IllegalAction, WishError
from dsl.limits import TooLarge, read_text
from dsl.link import named_game
from interpreter.agents import ask

MAX_DOCUMENT = 200_000_000  # bytes: a log or save larger than this is refused before it is read
SHOWN_OPTIONS = 12


class ReplayError(WishError):
    """A log or save does not match its game: says where it diverges."""


MAX_JSON_DIGITS = 40  # a save's largest numbers are the generator's 64-bit states (20 digits)


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise ValueError(f"a number of {len(text.lstrip('-')):,} digits; no save or log holds numbers that long")
    return int(text)


def read_json(path: str, what: str) -> dict:
    """A JSON object from a file, or a WishError saying why not (missing, too large, not JSON, too deep)."""
    p = Path(path)
    try:
        text = read_text(p, MAX_DOCUMENT)
    except TooLarge:
        raise WishError(f"{path}: the {what} is larger than {MAX_DOCUMENT // 1_000_000} MB") from None
    except FileNotFoundError:
        raise WishError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise WishError(f"{path}: not a wishdsl {what} (the file is not UTF-8 text)") from None
    except OSError as err:
        raise WishError(f"{path}: {err.strerror}") from None
    try:
        doc = json.loads(text, parse_int=_json_int)
    except ValueError as err:
        raise WishError(f"{path}: not a wishdsl {what} (not JSON: {err})") from None
    except RecursionError:
        raise WishError(f"{path}: not a wishdsl {what} (JSON nested too deeply)") from None
    if not isinstance(doc, dict):
        raise WishError(f"{path}: not a wishdsl {what} (a JSON {type(doc).__name__}, not an object)")
    return doc


def check_actions(actions, where: str) -> list:
    """`[[seat, label], …]` with 0-based seats, checked for shape."""
    if not isinstance(actions, list):
        raise WishError(f"{where}: 'actions' must be a list of [seat, label]")
    for i, a in enumerate(actions):
        if not (isinstance(a, list) and len(a) == 2 and type(a[0]) is int and isinstance(a[1], str)):
            raise WishError(f"{where}: action {i + 1} is not [seat, label]: {str(a)[:80]}")
    return actions


def options_text(labels: list) -> str:
    shown = ", ".join(f"'{x}'" for x in labels[:SHOWN_OPTIONS])
    return shown + (f" … ({len(labels)} in all)" if len(labels) > SHOWN_OPTIONS else "")


def apply_logged(state, i: int, seat: int, label: str, source: str) -> None:
    """Apply the `i`-th (0-based) logged action, or raise ReplayError saying how the game diverged."""
    if state.is_over:
        raise ReplayError(f"decision {i + 1} (player {seat + 1}): {source} says '{label}' but the game is over")
    if seat not in state.to_move:
        waiting = ", ".join(f"player {p + 1}" for p in state.to_move)
        raise ReplayError(f"decision {i + 1} (player {seat + 1}): {source} says '{label}' but the game waits "
                          f"for {waiting}")
    try:
        state.apply(label, player=seat)
    except IllegalAction:
        labels = [a.label for a in state.legal_actions(seat)]
        raise ReplayError(f"decision {i + 1} (player {seat + 1}): {source} says '{label}' but the options are: "
                          + options_text(labels)) from None


def replay_actions(game, players: int, seed: int, actions: list, source: str = "the log", agents=None,
                   timed: bool = False, why: bool = False):
    """A fresh game with the actions applied. With `agents` (one per seat), each non-human agent is asked
    again at its decisions (as in play: `agents.ask`), which brings its own generator to where it was, and
    must choose the same. `timed`: the game was played with its answers timed (a web table with people:
    `Game.new_state`), so the order of the actions is the order the answers arrived in. `why`: a state that
    explains its lines (interpreter/why.py)."""
    if why:
        from interpreter.why import ExplainingState

        state = ExplainingState.start(game, players, seed, timed)
    else:
        state = game.new_state(players, seed, timed)
    for i, (seat, label) in enumerate(actions):
        if agents is not None and agents[seat].name != "human" and seat in state.to_move:
            agent = agents[seat]
            chosen = ask(agent, state, seat)
            if chosen.label != label:
                raise ReplayError(f"decision {i + 1} (player {seat + 1}): {source} says '{label}' but the agent "
                                  f"'{agent.name}' chooses '{chosen.label}' (another version of the agent?)")
        apply_logged(state, i, seat, label, source)
    return state


def game_document(game, path: str, seed: int, specs: list, state, actions: list) -> dict:
    """A played game as `wishdsl run --json` prints it: enough to replay it and check its outcome."""
    return {"game": game.name, "path": path, "game_file": str(Path(path).resolve()),
            "variant": game.variant, "fingerprint": game.fingerprint,
            "players": state.n, "seed": seed, "agents": list(specs),
            "actions": [[p, label] for p, label in actions], "log": state.log_lines(),
            "scores": state.scores(), "winners": state.winners(), "result": state.result(),
            "state": json.loads(state.to_json()), **({"timed": True} if state.timed else {})}


def first_difference(a, b, path: str = "") -> Optional[str]:
    """Where two JSON values first differ, as a path such as `zones[3][0]`, or None."""
    if type(a) is not type(b):
        return path or "the whole value"
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return f"{path}.{k}" if path else k
            d = first_difference(a[k], b[k], f"{path}.{k}" if path else k)
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None if len(a) == len(b) else f"{path} (length {len(a)} against {len(b)})"
    return None if a == b else path


def compare_outcome(state, doc: dict) -> None:
    """Raise ReplayError naming the first difference between the replayed state and the logged outcome."""
    if "log" in doc:
        got, want = state.log_lines(), doc["log"]
        for i, (x, y) in enumerate(zip(got, want)):
            if x != y:
                raise ReplayError(f"the final state differs: log line {i + 1}: the log says '{y}' but the replay "
                                  f"gives '{x}'")
        if len(got) != len(want):
            raise ReplayError(f"the final state differs: the log has {len(want)} lines, the replay {len(got)}")
    for key, got in (("scores", state.scores()), ("winners", state.winners())):
        if key in doc and doc[key] != got:
            raise ReplayError(f"the final state differs: the log says {key} {doc[key]}, the replay gives {got}")
    if "state" in doc:
        where = first_difference(json.loads(state.to_json()), doc["state"])
        if where:
            raise ReplayError(f"the final state differs: at {where} of the saved state")


def game_of_log(path: str, doc: dict) -> str:
    """The game file a log names: its path as `run` was given it (relative to the log's folder when the log was
    written where `run` ran), else the absolute path it also records — each only inside the log's folder tree
    or a folder the user allowed (`dsl.link.named_game`)."""
    hint = "give it: wishdsl replay LOG --game GAME"
    names = [n for n in (doc.get("path"), doc.get("game_file")) if n is not None]
    if not names:
        raise WishError(f"{path}: the log does not name its game file; {hint}")
    for name in names[:-1]:
        try:
            return str(named_game(path, name, hint))
        except WishError:
            pass
    return str(named_game(path, names[-1], hint))


def replay_file(path: str, game_path: Optional[str] = None, why: bool = False):
    """Replay a `run --json` document; return (state, number of actions, a note or None). Raises ReplayError
    on divergence; the note says when the game file changed since the log was written. `why`: the state
    explains its lines."""
    from interpreter.game import load_game

    doc = read_json(path, "game log")
    for key in ("players", "seed"):
        if type(doc.get(key)) is not int:
            raise WishError(f"{path}: not a wishdsl game log ('{key}' must be a whole number)")
    actions = check_actions(doc.get("actions"), path)
    variant = doc.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise WishError(f"{path}: 'variant' must be a name")
    gpath = game_path or game_of_log(path, doc)
    game = load_game(gpath, variant)
    fp = doc.get("fingerprint")
    note = None
    if fp is not None and fp != game.fingerprint:
        note = f"the log was written by a different version of {gpath} (fingerprint {fp}, now {game.fingerprint})"
    try:
        state = replay_actions(game, doc["players"], doc["seed"], actions, timed=doc.get("timed") is True, why=why)
        compare_outcome(state, doc)
    except ReplayError as err:
        raise ReplayError(f"{path}: {err}" + (f"\n  note: {note}" if note else "")) from None
    return state, len(actions), note
