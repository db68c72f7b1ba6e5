"""`--why` (issue 22): every line of the log explained by the chain of rules that wrote it.

A chain is checked against the game's own files: each step cites a line whose text is the step's text, every
chain ends at the set-up, the turn structure, the scoring or the game, and a line written while an action
resolves has that action (and its own log line) in its chain. Explaining changes nothing the game does.
"""
import io
import shutil
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from interpreter import load_game
from interpreter.agents import HumanAgent, make_agents, play
from interpreter.log import Entry
from interpreter.why import ExplainingState, explain, explanation_lines, is_rooted, shown_to
from interpreter.why_index import StepKind
from wishdsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
WISH = str(ROOT / "games" / "wish.wish")
GAMES = sorted(str(p) for p in (ROOT / "games").glob("*.wish"))
ENGINE = str(ROOT / "tests" / "games" / "engine_test.wish")
RULE_STEPS = (StepKind.PROCEDURE, StepKind.ACTION, StepKind.SETUP, StepKind.PLAY, StepKind.SCORING, StepKind.GAME)


def played(path, players, seed, variant=None, agents=("random",)):
    game = load_game(path, variant)
    st = ExplainingState.start(game, players, seed)
    play(st, make_agents(list(agents), players, seed))
    return game, st


def source_line(step) -> str:
    lines = Path(step.span.file).read_text(encoding="utf-8").splitlines()
    return lines[step.span.line - 1]


def check_chain(st, k):
    """The invariants every chain keeps (see the module docstring)."""
    chain = explain(st, k)
    assert is_rooted(chain), (k, chain)
    e = st.log[k]
    if e[0] in (Entry.CHOICE, Entry.ACTION):
        assert chain[0].kind is StepKind.DECISION and chain[0].player == e[1]
    for i, step in enumerate(chain):
        if step.span is None or step.kind is StepKind.DECISION:
            continue
        line = source_line(step)
        if step.kind in (StepKind.STATEMENT, StepKind.LOOP, *RULE_STEPS):
            assert line[step.span.col - 1:].strip() == step.text, (k, step)
        elif step.kind in (StepKind.TRIGGER, StepKind.ABILITY):  # a card's: "NAME: " before its line
            assert step.text.endswith(line[step.span.col - 1:].strip()), (k, step)
        elif step.kind is StepKind.CONDITION:
            assert step.text.split(" ", 1)[1].split()[0] in line and step.value in (True, False)
        if step.kind is StepKind.ACTION:
            assert step.log_line is not None and step.log_line < k or (step.log_line == k - 1)
            assert st.log[step.log_line][0] is Entry.ACTION and st.log[step.log_line][1] == step.player
        if step.kind is StepKind.TRIGGER:
            rest = [s for s in chain[i + 1:] if s.kind is not StepKind.CONDITION]
            assert rest and rest[0].kind is StepKind.STATEMENT, "a trigger's chain goes on at its event"
    return chain


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (4, 11)])
def test_every_line_of_a_wish_game_is_explained(players, seed):
    game, st = played(WISH, players, seed)
    assert len(st.trace.chains) == len(st.log)
    kinds = set()
    for k in range(len(st.log)):
        chain = check_chain(st, k)
        kinds.update(s.kind for s in chain)
        if st.log[k][0] is not Entry.ACTION and any(s.kind is StepKind.DECISION for s in chain[1:]):
            pytest.fail(f"line {k + 1}: a decision inside a chain")
    assert {StepKind.ACTION, StepKind.PROCEDURE, StepKind.SETUP, StepKind.PLAY, StepKind.SCORING,
            StepKind.CONDITION, StepKind.DECISION} <= kinds


@pytest.mark.parametrize("path", GAMES + [str(p) for p in sorted((ROOT / "games" / "house").glob("*.wish"))])
def test_every_game_and_house_rule_is_explained(path):
    game = load_game(path)
    _, st = played(path, min(max(3, game.min_players), game.max_players), 5)
    for k in range(len(st.log)):
        check_chain(st, k)


def test_explaining_changes_nothing():
    """The same seed and answers: the same log, byte for byte, the same state and scores."""
    game = load_game(WISH)
    for seed in (1, 2):
        plain = game.new_state(3, seed)
        taken = play(plain, make_agents(["greedy", "random", "random"], 3, seed))
        why = ExplainingState.start(game, 3, seed)
        for a in taken:
            why.apply(a.label, a.player)
        assert why.log_lines() == plain.log_lines() and why.to_json() == plain.to_json()
        assert why.scores() == plain.scores()


SMALL = '''"""A small game for --why."""
game "Why test" {
  players 2..2
}

player var points: int = 0
event gained(p: player)

when gained(p) if p.points > 0 after action {
  p.points += 10
}

action gain() {
  you.points += 1
  emit gained(you)
}

procedure take(p: player) {
  act one of gain by p
}

play {
  repeat 2 {
    for p in players {
      take(p)
    }
  }
}

scoring p {
  score "Points" p.points
}
'''


def test_an_action_its_trigger_and_the_loops(tmp_path):
    """A line written by a trigger resolving after its action: the trigger and its condition, the statement
    whose event fired it, the action with its own log line, the procedure with its parameter, the loops with
    the value of their variable, the turn structure. Exactly, step by step."""
    path = tmp_path / "small.wish"
    path.write_text(SMALL)
    _, st = played(str(path), 2, 1)
    texts = st.log_lines()
    k = texts.index("player 2 points: 1 → 11")
    chain = check_chain(st, k)
    got = [(s.kind.value, s.span.line, s.text, s.value, [(n, st.player_name(v)) for n, v, _ in s.bindings])
           for s in chain]
    assert got == [
        ("statement", 10, "p.points += 10", None, []),
        ("trigger", 9, "when gained(p) if p.points > 0 after action {", None, []),
        ("condition", 9, "if p.points > 0", True, []),
        ("statement", 15, "emit gained(you)", None, []),
        ("action", 13, "action gain() {", None, []),
        ("statement", 19, "act one of gain by p", None, []),
        ("procedure", 18, "procedure take(p: player) {", None, [("p", "player 2")]),
        ("statement", 25, "take(p)", None, []),
        ("loop", 24, "for p in players {", None, [("p", "player 2")]),
        ("loop", 23, "repeat 2 {", None, []),
        ("play", 22, "play {", None, []),
    ]
    assert texts[chain[4].log_line] == "player 2: gain" and chain[4].player == 1
    lines = explanation_lines(st, k)
    assert lines[0] == f"{k + 1:>5}  player 2 points: 1 → 11"
    assert lines[7] == f"       ← procedure  {path}:18  procedure take(p: player) {{  (p = player 2)"


def test_instant_ability_and_its_choice():
    """The choice an Instant ability asks: the decision, the `choose`, the ability, the action that played it."""
    for seed in range(40):
        game, st = played(ENGINE, 2, seed, variant="actions")
        for k, e in enumerate(st.log):
            if e[0] is Entry.CHOICE:
                chain = check_chain(st, k)
                assert [s.kind for s in chain[:3]] == [StepKind.DECISION, StepKind.STATEMENT, StepKind.ABILITY]
                assert chain[1].text.startswith("choose bonus from [1, 2]") and chain[2].text == '"Spark": instant {'
                action = next(s for s in chain if s.kind is StepKind.ACTION)
                assert st.log_lines()[action.log_line] == f'{st.player_name(e[1])}: play "Spark"'
                return
    pytest.fail("no Spark was played in 40 games")


@pytest.mark.parametrize("seed", range(4))
def test_what_a_player_is_shown_keeps_secrets(seed):
    """A seat never sees a condition that reads what not everyone sees, nor anything inside it; the chain
    outside it is the same."""
    path = str(ROOT / "games" / "three_wishes.wish")
    _, st = played(path, 3, seed)
    cut = 0
    for k in range(len(st.log)):
        chain = explain(st, k)
        for seat in range(3):
            shown = shown_to(st, chain, seat)
            assert not any(s.secret for s in shown)
            if shown != chain:
                cut += 1
                assert shown[0].kind is StepKind.HIDDEN and chain[-len(shown) + 1:] == shown[1:]
        assert shown_to(st, chain, None) == chain
    assert cut > 0, "no chain of a 3 Wishes game reads a hidden card?"


def test_clone_and_restore_keep_explaining():
    game = load_game(WISH)
    st = ExplainingState.start(game, 2, 9)
    agents = make_agents(["random"], 2, 9)
    for _ in range(30):
        seat = st.to_move[0]
        st.apply(agents[seat].act(st.view(seat), st.legal_actions(seat)))
    copy = st.clone()
    assert isinstance(copy, ExplainingState) and copy.trace.chains == st.trace.chains
    rest = play(st, agents)
    for a in rest:
        copy.apply(a.label, a.player)
    assert copy.trace.chains == st.trace.chains
    back = ExplainingState.start(game, 2, 9)
    back.restore(copy)
    assert back.trace.chains == st.trace.chains and back.log_lines() == st.log_lines()


# ---------------------------------------------------------------- the command line
def test_run_why_prints_every_line_with_its_chain(capsys):
    assert main(["run", WISH, "--players", "2", "--seed", "4", "--why"]) == 0
    out = capsys.readouterr().out
    assert "    1  Wish: 2 players, seed 4\n       ← game       " in out
    assert "← action     " in out and "← play       " in out and "← setup      " in out


def test_run_why_n_and_replay_why_n_agree(capsys, tmp_path):
    assert main(["run", WISH, "--players", "2", "--seed", "4", "--json", "--why"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["why"]) == len(doc["log"]) and doc["why"][0][0]["kind"] == "game"
    log = tmp_path / "game.json"
    log.write_text(json.dumps(doc))
    k = next(i for i, chain in enumerate(doc["why"]) if any(s["kind"] == "action" for s in chain[1:]))
    assert main(["run", WISH, "--players", "2", "--seed", "4", "--why", str(k + 1)]) == 0
    run_text = capsys.readouterr().out.split("Winner")[-1]
    assert main(["--allow", str(ROOT), "replay", str(log), "--game", WISH, "--why", str(k + 1)]) == 0
    replay_text = capsys.readouterr().out
    assert replay_text.strip() and replay_text.strip() in run_text
    steps = doc["why"][k]
    assert [f"{s['file']}:{s['line']}" for s in steps if "file" in s][1] in replay_text


def test_why_refuses_a_line_the_log_does_not_have(capsys):
    assert main(["run", WISH, "--players", "2", "--seed", "4", "--why", "99999"]) == 1
    assert "--why 99999: the log has" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", WISH, "--why", "0"])
    assert "counted from 1" in capsys.readouterr().err


def test_why_at_the_terminal_table():
    """`why N` explains line N as the person's seat may read it; `log` numbers the lines."""
    game = load_game(WISH)
    st = ExplainingState.start(game, 2, 3)
    agents = make_agents(["random"], 2, 3)
    while 0 not in st.to_move:
        seat = st.to_move[0]
        st.apply(agents[seat].act(st.view(seat), st.legal_actions(seat)))
    out = io.StringIO()
    human = HumanAgent(0, input=io.StringIO("log\nwhy 2\nwhy 0\nwhy\n1\n"), output=out)
    human.explain = lambda k, seat: explanation_lines(st, k, seat)
    human.act(st.view(0), st.legal_actions(0))
    text = out.getvalue()
    assert "      1  Wish: 2 players, seed 3" in text
    assert "\n".join(explanation_lines(st, 1, 0)) in text
    assert "Type 'why N' with N a line of the log, 1 to" in text
    assert "\n".join(explanation_lines(st, len(st.log) - 1, 0)) in text


@settings(max_examples=15, deadline=None)
@given(path=st_.sampled_from(GAMES), seed=st_.integers(0, 2**31 - 1), players=st_.integers(1, 6))
def test_any_game_explained_is_the_same_game(path, seed, players):
    """Property: for any game, seed and player count it is played by, the explaining state writes the same log
    as a plain one, and every line's chain keeps the invariants."""
    game = load_game(path)
    players = min(max(players, game.min_players), game.max_players)
    plain = game.new_state(players, seed)
    taken = play(plain, make_agents(["random"], players, seed))
    why = ExplainingState.start(game, players, seed)
    for a in taken:
        why.apply(a.label, a.player)
    assert why.log_lines() == plain.log_lines()
    for k in range(len(why.log)):
        check_chain(why, k)


def test_a_failed_scenario_check_says_which_rules_last_changed_it(tmp_path):
    """`wishdsl test`: a check that fails shows the last log line that changed the variable or zone, with its
    chain (the scenario is run again on an explaining state); a value no line changed gets no chain."""
    from wishdsl.scenario import run_paths

    shutil.copy(ROOT / "games" / "wunschmaschine.wish", tmp_path / "wunschmaschine.wish")
    (tmp_path / "fail.yaml").write_text(
        'game: wunschmaschine.wish\nplayers: 4\nseed: 1\ndo:\n  - player 1: wish for "Heart"\n'
        '  - {player 2: wait, player 3: slap, player 4: wait}\n  - player 3: guess heart\n'
        'expect:\n  supply: 5\n  table: ["Pig"]\n  rows: 9\n', encoding="utf-8")
    (result,) = run_paths([str(tmp_path / "fail.yaml")])
    assert not result.ok
    message = result.message
    supply = message[message.index("supply: expected 5, got 19"):message.index("table: expected")]
    assert "the last change, and why (--why):" in supply and "supply: 20 → 19" in supply
    assert "transfer 1 from supply to p.coins" in supply and "if correct  → true" in supply
    assert "procedure pay_from_supply(p: player) {  (p = player 3)" in supply
    table = message[message.index("table: expected"):message.index("rows: expected")]
    assert "move from table to deck" in table and "move table to deck face down" in table  # the next round
    rows = message[message.index("rows: expected 9, got 1"):]  # @quiet: its changes are not in the log
    assert "the last change" not in rows.split("last log lines")[0]


def test_a_game_file_changed_on_disk_cannot_explain_the_game(tmp_path):
    """A game loaded from the cache of compiled games reads its syntax tree again from disk when asked
    (`Game.checked`): if the file changed since, its lines would not be the rules that run; explaining refuses."""
    from dsl.errors import WishError

    path = tmp_path / "wunschmaschine.wish"
    shutil.copy(ROOT / "games" / "wunschmaschine.wish", path)
    game = load_game(str(path))
    game._checked = None  # as a game from the cache holds it
    path.write_text("# a comment moves every line down\n" + path.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(WishError, match="changed on disk since the game was loaded"):
        ExplainingState.start(game, 3, 1)
