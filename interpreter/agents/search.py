"""What the searching agents share: option checks, random moves in a simulation, and evaluating a state
with the game's own scoring."""
from __future__ import annotations

from typing import Optional

from dsl.errors import WishError
from dsl.limits import MAX_WEIGHT

from ..draws import randrange
from ..engine import Action
from ..scoring import estimates, outcome


def check_option(agent: str, key: str, value, low) -> None:
    """Options below their least sensible value are refused with a clear message."""
    if value < low:
        raise WishError(f"agent option {agent}:{key}={value}: must be at least {low}")


def check_flag(agent: str, key: str, value) -> None:
    """An on/off option is 0 or 1."""
    check_option(agent, key, value, 0)
    if value > 1:
        raise WishError(f"agent option {agent}:{key}={value}: must be 0 or 1")


def random_action(st, player: int, rng) -> Action:
    actions = st.legal_actions(player)
    return actions[randrange(rng, len(actions))]


def answer_others(st, decision, rng) -> None:
    """While `decision` still waits for other players (a simultaneous one), answer for them at random."""
    while st.decision is decision and not st.over:
        st.apply(random_action(st, st.to_move[0], rng))


def margin(scores: list, p: int) -> float:
    """Player p's score minus the best score of the others (its own score when alone)."""
    others = [s for q, s in enumerate(scores) if q != p]
    return scores[p] - (max(others) if others else 0)


def percents(text: str) -> tuple:
    """An agent option's list of whole percentages: "60/25/-5" → (60, 25, -5)."""
    return tuple(int(x) for x in text.split("/"))


percents.expected = "whole percentages separated by / (60/25/-5)"


def judging(heuristic: int, weights: Optional[tuple], agent: str) -> Optional[tuple]:
    """How a searching agent values an unfinished game, as `values` takes it: None for the game's own heuristic,
    () for the score alone, or other weights for the game's estimates."""
    check_flag(agent, "heuristic", heuristic)
    if weights is not None and not heuristic:
        raise WishError(f"agent option {agent}:weights needs the heuristic: leave out {agent}:heuristic=0")
    for w in weights or ():
        if abs(w) > MAX_WEIGHT:
            raise WishError(f"agent option {agent}:weights: {w}% is beyond ±{MAX_WEIGHT:,}%")
    return weights if heuristic else ()


def values(st, weights: Optional[tuple] = None) -> list:
    """Each player's value of an unfinished game: the score if it ended now, plus the game's `heuristic`
    (scoring.estimates: `weights` None for the declared weights, () for the score alone)."""
    return estimates(st.game, st, st.game.standings(st), weights)


def score_scale(st, weights: Optional[tuple] = None) -> float:
    """How far apart values are at a decision: the scale `rewards` measures a margin against (fixed for one
    search, so that a point gained counts the same in every outcome compared)."""
    return 2.0 + max((abs(v) for v in values(st, weights)), default=0)


def rewards(st, scale: float, weights: Optional[tuple] = None) -> list:
    """One reward in [0, 1] per player. A finished game: its winners share 1, the others get 0. Otherwise
    the game's own scoring if the game ended now, plus its heuristic (`values`): a player who would lose
    outright (`lose if`) gets 0.05; the others mostly their margin over the best other player still in the
    running, in units of `scale` (linear, so a point won is worth as much as a point lost), plus a little for
    leading now by the scoring (a shared lead less): between 0.05 and 0.95."""
    if st.over:
        win = st.winners()
        return [1.0 / len(win) if p in win else 0.0 for p in st.seats]
    rows = st.game.standings(st)
    win = outcome(rows).winners
    value = estimates(st.game, st, rows, weights)
    running = [value[r.player] for r in rows if not r.lost]
    out = []
    for p in st.seats:
        if rows[p].lost:
            out.append(0.05)
            continue
        others = list(running)
        others.remove(value[p])
        rel = max(-1.0, min(1.0, (value[p] - (max(others) if others else 0)) / scale))
        lead = 1.0 / len(win) if p in win else 0.0
        out.append(0.05 + 0.1 * lead + 0.4 * (1.0 + rel))
    return out


def advised_against(st, player: int) -> frozenset:
    """The actions `player` does not consider now, by the game's advice (`consider ACTION only when "…" COND`
    in its heuristic): those whose condition does not hold for them. Empty outside a choice of actions."""
    advice = st.game.advice
    d = st.decision
    if not advice or d is None or d.kinds != "act":
        return frozenset()
    env = {st.game.heuristic_var: player}
    return frozenset([name for name, (_, cond) in advice.items() if not cond(st, env)])


def considered(st, player: int, actions: list, follow: int = 1):
    """The indices of `actions` (`player`'s options in `st`) a searching agent weighs: with `follow`, those the
    game's advice is not against (`advised_against`), or all when it is against every one (advice narrows a
    choice, it never empties one)."""
    against = advised_against(st, player) if follow else ()
    if against:
        kept = [i for i, a in enumerate(actions) if a.value[0] not in against]
        if kept:
            return kept
    return range(len(actions))
