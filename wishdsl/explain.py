"""`--why` on the command line: which lines of a log to explain, and printing their chains
(interpreter/why.py records them; `run --why`, `replay --why N`, `why N` at the terminal table).

    wishdsl run games/wish.wish --seed 7 --why        # every line, followed by the chain that wrote it
    wishdsl run games/wish.wish --seed 7 --why 57     # the log as usual, then line 57 explained
    wishdsl replay game.json --why 57                 # line 57 of a saved game
"""
from __future__ import annotations

import argparse
from typing import Callable, Optional

ALL_LINES = 0  # `--why` without a number: every line


def line_number(text: str) -> int:
    """An argparse type: a line of the log, counted from 1 as `--why` prints them."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a line number of the log, found '{text}'") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"lines of the log are counted from 1, found {n}")
    return n


def live_printer(state_of: Callable, out: Callable = print) -> Callable:
    """An `on_log` for `play`: each line as it comes, followed by its chain (`state_of()` gives the state)."""
    from interpreter.why import explanation_lines

    shown = [0]

    def on_log(line: str) -> None:
        for text in explanation_lines(state_of(), shown[0]):
            out(text)
        shown[0] += 1
    return on_log


def print_lines(state, which: int, reader: Optional[int] = None, out: Callable = print) -> None:
    """Line `which` (1-based) explained, or every line for ALL_LINES."""
    from interpreter.why import explanation_lines

    lines = range(len(state.log)) if which == ALL_LINES else [which - 1]
    for k in lines:
        for text in explanation_lines(state, k, reader):
            out(text)


def why_document(state) -> list:
    """The chains of every line, as `run --json --why` adds them to its document (`why`: one list of steps,
    innermost first, per line of `log`)."""
    from interpreter.why import chain_json

    return [chain_json(state, k) for k in range(len(state.log))]


def check_line(state, which: int) -> None:
    """Refuse a line the log does not have, with how long it is."""
    from dsl.errors import WishError

    if which != ALL_LINES and which > len(state.log):
        raise WishError(f"--why {which}: the log has {len(state.log)} lines")
