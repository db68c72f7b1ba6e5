"""The game log: recorded as compact entries while the rules run, written out as text only when someone reads
it, and then as that reader may read it (cards they did not know when the line was written read "a card").

An entry is a tuple whose first item is its `Entry` kind; the rest is plain data (ints, strs, None, tuples),
so the log is saved and cloned as it is. What a line says about cards depends on who knew them at the time:
entries that name cards keep each card's knowledge mask (`known`) from the moment they were written.
"""
from __future__ import annotations

import enum
from typing import Optional

from dsl.types import holds_cards as has_card_refs  # a value of this type is written with card references

from . import views


class Entry(enum.IntEnum):
    """The kinds of log entries, and what follows the kind in the tuple."""

    TEXT = 0  # text
    PARTS = 1  # parts: texts and card references (see `render_part`)
    MOVE = 2  # cards, masks, source slot (-1: several places), destination slot
    PEEK = 3  # cards, masks, who looked
    REVEAL = 4  # cards, masks
    TURN = 5  # cards, masks, face up?
    SWAP = 6  # cards, masks
    SHUFFLE = 7  # slot
    VAR = 8  # group (0 shared, 1 per player, 2 keyed), index, key, old value, new value (no card references)
    CHOICE = 9  # who, the value as written (`frozen`), decision point
    ACTION = 10  # who, action name, parameter values as written (`frozen`)
    SAY = 11  # values of a `log` statement, its point (no card references)
    ANNOUNCE = 12  # the value of an `announce` statement, its point (written as everyone reads it)
    SCORES = 13  # the end of the game: each player's score, in seat order
    WINNERS = 14  # the winners (none: nobody wins)


# The kinds as module constants: reading a member off its enum class costs ten times a global's lookup.
TEXT, PARTS, MOVE, PEEK, REVEAL, TURN, SWAP, SHUFFLE, VAR, CHOICE, ACTION, SAY, ANNOUNCE, SCORES, WINNERS = Entry
KIND_NAMES = tuple(kind.name.lower() for kind in Entry)  # "move", "var" …: a view names each line's kind


NOTHING = object()  # `cards` without an item after the masks
SHUFFLED = "{} is shuffled"  # the line of a shuffle (agents use `state.shuffles`, not this line)
LOGGED_KINDS = ("int", "bag", "player", "enum")  # changes of these are logged unless the var is @quiet


def logged(v, ty) -> bool:
    """Are the changes of variable `v` (a declaration, of type `ty`) written in the log?"""
    names = {a.name for a in v.annots}
    return "logged" in names or ("quiet" not in names and ty.kind in LOGGED_KINDS and not ty.optional)


# ---------------------------------------------------------------- writing
def cards(st, kind: Entry, cards: tuple, extra=NOTHING) -> None:
    """An entry about `cards`, with who knows each of them now, and `extra` (who peeked, the facing) after them
    when the kind has one."""
    known = st.known
    masks = tuple([known[c] for c in cards])
    st.log.append((kind, cards, masks) if extra is NOTHING else (kind, cards, masks, extra))


def var_change(st, v, group: int, index: int, key, old, new) -> None:
    if v.card_refs:
        owner = _owner_text(st, v, key)
        st.write_parts([f"{owner}{v.name}: ", *views.log_parts(st, old, v.ty), " → ",
                        *views.log_parts(st, new, v.ty)])
    else:
        st.log.append((VAR, group, index, key, old, new))


def frozen(st, value, ty):
    """A value as an option's label shows it, kept for the log: a card as (id, who knows it now, and when
    someone does not, where it lies: slot and position; else -1, -1), a list of cards as a tuple of those;
    any other value as it is (its label does not change)."""
    if ty is None or value is None:
        return value
    if ty.kind == "card":
        mask = st.known[value]
        if mask == st.all_mask:
            return (value, mask, -1, -1)
        slot = st.where[value]
        return (value, mask, slot, st.zones[slot].index(value))
    if ty.kind in ("list", "set") and ty.elem is not None and ty.elem.kind == "card":
        return tuple([frozen(st, c, ty.elem) for c in value])
    return value


def choice(st, who: int, value, point) -> None:
    if point.card_refs:
        value = frozen(st, value, point.elem)
    st.log.append((CHOICE, who, value, point.index))


def action(st, who: int, a, values: tuple) -> None:
    if a.cards:
        values = tuple([frozen(st, v, t) for v, t in zip(values, a.param_types)])
    st.log.append((ACTION, who, a.name, values))


def announce(st, value, point) -> None:
    """An `announce` statement's line: everyone hears the value, so it reads the same to every reader."""
    st.log.append((ANNOUNCE, value, point.index))


def say(st, values: tuple, point) -> None:
    """A `log` statement."""
    if any(has_card_refs(t) for t in point.types):
        st.write_parts(views.joined([views.log_parts(st, v, ty) for v, ty in zip(values, point.types)], " "))
    else:
        st.log.append((SAY, values, point.index))


# ---------------------------------------------------------------- reading
def render(st, e: tuple, reader: Optional[int]) -> str:
    """The text of entry `e` as `reader` may read it (None: everything; views.PUBLIC: the onlooker)."""
    return RENDER[e[0]](st, e, reader)


def names(st, cards: tuple, masks: tuple, reader) -> str:
    """Card names for a reader: those it knew by name, "a card" for the others, "N cards" if it knew none."""
    seen = [views.known_by(m, reader, st.all_mask) for m in masks]
    if not any(seen):
        return "1 card" if len(cards) == 1 else f"{len(cards)} cards"
    return ", ".join(st.card_name(c) if k else "a card" for c, k in zip(cards, seen))


def render_part(st, part, reader) -> str:
    """A part of a PARTS entry: a text, or a card reference `("card", id, mask, fallback, quoted)` (the name for
    a reader among `mask` when the line was written, else `fallback`), or `("cards", ids, masks)`."""
    if isinstance(part, str):
        return part
    if part[0] == "card":
        _, c, mask, fallback, quoted = part
        if not views.known_by(mask, reader, st.all_mask):
            return fallback
        return f'"{st.card_name(c)}"' if quoted else st.card_name(c)
    return names(st, part[1], part[2], reader)


def _move(st, e, reader) -> str:
    _, cs, masks, src, dst = e
    slots = st.lay.slot_names
    return (f"{names(st, cs, masks, reader)} move{'s' if len(cs) == 1 else ''} from "
            f"{slots[src] if src >= 0 else 'several places'} to {slots[dst]}")


def _var(st, e, reader) -> str:
    _, group, index, key, old, new = e
    v = (st.game.gvars, st.game.pvars, st.game.kvars)[group][index]
    return f"{_owner_text(st, v, key)}{v.name}: {views.render(st, old, v.ty)} → {views.render(st, new, v.ty)}"


def _owner_text(st, v, key) -> str:
    if key is None:
        return ""
    if v.key_type is not None:
        return f"{views.render(st, key, v.key_type)} "
    return f"{st.player_name(key)} "


def label(st, value, ty, reader) -> str:
    """The label of a `frozen` value, as `reader` may read it: a card it knew by its quoted name, else where
    the card lay when the line was written."""
    if value is not None and has_card_refs(ty):
        if ty.kind == "card":
            c, mask, slot, pos = value
            if views.known_by(mask, reader, st.all_mask):
                return f'"{st.card_name(c)}"'
            return f"card {pos + 1} of {st.lay.slot_names[slot]}"
        return "[" + ", ".join(label(st, v, ty.elem, reader) for v in value) + "]"
    return views.label_of(st, value, ty, None)


def _choice(st, e, reader) -> str:
    _, who, value, index = e
    point = st.game.points[index]
    if value is None and point.skip is not None:
        return f"{st.player_name(who)}: {point.skip}"
    if point.elem is not None and point.elem.kind == "text":
        return f"{st.player_name(who)}: {value}"
    return f"{st.player_name(who)}: {point.verb} {label(st, value, point.elem, reader)}"


def _action(st, e, reader) -> str:
    _, who, name, values = e
    a = st.game.actions[name]
    params = ", ".join(label(st, v, t, reader) for v, t in zip(values, a.param_types))
    return f"{st.player_name(who)}: {name}" + (f" {params}" if values else "")


def _say(st, e, reader) -> str:
    _, values, index = e
    return " ".join(views.render(st, v, t) for v, t in zip(values, st.game.points[index].types))


def _scores(st, e, reader) -> str:
    return "Game over. Scores: " + ", ".join(f"{st.player_name(p)} {score}" for p, score in enumerate(e[1])) + "."


def _winners(st, e, reader) -> str:
    if not e[1]:
        return "Nobody wins."
    return "Winner: " + " and ".join(st.player_name(p) for p in e[1]) + "."


def _announce(st, e, reader) -> str:
    _, value, index = e
    return f"Announcement: {views.render(st, value, st.game.points[index].ty)}"


RENDER = {
    Entry.TEXT: lambda st, e, reader: e[1],
    Entry.PARTS: lambda st, e, reader: "".join(render_part(st, p, reader) for p in e[1]),
    Entry.MOVE: _move,
    Entry.PEEK: lambda st, e, reader: f"{st.player_name(e[3])} looks at {names(st, e[1], e[2], reader)}",
    Entry.REVEAL: lambda st, e, reader: f"revealed: {names(st, e[1], e[2], reader)}",
    Entry.TURN: lambda st, e, reader: f"{names(st, e[1], e[2], reader)} turned face {'up' if e[3] else 'down'}",
    Entry.SWAP: lambda st, e, reader: f"{names(st, e[1], e[2], reader)} swap places",
    Entry.SHUFFLE: lambda st, e, reader: SHUFFLED.format(st.lay.slot_names[e[1]]),
    Entry.VAR: _var,
    Entry.CHOICE: _choice,
    Entry.ACTION: _action,
    Entry.SAY: _say,
    Entry.ANNOUNCE: _announce,
    Entry.SCORES: _scores,
    Entry.WINNERS: _winners,
}
