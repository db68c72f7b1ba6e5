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

import contextlib
import json
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
from .server import Connection, Server

MAX_BODY = 16_000  # bytes of a request that opens a table
MAX_UPLOAD_BODY = 400_000  # bytes of an upload's request (its text at most uploads.MAX_UPLOAD characters)
STATIC = Path(__file__).parent / "static"


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
        try:  # on the event loop, as everything that changes the catalog (a moment: uploads are rare and bounded)
            entry = save_upload(catalog, Path(uploads), form.get("name", ""), form.get("text", ""))
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

    def finished(request: Request, why: str) -> tuple:
        """(the finished table a request names, None), or (None, the error to answer with)."""
        table, _ = server.find(request)
        if table is None:
            return None, JSONResponse({"error": "no such table"}, status_code=404)
        if not table.over:
            return None, JSONResponse({"error": why}, status_code=409)
        return table, None

    async def download(request: Request) -> Response:
        table, refused = finished(request, "the game is not over: its record holds every card")
        if refused is not None:
            return refused
        doc = table.document(table.row.game_path)
        return Response(json.dumps(doc, ensure_ascii=False, indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="wishdsl-{table.id}.json"'})

    async def step(request: Request) -> Response:
        table, refused = finished(request, "a game is replayed once it is over")
        if refused is not None:
            return refused
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
