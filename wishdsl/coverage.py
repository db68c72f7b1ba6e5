"""Rule coverage, roles and ablation for simulations.

`CountingState` is a `State` whose hooks count what fires: actions started (in all, and per player), Instant
abilities resolved, triggers (rules of the game and Ongoing abilities of cards) that passed their condition and
started to resolve, and procedure calls (frames pushed, and procedures the compiled rules call directly, which
ask `st.counting` first).
The hooks are overrides in this subclass, so a plain `State` pays next to nothing for them, and `clone()`
returns a plain `State`: the look-ahead of an agent (MCTS) is never counted. Nothing is added to the saved state.

`ablate(game, name)` returns a copy of a compiled game with one ability switched off by name: an action (never
legal), a named trigger (`when NAME: …`), or every ability of a card (Instant, Ongoing and Static).
"""
from __future__ import annotations

from collections import Counter

from dsl.errors import WishError, did_you_mean
from interpreter.engine import State

OFF_REASON = "switched off (--ablate)"


class CountingState(State):
    """A State that counts the rules that fire and the actions each player started, and remembers the per-player
    enum values at the end of setup."""

    __slots__ = ("counts", "taken", "pushes", "at_setup_end")

    @classmethod
    def start(cls, game, players: int, seed: int) -> "CountingState":
        game.check_players(players)
        return cls.fresh(game, players, seed)

    def _bind(self, game, players: int) -> None:
        super()._bind(game, players)
        self.counting = True
        self.counts = Counter()
        self.taken = Counter()  # (player, action name) → actions started by that player
        self.pushes = [0] * len(game.blocks)  # runs per block of code (procedure calls among them)
        self.at_setup_end = None

    def start_action(self, key, who: int, depth: int, span) -> None:
        self.counts["action", key[0]] += 1
        self.taken[who, key[0]] += 1
        super().start_action(key, who, depth, span)

    def resolve_instant(self, card: int, depth: int, span) -> bool:
        d = self.ids.of[card]
        if d in self.game.instants:
            self.counts["instant", self.game.card_defs[d].name] += 1
        return super().resolve_instant(card, depth, span)

    def trigger_holds(self, f) -> bool:
        holds = super().trigger_holds(f)
        if holds:
            self.counts["trigger", f.data] += 1
        return holds

    def push(self, code: int, env: dict, kind, data, depth: int, span) -> None:
        self.pushes[code] += 1
        State.push(self, code, env, kind, data, depth, span)

    def counted(self, code: int) -> None:
        self.pushes[code] += 1

    def apply(self, action, player=None) -> None:
        if self.at_setup_end is None and not self.in_setup():
            self.at_setup_end = role_values(self)
        super().apply(action, player)

    def in_setup(self) -> bool:
        setup = self.game.setup_code
        return setup is not None and len(self.stack) > 1 and self.stack[1].code == setup


def enum_pvars(game) -> list:
    """(index, name) of the per-player variables whose type is an enum (optional or not)."""
    return [(i, v.name) for i, v in enumerate(game.pvars) if v.ty.kind == "enum"]


def role_values(st) -> dict:
    """{variable: (value of player 1, …)} for the per-player enum variables."""
    return {name: tuple(st.pvars[p][i] for p in st.seats) for i, name in enum_pvars(st.game)}


def stable_roles(st) -> dict:
    """The per-player enum variables that did not change from the end of setup to the end of the game:
    {name: values per player}; a variable that changed maps to None."""
    final = role_values(st)
    start = st.at_setup_end if st.at_setup_end is not None else final
    return {name: (vals if start.get(name) == vals else None) for name, vals in final.items()}


# ---------------------------------------------------------------- the rules that can fire
def universe(game) -> list:
    """Every countable rule as (kind, name, counter key), in a fixed order: actions, game triggers, procedures
    (calls), card Instant abilities, card Ongoing abilities, card Static abilities (counted as 'in play at the
    end')."""
    rows = [("action", name, ("action", name)) for name in game.actions]
    labels = Counter(t.label for t in game.trigger_defs)
    for t in game.trigger_defs:
        if t.source is None:
            rows.append(("trigger", t.label if labels[t.label] == 1 else t.describe(), ("trigger", t.index)))
    rows += [("procedure", name, ("code", code)) for name, code in game.procedures.items()]
    instants = sorted({game.card_defs[d].name for d in game.instants})
    rows += [("instant", name, ("instant", name)) for name in instants]
    for t in game.trigger_defs:
        if t.source is not None:
            rows.append(("ongoing", t.label if labels[t.label] == 1 else t.describe(), ("trigger", t.index)))
    rows += [("static", name, ("static", name)) for name in static_cards(game)]
    return rows


def static_cards(game) -> list:
    return sorted({game.card_defs[d].name for p in game.params for d, _, _, _ in p.statics})


def count_statics(st) -> Counter:
    """Cards with a Static ability that are in play (in a zone their kind is active in) at the end."""
    out = Counter()
    game = st.game
    for name in static_cards(game):
        for d in game.defs_named[name]:
            kind = game.card_defs[d].kind
            if any(st.where[c] in st.lay.active[kind] for c in st.ids.instances[d]):
                out["static", name] = 1
    return out


def taken_by_seat(st) -> list:
    """Per player, [[action name, times started], …] in the game's order of actions (those started at least once)."""
    return [[[name, st.taken[p, name]] for name in st.game.actions if st.taken[p, name]] for p in st.seats]


def coverage_counts(st, rows: list) -> list:
    """The count of every row of `universe` in the finished game `st`."""
    counts = st.counts + count_statics(st)
    return [st.pushes[key[1]] if key[0] == "code" else counts.get(key, 0) for _, _, key in rows]


# ---------------------------------------------------------------- ablation
def ablatable(game) -> dict:
    """{name: kinds} of everything `ablate` can switch off (a name may be both an action and a trigger)."""
    out: dict = {}
    for name in game.actions:
        out.setdefault(name, set()).add("action")
    cards = {game.card_defs[d].name for d in game.instants}
    cards |= {game.card_defs[t.source].name for t in game.trigger_defs if t.source is not None}
    for name in sorted(cards | set(static_cards(game))):
        out.setdefault(name, set()).add("card")
    for t in game.trigger_defs:
        if t.name is not None:
            out.setdefault(t.name, set()).add("trigger")
    return out


def ablate(game, name: str):
    """A fresh copy of `game` (compiled again from its checked symbols) with `name` switched off."""
    names = ablatable(game)
    if name not in names:
        hint = did_you_mean(name, names)
        listed = {k: ", ".join(n for n, ks in names.items() if k in ks) or "none" for k in ("action", "trigger")}
        raise WishError(f"--ablate '{name}': {game.name} has no action, named trigger or card ability of that name"
                        + (f" ({hint})" if hint else "")
                        + f"; actions: {listed['action']}; named triggers: {listed['trigger']}")
    g = type(game)(game.program, game.decls, game.sym, game.variant, game.allow)
    kinds = names[name]
    if "action" in kinds:
        g.actions[name].switch_off(f"{name} is {OFF_REASON}")
    if "trigger" in kinds:
        off = {t.index for t in g.trigger_defs if t.name == name}
        g.triggers = {k: [t for t in ts if t.index not in off] for k, ts in g.triggers.items()}
    if "card" in kinds:
        defs = set(g.defs_named[name])
        g.instants = {d: code for d, code in g.instants.items() if d not in defs}
        g.triggers = {k: [t for t in ts if t.source not in defs] for k, ts in g.triggers.items()}
        for p in g.params:
            p.statics = [s for s in p.statics if s[0] not in defs]
    g.fingerprint += f"/ablate:{name}"
    g.title += f" without {name}"
    return g


__all__ = ["CountingState", "ablatable", "ablate", "coverage_counts", "stable_roles", "taken_by_seat", "universe"]
