"""A real `wishdsl serve` process and Playwright pages on the system's Chromium: what the browser tests and the
screenshots script (`python tests/web_browser.py docs/`) share."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["games/wunschmaschine.wish", "games/three_wishes.wish", "games/wish.wish"]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(db: Path, games=GAMES, extra=()):
    """`wishdsl serve` on a free loopback port; yields its base URL."""
    port = free_port()
    cmd = [sys.executable, "-m", "wishdsl.cli", "serve", *games, "--port", str(port), "--db", str(db),
           "--ai-workers", "1", *extra]
    log = open(db.with_suffix(".log"), "wb")  # a file, not a pipe nobody reads while the server runs
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if proc.poll() is not None:
                raise RuntimeError("the server stopped: " + db.with_suffix(".log").read_text(errors="replace"))
            try:
                urllib.request.urlopen(base + "/", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def open_table(base: str, **request) -> dict:
    req = urllib.request.Request(base + "/api/tables", data=json.dumps(request).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def status(base: str, links: dict) -> dict:
    with urllib.request.urlopen(base + links["watch"].replace("/play/", "/api/tables/"), timeout=30) as r:
        return json.loads(r.read())


def launch(p):
    return p.chromium.launch(executable_path=chromium(), args=FLAGS)


def click_some_option(page, rng) -> bool:
    """Click one of the page's enabled options (seeded), if it offers any."""
    buttons = page.locator("#options button:enabled")
    n = buttons.count()
    if n == 0:
        return False
    try:
        buttons.nth(rng.randrange(n)).click(timeout=2000)
    except Exception:  # the options were redrawn under the click: the next round finds the new ones
        return False
    return True


def screenshots(out: Path) -> None:
    """A table of each game, a few decisions in, as seat 1 sees it."""
    import random
    import tempfile

    from playwright.sync_api import sync_playwright

    tables = [("wunschmaschine", "games/wunschmaschine.wish", 4, "human,random,random,random", 12),
              ("three_wishes", "games/three_wishes.wish", 3, "human,random,random", 0),
              ("wish", "games/wish.wish", 2, "human,random", 8)]
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "s.db", extra=["--race-delay", "0"]) as (base, _):
        with sync_playwright() as p:
            browser = launch(p)
            for name, game, players, seats, moves in tables:
                links = open_table(base, game=game, players=players, seats=seats, seed=3)
                page = browser.new_page(viewport={"width": 1200, "height": 900})
                page.goto(base + links["seats"][0]["url"])
                rng = random.Random(1)
                done = 0
                while done < moves:
                    page.wait_for_selector("#options button:enabled, body[data-over=yes]", timeout=20000)
                    if page.get_attribute("body", "data-over") == "yes":
                        break
                    done += click_some_option(page, rng)
                    page.wait_for_timeout(150)
                page.wait_for_timeout(400)
                page.screenshot(path=str(out / f"web-{name}.png"), full_page=True)
                page.close()
            browser.close()


if __name__ == "__main__":
    screenshots(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
