"""Web tables in a real browser: `wishdsl serve` as its own process, pages driven by Playwright on the system's
Chromium (installed by .ci/run; skipped with the reason where there is none)."""
import random

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")

from web_browser import chromium, click_some_option, launch, open_table, serving, status  # noqa: E402

pytestmark = pytest.mark.skipif(chromium() is None,
                                reason="no Chromium on this machine (install the Debian package 'chromium')")


@pytest.fixture(scope="module")
def playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


def test_two_people_in_two_browsers_and_an_ai_play_wunschmaschine(playwright, tmp_path):
    rng = random.Random(4)
    with serving(tmp_path / "t.db", extra=["--race-delay", "0"]) as (base, _):
        links = open_table(base, game="games/wunschmaschine.wish", players=3, seats="human,human,random", seed=21)
        browser = launch(playwright)
        pages = []
        for k in (0, 1):  # two browser contexts: two people who share nothing
            page = browser.new_context().new_page()
            page.goto(base + links["seats"][k]["url"])
            pages.append(page)
        slaps = 0
        for _ in range(3000):
            if all(p.get_attribute("body", "data-over") == "yes" for p in pages):
                break
            for page in pages:
                texts = page.locator("#options button:enabled").all_inner_texts()
                if "slap" in texts:
                    slaps += 1
                click_some_option(page, rng)
            pages[0].wait_for_timeout(30)
        else:
            raise AssertionError("the game did not end in the browsers")
        end = status(base, links)
        assert end["over"] and end["broken"] is None
        assert slaps >= 2, "both people answered slap races"
        for k, page in enumerate(pages):
            assert page.inner_text("#who") == f"You play player {k + 1}"
            assert "Game over" in page.inner_text("#prompt")
            assert page.locator("#log li").count() > 20
            assert page.is_visible("#download")
        page = pages[0]  # the finished game, replayed step by step
        page.click("#replay-open")
        page.wait_for_selector("body[data-step='0']")
        start = page.locator("#log li").count()
        for k in (1, 2, 3):
            page.click("#replay-next")
            page.wait_for_selector(f"body[data-step='{k}']")
        assert "after 3 of" in page.inner_text("#replay-step")
        page.click("#replay-last")
        page.wait_for_selector(f"body[data-step='{end['decisions']}']")
        assert page.locator("#log li").count() > start
        browser.close()


def test_a_wish_table_is_played_for_several_turns(playwright, tmp_path):
    rng = random.Random(2)
    with serving(tmp_path / "t.db", extra=["--race-delay", "0"]) as (base, _):
        links = open_table(base, game="games/wish.wish", players=2, seats="human,random", seed=8)
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(base + links["seats"][0]["url"])
        page.wait_for_selector(".area")
        assert page.locator(".area").count() == 12  # the map's 12 Areas
        assert "Sandhills" in page.text_content("svg.map")
        # each Area's rule text on hover, in the cheat-sheet's words
        assert "Gain 1 Victory Point" in page.text_content(".area[data-area=Volcano] title")
        done = 0
        while done < 25:  # (a click that lands on options being redrawn is lost, so the game's path may vary)
            page.wait_for_selector("#options button:enabled, body[data-over=yes]", timeout=20000)
            if page.get_attribute("body", "data-over") == "yes":
                break
            done += click_some_option(page, rng)
            page.wait_for_timeout(50)
        assert status(base, links)["decisions"] >= 25
        assert page.locator("#log li", has_text="player 1: end_turn").count() >= 3  # several turns of one's own
        assert page.locator(".panel.mine").count() == 1
        assert "(Wish card)" in page.get_attribute(".panel.mine .card:not(.hidden) >> nth=0", "title")
        browser.close()


def test_three_wishes_shows_question_marks_until_a_card_is_seen(playwright, tmp_path):
    with serving(tmp_path / "t.db", extra=["--race-delay", "0"]) as (base, _):
        links = open_table(base, game="games/three_wishes.wish", players=3, seats="human,random,random", seed=5)
        browser = launch(playwright)
        page = browser.new_page()
        page.goto(base + links["seats"][0]["url"])
        page.wait_for_selector("#options button:enabled")
        hidden = page.locator(".card.hidden")
        assert hidden.count() >= 9 and set(hidden.all_inner_texts()) == {"?"}
        before = hidden.count()
        page.locator("#options button", has_text="Peek").first.click()  # look at two of your cards
        for _ in range(2):
            page.wait_for_selector("#options button:enabled")
            page.locator("#options button:enabled").first.click()
            page.wait_for_timeout(200)
        page.wait_for_function(f"document.querySelectorAll('.card.hidden').length < {before}", timeout=10000)
        watcher = browser.new_page()
        watcher.goto(base + links["watch"])
        watcher.wait_for_selector(".card")
        assert watcher.inner_text("#who") == "Spectator"
        hands = watcher.locator(".panel .card")
        assert hands.count() and set(hands.all_inner_texts()) == {"?"}  # no player's cards while the game runs
        page.locator("#log li").first.click()  # why was line 1 written: the game itself
        page.wait_for_selector("#why:not([hidden])")
        assert page.inner_text("#why h3").startswith("Why line 1: 3 Wishes: 3 players, seed 5")
        assert page.locator("#why .chain li").first.inner_text().startswith("game ")
        page.locator("#log li").nth(2).click()  # a line of the deal: a statement, the procedures, the turn order
        page.wait_for_function("document.querySelector('#why h3').textContent.startsWith('Why line 3')")
        steps = page.locator("#why .chain li").all_inner_texts()
        assert steps[0].startswith("statement ") and steps[-1].startswith(("play ", "setup "))
        browser.close()
