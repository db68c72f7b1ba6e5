"""Tests parse thousands of generated texts: keep them out of the user's parse cache."""
import os
import tempfile
from pathlib import Path

import pytest

os.environ["WISHDSL_CACHE"] = "0"
# the key that signs saves (wishdsl/saves.py) is the tests' own, not the user's
os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="wishdsl-tests-config-")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def allow_the_project(monkeypatch):
    """Scenarios, saves and logs written to a temporary folder may name the project's games, as after
    `wishdsl --allow <the project> …` (a document names a game inside its own folder tree otherwise)."""
    from dsl import link

    monkeypatch.setattr(link, "ALLOWED", [ROOT])
