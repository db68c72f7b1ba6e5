"""GreedyAgent: looks one decision ahead on sampled states and takes what the game's own scoring likes best."""
from __future__ import annotations

import random

from dsl.errors import WishError

from ..engine import Action
from . import Agent
from .search import answer_others, check_flag, check_option, considered, judging, margin, percents, values

WIN = 1000.0  # a finished game counts this much more than any difference in score


class GreedyAgent(Agent):
    """For each legal action: on `samples` states drawn from the seat's information set, take it, let the engine
    run to the next decision (other players pending in a simultaneous decision answer at random), and score
    the result: own value minus the best other value, plus or minus WIN when the game has ended. A value is
    the score if the game ended now, plus the game's `heuristic` if it declares one (`heuristic=0`: the score
    alone; `weights=60/25/…`: other weights for the game's estimates, in their order). The best average wins;
    ties are broken by the agent's own seeded generator.

    An action is judged by where it ends, not by its first step: the choices the agent itself makes while
    its action resolves (which Crystal to take, then which three to give in a trade) are made greedily
    too, up to `inner` choices deep (0: judged at its first step).

    The game's advice (`consider ACTION only when …` in its heuristic) leaves out an action while its condition
    does not hold for the agent, judged on the first sampled state (`advice=0`: every action is weighed)."""

    name = "greedy"
    options = {"samples": int, "heuristic": int, "weights": percents, "inner": int, "advice": int}
    uses_view = False
    uses_infoset = True

    def __init__(self, seat: int, seed: int = 0, samples: int = 4, heuristic: int = 1, weights=None,
                 inner: int = 8, advice: int = 1):
        super().__init__(seat, seed)
        check_option("greedy", "samples", samples, 1)
        check_option("greedy", "inner", inner, 0)
        check_flag("greedy", "advice", advice)
        self.samples, self.weights, self.inner = samples, judging(heuristic, weights, "greedy"), inner
        self.advice = advice
        self.rng = random.Random(seed)

    def act(self, view, actions: list, info=None) -> Action:
        if info is None:
            raise WishError("the greedy agent needs its seat's information set (agents.play gives it)")
        if len(actions) == 1:
            return actions[0]
        totals = [0.0] * len(actions)
        keep = None
        for _ in range(self.samples):
            world = info.sample(self.rng)
            if keep is None:
                keep = considered(world, self.seat, actions, self.advice)
            for i in keep:
                totals[i] += self._value(world, actions[i])
        best = max([totals[i] for i in keep])
        return self.rng.choice([actions[i] for i in keep if totals[i] == best])

    def _value(self, world, action: Action) -> float:
        st = self._after(world, action)
        for _ in range(self.inner):
            if st.over or not self._inner(st):
                break
            best = max(st.legal_actions(self.seat), key=lambda a: self._judge(self._after(st, a)))
            decision = st.decision
            st.apply(best)
            answer_others(st, decision, self.rng)
        return self._judge(st)

    def _after(self, world, action: Action):
        """A copy of `world` with `action` taken, and other players pending beside it answered at random."""
        st = world.clone()
        decision = st.decision
        st.apply(action)
        answer_others(st, decision, self.rng)
        return st

    def _judge(self, st) -> float:
        if st.over:
            return margin(st.scores(), self.seat) + (WIN if self.seat in st.winners() else -WIN)
        return margin(values(st, self.weights), self.seat)

    def _inner(self, st) -> bool:
        """Is the pending decision a choice of this agent's own, inside its own action?"""
        d = st.decision
        return d is not None and d.kinds != "act" and d.players == (self.seat,) and st.acting_player() == self.seat
