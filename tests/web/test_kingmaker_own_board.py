"""A Kingmaker group's own board and its umpire, end to end in real Chromium: in the lobby the
umpire chooses Kingmaker with 3 players, an umpire's seat and the board "from a file"; a broken
copy of the small test board is refused with each fault an item of the form and no game is
made; the valid board makes the game, the lobby row says it is played on that board, the game
page draws that board's places and no others (``/games/{id}/board.json``), and a correction
made from the umpire's page (his standing verb ``correct``, docs/kingmaker/umpire.md;
§The Campaign Umpire is Always Correct) is in the log a player reads and in the gazette."""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web import players
from tests.web.conftest import PHONE, LiveServer, screenshot_path

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
SMALL = Path(__file__).resolve().parents[1] / "kingmaker" / "data" / "small-board.json"
REASON = "York has been held for P2 since our last evening."
LINE = f"The umpire corrects: York is held by P2. Reason: {REASON}"


def _seats(page: Any) -> None:
    """The umpire's seat for the creator, bots in P2 and P3, P1 left to a person."""
    page.select_option("#create-role", "umpire")
    for role in ("P2", "P3"):
        page.select_option(f"#create-seats select[name=seat-{role}]", "random")


def _choose_board(page: Any, path: Path) -> None:
    page.select_option("#create-form select[name=opt-board-source]", "file")
    page.set_input_files("#create-form input[name=opt-board]", str(path))
    page.wait_for_function("(name) => document.querySelector('#create-form input[name=opt-board]').parentElement"
                           ".querySelector('[role=status]').textContent.includes(name + ' read')", arg=path.name)


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_own_board_from_the_lobby_and_an_umpire_correction_to_the_gazette(
        browser: Any, live_server: LiveServer, tmp_path: Path, viewport: dict[str, int]) -> None:
    base = live_server.url
    width = viewport["width"]
    board = json.loads(SMALL.read_text(encoding="utf-8"))
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    stamp = str(int(time.time() * 1000))[-6:]
    umpire = f"ob{width}{stamp}"
    players.signup(page, base, umpire)
    page.goto(f"{base}/lobby?preview=1")
    page.select_option("#create-game", "kingmaker")
    page.fill("#create-form input[name=opt-players]", "3")
    page.check("#create-form input[name=opt-umpire]")
    page.dispatch_event("#create-form input[name=opt-players]", "change")
    page.wait_for_selector("#create-seats select[name=seat-umpire]")
    page.fill("#create-form input[name=title]", f"Own board {stamp}")

    # a broken copy: each fault is an item in the form, and nothing is created
    broken = copy.deepcopy(board)
    broken["places"][0]["square"] = "Z99"
    broken["places"][1]["type"] = "palace"
    broken["roads"][0]["squares"].append("Q7")
    bad = tmp_path / "broken-board.json"
    bad.write_text(json.dumps(broken), encoding="utf-8")
    _choose_board(page, bad)
    _seats(page)
    page.click("#create-form button[type=submit]")
    alert = page.locator("#create-form .error")
    alert.wait_for(state="visible")
    items = alert.locator("li").all_inner_texts()
    assert sorted(items) == sorted([
        "road 'great_north_road': square Q7 is not on the board",
        "place 'york': square Z99 is not on the board",
        "place 'middleham': type must be one of city, town, castle, not 'palace'"])
    alert.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_path(f"km-own-board-refused-{width}.png")))
    assert page.url.split("?")[0].endswith("/lobby")
    assert players.api(page, "GET", "/api/me/games") == []  # no game was created

    # the valid board
    _choose_board(page, SMALL)
    _seats(page)
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/games/*")
    game_id = int(page.url.split("/games/")[1].split("?")[0])
    info = players.api(page, "GET", f"/api/games/{game_id}")
    assert info["played_with"] == f"Board: {board['name']}"
    page.goto(f"{base}/lobby")
    row = page.locator(f"#my-games li[data-game='{game_id}']")
    assert f"Board: {board['name']}" in row.inner_text()
    page.screenshot(path=str(screenshot_path(f"km-own-board-listed-{width}.png")))

    # P1 is a person who does not answer: the table waits for him while the umpire corrects
    ctx_p1 = browser.new_context(viewport=viewport)
    p1 = ctx_p1.new_page()
    p1.on("pageerror", lambda e: errors.append(f"P1: {e}"))
    players.signup(p1, base, f"op{width}{stamp}")
    joined = players.api(p1, "POST", f"/api/games/{game_id}/join", {"role": "P1"})
    assert joined["status"] == "active", [(x["role"], x["user"], x["bot"]) for x in joined["seats"]]
    page.goto(f"{base}/games/{game_id}")
    page.wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
    page.wait_for_selector("svg#map g.km-place", timeout=40000)
    drawn = set(page.eval_on_selector_all("svg#map g.km-place", "els => els.map(e => e.dataset.area)"))
    served = players.api(page, "GET", f"/games/{game_id}/board.json")
    assert drawn == set(served["places"]) == {p["id"] for p in board["places"]}

    # the correction from the umpire's page
    players.show_tab_of(page, "form.km-correct")
    form = page.locator("form.km-correct")
    kinds = form.locator("select[name=kind] option").evaluate_all("os => os.map(o => o.value)")
    # takeback once a bot has given an order; nothing to undo yet
    assert kinds[:5] == ["move", "remove", "card", "place", "track"] and "undo" not in kinds
    form.locator("select[name=kind]").select_option("place")
    form.locator("select[name=place]").select_option("york")
    form.locator("select[name=to]").select_option("P2")
    form.locator("textarea[name=reason]").fill(REASON)
    form.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_path(f"km-own-board-correction-{width}.png")))
    form.locator("button[type=submit]").click()
    page.wait_for_function("(t) => (window.roses.payload.view.log || []).some(l => String(l).includes(t))",
                           arg=LINE, timeout=40000)
    record = live_server.services.games.admin_export(game_id)
    assert record["options"]["board"] == board  # the game's own record keeps the board whole
    assert [a["arg"] for a in record["actions"] if a["verb"] == "correct"] == [
        {"kind": "place", "place": "york", "to": "P2", "reason": REASON}]
    # undo is now offered to the umpire
    page.wait_for_function("[...document.querySelectorAll('form.km-correct select[name=kind] option')]"
                           ".some(o => o.value === 'undo')", timeout=20000)

    # the player's page shows it in his log
    p1.goto(f"{base}/games/{game_id}")
    p1.wait_for_function("(t) => [...document.querySelectorAll('#log li')].some(li => li.textContent.includes(t))",
                         arg=LINE, timeout=40000)
    players.show_tab_of(p1, "#log")
    p1.screenshot(path=str(screenshot_path(f"km-own-board-player-log-{width}.png")))

    # the umpire ends the campaign: the round in progress is published, with the correction
    version = players.version(page)
    players.api(page, "POST", f"/api/games/{game_id}/action",
         {"role": "umpire", "verb": "adjudicate", "arg": "Draw", "version": version})
    editions = players.api(page, "GET", f"/api/games/{game_id}/gazette")["editions"]
    last = editions[-1]["round"]
    gz = p1.context.new_page()
    gz.on("pageerror", lambda e: errors.append(f"gazette: {e}"))
    gz.goto(f"{base}/games/{game_id}/gazette/{last}")
    gz.wait_for_selector(".gz-lines li", timeout=40000)
    assert LINE in gz.locator(".gz-lines li").all_inner_texts()
    gz.screenshot(path=str(screenshot_path(f"km-own-board-gazette-{width}.png")), full_page=True)
    assert not errors, errors
    ctx.close()
    ctx_p1.close()
