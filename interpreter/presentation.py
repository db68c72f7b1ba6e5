"""What a game's `table { … }` shows to one player (issue 19): plain data a terminal or a web page draws.

Everything is the player's view: a value item reads only what the checker allows a table to read (variables,
rule values, enum fields, the cards of zones everyone sees, how many cards a zone holds), and a zone item is
the zone as `views.view` gives it to that player, hidden cards as such. The data:

    {"boards": [{"doc": …, "rows": [[{"cell": "Sandhills", "items": [{"label": "people", "value": "2 purple"}, …],
                                      "zones": […]}, …], …]}],
     "panels": [{"doc": …, "players": [{"player": 0, "items": […], "zones": […]}, …]}],
     "shared": {"doc": …, "items": […], "zones": […]} or None,
     "score": [{"player": 0, "points": [{"label": …, "value": 12 or None}], "known": 12, "complete": False}, …]}

The score so far follows the game's own `score` steps; a step that reads what the looking player may not see is
None for them (their own Destiny is theirs to see, another player's is not).

A value that is empty (none, false, nothing, an empty list) is left out; a yes-or-no that holds shows its label.
"""
from __future__ import annotations

from . import views


def present(st, viewer: int) -> dict:
    g = st.game
    out: dict = {"boards": [], "panels": [], "shared": None}
    for form, var, cells, items, doc in g.presentation or ():
        if form == "board":
            members = cells(st, {})
            rows = [list(r) for r in members] if members and isinstance(members[0], (list, tuple)) else [list(members)]
            out["boards"].append({"doc": doc, "rows": [
                [dict(cell=g.member_display.get(m, m), **shown(st, {var: m}, items, viewer)) for m in row]
                for row in rows]})
        elif form == "panel":
            out["panels"].append({"doc": doc, "players": [
                dict(player=p, **shown(st, {var: p}, items, viewer)) for p in st.seats]})
        else:
            out["shared"] = dict(doc=doc, **shown(st, {}, items, viewer))
    if g.score_seen:
        out["score"] = [score_so_far(st, p, viewer) for p in st.seats]
    return out


def score_so_far(st, p: int, viewer: int) -> dict:
    """Player `p`'s points by the game's scoring steps as `viewer` may see them now: a step that reads what the
    viewer cannot see (another player's secret Destiny, cards nobody knows) is None."""
    g = st.game
    env = {g.scoring_var: p}
    steps = [(label, fn) for form, label, fn in g.scoring if form == "score"]
    points = []
    for (label, fn), seen in zip(steps, g.score_seen):
        visible = seen == "all" or (seen == "own" and p == viewer)
        points.append({"label": label, "value": fn(st, env) if visible else None})
    known = [x["value"] for x in points if x["value"] is not None]
    return {"player": p, "points": points, "known": sum(known), "complete": len(known) == len(points)}


def shown(st, env: dict, items: list, viewer: int) -> dict:
    values, zones = [], []
    for label, ty, fn, zone in items:
        if zone is None:
            text = value_text(st, fn(st, env), ty, label, viewer)
            if text is not None:
                values.append({"label": label, "value": text})
            continue
        if zone[0] == "zone":
            slot = zone[1]
        else:
            slot = st.pzone_slot(zone[1], fn(st, env))
        cards = st.zones[slot]
        entry = {"zone": st.lay.slot_names[slot], "owner": st.lay.slot_owner[slot],
                 "cards": [views.card_view(st, c, viewer) for c in cards]}
        if zone[2] is not None:
            entry["rows_of"] = zone[2](st, env)
        if zone[4] is not None:
            fn, elem = zone[4]
            entry["beside"] = [views.render(st, x, elem, viewer) for x in fn(st, env)]
        for label, fn in zone[3]:
            marked = set(fn(st, env))
            for c, shown_card in zip(cards, entry["cards"]):
                if c in marked and not shown_card.get("hidden"):  # only on a card the viewer knows
                    shown_card.setdefault("marks", []).append(label)
        zones.append(entry)
    return {"items": values, "zones": zones}


def value_text(st, value, ty, label: str, viewer: int):
    """The text of a shown value, or None when there is nothing to show."""
    kind = ty.plain().kind if ty is not None else "any"
    if value is None or value is False or (kind in ("list", "set", "bag") and not any(value) if kind == "bag"
                                           else kind in ("list", "set") and not value):
        return None
    if value is True:
        return label
    return views.render(st, value, ty.plain() if ty is not None else None, viewer)
