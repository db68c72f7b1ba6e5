"""What the searching agents share: option checks, random moves in a simulation, and evaluating a state
with the game's own scoring."""
from __future__ import annotations

from dsl.errors import WishError

from ..engine import Action


def check_option(agent: str, key: str, value, low) -> None:
    """Options below their least sensible value are refused with a clear message."""
    if value < low:
        raise WishError(f"agent option {agent}:{key}={value}: must be at least {low}")


def random_action(st, player: int, rng) -> Action:
    actions = st.legal_actions(player)
    return actions[rng.randrange(len(actions))]


def answer_others(st, decision, rng) -> None:
    """While `decision` still waits for other players (a simultaneous one), answer for them at random."""
    while st.decision is decision and not st.over:
        st.apply(random_action(st, st.to_move[0], rng))


def random_steps(st, steps: int, rng) -> None:
    """Play at most `steps` decisions at random (every pending player answers)."""
    for _ in range(steps):
        if st.over:
            return
        for p in list(st.to_move):
            st.apply(random_action(st, p, rng))


def margin(scores: list, p: int) -> float:
    """Player p's score minus the best score of the others (its own score when alone)."""
    others = [s for q, s in enumerate(scores) if q != p]
    return scores[p] - (max(others) if others else 0)


def rewards(st) -> list:
    """One reward in [0, 1] per player. A finished game: its winners share 1, the others get 0. Otherwise the
    game's own scoring says who would win if it ended now (a shared lead is worth less than a lead of one's
    own) and by how much: between 0.1 and 0.9."""
    if st.over:
        win = st.winners()
        return [1.0 / len(win) if p in win else 0.0 for p in st.seats]
    scores, win = st.game.final_result(st)
    scores = list(scores)
    out = []
    for p in st.seats:
        m = margin(scores, p)
        others = [abs(s) for q, s in enumerate(scores) if q != p]
        rel = m / (1.0 + abs(scores[p]) + (max(others) if others else 0))
        lead = 1.0 / len(win) if p in win else 0.0
        out.append(0.1 + 0.4 * lead + 0.2 * (1.0 + rel))
    return out
