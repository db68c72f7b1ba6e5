"""Scenario values: YAML values read by type, "player N" keys, and the fixtures `given`, `set` and `arrange`.

Every problem raises ScenarioError with a message a game author can act on (did-you-mean included).
"""
from __future__ import annotations

import re

from dsl.errors import ScenarioError, did_you_mean

PLAYER_KEY = re.compile(r"^player\s+(\d+)$")


def fail(message: str):
    raise ScenarioError(message)


def hinted(message: str, name: str, names) -> str:
    hint = did_you_mean(str(name), [str(n) for n in names])
    return f"{message} ({hint})" if hint else message


def is_player_key(key) -> bool:
    return isinstance(key, str) and PLAYER_KEY.match(key.strip()) is not None


def seat_of(st, text, what: str) -> int:
    """'player 2' → seat 1."""
    m = PLAYER_KEY.match(text.strip()) if isinstance(text, str) else None
    if m is None:
        fail(f"{what}: {text!r} is not a player; write \"player N\"")
    n = int(m.group(1))
    if not 1 <= n <= st.n:
        fail(f"{what}: there is no {text} in a {st.n}-player game")
    return n - 1


def text_of(value, what: str) -> str:
    """A string, or an int written without quotes; YAML's yes/no/on/off get a hint."""
    if isinstance(value, bool):
        fail(f"{what}: YAML read {value!r} as true/false; put the word in quotes, e.g. \"Yes\"")
    if isinstance(value, (int, float)):
        return str(value)
    if not isinstance(value, str):
        fail(f"{what}: expected a text, got {value!r}")
    return value


def texts_of(value, what: str) -> list:
    if not isinstance(value, list):
        fail(f"{what}: expected a list, got {value!r}")
    return [text_of(v, what) for v in value]


def int_of(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(f"{what}: expected a whole number, got {value!r}")
    return value


def mapping_of(value, what: str) -> dict:
    if not isinstance(value, dict):
        fail(f"{what}: expected a mapping (key: value), got {value!r}")
    return value


def member_of(g, value, enum: str, what: str) -> str:
    """An enum member by its name or its display name."""
    members = g.enum_members.get(enum, ())
    text = text_of(value, what)
    if text in members:
        return text
    for m in members:
        if g.member_display.get(m) == text:
            return m
    fail(hinted(f"{what}: {text!r} is not a {enum}; one of: {', '.join(members)}", text, members))


def card_ids(st, name, what: str) -> list:
    """Every card instance with this name."""
    g = st.game
    name = text_of(name, what)
    defs = g.defs_named.get(name)
    if not defs:
        fail(hinted(f"{what}: there is no card named {name!r}", name, g.defs_named))
    return [c for d in defs for c in st.ids.instances[d]]


def convert(st, value, ty, what: str):
    """A YAML value as the engine holds a value of type `ty`."""
    g = st.game
    kind = ty.kind
    if value is None or kind == "none":
        if value is None and (ty.optional or kind == "none"):
            return None
        fail(f"{what}: expected a {ty}, got {value!r}")
    if kind == "int":
        return int_of(value, what)
    if kind == "bool":
        if not isinstance(value, bool):
            fail(f"{what}: expected true or false, got {value!r}")
        return value
    if kind == "text":
        return text_of(value, what)
    if kind == "player":
        return seat_of(st, value, what)
    if kind == "enum":
        return member_of(g, value, ty.name, what)
    if kind == "card":
        return card_ids(st, value, what)[0]
    if kind in ("list", "set"):
        if not isinstance(value, list):
            fail(f"{what}: expected a list, got {value!r}")
        items = [convert(st, v, ty.elem, what) for v in value]
        if kind == "set":
            key = g.member_order.__getitem__ if ty.elem.kind == "enum" else None
            items = sorted(set(items), key=key)
        return tuple(items)
    if kind == "bag":
        return bag_of(g, value, ty, what)
    fail(f"{what}: values of type {ty} cannot be written in a scenario")


def bag_of(g, value, ty, what: str, partial: bool = False):
    """{member: count} → counts in member order (missing members count 0), or a dict when `partial`."""
    mapping_of(value, what)
    members = g.enum_members.get(ty.elem.name, ())
    counts = {member_of(g, k, ty.elem.name, what): int_of(v, f"{what} {k}") for k, v in value.items()}
    if partial:
        return counts
    return tuple(counts.get(m, 0) for m in members)


def place_of(st, name, seat, what: str):
    """('var', index, VarInfo) or ('zone', slot) for a shared name (seat None) or a player's name."""
    g = st.game
    name = text_of(name, what)
    vars_, zones = (g.gvar_index, g.zone_base) if seat is None else (g.pvar_index, g.pzone_index)
    if name in vars_:
        i = vars_[name]
        return ("var", i, (g.gvars if seat is None else g.pvars)[i])
    if name in zones:
        return ("zone", zones[name] if seat is None else st.pzone_slot(zones[name], seat))
    if seat is None and name in g.kvar_index:
        i = g.kvar_index[name]
        return ("kvar", i, g.kvars[i])
    if seat is None and (name in g.pvar_index or name in g.pzone_index):
        fail(f"{what}: {name!r} belongs to each player; write it under \"player N\": {{{name}: …}}")
    if seat is not None and (name in g.gvar_index or name in g.zone_base):
        fail(f"{what}: {name!r} is shared, not a player's; write it at the top level")
    known = list(vars_) + list(zones) + (list(g.kvar_index) if seat is None else [])
    fail(hinted(f"{what}: {name!r} is not a {'shared' if seat is None else 'player'} variable or zone", name, known))


def read_var(st, place, seat):
    _, i, _ = place
    return st.gvars[i] if seat is None else st.pvars[seat][i]


def keyed_entries(st, place, value, what: str):
    """(key index, key text, value) of a keyed variable's entries written as {key: value}."""
    _, i, info = place
    out = []
    for key, v in mapping_of(value, what).items():
        k = seat_of(st, key, what) if info.key_type.kind == "player" else convert(st, key, info.key_type, what)
        out.append((info.key_index(st.game, k), key, v))
    return out


def write_keyed(st, place, value, what: str) -> None:
    """Write entries of a keyed variable directly (a fixture: no event, no log)."""
    _, i, info = place
    for at, key, v in keyed_entries(st, place, value, what):
        st.kvars[i][at] = convert(st, v, info.ty, f"{what} {key}")


def write_var(st, place, seat, value, what: str) -> None:
    """Write a variable directly: a fixture, so no event, no log."""
    _, i, info = place
    v = convert(st, value, info.ty, what)
    if info.minimum is not None and v is not None and v < info.minimum:
        fail(f"{what}: {v} is below the minimum {info.minimum} of '{info.name}'")
    if seat is None:
        st.gvars[i] = v
    else:
        st.pvars[seat][i] = v


def arrange(st, slot: int, names, what: str) -> None:
    """Put cards with these names on top of `slot`, in this order; the rest keep their order below."""
    if not isinstance(names, list):
        fail(f"{what}: expected a list of card names, got {names!r}")
    zone = st.zones[slot]
    placed: list = []
    for name in names:
        ids = set(card_ids(st, name, what))
        taken = set(placed)
        here = [c for c in zone if c in ids and c not in taken]
        other = sorted(c for c in ids if st.where[c] != slot and c not in taken)
        if not here and not other:
            fail(f"{what}: no more {name!r} cards to place (the game has {len(ids)})")
        placed.append(here[0] if here else other[0])
    incoming = [c for c in placed if st.where[c] != slot]
    for c in incoming:
        st.zones[st.where[c]].remove(c)
    taken = set(placed)
    zone[:] = placed + [c for c in zone if c not in taken]
    for c in incoming:
        st._enter(c, slot)


def apply_fixture(st, data, what: str, allow_vars: bool = True, allow_zones: bool = True) -> None:
    """`given` (variables and zones), `set` (variables only) or `arrange` (zones only)."""
    for key, value in mapping_of(data, what).items():
        if is_player_key(key):
            seat = seat_of(st, key, what)
            for name, v in mapping_of(value, f"{what} {key}").items():
                _apply_one(st, name, seat, v, f"{what} {key} {name}", allow_vars, allow_zones)
        else:
            _apply_one(st, key, None, value, f"{what} {key}", allow_vars, allow_zones)


def _apply_one(st, name, seat, value, what, allow_vars, allow_zones) -> None:
    place = place_of(st, name, seat, what)
    if place[0] == "kvar":
        if not allow_vars:
            fail(f"{what}: '{name}' is a variable; use `set` to change variables")
        write_keyed(st, place, value, what)
        return
    if place[0] == "var":
        if not allow_vars:
            fail(f"{what}: '{name}' is a variable; use `set` to change variables")
        write_var(st, place, seat, value, what)
    else:
        if not allow_zones:
            fail(f"{what}: '{name}' is a zone; use `arrange` to place cards")
        arrange(st, place[1], value, what)
