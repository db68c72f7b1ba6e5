"""One web table in play: a game, its seats and their secret tokens, the decisions taken, and the messages each
seat receives.

Everything a seat receives is built from `state.view(seat)` (its options and log lines included), never from
the state itself; a spectator's from the onlooker's view (`views.PUBLIC`: the cards every player knows) while
the game runs, and from the full view once it is over. A seat acts by naming the decision it answers (the
number of decisions completed when it was offered) and the index of an option it was offered; anything else
is refused with a reason, and the game goes on.

A table with people at it is timed (`Game.new_state`): the answers to a decision several seats answer at once
count in the order the server receives them, which a game reads with `first_to_answer` (Wunschmaschine's slap
race). A table of AI seats only is not: it plays exactly the game `wishdsl run` plays.
"""
from __future__ import annotations

import secrets
from typing import Optional

from dsl.errors import IllegalAction, WishError
from interpreter.views import PUBLIC
from interpreter.why import explanation_lines

from ..replay import ReplayError, game_document, replay_actions
from .store import TableRow

HUMAN = "human"  # a seat played by a person in a browser
SPECTATOR = "spectator"


class LiveTable:
    """A table in memory: its stored row, the Game, the State, and each AI seat's agent state."""

    def __init__(self, row: TableRow, game):
        """`game`: the loaded Game, or None when it no longer loads (then `row.broken` says why)."""
        self.row = row
        self.game = game
        self.broken: Optional[str] = row.broken if game is not None else (row.broken or "the game does not load")
        self.agent_states = list(row.agent_states)
        self.taken = list(row.decisions)
        self.driving = False  # its AI seats are being asked (server.py)
        self.replayed = None  # (k, the state after k decisions): the last step a replay asked for
        self.state = None
        if self.broken is None:
            try:  # with people at the table, the order their answers arrive in counts (a slap race)
                self.state = replay_actions(game, row.players, row.seed, self.taken, "the table's decisions",
                                            timed=HUMAN in row.specs, why=True)  # a page may ask `why`
            except (ReplayError, WishError) as err:
                self.broken = f"this table cannot go on: {err}"

    @property
    def id(self) -> str:
        return self.row.id

    # ---------------------------------------------------------------- who is who
    def seat_of(self, token: str) -> Optional[object]:
        """The seat (0-based) a token belongs to, SPECTATOR for the table's watch token, else None."""
        found = None
        for seat, t in enumerate(self.row.tokens):
            if secrets.compare_digest(t.encode(), token.encode()):
                found = seat
        if secrets.compare_digest(self.row.watch_token.encode(), token.encode()):
            found = SPECTATOR
        return found

    def is_ai(self, seat: int) -> bool:
        return self.row.specs[seat] != HUMAN

    def ai_to_move(self) -> list:
        """The AI seats that must answer now, in seat order."""
        st = self.state
        if st is None or self.broken is not None or st.is_over:
            return []
        return [p for p in st.to_move if self.is_ai(p)]

    def person_waits(self) -> bool:
        """Does a person answer the pending decision too (a race between people and AI seats)?"""
        return any(not self.is_ai(p) for p in self.state.to_move)

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.is_over

    # ---------------------------------------------------------------- acting
    def refusal(self, seat, decision, option) -> Optional[str]:
        """Why `seat` may not take option `option` of decision `decision` now, or None."""
        st = self.state
        if seat == SPECTATOR:
            return "a spectator cannot act"
        if self.broken is not None:
            return self.broken
        if st.is_over:
            return "the game is over"
        if type(decision) is not int or type(option) is not int:
            return "an answer names its decision and option by number"
        if self.is_ai(seat):
            return "this seat is played by an AI agent"
        if decision != st.decisions:
            return "that decision is over: answer the one on the table now"
        if seat not in st.decision.players:
            return "it is not your decision"
        if seat in st.decision.answers:
            return "you have already answered this decision"
        n = len(st.legal_actions(seat))
        if not 0 <= option < n:
            return f"there is no option {option}: options are numbered 0 to {n - 1}"
        return None

    def option(self, seat: int, index: int):
        return self.state.legal_actions(seat)[index]

    def label_offered(self, seat: int, label: str) -> bool:
        st = self.state
        return not st.is_over and seat in st.to_move and label in [a.label for a in st.legal_actions(seat)]

    def apply(self, seat: int, label: str) -> None:
        """Apply a decision already stored (its label is one of `seat`'s options). A rule that fails breaks the
        table with the error's message."""
        try:
            self.state.apply(label, player=seat)
        except (IllegalAction, WishError) as err:
            self.broken = f"the game stopped: {err}"
            raise
        self.taken.append((seat, label))

    # ---------------------------------------------------------------- what a seat receives
    def seat_names(self) -> list:
        return [HUMAN if s == HUMAN else "AI: " + s for s in self.row.specs]

    def message(self, seat, log_from: int) -> dict:
        """The message for a seat (or the spectator) whose page has the log up to `log_from`."""
        st = self.state
        base = {"type": "table", "table": self.id, "game": self.game.title if self.game else self.row.game_path,
                "players": self.row.players,
                "seats": self.seat_names(),
                "seat": None if seat == SPECTATOR else seat, "broken": self.broken}
        if st is None:
            return base
        view = st.view(self.reader(seat), log_from)
        base.update(view=view, decision_number=st.decisions, taken=len(self.taken), log_from=log_from)
        if seat != SPECTATOR and view["decision"] is not None and "options" in view["decision"]:
            base["options"] = list(st.legal_actions(seat).texts())
        if st.is_over:
            base["result"] = st.result()
        return base

    def reader(self, seat):
        """Whose reading of the game a seat's page shows: the seat's; the onlooker's for the spectator until the
        game is over, then everything."""
        return seat if seat != SPECTATOR else (None if self.state.is_over else PUBLIC)

    def why(self, seat, line) -> tuple:
        """(the message explaining log line `line` (1-based) to a seat — the chain of rules that wrote it, as
        the seat may know it (interpreter/why.py) — or None, the reason it cannot be)."""
        st = self.state
        if st is None:
            return None, "this table has no game running"
        if type(line) is not int or not 1 <= line <= len(st.log):
            return None, f"there is no line {str(line)[:20]} in the log (1 to {len(st.log)})"
        lines = explanation_lines(st, line - 1, self.reader(seat))
        return {"type": "why", "line": line, "text": lines[0].strip(), "chain": [x.strip() for x in lines[1:]]}, None

    def step(self, k: int) -> dict:
        """A finished game after its first `k` decisions, as everyone may now see it (the replay's message)."""
        k = max(0, min(k, len(self.taken)))
        if self.replayed is not None and self.replayed[0] <= k:
            done, st = self.replayed[0], self.replayed[1].clone()
        else:
            done, st = 0, self.game.new_state(self.row.players, self.row.seed, self.state.timed)
        for seat, label in self.taken[done:k]:
            st.apply(label, player=seat)
        self.replayed = (k, st)
        nxt = self.taken[k] if k < len(self.taken) else None
        return {"type": "step", "step": k, "of": len(self.taken), "view": st.view(None), "seats": self.seat_names(),
                "seat": None,
                "next": None if nxt is None else {"player": nxt[0], "label": nxt[1]}}

    def document(self, path: str) -> dict:
        """The finished game as `wishdsl run --json` prints it (`wishdsl replay` reads it)."""
        return game_document(self.game, path, self.row.seed, self.row.specs, self.state, self.taken)
