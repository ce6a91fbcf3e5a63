"""The game page says when an open decision's deadline falls: a Kingmaker seat asked a question
with a published default (``view.default``) reads under the prompt "If you do not answer by
<time>, <default> is played", the time being its clock's end that the view's payload carries
(``deadline``); a seat not asked reads nothing of the kind. Real Chromium, 1366x768 and 390x844."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.web import players
from tests.web.conftest import PHONE, LiveServer, screenshot_path

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


def test_the_prompt_says_when_the_default_is_played(browser: Any, live_server: LiveServer) -> None:
    base = live_server.url
    stamp = str(int(time.time() * 1000))[-6:]
    pages: dict[str, Any] = {}
    errors: list[str] = []
    for role in ("P1", "P2"):
        page = browser.new_context(viewport=LAPTOP).new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        players.signup(page, base, f"dn{role.lower()}{stamp}")
        pages[role] = page
    game_id = players.api(pages["P1"], "POST", "/api/games", {"game": "kingmaker", "role": "P1", "preview": True,
                                                        "options": {"players": 2}, "pace": "86400+86400"})["id"]
    players.api(pages["P2"], "POST", f"/api/games/{game_id}/join", {"role": "P2"})
    rnd = random.Random(3)
    asked: tuple[str, dict[str, Any]] | None = None
    for _ in range(400):  # random legal play until a seat is asked a question with a default
        views = {r: players.api(p, "GET", f"/api/games/{game_id}/view?role={r}") for r, p in pages.items()}
        asked = next(((r, v) for r, v in views.items() if r in v["active"] and v["view"].get("default")), None)
        if asked:
            break
        role = views["P1"]["active"][0]
        v = views[role]
        choices = [(verb, a) for verb, args in v["view"]["actions"].items() if verb != "undo"
                   for a in ([None] if args is True else args)]
        verb, arg = rnd.choice(choices)
        players.api(pages[role], "POST", f"/api/games/{game_id}/action",
             {"role": role, "verb": verb, "arg": arg, "version": v["version"]})
    assert asked is not None, "no question with a default was reached"
    role, payload = asked
    deadline = payload["deadline"]
    assert deadline > time.time() + 86000  # a day's bank, just started
    page = pages[role]
    page.goto(f"{base}/games/{game_id}")
    note = page.locator("#deadline-note")
    note.wait_for(state="visible", timeout=40000)
    text = note.inner_text()
    assert text.startswith("If you do not answer by ") and text.endswith(f", {payload['view']['default_label']} is played.")
    assert float(note.get_attribute("data-deadline") or 0) == deadline
    page.screenshot(path=str(screenshot_path("deadline-note-1366.png")))
    page.set_viewport_size(PHONE)
    page.reload()
    note.wait_for(state="visible", timeout=40000)
    page.screenshot(path=str(screenshot_path("deadline-note-390.png")))
    other = next(r for r in pages if r != role)
    if other not in payload["active"]:
        pages[other].goto(f"{base}/games/{game_id}")
        pages[other].wait_for_function("document.body.dataset.status === 'active'", timeout=40000)
        assert pages[other].locator("#deadline-note").is_hidden()
    assert not errors, errors
