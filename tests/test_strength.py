"""bench/strength.py: a match reports, beside the win rates, how much its searching agent searched."""
from __future__ import annotations

import importlib.util
from pathlib import Path


def strength():
    spec = importlib.util.spec_from_file_location("strength", Path(__file__).parent.parent / "bench" / "strength.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_match_says_how_many_iterations_a_decision_searched_and_where():
    bench = strength()
    result = bench.match("three_wishes", "mcts:iterations=40;jobs=2;rollout=0", "random", 2, 7)
    searches = result["searched"]["mcts:iterations=40;jobs=2;rollout=0"]
    assert searches.count > 0 and searches.iterations == 40 * searches.count
    assert searches.here == 20 * searches.count  # the worker grew the other half of each tree
    line = bench.report(result).splitlines()[-1]
    assert line == (f"  mcts:iterations=40;jobs=2;rollout=0: 40 iterations a decision searched ({searches.count} "
                    "decisions), 50% of them in worker processes")
    assert "random" not in result["searched"]
