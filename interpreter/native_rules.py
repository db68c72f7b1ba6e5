"""A game's rules compiled to machine code: its generated module (codegen.py) built by Cython into an extension
module, kept in the cache, and used by every later load of that game while its rules are the same.

`wishdsl build GAME` builds one (it needs Cython and a C compiler: `pip install -e '.[native]'`); nothing is
built behind a user's back, as a build takes from seconds (Wunschmaschine) to minutes (Wish). The extension is
compiled from the very text `wishdsl rules GAME` prints, behind a prelude that declares the names the engine
puts in the module's namespace (`prelude`), so it runs the same rules, byte for byte (tests/test_native_rules.py).
It is compiled against the C declarations of the State's classes (interpreter/*.pxd, part of its key) and runs
only with them compiled (native.layout_compiled).

An extension is found by a digest of the rules' text and the game's fingerprint (the texts of its files and its
variant, not where they are), with the Python it was built for (`key_of`). Games loaded with one digest
share the module's globals: equal tables, and the spans of the last one loaded (a message names the file as
that load spelled its path). It is loaded, like the cache of compiled games, only from a directory and a file
that belong to the user and that nobody else may write to.

Compiled rules have no Python frames: a State that explains its log (`why.py`) runs on the Python twin of the
game (`Game.explainable`), and a runtime error's rule path names the rules on the effect stack but not the
procedures called directly. `WISHDSL_PURE=1` runs the Python rules, as it runs the Python engine.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import symtable
import sysconfig
import tempfile
from pathlib import Path
from typing import Optional

from dsl.errors import WishError

from . import cache, native
from .codegen_exprs import symbol_tables

FORMAT = "wishdsl-native-4"
ROOT = Path(__file__).resolve().parent.parent  # where the child process finds this package
PREFIX = "wishrules_"
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
LAYOUT = tuple(Path(__file__).resolve().parent / f"{m}.pxd"
               for m in ("frames", "state", "world", "machine", "engine"))
# the generated text's only annotations are the memo's `dict` (codegen.memo_wrapper): Cython then calls the dict
# directly instead of looking up its methods
DIRECTIVES = {"language_level": 3, "annotation_typing": True}
CFLAGS = "-O2 -g0"  # Wish's rules are 5,000 lines: -O3 with debug symbols takes minutes longer, runs no faster


class BuildError(WishError):
    """The rules could not be built (no Cython or C compiler, or the compiler failed)."""


def key_of(fingerprint: str, text: str) -> str:
    """What a game's rules compiled to machine code are found by: the text of its module and the game's
    fingerprint (the texts of its files and its variant, not where they are), with the Python they are built
    for and how Cython compiles them."""
    h = hashlib.sha256(FORMAT.encode())
    for part in (sys.implementation.cache_tag, SUFFIX, repr(sorted(DIRECTIVES.items())), engine_layout(),
                 fingerprint, text):
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()[:32]


def engine_layout() -> str:
    """The C declarations of the State's classes that compiled rules are built against (interpreter/*.pxd): rules
    built against other ones would read its fields at the wrong places."""
    return "".join(p.read_text(encoding="utf-8") for p in LAYOUT)


def native_dir() -> Optional[Path]:
    """Where rules compiled to machine code are kept: beside the cache of compiled games."""
    d = cache.cache_dir()
    return None if d is None else d.parent / "native"


def module_path(key: str) -> Optional[Path]:
    d = native_dir()
    return None if d is None else d / f"{PREFIX}{key}{SUFFIX}"


def namespace(key: str) -> Optional[dict]:
    """The globals of the built module of this digest, when there is one to trust; else None."""
    if native.pure_requested() or not native.layout_compiled():
        return None  # compiled rules read the fields of the compiled State's classes
    name = PREFIX + key
    mod = sys.modules.get(name)
    if mod is None:
        path = module_path(key)
        if path is None or not (cache.private(path.parent) and cache.private(path)):
            return None
        try:
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
        except (ImportError, OSError):
            return None
        sys.modules[name] = mod
    return mod.__dict__ if mod.__dict__.get("_DIGEST") == key else None


def prelude(text: str, names, builtin_names) -> str:
    """The lines that declare, before the module's own text, each name it reads that the engine provides; a name
    that is neither one of `names` nor one of the rules' builtins is refused (the text is not the generator's)."""
    top = symtable.symtable(text, "rules", "exec")
    defined = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    read = {s.get_name() for t in symbol_tables(top) for s in t.get_symbols() if s.is_global() or t is top}
    provided = sorted(read - defined - set(builtin_names))
    unknown = [n for n in provided if n not in names]
    if unknown:
        raise BuildError(f"the rules read names the engine does not provide: {', '.join(unknown[:5])}")
    return "".join(f"{n} = None\n" for n in provided)


INLINED = {"listcomp", "setcomp", "dictcomp"}  # the inner scopes Cython compiles inline, not as closures


def declarations(text: str) -> str:
    """The augmenting .pxd of the rules: each module-level function whose only inner scopes are comprehensions,
    declared `cpdef`, so that the rules call one another as C functions (one with a generator expression or a
    lambda would need a closure, which a cpdef function cannot hold: it stays a Python function). Their state
    `st` is declared a State (interpreter/engine.pxd), so they read its fields and call its moves in C, and a
    block's frame `f` a Frame (interpreter/frames.pxd), so it resumes and stops in C."""
    def plain(t) -> bool:
        return all(c.get_name() in INLINED and plain(c) for c in t.get_children())

    lines = ["from interpreter.engine cimport State\n", "from interpreter.frames cimport Frame\n"]
    typed = {"st": "State st", "f": "Frame f"}
    for t in symtable.symtable(text, "rules", "exec").get_children():
        if t.get_type() == "function" and plain(t):
            params = [typed.get(p, p) for p in t.get_parameters()]
            lines.append(f"cpdef {t.get_name()}({', '.join(params)})\n")
    return "".join(lines)


def build(key: str, text: str, names, builtin_names) -> Path:
    """Compile the rules to an extension module in the cache (in a child process: the compiler's output is
    kept and shown only when it fails). Returns its path; raises BuildError."""
    path = module_path(key)
    if path is None:
        raise BuildError("the cache is off (WISHDSL_CACHE=0): there is nowhere to keep compiled rules")
    if cache.private(path):
        return path
    missing = available()
    if missing:
        raise BuildError(f"compiling rules needs Cython and a C compiler: {missing}")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if not cache.private(path.parent):
        raise BuildError(f"{path.parent} is not private to this user: compiled rules are not kept there")
    body = f"# {FORMAT}\n_DIGEST = {key!r}\n" + prelude(text, names, builtin_names) + text
    with tempfile.TemporaryDirectory(prefix="wishdsl-build-") as tmp:
        src = Path(tmp) / f"{PREFIX}{key}.py"
        src.write_text(body, encoding="utf-8")
        src.with_suffix(".pxd").write_text(declarations(text), encoding="utf-8")
        env = dict(os.environ, CFLAGS=(os.environ.get("CFLAGS", "") + " " + CFLAGS).strip(),
                   PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        done = subprocess.run([sys.executable, "-m", "interpreter.native_rules", str(src), tmp], env=env,
                              capture_output=True, text=True, cwd=tmp)
        built = Path(tmp) / "out" / (src.stem + SUFFIX)
        if done.returncode != 0 or not built.exists():
            lines = (done.stdout + done.stderr).strip().splitlines()
            said = [line for line in lines if "error" in line.lower()][-15:] or lines[-15:]
            raise BuildError("the C build failed:\n" + "\n".join(said))
        part = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        shutil.copyfile(built, part)
        os.chmod(part, 0o700)
        os.replace(part, path)
    return path


def _compile_here(src: str, tmp: str) -> None:
    """In the child process: Cython, then the C compiler, through setuptools (as pyximport does)."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    name = Path(src).stem
    exts = cythonize([Extension(name, [src])], compiler_directives=DIRECTIVES, build_dir=tmp, quiet=True,
                     include_path=[str(ROOT)])
    dist = Distribution({"ext_modules": exts, "script_name": "wishdsl-build"})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = str(Path(tmp) / "out")
    cmd.build_temp = str(Path(tmp) / "temp")
    cmd.ensure_finalized()
    cmd.run()


def available() -> Optional[str]:
    """Why rules cannot be compiled here, or None when they can."""
    if importlib.util.find_spec("Cython") is None:
        return "Cython is not installed (pip install -e '.[native]')"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc}) on the PATH"
    return None


def describe(game) -> str:
    """How `game` runs, in one line for a measurement's header: its rules compiled to machine code or run as Python,
    and the engine's modules (native.summary). A time budget holds fewer iterations in a slower build."""
    if game.rules.native is not None:
        rules = "rules compiled to machine code"
    elif native.pure_requested():
        rules = "rules run as Python (WISHDSL_PURE=1)"
    else:
        variant = f' --variant "{game.variant}"' if game.variant else ""
        rules = f"rules run as Python (`wishdsl build{variant} {game.path}` compiles them)"
    return f"{Path(game.path).name}: {rules}; {native.summary()}"


if __name__ == "__main__":
    try:
        _compile_here(sys.argv[1], sys.argv[2])
    except Exception as err:  # the compiler has said why on stderr; its caller shows that, not this traceback
        sys.exit(f"{type(err).__name__}: {err}")
