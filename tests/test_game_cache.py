"""The cache of compiled games (interpreter/cache.py): a cached game plays exactly as a compiled one, a change of
any of its files compiles it again, and an entry that is damaged, foreign or not private is never used."""
import io
import os
import pickle
import shutil
from pathlib import Path

import pytest
from golden import random_game

from interpreter import cache, load_game
from interpreter.game import _GAMES

GAMES = Path(__file__).parent.parent / "games"


@pytest.fixture
def cached(tmp_path, monkeypatch):
    """A private cache directory in use, and a copy of the games to change."""
    monkeypatch.setenv("WISHDSL_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    shutil.copytree(GAMES, tmp_path / "games")
    (tmp_path / ".wishroot").write_text("")
    yield tmp_path
    _GAMES.clear()


def fresh_load(path, variant=None):
    """load_game as a new process would do it: nothing remembered in memory."""
    _GAMES.clear()
    return load_game(str(path), variant)


def entries(tmp_path) -> list:
    return sorted((tmp_path / "cache" / "wishdsl" / "games").glob("*.bin"))


@pytest.mark.parametrize("name, variant, players", [("wish.wish", None, 2), ("wish.wish", "Solo", 1),
                                                    ("three_wishes.wish", "Match", 4),
                                                    ("house/wunschmaschine_3_coins.wish", "Left-Right", 5)])
def test_a_cached_game_plays_as_the_compiled_one(cached, name, variant, players):
    compiled = fresh_load(cached / "games" / name, variant)
    assert len(entries(cached)) == 1
    loaded = fresh_load(cached / "games" / name, variant)
    assert loaded is not compiled and loaded._checked is None  # from the cache: no syntax tree until asked
    for seed in range(3):
        assert random_game(loaded, players, seed) == random_game(compiled, players, seed)
    assert loaded.rules.source == compiled.rules.source and loaded.fingerprint == compiled.fingerprint
    assert loaded.sym.game.name == compiled.sym.game.name  # checked again on demand


def test_a_change_of_any_file_compiles_again(cached):
    house = cached / "games" / "house" / "wunschmaschine_3_coins.wish"
    fresh_load(house)
    base = cached / "games" / "wunschmaschine.wish"
    base.write_text(base.read_text(encoding="utf-8").replace("var supply: int = 20", "var supply: int = 21"),
                    encoding="utf-8")
    game = fresh_load(house)
    assert game._checked is not None  # compiled again: the game it extends changed
    assert game.new_state(3, 1).gvars[game.gvar_index["supply"]] == 21
    assert fresh_load(house)._checked is None  # and cached again


@pytest.mark.parametrize("damage", [b"", b"garbage", cache.FORMAT + b"\0" * 30])
def test_a_damaged_entry_is_compiled_again(cached, damage):
    path = cached / "games" / "three_wishes.wish"
    fresh_load(path)
    (entry,) = entries(cached)
    entry.write_bytes(damage)
    game = fresh_load(path)
    assert game._checked is not None and game.new_state(3, 1).legal_actions()


def test_an_entry_others_may_write_is_not_used(cached):
    path = cached / "games" / "three_wishes.wish"
    fresh_load(path)
    (entry,) = entries(cached)
    os.chmod(entry, 0o666)
    assert fresh_load(path)._checked is not None
    os.chmod(entry, 0o600)
    os.chmod(entry.parent, 0o777)
    assert fresh_load(path)._checked is not None


def test_the_unpickler_builds_no_foreign_object():
    class Evil:
        def __reduce__(self):
            return (os.system, ("echo hacked",))

    with pytest.raises(pickle.UnpicklingError, match="not a class of a compiled game"):
        cache._Unpickler(io.BytesIO(pickle.dumps(Evil())), {}).load()
    with pytest.raises(pickle.UnpicklingError, match="unknown reference"):
        cache._Unpickler(io.BytesIO(b"\x80\x04P\x00."), {}).persistent_load(("file", "/etc/passwd"))


def test_no_cache_when_it_is_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("WISHDSL_CACHE", "0")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    fresh_load(GAMES / "three_wishes.wish")
    assert not (tmp_path / "wishdsl").exists()
    _GAMES.clear()


def test_a_folder_allowed_with_allow_keys_the_cache_too(cached, monkeypatch):
    """`wishdsl … --allow DIR` adds a folder for the rest of the process; a game loaded after that is cached under a
    key that names the folder (a Path among the allowed folders once broke the key)."""
    from dsl import link
    monkeypatch.setattr(link, "ALLOWED", [])
    link.allow(str(cached / "elsewhere"))
    first = fresh_load(cached / "games" / "three_wishes.wish")
    assert len(entries(cached)) == 1
    again = fresh_load(cached / "games" / "three_wishes.wish")
    assert again.new_state(3, seed=1).log_lines() == first.new_state(3, seed=1).log_lines()
    monkeypatch.setattr(link, "ALLOWED", [])
    fresh_load(cached / "games" / "three_wishes.wish")
    assert len(entries(cached)) == 2  # without the folder, another entry


@pytest.mark.parametrize("name", ["wish.wish", "house/wunschmaschine_3_coins.wish"])
def test_a_game_names_its_files_as_it_is_loaded_now(cached, monkeypatch, name):
    """Compiled from one folder with a relative path, loaded from another with an absolute one: the game's
    path, its files and every span of its rules (errors, `--why`) lead to its files from there — the entry of
    the other spelling is not used; the same spelling from the same folder is."""
    monkeypatch.chdir(cached)
    fresh_load(f"games/{name}")
    assert fresh_load(f"games/{name}")._checked is None  # the same spelling: from the cache
    elsewhere = cached / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    game = fresh_load(cached / "games" / name)
    assert game._checked is not None and len(entries(cached)) == 2  # compiled afresh under its name now
    assert game.path == str(cached / "games" / name) and Path(game.path).is_file()
    assert all(Path(p).is_file() for p in game.sources)
    files = {s.file for s in [*game.rules.spans, *game.block_spans] if s is not None}
    assert files and all(Path(f).is_file() for f in files), files
    assert fresh_load(cached / "games" / name)._checked is None  # and from the cache the next time


def test_a_game_from_the_cache_explains_its_log_as_the_compiled_one(cached, monkeypatch):
    """`--why` on a game read from the cache (a second `wishdsl run --why`, a web table after a restart): its
    files are named alike either way, so it is not taken for a file changed on disk, and every chain is the
    same as the compiled game's."""
    from interpreter.agents import make_agents, play
    from interpreter.why import ExplainingState, explain

    monkeypatch.chdir(cached)
    chains, from_cache = [], []
    for _ in range(2):
        game = fresh_load("games/three_wishes.wish")
        from_cache.append(game._checked is None)
        st = ExplainingState.start(game, 4, 1)
        play(st, make_agents(["random"], 4, 1))
        chains.append([explain(st, k) for k in range(len(st.log))])
    assert from_cache == [False, True] and len(entries(cached)) == 1
    assert chains[0] == chains[1] and all(chains[0])


def test_the_engines_c_declarations_are_part_of_its_stamp(tmp_path, monkeypatch):
    """A cached game names the compiled rules it runs on, which are built against interpreter/*.pxd: an edit
    there compiles the game again."""
    (tmp_path / "interpreter").mkdir()
    (tmp_path / "dsl").mkdir()
    (tmp_path / "interpreter" / "engine.py").write_text("x = 1\n")
    monkeypatch.setattr(cache, "ENGINE", tmp_path / "interpreter")
    before = cache.engine_stamp()
    (tmp_path / "interpreter" / "state.pxd").write_text("cdef class StateData:\n    pass\n")
    assert cache.engine_stamp() != before
