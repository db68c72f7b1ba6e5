"""What each player may see: labels of options, log lines with hidden cards masked, and `view(player)`.

A card's identity reaches a player only through `state.known` (the players who know each card instance),
which the engine keeps up to date on every move, peek, reveal, turn and shuffle. Everything here reads
identities through `knows`, so a view cannot carry a card its player does not know.
"""
from __future__ import annotations

import re

from typing import Optional


PUBLIC = -1  # the onlooker (a web table's spectator): knows a card only when every player knows it


def knows(st, card: int, player: Optional[int]) -> bool:
    """Does `player` know this card? None is the omniscient reader of the full log, PUBLIC the onlooker."""
    return known_by(st.known[card], player, st.all_mask)


def known_by(mask: int, player: Optional[int], everyone: int) -> bool:
    """Is a card whose knowers are `mask` known to `player` (None: everything; PUBLIC: only what everyone
    in `everyone` knows)?"""
    if player is None:
        return True
    if player < 0:
        return mask & everyone == everyone
    return bool((mask >> player) & 1)


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
        return st.card_name(value) if knows(st, value, viewer) else "a card"
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
            return '"' + st.card_name(value) + '"'
        return card_position(st, value)
    if kind == "enum":
        return str(value)
    if kind in ("list", "set"):
        return "[" + ", ".join(label_of(st, v, ty.elem, who) for v in value) + "]"
    return render(st, value, ty, who)


class Unseen(tuple):
    """The key of a card its decider does not know: (zone slot, position), as its label says `card 2 of …`."""

    __slots__ = ()


def option_key(st, value, ty, who: int):
    """The structured twin of `label_of`: equal for two values exactly when their labels are. A card `who`
    knows is its name, one it does not know an `Unseen` (slot, position); lists are tuples of keys."""
    kind = ty.kind if ty is not None else "any"
    if kind == "card":
        if knows(st, value, who):
            return st.card_name(value)
        slot = st.where[value]
        return Unseen((slot, st.zones[slot].index(value)))
    if kind in ("list", "set"):
        return tuple([option_key(st, v, ty.elem, who) for v in value])
    return value


def numbered(keys: tuple) -> tuple:
    """Keys made unique as labels are: the k-th repeat of a key becomes (key, "#", k)."""
    if len(set(keys)) == len(keys):
        return keys
    seen: dict = {}
    out = []
    for k in keys:
        n = seen[k] = seen.get(k, 0) + 1
        out.append(k if n == 1 else (k, "#", n))
    return tuple(out)


def option_keys(st, values: tuple, ty, who: int, verb: str, skip=None) -> tuple:
    """The keys of a choice's options, as its labels read: (verb, `option_key`), a text alone; the `optional`
    option is ("#skip", its label)."""
    text = ty is not None and ty.kind == "text"
    return numbered(tuple([("#skip", skip) if v is None and skip is not None
                           else option_key(st, v, ty, who) if text else (verb, option_key(st, v, ty, who))
                           for v in values]))


def option_labels(st, values: tuple, ty, who: int, verb: str, skip=None) -> tuple:
    labels = []
    seen: dict = {}
    for v in values:
        if v is None and skip is not None:
            labels.append(skip)
            continue
        lbl = label_of(st, v, ty, who)
        if ty is None or ty.kind != "text":
            lbl = f"{verb} {lbl}"
        k = seen.get(lbl, 0) + 1
        seen[lbl] = k
        labels.append(lbl if k == 1 else f"{lbl} ({k})")
    return tuple(labels)


def card_ref(st, c: int, quoted: bool, fallback: str) -> tuple:
    """A log part naming card `c` to the players who know it now, `fallback` to the others."""
    return ("card", c, st.known[c], fallback, quoted)


def log_parts(st, value, ty) -> list:
    """Log parts of a value: cards become references, anything else its text."""
    if ty is not None and value is not None:
        if ty.kind == "card":
            return [card_ref(st, value, False, "a card")]
        if ty.kind in ("list", "set") and ty.elem is not None and ty.elem.kind == "card":
            return [("cards", tuple(value), tuple(st.known[c] for c in value))]
    return [render(st, value, ty)]


def joined(chunks: list, sep: str) -> list:
    """Lists of log parts, one after the other with `sep` between them."""
    out: list = []
    for i, chunk in enumerate(chunks):
        out += ([sep] if i else []) + chunk
    return out


def card_view(st, c: int, player: int) -> dict:
    """A card as `player` sees it: its name and facing, or hidden."""
    if knows(st, c, player):
        return {"name": st.card_name(c), "face_up": st.face[c]}
    return {"hidden": True}


def announcements(st) -> list:
    """The values announced so far, with their types (observations of choices are not announcements)."""
    points = st.game.points
    out = []
    for _, point, v, _ in st.observations:
        p = points[point]
        if p.announces:
            out.append((v, p.ty))
    return out


def view(st, player: int, log_from: int = 0) -> dict:
    """Everything `player` may know now, as JSON-ready data. No generator state, no stack, no hidden card.
    `log` holds the log's lines from `log_from` on."""
    g = st.game
    zones = []
    for slot, cards in enumerate(st.zones):
        zones.append({
            "zone": st.lay.slot_names[slot],
            "owner": st.lay.slot_owner[slot],
            "cards": [card_view(st, c, player) for c in cards],
        })
    d = st.decision
    decision = None
    if d is not None:
        decision = {"prompt": d.prompt, "waiting_for": [p for p in d.players if p not in d.answers]}
        if player in d.players and player not in d.answers:
            decision["options"] = list(st.labels(d)[d.players.index(player)])
        if player in d.answers:
            i = d.players.index(player)
            decision["answered"] = st.labels(d)[i][d.values[i].index(d.answers[player])]
    return {
        "game": g.title,
        "player": player,
        "players": st.n,
        "vars": {v.name: _plain(st, st.gvars[i], v.ty, player) for i, v in enumerate(g.gvars)},
        "player_vars": [
            {v.name: _plain(st, st.pvars[p][i], v.ty, player) for i, v in enumerate(g.pvars)} for p in st.seats
        ],
        "keyed_vars": {
            v.name: {st.render(k, v.key_type): _plain(st, st.kvars[i][j], v.ty, player)
                     for j, k in enumerate(v.key_values(st))}
            for i, v in enumerate(g.kvars)
        },
        "zones": zones,
        "decision": decision,
        "announcements": [st.render(v, ty) for v, ty in announcements(st)],
        "log": st.log_lines(player, log_from),
        "over": st.over,
        "scores": st.scores() if st.over else None,
        "winners": st.winners() if st.over else None,
    }


def _plain(st, value, ty, player):
    if ty.kind in ("int", "bool", "text") or value is None:
        return value
    return render(st, value, ty, player)


# ---------------------------------------------------------------- options as a person reads them
WORD_OR_QUOTE = re.compile(r'"[^"]*"|[A-Za-z_][A-Za-z0-9_]*')
SLOT = re.compile(r"\{(\w+)('s)?\}")


def display_text(game, text: str) -> str:
    """A label read with the game's display names: enum members by theirs (`palm_tree` → "Palm tree"), other
    names with spaces for underscores (`end_turn` → "end turn"); quoted card names as they are."""
    shown = game.member_display

    def one(m: re.Match) -> str:
        w = m.group(0)
        if w[0] == '"':
            return w
        d = shown.get(w)
        return d if d and d != w else w.replace("_", " ")
    return WORD_OR_QUOTE.sub(one, text)


def option_texts(st, d, i: int) -> tuple:
    """The options of player `d.players[i]` in decision `d` as a person reads them: an action with a `@reads`
    phrase by that phrase, its slots filled with its parameters ("Travel to Dark Temple (column 2)"); any
    other option by its label with display names. A repeated option keeps its label's number ("… (2)")."""
    game, who = st.game, d.players[i]
    labels = st.labels(d)[i]
    if d.kinds != "act":
        return tuple(display_text(game, label) for label in labels)
    out = []
    for (name, values), label in zip(d.values[i], labels):
        a = game.actions[name]
        if a.reads is None:
            out.append(display_text(game, label))
            continue
        suffix = label[len(st.action_label(a, values, who)):]
        parts = {n: display_text(game, label_of(st, v, t, who)).strip('"')
                 for n, v, t in zip(a.param_names, values, a.param_types)}
        text = SLOT.sub(lambda m: parts[m.group(1)] + ("'s" if m.group(2) else ""), a.reads)
        out.append(text[:1].upper() + text[1:] + suffix)
    return tuple(out)
