"""The server behind `wishdsl serve` (app.py routes requests to it): its tables and their database, the pages
connected to each table, and the AI seats, asked in worker processes (thinking.py) while a game waits for them.

Everything that changes a table runs on the server's event loop, one step at a time: a decision is checked
(table.py), stored (store.py), applied, and then every page of the table is sent its new message.
"""
from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Optional

from starlette.websockets import WebSocket

from dsl.errors import WishError

from . import pages
from .catalog import Catalog
from .store import Store, TableRow
from .table import HUMAN, LiveTable
from .thinking import pool, think

MAX_MESSAGE = 4_000  # characters of one message from a page
MAX_TABLES = 2_000  # tables in one database
RATE = (20, 5.0)  # a connection may send 20 messages in 5 seconds; more are refused
RACE_DELAY = (0.6, 1.8)  # seconds an AI seat waits before answering a decision a person also answers

class Limiter:
    """At most `n` events in any `seconds` per key."""

    def __init__(self, n: int, seconds: float):
        self.n, self.seconds = n, seconds
        self.times: dict = {}

    def allow(self, key) -> bool:
        now = time.monotonic()
        if len(self.times) > 10_000:  # forget those who have been quiet for a while
            self.times = {k: ts for k, ts in self.times.items() if ts and now - ts[-1] < self.seconds}
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
            table = LiveTable(row, game)
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
                if table.person_waits():
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
        answer = await self.think(job)
        if "error" in answer:
            table.broken = f"the AI of seat {seat + 1} failed: {answer['error']}"
            self.store.mark_broken(table.id, table.broken)
        elif table.state.decisions == decision and table.label_offered(seat, answer["label"]):
            self.commit(table, seat, answer["label"], answer["agent_state"])
        await self.broadcast(table)

    async def think(self, job: dict) -> dict:
        """A worker's answer to a job; a pool whose worker died (killed, out of memory) is replaced once."""
        for _ in range(2):
            pool_now = self.pool
            try:
                return await asyncio.get_running_loop().run_in_executor(pool_now, think, job)
            except BrokenProcessPool:
                if self.pool is pool_now:
                    self.pool = pool(self.workers)
        return {"error": "its worker process keeps dying"}

    def delay(self, table: LiveTable, seat: int) -> float:
        """A seeded, human-like pause before an AI seat answers a decision that a person answers too."""
        if not self.race_delay or not table.person_waits():
            return 0.0
        lo, hi = RACE_DELAY
        return self.race_delay * random.Random(f"{table.row.seed}:{table.state.decisions}:{seat}").uniform(lo, hi)

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
            except Exception:  # a page that is gone (however its socket says so) drops out; the others go on
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
        if isinstance(msg, dict) and msg.get("type") == "why":
            reply, reason = table.why(conn.seat, msg.get("line"))
            if reply is not None:
                await conn.socket.send_text(json.dumps(reply, ensure_ascii=False))
            return reason
        if not isinstance(msg, dict) or msg.get("type") != "act":
            return 'a message is {"type": "act", "decision": N, "option": I} or {"type": "why", "line": N}'
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

