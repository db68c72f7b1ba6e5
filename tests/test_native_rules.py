"""A game's rules compiled to machine code (interpreter/native_rules.py, `wishdsl build`): found by what the rules
are, never by where the file is; loaded only from a private folder; playing the same games, byte for byte, as the
rules run as Python; explained by their Python twin."""
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dsl.errors import WishError
from interpreter import cache, load_game, native, native_rules
from interpreter.agents import make_agents, play
from interpreter.codegen import BUILTINS, Rules
from interpreter.why import ExplainingState, explain

ROOT = Path(__file__).resolve().parent.parent
WM = "games/wunschmaschine.wish"
CAN_BUILD = native_rules.available()


@pytest.fixture(scope="module")
def built_key():
    """Wunschmaschine's rules built once in the tests' own cache (conftest.py): their key."""
    if CAN_BUILD is not None:
        pytest.skip(f"cannot compile rules here: {CAN_BUILD}")
    game = load_game(WM)
    game.rules.build_native()
    return game.rules.key


@pytest.fixture(scope="module")
def built(built_key):
    """The game loaded afresh, its rules as machine code."""
    if native.pure_requested():
        pytest.skip("WISHDSL_PURE=1 runs the rules as Python")
    fresh = cache.load(WM, None, load_game(WM).allow, Rules.namespace_of)
    assert fresh is not None and fresh.rules.native == built_key
    return fresh


@pytest.mark.parametrize("text, names, expected", [
    ("def x1(st, env):\n    return _c0[len(env)]\n", {"_c0"}, "_c0 = None\n"),
    ("def x1(st, env):\n    return [g for g in _P if g]\n", {"_P", "_S"}, "_P = None\n"),
    ("def f0(st):\n    return f1(st)\ndef f1(st):\n    return _MISSING\n", {"_MISSING"}, "_MISSING = None\n"),
    ("def x1(st, env):\n    return sum(_c1) + max(_c2)\n", {"_c1", "_c2"}, "_c1 = None\n_c2 = None\n"),
])
def test_the_prelude_declares_what_the_engine_provides(text, names, expected):
    assert native_rules.prelude(text, names, BUILTINS) == expected


@pytest.mark.parametrize("text", [
    "def x1(st, env):\n    return open('/etc/passwd')\n",
    "def x1(st, env):\n    return _not_provided\n",
])
def test_a_text_that_reads_other_names_is_refused(text):
    with pytest.raises(native_rules.BuildError, match="names the engine does not provide"):
        native_rules.prelude(text, {"_c0"}, BUILTINS)


@pytest.mark.parametrize("text, expected", [
    ("def f0(st, a0, a1):\n    return a0 + a1\n", "cpdef f0(State st, a0, a1)\n"),
    ("def x1(st, env):\n    return [g for g in env if [h for h in g]]\n", "cpdef x1(State st, env)\n"),
    ("def x1(st, env):\n    return {g: 1 for g in env} or {g for g in env}\n", "cpdef x1(State st, env)\n"),
    ("def x1(st, env):\n    return tuple(g for g in env)\n", ""),  # a generator needs a closure
    ("def x1(st, env):\n    return [g for g in env if any(h for h in g)]\n", ""),
    ("def x1(st, env):\n    return lambda: env\n", ""),
    ("def b1(st, f):\n    return f\ndef b2(st, f):\n    return b1(st, f)\n",
     "cpdef b1(State st, Frame f)\ncpdef b2(State st, Frame f)\n"),
    ("def w1(st, env, value):\n    env['a'] = value\n", "cpdef w1(State st, env, value)\n"),
])
def test_functions_without_closures_are_declared_c_functions(text, expected):
    head = "from interpreter.engine cimport State\nfrom interpreter.frames cimport Frame\n"
    assert native_rules.declarations(text) == head + expected


def test_the_key_changes_with_the_states_c_declarations(monkeypatch, tmp_path):
    game = load_game(WM)
    before = native_rules.key_of(game.fingerprint, game.rules.source)
    layout = []
    for path in native_rules.LAYOUT:
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        layout.append(tmp_path / path.name)
    monkeypatch.setattr(native_rules, "LAYOUT", tuple(layout))
    assert native_rules.key_of(game.fingerprint, game.rules.source) == before
    layout[0].write_text(layout[0].read_text(encoding="utf-8") + "    cdef public object extra\n")
    assert native_rules.key_of(game.fingerprint, game.rules.source) != before


def test_compiled_rules_run_only_on_the_compiled_states_classes(built_key, monkeypatch):
    assert native_rules.namespace(built_key) is not None
    monkeypatch.setitem(native._STATES, native.LAYOUT[1], native.Build.STALE)
    assert native_rules.namespace(built_key) is None


def test_the_key_is_what_the_rules_are_not_where_the_file_is():
    relative = load_game(WM)
    absolute = load_game(str(ROOT / WM))
    key = native_rules.key_of(relative.fingerprint, relative.rules.source)
    assert key == relative.rules.key == absolute.rules.key
    assert key != native_rules.key_of(relative.fingerprint, relative.rules.source + "\n")
    assert key != native_rules.key_of(relative.fingerprint + "x", relative.rules.source)
    assert key != load_game(WM, relative.variants[0]).rules.key


def test_without_a_build_the_rules_run_as_python():
    game = load_game("games/three_wishes.wish", "Match")
    assert game.rules.native is None and game.explainable() is game
    assert native_rules.describe(game).startswith(
        'three_wishes.wish: rules run as Python (`wishdsl build --variant "Match" games/three_wishes.wish` '
        "compiles them); engine: ")


def test_a_built_game_loads_as_machine_code_from_any_spelling_of_its_path(built):
    for path in (WM, str(ROOT / WM)):
        again = cache.load(path, None, built.allow, Rules.namespace_of)
        assert again.rules.native == built.rules.native
        assert type(again.rules.blocks[0]).__name__ != "function"  # not a Python function
        assert native_rules.describe(again).startswith("wunschmaschine.wish: rules compiled to machine code; engine")


def test_pure_python_is_asked_for(built_key, monkeypatch):
    monkeypatch.setenv("WISHDSL_PURE", "1")
    assert native_rules.namespace(built_key) is None
    game = cache.load(WM, None, load_game(WM).allow, Rules.namespace_of)
    assert game.rules.native is None
    assert "rules run as Python (WISHDSL_PURE=1); engine: pure Python" in native_rules.describe(game)


def test_a_folder_others_may_write_to_is_not_trusted(built, monkeypatch, tmp_path):
    path = native_rules.module_path(built.rules.native)
    folder = tmp_path / "native"
    folder.mkdir(mode=0o700)
    shutil.copyfile(path, folder / path.name)
    os.chmod(folder / path.name, 0o700)
    monkeypatch.setattr(native_rules, "native_dir", lambda: folder)
    monkeypatch.delitem(sys.modules, native_rules.PREFIX + built.rules.native, raising=False)
    os.chmod(folder, 0o777)
    assert native_rules.namespace(built.rules.native) is None
    os.chmod(folder, 0o700)
    assert native_rules.namespace(built.rules.native) is not None


def outcomes(game, specs: list, seed: int) -> list:
    st = game.new_state(len(specs), seed=seed)
    taken = play(st, make_agents(specs, len(specs), seed))
    return [[str(a) for a in taken], st.log_lines(), st.to_json(), st.scores()]


@pytest.mark.parametrize("specs", [
    ["random"] * 3,
    ["random", "greedy", "mcts:iterations=15", "random"],
    ["greedy", "random", "random", "mcts:iterations=10;probe=1", "random", "greedy"],
])
@pytest.mark.parametrize("seed", [1, 7])
def test_machine_code_plays_as_python_does(built, specs, seed):
    python = built.explainable()
    assert python.rules.native is None and python.rules.source == built.rules.source
    assert outcomes(built, specs, seed) == outcomes(python, specs, seed)


def test_a_saved_game_goes_on_the_same(built):
    st, rng = built.new_state(4, seed=3), random.Random(3)
    for _ in range(40):
        st.apply(rng.choice(st.legal_actions()))
    assert not st.is_over
    doc = st.to_json()
    a, b = built.state_from_json(doc), built.explainable().state_from_json(doc)
    for x in (a, b):
        play(x, make_agents(["random"] * 4, 4, 11))
    assert a.log_lines() == b.log_lines() and a.to_json() == b.to_json()


def test_an_explained_game_runs_its_python_twin(built):
    st = ExplainingState.start(built, 4, 5)
    assert st.game.rules.native is None
    play(st, make_agents(["random"] * 4, 4, 5))
    lines = explain(st, len(st.log_lines()) - 1)
    assert lines, "the last line of the log is explained"


def test_build_says_what_it_did(built):
    out = subprocess.run([sys.executable, "-m", "wishdsl.cli", "build", WM], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out == f"{WM}: its rules run as machine code already\n"


def test_without_cython_build_says_what_is_missing(monkeypatch):
    monkeypatch.setattr(native_rules, "available", lambda: "Cython is not installed (pip install -e '.[native]')")
    game = load_game("games/three_wishes.wish", "Match")
    with pytest.raises(WishError, match=r"needs Cython and a C compiler: Cython is not installed"):
        game.rules.build_native()


def test_a_module_under_another_key_is_not_used(built_key, monkeypatch, tmp_path):
    other = "0" * 32
    folder = tmp_path / "native"
    folder.mkdir(mode=0o700)
    target = folder / native_rules.module_path(other).name
    shutil.copyfile(native_rules.module_path(built_key), target)
    os.chmod(target, 0o700)
    monkeypatch.setattr(native_rules, "native_dir", lambda: folder)
    assert native_rules.namespace(other) is None


def test_a_failed_build_says_what_the_compiler_said(monkeypatch):
    if CAN_BUILD is not None:
        pytest.skip(f"cannot compile rules here: {CAN_BUILD}")
    monkeypatch.setenv("CFLAGS", "-fno-such-option-of-any-compiler")
    game = load_game("games/three_wishes.wish", "Match")
    with pytest.raises(native_rules.BuildError, match=r"(?s)the C build failed:.*no-such-option"):
        game.rules.build_native()
    assert not native_rules.module_path(game.rules.key).exists()


def test_build_without_a_cache_is_a_clear_error():
    env = dict(os.environ, WISHDSL_CACHE="0")
    done = subprocess.run([sys.executable, "-m", "wishdsl.cli", "build", WM], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == "error: the cache is off (WISHDSL_CACHE=0): there is nowhere to keep compiled rules\n"
