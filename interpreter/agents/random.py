"""RandomAgent: a uniform choice among the legal actions, from its own seeded generator."""
from __future__ import annotations

import random

from ..draws import randrange
from ..engine import Action
from . import Agent


class RandomAgent(Agent):
    """Picks uniformly at random; the same seed and the same actions give the same choices."""

    name = "random"
    uses_view = False

    def __init__(self, seat: int, seed: int = 0):
        super().__init__(seat, seed)
        self.rng = random.Random(seed)

    def act(self, view: dict, actions: list) -> Action:
        if not actions:
            raise ValueError(f"{self!r} was asked to act with no legal actions")
        return actions[randrange(self.rng, len(actions))]
