"""MCTS with jobs=N: one tree here and one in each worker process, root statistics added up; repeatable for a
number of iterations; a game that is not a file, or an agent inside a worker already, searches here alone."""
import multiprocessing
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

from dsl.errors import WishWarning, warning_line
from interpreter import load_game, load_source
from interpreter.agents import make_agent, parallel
from interpreter.agents.mcts import MctsAgent
from interpreter.agents.parallel import shares
from interpreter.infoset import InfoSet

WM = "games/wunschmaschine.wish"


def decision(path: str = WM, players: int = 3, seed: int = 5):
    """A state where the player to move has several options."""
    game = load_game(path)
    st, rng = game.new_state(players, seed=seed), random.Random(seed)
    while len(st.legal_actions(st.to_move[0])) < 3:
        st.apply(rng.choice(st.legal_actions()))
    return st, st.to_move[0]


def test_the_iterations_are_shared_out_evenly():
    assert shares(10, 3) == [4, 3, 3] and shares(2, 4) == [1, 1, 0, 0] and sum(shares(201, 2)) == 201


def test_an_information_set_crosses_processes_as_text():
    st, seat = decision()
    info = InfoSet(st, seat)
    again = InfoSet.from_json(st.game, info.to_json())
    assert again.seat == seat
    a, b = info.sample(random.Random(3)), again.sample(random.Random(3))
    assert a.to_json() == b.to_json()


def test_a_search_on_two_processes_adds_up_both_trees_and_repeats():
    st, seat = decision()
    runs = []
    for _ in range(2):
        agent = make_agent("mcts:iterations=40;jobs=2;rollout=3", seat, 11)
        choice = agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
        runs.append((choice.label, agent.last_iterations))
        here = sum(v[0] for v in agent.last_root.stats.get(seat, {}).values())
        assert here == 20  # this process grew half of the iterations; the worker the other half
    assert runs[0] == runs[1] and runs[0][1] == 40


def test_a_game_that_is_not_a_file_searches_in_this_process():
    source = open(WM, encoding="utf-8").read()
    game = load_source(source, "not-a-file.wish")
    st, rng = game.new_state(3, seed=5), random.Random(5)
    while len(st.legal_actions(st.to_move[0])) < 3:
        st.apply(rng.choice(st.legal_actions()))
    seat = st.to_move[0]
    agent = make_agent("mcts:iterations=30;jobs=2;rollout=3", seat, 11)
    agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    assert agent.last_iterations == 30 and sum(v[0] for v in agent.last_root.stats[seat].values()) == 30


def test_a_search_outside_the_main_thread_stays_in_this_process():
    """The workers and their pipes are the main thread's: a search in another thread grows its one tree."""
    st, seat = decision()
    agent = make_agent("mcts:iterations=30;jobs=2;rollout=3", seat, 11)
    thread = threading.Thread(target=agent.act, args=(None, st.legal_actions(seat)),
                              kwargs={"info": InfoSet(st, seat)})
    thread.start()
    thread.join()
    assert agent.last_iterations == 30 and sum(v[0] for v in agent.last_root.stats[seat].values()) == 30


def test_where_workers_cannot_start_their_trees_are_grown_here_with_the_same_result(monkeypatch):
    st, seat = decision()
    agent = make_agent("mcts:iterations=30;jobs=3;rollout=3", seat, 4)
    choice = agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    monkeypatch.setattr(parallel, "_broken", True)
    here = make_agent("mcts:iterations=30;jobs=3;rollout=3", seat, 4)
    assert here.act(None, st.legal_actions(seat), info=InfoSet(st, seat)).label == choice.label
    assert here.last_stats == agent.last_stats and here.last_iterations == 30


def test_a_clocked_search_on_two_processes_repeats_and_saves_what_it_left():
    """With `clock=1` each process stops its own tree once settled; by iterations the result repeats, and the
    iterations both trees left unused are saved for the agent's next decision."""
    st, seat = decision("games/wish.wish", 2, 1)
    runs = []
    for _ in range(2):
        agent = make_agent("mcts:iterations=400;jobs=2;rollout=3;clock=1", seat, 11)
        choice = agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
        runs.append((choice.label, agent.last_iterations, agent.saved))
        assert agent.saved == 400 - agent.last_iterations > 0
    assert runs[0] == runs[1]


NESTED = """
import multiprocessing, random, sys
from concurrent.futures import ProcessPoolExecutor

def one(path):
    from interpreter import load_game
    from interpreter.agents import ask, make_agent
    st = load_game(path).new_state(3, seed=5)
    rng = random.Random(5)
    while len(st.legal_actions(st.to_move[0])) < 3:
        st.apply(rng.choice(st.legal_actions()))
    seat = st.to_move[0]
    agent = make_agent("mcts:iterations=30;jobs=2;rollout=3", seat, 11)
    ask(agent, st, seat)
    return agent.last_iterations, sum(v[0] for v in agent.last_root.stats[seat].values())

if __name__ == "__main__":
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        print(pool.submit(one, sys.argv[1]).result())
    print("ended")
"""


def test_inside_someone_elses_worker_process_the_search_stays_in_that_process(tmp_path):
    """An MCTS agent with jobs=2 in a process pool's worker (a web table's AI seat) grows its one tree there:
    workers of its own would keep that worker from ending (its pool's shutdown hung before)."""
    script = tmp_path / "nested.py"
    script.write_text(NESTED, encoding="utf-8")
    repo = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, str(script), str(repo / WM)], capture_output=True, text=True,
                          timeout=120, cwd=repo, env={**os.environ, "PYTHONPATH": str(repo)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["(30,", "30)", "ended"]


def test_the_task_is_in_the_workers_pipe_when_start_returns(monkeypatch):
    """The search's compiled code keeps the interpreter lock: a pool's helper thread that had to write the task
    to the worker waited for most of a quarter second, and the worker searched little (parallel.py). The caller
    writes the task itself: it is in the pipe when `start` returns, and no thread was started for it."""
    st, seat = decision()
    ours, theirs = multiprocessing.Pipe()
    worker = parallel.Worker.__new__(parallel.Worker)
    worker.conn, worker.pending = ours, False
    monkeypatch.setattr(parallel, "_workers", [worker])
    options = dict(make_agent("mcts:iterations=20;jobs=2;rollout=3", seat, 11).tree_options)
    threads = threading.active_count()
    started = parallel.start(MctsAgent, InfoSet(st, seat), options, [5], [10])
    assert threading.active_count() == threads
    assert theirs.poll(0)
    task = theirs.recv()
    assert task == started[0][0] and worker.pending
    theirs.send(("ok", parallel.search(task, st.game)))
    assert parallel.merged({}, started)[1] == 10


def test_an_answer_left_from_an_abandoned_search_is_not_taken_for_the_next():
    st, seat = decision()
    info = InfoSet(st, seat)
    options = dict(make_agent("mcts:iterations=20;jobs=2;rollout=3", seat, 11).tree_options)
    parallel.start(MctsAgent, info, options, [1], [25])  # never merged: its decision was abandoned
    started = parallel.start(MctsAgent, info, options, [2], [10])
    again = parallel.merged({}, started)
    here = parallel.merged({}, [started[0]._replace(worker=None)])  # the same search grown in this process
    assert again == here and again[1] == 10


def test_a_worker_that_died_is_replaced_by_growing_its_tree_here(monkeypatch):
    st, seat = decision()
    agent = make_agent("mcts:iterations=30;jobs=2;rollout=3", seat, 4)
    choice = agent.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    for worker in parallel._workers:
        worker.process.kill()
        worker.process.join()
    monkeypatch.setattr(parallel, "_broken", False)
    again = make_agent("mcts:iterations=30;jobs=2;rollout=3", seat, 4)
    assert again.act(None, st.legal_actions(seat), info=InfoSet(st, seat)).label == choice.label
    assert again.last_stats == agent.last_stats and again.last_iterations == 30
    assert parallel._broken and not parallel._workers


def test_a_game_file_changed_under_a_search_is_searched_on_the_game_as_loaded(tmp_path, recwarn):
    """The game's file edited (or half-saved) while an agent with jobs=2 plays: the worker, which loads the game
    from the file, finds another fingerprint and says so, and its tree is grown in this process on the game this
    process loaded: the same choice as before the edit, and a warning, not a worker's traceback."""
    path = tmp_path / "machine.wish"
    text = Path(WM).read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    st, seat = decision(str(path))
    first = make_agent("mcts:iterations=30;jobs=2;rollout=3", seat, 9)
    choice = first.act(None, st.legal_actions(seat), info=InfoSet(st, seat))
    assert not [w for w in recwarn if issubclass(w.category, WishWarning)]
    for edit in (text.replace("Wish Machine", "Wishing Machine", 1), text + "\ngame {"):
        path.write_text(edit, encoding="utf-8")
        os.utime(path, ns=(10**18, 10**18 + len(edit)))  # a new stamp even where the clock is coarse
        again = make_agent("mcts:iterations=30;jobs=2;rollout=3", seat, 9)
        assert again.act(None, st.legal_actions(seat), info=InfoSet(st, seat)).label == choice.label
        assert again.last_stats == first.last_stats and again.last_iterations == 30
    said = [w for w in recwarn if issubclass(w.category, WishWarning)]
    assert len(said) == 1 and "changed since it was loaded" in str(said[0].message)
    shown = warning_line(said[0].message, said[0].category, said[0].filename, said[0].lineno)
    assert shown.startswith(f"warning: {path} changed since it was loaded") and shown.count("\n") == 1
