"""MctsAgent: Information-Set Monte Carlo Tree Search over sampled states (single observer, decoupled moves).

Why this kind: the seat cannot see the true state, so every iteration draws a state from its information set
(`InfoSet.sample`) and descends one shared tree whose nodes are keyed by options (their structured keys, which
are equal exactly when their labels are), not by states
(Cowling, Powley and Whitehouse's SO-ISMCTS). Statistics of one node are thus pooled over everything the
seat thinks possible; per-sample trees with votes would average separate omniscient plans instead ("strategy
fusion"). Options that a sample does not offer are handled by availability counts in the UCB formula.

A decision of several players at once (a slap race) is one node in which each pending player picks from its
own statistics without seeing the others' picks (decoupled UCT); the child is keyed by all the picks.
Rewards are per player (`search.rewards`): 1 or 0 for a finished game, the game's own scoring in between
(the margin over the others, linear in a scale fixed for the search), so every player in the tree maximises
its own. UCB's exploration is scaled by the range of rewards seen at the node, so small but real differences
(one coin more) are not drowned by exploring.

Two abstractions keep the tree dense where hidden cards would split it (measured in 3 Wishes, where together
they lifted MCTS from no better than random to a small lead). Options that differ only in which unseen card of one
zone they take are one arm (`option_class`: of nine swaps with another player's unseen cards the search
learns one value; the card is then picked at random, as the seat cannot tell them apart; `merge=0` turns
this off). And a choice a player makes while resolving an action of their own (which cards to peek at
after `look`) is chosen from statistics in the action's node instead of opening a node per answer: the swap
that follows is then found one level below the peek, whatever was seen, and its options name the cards seen,
so what a peek revealed still steers it. A run of such choices that could go on without end (a free move
that lands on another free move) branches again after `pool` of them (`MAX_INNER` by default). With `pool=0`
each of them opens a node (abstraction by action, then by parameters: a Wish trade's colour to take, then each
Crystal to give), and an iteration that opens one goes on to the next choice that is not inside an action before
it judges the position (a position halfway through a trade is judged before its Crystals moved). Measured in Wish
on the same 150 deals: 1.4 VP a player less than pooling (Air 2.0 less; opening one node an iteration and judging
the halfway position, 3.2 less), so pooling stays the default.

An option's statistics back up a mix of the iteration's reward and the value of its player's best option at
its own next decision (mix-max backups): a slap is worth what the likely guess after it earns, not the
average of every guess tried. The best option is taken among those the player had in that iteration's
sample, so a peek gets credit for the better swap that what it revealed allows (after a peek at a good card,
the swap for that card), not for the swap most often tried after other peeks. A pick that ended the game
keeps its final reward unmixed (a swap that completes a set ends the game only in some samples; mixing in
what the player did next in the others credited it with a future it does not have). Measured in 3 Wishes
(600 games): A − B against random from +6 [+0, +12] to +9 [+3, +15], against greedy from +4 [−1, +10] to
+6 [+1, +12]; Wunschmaschine plays as well as before.

Past the tree, rollouts follow MAST (the Move-Average Sampling Technique of Finnsson and Björnsson's
CadiaPlayer, ε-greedy as Tak, Winands and Björnsson found best): each player takes, with probability
1 − `epsilon`, the option whose key has earned it the most on average so far in this search, otherwise a
random one. Keys, like labels, only say what their player may know (a card it has seen is named, one it has
not is its place, "card 2 of …"), so the policy uses no hidden information. Rollouts stop after `rollout`
decisions. The same averages give an option not yet tried in the tree its first value (see `_select`).

With `probe=1` an option the search has not met at all yet (no average) starts instead at the reward its player
gets one step after taking it in the sample, rather than at the best possible value, and the mix-max backup takes
the best of the offered options, each by its mean once tried 3 times and by its probe before: the swap for a card
a peek has just shown is valued by the hand it makes before any iteration has been spent on it, and the peek is
credited at once with the best swap it makes possible. Together with `rollout=0` (a leaf is valued by the game's
own scoring at once; in a game as short as 3 Wishes random play to the end mostly adds luck) and 400 iterations,
this beats random and greedy in 3 Wishes on fresh deals (README, Strength). Off by default: Wish and
Wunschmaschine were measured without it. With `backprobe=0` probes give untried options their first value but no
backup takes one: the best next option counts only once tried 3 times. The best of a dozen one-sample probes is
biased upwards, so an option after which its player decides again (a free trade in Wish, then the turn's other
steps) was credited above one that hands the decision over (ending the turn), whose backup is its reward alone.

With `groups=1` the options of a choice of actions are first grouped by action name (move groups, Childs,
Brodeur and Kocsis 2008): UCB picks Travel, Empower or Fulfill on the group's own statistics, then which Travel.
A Wish turn offers a dozen options or more, most of them the same action with other parameters (which column,
which Area); grouped, the search would learn first what kind of step is worth taking. Measured in Wish, it lost
11 of 40 games to the same search without it (README, AI players), so it is off by default.

With `reuse=1` a turn of several steps is searched as one: after the seat takes an option, the subtree below it
is kept, and when the seat's next decision is the very next one of the game (another step of its own turn —
nobody else decided in between, `InfoSet.decisions`), the search grows that subtree on, with this search's move
averages and probes, instead of starting from an empty root. The iterations spent on the turn's later steps
while searching its first are not thrown away. The tree is kept only in this process (worker trees of `jobs`
start afresh).

With `clock=1` the budget is a clock rather than a fixed allowance per decision (time management after Huang,
Coulom and Lin 2010): a search stops early once its most visited option cannot be overtaken — the runner-up
would need more than half of the iterations left (each process judges its own tree) — and what a decision
leaves of its budget (seconds with `time`, else iterations) is saved; the next decision with a choice may spend
half of the savings on top of its own budget, at most four budgets more. The budget per decision is then an
average: a choice that settles early (which Crystal to give in a trade, often) leaves its time to one that
does not. A decision with one option neither earns nor spends. With iterations alone it stays repeatable.
Measured in Wish: no gain (README, AI players), so it is off by default.

With `widen=k` (progressive unpruning, Chaslot et al. 2008; progressive widening, Coulom 2007) UCB picks at a node
among at most k·√n of its player's options, n the visits they have had there: the options tried stay, the untried
ones enter best first by their first value (what they earned in this search, or their probe). Iterations then go
to a few promising options and deeper along them instead of to every one of a Wish turn's dozen or more. Measured
in Wish: no gain (`widen=1` won 48.0% of 300 games against the same search without it, `widen=0.5` 46.2%), so
it is off by default.

A game may advise its AI players in its heuristic: `consider trade only when "…" COND` keeps the action out of
every choice of actions (in the tree and in rollouts) while COND does not hold for the player choosing, evaluated
in the sampled state (so it reads nothing the seat could not know in that sample). A free action offered at every
step of a turn is otherwise a near-copy of the whole choice: its subtree holds every other option after it, and
with a few samples an option the noise favours is taken. Measured in Wish (README, *AI players*). `advice=0`
ignores the advice.

`last_root` keeps the tree of the last decision, for inspection.
"""
from __future__ import annotations

import math
import random
import time
from typing import Optional

from dsl.errors import WishError

from ..draws import randrange
from ..engine import Action
from ..views import Unseen
from . import Agent, parallel
from .search import check_flag, check_option, considered, judging, percents, rewards, score_scale

MAX_INNER = 8  # `pool`'s default and most: choices in a row pooled in one node, then they branch again
MAX_TIME = 3600.0  # seconds a decision may be given (`time=`)
MAX_ITERATIONS = 10_000_000  # the iterations of a search by time, at most
SETTLE_EVERY = 16  # with `clock`: iterations between two looks at whether the search is settled
SETTLE_SHARE = 0.5  # with `clock`: the share of the iterations left the runner-up could get at most
SPEND = 0.5  # with `clock`: the share of the savings one decision may spend
MOST = 4.0  # with `clock`: a decision spends at most this many budgets of savings on top of its own


class Node:
    """A place in the tree: per player, option class → [visits, reward sum, availability] and the range of the
    rewards seen [low, high]; children by picks; with `groups=1`, per player, how often each action name was
    offered (its visits and rewards are those of its options)."""

    __slots__ = ("stats", "ranges", "children", "groups")

    def __init__(self):
        self.stats: dict = {}
        self.ranges: dict = {}
        self.children: dict = {}
        self.groups: dict = {}  # with `groups=1`: per player, action name → availability


class MctsAgent(Agent):
    """ISMCTS with UCB1 (constant `c`); MAST rollouts (`epsilon`) cut after `rollout` decisions; `iterations`
    samples; options on unseen cards of one zone merged into one arm unless `merge` is 0; new options probed
    one step ahead when `probe` is 1 (and a probe backed up as the best next option unless `backprobe` is 0);
    actions chosen by name first when `groups` is 1; an unfinished game valued with the game's `heuristic` unless
    `heuristic` is 0 (`weights`: other weights for its estimates). With `time` (seconds a decision, wall clock)
    the search runs that long instead, at least one iteration, and at most `iterations` when those are given too:
    a search by time is not repeatable, a search by iterations is (the same seed and state give the same choice).
    With `clock` the budget is an average (see above); `pool`: choices in a row inside one's own action chosen in
    that action's node (0: each opens a node). With `jobs` above 1 the search also runs in jobs - 1
    worker processes, each growing its own tree, and the root statistics are added up (agents/parallel.py);
    `last_root` is then this process's tree. With `reuse` the subtree below the option taken grows on at the
    seat's next decision when that comes right after. With `widen` UCB picks among at most `widen` × √n options
    of a node (progressive widening). The game's advice (`consider ACTION only when …`) is followed in the tree
    and in rollouts unless `advice` is 0."""

    name = "mcts"
    options = {"iterations": int, "time": float, "jobs": int, "c": float, "rollout": int, "epsilon": float,
               "merge": int, "probe": int, "heuristic": int, "weights": percents, "groups": int, "reuse": int,
               "clock": int, "backprobe": int, "pool": int, "widen": float, "advice": int}
    uses_view = False
    uses_infoset = True

    def __init__(self, seat: int, seed: int = 0, iterations: Optional[int] = None, c: float = 0.7,
                 rollout: int = 10, epsilon: float = 0.4, merge: int = 1, probe: int = 0, heuristic: int = 1,
                 time: Optional[float] = None, weights: Optional[tuple] = None, jobs: int = 1, groups: int = 0,
                 reuse: int = 0, clock: int = 0, backprobe: int = 1, pool: int = MAX_INNER, widen: float = 0.0,
                 advice: int = 1):
        super().__init__(seat, seed)
        check_option("mcts", "jobs", jobs, 1)
        if jobs > parallel.MAX_JOBS:
            raise WishError(f"agent option mcts:jobs={jobs}: at most {parallel.MAX_JOBS} processes")
        if time is not None and not 0 < time <= MAX_TIME:
            raise WishError(f"agent option mcts:time={time}: seconds a decision, more than 0 and at most "
                            f"{MAX_TIME:,.0f}")
        if iterations is None:
            iterations = 200 if time is None else MAX_ITERATIONS
        check_option("mcts", "iterations", iterations, 1)
        check_option("mcts", "c", c, 0.0)
        check_option("mcts", "rollout", rollout, 0)
        check_option("mcts", "epsilon", epsilon, 0.0)
        if epsilon > 1:
            raise WishError(f"agent option mcts:epsilon={epsilon}: must be at most 1")
        self.iterations, self.time, self.c, self.rollout = iterations, time, c, rollout
        check_flag("mcts", "merge", merge)
        check_flag("mcts", "probe", probe)
        check_flag("mcts", "groups", groups)
        check_flag("mcts", "reuse", reuse)
        check_flag("mcts", "clock", clock)
        check_flag("mcts", "backprobe", backprobe)
        check_flag("mcts", "advice", advice)
        check_option("mcts", "pool", pool, 0)
        if pool > MAX_INNER:
            raise WishError(f"agent option mcts:pool={pool}: at most {MAX_INNER} choices in a row")
        check_option("mcts", "widen", widen, 0.0)
        self.backprobe, self.pool, self.widen, self.advice = backprobe, pool, widen, advice
        self.epsilon, self.merge, self.probe, self.groups, self.reuse = epsilon, merge, probe, groups, reuse
        self.weights = judging(heuristic, weights, "mcts")
        self.jobs, self.clock, self.saved = jobs, clock, 0.0
        self.tree_options = {"time": time, "c": c, "rollout": rollout, "epsilon": epsilon, "merge": merge,
                             "probe": probe, "heuristic": heuristic, "weights": weights,
                             "groups": groups, "clock": clock, "backprobe": backprobe,
                             "pool": pool, "widen": widen, "advice": advice}  # a worker's tree
        self.rng = random.Random(seed)
        self.classes: dict = {}
        self.offers: dict = {}  # (node, player) → the option classes offered there in this iteration
        self.kept = None  # with `reuse`: (game, decision number, subtree, move averages, probes, scale)

    def act(self, view, actions: list, info=None) -> Action:
        if info is None:
            raise WishError("the mcts agent needs its seat's information set (agents.play gives it)")
        kept = self._kept_root(info)
        if len(actions) == 1:
            self._keep(info, kept, self._class(actions[0].key))
            return actions[0]
        iterations, seconds = self._budget()
        began = time.perf_counter()
        if parallel.usable(self.jobs, info.game):
            counts = [k for k in parallel.shares(iterations, self.jobs) if k]
            seeds = [self.rng.getrandbits(63) for _ in counts[1:]]
            started = parallel.start(MctsAgent, info, dict(self.tree_options, time=seconds), seeds, counts[1:])
            root, done = self.grow(info, counts[0], root=kept, seconds=seconds)
            mine, more = parallel.merged(root.stats.get(self.seat, {}), started)
            done += more
        else:
            root, done = self.grow(info, iterations, root=kept, seconds=seconds)
            mine = root.stats.get(self.seat, {})
        if self.clock:
            used = time.perf_counter() - began if self.time is not None else done
            self.saved = max(self.saved + self._allowance() - used, 0.0)
        self.last_root, self.last_iterations, self.last_stats = root, done, mine

        classes = [self._class(a.key) for a in actions]

        def rank(i):
            visits, total, _ = mine.get(classes[i], (0, 0.0, 0))
            return visits, (total / visits if visits else 0.0), -i
        best = classes[max(range(len(actions)), key=rank)]
        self._keep(info, root, best)
        return _one_of([a for a, k in zip(actions, classes) if k == best], self.rng)

    def snapshot(self) -> Optional[dict]:
        """The generator's state and, with `clock`, the savings (a resumed game goes on with both)."""
        data = super().snapshot()
        if self.clock:
            data["saved"] = self.saved
        return data

    def restore(self, data: Optional[dict]) -> None:
        super().restore(data)
        saved = (data or {}).get("saved", 0.0) if self.clock else 0.0
        if type(saved) not in (int, float) or not 0 <= saved < math.inf:
            raise WishError(f"{self.name}: a stored agent state does not fit this agent (savings {saved!r})")
        self.saved = float(saved)

    def grow(self, info, iterations: Optional[int] = None, root: Optional[Node] = None,
             seconds: Optional[float] = None) -> tuple:
        """One tree for the information set: (its root, the iterations run) — `iterations` of them (default the
        agent's), or as many as `seconds` (default `time`) allow; with `clock`, fewer once the search is settled.
        A `root` kept from the seat's decision just before (`reuse`) grows on, with the move averages and probes
        of that search."""
        limit = self.iterations if iterations is None else iterations
        seconds = self.time if seconds is None else seconds
        fresh = root is None
        if fresh:
            root, self.mast, self.probes = Node(), {}, {}
        began = time.perf_counter()
        deadline = None if seconds is None else began + seconds
        i = 0
        while i < limit and (i == 0 or deadline is None or time.perf_counter() < deadline):
            st = info.sample(self.rng)
            if i == 0 and fresh:
                self.scale = score_scale(st, self.weights)
            self._iterate(root, st)
            i += 1
            if self.clock and i % SETTLE_EVERY == 0 and settled(root.stats.get(self.seat), i, limit, began,
                                                                 deadline):
                break
        return root, i

    def _allowance(self):
        """The agent's own budget for one decision, in what the clock counts: seconds with `time`, else
        iterations."""
        return self.time if self.time is not None else self.iterations

    def _budget(self) -> tuple:
        """The iterations and seconds this decision may take: the agent's own, and with `clock` a share of
        the savings on top (`SPEND` of them, at most `MOST` budgets)."""
        if not self.clock:
            return self.iterations, self.time
        extra = min(SPEND * self.saved, MOST * self._allowance())
        if self.time is not None:
            return self.iterations, self.time + extra
        return self.iterations + int(extra), None

    def _keep(self, info, root: Optional[Node], cls) -> None:
        """With `reuse`: keep the subtree below the option class taken, for the seat's next decision if it
        comes right after this one (another decision of the same turn)."""
        child = root.children.get(((self.seat, cls),)) if self.reuse and root is not None else None
        self.kept = None if child is None else (info.game, info.decisions + 1, child, self.mast, self.probes,
                                                self.scale)

    def _kept_root(self, info) -> Optional[Node]:
        """The subtree `_keep` kept, when this decision is the very next one of the same game (its count of
        decisions is one more: nobody decided in between, so the path from the old root to here is exactly the
        seat's own pick); else None. An agent plays one game (simulate and run make one per game)."""
        kept, self.kept = self.kept, None
        if kept is None or kept[0] is not info.game or kept[1] != info.decisions:
            return None
        node, self.mast, self.probes, self.scale = kept[2:]
        return node

    def _class(self, key):
        """The option class of an option's key (see `option_class`), cached for this agent."""
        cls = self.classes.get(key)
        if cls is None:
            cls = self.classes[key] = option_class(key) if self.merge else key
        return cls

    def _iterate(self, root: Node, st) -> None:
        node, path, played, inner_run, opened = root, [], [], 0, 0
        self.offers = {}
        while not st.over:
            inner = node is not root and inner_run < self.pool and _within_own_action(st)
            inner_run = inner_run + 1 if inner else 0
            picks = []
            for p, (key, action) in [(p, self._select(node, p, st)) for p in st.to_move]:
                st.apply(action)
                picks.append((p, key))
            played.extend(picks)
            if inner:
                path.append((node, picks, None))
                continue
            key = tuple(picks)
            child = node.children.get(key)
            fresh = child is None
            if fresh:
                child = node.children[key] = Node()
            path.append((node, picks, child))
            if fresh:
                opened += 1
                if self.pool or opened > MAX_INNER or not _within_own_action(st):
                    break
            node = child
        if st.over and path:  # the last pick ended the game: its reward is final, there is no next option
            path[-1] = path[-1][:2] + (None,)
        self._rollout(st, played)
        reward = rewards(st, self.scale, self.weights)
        probes = (self.probes if self.backprobe else {}) if self.probe else None
        for node, picks, child in reversed(path):
            for p, cls in picks:
                value = self._backed_up(reward[p], child, p, self.offers.get((child, p)), probes)
                entry = node.stats[p][cls]
                entry[0] += 1
                entry[1] += value
                span = node.ranges.get(p)
                if span is None:
                    node.ranges[p] = [value, value]
                elif value < span[0]:
                    span[0] = value
                elif value > span[1]:
                    span[1] = value
        mast = self.mast
        for p, cls in played:
            entry = mast.setdefault((p, cls), [0, 0.0])
            entry[0] += 1
            entry[1] += reward[p]

    def _rollout(self, st, played: list) -> None:
        """At most `rollout` decisions past the tree, each pending player choosing by MAST (ε-greedy)."""
        rng, mast, classes = self.rng, self.mast, self._class
        for _ in range(self.rollout):
            if st.over:
                return
            for p in list(st.to_move):
                actions = st.legal_actions(p)
                indices = considered(st, p, actions, self.advice)
                j = indices[randrange(rng, len(indices))]
                if rng.random() >= self.epsilon:
                    best = -1.0
                    keys = st.legal_keys(p)
                    for i in indices:
                        entry = mast.get((p, classes(keys[i])))
                        if entry is not None and entry[1] / entry[0] > best:
                            j, best = i, entry[1] / entry[0]
                action = actions[j]
                played.append((p, classes(action.key)))
                st.apply(action)

    @staticmethod
    def _backed_up(reward: float, child: Node, player: int, offered, probes: dict = None) -> float:
        """What an option earned: the iteration's reward, mixed half and half with the mean of the player's
        most visited option at its own next decision in `child`, when that one has been tried at least 3 times
        (mix-max backups, Coulom 2006): a good guess after a slap is then not averaged with every guess explored.
        When the player chose in `child` in this iteration, only the options it was `offered` there count:
        after a peek at "Flight", the peek is worth what swapping for "Flight" has earned, not what the swap
        most often tried after peeks at other cards earned. When it did not (it lost a slap race), all its
        options there count (measured: the reward alone then made tables of MCTS Agents in Wunschmaschine
        need about twice the rows per right guess). No `child` (the pick ended the game, or it was a choice
        inside one's own action): the reward alone. With `probes` (the `probe` option) the best of the offered
        options counts, each by its mean once tried 3 times and by its probe before: a peek is credited at once
        with the best swap it makes possible, before that swap has been tried often."""
        table = child.stats.get(player) if child is not None else None
        if not table:
            return reward
        if probes is not None and offered:
            values = []
            for cls in offered:
                visits, total, _ = table[cls] if cls in table else (0, 0.0, 0)  # with groups: maybe never weighed
                value = total / visits if visits >= 3 else probes.get((player, cls))
                if value is not None:
                    values.append(value)
            return (reward + max(values)) / 2 if values else reward
        entries = [table[cls] for cls in offered if cls in table] if offered else list(table.values())
        if not entries:
            return reward
        visits, total, _ = max(entries)
        if visits >= 3:
            return (reward + total / visits) / 2
        return reward

    def _select(self, node: Node, player: int, st) -> tuple:
        """The option class `player` takes, and one of its options: UCB1 with availability among the classes
        `player` has in this sample. An option not tried here yet counts as tried once, earning what its class
        has earned so far in this search (MAST; a class never seen earns the most possible, so it is tried
        soon, or with `probe` what it earns one step ahead): of nine guesses, the likely one is tried first and
        the others only when it disappoints, rather than all nine before any is repeated."""
        table = node.stats.setdefault(player, {})
        concrete: dict = {}
        actions = st.legal_actions(player)
        keys = st.legal_keys(player)
        for i in considered(st, player, actions, self.advice):
            concrete.setdefault(self._class(keys[i]), []).append(i)
        classes = list(concrete)
        self.offers[node, player] = classes
        low, high = node.ranges.get(player, (0.0, 1.0))
        c = self.c * (high - low if high > low else 1.0)
        if self.groups:
            classes = self._group_of_classes(node, player, classes, st, actions, concrete, c)

        def first(cls):
            return self._first(player, cls, st, actions[concrete[cls][0]])
        if self.widen:
            classes = self._widened(table, classes, first)
        best = self._ucb(table, classes, first, c)
        return best, actions[_one_of(concrete[best], self.rng)]

    def _ucb(self, table: dict, classes: list, first, c: float):
        """The class UCB1 picks among `classes` (statistics in `table`, counted as offered once more); a class not
        tried yet counts as tried once, earning `first(class)`. Ties are broken at random."""
        best, best_value, ties = None, -math.inf, 0
        for cls in classes:
            entry = table.get(cls)
            if entry is None:
                entry = table[cls] = [0, 0.0, 0]
            entry[2] += 1
            visits, total, avail = entry
            if visits:
                value = total / visits + c * math.sqrt(math.log(avail) / visits)
            else:
                value = first(cls) + c * math.sqrt(math.log(avail + 1))
            if value > best_value:
                best, best_value, ties = cls, value, 1
            elif value == best_value:
                ties += 1
                if randrange(self.rng, ties) == 0:
                    best = cls
        return best

    def _widened(self, table: dict, classes: list, first) -> list:
        """With `widen`: the classes UCB may pick from (progressive unpruning, Chaslot et al. 2008; progressive
        widening, Coulom 2007): at most `widen` × √n of them, n the visits of the player's options here so far,
        at least one. The classes already tried stay; the untried ones enter best first by their first value
        (`_first`: what they earned in this search, or their probe)."""
        room = max(1, math.ceil(self.widen * math.sqrt(sum(row[0] for row in table.values()))))
        tried, untried = [], []
        for cls in classes:
            (tried if cls in table and table[cls][0] else untried).append(cls)
        if len(tried) >= room or not untried:
            return tried or classes
        untried.sort(key=first, reverse=True)
        return tried + untried[:room - len(tried)]

    def _first(self, player: int, cls, st, action: Action) -> float:
        """The value of an option class not tried at a node yet: what it has earned so far in this search (MAST),
        else with `probe` its reward one step ahead, else the most possible."""
        seen = self.mast.get((player, cls))
        if seen is not None:
            return seen[1] / seen[0]
        return self._probe(st, player, cls, action) if self.probe else 1.0

    def _group_of_classes(self, node: Node, player: int, classes: list, st, actions: list, concrete: dict,
                          c: float) -> list:
        """With `groups=1` (move groups, Childs, Brodeur and Kocsis 2008): the options of a choice of actions
        are grouped by action name, UCB1 picks a group on the sums of its options' statistics (an untried group
        starts at its best member's first value), and the option is picked within it. Fifteen Travel, Empower and
        Fulfill options with their columns become three arms first. A choice whose options all share a name
        (one value to pick) is not grouped."""
        members: dict = {}
        for cls in classes:
            members.setdefault(_group(cls), []).append(cls)
        if len(members) < 2:
            return classes
        offered = node.groups.setdefault(player, {})
        options = node.stats[player]
        table = {}
        for group, classes_of in members.items():
            rows = [options[cls] for cls in classes_of if cls in options]
            table[group] = [sum(r[0] for r in rows), sum(r[1] for r in rows), offered.get(group, 0)]

        def first(group):
            return max(self._first(player, cls, st, actions[concrete[cls][0]]) for cls in members[group])
        chosen = self._ucb(table, list(members), first, c)
        for group, row in table.items():
            offered[group] = row[2]
        return members[chosen]

    def _probe(self, st, player: int, key, action: Action) -> float:
        """The first value of option class `key` when this search has not met it: the reward `player` gets
        one step after taking `action` (one of its options) in this sample (computed once per search, then kept)."""
        value = self.probes.get((player, key))
        if value is None:
            after = st.clone()
            after.apply(action)
            value = self.probes[player, key] = rewards(after, self.scale, self.weights)[player]
        return value


def settled(table: Optional[dict], done: int, limit: int, began: float, deadline: Optional[float]) -> bool:
    """Can the most visited option of a root (`table`: option class → visits, …) no longer be overtaken? The
    runner-up would need more than `SETTLE_SHARE` of the iterations left: `limit - done`, and with a
    `deadline` at most as many as the rate so far fits in the time left."""
    if not table or len(table) < 2:
        return False
    first, second = sorted([row[0] for row in table.values()], reverse=True)[:2]
    left = limit - done
    if deadline is not None:
        now = time.perf_counter()
        left = min(left, done / max(now - began, 1e-9) * max(deadline - now, 0.0))
    return first - second > SETTLE_SHARE * left


def _group(cls):
    """The move group of an option class: its action's name (an action's key is (name, parameter values))."""
    return cls[0] if type(cls) is tuple and cls and type(cls[0]) is str else None


def _one_of(items: list, rng):
    """One of the options of a class, at random (the generator is not used when there is only one)."""
    return items[randrange(rng, len(items))] if len(items) > 1 else items[0]


def _within_own_action(st) -> bool:
    """Whether the pending decision is a choice its one player makes while resolving an action of their own
    (which cards to peek at, once `look` is taken)."""
    d = st.decision
    return d is not None and d.kinds != "act" and len(d.players) == 1 and st.acting_player() == d.players[0]


def option_class(key):
    """An option's key with the positions of the cards its player does not know left out (the key of
    `exchange card 2 of hand of player 1, "Flight"` becomes that of `exchange a card of hand of player 1,
    "Flight"`; known cards are kept). Such options differ only in which unseen card of a zone they take, so they
    are one arm of the search."""
    if isinstance(key, Unseen):
        return Unseen((key[0], None))
    if isinstance(key, tuple):
        return tuple([option_class(k) for k in key])
    return key
