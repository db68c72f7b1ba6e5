"""The tests' environment. Their caches (parsed files, compiled games) are their own, never the user's: one
temporary folder for the whole run, shared by the xdist workers (entries are written atomically and keyed by
content, as for several `wishdsl` processes of one user) and removed at the end; set WISHDSL_TESTS_CACHE_HOME
to a folder to keep them between runs. Fuzz tests parse their texts uncached (dsl.parser.parse's `cached=False`)."""
import os
import shutil
import tempfile
from pathlib import Path

import pytest

_OWN_CACHE = "WISHDSL_TESTS_CACHE_HOME" not in os.environ  # this process made it (xdist workers inherit it)
if _OWN_CACHE:
    os.environ["WISHDSL_TESTS_CACHE_HOME"] = tempfile.mkdtemp(prefix="wishdsl-tests-cache-")
os.environ["XDG_CACHE_HOME"] = os.environ["WISHDSL_TESTS_CACHE_HOME"]
os.environ.pop("WISHDSL_CACHE", None)
# the key that signs saves (wishdsl/saves.py) is the tests' own, not the user's
_CONFIG_HOME = os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="wishdsl-tests-config-")  # each process's

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def allow_the_project(monkeypatch):
    """Scenarios, saves and logs written to a temporary folder may name the project's games, as after
    `wishdsl --allow <the project> …` (a document names a game inside its own folder tree otherwise)."""
    from dsl import link

    monkeypatch.setattr(link, "ALLOWED", [ROOT])


def pytest_unconfigure(config):
    shutil.rmtree(_CONFIG_HOME, ignore_errors=True)
    if _OWN_CACHE and not hasattr(config, "workerinput"):
        shutil.rmtree(os.environ["WISHDSL_TESTS_CACHE_HOME"], ignore_errors=True)


def pytest_collection_modifyitems(items):
    """The longest tests (`@pytest.mark.heavy`) first, in their order: the xdist workers then finish together
    instead of one running a long test collected last while the other waits."""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)
