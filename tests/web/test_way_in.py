"""The way in, in real Chromium at 1366x768 and 390x844: the front page shows every game with
a picture of its board and what it is; anyone, logged out too, finds the games in progress
and watches one as an observer; lobby rows name the game; the create form never offers a bot
for the creator's own seat."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web import players
from tests.web.conftest import PHONE, LiveServer, screenshot_path

pytestmark = pytest.mark.browser

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": PHONE}


@pytest.mark.parametrize("size", sorted(SIZES))
def test_front_page_public_games_and_lobby_rows(browser: Any, live_server: LiveServer, size: str) -> None:
    phone = size == "phone"
    stamp = str(int(time.time() * 1000))[-6:]
    # a player starts a game against a bot
    player_ctx = browser.new_context(viewport=SIZES[size])
    player = player_ctx.new_page()
    players.signup(player, live_server.url, f"way{size[:2]}{stamp}")
    game_id = int(player.evaluate(players.POST, ["/api/games", {"game": "richard3", "scenario": "wars-of-the-roses",
                                                                 "role": "York", "bots": {"Lancaster": "random"}}])["id"])
    # the lobby's rows name the game
    player.goto(f"{live_server.url}/lobby")
    row = player.locator(f'#my-games li[data-game="{game_id}"]')
    assert row.locator(".game-name").inner_text() == "Richard III"

    # a visitor, logged out
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/")
    games = page.locator("article.front-game")
    assert games.count() == 3
    titles = [games.nth(i).locator("h2").inner_text() for i in range(3)]
    assert titles == ["Richard III", "Plantagenet", "Kingmaker (campaign rules)"], titles
    for i in range(3):
        art = games.nth(i)
        art.locator("img").scroll_into_view_if_needed()
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=art.locator("img").element_handle())
        assert len(art.locator("p").first.inner_text()) > 80  # what the game is
    page.screenshot(path=str(screenshot_path(f"front-{size}.png")), full_page=True)
    # the public list of games in progress, reached from the front page
    page.click("a.button[href='/games']")
    page.wait_for_url("**/games")
    watch = page.locator(f'#public-active li[data-game="{game_id}"]')
    assert watch.locator(".game-name").inner_text() == "Richard III"
    page.screenshot(path=str(screenshot_path(f"public-games-{size}.png")), full_page=True)
    watch.get_by_role("link", name="Watch").click()
    page.wait_for_function("document.body.dataset.version !== undefined", timeout=40000)
    assert page.evaluate("window.roses.payload.role") == "Observer"
    assert page.locator("svg#map g.stack g.block").count() > 10
    assert page.locator("#actions-panel").is_hidden()
    # the lobby, logged out, sends to the login page, which points to the games to watch
    page.goto(f"{live_server.url}/lobby")
    page.wait_for_url("**/login?next=%2Flobby")
    assert page.locator("a[href='/games']").count() >= 1
    assert not errors, errors
    ctx.close()
    player_ctx.close()


def test_create_form_keeps_the_creators_seat_for_a_person(browser: Any, live_server: LiveServer) -> None:
    ctx = browser.new_context(viewport=SIZES["laptop"])
    page = ctx.new_page()
    players.signup(page, live_server.url, f"seat{str(int(time.time() * 1000))[-6:]}")
    page.goto(f"{live_server.url}/lobby")
    page.select_option("#create-game", "kingmaker")
    page.wait_for_function("document.querySelectorAll('#create-seats select').length >= 2")
    roles = page.evaluate("[...document.querySelectorAll('#create-role option')].map((o) => o.value).filter((v) => v && v !== 'random')")
    assert len(roles) >= 3
    # no raw JSON box: a supplied Event deck is a file, the default unless one is chosen
    assert page.locator("#create-options textarea").count() == 0
    source = page.locator("#create-options select[name=opt-event_deck-source]")
    assert source.locator("option").all_inner_texts()[0] == "the standard one"
    assert "JSON" not in page.inner_text("#create-options")
    for role in roles[:3]:
        page.select_option("#create-role", role)
        assert page.locator(f'#create-seats select[name="seat-{role}"]').count() == 0
        assert page.locator(f'#create-seats .own-seat[data-role="{role}"]').inner_text().endswith("you")
        others = [r for r in roles if r != role]
        assert all(page.locator(f'#create-seats select[name="seat-{r}"]').count() == 1 for r in others if r != "umpire")
    ctx.close()
