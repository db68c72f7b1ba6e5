"""Engine invariants of amounts, and the context a runtime error gets: which named rules were running."""
from __future__ import annotations

import sys

import attrs

from dsl.errors import WishRuntimeError

from .frames import MODULE_NAME


def broken_amounts(st) -> list:
    """No variable below its minimum, no negative amount in a bag, no zone over its limit."""
    g, out = st.game, []
    for i in _watched(g.gvars):
        _check_amount(g.gvars[i], lambda: "", st.gvars[i], out)
    pvars = _watched(g.pvars)
    for p in st.seats:
        row = st.pvars[p]
        for i in pvars:
            _check_amount(g.pvars[i], lambda: f"{st.player_name(p)} ", row[i], out)
    for i in _watched(g.kvars):
        for k, v in enumerate(st.kvars[i]):
            _check_amount(g.kvars[i], lambda: f"[{k}] ", v, out)
    for slot, limit in enumerate(st.lay.slot_limit):
        if limit is not None and len(st.zones[slot]) > limit(st, {}):
            out.append(f"{st.lay.slot_names[slot]} holds {len(st.zones[slot])} cards, over its limit")
    return out


def _watched(infos) -> list:
    """The variables an amount check looks at: those with a minimum, and bags."""
    return [i for i, info in enumerate(infos) if info.minimum is not None or info.ty.kind == "bag"]


def _check_amount(info, owner, value, out: list) -> None:
    """`owner()` names whose variable it is, written only for a broken one."""
    if info.minimum is not None and isinstance(value, int) and value < info.minimum:
        out.append(f"{owner()}{info.name} is {value}, below its minimum {info.minimum}")
    if info.ty.kind == "bag" and isinstance(value, tuple) and any(x < 0 for x in value):
        out.append(f"{owner()}{info.name} holds a negative amount")


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
    frame = sys._getframe(1)
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
