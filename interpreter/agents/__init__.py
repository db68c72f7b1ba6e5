"""Agents: players driven by code or by a person. An agent sees views only, never the state.

An agent has a `name` and `act(view, actions) -> Action`, where `view` is `state.view(seat)` and `actions` are
the legal actions of its seat. An agent that searches sets `uses_infoset = True` and gets, as `info=`, the
seat's `InfoSet` (interpreter/infoset.py): it samples full states consistent with the seat's view, and is
the only way such an agent reaches a state. `make_agent(spec, seat, seed)` builds one from a spec:

    NAME                      random
    NAME:KEY=VALUE[;KEY=VALUE]  random:seed=5    mcts:iterations=400;c=1.4

Options are separated by ';' (never ',', which separates the seats of `--agents random,human`). Values are
converted to the type the agent declares (int, float, bool: true/false, str). Every agent takes `seed` (it
overrides the seed derived from the game's); other options are those its class lists in `options`.
"""
from __future__ import annotations

import math
from typing import Callable, Optional

from dsl.errors import WishError, did_you_mean

from ..engine import Action
from ..infoset import InfoSet


class Agent:
    """Base class of agents. Subclasses set `name`, may list spec options in `options`, and define `act`."""

    name = "agent"
    options: dict = {}
    uses_view = True  # False: `act` ignores the view, so the game loop need not build one
    uses_infoset = False  # True: `act` also gets `info=InfoSet(state, seat)`

    def __init__(self, seat: int, seed: int = 0):
        self.seat = seat
        self.seed = seed

    def act(self, view: dict, actions: list) -> Action:
        raise NotImplementedError

    def snapshot(self) -> Optional[dict]:
        """What the agent carries from one decision to the next, as JSON-ready data (its generator's state),
        so that a game resumed elsewhere (a web table after a restart) asks it exactly where it was. None: it
        carries nothing. An agent that keeps more (MCTS's `reuse=1` tree) resumes without that part."""
        rng = getattr(self, "rng", None)
        if rng is None:
            return None
        version, internal, gauss = rng.getstate()
        return {"rng": [version, list(internal), gauss]}

    def restore(self, data: Optional[dict]) -> None:
        """Take up a `snapshot()`; a malformed one raises WishError."""
        if data is None:
            return
        try:
            version, internal, gauss = data["rng"]
            self.rng.setstate((version, tuple(internal), gauss))
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise WishError(f"{self.name}: a stored agent state does not fit this agent ({err})") from None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seat {self.seat}>"


AGENTS: dict = {}


def register(name: str, factory: Callable) -> None:
    """Make `factory(seat=…, seed=…, **options)` available as agent `name`."""
    AGENTS[name] = factory


def parse_spec(spec: str) -> tuple:
    """'mcts:iterations=400;c=1.4' → ('mcts', {'iterations': '400', 'c': '1.4'})."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise WishError(f"empty agent spec '{spec}'; agents: {', '.join(sorted(AGENTS))}")
    options = {}
    for part in filter(None, (p.strip() for p in rest.split(";"))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise WishError(f"agent option '{part}' in '{spec}' is not KEY=VALUE "
                            "(several options are separated by ';', e.g. mcts:iterations=400;c=1.4)")
        options[key.strip()] = value.strip()
    return name, options


_BOOLS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def _convert(agent: str, key: str, text: str, ty: type):
    """An option's text as the type the agent declares for it."""
    try:
        if ty is bool:
            return _BOOLS[text.lower()]
        value = ty(text)
    except (KeyError, ValueError):
        raise WishError(f"agent option {agent}:{key}={text}: expected "
                        f"{getattr(ty, 'expected', ty.__name__)}") from None
    if ty is float and not math.isfinite(value):
        raise WishError(f"agent option {agent}:{key}={text}: expected a finite number")
    return value


def make_agent(spec: str, seat: int, seed: int) -> Agent:
    """Build the agent a spec names, for `seat`, seeded with `seed` unless the spec sets `seed=`."""
    name, options = parse_spec(spec)
    factory = AGENTS.get(name)
    if factory is None:
        hint = did_you_mean(name, AGENTS)
        known = ", ".join(sorted(AGENTS))
        raise WishError(f"unknown agent '{name}'" + (f" ({hint})" if hint else "") + f"; agents: {known}")
    allowed = {"seed": int, **getattr(factory, "options", {})}
    kwargs = {"seed": seed}
    for key, value in options.items():
        if key not in allowed:
            hint = did_you_mean(key, allowed)
            raise WishError(f"agent '{name}' has no option '{key}'" + (f" ({hint})" if hint else "")
                            + f"; options: {', '.join(sorted(allowed))}")
        kwargs[key] = _convert(name, key, value, allowed[key])
    return factory(seat=seat, **kwargs)


def make_agents(specs: list, players: int, seed: int) -> list:
    """One agent per seat; a single spec serves every seat. Agent seeds derive from the game seed."""
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise WishError(f"--agents gives {len(specs)} agents for {players} players: give one per seat, "
                        "or a single one for every seat")
    return [make_agent(s, seat, agent_seed(seed, seat)) for seat, s in enumerate(specs)]


def agent_seed(seed: int, seat: int) -> int:
    return seed * 1009 + seat


def split_specs(text: Optional[str]) -> list:
    """'random,human' → ['random', 'human']; None → ['random']."""
    if text is None:
        return ["random"]
    specs = [s.strip() for s in text.split(",")]
    if not all(specs):
        raise WishError(f"--agents '{text}' has an empty entry")
    return specs


class Undo(Exception):
    """A person takes back their last decision (`undo`); `play` decides whether it may be taken back."""


def undo_refusal(state, earlier, seat: int) -> Optional[str]:
    """Why `seat` may not go back to `earlier` (the state before its last decision, with the number of actions
    taken then), or None: going back is refused once something was revealed to that player since, a card they
    saw or an announcement, since a decision taken again would use it."""
    if earlier is None:
        return "there is no earlier decision of yours to take back"
    then = earlier[0]
    bit = 1 << seat
    if any(now & bit and not old & bit for now, old in zip(state.seen, then.seen)):
        return "a card was shown to you since then"
    if len(state.observations) > len(then.observations):
        return "something was announced since then"
    return None


def ask(agent: Agent, state, seat: int) -> Action:
    """The agent's answer for `seat`: it gets the seat's view (and InfoSet), never the state."""
    view = state.view(seat) if agent.uses_view else None
    if agent.uses_infoset:
        return agent.act(view, state.legal_actions(seat), info=InfoSet(state, seat))
    return agent.act(view, state.legal_actions(seat))


def play(state, agents: list, on_log: Optional[Callable] = None, taken: Optional[list] = None,
         after: Optional[Callable] = None, labels: bool = True) -> list:
    """Let the agents play `state` to its end; return the actions taken, in order.

    Each agent gets only its seat's view and legal actions. `on_log(line)` receives every new line of the
    omniscient log as the game goes (including the lines written before the first decision). Actions are
    appended to `taken` (a new list if None) as they are applied, and `after(state, taken)` runs after each.
    Their labels are read as they are taken, so that they can be read afterwards; `labels=False` saves that
    when nobody will (a simulation counts the actions only).
    """
    taken = [] if taken is None else taken
    shown = 0
    before: dict = {}  # seat → (the state before its last decision, how many actions were taken then)
    while True:
        if on_log is not None:
            for line in state.log_lines(None, shown):
                on_log(line)
            shown = len(state.log)
        if state.is_over:
            return taken
        seat = state.to_move[0]
        agent = agents[seat]
        try:
            action = ask(agent, state, seat)
        except Undo:
            refused = undo_refusal(state, before.get(seat), seat)
            if refused is None:
                earlier, n = before.pop(seat)
                state.restore(earlier)
                del taken[n:]
                shown = min(shown, len(state.log))
                if after is not None:
                    after(state, taken)
            agent.undone(refused)
            continue
        if getattr(agent, "can_undo", False):
            before[seat] = (state.clone(), len(taken))
        if labels:
            action.label  # built now, from the state it is offered in: `taken` keeps it
        state.apply(action)
        taken.append(action)
        if after is not None:
            after(state, taken)


from .greedy import GreedyAgent  # noqa: E402
from .human import HumanAgent, Quit  # noqa: E402  (human.py raises Undo, defined above)
from .mcts import MctsAgent  # noqa: E402
from .random import RandomAgent  # noqa: E402

register("random", RandomAgent)
register("human", HumanAgent)
register("greedy", GreedyAgent)
register("mcts", MctsAgent)

__all__ = ["AGENTS", "Agent", "GreedyAgent", "HumanAgent", "MctsAgent", "Quit", "RandomAgent", "agent_seed",
           "ask", "make_agent", "make_agents", "parse_spec", "play", "register", "split_specs"]
