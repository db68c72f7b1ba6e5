"""What each player may see: labels of options, log lines with hidden cards masked, and `view(player)`.

A card's identity reaches a player only through `state.known` (the players who know each card instance),
which the engine keeps up to date on every move, peek, reveal, turn and shuffle. Everything here reads
identities through `knows`, so a view cannot carry a card its player does not know.
"""
from __future__ import annotations

from typing import Optional


PUBLIC = -1  # as a viewer: someone who knows only what every player knows


def knows(st, card: int, player: Optional[int]) -> bool:
    """Does `player` know this card? None is the omniscient reader of the full log; PUBLIC knows what all know."""
    if player is None:
        return True
    if player == PUBLIC:
        return st.known[card] == st.all_mask
    return bool((st.known[card] >> player) & 1)


def card_position(st, card: int) -> str:
    slot = st.where[card]
    return f"card {st.zones[slot].index(card) + 1} of {st.lay.slot_names[slot]}"


def render(st, value, ty, viewer: Optional[int] = None) -> str:
    """Readable text of a value; cards the viewer does not know read as 'a card'."""
    if value is None:
        return "none"
    kind = ty.kind if ty is not None else "any"
    if kind == "player":
        return st.player_name(value)
    if kind == "enum":
        return st.game.member_display.get(value, str(value))
    if kind == "card":
        return st.game.card_name(value) if knows(st, value, viewer) else "a card"
    if kind == "zone":
        return st.lay.slot_names[value]
    if kind == "bag":
        members = st.game.enum_members.get(ty.elem.name, ())
        parts = [f"{k} {st.game.member_display.get(m, m)}" for m, k in zip(members, value) if k]
        return ", ".join(parts) if parts else "nothing"
    if kind in ("list", "set"):
        parts = [render(st, v, ty.elem, viewer) for v in value]
        return ", ".join(parts) if parts else "nothing"
    if kind == "bool":
        return "yes" if value else "no"
    return str(value)


def label_of(st, value, ty, who: int) -> str:
    """The stable label of one option value, as its decider sees it."""
    kind = ty.kind if ty is not None else "any"
    if kind == "card":
        if knows(st, value, who):
            return '"' + st.game.card_name(value) + '"'
        return card_position(st, value)
    if kind == "enum":
        return str(value)
    if kind in ("list", "set"):
        return "[" + ", ".join(label_of(st, v, ty.elem, who) for v in value) + "]"
    return render(st, value, ty, who)


def option_labels(st, values: tuple, ty, who: int, verb: str) -> tuple:
    labels = []
    seen: dict = {}
    for v in values:
        lbl = label_of(st, v, ty, who)
        if ty is None or ty.kind != "text":
            lbl = f"{verb} {lbl}"
        k = seen.get(lbl, 0) + 1
        seen[lbl] = k
        labels.append(lbl if k == 1 else f"{lbl} ({k})")
    return tuple(labels)


def _cards_in(value, ty):
    if ty is None or value is None:
        return []
    if ty.kind == "card":
        return [value]
    if ty.kind in ("list", "set") and ty.elem is not None and ty.elem.kind == "card":
        return list(value)
    return []


def log_values(st, parts) -> None:
    """A `log` statement: full text for players who know every card named, 'a card' for the others."""
    mask = st.all_mask
    for v, ty in parts:
        for c in _cards_in(v, ty):
            mask &= st.known[c]
    full = " ".join(render(st, v, ty) for v, ty in parts)
    if mask == st.all_mask:
        st.write_log(full)
        return
    masked = " ".join(render(st, v, ty, viewer=-1) if _cards_in(v, ty) else render(st, v, ty) for v, ty in parts)
    st.write_log(full, mask, masked.replace("a card", "a hidden card"))


def log_cards(st, cards, rest: str, pattern: str, only: Optional[int] = None) -> None:
    mask = st.all_mask
    for c in cards:
        mask &= st.known[c]
    if only is not None:
        mask &= only
    names = ", ".join(st.game.card_name(c) for c in cards)
    full = pattern.format(cards=names, rest=rest, s="s" if len(cards) == 1 else "")
    if mask == st.all_mask:
        st.write_log(full)
        return
    n = len(cards)
    masked = pattern.format(cards="1 card" if n == 1 else f"{n} cards", rest=rest, s="s" if n == 1 else "")
    st.write_log(full, mask, masked)


def log_label(st, who: int, label_for) -> None:
    """Log `player N: LABEL`: the decider reads the label as they saw it (card names they know, which a
    reader can type); everyone else reads the public form (positions of cards not known to all)."""
    mine, public = label_for(who), label_for(PUBLIC)
    name = st.player_name(who)
    if mine == public:
        st.write_log(f"{name}: {mine}")
    else:
        st.write_log(f"{name}: {mine}", 1 << who, f"{name}: {public}")


def log_choice(st, who: int, value, ty, verb: str) -> None:
    if ty is not None and ty.kind == "text":
        st.write_log(f"{st.player_name(who)}: {value}")
        return
    log_label(st, who, lambda viewer: f"{verb} {label_of(st, value, ty, viewer)}")


def _card_view(st, c: int, player: int) -> dict:
    if knows(st, c, player):
        return {"name": st.game.card_name(c), "face_up": st.face[c]}
    return {"hidden": True}


def view(st, player: int) -> dict:
    """Everything `player` may know now, as JSON-ready data. No generator state, no stack, no hidden card."""
    g = st.game
    zones = []
    for slot, cards in enumerate(st.zones):
        zones.append({
            "zone": st.lay.slot_names[slot],
            "owner": st.lay.slot_owner[slot],
            "cards": [_card_view(st, c, player) for c in cards],
        })
    d = st.decision
    decision = None
    if d is not None:
        decision = {"prompt": d.prompt, "waiting_for": [p for p in d.players if p not in d.answers]}
        if player in d.players and player not in d.answers:
            decision["options"] = list(d.labels[d.players.index(player)])
        if player in d.answers:
            i = d.players.index(player)
            decision["answered"] = d.labels[i][d.values[i].index(d.answers[player])]
    return {
        "game": g.title,
        "player": player,
        "players": st.n,
        "vars": {v.name: _plain(st, st.gvars[i], v.ty, player) for i, v in enumerate(g.gvars)},
        "player_vars": [
            {v.name: _plain(st, st.pvars[p][i], v.ty, player) for i, v in enumerate(g.pvars)} for p in st.seats
        ],
        "zones": zones,
        "decision": decision,
        "announcements": [st.render(v, g.codes[code].ops[op].ty) for _, code, op, v in st.observations],
        "log": st.log_lines(player),
        "over": st.over,
        "scores": st.scores() if st.over else None,
        "winners": st.winners() if st.over else None,
    }


def _plain(st, value, ty, player):
    if ty.kind in ("int", "bool", "text") or value is None:
        return value
    return render(st, value, ty, player)
