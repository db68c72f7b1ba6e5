"""`first_to_answer`: in a timed game (people at a web table) the first answer to arrive wins a race; elsewhere
the winner is drawn at random, exactly as `random` draws (Wunschmaschine's games are unchanged by it)."""
import json

from interpreter import load_game

WM = "games/wunschmaschine.wish"


def to_the_race(state):
    """Answer until two Agents are asked at once whether to slap."""
    while len(state.to_move) < 2:
        state.apply(state.legal_actions()[0])
    return state


def winner(state) -> str:
    return next(line for line in state.log_lines() if "slaps the wish card first" in line)


def test_the_first_answer_to_arrive_wins_a_timed_race():
    game = load_game(WM)
    for first, second in ((1, 2), (2, 1)):
        st = to_the_race(game.new_state(3, 4, timed=True))
        st.apply("slap", player=first)
        st = game.state_from_json(st.to_json())  # a state saved mid-race keeps the order of the answers
        st.apply("slap", player=second)
        assert winner(st) == f"player {first + 1} slaps the wish card first"
        assert st.arrivals == (first, second) and st.clone().arrivals == (first, second)


def test_an_untimed_race_is_drawn_as_random_draws():
    game = load_game(WM)
    outcomes = set()
    for seed in range(12):
        for order in ((1, 2), (2, 1)):
            st = to_the_race(game.new_state(3, seed))
            for p in order:
                st.apply("slap", player=p)
            outcomes.add((seed, order, winner(st)))
    by_seed = {}
    for seed, _, w in outcomes:
        by_seed.setdefault(seed, set()).add(w)
    assert all(len(ws) == 1 for ws in by_seed.values())  # the order of answers does not matter untimed
    assert len({next(iter(ws)) for ws in by_seed.values()}) == 2  # the draw picks either Agent


def test_an_untimed_state_document_is_as_before():
    doc = json.loads(load_game(WM).new_state(3, 1).to_json())
    assert "timed" not in doc and "arrivals" not in doc
