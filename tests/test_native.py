"""The compiled engine (setup.py, interpreter/native.py): a compiled module runs only while its source is the one it
was compiled from, WISHDSL_PURE=1 runs every module from source, and compiled or not a game plays the same."""
import hashlib
import importlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import native
from interpreter.native import Build

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def fake_package(tmp_path, monkeypatch, manifest, modules=("tables", "agents/mcts")):
    """A package folder with `tables.py` and `agents/mcts.py` (or `modules`), each beside a (fake) compiled file."""
    (tmp_path / "agents").mkdir()
    for rel in modules:
        (tmp_path / f"{rel}.py").write_text(f"NAME = {rel!r}\n")
        (tmp_path / f"{rel}{SUFFIX}").write_bytes(b"")
    if manifest is not None:
        (tmp_path / "_native.json").write_text(json.dumps({"modules": manifest}))
    monkeypatch.setattr(native, "ROOT", tmp_path)
    monkeypatch.setattr(native, "MANIFEST", tmp_path / "_native.json")
    monkeypatch.delenv("WISHDSL_PURE", raising=False)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_compiled_module_runs_only_while_its_source_is_unchanged(tmp_path, monkeypatch):
    fake_package(tmp_path, monkeypatch, {})
    manifest = {"interpreter.tables": digest(tmp_path / "tables.py"),
                "interpreter.agents.mcts": digest(tmp_path / "agents/mcts.py")}
    (tmp_path / "_native.json").write_text(json.dumps({"modules": manifest}))
    assert native.states() == {"interpreter.agents.mcts": Build.COMPILED, "interpreter.tables": Build.COMPILED}
    (tmp_path / "tables.py").write_text("NAME = 'edited'\n")
    assert native.states() == {"interpreter.agents.mcts": Build.COMPILED, "interpreter.tables": Build.STALE}
    monkeypatch.setenv("WISHDSL_PURE", "1")
    assert set(native.states().values()) == {Build.PURE}


def test_the_states_classes_run_compiled_only_together(tmp_path, monkeypatch):
    """frames, state, world, machine, engine: extension types reading one another's fields in C
    (interpreter/*.pxd)."""
    layout = [m.removeprefix("interpreter.") for m in native.LAYOUT]
    fake_package(tmp_path, monkeypatch, {}, layout + ["tables"])
    (tmp_path / "world.pxd").write_text("cdef class World(StateData):\n    pass\n")
    manifest = {f"interpreter.{m}": native.digest(f"interpreter.{m}") for m in layout + ["tables"]}
    (tmp_path / "_native.json").write_text(json.dumps({"modules": manifest}))
    assert set(native.states().values()) == {Build.COMPILED}
    assert manifest["interpreter.world"] != digest(tmp_path / "world.py")  # its declarations count
    (tmp_path / "world.pxd").write_text("cdef class World(StateData):\n    cpdef move(self)\n")
    found = native.states()
    assert found.pop("interpreter.world") is Build.STALE and found.pop("interpreter.tables") is Build.COMPILED
    assert set(found.values()) == {Build.LINKED}


def pxd_members(path: Path) -> dict:
    """{class: the C members it declares} of a .pxd file."""
    out: dict = {}
    cls = None
    for line in path.read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if line.startswith("cdef class "):
            cls = s.split()[2].split("(")[0].rstrip(":")
            out[cls] = []
        elif cls is not None and s.startswith(("cdef public ", "cdef readonly ")):
            out[cls] += [n.strip() for n in s.split(None, 3)[3].split(",")]
    return out


def test_the_c_declarations_name_the_fields_of_their_classes():
    """Each .pxd declares, as C members, exactly the slots its classes have when they run from source (the
    State's fields are declared on StateData, state.pxd)."""
    from interpreter.engine import State
    checked = []
    for pxd in sorted((ROOT / "interpreter").glob("*.pxd")):
        module = importlib.import_module(f"interpreter.{pxd.stem}")
        for cls, declared in pxd_members(pxd).items():
            if not declared:
                continue  # a class of the State's chain that adds methods only
            slots = State.__slots__ if cls == "StateData" else getattr(module, cls).__slots__
            assert sorted(declared) == sorted(slots) and len(declared) == len(set(declared)), (pxd.name, cls)
            checked.append(cls)
    assert {"StateData", "Decision", "Frame", "Action", "Standing", "Outcome"} <= set(checked)


@pytest.mark.parametrize("manifest", [None, {}, {"interpreter.tables": "0" * 64}])
def test_compiled_files_the_manifest_does_not_vouch_for_run_from_source(tmp_path, monkeypatch, manifest):
    fake_package(tmp_path, monkeypatch, manifest)
    assert native.states() == {"interpreter.agents.mcts": Build.STALE, "interpreter.tables": Build.STALE}


def test_a_broken_manifest_is_no_manifest(tmp_path, monkeypatch):
    fake_package(tmp_path, monkeypatch, None)
    (tmp_path / "_native.json").write_text("[not json")
    assert set(native.states().values()) == {Build.STALE}
    (tmp_path / "_native.json").write_text("[1, 2]")
    assert set(native.states().values()) == {Build.STALE}


def test_the_source_first_finder_loads_the_py_file(tmp_path, monkeypatch):
    fake_package(tmp_path, monkeypatch, None)
    finder = native.SourceFirst(["interpreter.tables"])
    spec = finder.find_spec("interpreter.tables")
    assert spec.origin == str(tmp_path / "tables.py")
    assert finder.find_spec("interpreter.engine") is None


def test_without_compiled_files_the_engine_is_pure_python(tmp_path, monkeypatch):
    monkeypatch.setattr(native, "ROOT", tmp_path)
    assert native.states() == {}


def test_the_engine_modules_loaded_are_the_ones_the_guard_chose():
    """In this process: every module the guard vouched for is the compiled file, every other one its source."""
    for module in ("interpreter.engine", "interpreter.agents.mcts"):  # the modules a game and a search run through
        importlib.import_module(module)
    for module, state in native.states().items():
        if module not in sys.modules:
            continue
        loaded = sys.modules[module].__file__
        if state is Build.COMPILED:
            assert not loaded.endswith(".py"), (module, loaded)
        else:
            assert loaded.endswith(".py"), (module, loaded)


PLAY = r"""
import json, random, sys
from interpreter import load_game
from interpreter.agents import make_agents, play
TABLES = {
    "games/wunschmaschine.wish": ["random", "random", "mcts:iterations=20", "greedy"],
    "games/three_wishes.wish": ["greedy", "random", "mcts:iterations=20;probe=1"],
    "games/wish.wish": ["random", "greedy:samples=1"],
}
out = {}
for path, specs in TABLES.items():
    game = load_game(path)
    for seed in (1, 2):
        st = game.new_state(len(specs), seed=seed)
        taken = play(st, make_agents(specs, len(specs), seed))
        out[f"{path}/{seed}"] = [[str(a) for a in taken], st.log_lines(), st.to_json(), st.scores()]
print(json.dumps(out))
"""


def run_play(pure: bool) -> dict:
    env = dict(os.environ, WISHDSL_PURE="1" if pure else "0")
    out = subprocess.run([sys.executable, "-c", PLAY], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=600)
    return json.loads(out.stdout)


@pytest.mark.heavy
def test_compiled_and_pure_python_play_every_game_the_same():
    """The same seeded games (random, greedy and MCTS players, so the agents' code runs too): the same log,
    the same saved state, the same scores, byte for byte, compiled and from source."""
    if Build.COMPILED not in native.states().values():
        pytest.skip("no module runs compiled here (a pure Python install, or WISHDSL_PURE=1)")
    assert run_play(pure=False) == run_play(pure=True)


@pytest.mark.parametrize("pure", [False, True])
def test_version_says_how_the_engine_runs(pure, monkeypatch):
    env = dict(os.environ, WISHDSL_PURE="1" if pure else "0")
    out = subprocess.run([sys.executable, "-m", "wishdsl.cli", "--version"], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True).stdout
    line = out.splitlines()[1]
    monkeypatch.delenv("WISHDSL_PURE", raising=False)
    found = native.states()
    if not found:
        assert line == "engine: pure Python (not compiled; see README, Speed)"
    elif pure:
        assert line == f"engine: pure Python (WISHDSL_PURE=1: its {len(found)} compiled modules are not used)"
    else:
        assert line.startswith(f"engine: {sum(s is Build.COMPILED for s in found.values())} of {len(found)} hot "
                               "modules compiled (Cython)"), line
