"""AI seats think here, in worker processes, never on the server's event loop: a searching agent does not
freeze the other tables.

A job is plain data: the game (its path, variant, allowed folders and fingerprint), the state as JSON, the seat,
its agent spec and seed, and the agent's state after its last decision (`Agent.snapshot`). The worker builds the
agent afresh, restores that state, asks it exactly as `wishdsl run` does (`interpreter.agents.ask`: the seat's
view and InfoSet only) and returns the label it chose with its new state. So a worker keeps nothing between
jobs but loaded games, any worker can take any job, and a table resumed after a restart asks its agents from
exactly where they were.
"""
from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from dsl.errors import WishError
from interpreter.agents import agent_seed, ask, make_agent
from interpreter.game import load_game


def think(job: dict) -> dict:
    """The answer of one AI seat: `{"label": …, "agent_state": …}` or `{"error": message}`."""
    try:
        game = load_game(job["path"], job["variant"], tuple(job["allow"]))
        if game.fingerprint != job["fingerprint"]:
            return {"error": f"{job['path']} changed on disk since the table started"}
        state = game.state_from_json(job["state"])
        seat = job["seat"]
        agent = make_agent(job["spec"], seat, agent_seed(job["seed"], seat))
        agent.restore(job["agent_state"])
        action = ask(agent, state, seat)
        return {"label": action.label, "agent_state": agent.snapshot()}
    except WishError as err:
        return {"error": str(err)}


def pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes for the AI seats (spawned: they share nothing with the server's threads)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_watch_parent, initargs=(os.getpid(),))


def _watch_parent(parent: int) -> None:
    """A worker ends when the server is gone, even killed (`kill -9` leaves no one to tell it)."""
    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="wishdsl-watch-server").start()
