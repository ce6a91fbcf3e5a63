"""Plantagenet in real Chromium, at 1366x768 and 390x844: every Lord, Seat marker and Vassal
counter is drawn inside its place (a Locale's plate around its marker, an Exile box, a Sea, a
Calendar box; 1.3.1, 2.2), at the first view and after zooming in and out; Lords of one place never cover each
other, and your own stand first; the Influence track (1.4.1) and the Calendar's boxes 1-7 (2.2)
are in the first view and nothing of them is under the zoom buttons; no label of the board or
the panels shows an internal id."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from roses.engine import Game, get_rules
from roses.games.plantagenet.components import load
from tests.web import players
from tests.web.conftest import PHONE, LiveServer, screenshot_path

pytestmark = pytest.mark.browser

RULES = get_rules("plantagenet")
AVOID = {"remove", "cancel", "leave", "disband", "exile", "undo"}
LAPTOP = {"width": 1366, "height": 768}

#: Every piece (``[data-at]``) against the shape of its place (``[data-place]``) in the map
#: holder; pieces of one place that overlap; the pieces found. Rectangles in CSS px.
CHECK = """() => {
  const holder = document.querySelector('.map-holder');
  const box = (n) => n.getBoundingClientRect();
  const out = { outside: [], overlaps: [], pieces: 0, places: {} };
  const byPlace = {};
  for (const p of holder.querySelectorAll('[data-at]')) {
    const at = p.dataset.at;
    const shape = [...holder.querySelectorAll('[data-place]')].find((s) => s.dataset.place === at);
    const b = box(p);
    out.pieces += 1;
    out.places[at] = (out.places[at] || 0) + 1;
    if (!shape) { out.outside.push(`${p.dataset.block || p.dataset.vassal} at ${at}: no such place drawn`); continue; }
    const s = box(shape);
    if (b.left < s.left - 1 || b.right > s.right + 1 || b.top < s.top - 1 || b.bottom > s.bottom + 1) {
      out.outside.push(`${p.dataset.block || p.dataset.vassal} at ${at}: ${[b.left, b.top, b.right, b.bottom].map(Math.round)} not in ${[s.left, s.top, s.right, s.bottom].map(Math.round)}`);
    }
    (byPlace[at] = byPlace[at] || []).push([p, b]);
  }
  for (const [at, list] of Object.entries(byPlace)) {
    for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) {
      const [, a] = list[i]; const [, c] = list[j];
      const w = Math.min(a.right, c.right) - Math.max(a.left, c.left);
      const h = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
      if (w > 1 && h > 1) out.overlaps.push(`${at}: ${list[i][0].dataset.block || list[i][0].dataset.vassal} and ${list[j][0].dataset.block || list[j][0].dataset.vassal}`);
    }
  }
  return out;
}"""


def _play(seed: int, scenario: str, stop: Any, limit: int = 2500) -> Game:
    """A seeded random game (Hidden Mats), cut where ``stop(game)`` first holds."""
    game = Game.new(RULES, seed, scenario, {"hidden_mats": True})
    rnd = random.Random(seed)
    for _ in range(limit):
        if stop(game) or game.result() is not None:
            break
        role = game.active()[0]
        legal = RULES.legal_actions(game.state, role)
        good = [a for a in legal if a[0] not in AVOID] or legal
        marches = [a for a in good if a[0] in ("march", "sail")]
        verb, arg = rnd.choice(marches) if marches and rnd.random() < 0.7 else rnd.choice(good)
        game.apply(role, verb, arg)
    return game


def _crowded(game: Game) -> bool:
    """Three Lords or more at one Locale, or a Lord at Sea or in Exile (a deep enough position)."""
    where: dict[str, int] = {}
    for lord in game.state["lords"].values():
        if lord.get("where") in ("map", "sea") and lord.get("locale"):
            where[lord["locale"]] = where.get(lord["locale"], 0) + 1
    return len(game.record()["actions"]) > 80 and max(where.values(), default=0) >= 3


def _open(browser: Any, server: LiveServer, game: Game, viewport: dict[str, int], tag: str) -> tuple[Any, Any, list[str]]:
    stamp = str(int(time.time() * 1000))[-6:] + tag
    ctx = browser.new_context(viewport=viewport, **({"is_mobile": True, "has_touch": True} if viewport == PHONE else {}))
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, server.url, f"plpc{stamp}")
    record = {**game.record(), "title": f"Pieces {stamp}",
              "players": [{"role": "York", "user": f"plpc{stamp}"}, {"role": "Lancaster", "user": f"plpc{stamp}"}]}
    gid = server.services.games.import_record(record, private=False)
    page.goto(f"{server.url}/games/{gid}")
    page.wait_for_selector("svg#map g.pl-locale", state="attached", timeout=40000)
    page.wait_for_function("() => !!(window.roses && window.roses.payload && window.roses.payload.view)", timeout=40000)
    page.wait_for_timeout(300)
    return ctx, page, errors


def _state_lords(game: Game) -> dict[str, str]:
    """Where the rules have each Lord: a Locale or Sea name, or "Calendar box N"."""
    out = {}
    for lid, lord in game.state["lords"].items():
        if lord.get("where") in ("map", "sea") and lord.get("locale"):
            out[lid] = lord["locale"]
        elif lord.get("where") == "calendar" and lord.get("box") is not None:
            out[lid] = f"Calendar box {max(1, min(15, lord['box']))}"
    return out


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
@pytest.mark.parametrize("position", ["start", "crowded"])
def test_every_piece_inside_its_place_at_every_zoom(browser: Any, live_server: LiveServer,
                                                     viewport: dict[str, int], position: str) -> None:
    game = _play(3, "ia-henry-vi", lambda g: True) if position == "start" else _play(2, "iii-my-kingdom-for-a-horse", _crowded)
    if position == "crowded":
        assert _crowded(game), "no seeded game gathered three Lords at one Locale"
    ctx, page, errors = _open(browser, live_server, game, viewport, position[0])
    players.show_tab_of(page, "svg#map")
    # the board draws each Lord where the rules have him, and only there
    drawn = page.evaluate("() => Object.fromEntries([...document.querySelectorAll('.map-holder [data-block][data-at]')].map((p) => [p.dataset.block, p.dataset.at]))")
    assert drawn == _state_lords(game)
    # the Lords' Seat markers and the Vassal counters waiting at their Seats (1.3.1, 1.5.4)
    marks = page.evaluate("""() => ({
        seats: Object.fromEntries([...document.querySelectorAll('svg#map [data-seat]')].map((p) => [p.dataset.seat, p.dataset.at])),
        vassals: Object.fromEntries([...document.querySelectorAll('svg#map .pl-vassal-counter')].map((p) => [p.dataset.vassal, p.dataset.at])) })""")
    view = RULES.view(game.state, "York")
    assert marks["seats"] == view["seats"] and marks["seats"]
    seat_of = {vid: d["seat"] for vid, d in load().vassals.items()}
    assert marks["vassals"] == {vid: seat_of[vid] for vid, v in game.state["vassals"].items() if v["where"] == "seat"}
    steps = [("first view", None), ("zoomed in", "zoomIn"), ("zoomed in twice", "zoomIn"),
             ("zoomed out", "zoomOut"), ("whole map", "reset"), ("reading size", "read")]
    for name, button in steps:
        if button:
            page.click(f"#zoom [data-zoom={button}]")
            page.wait_for_timeout(150)
        out = page.evaluate(CHECK)
        assert out["pieces"] >= len(drawn), (name, out)
        assert not out["outside"], (name, out["outside"])
        assert not out["overlaps"], (name, out["overlaps"])
    if position == "crowded":
        counts = page.evaluate(CHECK)["places"]
        assert max(n for at, n in counts.items() if not at.startswith("Calendar")) >= 3
        # your own Lords first at a place where both sides stand
        order = page.evaluate("""() => { const by = {};
            for (const p of document.querySelectorAll('svg#map g.pl-lord[data-at]')) (by[p.dataset.at] = by[p.dataset.at] || []).push(p.classList.contains('block-York') ? 'Y' : 'L');
            return Object.values(by).map((x) => x.join('')); }""")
        assert all(not re.search("LY", o) for o in order), order
    size = f"{viewport['width']}x{viewport['height']}"
    page.click("#zoom [data-zoom=read]")
    page.screenshot(path=str(screenshot_path(f"plantagenet-pieces-{position}-{size}.png")))
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
def test_influence_and_calendar_in_the_first_view_clear_of_the_zoom_buttons(
        browser: Any, live_server: LiveServer, viewport: dict[str, int]) -> None:
    """1.4.1, 2.2: at the first view the Influence track with its marker and the Calendar's
    boxes 1-7 (all 15 on a laptop) are inside the window, none under the zoom buttons or the
    choices bar; the present box is marked."""
    game = _play(3, "ia-henry-vi", lambda g: True)
    ctx, page, errors = _open(browser, live_server, game, viewport, "v")
    players.show_tab_of(page, "svg#map")
    out = page.evaluate("""() => {
        const r = (n) => { const b = n.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
        const zoom = [...document.querySelectorAll('#zoom button')].map(r);
        const bar = document.querySelector('.actions-bar, #actions-panel');
        return { boxes: [...document.querySelectorAll('.pl-cal > li')].map((li) => ({ box: Number(li.dataset.box), rect: r(li), current: li.classList.contains('current') })),
                 marker: r(document.querySelector('.pl-inf-marker')), bar: r(document.querySelector('.pl-inf-bar')),
                 zoom, sheet: bar ? r(bar) : null, w: window.innerWidth, h: window.innerHeight }; }""")
    inside = lambda b: b[0] >= 0 and b[1] >= 0 and b[2] <= out["w"] + 0.5 and b[3] <= out["h"]  # noqa: E731
    clear = lambda a, b: a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]  # noqa: E731
    assert [b["box"] for b in out["boxes"]] == list(range(1, 16))
    wanted = range(1, 16) if viewport == LAPTOP else range(1, 8)
    for b in out["boxes"]:
        if b["box"] in wanted:
            assert inside(b["rect"]), b
        for z in out["zoom"]:
            assert clear(b["rect"], z), (b, z)
    assert [b["box"] for b in out["boxes"] if b["current"]] == [game.state["box"]]
    assert inside(out["marker"]) and inside(out["bar"])
    for z in out["zoom"]:
        assert clear(out["bar"], z) and clear(out["marker"], z)
    assert not errors, errors
    ctx.close()
