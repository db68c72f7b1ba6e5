"""bench/instructions.py: instructions counted by Valgrind, start-up subtracted, per decision (needs valgrind)."""
from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")


def instructions():
    spec = importlib.util.spec_from_file_location(
        "instructions", Path(__file__).parent.parent / "bench" / "instructions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WORK = r"""
import sys
n = int(sys.argv[1])
total = 0
for i in range(n * 2000):
    total += i
print("decisions", n)
"""


@pytest.mark.heavy
def test_the_instructions_of_the_work_alone_are_counted_per_decision():
    m = instructions()
    startup, _ = m.count(WORK, [0])
    per = m.per_decision(WORK, [], 2)
    assert 200_000 < per < 20_000_000  # 2,000 additions in Python's loop, about a thousand instructions each
    assert startup > 2 * per  # so a count that kept the start-up would be far above the bound


def test_a_failed_run_says_so():
    with pytest.raises(SystemExit, match="the counted run failed"):
        instructions().count("raise SystemExit(3)", [])
