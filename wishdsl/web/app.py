"""`wishdsl serve`: web tables for people and AI players (an ASGI app on Starlette, served by uvicorn).

Routes:
    GET  /                              the lobby: the games on offer and a form to open a table
    POST /tables                        open a table (form) → a page with every seat's link
    POST /api/tables                    the same as JSON: {"game", "variant", "players", "seats", "seed"}
    POST /upload                        a house rule (form: name, text), with --allow-uploads only
    GET  /play/{table}/{token}          a seat's page (or the spectator's, with the table's watch token)
    WS   /ws/{table}/{token}            the seat's messages (table.py) and its answers: {"type": "act",
                                        "decision": N, "option": I}
    GET  /api/tables/{table}/{token}    where the game stands (JSON)
    GET  /api/tables/{table}/{token}/game.json   the finished game as `wishdsl run --json` prints it
    GET  /api/tables/{table}/{token}/step/{k}    a finished game after its first k decisions (the replay)
    GET  /rules/{game}                  the game's cheat-sheet (HTML)

A token is a seat's secret: whoever holds it plays that seat. Every decision is stored (store.py) before the
server acknowledges it; on start the server resumes every table of its database.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import time
from pathlib import Path
from typing import Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from dsl.errors import WishError

from . import pages
from .catalog import Catalog
from .store import Store, TableRow
from .table import HUMAN, LiveTable
from .thinking import pool, think

MAX_BODY = 16_000  # bytes of a request that opens a table
MAX_UPLOAD_BODY = 400_000  # bytes of an upload's request (its text at most uploads.MAX_UPLOAD characters)
MAX_MESSAGE = 4_000  # characters of one message from a page
MAX_TABLES = 2_000  # tables in one database
RATE = (20, 5.0)  # a connection may send 20 messages in 5 seconds; more are refused
RACE_DELAY = (0.6, 1.8)  # seconds an AI seat waits before answering a decision a person also answers
STATIC = Path(__file__).parent / "static"


class Limiter:
    """At most `n` events in any `seconds` per key."""

    def __init__(self, n: int, seconds: float):
        self.n, self.seconds = n, seconds
        self.times: dict = {}

    def allow(self, key) -> bool:
        now = time.monotonic()
        recent = [t for t in self.times.get(key, ()) if now - t < self.seconds]
        if len(recent) >= self.n:
            self.times[key] = recent
            return False
        recent.append(now)
        self.times[key] = recent
        return True


class Connection:
    """One open page: its socket, its seat and how much of the log it has."""

    def __init__(self, socket: WebSocket, seat):
        self.socket, self.seat, self.log_from = socket, seat, 0
        self.rate = Limiter(*RATE)


class Server:
    """The tables of one database, the pages connected to them and the AI seats' workers."""

    def __init__(self, catalog: Catalog, db: str, workers: int = 2, race_delay: float = 1.0,
                 open_rate: int = 30, uploads: Optional[str] = None):
        self.catalog = catalog
        self.uploads = uploads  # the folder uploaded house rules go to, or None: no uploads
        self.store = Store(db)
        self.workers = workers
        self.race_delay = race_delay
        self.tables: dict = {}
        self.glossaries: dict = {}  # (game path, variant) → pages.glossary
        self.connections: dict = {}  # table id → set of Connection
        self.opened = Limiter(open_rate, 60.0)  # tables a client may open in a minute
        self.pool = None
        self.tasks: set = set()

    # ---------------------------------------------------------------- life
    async def startup(self) -> None:
        self.pool = pool(self.workers)
        from interpreter.game import load_game

        for tid in self.store.ids():
            row = self.store.load(tid)
            try:
                game = load_game(row.game_path, row.variant, self.catalog.allow)
            except WishError as err:
                row.broken = row.broken or f"the game no longer loads: {str(err).splitlines()[0]}"
                game = None
            if game is not None and game.fingerprint != row.fingerprint and row.broken is None:
                row.broken = f"{row.game_path} changed since this table started; its decisions no longer apply"
            table = LiveTable(row, game) if game is not None else _broken_table(row)
            self.tables[tid] = table
            self.kick(table)

    async def shutdown(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.pool is not None:  # the workers end once their jobs have (they must not outlive the server)
            await asyncio.to_thread(self.pool.shutdown, wait=True, cancel_futures=True)
        self.store.close()

    # ---------------------------------------------------------------- opening a table
    def open_table(self, request: dict) -> LiveTable:
        """Check a request and open its table; a bad request raises WishError saying what is wrong."""
        from interpreter.agents import make_agent, split_specs
        from interpreter.game import load_game

        if len(self.tables) >= MAX_TABLES:
            raise WishError(f"this server holds {MAX_TABLES} tables already")
        key = request.get("game")
        entry = self.catalog.get(key) if isinstance(key, str) else None
        if entry is None:
            raise WishError(f"no game '{str(key)[:80]}' on offer here")
        variant = request.get("variant") or None
        if variant is not None and variant not in entry.variants:
            raise WishError(f"{entry.name} has no variant '{str(variant)[:80]}'")
        fewest, most = entry.players[variant or ""]
        players = request.get("players")
        if type(players) is not int or not fewest <= players <= most:
            raise WishError(f"{entry.name}{' (' + variant + ')' if variant else ''} is played by {fewest} to {most}"
                            " players")
        seats = request.get("seats") or "human"
        if not isinstance(seats, str) or len(seats) > 2_000:
            raise WishError("seats: one per player, separated by commas: human, random, greedy, mcts:time=0.5")
        specs = split_specs(seats)
        specs = specs * players if len(specs) == 1 else specs
        if len(specs) != players:
            raise WishError(f"seats names {len(specs)} seats for {players} players")
        for seat, spec in enumerate(specs):
            if spec != HUMAN:
                make_agent(spec, seat, 0)  # a bad spec raises WishError here, before anything is stored
        seed = request.get("seed")
        if seed in (None, ""):
            seed = secrets.randbelow(2**31)
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise WishError("seed: a whole number from 0 to 2^63 - 1, or none for a fresh one")
        game = load_game(entry.path, variant, self.catalog.allow)
        row = TableRow(secrets.token_urlsafe(9), entry.path, variant, game.fingerprint, players, seed,
                       secrets.token_urlsafe(18), specs, [secrets.token_urlsafe(18) for _ in specs],
                       [None] * players, [])
        self.store.create(row)
        table = LiveTable(row, game)
        if table.broken is not None:
            self.store.mark_broken(row.id, table.broken)
        self.tables[row.id] = table
        self.kick(table)
        return table

    def links(self, table: LiveTable) -> dict:
        row = table.row
        return {"id": row.id, "game": table.game.title, "variant": row.variant, "seed": row.seed,
                "seats": [{"seat": s + 1, "plays": spec, "url": f"/play/{row.id}/{tok}"}
                          for s, (spec, tok) in enumerate(zip(row.specs, row.tokens))],
                "watch": f"/play/{row.id}/{row.watch_token}"}

    # ---------------------------------------------------------------- decisions
    def commit(self, table: LiveTable, seat: int, label: str, agent_state=None) -> None:
        """Store a decision, then apply it."""
        self.store.add_decision(table.id, len(table.taken), seat, label, agent_state)
        if agent_state is not None:
            table.agent_states[seat] = agent_state
        try:
            table.apply(seat, label)
        except WishError:
            self.store.mark_broken(table.id, table.broken)
            return
        if table.over:
            self.store.finish(table.id)

    def kick(self, table: LiveTable) -> None:
        """Let the table's AI seats answer, if it waits for one (in the background)."""
        if table.driving or not table.ai_to_move():
            return
        task = asyncio.get_running_loop().create_task(self.drive(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def drive(self, table: LiveTable) -> None:
        """Ask the AI seats while the game waits for them: one at a time in seat order, as `wishdsl run` does; in
        a decision that people answer too (a slap race), every AI seat on its own after a human-like pause, so
        that their answers arrive among the people's."""
        table.driving = True
        try:
            while True:
                seats = table.ai_to_move()
                if not seats:
                    return
                if any(not table.is_ai(p) for p in table.state.to_move):
                    await asyncio.gather(*(self.ask_ai(table, seat, self.delay(table, seat)) for seat in seats))
                else:
                    await self.ask_ai(table, seats[0], 0.0)
        finally:
            table.driving = False

    async def ask_ai(self, table: LiveTable, seat: int, delay: float) -> None:
        """One AI seat's answer, thought out in a worker process, taken if the decision is still open to it."""
        if delay:
            await asyncio.sleep(delay)
        st = table.state
        if seat not in table.ai_to_move():
            return
        decision = st.decisions
        job = {"path": table.row.game_path, "variant": table.row.variant, "allow": list(self.catalog.allow),
               "fingerprint": table.row.fingerprint, "state": st.to_json(), "seat": seat,
               "spec": table.row.specs[seat], "seed": table.row.seed, "agent_state": table.agent_states[seat]}
        answer = await asyncio.get_running_loop().run_in_executor(self.pool, think, job)
        if "error" in answer:
            table.broken = f"the AI of seat {seat + 1} failed: {answer['error']}"
            self.store.mark_broken(table.id, table.broken)
        elif table.state.decisions == decision and table.label_offered(seat, answer["label"]):
            self.commit(table, seat, answer["label"], answer["agent_state"])
        await self.broadcast(table)

    def delay(self, table: LiveTable, seat: int) -> float:
        """A seeded, human-like pause before an AI seat answers a decision that a person answers too."""
        st = table.state
        if not self.race_delay or not any(not table.is_ai(p) for p in st.to_move):
            return 0.0
        lo, hi = RACE_DELAY
        return self.race_delay * random.Random(f"{table.row.seed}:{st.decisions}:{seat}").uniform(lo, hi)

    # ---------------------------------------------------------------- pages
    async def glossary(self, table: LiveTable) -> dict:
        """What each card and named thing of the table's game says (the cheat-sheet's words), for the pages'
        hover texts: the printed cards and components, public to every seat."""
        key = (table.row.game_path, table.row.variant)
        if key not in self.glossaries:
            self.glossaries[key] = await asyncio.to_thread(pages.glossary, *key)
        return self.glossaries[key]

    async def send(self, table: LiveTable, conn: Connection) -> None:
        msg = table.message(conn.seat, conn.log_from)
        if table.state is not None:
            conn.log_from = len(table.state.log)
        await conn.socket.send_text(json.dumps(msg, ensure_ascii=False))

    async def broadcast(self, table: LiveTable) -> None:
        for conn in list(self.connections.get(table.id, ())):
            try:
                await self.send(table, conn)
            except (WebSocketDisconnect, RuntimeError):
                self.connections[table.id].discard(conn)

    async def answer(self, table: LiveTable, conn: Connection, text: str) -> Optional[str]:
        """Take one message from a page; the reason it was refused, or None."""
        if len(text) > MAX_MESSAGE:
            return "that message is too long"
        if not conn.rate.allow(None):
            return "too many messages: wait a moment"
        try:
            msg = json.loads(text)
        except ValueError:
            return "a message must be JSON"
        if not isinstance(msg, dict) or msg.get("type") != "act":
            return 'a message is {"type": "act", "decision": N, "option": I}'
        reason = table.refusal(conn.seat, msg.get("decision"), msg.get("option"))
        if reason is not None:
            return reason
        self.commit(table, conn.seat, table.option(conn.seat, msg["option"]).label)
        await self.broadcast(table)
        self.kick(table)
        return None

    def find(self, request) -> tuple:
        table = self.tables.get(request.path_params["table"])
        seat = table.seat_of(request.path_params["token"]) if table is not None else None
        return (table, seat) if seat is not None else (None, None)


def _broken_table(row: TableRow) -> LiveTable:
    table = LiveTable.__new__(LiveTable)
    table.row, table.game, table.broken, table.state = row, None, row.broken, None
    table.agent_states, table.taken, table.driving = list(row.agent_states), list(row.decisions), False
    return table


def create_app(catalog: Catalog, db: str, workers: int = 2, race_delay: float = 1.0,
               open_rate: int = 30, uploads: Optional[str] = None) -> Starlette:
    """The ASGI app serving the catalog's games, with its tables in the SQLite file `db`; with `uploads` (a
    folder), people may upload house rules (uploads.py)."""
    server = Server(catalog, db, workers, race_delay, open_rate, uploads)

    async def lobby(request: Request) -> Response:
        return HTMLResponse(pages.lobby(catalog, uploads is not None))

    async def upload(request: Request) -> Response:
        from urllib.parse import parse_qs

        from .uploads import save_upload

        if uploads is None:
            return HTMLResponse(pages.message("This server takes no uploads (start it with --allow-uploads)."),
                                status_code=403)
        client = request.client.host if request.client else None
        if not server.opened.allow(("upload", client)):
            return HTMLResponse(pages.message("Too many uploads from here: wait a minute."), status_code=429)
        body = await _body(request, MAX_UPLOAD_BODY)
        if body is None:
            return HTMLResponse(pages.message("That upload is too large."), status_code=413)
        form = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True).items()}
        try:
            entry = await asyncio.to_thread(save_upload, catalog, Path(uploads), form.get("name", ""),
                                            form.get("text", ""))
        except WishError as err:
            return HTMLResponse(pages.message("The house rule does not check:", str(err)), status_code=400)
        return HTMLResponse(pages.lobby(catalog, True, notice=f"{entry.key} checks and is on offer: {entry.name}"))

    async def open_form(request: Request) -> Response:
        body = await _body(request)
        if body is None:
            return HTMLResponse(pages.message("That request is too large."), status_code=413)
        from urllib.parse import parse_qs

        form = {k: v[0] for k, v in parse_qs(body.decode("utf-8", "replace")).items()}
        try:
            form["players"] = int(form.get("players", ""))
            form["seed"] = int(form["seed"]) if form.get("seed", "").strip() else None
        except ValueError:
            return HTMLResponse(pages.message("Players and seed are whole numbers."), status_code=400)
        return _opened(request, form, lambda links: HTMLResponse(pages.opened(links)),
                       lambda why, code: HTMLResponse(pages.message(why), status_code=code))

    async def open_api(request: Request) -> Response:
        body = await _body(request)
        if body is None:
            return JSONResponse({"error": "the request is too large"}, status_code=413)
        try:
            doc = json.loads(body)
        except ValueError:
            return JSONResponse({"error": "the request is not JSON"}, status_code=400)
        if not isinstance(doc, dict):
            return JSONResponse({"error": "the request is a JSON object"}, status_code=400)
        return _opened(request, doc, JSONResponse, lambda why, code: JSONResponse({"error": why}, status_code=code))

    def _opened(request, doc, ok, fail) -> Response:
        client = request.client.host if request.client else None
        if not server.opened.allow(client):
            return fail("too many tables opened from here: wait a minute", 429)
        try:
            table = server.open_table(doc)
        except WishError as err:
            return fail(str(err), 400)
        return ok(server.links(table))

    async def play(request: Request) -> Response:
        table, seat = server.find(request)
        if table is None:
            return HTMLResponse(pages.message("There is no such table, or the link is not complete."),
                                status_code=404)
        return HTMLResponse(pages.table_page(table, seat))

    async def status(request: Request) -> Response:
        table, seat = server.find(request)
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        st = table.state
        return JSONResponse({"id": table.id, "over": table.over, "broken": table.broken,
                             "decisions": len(table.taken), "waiting_for": [] if st is None else st.to_move,
                             "result": st.result() if table.over else None})

    async def download(request: Request) -> Response:
        table, seat = server.find(request)
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        if not table.over:
            return JSONResponse({"error": "the game is not over: its record holds every card"}, status_code=409)
        doc = table.document(table.row.game_path)
        return Response(json.dumps(doc, ensure_ascii=False, indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="wishdsl-{table.id}.json"'})

    async def step(request: Request) -> Response:
        table, seat = server.find(request)
        if table is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        if not table.over:
            return JSONResponse({"error": "a game is replayed once it is over"}, status_code=409)
        return JSONResponse(table.step(int(request.path_params["k"])))

    async def rules(request: Request) -> Response:
        from docgen.render import render_sheet

        entry = catalog.get(request.path_params["game"])
        if entry is None:
            return HTMLResponse(pages.message("No such game here."), status_code=404)
        variant = request.query_params.get("variant") or None
        if variant is not None and variant not in entry.variants:
            return HTMLResponse(pages.message("No such variant."), status_code=404)
        return HTMLResponse(render_sheet(entry.path, variant, "html"))

    async def socket(websocket: WebSocket) -> None:
        table, seat = server.find(websocket)
        if table is None:
            await websocket.close(code=1008)
            return
        await websocket.accept()
        conn = Connection(websocket, seat)
        server.connections.setdefault(table.id, set()).add(conn)
        try:
            if table.game is not None:
                await websocket.send_text(json.dumps({"type": "glossary", **await server.glossary(table)},
                                                     ensure_ascii=False))
            await server.send(table, conn)
            while True:
                text = await websocket.receive_text()
                why = await server.answer(table, conn, text)
                if why is not None:
                    await websocket.send_text(json.dumps({"type": "refused", "reason": why}))
        except WebSocketDisconnect:
            pass
        finally:
            server.connections.get(table.id, set()).discard(conn)

    async def _body(request: Request, limit: int = MAX_BODY) -> Optional[bytes]:
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > limit):
            return None
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                return None
        return body

    async def not_found(request, exc) -> Response:
        return HTMLResponse(pages.message("Nothing here."), status_code=404)

    async def failed(request, exc) -> Response:
        return HTMLResponse(pages.message("Something went wrong on the server."), status_code=500)

    routes = [
        Route("/", lobby),
        Route("/tables", open_form, methods=["POST"]),
        Route("/api/tables", open_api, methods=["POST"]),
        Route("/upload", upload, methods=["POST"]),
        Route("/play/{table}/{token}", play),
        Route("/api/tables/{table}/{token}", status),
        Route("/api/tables/{table}/{token}/game.json", download),
        Route("/api/tables/{table}/{token}/step/{k:int}", step),
        Route("/rules/{game:path}", rules),
        WebSocketRoute("/ws/{table}/{token}", socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        await server.startup()
        try:
            yield
        finally:
            await server.shutdown()

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: not_found, 405: not_found, 500: failed, Exception: failed})
    app.state.server = server
    return app
