"""`wishdsl serve`: web tables through the ASGI app (Starlette's TestClient speaks HTTP and WebSocket to it).

Whole games through the server equal `wishdsl run` with the same seed; each seat receives only its view; acting
for another seat, a stale or replayed decision and options never offered are refused and the game goes on; every
decision is in the database before it is acknowledged, and a new server on the same database resumes each table
exactly."""
import json
import attrs
import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")  # what starlette.testclient speaks HTTP with (the test extra installs it)

from starlette.testclient import TestClient  # noqa: E402

from interpreter import load_game  # noqa: E402
from interpreter.agents import make_agents, play  # noqa: E402
from interpreter.infoset import InfoSet  # noqa: E402
from wishdsl.replay import replay_file  # noqa: E402
from wishdsl.web.app import create_app  # noqa: E402
from wishdsl.web.catalog import Catalog  # noqa: E402
from wishdsl.web.table import LiveTable  # noqa: E402

WM, TW, WISH = "games/wunschmaschine.wish", "games/three_wishes.wish", "games/wish.wish"


@pytest.fixture(scope="module")
def catalog():
    return Catalog([WM, TW, WISH])


def server(catalog, db):
    return TestClient(create_app(catalog, str(db), workers=1, race_delay=0))


def open_table(client, **request) -> dict:
    r = client.post("/api/tables", json=request)
    assert r.status_code == 200, r.text
    return r.json()


def token(url: str) -> str:
    return url.rsplit("/", 1)[1]


def wait_over(client, links, timeout=60.0):
    import time

    watch = links["watch"].replace("/play/", "/api/tables/")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = client.get(watch).json()
        if s["over"] or s["broken"]:
            return s
        time.sleep(0.05)
    raise AssertionError("the table did not finish")


def run_game(path, players, seed, specs):
    """The game `wishdsl run` plays with these agents and seed: (actions as [seat, label], log)."""
    game = load_game(path)
    state = game.new_state(players, seed)
    taken = play(state, make_agents(specs, players, seed))
    return [[a.player, a.label] for a in taken], state.log_lines()


class Seat:
    """One page's WebSocket: the last table message it received."""

    def __init__(self, client, url):
        self.ws = client.websocket_connect(url.replace("/play/", "/ws/"))
        self.ws.__enter__()
        self.messages = []
        self.glossary = self.ws.receive_json()  # what the game's cards and named things say, first
        assert self.glossary["type"] == "glossary"
        self.last = self.receive()
        assert self.last["type"] == "table"

    def receive(self) -> dict:
        msg = self.ws.receive_json()
        self.messages.append(msg)
        if msg["type"] == "table":
            self.last = msg
        return msg

    def catch_up(self, taken: int) -> dict:
        """Read messages until the page has heard of `taken` decisions."""
        while self.last.get("taken") != taken:
            self.receive()
        return self.last

    def act(self, option, decision=None) -> None:
        d = self.last["decision_number"] if decision is None else decision
        self.ws.send_text(json.dumps({"type": "act", "decision": d, "option": option}))

    def close(self):
        self.ws.__exit__(None, None, None)


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("path,players,specs", [(WM, 3, ["random"]), (TW, 4, ["random", "greedy", "random", "random"]),
                                                (TW, 3, ["mcts:iterations=12", "greedy", "random"])])
def test_an_ai_table_plays_the_game_wishdsl_run_plays(catalog, tmp_path, path, players, specs):
    with server(catalog, tmp_path / "t.db") as client:
        links = open_table(client, game=path, players=players, seats=",".join(specs), seed=11)
        status = wait_over(client, links)
        assert status["broken"] is None
        base = links["watch"].replace("/play/", "/api/tables/")
        doc = client.get(base + "/game.json").json()
        half = len(doc["actions"]) // 2
        start, middle, end = (client.get(f"{base}/step/{k}").json() for k in (0, half, 10**9))
    actions, log = run_game(path, players, 11, specs)
    # the replay, step by step: the table after k decisions, as everyone may see it once the game is over
    assert (start["step"], middle["step"], end["step"]) == (0, half, len(actions)) == (0, half, end["of"])
    assert middle["next"] == {"player": actions[half][0], "label": actions[half][1]} and end["next"] is None
    state = load_game(path).new_state(players, 11)
    for seat, label in actions[:half]:
        state.apply(label, player=seat)
    assert middle["view"]["log"] == state.log_lines() and end["view"]["log"] == log
    assert doc["actions"] == actions and doc["log"] == log
    (tmp_path / "game.json").write_text(json.dumps(doc))
    state, n, note = replay_file(str(tmp_path / "game.json"), path)  # what `wishdsl replay` reads
    assert n == len(actions) and note is None and state.is_over


def test_two_people_and_an_ai_play_wunschmaschine_to_the_end(catalog, tmp_path):
    rng = random.Random(3)
    with server(catalog, tmp_path / "t.db") as client:
        links = open_table(client, game=WM, players=3, seats="human,human,random", seed=5)
        seats = [Seat(client, links["seats"][k]["url"]) for k in (0, 1)]
        answered = 0
        while True:
            status = wait_ai(client, links)
            for s in seats:
                s.catch_up(status["decisions"])
            if status["over"]:
                break
            mine = [s for s in seats if "options" in s.last]
            assert mine, "the game waits for nobody"
            for s in mine:  # a slap race asks both people at once
                s.act(rng.randrange(len(s.last["options"])))
                answered += 1
        for k, s in enumerate(seats):
            assert all(m["seat"] == k and m["view"]["player"] == k for m in s.messages if m["type"] == "table")
            s.close()
        assert answered > 10
        doc = client.get(links["seats"][0]["url"].replace("/play/", "/api/tables/") + "/game.json").json()
    assert [a for a in doc["actions"] if a[0] == 2], "the AI seat answered too"


@pytest.mark.parametrize("first", [1, 2])
def test_the_first_slap_the_server_receives_wins_the_race(catalog, tmp_path, first):
    """Two people slap in one order, then in the other, on the same deal: the first to arrive wins each time
    (`first_to_answer` on a timed table), and the downloaded game replays with the same winner."""
    second = 3 - first
    with server(catalog, tmp_path / "t.db") as client:
        links = open_table(client, game=WM, players=3, seats="human", seed=12)
        seats = [Seat(client, links["seats"][k]["url"]) for k in range(3)]
        seats[0].act(0)  # the Wish Machine wishes
        for s in seats:
            s.catch_up(1)
        for k in (first, second):
            d = seats[k].last["view"]["decision"]
            seats[k].act(d["options"].index("slap"))
            for s in seats:
                s.catch_up(2 if k == first else 3)
        assert seats[first].last["view"]["log"][-1] == f"player {first + 1} slaps the wish card first"
        assert "options" in seats[first].last and "options" not in seats[second].last  # who names the wish
        seats[first].act(0)
        for s in seats:
            s.close()
        table = client.app.state.server.tables[links["id"]]
        doc = table.document(WM)
    assert doc["timed"] is True
    (tmp_path / "game.json").write_text(json.dumps(doc))
    state, n, _ = replay_file(str(tmp_path / "game.json"), WM)
    assert f"player {first + 1} slaps the wish card first" in state.log_lines()


# ---------------------------------------------------------------- refusals
def test_refusals_leave_the_game_as_it_was(catalog, tmp_path):
    with server(catalog, tmp_path / "t.db") as client:
        links = open_table(client, game=TW, players=3, seats="human", seed=2)
        first, second = (Seat(client, links["seats"][k]["url"]) for k in (0, 1))
        assert "loses the game" in first.glossary["cards"]["Time Travel"]["summary"]  # the printed cards, for hovers
        to_move = first.last["view"]["decision"]["waiting_for"]
        assert to_move == [0] and "options" in first.last and "options" not in second.last
        n = len(first.last["options"])
        cases = [
            (second, {"type": "act", "decision": 0, "option": 0}, "it is not your decision"),
            (first, {"type": "act", "decision": 0, "option": n}, f"there is no option {n}"),
            (first, {"type": "act", "decision": 0, "option": -1}, "there is no option -1"),
            (first, {"type": "act", "decision": 1, "option": 0}, "that decision is over"),
            (first, {"type": "act", "decision": 0, "option": "0"}, "by number"),
            (first, {"type": "act", "decision": 0, "option": True}, "by number"),
            (first, {"type": "act", "seat": 1, "decision": 0}, "by number"),
            (first, {"type": "peek", "decision": 0, "option": 0}, '{"type": "act"'),
            (first, [1, 2], '{"type": "act"'),
        ]
        for seat, msg, why in cases:
            seat.ws.send_text(json.dumps(msg))
            reply = seat.receive()
            assert reply["type"] == "refused" and why in reply["reason"], (msg, reply)
        first.ws.send_text("not json")
        assert "JSON" in first.receive()["reason"]
        first.ws.send_text("x" * 5000)
        assert "too long" in first.receive()["reason"]
        status = client.get(links["watch"].replace("/play/", "/api/tables/")).json()
        assert status["decisions"] == 0 and status["waiting_for"] == [0]
        first.act(0)  # the game goes on
        assert first.receive()["decision_number"] == 1
        second.receive()
        first.act(0, decision=0)  # the same answer again: a stale decision
        reply = first.receive()
        assert reply["type"] == "refused" and "over" in reply["reason"]
        watcher = Seat(client, links["watch"])
        watcher.act(0)
        assert "spectator" in watcher.receive()["reason"]
        for s in (first, second, watcher):
            s.close()


def test_a_decision_is_in_the_database_before_anyone_hears_of_it(catalog, tmp_path):
    import sqlite3

    db = tmp_path / "t.db"
    with server(catalog, db) as client:
        links = open_table(client, game=TW, players=3, seats="human", seed=2)
        first = Seat(client, links["seats"][0]["url"])
        label = first.last["view"]["decision"]["options"][0]
        first.act(0)
        heard = first.receive()  # the acknowledgement: the table after the decision
        assert heard["taken"] == 1
        with sqlite3.connect(db) as other:  # another reader of the file sees it committed
            rows = other.execute("SELECT n, seat, label FROM decisions WHERE table_id = ?", (links["id"],)).fetchall()
        assert rows == [(0, 0, label)]
        first.close()


def test_a_page_that_sends_too_fast_is_refused_and_the_game_goes_on(catalog, tmp_path):
    with server(catalog, tmp_path / "t.db") as client:
        links = open_table(client, game=TW, players=3, seats="human", seed=2)
        second = Seat(client, links["seats"][1]["url"])
        reasons = []
        for _ in range(25):
            second.act(0)
            reasons.append(second.receive()["reason"])
        assert reasons[:20] == ["it is not your decision"] * 20
        assert all("too many messages" in r for r in reasons[20:])
        second.close()
        first = Seat(client, links["seats"][0]["url"])
        first.act(0)
        assert first.receive()["taken"] == 1
        first.close()


def test_links_of_one_table_open_nothing_else(catalog, tmp_path):
    with server(catalog, tmp_path / "t.db") as client:
        a = open_table(client, game=TW, players=3, seats="human", seed=2)
        b = open_table(client, game=TW, players=3, seats="human", seed=3)
        mixed = f"/play/{b['id']}/{token(a['seats'][0]['url'])}"
        assert client.get(mixed).status_code == 404
        assert client.get(f"/play/{a['id']}/{token(a['seats'][0]['url'])[:-1]}").status_code == 404
        assert client.get(f"/api/tables/{b['id']}/{token(a['watch'])}").status_code == 404
        from starlette.websockets import WebSocketDisconnect

        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect(mixed.replace("/play/", "/ws/")) as ws:
                ws.receive_json()
        r = client.get(a["watch"].replace("/play/", "/api/tables/") + "/game.json")
        assert r.status_code == 409  # the record of a game holds every card: only once it is over
        assert client.get(a["watch"].replace("/play/", "/api/tables/") + "/step/0").status_code == 409


@pytest.mark.parametrize("request_doc,why", [
    ({"game": "games/nope.wish", "players": 3}, "no game"),
    ({"game": "../games/wish.wish", "players": 3}, "no game"),
    ({"game": WM, "players": 2}, "played by 3 to 6"),
    ({"game": WM, "players": 3, "variant": "Nope"}, "no variant"),
    ({"game": WM, "players": 3, "seats": "random,random"}, "2 seats for 3 players"),
    ({"game": WM, "players": 3, "seats": "randon"}, "did you mean"),
    ({"game": WM, "players": 3, "seed": -1}, "seed"),
    ({"game": WM, "players": "3"}, "played by"),
])
def test_a_bad_request_is_a_message(catalog, tmp_path, request_doc, why):
    with server(catalog, tmp_path / "t.db") as client:
        r = client.post("/api/tables", json=request_doc)
        assert r.status_code == 400 and why in r.json()["error"]
        r = client.post("/api/tables", content=b"x" * 20_000)
        assert r.status_code == 413
        r = client.post("/tables", data={"game": WM, "players": "two"})
        assert r.status_code == 400 and "whole numbers" in r.text and "Traceback" not in r.text


# ---------------------------------------------------------------- nothing lost
def test_a_new_server_on_the_same_database_resumes_every_table(catalog, tmp_path):
    db = tmp_path / "t.db"
    rng = random.Random(8)
    with server(catalog, db) as client:
        links = open_table(client, game=TW, players=3, seats="human,greedy,human", seed=4)
        seats = [Seat(client, links["seats"][k]["url"]) for k in (0, 2)]
        for _ in range(4):
            status = wait_ai(client, links)
            for s in seats:
                s.catch_up(status["decisions"])
            s = next(s for s in seats if "options" in s.last)
            s.act(rng.randrange(len(s.last["options"])))
            s.receive()
        for s in seats:
            s.close()
        wait_ai(client, links)
        before = client.get(links["watch"].replace("/play/", "/api/tables/")).json()
        app_state = client.app.state.server.tables[links["id"]].state.to_json()
    with server(catalog, db) as client:
        after = client.get(links["watch"].replace("/play/", "/api/tables/")).json()
        assert after == before
        table = client.app.state.server.tables[links["id"]]
        assert table.state.to_json() == app_state


def wait_ai(client, links):
    """Until the table waits for a person (or is over)."""
    import time

    watch = links["watch"].replace("/play/", "/api/tables/")
    for _ in range(400):
        s = client.get(watch).json()
        if s["over"] or all(links["seats"][p]["plays"] == "human" for p in s["waiting_for"]):
            return s
        time.sleep(0.05)
    raise AssertionError("the AI seats did not answer")


def test_a_resumed_ai_seat_goes_on_as_if_never_stopped(catalog, tmp_path):
    """Stop the server after each of a person's decisions and start a new one: the game (the AI seats' choices
    from their restored generators included) is the one an uninterrupted server plays."""
    def game(restart: bool):
        db = tmp_path / f"{restart}.db"
        rng = random.Random(1)
        client = server(catalog, db).__enter__()
        links = open_table(client, game=WM, players=3, seats="random,human,greedy", seed=9)
        while True:
            wait_ai(client, links)
            status = client.get(links["watch"].replace("/play/", "/api/tables/")).json()
            if status["over"]:
                break
            s = Seat(client, links["seats"][1]["url"])
            s.act(rng.randrange(len(s.last["options"])))
            s.receive()
            s.close()
            if restart:
                client.__exit__(None, None, None)
                client = server(catalog, db).__enter__()
        doc = client.get(links["watch"].replace("/play/", "/api/tables/") + "/game.json").json()
        client.__exit__(None, None, None)
        return doc["actions"], doc["log"]

    assert game(True) == game(False)


# ---------------------------------------------------------------- what a seat receives
@pytest.mark.parametrize("path,players", [(TW, 4), (WM, 3), (WISH, 2)])
def test_a_seats_messages_do_not_depend_on_cards_it_does_not_know(catalog, path, players):
    """What a seat's message shows of the table now is the same in every full state consistent with what the
    seat knows (the InfoSet's samples: other identities for every card it does not know now), and its log is the
    same when the cards it never knew change identities among themselves: so no message can name such a card.
    (The log is tested apart: it keeps what a seat once saw, such as a deck's order before a shuffle.)"""
    from interpreter.tables import Identities
    from wishdsl.web.store import TableRow

    game = load_game(path)
    rng = random.Random(path)
    for seed in range(3):
        row = TableRow("t", path, None, game.fingerprint, players, seed, "w", ["human"] * players,
                       ["s"] * players, [None] * players, [])
        table = LiveTable(row, game)
        real = table.state
        steps = 0
        while not real.is_over and steps < 60:
            for seat in range(players):
                msg = table.message(seat, 0)
                log = msg["view"].pop("log")
                info = InfoSet(real, seat)
                for _ in range(3):
                    table.state = info.sample(rng)
                    other = table.message(seat, 0)
                    other["view"].pop("log")
                    if real.decision is not None and real.decision.answers:
                        # a sample does not keep the others' secret answers to a simultaneous decision, so it
                        # waits for them again: who has answered is not a card, and the rest must agree
                        for m in (msg, other):
                            m["view"]["decision"].pop("waiting_for", None)
                    assert other == msg, (seed, steps, seat)
                never = [c for c in range(len(real.seen)) if not (real.seen[c] >> seat) & 1]
                defs = list(real.ids.of)
                moved = [defs[c] for c in never]
                rng.shuffle(moved)
                for c, d in zip(never, moved):
                    defs[c] = d
                table.state = real.clone()
                table.state.ids = Identities(defs, len(game.card_defs))
                assert table.message(seat, 0)["view"]["log"] == log, (seed, steps, seat)
                table.state = real
            acts = real.legal_actions()
            real.apply(acts[rng.randrange(len(acts))])
            steps += 1


def test_a_spectator_sees_only_what_every_player_knows_until_the_end(catalog, tmp_path):
    with server(catalog, tmp_path / "t.db") as client:
        links = open_table(client, game=TW, players=3, seats="random", seed=6)
        wait_over(client, links)
        table = client.app.state.server.tables[links["id"]]
    row = table.row
    game = load_game(TW)
    live = LiveTable(attrs.evolve(row, decisions=[]), game)
    msg = live.message("spectator", 0)
    hands = [z for z in msg["view"]["zones"] if z["zone"].startswith("hand")]
    assert hands and all(c == {"hidden": True} for z in hands for c in z["cards"])
    assert "options" not in msg
    end = table.message("spectator", 0)
    assert end["view"]["over"] and all("name" in c for z in end["view"]["zones"] for c in z["cards"])


def test_a_page_asks_why_a_line_was_written(catalog, tmp_path):
    """`{"type": "why", "line": N}`: the chain of rules that wrote log line N, to that page only, as its seat may
    know it (the chain `wishdsl run --why` gives, cut where it reads what the seat cannot see); a line the log
    does not have is refused and the game goes on."""
    from interpreter.why import explanation_lines

    def reply(seat: Seat) -> dict:
        while True:  # table messages of the AI seats' moves may come first
            msg = seat.receive()
            if msg["type"] in ("why", "refused"):
                return msg

    with server(catalog, tmp_path / "t.db") as client:
        links = open_table(client, game=TW, players=3, seats="human,random,random", seed=6)
        me = Seat(client, links["seats"][0]["url"])
        try:
            st = client.app.state.server.tables[links["id"]].state
            lines = len(st.log)
            for line in (1, lines):
                me.ws.send_text(json.dumps({"type": "why", "line": line}))
                msg = reply(me)
                want = explanation_lines(st, line - 1, 0)
                assert msg == {"type": "why", "line": line, "text": want[0].strip(),
                               "chain": [x.strip() for x in want[1:]]}
            assert msg["chain"][-1].startswith(("← play ", "← setup ", "← scoring "))
            secret = next(k for k in range(lines) if any(step.secret for step in st.trace.chains[k]))
            me.ws.send_text(json.dumps({"type": "why", "line": secret + 1}))  # a condition reads a hidden card
            got = reply(me)
            assert any("depends on what you cannot see" in step for step in got["chain"])
            assert got["chain"] != [x.strip() for x in explanation_lines(st, secret)[1:]]
            me.ws.send_text(json.dumps({"type": "why", "line": lines + 5}))
            refused = reply(me)
            assert refused["type"] == "refused" and f"no line {lines + 5} in the log" in refused["reason"]
        finally:
            me.close()


def test_pages_escape_what_game_files_say(tmp_path):
    text = open("tests/games/engine_test.wish", encoding="utf-8").read()
    hostile = tmp_path / "evil.wish"
    import re

    hostile.write_text(re.sub(r'game "[^"]*"', 'game "<script>alert(1)</script>"', text, count=1), encoding="utf-8")
    with server(Catalog([str(hostile)]), tmp_path / "t.db") as client:
        page = client.get("/").text
        assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
        assert client.get("/no/such/page").status_code == 404


# ---------------------------------------------------------------- uploads
@pytest.fixture
def offered(tmp_path):
    """A served folder with Wunschmaschine in it, as `wishdsl serve FOLDER` offers it."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "wunschmaschine.wish").write_text(open(WM, encoding="utf-8").read(), encoding="utf-8")
    return folder


def uploading(offered, tmp_path):
    return TestClient(create_app(Catalog([str(offered)]), str(tmp_path / "t.db"), workers=1, race_delay=0,
                                 uploads=str(offered / "uploads")))


def test_uploads_are_refused_unless_the_server_allows_them(offered, tmp_path):
    with TestClient(create_app(Catalog([str(offered)]), str(tmp_path / "t.db"), workers=1)) as client:
        assert "Upload a house rule" not in client.get("/").text
        r = client.post("/upload", data={"name": "x", "text": "game \"X\" { players 2..4 }"})
        assert r.status_code == 403 and "--allow-uploads" in r.text


def test_an_uploaded_house_rule_is_checked_and_offered(offered, tmp_path):
    text = open("games/house/wunschmaschine_3_coins.wish", encoding="utf-8").read()
    with uploading(offered, tmp_path) as client:
        assert "Upload a house rule" in client.get("/").text
        r = client.post("/upload", data={"name": "../../Three coins!", "text": text})
        assert r.status_code == 200, r.text
        kept = list((offered / "uploads").iterdir())
        assert len(kept) == 1 and kept[0].name.startswith("three_coins-") and kept[0].read_text() == text
        key = kept[0].as_posix()
        assert "checks and is on offer" in r.text and key in r.text
        links = open_table(client, game=key, players=3, seats="random", seed=1)
        assert wait_over(client, links)["broken"] is None
        again = client.post("/upload", data={"name": "Three coins", "text": text})
        assert again.status_code == 200 and len(list((offered / "uploads").iterdir())) == 1


@pytest.mark.parametrize("text,why", [
    ('extends "../wunschmaschine.wish"\nparam coins_to_win: int = "three"\n', ".wish:2:"),
    ('extends "../../../../../../etc/hosts.wish"\n', "lies outside"),
    ('extends "../wunschmaschine.wish"\nparam coins_to_wim: int = 3\n', "did you mean"),
    ("", "empty"),
    ("x" * 70_000, "at most"),
])
def test_an_upload_that_does_not_check_is_a_message_and_is_not_kept(offered, tmp_path, text, why):
    with uploading(offered, tmp_path) as client:
        r = client.post("/upload", data={"name": "broken", "text": text})
        assert r.status_code == 400 and why in r.text and "Traceback" not in r.text, r.text
        assert not list((offered / "uploads").glob("*.wish")) if (offered / "uploads").exists() else True
        assert list(client.app.state.server.catalog.games) == [(offered / "wunschmaschine.wish").as_posix()]


def test_a_table_whose_game_changed_on_disk_stops_with_a_message(offered, tmp_path):
    game = offered / "wunschmaschine.wish"
    with uploading(offered, tmp_path) as client:
        links = open_table(client, game=game.as_posix(), players=3, seats="human", seed=3)
    game.write_text(game.read_text(encoding="utf-8").replace("param coins_to_win: int = 5",
                                                             "param coins_to_win: int = 4"), encoding="utf-8")
    with uploading(offered, tmp_path) as client:
        status = client.get(links["watch"].replace("/play/", "/api/tables/")).json()
        assert "changed since this table started" in status["broken"]
        page = Seat(client, links["seats"][0]["url"])
        assert "changed since" in page.last["broken"] and "view" not in page.last
        page.act(0, decision=0)
        assert "changed since" in page.receive()["reason"]
        page.close()
        assert client.get("/").status_code == 200  # the rest of the server goes on


@pytest.mark.parametrize("argv,why", [
    (["serve", "--ai-workers", "0"], "at least 1"),
    (["serve", "--port", "70000"], "--port from 1 to 65535"),
    (["serve", "--uploads", "x"], "add --allow-uploads"),
    (["serve", "no/such/folder"], "no such file or folder"),
    (["serve", "tests/bad/arity.wish"], "none of the games checks"),
    (["serve", "tests/golden"], "no .wish files to serve"),
])
def test_serve_refuses_bad_options_with_a_message(argv, why, capsys, monkeypatch):
    import uvicorn

    from wishdsl.cli import main

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("the server started"))
    assert main(argv) == 1
    assert why in capsys.readouterr().err


def test_an_ai_worker_that_dies_is_replaced_and_the_game_goes_on(catalog, tmp_path):
    import os
    import signal
    import time

    with server(catalog, tmp_path / "t.db") as client:
        srv = client.app.state.server
        links = open_table(client, game=WM, players=3, seats="random,human,random", seed=11)
        wait_ai(client, links)  # the AI Machine has wished: a worker is running
        before = srv.pool
        assert srv.pool._processes
        for pid in list(srv.pool._processes):  # the worker dies (as if killed, or out of memory)
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.5)
        seat = Seat(client, links["seats"][1]["url"])
        while not client.get(links["watch"].replace("/play/", "/api/tables/")).json()["over"]:
            status = wait_ai(client, links)
            if status["over"]:
                break
            assert status["broken"] is None
            seat.catch_up(status["decisions"])
            seat.act(0)
            seat.receive()
        seat.close()
        assert srv.pool is not before  # a new pool took the dead one's place
        doc = client.get(links["watch"].replace("/play/", "/api/tables/") + "/game.json").json()
    assert [a for a in doc["actions"] if a[0] != 1]  # the AI seats answered after their worker died
