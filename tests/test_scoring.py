"""The end of a game (interpreter/scoring.py): points per scoring step, which tie-breaker decided a tie (said in
the log and in the result), a shared win, and a player who loses outright."""
import random

import pytest

from interpreter import load_game, load_source

GAME = '''
game "Ties" { players 2..4 }
player var gold: int = 0
player var gems: int = 0
player var cursed: bool = false
player var pick: int = 0
play {
  for p in players {
    choose p.pick from [0, 1, 2, 3, 4, 5, 6, 7, 8] by p prompt "Pick"
    p.gold = p.pick / 3
    p.gems = p.pick % 3
    p.cursed = p.pick == 8
  }
}
scoring p {
  score "Gold" p.gold
  score "Bonus" 1
  tiebreak "Gems" p.gems
  tiebreak "Pick" p.pick
  lose if p.cursed
}
'''


def finished(picks, text=GAME):
    st = load_source(text, "ties.wish").new_state(len(picks), seed=1)
    for p, pick in enumerate(picks):
        st.apply(f"pick {pick}", p)
    assert st.is_over
    return st


def test_a_score_alone_decides_without_a_tie_line():
    st = finished([4, 0])
    assert st.winners() == [0] and not any(" tie at " in line for line in st.log_lines())
    assert st.result()["decided_by"] is None and st.result()["players"][0]["points"] == {"Gold": 1, "Bonus": 1}


def test_the_first_tie_breaker_that_separates_the_tied_players_is_named():
    st = finished([4, 3, 0])  # gold 1, 1, 0; gems 1, 0: "Gems" decides between players 1 and 2
    assert st.winners() == [0]
    result = st.result()
    assert result["decided_by"] == "Gems" and not result["shared"]
    assert result["players"][1]["tiebreaks"] == {"Gems": 0, "Pick": 3}
    assert "players 1 and 2 tie at 2 points; the tie-breaker “Gems” decides (player 1 1, player 2 0)." \
        in st.log_lines()


def test_a_later_tie_breaker_decides_when_the_earlier_ones_are_equal():
    text = GAME.replace('score "Gold" p.gold', 'score "Gold" 0').replace('tiebreak "Pick" p.pick',
                                                                        'tiebreak "Pick" 0 - p.pick')
    st = finished([3, 6], text)  # scores 1, 1; gems 0, 0; "Pick" (the lower pick) decides
    assert st.winners() == [0] and st.result()["decided_by"] == "Pick"
    st = finished([3, 6, 3], text)  # "Pick" leaves players 1 and 3, tied on everything
    assert st.winners() == [0, 2] and st.result()["shared"] and st.result()["decided_by"] is None


def test_a_tie_on_everything_is_a_shared_win():
    st = finished([3, 3])
    assert st.winners() == [0, 1] and st.result()["shared"] and st.result()["decided_by"] is None
    assert "players 1 and 2 tie at 2 points and on every tie-breaker: the win is shared." in st.log_lines()


def test_without_tie_breakers_a_tie_is_shared():
    st = finished([3, 4], GAME.replace('tiebreak "Gems" p.gems\n', "").replace('tiebreak "Pick" p.pick\n', ""))
    assert st.winners() == [0, 1]
    assert "players 1 and 2 tie at 2 points: the win is shared." in st.log_lines()


def test_a_player_who_loses_outright_is_not_among_the_tied():
    st = finished([8, 6, 7])  # gold 2, 2, 2; player 1 is cursed
    assert 0 not in st.winners() and st.result()["players"][0]["lost"]
    assert st.result()["decided_by"] == "Gems"  # players 2 and 3: gems 0 and 1


@pytest.mark.parametrize("path, variant, players", [("games/wish.wish", None, 4), ("games/three_wishes.wish", None, 3),
                                                    ("games/wunschmaschine.wish", "Left-Right", 5)])
def test_the_winners_are_the_best_by_score_then_each_tie_breaker(path, variant, players):
    game = load_game(path, variant)
    for seed in range(8):
        st = game.new_state(players, seed)
        rng = random.Random(seed)
        while not st.is_over:
            st.apply(rng.choice(st.legal_actions()))
        rows = [r for r in game.standings(st) if not r.lost]
        best = max((r.score, tuple(v for _, v in r.breaks)) for r in rows)
        assert st.winners() == [r.player for r in rows if (r.score, tuple(v for _, v in r.breaks)) == best]
        assert st.scores() == [r.score for r in game.standings(st)] == [p["score"] for p in st.result()["players"]]


def test_the_command_line_shows_the_points_of_each_step_and_what_decided(capsys):
    from wishdsl.cli import main

    assert main(["run", "games/wish.wish", "--players", "2", "--variant", "Random Djinns", "--seed", "4",
                 "--quiet"]) == 0  # a seed whose random game ends in a tie that the Crystals decide
    out = capsys.readouterr().out
    assert "1. Victory Points of your fulfilled Wishes" in out and "tie-breakers: Monument Badges" in out
    assert "The tie at the best score is decided by “Crystals”." in out
