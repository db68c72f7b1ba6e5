"""Root-parallel search: MCTS with `jobs=N` grows one tree in this process and one in each of N - 1 worker
processes, each on its own samples of the same information set, and adds up their root statistics by option
class (visits and rewards), as Chaslot, Winands and van den Herik's root parallelisation does.

The workers load the game from its file (once per process) and rebuild the seat's information set from its
text (`InfoSet.to_json`); they are started once and kept for later decisions. Each has a pipe of its own, and a
search's task is written to it by the caller itself before its own tree grows: a pool's helper threads would
have to wait for the interpreter lock, which the search's compiled code does not give up, and measured in Wish
(`mcts:time=0.25;jobs=2`) the worker often received its task after most of the quarter second had gone — about
as many iterations a decision as one process. A game that is not a file on disk, an agent already running
inside a worker process of its own (`wishdsl simulate --jobs`, a web table's AI seat, a user's process pool),
or one searching in a thread other than the main one, searches in this process alone. With a number of
iterations the search is repeatable: the iterations are shared out in a fixed way and every worker's seed comes
from the agent's generator. Where worker processes cannot start or die (a program read from standard input
cannot be started again by `spawn`), the workers' trees are grown here, one after the other, with the same
seeds: the same choice, in more time. So are they where the game's file changed since this process loaded it (an
edit, or a save in progress): a worker loads the file's game, finds another fingerprint, and says so; the tree is
grown here on this process's game, and a warning says once that the search has gone back to one process.
"""
from __future__ import annotations

import atexit
import signal
import threading
import time as _time
import warnings
from pathlib import Path
from typing import NamedTuple, Optional

from dsl.errors import WishError, WishWarning
from ..game import load_game
from ..infoset import InfoSet

MAX_JOBS = 64

_workers: list = []  # the worker processes started so far, kept for later decisions
_broken = False  # worker processes could not start or died: grow the workers' trees here
_warned = False  # the warning that the game's file changed under a search was given


class Worker:
    """A worker process and this process's end of its pipe; `pending`: whether it owes the answer to a task.
    A worker answers its tasks in order, so an answer owed by an abandoned decision is taken in before the next
    task is handed over, and is never taken for that task's."""

    def __init__(self, context):
        self.conn, there = context.Pipe()
        self.process = context.Process(target=serve, args=(there,), daemon=True, name="wishdsl-mcts")
        self.process.start()
        there.close()
        self.pending = False

    def give(self, task: tuple) -> None:
        """Hand the worker a task, after taking in any answer it still owes."""
        if self.pending:
            self.take()
        self.conn.send(task)
        self.pending = True

    def take(self):
        """The answer to the worker's pending task: ("ok", result) or ("error", exception)."""
        answer = self.conn.recv()
        self.pending = False
        return answer

    def stop(self) -> None:
        self.conn.close()
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.terminate()


class Task(NamedTuple):
    """One search a worker grows: the agent's maker, where the game is (its file, variant, allowed folders) and
    which game it must be (its fingerprint), the seat's information set as text, the tree's options, its seed and
    iterations, and when a search by time ends (None: by iterations)."""
    maker: object
    path: str
    variant: Optional[str]
    allow: tuple
    fingerprint: str
    text: str
    options: dict
    seed: int
    count: int
    until: Optional[float]


class Started(NamedTuple):
    """One search handed out: its task, the worker that has it (None: grow it here) and the searching process's
    game, which a tree grown here is grown on."""
    task: Task
    worker: Optional[Worker]
    game: object


def usable(jobs: int, game) -> bool:
    """Can this search use worker processes? Not inside a process that `multiprocessing` started (a worker of
    `simulate --jobs`, of a web table's AI seats, of a user's own pool): such a process joins its children
    when it ends, and workers of its own would keep it from ending. Nor outside the main thread: the workers
    and their pipes are the main thread's, one task each at a time. (`multiprocessing` is imported only when
    it may: every command that loads the agents would pay for it.)"""
    if jobs < 2 or not Path(game.path).is_file() or threading.current_thread() is not threading.main_thread():
        return False
    import multiprocessing

    return multiprocessing.parent_process() is None


def shares(iterations: int, jobs: int) -> list:
    """The iterations of each tree, this process's first: as equal as they can be."""
    base, extra = divmod(iterations, jobs)
    return [base + (1 if k < extra else 0) for k in range(jobs)]


def start(maker, info, options: dict, seeds: list, counts: list) -> list:
    """Start one search per worker (`Started`); a worker answers with (the seat's root statistics, iterations
    run). `maker(seat, seed=…, iterations=…, **options)` makes the agent whose `grow`
    grows a tree. A search by time ends in every process when it ends here (a worker that starts late searches
    for less)."""
    game = info.game
    text = info.to_json()
    until = None if options.get("time") is None else _time.time() + options["time"]
    tasks = [Task(maker, game.path, game.variant, game.allow, game.fingerprint, text, options, seed, count, until)
             for seed, count in zip(seeds, counts)]
    workers = _started(len(tasks))
    if workers is None:
        return [Started(task, None, game) for task in tasks]
    started = []
    for task, worker in zip(tasks, workers):
        try:
            worker.give(task)
        except (OSError, EOFError):
            _lost()
            worker = None
        started.append(Started(task, worker, game))
    return started


def merged(mine: dict, started: list) -> tuple:
    """This process's root statistics added to the workers' (visits, reward sums and availability per option
    class), and the iterations of all trees."""
    out = {key: list(value) for key, value in mine.items()}
    total = 0
    for one in started:
        stats, count = _result(one)
        total += count
        for key, value in stats.items():
            row = out.setdefault(key, [0, 0.0, 0])
            for k in range(3):
                row[k] += value[k]
    return out, total


def _result(one: Started) -> tuple:
    """A worker's answer to its task, or the same search grown here when there is no worker, it died, or the
    game's file no longer holds this process's game."""
    if one.worker is not None and not _broken:
        try:
            kind, value = one.worker.take()
        except (OSError, EOFError):
            _lost()
        else:
            if kind == "error":
                raise value
            if kind == "ok":
                return value
            _warn_changed(one.game)
    return search(one.task, one.game)


def _warn_changed(game) -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(f"{game.path} changed since it was loaded: its search goes on in this process alone, on "
                      f"the game as it was loaded", WishWarning, stacklevel=2)


def game_of(task: Task):
    """In a worker: the game of the task's file, or None where that file no longer holds the searching process's
    game (its fingerprint differs, or it does not load)."""
    try:
        game = load_game(task.path, task.variant, task.allow)
    except WishError:
        return None
    return game if game.fingerprint == task.fingerprint else None


def search(task: Task, game) -> tuple:
    """Grow one tree for the task's information set on `game` and return its root statistics for the seat."""
    info = InfoSet.from_json(game, task.text)
    options = task.options
    if task.until is not None:
        options = dict(options, time=min(options["time"], max(task.until - _time.time(), 0.001)))
    agent = task.maker(info.seat, seed=task.seed, iterations=task.count, **options)
    root, done = agent.grow(info)
    return root.stats.get(info.seat, {}), done


def serve(conn) -> None:
    """A worker process: answer each task with its search's result, in order, until the pipe closes. Ctrl-C is
    the searching process's to handle (it shares the terminal): the worker ignores it and ends with its pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        try:
            game = game_of(task)
            answer = ("changed", None) if game is None else ("ok", search(task, game))
        except Exception as err:  # a bug in the search: raised again in the process that asked
            answer = ("error", err)
        conn.send(answer)


def _started(n: int):
    """At least `n` worker processes, started once and kept (None where they cannot be)."""
    if _broken:
        return None
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    try:
        while len(_workers) < n:
            _workers.append(Worker(context))
    except OSError:
        _lost()
        return None
    return _workers[:n]


def _lost() -> None:
    """A worker could not start or died: stop them all and grow their trees here from now on."""
    global _broken
    _broken = True
    _stop()


@atexit.register
def _stop() -> None:
    while _workers:
        _workers.pop().stop()
