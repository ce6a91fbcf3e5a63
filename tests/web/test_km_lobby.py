"""The lobby's form in real Chromium creates a Kingmaker table of N players (issue 20 item 1):
the seats follow the number of players and the umpire option, and each seat is a person or a
bot; the game is created with exactly those seats."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web import players
from tests.web.conftest import DESKTOP, LiveServer, screenshot_path

pytestmark = pytest.mark.browser


def test_the_lobby_form_creates_a_table_of_five_with_bots_and_an_umpire_seat(browser: Any, live_server: LiveServer) -> None:
    base = live_server.url
    page = browser.new_context(viewport=DESKTOP).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    stamp = str(int(time.time() * 1000))[-6:]
    players.signup(page, base, f"kml{stamp}")
    page.goto(f"{base}/lobby?preview=1")
    page.select_option("#create-game", "kingmaker")
    page.fill("#create-form input[name=opt-players]", "5")
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
