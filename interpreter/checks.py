"""Engine invariants of amounts, and the context a runtime error gets: which named rules were running."""
from __future__ import annotations

import sys

import attrs

from dsl.errors import WishRuntimeError

from .frames import MODULE_NAME


def broken_amounts(st) -> list:
    """No variable below its minimum, no negative amount in a bag, no zone over its limit."""
    g, out = st.game, []
    rows = [(g.gvars[i], "", v) for i, v in enumerate(st.gvars)]
    rows += [(g.pvars[i], f"{st.player_name(p)} ", v) for p in st.seats for i, v in enumerate(st.pvars[p])]
    rows += [(g.kvars[i], f"[{k}] ", v) for i, vs in enumerate(st.kvars) for k, v in enumerate(vs)]
    for info, owner, value in rows:
        if info.minimum is not None and isinstance(value, int) and value < info.minimum:
            out.append(f"{owner}{info.name} is {value}, below its minimum {info.minimum}")
        if info.ty.kind == "bag" and isinstance(value, tuple) and any(x < 0 for x in value):
            out.append(f"{owner}{info.name} holds a negative amount")
    for slot, limit in enumerate(st.lay.slot_limit):
        if limit is not None and len(st.zones[slot]) > limit(st, {}):
            out.append(f"{st.lay.slot_names[slot]} holds {len(st.zones[slot])} cards, over its limit")
    return out


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
