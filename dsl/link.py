"""Stage 2: follow `extends` — a house-rule file names the game it changes; load the whole chain.

    program = load_program("games/house/four_markers.wish")      # the house file, its parent linked

A file may extend one `.wish` file, given by a path relative to its own folder. The path must stay inside the
game's folder tree: the nearest folder above the named file that holds a `.wishroot`, `.git` or `pyproject.toml`
(else the named file's own folder), or a folder the user allowed (`wishdsl --allow DIR`, `allow=`). A cycle of
`extends` is an error naming the chain. Every problem is a diagnostic at the `extends` line.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from . import ast as A
from .errors import Diagnostic, WishCheckError, WishError, did_you_mean
from .linked import variant_names
from .parser import parse_file

MARKERS = (".wishroot", ".git", "pyproject.toml")
MAX_DEPTH = 16
ALLOWED: list = []  # folders the user allowed beyond the game's tree (`wishdsl --allow DIR`)


def allow(folder: str) -> None:
    """Let `extends` reach files under `folder` for the rest of this process."""
    resolved = Path(folder).resolve()
    if resolved not in ALLOWED:
        ALLOWED.append(resolved)


def project_root(folder: Path) -> Path:
    """The nearest folder at or above `folder` holding a project marker; `folder` itself when none does."""
    for f in (folder, *folder.parents):
        if any((f / m).exists() for m in MARKERS):
            return f
    return folder


def named_game(document: str, name, hint: str) -> Path:
    """The game file a document from someone else (a scenario, a save, a log) names, relative to the document's
    own folder: a `.wish` file inside the document's folder tree or a folder the user allowed, as `extends` is
    confined. Raises WishError saying why not (with `hint`: how to give the game instead); the file's text is
    never read before that, so no line of a file that is not a game can appear in a message."""
    if not isinstance(name, str) or not name.endswith(".wish"):
        raise WishError(f"{document}: it names the game {str(name)[:80]!r}, which is not a .wish file; {hint}")
    base = Path(document).resolve().parent
    target = Path(os.path.normpath(base / name)).resolve()
    roots = [project_root(base)] + ALLOWED
    if not any(target == r or r in target.parents for r in roots):
        raise WishError(f"{document}: the game it names, {name}, lies outside the folder tree of the document "
                        f"({roots[0]}); {hint}, or allow its folder: wishdsl --allow DIR …")
    if not target.is_file():
        raise WishError(f"{document}: the game it names, {name}, is not there (no such file: {target}); {hint}")
    return target


def load_program(path: str, allow: Iterable[str] = ()) -> A.Program:
    """Parse `path` and every file it extends; the result's `parent` links the chain."""
    top = Path(path)
    roots = [project_root(top.resolve().parent)] + [Path(a).resolve() for a in allow] + ALLOWED
    return _load(top, roots, [])


def link_program(program: A.Program, allow: Iterable[str] = ()) -> A.Program:
    """Link a program parsed from a text (an editor's buffer) to every file it extends, as `load_program` links
    the file `program.path`: relative to its folder, confined to its project and the folders allowed."""
    top = Path(program.path)
    roots = [project_root(top.resolve().parent)] + [Path(a).resolve() for a in allow] + ALLOWED
    return _link(program, top, roots, [])


def _load(path: Path, roots: list, seen: list) -> A.Program:
    return _link(parse_file(str(path)), path, roots, seen)


def _link(program: A.Program, path: Path, roots: list, seen: list) -> A.Program:
    clauses = [d for d in program.decls if isinstance(d, A.Extends)]
    if not clauses:
        return program
    first, *more = clauses
    diags = [Diagnostic(d.span, "a file extends one game; this is a second 'extends'",
                        f"the first is at line {first.span.line}") for d in more]
    target, problem = _target(program, first, roots, seen + [path.resolve()])
    if problem is not None:
        diags.insert(0, problem)
    if diags:
        raise WishCheckError(f"{len(diags)} error(s) in {program.path}", diags, {program.path: program.source})
    parent = _load(target, roots, seen + [path.resolve()])
    program.parent, program.parent_variant = parent, first.variant
    if first.variant is not None:
        names = variant_names(parent)
        if first.variant not in names:
            hint = did_you_mean(first.variant, names) or (
                "its variants: " + ", ".join(f'"{n}"' for n in names) if names else f"{parent.path} has no variants")
            d = Diagnostic(first.span, f"\"{first.path}\" has no variant \"{first.variant}\"", hint)
            raise WishCheckError(d.message, [d], {program.path: program.source})
    return program


def _target(program: A.Program, e: A.Extends, roots: list, seen: list) -> tuple:
    """(resolved path, None) or (None, the diagnostic saying why the path is refused)."""
    if not e.path.endswith(".wish"):
        return None, Diagnostic(e.span, f"'extends' names a .wish file; \"{e.path}\" is not one")
    try:
        return _inside(program, e, roots, seen)
    except (OSError, ValueError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        return None, Diagnostic(e.span, f"cannot use \"{e.path[:80]}\" as a game file: {reason}")


def _inside(program: A.Program, e: A.Extends, roots: list, seen: list) -> tuple:
    here = Path(program.path).parent
    target = Path(os.path.normpath(here / e.path))
    resolved = target.resolve()
    if not any(resolved == r or r in resolved.parents for r in roots):
        return None, Diagnostic(
            e.span, f"\"{e.path}\" lies outside the game's folder tree ({roots[0]})",
            "a game may only extend files inside its own project; to allow another folder, run "
            "wishdsl --allow DIR …")
    if not resolved.is_file():
        near = sorted(p.name for p in resolved.parent.glob("*.wish")) if resolved.parent.is_dir() else []
        return None, Diagnostic(e.span, f"no such game file \"{e.path}\"", did_you_mean(resolved.name, near))
    if resolved in seen:
        loop = " → ".join(p.name for p in seen[seen.index(resolved):] + [resolved])
        return None, Diagnostic(e.span, f"'extends' makes a cycle: {loop}",
                                "a house rule extends a game; the game must not extend it back")
    if len(seen) >= MAX_DEPTH:
        return None, Diagnostic(e.span, f"'extends' goes more than {MAX_DEPTH} files deep")
    return target, None
