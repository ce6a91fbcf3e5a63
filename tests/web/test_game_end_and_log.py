"""The game page through a game's life, in real Chromium at 1366x768 and 390x844 (Richard III
against a bot): the opponent's last moves marked on the map; the whole log in the game (the
player's own view of it), opening at the newest line on a phone; a resignation ends the game
with who won and why over the board, which stays drawn as it ended (also after a reload)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web import players
from tests.web.conftest import PHONE, LiveServer, screenshot_path

pytestmark = pytest.mark.browser

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": PHONE}


def _new_game(page: Any) -> int:
    out = page.evaluate(players.POST, ["/api/games", {"game": "richard3", "scenario": "wars-of-the-roses",
                                                      "role": "York", "bots": {"Lancaster": "random"}}])
    return int(out["id"])


@pytest.mark.parametrize("size", sorted(SIZES))
def test_last_moves_whole_log_and_the_end(browser: Any, live_server: LiveServer, size: str) -> None:
    phone = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.accept()))
    players.signup(page, live_server.url, f"end{size[:2]}{str(int(time.time() * 1000))[-6:]}")
    game_id = _new_game(page)
    page.goto(f"{live_server.url}/games/{game_id}")
    page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)

    # play until Lancaster (the bot) has moved: its moves are marked on York's map (5.1)
    players.play_until([page], lambda: page.locator('svg#map g.last-move[data-side="Lancaster"]').count() > 0,
                       max_actions=80)
    marks = page.evaluate("""() => [...document.querySelectorAll('svg#map g.last-move')].map(
        (g) => [g.dataset.side, g.dataset.path, g.querySelector('title').textContent])""")
    assert marks and all(side == "Lancaster" and "Lancaster's last move" in t for side, _, t in marks), marks
    view = players.payload(page)["view"]
    moved = [line for line, kind in zip(view["log"], view["log_kinds"], strict=True) if kind == "move"
             and line.startswith("Lancaster ")]
    assert any(path.split("|")[-1] in moved[-1] for _, path, _ in marks), (marks, moved)
    if phone:
        players.show_tab_of(page, "svg#map")
    page.screenshot(path=str(screenshot_path(f"last-moves-{size}.png")))
    # End, Pass, Back... are styled apart from the real choices and come after them
    bar = page.evaluate("""() => [...document.querySelectorAll('#buttons > button.choice:not(#undo)')].map(
        (b) => [b.textContent.replace(/^\\d/, '').trim(), b.classList.contains('passive')])""")
    for i, (label, passive) in enumerate(bar):
        assert passive == label.startswith(("End", "Pass", "Back", "Done", "Stop", "Skip")), bar
        if passive:
            assert all(p for _, p in bar[i:]), bar

    # the whole log as York may read it (the view carries only the recent lines)
    whole = page.evaluate(players.GET, f"/games/{game_id}/log.json")
    assert whole["role"] == "York" and len(whole["log"]) >= len(view["log"])
    n = len(view["log"])  # the view's recent lines are a run of the whole log (which may be newer)
    assert any(whole["log"][i:i + n] == view["log"] for i in range(len(whole["log"]) - n + 1))
    # the same access as the view: another person may read the observer's log only
    stranger = browser.new_context()
    out = stranger.request.get(f"{live_server.url}/games/{game_id}/log.json?role=York")
    assert out.status == 403
    seen = stranger.request.get(f"{live_server.url}/games/{game_id}/log.json").json()
    assert seen["role"] == "Observer" and len(seen["log"]) <= len(whole["log"])
    stranger.close()
    if phone:
        page.click('#tabs button[data-tab="log"]')
    if view.get("log_more"):
        page.click("#log-whole")
        page.wait_for_function("document.getElementById('log').dataset.whole === '1'")
        assert page.locator("#log li").count() == len(whole["log"])
        assert page.locator("#log li").first.inner_text().strip() == whole["log"][0].strip()
    if phone:
        # the Log tab opens at the newest line (above the choices sheet)
        page.click('#tabs button[data-tab="board"]')
        page.click('#tabs button[data-tab="log"]')
        last = page.locator("#log li").last.bounding_box()
        sheet = page.locator("#promptbar").bounding_box()
        assert last is not None and sheet is not None
        assert last["y"] >= 0 and last["y"] + last["height"] <= sheet["y"] + 1, (last, sheet)
        page.screenshot(path=str(screenshot_path(f"log-tab-{size}.png")))
        page.click('#tabs button[data-tab="game"]')

    # resign (asked once more: the dialog is accepted): the end over the board, board kept
    page.locator("#resign-panel summary").click()
    page.click("#resign")
    page.wait_for_function("document.body.dataset.status === 'finished'", timeout=20000)
    assert dialogs and "Resign" in dialogs[-1]  # asked once more
    if phone:
        page.click('#tabs button[data-tab="board"]')
    for attempt in ("live", "reloaded"):
        if attempt == "reloaded":
            page.reload()
            page.wait_for_function("document.body.dataset.status === 'finished'", timeout=20000)
        banner = page.locator("#result-banner")
        assert banner.is_visible()
        text = banner.inner_text() + " " + page.locator("#prompt").inner_text()
        assert "Lancaster wins" in text and "York resigned." in text and "Defeat" in text, text
        assert "withheld" not in page.locator("#prompt").inner_text()
        assert page.locator("svg#map g.stack g.block").count() > 10
        assert page.evaluate("document.getElementById('game').dataset.tab") == "board"
    page.screenshot(path=str(screenshot_path(f"game-end-{size}.png")))
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_resigning_while_the_other_card_lies_face_down(browser: Any, live_server: LiveServer, size: str) -> None:
    """1.1: Lancaster (the bot) has played its card face down when York resigns: the end is
    shown over the board, which stays drawn (the view is not withheld), now and on reload."""
    phone = size == "phone"
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    players.signup(page, live_server.url, f"fd{size[:2]}{str(int(time.time() * 1000))[-6:]}")
    game_id = _new_game(page)
    page.goto(f"{live_server.url}/games/{game_id}")
    page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)
    players.play_until([page], lambda: any(c["verb"] == "play" for c in players.choices(page))
                       and (players.payload(page)["view"].get("played") or {}).get("Lancaster") == "hidden",
                       max_actions=10)
    if phone:
        page.click('#tabs button[data-tab="game"]')
    page.locator("#resign-panel summary").click()
    page.click("#resign")
    page.wait_for_function("document.body.dataset.status === 'finished'", timeout=20000)
    if phone:
        page.click('#tabs button[data-tab="board"]')
    for attempt in ("live", "reloaded"):
        if attempt == "reloaded":
            page.reload()
            page.wait_for_function("document.body.dataset.status === 'finished'", timeout=20000)
        assert "York resigned." in page.locator("#result-banner").inner_text()
        assert "withheld" not in page.locator("#prompt").inner_text()
        assert page.locator("svg#map g.stack g.block").count() > 10
        view = players.payload(page)["view"]
        assert view["played"]["Lancaster"] == "hidden" and not view.get("withheld")
    assert not errors, errors
    ctx.close()
