"""A person plays each game to its end at a terminal (issue 19): the command line runs in a pseudo-terminal, a
scripted person answers every prompt, and what the screen shows is checked — the board and panels the game file
declares, the player's own cards with their costs and texts, the score so far — and that secret cards (your own
3 Wishes hand, the card set aside, another player's Destiny) stay unnamed.
"""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
RUN = "import sys; from wishdsl.cli import main; sys.exit(main(sys.argv[1:]))"
PROMPT = re.compile(rb"player (\d+)> $")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
RAW = ""  # the last game's output with its colours


def play(args: list, answer, timeout: float = 300) -> str:
    """Run `wishdsl run ARGS` in a 100 × 40 pseudo-terminal; `answer(screen so far)` gives each answer."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    env = dict(os.environ, COLUMNS="100", LINES="40", WISHDSL_CACHE="0", TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-c", RUN, "run", *args], stdin=slave, stdout=slave, stderr=slave,
                            cwd=ROOT, env=env, start_new_session=True)
    os.close(slave)
    out = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 5)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # the other end is closed: the game is over
                break
            if not data:
                break
            out += data
            if PROMPT.search(out[-40:]):
                os.write(master, answer(ANSI.sub("", out.decode("utf-8", "replace"))).encode() + b"\n")
        else:
            pytest.fail("the game did not end in time:\n" + out.decode("utf-8", "replace")[-3000:])
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        os.close(master)
    global RAW
    RAW = out.decode("utf-8", "replace").replace("\r\n", "\n")
    return ANSI.sub("", RAW)


def first_option(text: str) -> str:
    """The number of the first option on the current screen (numbers stay with their options, so the first
    one shown need not be 1)."""
    screen = text.rsplit("\n── ", 1)[-1]
    numbers = re.findall(r"(?:^\s+|  )(\d+)\) ", screen, re.M)  # one per line, or a short list on one line
    assert numbers, screen[-2000:]
    return numbers[0]


def screens(text: str) -> list:
    """The screens shown before each decision, each from its heading line to its prompt."""
    return [s for s in re.split(r"\n── ", text)[1:]]


def test_wunschmaschine_is_played_to_the_end_at_the_terminal():
    text = play(["games/wunschmaschine.wish", "--players", "3", "--human", "1", "--seed", "4"], first_option)
    assert "Winner:" in text or "Nobody wins." in text
    assert "Result:" in text
    shown = screens(text)
    assert shown and all("wish coins in the supply" in s for s in shown)
    assert any("player 1 (you): the Wish Machine" in s for s in shown)
    assert any(re.search(r"table, row \d", s) for s in shown)
    assert all(re.search(r"^player 1 \(you\): .*· score \d+", s, re.M) for s in shown)
    # each row laid this round with what the Machine announced for it
    assert any(re.search(r"^  table, row 1: .* — (Yes|No)$", s, re.M) for s in shown)
    assert all(fits(s) for s in shown)


def paragraph(screen: str, start: str) -> str:
    """The paragraph of a screen that begins with `start` (its wrapped lines joined)."""
    lines = screen.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith(start))
    j = i + 1
    while j < len(lines) and lines[j].startswith("    ") and not lines[j].startswith("    •"):
        j += 1
    return " ".join(" ".join(lines[i:j]).split())


def fits(screen: str) -> bool:
    """A screen (its heading to the answer typed at its prompt) fits the 100 × 40 terminal."""
    lines = screen.splitlines()
    prompt = max(i for i, line in enumerate(lines) if re.match(r"player \d+> ", line))
    lines = lines[:prompt + 1]
    return len(lines) <= 40 and max(len(line) for line in lines) <= 100


def test_three_wishes_is_played_to_the_end_and_your_own_cards_stay_unknown():
    text = play(["games/three_wishes.wish", "--players", "4", "--human", "1", "--seed", "6"], first_option)
    assert "Result:" in text
    shown = screens(text)
    # you never look at your own cards, nor at your own score
    assert len(shown) > 3 and "player 1 (you): turns this round 1 · score ? · hand: ? ×3" in shown[0]
    assert all("· aside: ? ·" in s for s in shown)  # the card set aside is seen by nobody
    assert all(fits(s) for s in shown)


def test_wish_is_played_to_the_end_with_the_map_the_hand_and_the_score():
    text = play(["games/wish.wish", "--players", "2", "--human", "1", "--seed", "2"], first_option, timeout=600)
    assert "Result:" in text and "5. Destiny" in text
    shown = [s for s in screens(text) if "SANDHILLS" in s]
    assert len(shown) > 5
    for s in shown:
        assert fits(s)
        lines = s.splitlines()
        assert any(line.startswith("─ SANDHILLS ─") and line.endswith("┼─ FOREST") for line in lines)
        mine, theirs = paragraph(s, "player 1 (you): "), paragraph(s, "player 2: ")
        assert re.search(r"· score \d+ ·", mine)
        # the other player's Destiny is secret until the end (their hand holds cards everyone saw drawn from
        # the Offer, so it may show names; in-process tests check every view against the knowledge rules)
        assert "· hand: " in theirs
        assert re.search(r"· destiny: (\(empty\)|\? ×\d+|\?)( ·|$)", theirs), theirs
    assert any(re.search(r"• [A-Z][^:]*: \w+ · cost .* · VP \d+", s) for s in shown)
    # at a terminal the table is coloured (players, colour words and what they name: "Ruby" is red), and a line
    # that changed since the person's last decision is bold
    assert "\x1b[1;31mplayer 1 (you)" in RAW and "\x1b[31mRuby" in RAW and "\x1b[1m" in RAW
