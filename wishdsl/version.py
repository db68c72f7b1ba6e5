"""The version of wishdsl, for `wishdsl --version` and the saves it writes."""
from __future__ import annotations

import re
from pathlib import Path


def version() -> str:
    """The installed package's version; from a source tree that is not installed, its pyproject.toml's.
    (importlib.metadata is imported here, when asked: it takes longer to import than a `check` takes.)"""
    from importlib import metadata

    try:
        return metadata.version("wishdsl")
    except metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        try:
            m = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(encoding="utf-8"), re.M)
        except OSError:
            m = None
        return m.group(1) if m else "unknown"
