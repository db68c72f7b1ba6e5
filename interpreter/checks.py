"""Engine invariants of amounts, and the context a runtime error gets: which named rules were running."""
from __future__ import annotations

import sys
import weakref

import attrs

from dsl.errors import WishRuntimeError

from .frames import MODULE_NAME


def broken_amounts(st) -> list:
    """No variable below its minimum, no negative amount in a bag, no zone over its limit. A first pass only
    compares (it runs after every decision of the playout tests); messages are written for what is broken."""
    g = st.game
    gw, pw, kw = _watched(g)
    gvars, pvars, kvars = st.gvars, st.pvars, st.kvars
    seats = st.seats
    bad = (any(_below(m, bag, (gvars[i],)) for i, m, bag in gw)
           or any(_below(m, bag, [pvars[p][i] for p in seats]) for i, m, bag in pw)
           or any(_below(m, bag, kvars[i]) for i, m, bag in kw))
    out: list = []
    if bad:
        for i, _, _ in gw:
            _check_amount(g.gvars[i], "", gvars[i], out)
        for p in seats:
            for i, _, _ in pw:
                _check_amount(g.pvars[i], f"{st.player_name(p)} ", pvars[p][i], out)
        for i, _, _ in kw:
            for k, v in enumerate(kvars[i]):
                _check_amount(g.kvars[i], f"[{k}] ", v, out)
    lay, zones = st.lay, st.zones
    for slot, limit in enumerate(lay.slot_limit):
        if limit is not None and len(zones[slot]) > limit(st, {}):
            out.append(f"{lay.slot_names[slot]} holds {len(zones[slot])} cards, over its limit")
    return out


_WATCHED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _watched(game) -> tuple:
    """Per kind of variable (shared, per player, keyed), those an amount check looks at — with a minimum, or
    bags — as (index, minimum, is a bag); worked out once per game."""
    w = _WATCHED.get(game)
    if w is None:
        w = _WATCHED[game] = tuple(
            tuple((i, info.minimum, info.ty.kind == "bag") for i, info in enumerate(infos)
                  if info.minimum is not None or info.ty.kind == "bag")
            for infos in (game.gvars, game.pvars, game.kvars))
    return w


def _below(minimum, bag: bool, values) -> bool:
    """Is one of these values of a variable below its minimum, or a bag with a negative amount?"""
    for v in values:
        if minimum is not None and isinstance(v, int) and v < minimum:
            return True
        if bag and isinstance(v, tuple) and v and min(v) < 0:
            return True
    return False


def _check_amount(info, owner: str, value, out: list) -> None:
    """The messages for a broken value, by the tests of `_below`."""
    if _below(info.minimum, False, (value,)):
        out.append(f"{owner}{info.name} is {value}, below its minimum {info.minimum}")
    if _below(None, info.ty.kind == "bag", (value,)):
        out.append(f"{owner}{info.name} holds a negative amount")


def rule_path(st, most: int = 6) -> str:
    """The named rules running now, outermost first: `play → action travel → procedure spin` — those on the
    effect stack, then the procedures called directly that are running (read from Python's own frames, only
    when an error is reported, so the rules pay nothing for it)."""
    names = []
    for code in [f.code for f in st.stack] + direct_calls():
        name = st.game.block_names[code]
        if name and name not in names:
            names.append(name)
    if len(names) > most:
        names = names[:1] + ["…"] + names[-(most - 1):]
    return " → ".join(names)


def direct_calls() -> list:
    """The code numbers of the generated procedures (`pN`) on Python's call stack now, outermost first."""
    out = []
    frame = sys._getframe(0)  # the innermost Python frame on: a compiled function has none
    while frame is not None:
        code = frame.f_code
        if code.co_filename == MODULE_NAME and code.co_name[:1] == "p" and code.co_name[1:].isdigit():
            out.append(int(code.co_name[1:]))
        frame = frame.f_back
    return out[::-1]


def in_context(st, err: WishRuntimeError) -> WishRuntimeError:
    """Add to a runtime error's diagnostic a hint naming the rules that were running."""
    path = rule_path(st)
    if path and err.diagnostics and err.diagnostics[0].hint is None:
        err.diagnostics[0] = attrs.evolve(err.diagnostics[0], hint=f"while running: {path}")
    return err
