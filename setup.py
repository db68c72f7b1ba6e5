"""Build: the engine's hot modules compiled to C by Cython when it and a C compiler are at hand.

The compiled modules are the same Python source (no Cython syntax, annotations not taken as C types; the State's
classes declared as extension types in `.pxd` files beside them), so the package runs unchanged without them: a build that cannot compile them installs pure Python and says so. Beside
the compiled modules the build writes `interpreter/_native.json`, the SHA-256 of the source each was compiled
from; `interpreter/native.py` loads a compiled module only while its source is unchanged (README, Speed).
Everything else about the package is in pyproject.toml.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
MANIFEST = Path("interpreter") / "_native.json"
# The modules a playout or a search runs through; a list that interpreter/native.py checks nothing against:
# whichever modules were compiled, the manifest names them.
NATIVE = [
    "interpreter/checks.py", "interpreter/engine.py", "interpreter/frames.py", "interpreter/game.py",
    "interpreter/infoset.py", "interpreter/log.py", "interpreter/machine.py", "interpreter/presentation.py",
    "interpreter/runtime.py", "interpreter/scoring.py", "interpreter/state.py", "interpreter/tables.py",
    "interpreter/views.py", "interpreter/world.py", "interpreter/_rng.pyx", "interpreter/_cards.pyx",
    "interpreter/_draws.pyx",
    "interpreter/agents/greedy.py", "interpreter/agents/mcts.py", "interpreter/agents/random.py",
    "interpreter/agents/search.py",
]
DIRECTIVES = {"language_level": 3, "annotation_typing": False}


def say(text: str) -> None:
    print(f"wishdsl: {text}", file=sys.stderr)


def native_extensions() -> list:
    """The Cython extensions, or none (pure Python) when Cython is missing or WISHDSL_PURE=1 is set."""
    if os.environ.get("WISHDSL_PURE", "0") not in ("", "0"):
        say("WISHDSL_PURE is set: the engine is installed as pure Python")
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        say("Cython is not installed: the engine is installed as pure Python (slower; see README, Speed)")
        return []
    exts = cythonize(NATIVE, compiler_directives=DIRECTIVES, build_dir="build/cython", quiet=True,
                     nthreads=os.cpu_count() or 1)
    for ext in exts:
        ext.optional = True  # a module that does not compile stays pure Python
    return exts


class BuildNative(build_ext):
    """build_ext on every core, writing the manifest of what it compiled beside the modules."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        super().run()
        built = {}
        for ext in self.extensions:
            target = Path(self.get_ext_fullpath(ext.name))
            if target.exists():
                source = HERE / (ext.name.replace(".", "/") + ".py")
                if not source.exists():
                    source = source.with_suffix(".pyx")
                h = hashlib.sha256(source.read_bytes())
                if source.with_suffix(".pxd").exists():  # its C declarations (interpreter/native.py, digest)
                    h.update(source.with_suffix(".pxd").read_bytes())
                built[ext.name] = h.hexdigest()
        missing = sorted({e.name for e in self.extensions} - set(built))
        if missing:
            say("not compiled (these run as pure Python): " + ", ".join(missing))
        root = Path(".") if self.inplace else Path(self.build_lib)
        out = root / MANIFEST
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"modules": built}, indent=1, sort_keys=True) + "\n", encoding="utf-8")


setup(ext_modules=native_extensions(), cmdclass={"build_ext": BuildNative})
