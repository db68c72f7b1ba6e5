"""Root-parallel search: MCTS with `jobs=N` grows one tree in this process and one in each of N - 1 worker
processes, each on its own samples of the same information set, and adds up their root statistics by option
class (visits and rewards), as Chaslot, Winands and van den Herik's root parallelisation does.

The workers load the game from its file (once per process) and rebuild the seat's information set from its
text (`InfoSet.to_json`); they are started once and kept for later decisions. A game that is not a file on
disk, or an agent already running inside a worker process of its own (`wishdsl simulate --jobs`, a web
table's AI seat, a user's process pool), searches in this process alone. With a number of iterations the
search is repeatable: the iterations are shared out in a fixed way and every worker's seed comes from the
agent's generator. Where worker processes cannot start (a program read from standard input cannot be started
again by `spawn`), the workers' trees are grown here, one after the other, with the same seeds: the same
choice, in more time.
"""
from __future__ import annotations

import atexit
import time as _time
from pathlib import Path

from ..game import load_game
from ..infoset import InfoSet

MAX_JOBS = 64

_pool = None
_pool_size = 0
_broken = False  # worker processes could not start: grow the workers' trees here


def usable(jobs: int, game) -> bool:
    """Can this search use worker processes? Not inside a process that `multiprocessing` started (a worker of
    `simulate --jobs`, of a web table's AI seats, of a user's own pool): such a process joins its children
    when it ends, and workers of its own would keep it from ending. (`multiprocessing` is imported only when
    it may: every command that loads the agents would pay for it.)"""
    if jobs < 2 or not Path(game.path).is_file():
        return False
    import multiprocessing

    return multiprocessing.parent_process() is None


def shares(iterations: int, jobs: int) -> list:
    """The iterations of each tree, this process's first: as equal as they can be."""
    base, extra = divmod(iterations, jobs)
    return [base + (1 if k < extra else 0) for k in range(jobs)]


def start(maker, info, options: dict, seeds: list, counts: list) -> list:
    """Start one search per worker: (task, future or None) pairs, a future of (the seat's root statistics,
    iterations run). `maker(seat, seed=…, iterations=…, **options)` makes the agent whose `grow` grows a tree.
    A search by time ends in every process when it ends here (a worker that starts late searches for less)."""
    game = info.game
    text = info.to_json()
    until = None if options.get("time") is None else _time.time() + options["time"]
    tasks = [(maker, game.path, game.variant, game.allow, text, options, seed, count, until)
             for seed, count in zip(seeds, counts)]
    if _broken:
        return [(task, None) for task in tasks]
    pool = _workers(len(tasks))
    return [(task, pool.submit(search, task)) for task in tasks]


def merged(mine: dict, started: list) -> tuple:
    """This process's root statistics added to the workers' (visits, reward sums and availability per option
    class), and the iterations of all trees."""
    out = {key: list(value) for key, value in mine.items()}
    total = 0
    for task, future in started:
        stats, count = _result(task, future)
        total += count
        for key, value in stats.items():
            row = out.setdefault(key, [0, 0.0, 0])
            for k in range(3):
                row[k] += value[k]
    return out, total


def _result(task: tuple, future) -> tuple:
    global _broken, _pool
    if future is not None:
        from concurrent.futures.process import BrokenProcessPool

        try:
            return future.result()
        except BrokenProcessPool:
            _broken, _pool = True, None
    return search(task)


def search(task: tuple) -> tuple:
    """In a worker: grow one tree for the information set and return its root statistics for the seat."""
    maker, path, variant, allow, text, options, seed, count, until = task
    info = InfoSet.from_json(load_game(path, variant, allow), text)
    if until is not None:
        options = dict(options, time=min(options["time"], max(until - _time.time(), 0.001)))
    agent = maker(info.seat, seed=seed, iterations=count, **options)
    root, done = agent.grow(info)
    return root.stats.get(info.seat, {}), done


def _workers(n: int):
    """The pool of worker processes, of at least `n`, started once."""
    global _pool, _pool_size
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if _pool is None or _pool_size < n:
        if _pool is not None:
            _pool.shutdown()
        _pool = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("spawn"))
        _pool_size = n
    return _pool


@atexit.register
def _stop() -> None:
    if _pool is not None:
        _pool.shutdown(cancel_futures=True)
