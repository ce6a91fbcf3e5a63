"""The first view and the phone, in real Chromium (a Richard III game against a bot):

* at 1366x768 the whole map is in the first view and the choices bar stays under 200 px
  however many choices there are (they scroll, grouped);
* at 390x844 the map keeps its size and place when the choices sheet grows or shrinks (a tap
  lands where the player aimed), the prompt is never cut off, no keyboard-number badges on a
  touch screen, and the phone menu reaches the Leaderboard, the Settings and the games to
  watch.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.web import players
from tests.web.conftest import PHONE, LiveServer, screenshot_path

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}


def _start(browser: Any, live_server: LiveServer, phone: bool) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport=PHONE if phone else LAPTOP, is_mobile=phone, has_touch=phone)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, live_server.url, f"first{'ph' if phone else 'la'}{str(int(time.time() * 1000))[-6:]}")
    out = page.evaluate(players.POST, ["/api/games", {"game": "richard3", "scenario": "wars-of-the-roses",
                                                      "role": "York", "bots": {"Lancaster": "random"}}])
    page.goto(f"{live_server.url}/games/{out['id']}")
    page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)
    page.wait_for_timeout(200)
    return ctx, page, errors


AREA_AT = """(area) => { const r = document.querySelector(`svg#map g.area-features[data-area="${area}"] text.area-label`).getBoundingClientRect();
  return [Math.round(r.left * 10) / 10, Math.round(r.top * 10) / 10]; }"""


def test_laptop_first_view_is_the_whole_map_and_the_bar_is_short(browser: Any, live_server: LiveServer) -> None:
    ctx, page, errors = _start(browser, live_server, False)
    inside = page.evaluate("""() => { const m = document.getElementById('map').getBoundingClientRect();
        return [...document.querySelectorAll('svg#map g.area-features text.area-label')].filter((t) => {
          const r = t.getBoundingClientRect();
          return !(r.left >= m.left && r.right <= m.right && r.top >= m.top && r.bottom <= m.bottom); }).map((t) => t.textContent); }""")
    assert inside == [], inside  # every area's name, Ireland and Scotland too, in the first view
    page.screenshot(path=str(screenshot_path("first-view-1366x768.png")))
    heights: list[float] = []

    def measure(_page: Any = None, _choice: Any = None) -> None:
        heights.append(page.locator("#promptbar").bounding_box()["height"])

    measure()
    players.play_until([page], lambda: players.version(page) >= 25, max_actions=40, on_step=measure)
    assert max(heights) <= 200, heights
    assert not errors, errors
    ctx.close()


def test_phone_sheet_taps_prompt_badges_and_menu(browser: Any, live_server: LiveServer) -> None:
    ctx, page, errors = _start(browser, live_server, True)
    # no number badges on a touch screen
    assert page.locator("#buttons kbd").count() == 0
    # the prompt is whole (no ellipsis, nothing clipped)
    cut = page.evaluate("""() => { const p = document.getElementById('prompt'); const cs = getComputedStyle(p);
        return [cs.webkitLineClamp, p.scrollHeight > p.clientHeight + 1 && cs.overflowY !== 'auto']; }""")
    assert cut[0] in ("none", "") and cut[1] is False, cut
    # the map stays put while the sheet changes size
    before = page.evaluate(AREA_AT, "Middlesex")
    svg_before = page.locator("svg#map").bounding_box()
    page.click("#sheet-toggle")  # hide the choices: the sheet shrinks
    page.wait_for_timeout(150)
    assert page.evaluate(AREA_AT, "Middlesex") == before
    assert page.locator("svg#map").bounding_box() == svg_before
    page.click("#sheet-toggle")  # and back
    page.wait_for_timeout(150)
    assert page.evaluate(AREA_AT, "Middlesex") == before
    # a move or two later (the sheet's content changes), still in place
    players.play_until([page], lambda: players.version(page) >= 6, max_actions=10)
    page.wait_for_timeout(150)
    assert page.locator("svg#map").bounding_box() == svg_before
    page.screenshot(path=str(screenshot_path("phone-sheet-390x844.png")))
    # the phone menu: every page
    page.click("#phone-menu summary")
    for name in ("Leaderboard", "Settings", "Games in progress", "Lobby", "Rules"):
        assert page.locator("#phone-menu a", has_text=name).first.is_visible(), name
    page.screenshot(path=str(screenshot_path("phone-menu-390x844.png")))
    assert not errors, errors
    ctx.close()
