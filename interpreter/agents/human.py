"""HumanAgent: a person at the terminal. It shows what its seat sees and reads a choice.

Before each decision it prints a screen (screen.py), fitted to the terminal: what happened since its seat's last
decision, the table the game declares (table_text.py; a game without one: its variables but the `@bookkeeping`
ones, its zones with the cards the seat cannot see as '?', the announcements), then the prompt and the options,
each with a number it keeps while it is offered and read with the game's display names. An
answer is matched by `answers.pick`: a number, a label or display text or a unique beginning of one, or words
that name one option only, with "did you mean" otherwise; `?` or `help` lists the options again; `quit` leaves
(the command line then saves the game); `undo` takes back the person's previous decision unless something was
revealed to them since. Answers read from a file or pipe are echoed, so a transcript reads like a session. End of
input, `quit` or Ctrl-C raises `Quit`.
"""
from __future__ import annotations

import os
import re
import sys
import textwrap
from typing import Optional, TextIO

from ..engine import Action
from . import Agent, Undo
from .answers import Names, Numbers
from .answers import pick as pick_answer
from .screen import Detail, fit, log_section, options_section
from .table_text import WIDTH, cards_text, own_cards, score_breakdown, table_lines

MAX_ANNOUNCEMENTS = 12
HEIGHT = 40  # lines of a screen written to a file or a pipe
QUIET_KINDS = {"move", "var", "shuffle", "turn"}  # log lines a declared table shows as its state
PLAYER_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")
COLOUR_WORDS = {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow", "purple": "magenta",
                "white": "bright_white", "black": "bright_black", "orange": "dark_orange", "pink": "pink1"}
LOOKUPS = ("To read while you play: 'rules' (the topics), 'rules TOPIC', 'card NAME', or a component by its kind "
           "({examples}); 'log' prints everything since your last decision, 'score' the score so far step by "
           "step; 'why N' shows which rules wrote line N of the log. 'undo' takes back your previous decision; "
           "'quit' saves and leaves.")


class Quit(Exception):
    """The person left the game (end of input, `quit` or Ctrl-C)."""


class HumanAgent(Agent):
    """Plays one seat from a text stream; `input`/`output` default to stdin/stdout at the time of use."""

    name = "human"
    can_undo = True  # `play` keeps the state before each of its decisions, for `undo`

    def __init__(self, seat: int, seed: int = 0, input: Optional[TextIO] = None, output: Optional[TextIO] = None):
        super().__init__(seat, seed)
        self._input = input
        self._output = output
        self.shown = 0
        self.names = Names()
        self.numbers = Numbers()
        self.hide: set = set()
        self.reference = None
        self.resync = False
        self.last_lines = None  # the table as shown at this person's last decision
        self.recent: list = []  # the log lines since this person's last decision
        self.recent_from = 0  # the number (0-based) of the first of them in the log
        self.explain = None  # (line, seat) → the lines explaining it (interpreter/why.py), set by who runs the game
        self.quiet: list = []  # which of them the table shows (cards moved, values changed)
        self.table_now: list = []  # the table's lines on the screen being drawn
        self.colours = dict(COLOUR_WORDS)

    def use_game(self, game, reference=None) -> "HumanAgent":
        """Show options with this game's display names, and leave out its `@bookkeeping` variables. With a
        `reference` (docgen.lookup.Reference: the layers below docgen do not import it), the person may look up
        rules, cards and components, and sees the cards of their own zones with their costs and texts."""
        self.reference = reference
        self.names = Names(game)
        self.colours = colours_of(game)
        self.hide = {v.name for v in (*game.gvars, *game.pvars, *game.kvars) if v.bookkeeping}
        return self

    @property
    def input(self) -> TextIO:
        return self._input if self._input is not None else sys.stdin

    @property
    def output(self) -> TextIO:
        return self._output if self._output is not None else sys.stdout

    def say(self, text: str = "") -> None:
        print(text, file=self.output, flush=True)

    # ---------------------------------------------------------------- showing
    def show_log(self, lines: list) -> None:
        """Print the lines of this seat's log not shown yet (the end of a game: the last moves)."""
        for line in self.take_log(lines):
            for part in textwrap.wrap(line, WIDTH - 2, subsequent_indent="    ") or [""]:
                self.say(f"  {part}")

    def take_log(self, lines: list, kinds: Optional[list] = None) -> list:
        """The lines of this seat's log since its last decision (after an undo: none of the earlier ones again),
        with the game's display names; kept for 'log'. With `kinds`, `self.quiet` marks the lines the table
        shows (cards moved, values changed)."""
        if self.resync:
            self.shown, self.resync = len(lines), False
        start = self.recent_from = self.shown
        self.recent = [self.names.text(line) for line in lines[start:]]
        self.quiet = [kinds is not None and kinds[i] in QUIET_KINDS for i in range(start, len(lines))]
        self.shown = max(self.shown, len(lines))
        return self.recent

    def screen(self, view: dict, prompt: str, numbers: list, texts: list, detail: Detail, width: int) -> list:
        """The lines of the screen before a decision, at the given detail (see screen.py)."""
        me = view["player"]
        out = [f"── {view['game']} — you are player {me + 1} ──"]
        out.extend(log_section(self.recent, self.quiet, detail.log, width))
        table = view.get("table")
        if table:
            describe = self.reference.summary if self.reference is not None else None
            self.table_now = table_lines(table, me, describe, width, detail.cards, detail.empty)
            out.extend(self.table_now)
        else:
            self.table_now = self.raw_lines(view, me)
            out.extend(self.table_now)
            out.extend(announcement_lines(view, width))
        out.extend(options_section(prompt, numbers, texts, detail.grouped, width, detail.columns))
        return out

    def raw_lines(self, view: dict, me: int) -> list:
        """A game that declares no table: its variables (not the `@bookkeeping` ones) and zones as they are."""
        out = []
        shown = {k: v for k, v in (view.get("vars") or {}).items() if k not in self.hide}
        if shown:
            out.append("Game: " + _pairs(shown))
        for p, pv in enumerate(view.get("player_vars", [])):
            pv = {k: v for k, v in pv.items() if k not in self.hide}
            if pv:
                out.append(f"player {p + 1}{' (you)' if p == me else ''}: " + _pairs(pv))
        for z in view.get("zones", []):
            out.append(f"{z['zone']} [{len(z['cards'])}]: {cards_text(z['cards'], facing=True)}")
            if self.reference is not None:
                out.extend(f"    • {name}: {line}" for name, line in own_cards([z], me, self.reference.summary))
        return out

    def size(self) -> tuple:
        """(columns, lines) to draw in: the terminal's (at most WIDTH columns), or WIDTH × HEIGHT when the
        output is a file or a pipe, so that a transcript is the same everywhere."""
        if _isatty(self.output):
            try:
                cols, lines = os.get_terminal_size(self.output.fileno())
                return min(WIDTH, max(40, cols)), max(10, lines)
            except (OSError, ValueError):
                pass
        return WIDTH, HEIGHT

    def show_lines(self, lines: list) -> None:
        """The screen's lines. At a terminal (unless NO_COLOR is set) they are coloured — players, colour words —
        and a line of the table that changed since this person's last decision is bold; elsewhere (a file, a
        pipe, a test) they are plain text."""
        before, self.last_lines = self.last_lines, set(self.table_now)
        if not _isatty(self.output):
            for line in lines:
                self.say(line)
            return
        from rich.console import Console
        from rich.text import Text

        console = Console(file=self.output, force_terminal=True, width=WIDTH, highlight=False, soft_wrap=True)
        for line in lines:
            text = Text(line)
            for n, style in enumerate(PLAYER_STYLES, 1):
                text.highlight_regex(rf"\bplayer {n}\b( \(you\))?", style)
            for word, style in self.colours.items():
                text.highlight_regex(rf"\b{re.escape(word)}\b", style)
            if before is not None and line in self.last_lines and line not in before and line.strip():
                text.stylize("bold")
            console.print(text)
        self.output.flush()

    def show_options(self, prompt: str, actions: list, numbers: list, texts: list) -> None:
        for line in options_section(prompt, numbers, texts):
            self.say(line)

    # ---------------------------------------------------------------- choosing
    def act(self, view: dict, actions: list) -> Action:
        if not actions:
            raise ValueError(f"{self!r} was asked to act with no legal actions")
        decision = view.get("decision") or {}
        prompt = decision.get("prompt") or "Your choice"
        labels = [a.label for a in actions]
        numbers = self.numbers.assign(labels)
        texts = actions.texts() if hasattr(actions, "texts") else [self.names.text(label) for label in labels]
        table = view.get("table")
        self.take_log(view.get("log", []), view.get("log_kinds") if table else None)
        width, height = self.size()
        self.say()
        self.show_lines(fit(lambda d: self.screen(view, prompt, numbers, texts, d, width), height - 1))
        while True:
            answer = self.read(f"player {self.seat + 1}> ")
            if answer.lower() in ("?", "help"):
                self.show_options(prompt, actions, numbers, texts)
                if self.reference is not None:
                    kinds = [(k, m) for k, m in self.reference.enums.items() if m and " " not in k][-3:]
                    text = LOOKUPS.format(examples=", ".join(f"'{k.lower()} {m[0]}'" for k, m in kinds))
                    for line in textwrap.wrap(text, WIDTH):
                        self.say(line)
                continue
            if answer.lower() == "score" and table and not any(_norm(a.label).startswith("score") for a in actions):
                for line in score_breakdown(table, view["player"]):
                    self.say(line)
                continue
            if answer.lower() == "log" and not any(_norm(a.label).startswith("log") for a in actions):
                numbered = [f"{self.recent_from + i + 1:>5}  {line}" for i, line in enumerate(self.recent)]
                for line in numbered or ["(nothing happened since your last decision)"]:
                    self.say(f"  {line}")
                continue
            if answer.lower().split()[:1] == ["why"] and self.explain is not None \
                    and not any(_norm(a.label).startswith("why") for a in actions):
                self.say(self.why(answer, view))
                continue
            looked = self.look_up(answer, labels)
            if looked is not None:
                self.say(looked)
                continue
            if answer.lower() == "quit" and not any(_norm(a.label) == "quit" for a in actions):
                raise Quit()
            if answer.lower() == "undo" and not any(_norm(a.label) == "undo" for a in actions):
                raise Undo()
            choice, problem = pick_answer(answer, actions, numbers, texts)
            if choice is not None:
                return choice
            self.say(problem)

    def why(self, answer: str, view: dict) -> str:
        """`why N`: how line N of the log came to be written, as this seat may know it (`why`: the last line)."""
        words = answer.split()
        count = len(view.get("log", []))
        if len(words) == 1:
            k = count - 1
        elif len(words) == 2 and words[1].isdigit() and 1 <= int(words[1]) <= count:
            k = int(words[1]) - 1
        else:
            return f"Type 'why N' with N a line of the log, 1 to {count} ('log' shows their numbers)."
        return "\n".join(self.explain(k, self.seat))

    def undone(self, refused: Optional[str]) -> None:
        """What came of an `undo`: taken back (the game goes back to the person's previous decision), or why not."""
        if refused is None:
            self.say("Taken back: your previous decision is asked again.")
            self.resync = True
        else:
            self.say(f"Cannot undo: {refused}.")

    def look_up(self, answer: str, labels: list) -> Optional[str]:
        """The text an answer asks to read (`rules TOPIC`, `card NAME`, `area NAME` …), or None when it is no
        such command (or an option's name begins with its first word)."""
        ref = self.reference
        word, _, rest = answer.strip().partition(" ")
        if ref is None or not word or any(_norm(label).startswith(_norm(word)) for label in labels):
            return None
        word = word.lower()
        if word == "rules":
            return ref.rules(rest)
        if word == "card":
            return ref.card(rest) if rest.strip() else "Type 'card NAME'."
        enum = ref.enum_named(word)
        if enum is not None:
            return ref.component(rest, enum) if rest.strip() else f"Type '{word} NAME'."
        return None

    def read(self, prompt: str) -> str:
        self.output.write(prompt)
        self.output.flush()
        try:
            line = self.input.readline()
        except KeyboardInterrupt:
            raise Quit() from None
        if not line:
            self.say()
            raise Quit()
        if not _isatty(self.input):
            self.output.write(line if line.endswith("\n") else line + "\n")
        return line.strip()


def announcement_lines(view: dict, width: int) -> list:
    """The values announced so far, the newest last (a game without a table; a table shows its own)."""
    ann = view.get("announcements") or []
    if not ann:
        return []
    more = f"… ({len(ann) - MAX_ANNOUNCEMENTS} earlier), " if len(ann) > MAX_ANNOUNCEMENTS else ""
    return textwrap.wrap("Announcements: " + more + ", ".join(map(str, ann[-MAX_ANNOUNCEMENTS:])), width)


def colours_of(game) -> dict:
    """Words to colour at the terminal: the colour words, and what an enum member named by a colour names in its
    fields (Wish: the colour red's Crystal is the Ruby, so "Ruby" is red too)."""
    out = dict(COLOUR_WORDS)
    shown = getattr(game, "member_display", {})
    for member, fields in getattr(game, "enum_data", {}).items():
        style = COLOUR_WORDS.get(shown.get(member, member))
        if style is None:
            continue
        for value in fields.values():
            if isinstance(value, str) and value in shown and shown[value] not in out:
                out[shown[value]] = style
    return out


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def pick(answer: str, actions: list) -> tuple:
    """(the action an answer names, None) or (None, why it names none), with the options numbered 1, 2, …"""
    return pick_answer(answer, actions)


def _norm(text: str) -> str:
    return " ".join(text.replace('"', "").lower().split())


def _pairs(values: dict) -> str:
    return ", ".join(f"{k} {_plain(v)}" for k, v in values.items())


def _plain(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)
