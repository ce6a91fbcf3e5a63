"""The game page a player can read and use, measured in real Chromium at 1366x768 (a laptop)
and 390x844 (a phone):

* at the page's opening zoom no text on the board is under 11 CSS px, and no HTML text of the
  page either;
* no block label is cut: every label fits inside its block (all 63 Richard III blocks drawn),
  and on the board nothing covers it (crowded stacks once fanned out);
* in a scripted game the choices stay in view after every action (every choice is a button
  of the choices bar, the bar is on screen, nothing covers its first button);
* cards show what they do (tooltip and text) and the card panel lists every card;
* a section number in the log is a link that opens that section of the rules reference.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web import players
from tests.web.conftest import (
    CSP_WATCH,
    PHONE,
    STATIC,
    LiveServer,
    route_view_tables,
    screenshot_path,
)

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
SIZES = {"laptop": LAPTOP, "phone": PHONE}
DATA = json.loads((Path(__file__).resolve().parents[2] / "roses" / "games" / "richard3" / "data.json")
                  .read_text(encoding="utf-8"))
LAYOUT = json.loads((STATIC / "richard3" / "layout.json").read_text(encoding="utf-8"))
players.load_neighbours(LAYOUT)

#: Font size on screen of every <text> of the map: computed size times the scale of its CTM.
SMALL_MAP_TEXT = """() => {
  const out = [];
  for (const t of document.querySelectorAll('svg#map text')) {
    if (!t.textContent.trim() || t.closest('[display="none"]')) continue;
    // a stack made smaller to lie inside its area is read opened out (pointed at, tapped)
    if (t.closest('g.stack.compact:not(.fanned)')) continue;
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    if (px < 10.99) out.push([t.textContent, Math.round(px * 100) / 100, t.getAttribute('class')]);
  }
  return out;
}"""

#: HTML text of the game page under 11 CSS px (visible elements with text of their own).
SMALL_PAGE_TEXT = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#game *, #promptbar *')) {
    if (el.closest('svg') || !el.getClientRects().length) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < 10.99) out.push([el.tagName, el.textContent.trim().slice(0, 30), px]);
  }
  return out;
}"""

#: Block labels that stick out of their block, or that something covers on the screen (the
#: blocks of a crowded stack only once it is fanned out).
CUT_LABELS = """(checkCover) => {
  const out = [];
  // hit-test every piece, also those that take no clicks (pointer-events: none)
  const probe = document.createElement('style');
  probe.textContent = 'svg#map .pieces, svg#map .pieces * { pointer-events: all !important; }';
  document.head.appendChild(probe);
  for (const g of document.querySelectorAll('svg#map g.block[data-block]')) {
    const body = g.querySelector('rect.block-body:not(.block-under)');
    const t = g.querySelector('text.block-name');
    if (!t) continue;
    // a stack made smaller to lie inside its area is read opened out (its text is checked then)
    if (checkCover && g.closest('g.stack.compact:not(.fanned)')) continue;
    const b = t.getBBox();
    const w = Number(body.getAttribute('width')), hh = Number(body.getAttribute('height'));
    if (b.x < 1 || b.y < 0 || b.x + b.width > w - 1 || b.y + b.height > hh) out.push([g.dataset.block, t.textContent, 'outside']);
    if (!checkCover) continue;
    const r = t.getBoundingClientRect();
    const holder = document.getElementById('map').getBoundingClientRect();
    for (const [fx, fy] of [[0.1, 0.5], [0.5, 0.5], [0.9, 0.5]]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < holder.left || y < holder.top || x > holder.right || y > holder.bottom) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit.closest('g.block') !== g) {
        const by = hit.closest('g.block, g.stack, [id], [class]');
        out.push([g.dataset.block, t.textContent, 'covered', by ? (by.id || by.getAttribute('class') || by.tagName) : hit.tagName]);
        break;
      }
    }
  }
  probe.remove();
  return out;
}"""


#: CSS px per map unit now.
SCALE = "(() => { const m = document.querySelector('svg#map g.area').getScreenCTM(); return Math.hypot(m.a, m.b); })()"


def _new_game(page: Any, scenario: str = "wars-of-the-roses", role: str = "York") -> int:
    game_id: int = page.evaluate(
        """async ([scenario, role]) => {
            const csrf = document.cookie.split('; ').find(c => c.startsWith('roses_csrf=')).split('=')[1];
            const other = role === 'York' ? 'Lancaster' : 'York';
            const r = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
              body: JSON.stringify({game: 'richard3', scenario, role, bots: {[other]: 'random'}})});
            return (await r.json()).id;
        }""", [scenario, role])
    return game_id


def _stamp() -> str:
    return str(int(time.time() * 1000))[-6:]


def test_every_block_label_fits_its_block(browser: Any, static_server: str) -> None:
    """All 63 blocks (both versions of every noble), as the board draws them: the label of each
    fits inside the block with a margin (abbreviations where a name is long)."""
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the module fetches /static/...: serve it from roses/web/static
    page.route(f"{static_server}/static/**", lambda route: route.fulfill(
        path=str(STATIC / route.request.url.split("/static/", 1)[1])))
    route_view_tables(page, static_server)
    page.goto(f"{static_server}/css/")
    page.set_content('<!doctype html><html><body><svg id="map" width="1200" height="900"></svg></body></html>')
    page.add_style_tag(url=f"{static_server}/css/map.css")
    page.add_script_tag(type="module", content="""
        import { create } from "/js/games/richard3.js";
        window.create = create; window.ready = true;""")
    page.wait_for_function("window.ready === true")
    blocks = [{"key": b["key"], "name": b["name"], "side": b["side"], "type": b["type"], "rating": b["rating"],
               "steps": b["steps"], "max": b["steps"], "known": True, "moved": True} for b in DATA["blocks"]]
    assert len(blocks) == 63
    out = page.evaluate("""async (blocks) => {
        const game = await create({ svg: document.getElementById("map") });
        const layer = game.map.pieceLayer;
        blocks.forEach((b, i) => game.drawBlock(layer, b, 20 + (i % 12) * 72, 20 + Math.floor(i / 12) * 70, b.side));
        return document.querySelectorAll('svg#map g.block[data-block]').length;
    }""", blocks)
    assert out == 63
    assert page.evaluate(CUT_LABELS, False) == []
    labels = page.evaluate("[...document.querySelectorAll('svg#map text.block-name')].map(t => t.textContent)")
    assert all(1 <= len(x) <= 8 for x in labels), labels
    assert not errors, errors


#: Area names (and the city names above them) that a block of the board covers, as
#: [label, block key, area of the block].
LABELS_UNDER_BLOCKS = """() => {
  const out = [];
  const labels = [...document.querySelectorAll('svg#map text.area-label, svg#map text.city-label')]
    .map((t) => [t.textContent, t.getBoundingClientRect()]);
  for (const body of document.querySelectorAll('svg#map g.block rect.block-body')) {
    const b = body.getBoundingClientRect();
    const g = body.closest('g.block');
    for (const [name, r] of labels) {
      const w = Math.min(b.right, r.right) - Math.max(b.left, r.left);
      const h = Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top);
      if (w > 3 && h > 3) out.push([name, g.dataset.block, g.closest('g.stack').dataset.area]);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("per_area", [2, 4])
def test_stacks_sit_beside_area_names(browser: Any, static_server: str, per_area: int) -> None:
    """Blocks beside the area's label, names readable: a stack of one row (two blocks) and of
    two rows (four, e.g. both sides of a battle) in every land and exile area of the board at
    once covers no area name and no city name, but in the Isle of Man, whose name is wider
    than the island: a stack inside the island (4.3, tests/web/test_richard3_stacks.py) must
    cross it there."""
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(f"{static_server}/static/**", lambda route: route.fulfill(
        path=str(STATIC / route.request.url.split("/static/", 1)[1])))
    route_view_tables(page, static_server)
    page.goto(f"{static_server}/css/")
    page.set_content('<!doctype html><html><body style="margin:0"><svg id="map" width="1240" height="1560"></svg></body></html>')
    page.add_style_tag(url=f"{static_server}/css/map.css")
    page.add_script_tag(type="module", content="""
        import { create } from "/js/games/richard3.js";
        window.create = create; window.ready = true;""")
    page.wait_for_function("window.ready === true")
    areas = [a for a in LAYOUT["area_order"] if a in LAYOUT["areas"]]
    keys = DATA["blocks"]
    blocks = []
    for i, area in enumerate(areas):
        for j in range(per_area):
            b = keys[(i * per_area + j) % len(keys)]
            blocks.append({"key": f"{b['key']}#{area}#{j}", "name": b["name"], "side": "York" if j % 2 == 0 else "Lancaster",
                           "type": b["type"], "rating": b["rating"], "steps": b["steps"], "max": b["steps"],
                           "known": True, "where": area})
    drawn = page.evaluate("""async (blocks) => {
        const game = await create({ svg: document.getElementById("map") });
        game.drawPieces(game.map, { role: "York", blocks }, { role: "York", choices: [] });
        return document.querySelectorAll('svg#map g.block rect.block-body').length;
    }""", blocks)
    assert drawn == len(blocks)
    covered = [c for c in page.evaluate(LABELS_UNDER_BLOCKS) if c[2] != "Isle of Man"]
    assert covered == [], covered
    assert not errors, errors


@pytest.mark.parametrize("size", sorted(SIZES))
def test_board_text_and_labels_at_the_opening_zoom(browser: Any, live_server: LiveServer, size: str) -> None:
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone", has_touch=size == "phone")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, live_server.url, f"read{size[:2]}{_stamp()}")
    game_id = _new_game(page)
    page.goto(f"{live_server.url}/games/{game_id}")
    page.wait_for_function("window.roses && window.roses.choices.length > 0", timeout=40000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(screenshot_path(f"read-{size}.png")))
    assert page.locator("svg#map text").count() > 100
    if size == "laptop":
        # a laptop opens on the whole map (Ireland, Scotland, France and Calais in view);
        # the reading size is one button away
        whole = page.evaluate("""() => { const m = document.getElementById('map').getBoundingClientRect();
            return ['Ireland', 'Scotland', 'France', 'Calais', 'Cornwall', 'Northumbria'].every((a) => {
              const r = document.querySelector(`svg#map g.area-features[data-area="${a}"] text.area-label`).getBoundingClientRect();
              return r.left >= m.left && r.right <= m.right && r.top >= m.top && r.bottom <= m.bottom; }); }""")
        assert whole
        page.click("#zoom [data-zoom=read]")
    opening = page.evaluate(SCALE)
    assert page.evaluate(SMALL_MAP_TEXT) == []
    assert page.evaluate(SMALL_PAGE_TEXT) == []
    assert page.evaluate(CUT_LABELS, True) == []
    # a crowded stack (more than four blocks) fans out when pointed at: then no label is covered
    crowded = page.locator("svg#map g.stack.compact")
    if crowded.count():
        page.click("#zoom [data-zoom=reset]")  # the whole map: every stack on screen
    for i in range(crowded.count()):
        stack = crowded.nth(i)
        top = stack.locator("g.block").last  # drawn last: on top of the overlapped others
        if size == "phone":
            top.tap()
        else:
            top.hover()
        page.wait_for_function("document.querySelector('svg#map g.stack.fanned') !== null")
        cut = page.evaluate(CUT_LABELS, True)
        assert cut == [], (stack.get_attribute("data-area"), cut, page.evaluate("() => [...document.querySelectorAll('svg#map g.stack.fanned')].map((s) => s.dataset.area)"))
        page.mouse.move(2, 2)
        page.keyboard.press("Escape")
    # the whole map is one button away, at a smaller scale than the opening zoom; back to it
    page.click("#zoom [data-zoom=reset]")
    assert page.evaluate(SCALE) < opening
    page.click("#zoom [data-zoom=read]")
    assert abs(page.evaluate(SCALE) - opening) < 0.01
    assert page.evaluate(SMALL_MAP_TEXT) == []
    assert not errors, errors
    ctx.close()


def _choices_in_view(page: Any) -> None:
    """Every choice is a button of the choices bar, which is on screen and not covered."""
    opts = players.choices(page)
    if not opts:
        return
    n = page.locator("#buttons button.choice:not(#undo)").count()
    assert n >= len(opts), (n, len(opts))
    state = page.evaluate("""() => {
        const b = document.querySelector('#buttons button.choice');
        const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {top: r.top, bottom: r.bottom, h: innerHeight, own: !!hit && (hit === b || b.contains(hit))};
    }""")
    assert state["top"] >= 0 and state["bottom"] <= state["h"] and state["own"], state


@pytest.mark.parametrize("size", sorted(SIZES))
def test_choices_stay_in_view_and_texts_are_at_hand(browser: Any, live_server: LiveServer, size: str) -> None:
    ctx = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone", has_touch=size == "phone")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    players.signup(page, live_server.url, f"keep{size[:2]}{_stamp()}")
    game_id = _new_game(page)
    page.goto(f"{live_server.url}/games/{game_id}")
    page.wait_for_function("window.roses && window.roses.payload", timeout=40000)

    # cards: every card in the hand says what it does, in a tooltip and on the card
    players.show_tab_of(page, "#hand")
    page.wait_for_selector("#hand .card", state="attached", timeout=40000)
    cards = page.evaluate("[...document.querySelectorAll('#hand .card')].map(c => [c.title, c.querySelector('.card-text').textContent])")
    assert cards and all(title and text for title, text in cards), cards
    page.click("#card-ref-open")
    page.wait_for_selector("#rules-panel:not([hidden]) .card-ref")
    names = page.locator("#rules-panel .card-ref dt").all_inner_texts()
    assert {"Surprise", "Force March", "Muster", "Piracy", "Treason", "Plague"} <= set(names)
    page.keyboard.press("Escape")
    assert page.locator("#rules-panel").is_hidden()
    players.show_tab_of(page, "svg#map")

    # a scripted game: after every action of either side, the choices are in view
    seen = {"link": None, "battle": False, "actions": 0}

    def rule_link_in_log() -> bool:
        return bool(page.evaluate("document.querySelectorAll('#log a.rule-link').length"))

    def on_step(p: Any, choice: dict[str, Any]) -> None:
        seen["actions"] += 1
        _choices_in_view(p)
        if (players.payload(p).get("view") or {}).get("battle"):
            seen["battle"] = True

    def done() -> bool:
        _choices_in_view(page)
        return bool(players.payload(page).get("result")) or (seen["actions"] >= 25 and rule_link_in_log() and seen["battle"])

    players.play_until([page], done, on_step=on_step, max_actions=250, timeout=300)
    assert seen["actions"] >= 10

    # a section number in the log is a link to that section of the rules reference
    players.show_tab_of(page, "#log")
    link = page.locator("#log a.rule-link").last
    section = link.get_attribute("data-section")
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_selector("#rules-panel:not([hidden])")
    shown = page.locator("#rules-panel .rules-section").get_attribute("data-section")
    assert shown and (section == shown or section.startswith(shown)), (section, shown)
    heading = page.locator("#rules-panel h3").first.inner_text()
    assert heading.startswith(f"{shown} ")
    page.screenshot(path=str(screenshot_path(f"rules-{size}.png")))
    # the full reference page has the section under its anchor
    href = link.get_attribute("href")
    page.goto(live_server.url + href)
    anchor = href.split("#")[1]
    assert page.locator(f"section#{anchor} h2, section#{anchor} h3").first.inner_text().startswith(shown)
    assert not errors, errors
    ctx.close()


def test_rules_reference_page_runs_under_the_content_security_policy(browser: Any, live_server: LiveServer) -> None:
    """The rules reference is served by the real server (its CSP kept): no violation."""
    ctx = browser.strict_context(viewport=LAPTOP)
    page = ctx.new_page()
    page.add_init_script(CSP_WATCH)
    page.goto(f"{live_server.url}/rules/richard3")
    assert page.locator("section#s6-9 h3").inner_text() == "6.9 Treachery rolls"
    assert page.locator("#cards dt").count() >= 9
    assert page.evaluate("window.__csp") == []
    page.goto(f"{live_server.url}/rules")
    assert page.locator("a[href='/rules/richard3']").count() == 1
    assert page.evaluate("window.__csp") == []
    ctx.close()
