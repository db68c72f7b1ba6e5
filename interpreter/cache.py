"""A cache of compiled games, so that loading a game whose files did not change takes milliseconds.

Checking a game and compiling its rules (interpreter/codegen.py) takes a few hundred milliseconds for Wish. The
result — the Game's tables and the compiled module of its rules — is stored under the user's cache directory
(`~/.cache/wishdsl/games/`, `$XDG_CACHE_HOME` respected) and loaded again when every file of the game (the file
and those it `extends`) has the same SHA-256 as when it was stored, under the same variant, Python version and
engine (the engine's own source files, by size and modification time).

Like Python's own `__pycache__`, an entry is code to run: it is only ever read from a directory and a file that
belong to the user running wishdsl and that nobody else may write to, and the unpickler builds only classes of
the engine (`CLASSES`), never a function by name. It is written by wishdsl alone, from a checked game.
`WISHDSL_CACHE=0` turns it off (the tests use a temporary folder of their own); an unwritable or unsafe
directory simply means no cache.
"""
from __future__ import annotations

import hashlib
import io
import json
import marshal
import os
import pickle
import stat
import sys
from pathlib import Path
from typing import Optional

from dsl.limits import MAX_SOURCE, read_text

FORMAT = b"wishdsl-game-1\n"
ENGINE = Path(__file__).resolve().parent
CLASSES = {  # all that a compiled game is made of (the unpickler builds nothing else)
    "dsl.nodes": {"Span"}, "dsl.types": {"Type"}, "interpreter.codegen": {"Rules"}, "interpreter.game": {"Game"},
    "interpreter.runtime": {"Act", "Announcement", "Choice", "Say", "Simultaneous"},
    "interpreter.tables": {"ActionDef", "CardDef", "Identities", "ParamInfo", "TriggerDef", "VarInfo"},
}


def cache_dir() -> Optional[Path]:
    if os.environ.get("WISHDSL_CACHE", "1") == "0":
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wishdsl" / "games"


def engine_stamp() -> str:
    """Which engine compiled an entry: the sizes and modification times of its own source files (the C
    declarations of the State's classes among them: compiled rules are found by them, native_rules.key_of)."""
    h = hashlib.sha256(sys.version.encode())
    for folder in (ENGINE, ENGINE.parent / "dsl"):
        for p in sorted([*folder.glob("*.py"), *folder.glob("*.pxd")]):
            s = p.stat()
            h.update(f"{p.name}:{s.st_size}:{s.st_mtime_ns};".encode())
    return h.hexdigest()


def key_of(path: str, variant: Optional[str], allow: tuple) -> str:
    """The entry of a file, variant and allowed folders, for the path as written and the file it leads to: the
    compiled rules name their files as the path was written (errors, `--why`), so another spelling of it (from
    another folder, or absolute) is compiled afresh rather than shown under names that lead nowhere."""
    h = hashlib.sha256(FORMAT)
    for part in (str(Path(path).resolve()), str(path), variant or "", "\0".join(allow), engine_stamp()):
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()


def private(p: Path) -> bool:
    """Does `p` belong to this user, with nobody else allowed to write to it?"""
    try:
        s = p.stat()
    except OSError:
        return False
    if hasattr(os, "getuid") and s.st_uid != os.getuid():
        return False
    return not s.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


class _Pickler(pickle.Pickler):
    """Functions of the compiled module are written by name; the module's namespace as a mark."""

    def __init__(self, file, namespace: dict):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.namespace = namespace

    def persistent_id(self, obj):
        if obj is self.namespace:
            return ("namespace",)
        name = getattr(obj, "__name__", None)
        if type(name) is str and self.namespace.get(name) is obj and callable(obj):
            return ("rule", name)  # a function of the module, Python or compiled (native_rules.py)
        return None


class _Unpickler(pickle.Unpickler):
    """Builds only the engine's and the syntax tree's classes; functions come from the compiled module."""

    def __init__(self, file, namespace: dict):
        super().__init__(file)
        self.namespace = namespace

    def persistent_load(self, pid):
        if pid == ("namespace",):
            return self.namespace
        if pid[0] == "rule" and isinstance(pid[1], str):
            return self.namespace[pid[1]]
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")

    def find_class(self, module: str, name: str):
        if name in CLASSES.get(module, ()):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not a class of a compiled game")


def rebuild(game, ns: dict):
    """The same game on another namespace of its rules (one that defines the same functions)."""
    body = io.BytesIO()
    _Pickler(body, game.rules.namespace).dump(game)
    out = _Unpickler(io.BytesIO(body.getvalue()), ns).load()
    out.rules.code, out.rules.native = game.rules.code, None
    out.rules.bind()
    out.rules.fill(out.table)
    return out


def load(path: str, variant: Optional[str], allow: tuple, namespace_of):
    """The cached Game of this file and variant, if its files did not change since; else None.
    `namespace_of(code, key)` gives the namespace its rules run in (codegen.Rules.namespace_of)."""
    d = cache_dir()
    if d is None:
        return None
    entry = d / f"{key_of(path, variant, allow)}.bin"
    if not (private(d) and private(entry)):
        return None
    try:
        data = entry.read_bytes()
        if not data.startswith(FORMAT):
            return None
        head, code, body = _split(data[len(FORMAT):])
        head = json.loads(head)
        if any(_digest(p) != digest for p, digest in head["sources"].items()):
            return None
        code = marshal.loads(code)
        ns, native = namespace_of(code, head.get("native"))
        game = _Unpickler(io.BytesIO(body), ns).load()
    except (OSError, ValueError, KeyError, TypeError, EOFError, AttributeError, IndexError,
            pickle.UnpicklingError):
        return None
    game.rules.code, game.rules.native = code, native
    game.rules.bind()
    game.rules.fill(game.table)
    return game


def store(path: str, variant: Optional[str], allow: tuple, game) -> None:
    d = cache_dir()
    if d is None or game.rules.code is None:
        return
    try:
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not private(d):
            return
        body = io.BytesIO()
        _Pickler(body, game.rules.namespace).dump(game)
        head = json.dumps({"sources": game.sources, "native": game.rules.key}).encode()  # absolute paths
        code = marshal.dumps(game.rules.code)
        data = FORMAT + b"".join(len(x).to_bytes(8, "big") + x for x in (head, code, body.getvalue()))
        tmp = d / f"{key_of(path, variant, allow)}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, d / f"{key_of(path, variant, allow)}.bin")
    except (OSError, pickle.PicklingError, TypeError, ValueError, AttributeError):
        pass


def _split(data: bytes) -> tuple:
    out = []
    for _ in range(3):
        n = int.from_bytes(data[:8], "big")
        out.append(data[8:8 + n])
        data = data[8 + n:]
    return tuple(out)


def _digest(path: str) -> str:
    """The SHA-256 of a game file's text as the parser reads it (dsl.parser.parse_file)."""
    return hashlib.sha256(read_text(path, MAX_SOURCE * 4).encode("utf-8", "surrogatepass")).hexdigest()
