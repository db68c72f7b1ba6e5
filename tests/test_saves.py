"""Saving and resuming: a game saved at any decision (also inside a card's ability) goes on exactly as if it had
never stopped; a damaged, foreign or outdated save is refused with a message, never half loaded."""
import io
import json
import os
import sys
from pathlib import Path

import pytest

from interpreter import Action, WishError, load_game
from interpreter.agents import make_agents, play
from wishdsl import saves
from wishdsl.cli import main

pytestmark = pytest.mark.usefixtures("allow_the_project")  # documents in tmp_path name the games

ROOT = Path(__file__).parent.parent
WISH, THREE, WUNSCH = (str(ROOT / "games" / f) for f in ("wish.wish", "three_wishes.wish", "wunschmaschine.wish"))


class Stop(Exception):
    pass


def play_until(game, players, seed, cut=None, stop_when=None):
    """A game of random agents, stopped after `cut` decisions or when `stop_when(state)` holds."""
    st = game.new_state(players, seed)
    agents = make_agents(["random"], players, seed)

    def after(state, taken):
        if len(taken) == cut or (stop_when is not None and stop_when(state)):
            raise Stop()
    taken: list = []
    try:
        play(st, agents, None, taken, after)
    except Stop:
        pass
    return st, taken


def save_and_resume(tmp_path, game, path, players, seed, cut=None, stop_when=None):
    st, taken = play_until(game, players, seed, cut, stop_when)
    file = str(tmp_path / "game.wishsave.json")
    saves.save_game(file, game, path, st, seed, ["random"] * players, taken)
    saved = saves.load_save(file)
    assert saved.state.to_json() == st.to_json()
    actions = [Action(p, label) for p, label in saved.actions]
    play(saved.state, saved.seat_agents, None, actions)
    return saved.state, actions, len(taken), st


def in_ability(state) -> bool:
    return not state.is_over and state.stack and state.stack[-1].env.get("self") is not None


CASES = [(WUNSCH, None, 4, 1), (WUNSCH, "Left-Right", 3, 2), (THREE, None, 3, 3), (THREE, "Match", 4, 4),
         (WISH, None, 3, 5), (WISH, "Solo", 1, 6)]


@pytest.mark.parametrize("path,variant,players,seed", CASES, ids=[f"{Path(c[0]).stem}-{c[1]}" for c in CASES])
def test_a_game_saved_at_any_decision_resumes_identically(tmp_path, path, variant, players, seed):
    game = load_game(path, variant)
    whole, taken = play_until(game, players, seed)
    labels = [(a.player, a.label) for a in taken]
    cuts = sorted({0, 1, len(taken) // 3, len(taken) // 2, len(taken) - 1, len(taken)})
    for cut in cuts:
        resumed, actions, _, _ = save_and_resume(tmp_path, game, path, players, seed, cut)
        assert [(a.player, a.label) for a in actions] == labels, f"cut at {cut}"
        assert resumed.log_lines() == whole.log_lines()
        assert resumed.to_json() == whole.to_json()


def test_a_wish_game_saved_inside_an_ability_resumes_identically(tmp_path):
    game = load_game(WISH)
    found = 0
    for seed in range(300):  # the first three seeds whose random games reach a decision inside an ability
        stopped, _ = play_until(game, 3, seed, stop_when=in_ability)
        if not (in_ability(stopped) and stopped.decision is not None):
            continue
        whole, taken = play_until(game, 3, seed)
        resumed, actions, cut, stopped = save_and_resume(tmp_path, game, WISH, 3, seed, stop_when=in_ability)
        assert in_ability(stopped) and stopped.decision is not None
        found += 1
        assert cut < len(taken)
        assert [(a.player, a.label) for a in actions] == [(a.player, a.label) for a in taken]
        assert resumed.to_json() == whole.to_json()
        if found == 3:
            break
    assert found == 3


# ---------------------------------------------------------------- refusals
@pytest.fixture
def good_save(tmp_path):
    game = load_game(WUNSCH)
    st, taken = play_until(game, 4, 11, cut=20)
    file = tmp_path / "good.wishsave.json"
    saves.save_game(str(file), game, WUNSCH, st, 11, ["random"] * 4, taken)
    return file


def rewrite(file, change):
    """Change the body of a save and write it back with a correct checksum."""
    doc = json.loads(file.read_text(encoding="utf-8"))
    change(doc["body"])
    saves.write_save(str(file), doc["body"])


def refused(file, message, game_path=None):
    with pytest.raises(WishError) as info:
        saves.load_save(str(file), game_path)
    assert message in str(info.value), str(info.value)


def test_a_cut_or_edited_save_is_damaged(good_save):
    text = good_save.read_text(encoding="utf-8")
    good_save.write_text(text[: len(text) // 2], encoding="utf-8")
    refused(good_save, "not JSON")
    good_save.write_text(text.replace('"seed":11', '"seed":12', 1), encoding="utf-8")
    refused(good_save, "damaged: checksum mismatch")


def test_foreign_files_are_not_saves(tmp_path, good_save):
    other = tmp_path / "other.json"
    for content, message in [("", "not JSON"), ("[1, 2]", "a JSON list"), ('{"format": "x"}', "not a wishdsl save"),
                             ("\udcff".encode("utf-8", "surrogatepass"), "not UTF-8"),
                             ("[" * 100_000, "nested too deeply")]:
        if isinstance(content, bytes):
            other.write_bytes(content)
        else:
            other.write_text(content, encoding="utf-8")
        refused(other, message)
    state = load_game(WUNSCH).new_state(4, 1)
    other.write_text(state.to_json(), encoding="utf-8")
    refused(other, "a bare game state")
    refused(tmp_path / "missing.json", "no such file")
    doc = json.loads(good_save.read_text(encoding="utf-8"))
    doc["version"] = 99
    other.write_text(json.dumps(doc), encoding="utf-8")
    refused(other, "version 99")


def test_a_save_of_another_game_or_version_is_refused(tmp_path, good_save):
    refused(good_save, "good.wishsave.json: a save of Wunschmaschine, not of 3 Wishes", THREE)
    changed = tmp_path / "wunschmaschine.wish"
    changed.write_text(Path(WUNSCH).read_text(encoding="utf-8") + "\n# a new comment\n", encoding="utf-8")
    refused(good_save, f"saved from a different version of {WUNSCH}", str(changed))
    rewrite(good_save, lambda body: body.update(variant="Left-Right"))
    refused(good_save, "saved from a different version")


def test_a_save_whose_parts_disagree_is_refused(good_save):
    original = good_save.read_text(encoding="utf-8")

    def swap_label(body):
        body["actions"][5][1] = "no such move"
    for change, message in [
        (swap_label, "decision 6 (player"),
        (lambda body: body["actions"].pop(), "does not give the saved state"),
        (lambda body: body["state"]["zones"].reverse(), "does not give the saved state"),
        (lambda body: body["state"].pop("zones"), "the saved state does not load"),
        (lambda body: body.update(players="four"), "'players' is missing or of the wrong kind"),
        (lambda body: body.update(agents=["random"]), "one agent per player"),
        (lambda body: body["actions"].append("x"), "action 21 is not [seat, label]"),
        (lambda body: body.update(agents=["random:seed=3"] * 4), "the agent 'random' chooses"),
    ]:
        good_save.write_text(original, encoding="utf-8")
        rewrite(good_save, change)
        refused(good_save, message)


def test_a_save_whose_state_an_older_wishdsl_wrote_resumes_from_its_actions(good_save):
    """The state in a save is a check; its seed and actions are what resumes it. A state written by an older
    engine (another state format) cannot be compared, so the replay alone resumes the game."""
    fresh = saves.load_save(str(good_save))
    rewrite(good_save, lambda body: body.update(state={"format": "wishdsl-state-2", "stack": [[0, 1, 2, None, 0]]}))
    old = saves.load_save(str(good_save))
    assert old.state.to_json() == fresh.state.to_json()
    rewrite(good_save, lambda body: body.update(state={"format": "wishdsl-state-99"}))
    refused(good_save, "damaged: the saved state does not load")  # a newer one is not read


def test_a_state_of_an_older_wishdsl_says_so():
    game = load_game(WUNSCH)
    with pytest.raises(WishError, match="saved by an older wishdsl .wishdsl-state-2; this one reads"):
        game.state_from_json(json.dumps({"format": "wishdsl-state-2"}))


def test_an_interrupted_save_keeps_the_previous_one(good_save, monkeypatch):
    before = good_save.read_bytes()
    body = json.loads(before)["body"]
    body["actions"] = body["actions"][:3]

    def interrupted(fd):
        raise KeyboardInterrupt
    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        saves.write_save(str(good_save), body)
    assert good_save.read_bytes() == before
    assert [p.name for p in good_save.parent.iterdir()] == [good_save.name]  # no temporary file left
    monkeypatch.undo()
    with pytest.raises(WishError, match="cannot save to"):
        saves.write_save(str(good_save.parent / "no" / "such" / "folder.json"), body)


# ---------------------------------------------------------------- the command line
def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_run_save_then_resume_gives_the_same_document(tmp_path, capsys):
    file = str(tmp_path / "s.json")
    code, whole, _ = cli(capsys, "run", WUNSCH, "--seed", "8", "--players", "3", "--json", "--save", file)
    assert code == 0
    game = load_game(WUNSCH)
    doc = json.loads(whole)
    cut = len(doc["actions"]) // 2
    st = game.new_state(3, 8)
    for p, label in doc["actions"][:cut]:
        st.apply(label, player=p)
    saves.save_game(file, game, WUNSCH, st, 8, ["random"] * 3, doc["actions"][:cut])
    code, resumed, err = cli(capsys, "run", "--resume", file, "--json")
    assert code == 0 and f"resumed {file}: seed 8, {cut} decisions taken" in err
    assert json.loads(resumed) == doc
    assert saves.load_save(file).state.is_over  # --resume keeps saving to its file
    code, _, err = cli(capsys, "run", WUNSCH, "--resume", file, "--players", "4")
    assert code == 1 and "--players 4: the saved game has 3" in err


def test_quitting_a_terminal_game_saves_it_and_resume_goes_on(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3000))
    code, whole, _ = cli(capsys, "run", WUNSCH, "--seed", "4", "--players", "3", "--human", "2")
    assert code == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n1\nquit\n"))
    code, _, err = cli(capsys, "run", WUNSCH, "--seed", "4", "--players", "3", "--human", "2")
    file = "wunschmaschine-4.wishsave.json"
    assert code == 130 and f"Game saved to {file}; go on with: wishdsl run --resume {file}" in err
    assert len(saves.load_save(file).actions) > 3
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 3000))
    code, resumed, _ = cli(capsys, "run", "--resume", file)
    assert code == 0
    assert resumed[resumed.index("Result:"):] == whole[whole.index("Result:"):]


def test_a_broken_save_is_a_message_on_the_command_line(tmp_path, capsys, good_save):
    good_save.write_text(good_save.read_text(encoding="utf-8")[:-10], encoding="utf-8")
    code, _, err = cli(capsys, "run", "--resume", str(good_save))
    assert code == 1 and "not JSON" in err and "Traceback" not in err
    code, _, err = cli(capsys, "run")
    assert code == 1 and "run needs a GAME" in err


def test_a_game_of_searching_agents_resumes(tmp_path):
    """Greedy and MCTS agents are asked again through their information sets while the save is replayed."""
    game = load_game(WUNSCH)
    specs = ["greedy:samples=1", "mcts:iterations=4;rollout=2", "random"]
    st = game.new_state(3, 7)
    agents = make_agents(specs, 3, 7)
    taken: list = []

    def after(state, taken):
        if len(taken) == 12:
            raise Stop()
    with pytest.raises(Stop):
        play(st, agents, None, taken, after)
    file = str(tmp_path / "search.wishsave.json")
    saves.save_game(file, game, WUNSCH, st, 7, specs, taken)
    saved = saves.load_save(file)
    assert saved.state.to_json() == st.to_json()
    # and the game goes on exactly as it would have: each agent's generator is where it was
    after_save = play(saved.state, saved.seat_agents)
    after_cut = play(st, agents)
    assert st.is_over and len(after_cut) > 20
    assert [(a.player, a.label) for a in after_save] == [(a.player, a.label) for a in after_cut]
    assert saved.state.to_json() == st.to_json()


def test_temporary_files_a_killed_run_left_are_cleaned_at_the_next_save(tmp_path):
    """`kill -9` between writing a save's temporary file and renaming it leaves the file; the next run's first
    save of the same file removes such files, and only those (issue 20, 11)."""
    from wishdsl.cli import main

    save = tmp_path / "wm.wishsave.json"
    stale = [tmp_path / ".wm.wishsave.json.k3j_9x2a.tmp", tmp_path / ".wm.wishsave.json.AbC123.tmp"]
    kept = [tmp_path / ".other.json.k3j_9x2a.tmp", tmp_path / ".wm.wishsave.json.k3j.tmp.keep",
            tmp_path / "wm.wishsave.json.k3j.tmp"]
    for f in stale + kept:
        f.write_text("{", encoding="utf-8")
    assert main(["run", WUNSCH, "--players", "3", "--seed", "2", "--quiet", "--save", str(save)]) == 0
    assert save.exists() and not any(f.exists() for f in stale) and all(f.exists() for f in kept)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([save.name] + [f.name for f in kept])
