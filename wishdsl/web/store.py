"""Where the web tables live: one SQLite file (`wishdsl serve --db PATH`).

A table is its game (the file's path, variant and fingerprint), players, seed and seats (an agent spec or
"human", and each seat's secret token); its decisions are rows `(table, n, seat, label)`. The seed and the
decisions are authoritative, as in a save file: a table is resumed by replaying them (wishdsl/replay.py). An
AI seat's own generator is stored beside them (`agent_state`), in the same transaction as its decision, so a
resumed table asks its agents from exactly where they were.

Every decision is committed before the server acknowledges it. The database runs in WAL mode with
`synchronous=NORMAL`: a committed decision survives the server's process being killed (`kill -9`); after a
crash of the whole machine the last decisions before it may be lost, never half of one.
"""
from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from typing import Optional

import attrs

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, game_path TEXT NOT NULL, variant TEXT, fingerprint TEXT NOT NULL,
    players INTEGER NOT NULL, seed INTEGER NOT NULL, watch_token TEXT NOT NULL,
    created REAL NOT NULL, finished REAL, broken TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, spec TEXT NOT NULL,
    token TEXT NOT NULL UNIQUE, agent_state TEXT, PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS decisions (
    table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, seat INTEGER NOT NULL,
    label TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, n)
);
"""


@attrs.define
class TableRow:
    """A table as stored: enough to rebuild it."""

    id: str
    game_path: str
    variant: Optional[str]
    fingerprint: str
    players: int
    seed: int
    watch_token: str
    specs: list  # one per seat: "human" or an agent spec
    tokens: list  # one per seat
    agent_states: list  # one per seat: None or the agent's state as stored
    decisions: list  # [(seat, label)], in order
    broken: Optional[str] = None


class Store:
    """The tables' SQLite database. Used from one thread (the server's event loop)."""

    def __init__(self, path: str):
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def create(self, row: TableRow) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO tables (id, game_path, variant, fingerprint, players, seed, watch_token,"
                            " created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                            (row.id, row.game_path, row.variant, row.fingerprint, row.players, row.seed,
                             row.watch_token, time.time()))
            self.db.executemany("INSERT INTO seats (table_id, seat, spec, token) VALUES (?, ?, ?, ?)",
                                [(row.id, s, spec, tok) for s, (spec, tok) in enumerate(zip(row.specs, row.tokens))])

    def add_decision(self, table_id: str, n: int, seat: int, label: str, agent_state=None) -> None:
        """Decision `n` (0-based) of a table, with the deciding agent's state after it; committed on return."""
        with self._transaction():
            self.db.execute("INSERT INTO decisions (table_id, n, seat, label, at) VALUES (?, ?, ?, ?, ?)",
                            (table_id, n, seat, label, time.time()))
            if agent_state is not None:
                self.db.execute("UPDATE seats SET agent_state = ? WHERE table_id = ? AND seat = ?",
                                (json.dumps(agent_state, separators=(",", ":")), table_id, seat))

    def finish(self, table_id: str) -> None:
        with self._transaction():
            self.db.execute("UPDATE tables SET finished = ? WHERE id = ?", (time.time(), table_id))

    def mark_broken(self, table_id: str, why: str) -> None:
        with self._transaction():
            self.db.execute("UPDATE tables SET broken = ? WHERE id = ?", (why, table_id))

    def ids(self) -> list:
        return [r[0] for r in self.db.execute("SELECT id FROM tables ORDER BY created, id")]

    def load(self, table_id: str) -> Optional[TableRow]:
        t = self.db.execute("SELECT id, game_path, variant, fingerprint, players, seed, watch_token, broken"
                            " FROM tables WHERE id = ?", (table_id,)).fetchone()
        if t is None:
            return None
        seats = self.db.execute("SELECT spec, token, agent_state FROM seats WHERE table_id = ? ORDER BY seat",
                                (table_id,)).fetchall()
        decisions = self.db.execute("SELECT seat, label FROM decisions WHERE table_id = ? ORDER BY n",
                                    (table_id,)).fetchall()
        return TableRow(t[0], t[1], t[2], t[3], t[4], t[5], t[6], [s[0] for s in seats], [s[1] for s in seats],
                        [None if s[2] is None else json.loads(s[2]) for s in seats],
                        [(d[0], d[1]) for d in decisions], t[7])

    @contextlib.contextmanager
    def _transaction(self):
        """BEGIN … COMMIT, or ROLLBACK when the block raised."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
