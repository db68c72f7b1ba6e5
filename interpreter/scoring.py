"""The end of a game, as the game's `scoring` section reads it: each player's points per scoring step, the
tie-breakers, who loses outright, the winners, and what decided between the best (the score, a tie-breaker, or
nothing: a shared win)."""
from __future__ import annotations

from typing import Optional

from dsl.errors import WishError


class _Record:
    """Equality, hash and repr from the fields its class names in `__slots__` (as attrs' frozen classes had)."""

    __slots__ = ()

    def _fields(self) -> tuple:
        return tuple([getattr(self, name) for name in self.__slots__])

    def __eq__(self, other):
        return self._fields() == other._fields() if type(other) is type(self) else NotImplemented

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        fields = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.__slots__])
        return f"{type(self).__name__}({fields})"


class Standing(_Record):
    """One player's end of the game. A plain class (an extension type when compiled, scoring.pxd): a game's end
    and every cut-off of a search make one per player."""

    __slots__ = ("player", "score", "points", "breaks", "lost")

    def __init__(self, player: int, score: int, points: tuple, breaks: tuple, lost: bool):
        self.player = player
        self.score = score
        self.points = points  # (label, points) of each `score` step, in order
        self.breaks = breaks  # (label, value) of each `tiebreak` step, in order
        self.lost = lost  # a `lose if` step holds


class Outcome(_Record):
    """Who won, and what decided it (a plain class, as Standing)."""

    __slots__ = ("winners", "tied", "decided_by", "shared")

    def __init__(self, winners: tuple, tied: tuple, decided_by: Optional[str], shared: bool):
        self.winners = winners
        self.tied = tied  # the players who had the best score (one: the score decided alone)
        self.decided_by = decided_by  # the tie-breaker that separated the winners from the other tied players
        self.shared = shared  # several winners: the tie held on every tie-breaker


def standing(game, st, p: int) -> Standing:
    env = {game.scoring_var: p}
    points, breaks, lost = [], [], False
    for form, label, fn in game.scoring:
        if form == "score":
            points.append((label, fn(st, env)))
        elif form == "tiebreak":
            breaks.append((label, fn(st, env)))
        elif fn(st, env):
            lost = True
    return Standing(p, sum([v for _, v in points]), tuple(points), tuple(breaks), lost)


def estimates(game, st, rows: list, weights: Optional[tuple] = None) -> list:
    """What AI players make of an unfinished game: per player, the score if it ended now (`rows`, the
    standings) plus each estimate of the game's `heuristic` times its weight in percent (`weights`: others
    than the declared ones, one per estimate; none declared, or `weights` empty: the score alone)."""
    terms = game.heuristic
    if weights is not None and weights != () and len(weights) != len(terms):
        raise WishError(f"{len(weights)} weights given for a heuristic of {len(terms)} estimates "
                        f"({', '.join(label for label, _, _ in terms) or 'the game declares none'})")
    if not terms or weights == ():
        return [float(r.score) for r in rows]
    weights = weights or tuple([w for _, w, _ in terms])
    out = []
    for r in rows:
        env = {game.heuristic_var: r.player}
        out.append(r.score + sum([w * fn(st, env) for w, (_, _, fn) in zip(weights, terms)]) / 100)
    return out


def outcome(rows: list) -> Outcome:
    """The winners among the players who do not lose outright: the best score, then each tie-breaker in turn
    among those still tied; `decided_by` names the tie-breaker that left the winners alone."""
    alive = [r for r in rows if not r.lost]
    if not alive:
        return Outcome((), (), None, False)
    best = max([r.score for r in alive])
    tied = [r for r in alive if r.score == best]
    left, decided_by = tied, None
    for k in range(len(tied[0].breaks) if len(tied) > 1 else 0):
        top = max([r.breaks[k][1] for r in left])
        narrower = [r for r in left if r.breaks[k][1] == top]
        if len(narrower) < len(left):
            left, decided_by = narrower, tied[0].breaks[k][0]
        if len(left) == 1:
            break
    return Outcome(tuple([r.player for r in left]), tuple([r.player for r in tied]), decided_by, len(left) > 1)


def players_text(players) -> str:
    """`players 1 and 3`, `players 1, 2 and 4` (seats from 0)."""
    nums = [str(p + 1) for p in players]
    return "players " + (", ".join(nums[:-1]) + " and " + nums[-1] if len(nums) > 1 else nums[0])


def summary(rows: list, out: Outcome) -> dict:
    """The end of a game as plain data: each player's score, points per scoring step, tie-breakers and whether
    it lost outright; the winners; the tie-breaker that decided, if one did; whether the win is shared."""
    return {
        "players": [{"score": r.score, "points": dict(r.points), "tiebreaks": dict(r.breaks), "lost": r.lost}
                    for r in rows],
        "winners": list(out.winners), "decided_by": out.decided_by if not out.shared else None,
        "shared": out.shared,
    }


def tie_line(st, rows: list, out: Outcome) -> Optional[str]:
    """The log's line on a tie at the best score: which tie-breaker decided it, or that the win is shared."""
    if len(out.tied) < 2:
        return None
    best = rows[out.tied[0]].score
    who = players_text(out.tied)
    if out.decided_by is not None and not out.shared:
        k = [label for label, _ in rows[out.tied[0]].breaks].index(out.decided_by)
        values = ", ".join(f"{st.player_name(p)} {rows[p].breaks[k][1]}" for p in out.tied)
        return f"{who} tie at {best} points; the tie-breaker “{out.decided_by}” decides ({values})."
    if rows[out.tied[0]].breaks:
        return f"{who} tie at {best} points and on every tie-breaker: the win is shared."
    return f"{who} tie at {best} points: the win is shared."
