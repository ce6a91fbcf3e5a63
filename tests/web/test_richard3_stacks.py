"""Richard III: every block is drawn inside the area where the rules have it (4.3: a block
stands in one area), at every zoom and at laptop and phone sizes; a stack grows inside its
area (its blocks drawn smaller); one's own blocks are never covered by the enemy's. Checked
from the DOM with the generic helpers of tests/web/placement.py."""

from __future__ import annotations

import json
from typing import Any

import pytest

from roses.engine import Game, get_rules
from roses.games.richard3.data import AREA_NAMES, BLOCK_ID, N_BLOCKS, POOL
from tests.web.conftest import PHONE, STATIC, route_view_tables, screenshot_path
from tests.web.placement import pieces_covered, pieces_outside

pytestmark = pytest.mark.browser

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": PHONE}
PIECES = "svg#map g.stack g.block"
SHAPE = 'svg#map g.area[data-area="{place}"] polygon.area-shape'
LAYOUT = json.loads((STATIC / "richard3" / "layout.json").read_text(encoding="utf-8"))


def _page(browser: Any, static_server: str, size: str) -> tuple[Any, list[str]]:
    vp = SIZES[size]
    page = browser.new_page(viewport=vp)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(f"{static_server}/static/**", lambda route: route.fulfill(
        path=str(STATIC / route.request.url.split("/static/", 1)[1])))
    route_view_tables(page, static_server)
    page.goto(f"{static_server}/css/")
    page.set_content(f'<!doctype html><html><body style="margin:0"><svg id="map" width="{vp["width"]}" '
                     f'height="{vp["height"]}"></svg></body></html>')
    page.add_style_tag(url=f"{static_server}/css/map.css")
    page.add_script_tag(type="module", content="""
        import { create } from "/js/games/richard3.js";
        window.game = null;
        window.draw = async (view, role) => {
          if (!window.game) window.game = await create({ svg: document.getElementById("map") });
          window.game.drawPieces(window.game.map, view, { role, choices: [], onChoices: () => {} });
          return document.querySelectorAll('svg#map g.stack g.block').length;
        };
        window.ready = true;""")
    page.wait_for_function("window.ready === true")
    return page, errors


def _check(page: Any, role: str, where: str) -> None:
    for zoom in ("whole map", "zoomed in"):
        if zoom == "zoomed in":
            page.evaluate("() => { for (let i = 0; i < 4; i++) window.game.pan.zoomIn(); }")
        else:
            page.evaluate("() => window.game.pan.reset()")
        outside = pieces_outside(page, pieces=PIECES, place_attr="data-area", shape=SHAPE)
        assert outside == [], (where, zoom, outside)
    page.evaluate("() => window.game.pan.reset()")
    covered = pieces_covered(page, pieces=PIECES, mine=f'svg#map g.stack g.block[data-side="{role}"]')
    assert covered == [], (where, covered)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_block_of_a_scenario_start_is_inside_its_area(browser: Any, static_server: str, size: str) -> None:
    """4.3: the blocks set up by each scenario, as York, Lancaster and an observer see them."""
    rules = get_rules("richard3")
    page, errors = _page(browser, static_server, size)
    for scenario in ("wars-of-the-roses", "kingmaker", "richard-iii"):
        state = Game.new(rules, seed=5, scenario=scenario).state
        for role in ("York", "Lancaster", "Observer"):
            view = rules.view(state, role)
            n = page.evaluate("([v, r]) => draw(v, r)", [view, role])
            assert n > 5
            _check(page, role, f"{scenario} as {role}")
            # the map agrees with the "Blocks per area" table (the view's counts)
            drawn = page.evaluate("""() => { const out = {};
                for (const g of document.querySelectorAll('svg#map g.stack g.block:not(.down)')) {
                  const a = g.closest('g.stack').dataset.area;
                  out[a] = (out[a] || 0) + Number(g.dataset.count || 1); }
                return out; }""")
            table = {AREA_NAMES[a]: view["counts"][0][a] + view["counts"][1][a]
                     for a in range(len(AREA_NAMES)) if view["counts"][0][a] + view["counts"][1][a]}
            assert drawn == table, (scenario, role)
    page.screenshot(path=str(screenshot_path(f"stacks-start-{size}.png")))
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_growing_stack_stays_inside_its_area(browser: Any, static_server: str, size: str) -> None:
    """A stack of 1 to 10 blocks of both sides in Middlesex (the smallest land area) and in the
    Isle of Man stays inside the area, York's blocks never under Lancaster's."""
    rules = get_rules("richard3")
    page, errors = _page(browser, static_server, size)
    base = Game.new(rules, seed=5, scenario="wars-of-the-roses").state
    york = [k for k in BLOCK_ID if k.endswith("/Y")][:6]
    lanc = [k for k in BLOCK_ID if k.endswith("/L")][:4]
    for area in ("Middlesex", "Isle of Man", "Kent"):
        aid = AREA_NAMES.index(area)
        for n in range(1, 11):
            state = json.loads(json.dumps(base))
            for k in (york + lanc)[:n]:
                state["loc"][BLOCK_ID[k]] = aid
            for role in ("York", "Lancaster"):
                drawn = page.evaluate("([v, r]) => draw(v, r)", [rules.view(state, role), role])
                assert drawn > 0
                _check(page, role, f"{n} in {area} as {role}")
    assert not errors, errors
    page.close()


def test_every_block_spread_over_every_area(browser: Any, static_server: str) -> None:
    """All 63 blocks on the map at once, spread over every area (some areas with four)."""
    rules = get_rules("richard3")
    page, errors = _page(browser, static_server, "laptop")
    state = Game.new(rules, seed=5, scenario="wars-of-the-roses").state
    for b in range(N_BLOCKS):
        state["loc"][b] = b % len(AREA_NAMES)
    for role in ("York", "Lancaster"):
        page.evaluate("([v, r]) => draw(v, r)", [rules.view(state, role), role])
        _check(page, role, f"spread as {role}")
    page.screenshot(path=str(screenshot_path("stacks-spread-laptop.png")))
    assert not errors, errors
    page.close()



@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_stack_of_hidden_blocks_stays_inside_with_the_block_drawn_under_it(browser: Any, static_server: str,
                                                                              size: str) -> None:
    """4.3 with the enemy's blocks hidden: two or three Lancaster blocks alone in an area are
    drawn to York as one block back with a second back drawn under it, offset up and to the
    right. That offset is part of the stack's room, so the stack stays inside every land area
    and the island, Kent's coast included (whose corner it once crossed)."""
    rules = get_rules("richard3")
    page, errors = _page(browser, static_server, size)
    base = Game.new(rules, seed=5, scenario="wars-of-the-roses").state
    lanc = [BLOCK_ID[k] for k in BLOCK_ID if k.endswith("/L")][:3]
    page.evaluate("([v, r]) => draw(v, r)", [rules.view(base, "York"), "York"])  # the map made
    page.evaluate("""() => { window.fits = {}; const fit = window.game.map.fitStack;
        window.game.map.fitStack = (area, ...rest) => (window.fits[area] = fit(area, ...rest)); }""")
    areas = [a for a in AREA_NAMES if LAYOUT["areas"].get(a, {}).get("kind") in ("land", "island")]
    assert "Kent" in areas and len(areas) == 29
    empty = json.loads(json.dumps(base))
    empty["loc"] = [POOL if loc < len(AREA_NAMES) else loc for loc in empty["loc"]]
    for n in (2, 3):
        for area in areas:
            state = json.loads(json.dumps(empty))
            for b in lanc[:n]:
                state["loc"][b] = AREA_NAMES.index(area)
            page.evaluate("([v, r]) => draw(v, r)", [rules.view(state, "York"), "York"])
            drawn = page.evaluate("() => [...document.querySelectorAll('svg#map g.stack g.block')]"
                                  ".map((g) => [g.closest('g.stack').dataset.area, g.dataset.count])")
            assert drawn == [[area, str(n)]], (area, drawn)
            outside = pieces_outside(page, pieces=PIECES, place_attr="data-area", shape=SHAPE)
            assert outside == [], (n, area, outside)
            # the block drawn under lies within the room the layout found inside the area,
            # wherever the area's names and icons leave that room
            beyond = page.evaluate(_BEYOND_ROOM)
            assert beyond == [], (n, area, beyond)
    assert not errors, errors
    page.close()


#: The blocks whose bodies (the block and the one drawn under it; map units, a tenth of a unit
#: spared) reach beyond the room the layout found for their stack (``fitStack``'s box, recorded
#: as it is asked for).
_BEYOND_ROOM = r"""() => {
  const out = [];
  for (const stack of document.querySelectorAll('svg#map g.stack')) {
    const fit = window.fits[stack.dataset.area];
    const [x0, y0, x1, y1] = fit.box;
    for (const g of stack.querySelectorAll(':scope > g.block')) {
      const m = /translate\(([-\d.]+),([-\d.]+)\)(?: scale\(([\d.]+)\))?/.exec(g.getAttribute('transform'));
      const [x, y, s] = [Number(m[1]), Number(m[2]), Number(m[3] || 1)];
      const rects = [...g.querySelectorAll(':scope > rect.block-body')].map((r) => r.getBBox());
      const box = [x + Math.min(...rects.map((b) => b.x)) * s, y + Math.min(...rects.map((b) => b.y)) * s,
                   x + Math.max(...rects.map((b) => b.x + b.width)) * s, y + Math.max(...rects.map((b) => b.y + b.height)) * s];
      if (box[0] < x0 - 0.1 || box[1] < y0 - 0.1 || box[2] > x1 + 0.1 || box[3] > y1 + 0.1) out.push([stack.dataset.area, fit.box, box]);
    }
  }
  return out;
}"""
