"""Moments inside one decision's run, for rule scenarios: the state just before or just after a given log line
was written (`expect: {before_log: "Round 2", …}`, `expect: {after_log: "guessed right", …}`), and log lines in a
given order (`log_order`).

The engine runs from one decision to the next in one go, so a Wunschmaschine table is already gathered, and a
Wish round already over, when the next step looks. A scenario names the moment by a log line next to it; while
the decision before runs, the runner watches the log and keeps a copy of the state the first time a line
containing that text is about to be written (`before_log`) or has just been written (`after_log`). A line is
written once its effect is done: a move's line comes after the cards moved."""
from __future__ import annotations

from interpreter.log import render

KEYS = ("before_log", "after_log")


class Watch(list):
    """The log of a state while one decision runs: for each watched (key, text), the first time an entry whose
    text contains `text` is appended, a copy of the state is kept in `moments` — before the append for
    `before_log`, after it for `after_log`. Every entry is also appended to the state's own log (`inner`, which
    may record more: an explaining state's), which the state gets back afterwards."""

    def __init__(self, st, wanted):
        super().__init__(st.log)
        self.st, self.inner, self.waiting, self.moments = st, st.log, list(wanted), {}

    def append(self, entry) -> None:
        hits = []
        if self.waiting:
            line = render(self.st, entry, None)
            hits = [w for w in self.waiting if w[1] in line]
            for w in hits:
                self.waiting.remove(w)
                if w[0] == "before_log":
                    self.moments[w] = self.st.clone()
        self.inner.append(entry)
        super().append(entry)
        for w in hits:
            if w[0] == "after_log":
                self.moments[w] = self.st.clone()


def moment_of(expect) -> tuple:
    """(key, text) of an `expect` mapping that names a moment, else None."""
    if isinstance(expect, dict):
        for key in KEYS:
            if isinstance(expect.get(key), str):
                return key, expect[key]
    return None


def watched(steps: list, i: int) -> list:
    """The moments named by the `expect` steps right after step `i` (up to the next step that is not one)."""
    out = []
    for step in steps[i + 1:]:
        if not (isinstance(step, dict) and list(step) == ["expect"]):
            break
        moment = moment_of(step["expect"])
        if moment is not None:
            out.append(moment)
    return out


def run_watching(st, texts: list, run) -> dict:
    """Run `run()` (one decision) with the log watched for these moments; the states found, by moment."""
    if not texts:
        run()
        return {}
    watch = st.log = Watch(st, texts)
    try:
        run()
    finally:
        st.log = watch.inner
    return watch.moments


def order_problems(lines: list, texts: list) -> list:
    """`log_order`: each text in a line after the line of the text before it."""
    start = 0
    for t in texts:
        at = next((k for k in range(start, len(lines)) if t in lines[k]), None)
        if at is None:
            where = f"after the line of {texts[texts.index(t) - 1]!r}" if start else "in the log"
            return [f"log_order: no line {where} contains {t!r}"]
        start = at + 1
    return []
