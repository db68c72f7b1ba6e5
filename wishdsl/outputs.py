"""Files the command line writes (`docs -o`, `rules -o`, `diff -o`, `simulate --report`, `run --save`): each path
is checked before any work starts, and a text that cannot be written after all (a disk full, a folder removed
meanwhile) is kept in a file of the system's temporary folder, whose name the error gives — computed results are
never lost to a write failure.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from dsl.errors import WishError


def check_output(path: str, what: str) -> None:
    """Refuse, before any work, a path `what` cannot be written to: a folder, a missing folder, no permission."""
    p = Path(path)
    if p.is_dir():
        raise WishError(f"{path}: is a folder; give the {what} a file name (e.g. {p / ('out' + _suffix(what))})")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise WishError(f"{path}: the folder {parent} does not exist; create it first or write the {what} elsewhere")
    if p.exists() and not os.access(p, os.W_OK):
        raise WishError(f"{path}: not allowed to write this file (the {what})")
    if not p.exists() and not os.access(parent, os.W_OK | os.X_OK):
        raise WishError(f"{path}: not allowed to write in the folder {parent} (the {what})")


def write_output(path: str, text: str, what: str) -> None:
    """Write `text` to `path`; when that fails, keep it in a temporary file and say where."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        fd, kept = tempfile.mkstemp(prefix="wishdsl-", suffix=Path(path).suffix or _suffix(what))
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        raise WishError(f"{path}: cannot write the {what} ({err.strerror or err}); it is kept in {kept}") from None


def _suffix(what: str) -> str:
    return {"report": ".html", "compiled rules": ".py"}.get(what, ".md")
