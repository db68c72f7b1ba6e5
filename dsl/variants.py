"""Stage 3: apply a `variant` block to a game: its declarations replace, add to or remove the base ones by name."""
from __future__ import annotations

from typing import Optional

from . import ast as A
from .errors import Diagnostic, WishCheckError, did_you_mean


def base_decls(program: A.Program) -> list:
    return [d for d in program.decls if not isinstance(d, A.Variant)]


def variant_names(program: A.Program) -> list:
    return [d.name for d in program.decls if isinstance(d, A.Variant)]


def resolve(program: A.Program, variant: Optional[str]) -> list:
    """The declarations of the game as played under `variant` (None: the base game)."""
    decls = base_decls(program)
    if variant is None:
        return decls
    found = [d for d in program.decls if isinstance(d, A.Variant) and d.name == variant]
    if not found:
        names = variant_names(program)
        hint = did_you_mean(variant, names) or (
            "this game has variants: " + ", ".join(f'"{n}"' for n in names) if names else "this game has no variants")
        raise WishCheckError(f"unknown variant \"{variant}\"",
                             [Diagnostic(A.Span(program.path, 0, 0, 0, 0), f"unknown variant \"{variant}\"", hint)])
    return overlay(decls, found[0].decls, program)


def overlay(decls: list, changes: list, program: A.Program) -> list:
    """Replace declarations with the same key, remove those named by `remove`, append the rest."""
    out = list(decls)
    index = {d.key: i for i, d in enumerate(out)}
    removed: set = set()
    diags = []
    for ch in changes:
        if isinstance(ch, A.Remove):
            matches = [i for i, d in enumerate(out) if i not in removed and getattr(d, "name", None) == ch.name]
            if not matches:
                names = [getattr(d, "name", "") for d in out if isinstance(getattr(d, "name", None), str)]
                diags.append(Diagnostic(ch.span, f"cannot remove '{ch.name}': the game declares no such thing",
                                        did_you_mean(ch.name, names)))
            removed.update(matches)
            continue
        if ch.key in index:
            out[index[ch.key]] = ch
        else:
            index[ch.key] = len(out)
            out.append(ch)
    if diags:
        raise WishCheckError(f"{len(diags)} error(s) in variant", diags, {program.path: program.source})
    return [d for i, d in enumerate(out) if i not in removed]
