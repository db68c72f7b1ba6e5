"""MctsAgent: Information-Set Monte Carlo Tree Search over sampled states (single observer, decoupled moves).

Why this kind: the seat cannot see the true state, so every iteration draws a state from its information set
(`InfoSet.sample`) and descends one shared tree whose nodes are keyed by option labels, not by states
(Cowling, Powley and Whitehouse's SO-ISMCTS). Statistics of one node are thus pooled over everything the
seat thinks possible; per-sample trees with votes would average separate omniscient plans instead ("strategy
fusion"). Options that a sample does not offer are handled by availability counts in the UCB formula.

A decision of several players at once (a slap race) is one node in which each pending player picks from its
own statistics without seeing the others' picks (decoupled UCT); the child is keyed by all the picks.
Rewards are per player (`search.rewards`): 1 or 0 for a finished game, the game's own scoring in between,
so every player in the tree maximises its own.

Past the tree, rollouts follow MAST (the Move-Average Sampling Technique of Finnsson and Björnsson's
CadiaPlayer, ε-greedy as Tak, Winands and Björnsson found best): each player takes, with probability
1 − `epsilon`, the option whose label has earned it the most on average so far in this search, otherwise a
random one. Labels only say what their player may know (a card it has seen is named, one it has not is
"card 2 of …"), so the policy uses no hidden information. Rollouts stop after `rollout` decisions.
"""
from __future__ import annotations

import math
import random

from dsl.errors import WishError

from ..engine import Action
from . import Agent
from .search import check_option, rewards


class Node:
    """A place in the tree: per player, label → [visits, reward sum, availability]; children by picks."""

    __slots__ = ("stats", "children")

    def __init__(self):
        self.stats: dict = {}
        self.children: dict = {}


class MctsAgent(Agent):
    """ISMCTS with UCB1 (constant `c`); MAST rollouts (`epsilon`) cut after `rollout` decisions; `iterations`
    samples."""

    name = "mcts"
    options = {"iterations": int, "c": float, "rollout": int, "epsilon": float}
    uses_view = False
    uses_infoset = True

    def __init__(self, seat: int, seed: int = 0, iterations: int = 200, c: float = 0.7, rollout: int = 10,
                 epsilon: float = 0.4):
        super().__init__(seat, seed)
        check_option("mcts", "iterations", iterations, 1)
        check_option("mcts", "c", c, 0.0)
        check_option("mcts", "rollout", rollout, 0)
        check_option("mcts", "epsilon", epsilon, 0.0)
        if epsilon > 1:
            raise WishError(f"agent option mcts:epsilon={epsilon}: must be at most 1")
        self.iterations, self.c, self.rollout = iterations, c, rollout
        self.epsilon = epsilon
        self.rng = random.Random(seed)

    def act(self, view, actions: list, info=None) -> Action:
        if info is None:
            raise WishError("the mcts agent needs its seat's information set (agents.play gives it)")
        if len(actions) == 1:
            return actions[0]
        root, self.mast = Node(), {}
        for _ in range(self.iterations):
            self._iterate(root, info.sample(self.rng))
        mine = root.stats.get(self.seat, {})

        def rank(i_action):
            i, a = i_action
            visits, total, _ = mine.get(a.label, (0, 0.0, 0))
            return visits, (total / visits if visits else 0.0), -i
        return max(enumerate(actions), key=rank)[1]

    def _iterate(self, root: Node, st) -> None:
        node, path, played = root, [], []
        while not st.over:
            picks = [(p, self._select(node, p, st)) for p in st.to_move]
            for p, label in picks:
                st.apply(Action(p, label))
            path.append((node, picks))
            played.extend(picks)
            key = tuple(picks)
            child = node.children.get(key)
            if child is None:
                node.children[key] = Node()
                break
            node = child
        self._rollout(st, played)
        reward = rewards(st)
        for node, picks in path:
            for p, label in picks:
                entry = node.stats[p][label]
                entry[0] += 1
                entry[1] += reward[p]
        mast = self.mast
        for p, label in played:
            entry = mast.setdefault((p, label), [0, 0.0])
            entry[0] += 1
            entry[1] += reward[p]

    def _rollout(self, st, played: list) -> None:
        """At most `rollout` decisions past the tree, each pending player choosing by MAST (ε-greedy)."""
        rng, mast = self.rng, self.mast
        for _ in range(self.rollout):
            if st.over:
                return
            for p in list(st.to_move):
                actions = st.legal_actions(p)
                action = actions[rng.randrange(len(actions))]
                if rng.random() >= self.epsilon:
                    best = -1.0
                    for a in actions:
                        entry = mast.get((p, a.label))
                        if entry is not None and entry[1] / entry[0] > best:
                            action, best = a, entry[1] / entry[0]
                st.apply(action)
                played.append((p, action.label))

    def _select(self, node: Node, player: int, st) -> str:
        """UCB1 with availability among the options `player` has in this sample; untried ones first."""
        table = node.stats.setdefault(player, {})
        labels = [a.label for a in st.legal_actions(player)]
        untried = []
        for label in labels:
            entry = table.get(label)
            if entry is None:
                entry = table[label] = [0, 0.0, 0]
            entry[2] += 1
            if entry[0] == 0:
                untried.append(label)
        if untried:
            return untried[self.rng.randrange(len(untried))]
        best, best_value = None, -1.0
        for label in labels:
            visits, total, avail = table[label]
            value = total / visits + self.c * math.sqrt(math.log(avail) / visits)
            if value > best_value:
                best, best_value = label, value
        return best
