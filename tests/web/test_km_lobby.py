"""The lobby's form in real Chromium creates a Kingmaker table of N players:
the seats follow the number of players and the umpire option, and each seat is a person or a
bot; the game is created with exactly those seats."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web import players
from tests.web.conftest import DESKTOP, LiveServer, screenshot_path

pytestmark = pytest.mark.browser


def _kingmaker_form(browser: Any, base: str, who: str, count: str) -> tuple[Any, list[str], str]:
    """A person signed up (``who`` and a stamp) on the lobby's form with Kingmaker chosen and
    ``count`` players typed in (the seats drawn for them); the page, its errors, the stamp."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    stamp = str(int(time.time() * 1000))[-6:]
    players.signup(page, base, f"{who}{stamp}")
    page.goto(f"{base}/lobby?preview=1")
    page.select_option("#create-game", "kingmaker")
    page.fill("#create-form input[name=opt-players]", count)
    return page, errors, stamp


def test_the_lobby_form_creates_a_table_of_five_with_bots_and_an_umpire_seat(browser: Any, live_server: LiveServer) -> None:
    base = live_server.url
    page, errors, stamp = _kingmaker_form(browser, base, "kml", "5")
    page.check("#create-form input[name=opt-umpire]")
    page.dispatch_event("#create-form input[name=opt-players]", "change")
    page.wait_for_selector("#create-seats select[name=seat-umpire]")
    assert page.locator("#create-seats select").count() == 6  # P1..P5 and the umpire
    assert page.locator("#create-role option").all_inner_texts()[1:-1] == ["P1", "P2", "P3", "P4", "P5", "umpire"]
    assert page.locator("#create-opponent").is_hidden()
    page.select_option("#create-role", "P2")
    for role in ("P1", "P4", "P5"):
        page.select_option(f"#create-seats select[name=seat-{role}]", "random")
    page.select_option("#create-pace", "86400+86400")
    page.fill("#create-form input[name=title]", f"Towton {stamp}")
    page.screenshot(path=str(screenshot_path("lobby-kingmaker-seats.png")), full_page=True)
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/games/*")
    game_id = int(page.url.split("/games/")[1].split("?")[0])
    info = page.evaluate("async ([gid]) => (await fetch(`/api/games/${gid}`)).json()", [game_id])
    assert info["options"]["players"] == 5 and info["options"]["umpire"] is True
    assert "event_deck" not in info["options"]  # an empty JSON option is left to its default
    assert info["pace"] == "86400+86400"
    seats = {s["role"]: (s["user"], s["bot"]) for s in info["seats"]}
    assert seats == {"P1": (None, "random"), "P2": (f"kml{stamp}", None), "P3": (None, None),
                     "P4": (None, "random"), "P5": (None, "random"), "umpire": (None, None)}
    assert info["status"] == "open"  # P3 and the umpire's seat wait for people
    assert not errors


def test_seat_choices_are_kept_when_another_option_changes(browser: Any, live_server: LiveServer) -> None:
    """The seats are drawn again when an option changes (the umpire's seat comes and goes); what
    was chosen for the seats that stay is kept, not reset to a person."""
    page, errors, _ = _kingmaker_form(browser, live_server.url, "kmk", "4")
    page.dispatch_event("#create-form input[name=opt-players]", "change")
    page.wait_for_selector("#create-seats select[name=seat-P4]")
    page.wait_for_load_state("networkidle")
    page.select_option("#create-role", "P1")
    page.select_option("#create-seats select[name=seat-P3]", "random")
    page.select_option("#create-seats select[name=seat-P4]", "easy")
    page.check("#create-form input[name=opt-umpire]")
    page.wait_for_selector("#create-seats select[name=seat-umpire]")
    seats = {name: page.locator(f"#create-seats select[name={name}]").input_value()
             for name in ("seat-P2", "seat-P3", "seat-P4", "seat-umpire")}
    assert seats == {"seat-P2": "human", "seat-P3": "random", "seat-P4": "easy", "seat-umpire": "human"}
    assert not errors


def test_the_table_panel_pauses_extends_resumes_and_sends_a_player_on_vacation(browser: Any, live_server: LiveServer) -> None:
    """The umpire pauses the game from the Table panel (the player's page says so), extends a
    deadline and resumes; a player states a vacation with a stand-in bot and comes back."""
    base = live_server.url
    ump = browser.new_context(viewport=DESKTOP).new_page()
    p1 = browser.new_context(viewport=DESKTOP).new_page()
    errors: list[str] = []
    for p in (ump, p1):
        p.on("pageerror", lambda e: errors.append(str(e)))
    stamp = str(int(time.time() * 1000))[-6:]
    players.signup(ump, base, f"kmu{stamp}")
    players.signup(p1, base, f"kmp{stamp}")
    gid = players.api(p1, "POST", "/api/games", {"game": "kingmaker", "role": "P1", "preview": True, "pace": "86400+86400",
                                          "options": {"players": 2, "umpire": True}, "bots": {"P2": "random"}})["id"]
    players.api(ump, "POST", f"/api/games/{gid}/join", {"role": "umpire"})
    ump.goto(f"{base}/games/{gid}")
    ump.wait_for_selector("#umpire-pause")
    ump.fill("#umpire-reason", "a question of the rules")
    ump.click("#umpire-pause")
    ump.wait_for_function("document.getElementById('umpire-pause').textContent.includes('Resume')")
    assert players.api(ump, "GET", f"/api/games/{gid}/umpire")["paused"] is True
    p1.goto(f"{base}/games/{gid}")
    p1.wait_for_selector("#table .km-paused")
    before = players.api(p1, "GET", f"/api/games/{gid}/clocks")["clocks"]["P1"]["left"]
    ump.select_option("#extend-form select[name=role]", "P1")
    ump.fill("#extend-form input[name=hours]", "48")
    ump.click("#extend-form button[type=submit]")
    # The form posts without waiting: the clocks show the extension once the request is done
    # (the clock is stopped while the game is paused).
    deadline = time.monotonic() + 15
    while players.api(p1, "GET", f"/api/games/{gid}/clocks")["clocks"]["P1"]["left"] < before + 48 * 3600 - 5:
        assert time.monotonic() < deadline, "the deadline was not extended"
        ump.wait_for_timeout(100)
    ump.click("#umpire-pause")
    ump.wait_for_function("document.getElementById('umpire-pause').textContent.includes('Pause')")
    assert players.api(p1, "GET", f"/api/games/{gid}")["status"] == "active"
    p1.reload()
    p1.wait_for_selector("form.vacation-form")
    p1.fill("form.vacation-form input[name=days]", "3")
    p1.select_option("form.vacation-form select[name=bot]", "random")
    p1.click("form.vacation-form button[type=submit]")
    p1.wait_for_selector("#vacations li")
    assert "P1: until" in p1.inner_text("#vacations") and "bot random" in p1.inner_text("#vacations")
    p1.screenshot(path=str(screenshot_path("kingmaker-table-panel.png")), full_page=True)
    p1.click("#vacations button")
    p1.wait_for_selector("#vacations", state="detached")
    assert players.api(p1, "GET", f"/api/games/{gid}/vacations") == []
    assert not errors


def test_the_table_panel_lists_every_seat_that_changed_hands(browser: Any, live_server: LiveServer) -> None:
    """A seat of a running game changes hands only in the open: when the umpire leaves his
    seat, every player's Table panel lists the change, who left and why."""
    base = live_server.url
    ump = browser.new_context(viewport=DESKTOP).new_page()
    p1 = browser.new_context(viewport=DESKTOP).new_page()
    errors: list[str] = []
    p1.on("pageerror", lambda e: errors.append(str(e)))
    stamp = str(int(time.time() * 1000))[-6:]
    players.signup(ump, base, f"kmv{stamp}")
    players.signup(p1, base, f"kmw{stamp}")
    gid = players.api(p1, "POST", "/api/games", {"game": "kingmaker", "role": "P1", "preview": True, "pace": "86400+86400",
                                          "options": {"players": 2, "umpire": True}, "bots": {"P2": "random"}})["id"]
    players.api(ump, "POST", f"/api/games/{gid}/join", {"role": "umpire"})
    p1.goto(f"{base}/games/{gid}")
    p1.wait_for_selector("form.vacation-form")
    assert p1.locator("#seat-changes").count() == 0  # nothing changed hands yet
    players.api(ump, "POST", f"/api/games/{gid}/seats/umpire/vacate", {"bot": None})
    p1.reload()
    p1.wait_for_selector("#seat-changes li")
    text = p1.inner_text("#seat-changes")
    assert f"kmv{stamp}" in text and "left" in text, text
    assert p1.locator("button.claim").count() == 0  # a player is not offered the umpire's empty seat
    p1.locator("#seat-changes").scroll_into_view_if_needed()
    p1.screenshot(path=str(screenshot_path("kingmaker-seat-changes.png")))
    assert not errors
