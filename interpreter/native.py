"""Which engine modules run compiled, and a guard that loads none whose source changed since it was compiled.

`pip install` compiles the engine's hot modules with Cython when it and a C compiler are at hand (setup.py): the
same Python source, built into extension modules that Python's import prefers to the `.py` beside them. The
build writes `_native.json` with the SHA-256 of the source each module was compiled from. At the engine's first
import, `guard()` compares them: a compiled module whose source has changed since (an edit in a checkout
installed with `pip install -e`), or that the manifest does not name, is loaded from its source instead, so
an edit always takes effect; `pip install -e .` compiles it again. The State's classes, with the frames and the
log that read them (`LAYOUT`), are extension types and functions declared in `.pxd` files beside their modules:
they are loaded compiled only all together. `WISHDSL_PURE=1` loads every module from its source. Compiled or not,
a game plays the same, byte for byte (tests/test_native.py).
"""
from __future__ import annotations

import enum
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

PACKAGE = "interpreter"
ROOT = Path(__file__).resolve().parent
MANIFEST = ROOT / "_native.json"
SUFFIXES = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)  # `.cpython-311-….so` before `.so`


# The modules of the State's classes, compiled as one chain of extension types (their `.pxd` files), of the frames
# of its effect stack, which the machine reads as one, and of the log, which reads the state's fields: compiled code
# of each reads the fields the others declare at fixed places, so they run compiled all together or not at all
LAYOUT = ("interpreter.frames", "interpreter.state", "interpreter.world", "interpreter.machine", "interpreter.engine",
          "interpreter.log")


class Build(enum.Enum):
    """How one engine module is loaded."""
    COMPILED = "compiled"
    STALE = "changed since compiled, so run from source"
    LINKED = "run from source with the State's other classes"
    PURE = "WISHDSL_PURE=1: runs from its source"


def pure_requested() -> bool:
    return os.environ.get("WISHDSL_PURE", "0") not in ("", "0")


def compiled_files() -> dict:
    """The extension modules present in the package: module name → file."""
    found = {}
    for folder in (ROOT, ROOT / "agents"):
        prefix = PACKAGE + ("." + folder.name if folder != ROOT else "") + "."
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            for suffix in SUFFIXES:
                if name.endswith(suffix):
                    found[prefix + name[: -len(suffix)]] = folder / name
                    break
    return found


def source_of(module: str) -> Path:
    """A compiled module's source: its `.py` file, or the `.pyx` of a module written for C (the generator's)."""
    path = ROOT.joinpath(*module.split(".")[1:])
    py = path.with_suffix(".py")
    return py if py.exists() or not path.with_suffix(".pyx").exists() else path.with_suffix(".pyx")


def digest(module: str) -> str:
    """What a compiled module was built from: its source, and the C declarations beside it (a `.pxd`), if any.
    setup.py computes the same."""
    source = source_of(module)
    h = hashlib.sha256(source.read_bytes())
    pxd = source.with_suffix(".pxd")
    if pxd.exists():
        h.update(pxd.read_bytes())
    return h.hexdigest()


def states() -> dict:
    """Each compiled engine module (module name → Build)."""
    files = compiled_files()
    if not files:
        return {}
    if pure_requested():
        return dict.fromkeys(sorted(files), Build.PURE)
    try:
        built = json.loads(MANIFEST.read_text(encoding="utf-8")).get("modules", {})
    except (OSError, ValueError, AttributeError):
        built = {}
    out = {}
    for module in sorted(files):
        try:
            found = digest(module)
        except OSError:
            found = None
        out[module] = Build.COMPILED if found is not None and built.get(module) == found else Build.STALE
    if any(out.get(m, Build.STALE) is not Build.COMPILED for m in LAYOUT):
        for m in LAYOUT:
            if out.get(m) is Build.COMPILED:
                out[m] = Build.LINKED
    return out


def layout_compiled() -> bool:
    """Do the State's classes run compiled in this process (what compiled rules are built against)?"""
    return all(_STATES.get(m) is Build.COMPILED for m in LAYOUT)


class SourceFirst(importlib.abc.MetaPathFinder):
    """Finds the listed engine modules in their `.py` source, never in a compiled file; one written for C only
    (`.pyx`) is not found at all, and its importer uses the Python it stands in for."""

    def __init__(self, modules):
        self.modules = frozenset(modules)

    def find_spec(self, name, path=None, target=None):
        if name not in self.modules:
            return None
        source = source_of(name)
        if source.suffix != ".py":
            raise ModuleNotFoundError(f"{name}: its compiled file is not used, the Python it stands in for runs",
                                      name=name)
        return importlib.util.spec_from_file_location(name, source)


_STATES: dict = {}


def guard() -> None:
    """Before any engine module is imported: load from source each one that must not run compiled."""
    _STATES.clear()
    _STATES.update(states())
    stale = [m for m, s in _STATES.items() if s is not Build.COMPILED]
    if stale:
        sys.meta_path.insert(0, SourceFirst(stale))


def summary() -> str:
    """One line for `wishdsl --version`: how the engine runs."""
    if not _STATES:
        return "engine: pure Python (not compiled; see README, Speed)"
    if pure_requested():
        return f"engine: pure Python (WISHDSL_PURE=1: its {len(_STATES)} compiled modules are not used)"
    compiled = [m for m, s in _STATES.items() if s is Build.COMPILED]
    others = [m for m, s in _STATES.items() if s is not Build.COMPILED]
    text = f"engine: {len(compiled)} of {len(_STATES)} hot modules compiled (Cython)"
    if others:
        for kind in (Build.STALE, Build.LINKED):
            names = ", ".join(m.removeprefix(PACKAGE + ".") for m in others if _STATES[m] is kind)
            if names:
                text += f"; {names} {kind.value}"
        text += "; `pip install -e .` compiles again"
    return text
