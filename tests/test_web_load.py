"""A load test of `wishdsl serve` (bounded, loopback only): 50 tables of AI players at once, the server killed
with SIGKILL half-way and started again on the same database. Every game finishes and equals the game
`wishdsl run` plays with the same seed and agents: no decision lost, none taken twice."""
import json
import os
import signal
import time
import urllib.request

import pytest

pytest.importorskip("uvicorn")

from web_browser import open_table, serving, status  # noqa: E402

from interpreter import load_game  # noqa: E402
from interpreter.agents import make_agents, play  # noqa: E402

TABLES = 50


def run_game(path, players, seed, specs):
    state = load_game(path).new_state(players, seed)
    return [[a.player, a.label] for a in play(state, make_agents(specs, players, seed))]


def plan(k: int) -> dict:
    """Table k: Wunschmaschine and 3 Wishes (3 to 6 players), every fifth a 2-player Wish; random and greedy."""
    if k % 5 == 4:
        return {"game": "games/wish.wish", "players": 2, "seats": "random", "seed": 100 + k}
    if k % 2:
        return {"game": "games/three_wishes.wish", "players": 3 + k % 3, "seats": "greedy" if k % 3 == 0 else "random",
                "seed": 100 + k}
    return {"game": "games/wunschmaschine.wish", "players": 3 + k % 4, "seats": "random", "seed": 100 + k}


@pytest.mark.heavy
def test_fifty_tables_survive_a_kill_and_equal_wishdsl_run(tmp_path):
    db = tmp_path / "load.db"
    requests = [plan(k) for k in range(TABLES)]
    with serving(db, extra=["--ai-workers", "2", "--open-rate", "100"]) as (base, proc):
        tables = [open_table(base, **r) for r in requests]
        time.sleep(1.0)
        mid = [status(base, t) for t in tables]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    assert sum(not s["over"] for s in mid) >= 5, "the kill came after most games had ended: little was tested"
    with serving(db, extra=["--ai-workers", "2", "--open-rate", "100"]) as (base, proc):
        end = time.monotonic() + 240
        while True:
            now = [status(base, t) for t in tables]
            if all(s["over"] or s["broken"] for s in now):
                break
            assert time.monotonic() < end, "the tables did not finish"
            time.sleep(0.5)
        assert all(s["broken"] is None for s in now), [s["broken"] for s in now if s["broken"]]
        for r, t, before, after in zip(requests, tables, mid, now):
            assert after["decisions"] >= before["decisions"]
            url = base + t["watch"].replace("/play/", "/api/tables/") + "/game.json"
            with urllib.request.urlopen(url, timeout=30) as resp:
                doc = json.loads(resp.read())
            specs = r["seats"].split(",")
            assert doc["actions"] == run_game(r["game"], r["players"], r["seed"], specs), r
