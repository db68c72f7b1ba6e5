"""What a game's `table { … }` shows (interpreter/presentation.py, issue 19): drawn from each player's view,
never showing a card a player may not see, and printed at the terminal by the person's agent."""
import io
import random

import pytest

from docgen.lookup import Reference
from docgen.render import render_sheet
from interpreter import load_game
from interpreter.agents import HumanAgent
from interpreter.agents.table_text import score_breakdown, table_lines

GAMES = [("games/wish.wish", None, 2), ("games/wish.wish", None, 4), ("games/three_wishes.wish", None, 3),
         ("games/three_wishes.wish", "Match", 4), ("games/wunschmaschine.wish", None, 3),
         ("games/wunschmaschine.wish", "Left-Right", 5), ("games/house/wish_four_markers.wish", None, 2)]


def states(path, variant, players, games=6, every=7):
    game = load_game(path, variant)
    for seed in range(games):
        st = game.new_state(players, seed=seed)
        rng = random.Random(seed)
        k = 0
        while not st.is_over:
            if k % every == 0:
                yield st
            k += 1
            options = st.legal_actions(st.to_move[0])
            st.apply(options[rng.randrange(len(options))])
        yield st


def zones_of(table) -> list:
    out = []
    for board in table["boards"]:
        out += [z for row in board["rows"] for cell in row for z in cell["zones"]]
    for panel in table["panels"]:
        out += [z for row in panel["players"] for z in row["zones"]]
    if table["shared"]:
        out += table["shared"]["zones"]
    return out


@pytest.mark.parametrize("path, variant, players", GAMES, ids=lambda x: str(x))
def test_every_zone_of_the_table_is_the_zone_of_the_view(path, variant, players):
    """The table's zones are the view's: the same cards, hidden where the view hides them."""
    checked = 0
    for st in states(path, variant, players):
        for p in range(players):
            view = st.view(p)
            by_name = {z["zone"]: z for z in view["zones"]}
            for z in zones_of(view["table"]):
                plain = [{k: v for k, v in c.items() if k != "marks"} for c in z["cards"]]
                assert plain == by_name[z["zone"]]["cards"], (path, z["zone"])
                assert not any(c.get("marks") and c.get("hidden") for c in z["cards"])  # marks on known cards
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("path, variant, players", GAMES, ids=lambda x: str(x))
def test_the_tables_values_are_the_same_for_every_viewer(path, variant, players):
    """A value item may read only what everyone sees (the checker makes sure): every player reads the same."""
    for st in states(path, variant, players, games=3):
        tables = [st.view(p)["table"] for p in range(players)]
        strip = [{**{k: v for k, v in t.items() if k != "score"},  # the score so far: see below
                  "boards": [[[c["items"] for c in row] for row in b["rows"]] for b in t["boards"]],
                  "panels": [[r["items"] for r in panel["players"]] for panel in t["panels"]],
                  "shared": t["shared"]["items"] if t["shared"] else None} for t in tables]
        assert all(s == strip[0] for s in strip)


def test_the_wish_board_shows_the_map_as_on_the_rulebook():
    st = load_game("games/wish.wish").new_state(2, seed=3)
    while st.view(0)["table"]["panels"][0]["players"][1]["items"] == [] or st.to_move != [0]:
        st.apply(st.legal_actions(st.to_move[0])[0])
    table = st.view(0)["table"]
    rows = table["boards"][0]["rows"]
    assert [c["cell"] for c in rows[0]] == ["Sandhills", "Mountain Caves", "Trade Market", "Forest"]
    assert [c["cell"] for c in rows[2]] == ["Palace Gardens", "Palace", "Dark Temple", "Cataracts"]
    sandhills = {i["label"]: i["value"] for i in rows[0][0]["items"]}
    assert sandhills == {"people": "2 purple", "Caravan": "Caravan"}
    ruins = {i["label"]: i["value"] for i in rows[1][3]["items"]}
    assert ruins["Monument Badge"] == "Magic Tower"
    lines = table_lines(table, 0, Reference("games/wish.wish").summary)
    assert max(len(line) for line in lines) <= 100
    assert lines[0] == "─ SANDHILLS ────────────┼─ MOUNTAIN CAVES ───────┼─ TRADE MARKET ─────────┼─ FOREST"
    assert lines[1].startswith(" people: 2 purple       │ people: 2 blue         │ people: 2 yellow ")
    assert lines[2].startswith(" Caravan                │") and "Monument Badge: Talking" in lines[2]  # shares a line


def test_three_wishes_shows_your_own_cards_as_unknown():
    st = load_game("games/three_wishes.wish").new_state(3, seed=1)
    table = st.view(0)["table"]
    mine = table["panels"][0]["players"][0]["zones"][0]
    assert mine["zone"] == "hand of player 1" and mine["cards"] == [{"hidden": True}] * 3
    lines = table_lines(table, 0)
    assert lines[0] == "player 1 (you): turns this round 1 · score ? · hand: ? ×3"
    assert any(line.startswith("centre: ? ×2 · aside: ? · box: ") for line in lines)  # the box is open


def test_the_person_sees_the_table_and_the_sheet_describes_it():
    game = load_game("games/wunschmaschine.wish")
    st = game.new_state(3, seed=2)
    out = io.StringIO()
    HumanAgent(0, input=io.StringIO("heart\n"), output=out).use_game(game).act(st.view(0), st.legal_actions(0))
    text = out.getvalue()
    assert "player 1 (you): the Wish Machine · wish coins 0 · score 0" in text
    assert "wish coins in the supply 20 · rows laid this round 0 · wish: (empty)" in text
    assert "supply 20, machine" not in text  # no dump of raw variables when the game declares its table
    md = render_sheet("games/wunschmaschine.wish", None, "md")
    assert "## What the table shows" in md
    assert "For each player: the Wish Machine: the player is the Wish Machine;" in md


def test_the_score_so_far_shows_only_what_the_looking_player_may_see():
    """Wish: the Destiny step is the player's own to see; 3 Wishes: nobody sees their own cards' points;
    Wunschmaschine: the coins are everyone's."""
    game = load_game("games/wish.wish")
    st = game.new_state(2, seed=3)
    for _ in range(12):
        st.apply(st.legal_actions(st.to_move[0])[0])
    mine, theirs = st.view(0)["table"]["score"]
    assert mine["complete"] and mine["points"][4]["label"] == "5. Destiny" and mine["points"][4]["value"] == 0
    assert theirs["points"][4]["value"] is None and not theirs["complete"]
    assert [x["value"] for x in theirs["points"][:4]] == [x["value"] for x in st.view(1)["table"]["score"][1]
                                                          ["points"][:4]]
    lines = table_lines(st.view(0)["table"], 0)
    panel = " ".join(lines[next(i for i, line in enumerate(lines) if line.startswith("player 2: ")):])
    assert "· score 0 + ? ·" in panel and "destiny: ?" in panel
    assert "player 2: 0 + ?" in score_breakdown(st.view(0)["table"], 0)
    assert "    5. Destiny: ?" in score_breakdown(st.view(0)["table"], 0)
    three = load_game("games/three_wishes.wish").new_state(3, seed=1).view(0)["table"]["score"]
    assert all(row["points"][0]["value"] is None for row in three)
    assert "score ? ·" in table_lines(load_game("games/three_wishes.wish").new_state(3, seed=1).view(0)["table"], 0)[0]


@pytest.mark.parametrize("path, variant, players", GAMES, ids=lambda x: str(x))
def test_a_score_step_another_player_reads_is_the_same_for_all_who_read_it(path, variant, players):
    for st in states(path, variant, players, games=3):
        scores = [st.view(v)["table"].get("score") for v in range(players)]
        if scores[0] is None:
            continue
        for p in range(players):
            seen = [tuple(x["value"] for x in scores[v][p]["points"]) for v in range(players) if v != p]
            assert all(s == seen[0] for s in seen)


def test_wunschmaschine_shows_the_table_row_by_row_the_newest_first():
    game = load_game("games/wunschmaschine.wish")
    st = game.new_state(3, seed=5)
    st.apply('wish for "Heart"')
    for p in list(st.to_move):
        st.apply("wait", p)
    table = st.view(1)["table"]
    zone = table["shared"]["zones"][1]
    assert zone["zone"] == "table" and zone["rows_of"] == 4 and len(zone["cards"]) == 8
    lines = [line for line in table_lines(table, 1) if line.startswith("  table, row")]
    newest = ", ".join(c["name"] for c in zone["cards"][:4])
    said = st.view(1)["announcements"]  # each row with what the Machine announced for it, the first row's first
    assert zone["beside"] == said and len(said) == 2
    assert lines == [f"  table, row 2 (newest): {newest} — {said[1]}",
                     "  table, row 1: " + ", ".join(c["name"] for c in zone["cards"][4:]) + f" — {said[0]}"]


def test_with_a_table_the_log_shows_what_people_did_and_log_prints_the_rest():
    """The table shows what moved and changed; the screen's log keeps the decisions and what was said."""
    game = load_game("games/wunschmaschine.wish")
    st = game.new_state(3, seed=2)
    st.apply('wish for "Heart"')
    out = io.StringIO()
    HumanAgent(1, input=io.StringIO("log\nwait\n"), output=out).use_game(game).act(st.view(1), st.legal_actions(1))
    text = out.getvalue()
    screen, printed = text.split("player 2> log", 1)
    assert "Announcement: Yes" in screen or "Announcement: No" in screen
    assert "move from deck to table" not in screen and "more lines: cards moved and values changed" in screen
    assert "move from deck to table" in printed  # 'log' prints every line since the last decision
    kinds = st.view(1)["log_kinds"]
    assert len(kinds) == len(st.view(1)["log"]) and "move" in kinds and "choice" in kinds


def test_a_mark_shows_on_the_cards_of_a_zone_everyone_sees():
    """Wish: `zone offer marked "Frostflake" …` — the Water Djinn's Frostflakes on the Offer, for every viewer."""
    st = load_game("games/wish.wish").new_state(2, seed=3)
    while not any(c.get("marks") for c in st.view(1)["table"]["shared"]["zones"][0]["cards"]):
        options = st.legal_actions(st.to_move[0])
        wanted = [a for a in options if "water" in a.label or a.label.startswith("ice_dibs")]
        st.apply(wanted[0] if wanted else options[-1])
    for viewer in (0, 1):
        offer = st.view(viewer)["table"]["shared"]["zones"][0]
        marked = [c["name"] for c in offer["cards"] if c.get("marks") == ["Frostflake"]]
        assert marked and all(any(st.card_name(w) == name for p in range(2)
                                  for w in st.pvars[p][st.game.pvar_index["frostflakes"]]) for name in marked)
        assert any(f"{marked[0]} [Frostflake]" in line for line in table_lines(st.view(viewer)["table"], viewer))
