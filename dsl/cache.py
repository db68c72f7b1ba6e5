"""A cache of parsed files, keyed by the hash of the grammar and the source (like Python's .pyc files).

Parsing is the slow part of loading a game (Lark's LALR parser in pure Python); checking and compiling are
fast. A successful parse is stored as JSON under the user's cache directory and read back on the next load of
the same text. The JSON is decoded into the attrs classes of `dsl.ast` only — never pickle, nothing from the
file is executed. Set WISHDSL_CACHE=0 to turn the cache off; an unwritable directory simply means no cache.

An entry is a header line — the format, its key (the grammar, the code that builds the tree, the path and the
source text hashed together) and the SHA-256 of the key and the body — then the body, the syntax tree as JSON.
An entry that is not exactly that (junk, `[]`, a hand-edited or truncated body, another file's tree, JSON nested
past Python's stack, a tree that is not a Program, a tree built by other code) is a miss: the file is parsed
again and the entry written anew.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path
from typing import Optional

import attrs

from . import ast as A

FORMAT = "wishdsl-ast-2"
# The modules whose code decides the tree a source parses to: an entry written by another version of them is a
# miss, as a .pyc compiled by another Python is.
BUILDERS = ("ast.py", "build.py", "decls.py", "incremental.py", "limits.py", "nodes.py", "parser.py", "recover.py",
            "words.py")
_CLASSES = {c.__name__: c for c in vars(A).values() if isinstance(c, type) and attrs.has(c)}


def cache_dir() -> Optional[Path]:
    if os.environ.get("WISHDSL_CACHE", "1") == "0":
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wishdsl" / "ast"


@functools.lru_cache(maxsize=1)
def builders_digest() -> str:
    """The SHA-256 of the source of the modules in BUILDERS."""
    h = hashlib.sha256()
    here = Path(__file__).parent
    for name in BUILDERS:
        h.update((here / name).read_bytes())
    return h.hexdigest()


def key_of(grammar: str, text: str, path: str) -> str:
    h = hashlib.sha256()
    for part in (FORMAT, builders_digest(), grammar, path, text):
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def _encode(v):
    if attrs.has(type(v)):
        out = {"_": type(v).__name__}
        for f in attrs.fields(type(v)):
            out[f.name] = _encode(getattr(v, f.name))
        return out
    if isinstance(v, list):
        return [_encode(x) for x in v]
    if isinstance(v, tuple):
        return {"_": "tuple", "items": [_encode(x) for x in v]}
    return v


def _decode(obj: dict):
    """One JSON object of an entry, its members already decoded (json's `object_hook`, called innermost
    first): a tuple, or a node of one of the syntax tree's own classes."""
    kind = obj.pop("_")
    if kind == "tuple":
        return tuple(obj["items"])
    return _CLASSES[kind](**obj)  # only the syntax tree's own classes


def _digest(key: str, body: str) -> str:
    return hashlib.sha256(f"{FORMAT}\0{key}\0{body}".encode("utf-8", "surrogatepass")).hexdigest()


def load(key: str) -> Optional[A.Program]:
    d = cache_dir()
    if d is None:
        return None
    try:
        head, _, body = (d / f"{key}.json").read_text(encoding="utf-8").partition("\n")
        header = json.loads(head)
        if not (isinstance(header, dict) and header.get("format") == FORMAT and header.get("key") == key
                and header.get("digest") == _digest(key, body)):
            return None
        program = json.loads(body, object_hook=_decode)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None
    return program if isinstance(program, A.Program) else None


def store(key: str, program: A.Program) -> None:
    d = cache_dir()
    if d is None:
        return
    try:
        d.mkdir(parents=True, exist_ok=True)
        body = json.dumps(_encode(program), separators=(",", ":"))
        head = json.dumps({"format": FORMAT, "key": key, "digest": _digest(key, body)})
        tmp = d / f"{key}.{os.getpid()}.tmp"
        tmp.write_text(head + "\n" + body, encoding="utf-8")
        os.replace(tmp, d / f"{key}.json")
    except (OSError, RecursionError):
        pass
