"""The schematic Richard III map: layout data checks and a Chromium render (rules 2.1-2.83)."""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

import pytest

from roses.games.richard3 import map_drawing as mapgen
from tests.web.conftest import DESKTOP, PHONE, STATIC, screenshot_path

LAYOUT = json.loads((STATIC / "richard3" / "layout.json").read_text(encoding="utf-8"))

#: A test-only page drawing the bare map with the product's map.js; served by the browser
#: tests themselves (``page.route``), never by the application.
MAP_PAGE_PATH = "/richard3/_test_map.html"
MAP_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>map</title>
<link rel="stylesheet" href="../css/map.css">
<style>html, body { margin: 0; height: 100%; } #map { width: 100%; height: 100%; }</style>
</head>
<body><svg id="map"></svg>
<script type="module">
import { drawMap } from "../js/map.js";
import { enablePanZoom } from "../js/mapkit.js";
const layout = await (await fetch("layout.json")).json();
const svg = document.getElementById("map");
window.mapApi = drawMap(svg, layout);
window.panZoom = enablePanZoom(svg, layout);
document.body.dataset.ready = "1";
</script>
</body>
</html>
"""


def open_map_page(browser: Any, static_server: str, size: dict[str, int],
                  errors: list[str] | None = None) -> Any:
    page = browser.new_page(viewport=size)
    if errors is not None:
        page.on("pageerror", lambda e: errors.append(str(e)))
    url = f"{static_server}{MAP_PAGE_PATH}"
    page.route(url, lambda route: route.fulfill(status=200, content_type="text/html", body=MAP_PAGE))
    page.goto(url)
    return page


def test_layout_file_is_up_to_date() -> None:
    assert mapgen.build() == LAYOUT, "run: python -m roses.games.richard3.map_drawing"


def test_33_areas_62_borders_3_seas() -> None:
    """Rules 2.0-2.82: 28 land areas + Isle of Man + 4 exile areas; 62 borders; 3 sea zones."""
    areas = LAYOUT["areas"]
    assert len(areas) == 33
    assert sum(a["kind"] == "land" for a in areas.values()) == 28
    assert sorted(a for a, v in areas.items() if v["kind"] == "exile") == [
        "Calais", "France", "Ireland", "Scotland"]
    borders = LAYOUT["borders"]
    assert len(borders) == 62
    assert {t: sum(b["type"] == t for b in borders) for t in ("yellow", "blue", "red")} == {
        "yellow": 24, "blue": 26, "red": 12}
    assert sorted(LAYOUT["seas"]) == ["English Channel", "Irish Sea", "North Sea"]
    assert sum(len(s["coasts"]) for s in LAYOUT["seas"].values()) == 28


def test_polygons_touch_exactly_along_the_listed_borders() -> None:
    """Two areas share a drawn edge if and only if they have a border (estuaries are not)."""
    listed = {frozenset((b["a"], b["b"])) for b in LAYOUT["borders"]}
    for a, b in combinations(mapgen.AREAS, 2):
        pa = mapgen.AREAS[a]
        sb = {p for p in mapgen.AREAS[b] if isinstance(p, str)}
        shared_edge = any(
            isinstance(pa[i], str) and isinstance(pa[i - 1], str) and pa[i] in sb and pa[i - 1] in sb
            for i in range(len(pa)))
        assert shared_edge == (frozenset((a, b)) in listed), (a, b)
    for pair in (("Glamorgan", "Somerset"), ("East Yorks", "Lincoln"), ("Kent", "Essex")):
        assert frozenset(pair) not in listed  # estuaries (rules: "Estuaries")


def test_rough_geography() -> None:
    """Areas sit in their true places: north at the top, Wales west, Kent south-east."""
    lab = {n: a["label"] for n, a in LAYOUT["areas"].items()}
    assert lab["Northumbria"][1] < lab["Derby"][1] < lab["Sussex"][1]
    assert lab["Cornwall"][0] < lab["Dorset"][0] < lab["Sussex"][0] < lab["Kent"][0]
    for w in ("Pembroke", "Caernarvon", "Powys", "Glamorgan"):
        assert lab[w][0] < lab["Warwick"][0]
    assert lab["Ireland"][0] < lab["Isle of Man"][0] < lab["Cumbria"][0]
    assert lab["Scotland"][1] < lab["Northumbria"][1]
    assert lab["France"][1] > lab["Cornwall"][1] and lab["Calais"][0] > lab["Kent"][0]


def test_map_facts_match_rules_data() -> None:
    """Areas, borders and limits, seas, ports, crowns, cities, cathedrals, shields and Wales
    agree with the rules data (roses.games.richard3.data, rules 2.1-2.83)."""
    data = pytest.importorskip("roses.games.richard3.data")
    assert set(data.AREA_NAMES) == set(LAYOUT["areas"])
    # views and actions name areas and borders by id: the layout must use the same ids
    assert LAYOUT["area_order"] == list(data.AREA_NAMES)
    ours = [(b["id"], frozenset((b["a"], b["b"])), b["limit"]) for b in LAYOUT["borders"]]
    theirs = [(i, frozenset((data.AREA_NAMES[a], data.AREA_NAMES[b])), lim)
              for i, (a, b, lim) in enumerate(data.BORDERS)]
    assert ours == theirs
    f = LAYOUT["features"]
    for i, name in enumerate(data.AREA_NAMES):
        seas = {data.SEA_ZONES[z] for z in data.AREA_SEAS[i]}
        assert seas == {s for s, v in LAYOUT["seas"].items() if name in v["coasts"]}, name
        assert (data.PORT[i] == 2) == (name in f["major_ports"]), name
        assert data.CROWN[i] == (name in f["crowns"]), name
        city = data.CITY[i]
        assert city == next((c for c, v in f["cities"].items() if v["area"] == name), None), name
        assert data.CATHEDRAL[i] == next((c for c, a in f["cathedrals"].items() if a == name), None)
        assert sorted(data.AREA_SHIELDS[i]) == sorted(f["shields"].get(name, [])), name
        assert data.WALES[i] == (name in f["wales"]), name
        kind = LAYOUT["areas"][name]["kind"]
        assert {data.LAND: "land", data.EXILE: "exile", data.ISLAND: "island"}[data.AREA_KIND[i]] == kind


@pytest.mark.browser
@pytest.mark.parametrize("size,name", [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_map_renders_every_area(browser: Any, static_server: str, size: dict[str, int], name: str) -> None:
    errors: list[str] = []
    page = open_map_page(browser, static_server, size, errors)
    page.wait_for_selector("body[data-ready='1']")
    drawn = page.eval_on_selector_all("svg#map g.area", "els => els.map(e => e.dataset.area)")
    assert sorted(drawn) == sorted(LAYOUT["areas"])
    assert page.locator("svg#map .border").count() == 62
    assert page.locator("svg#map .limit").count() == 62
    for a in LAYOUT["areas"]:
        box = page.locator(f'svg#map g.area[data-area="{a}"]').bounding_box()
        assert box and box["width"] > 3 and box["height"] > 3, a
    page.screenshot(path=str(screenshot_path(f"map-{name}.png")))
    assert not errors
    page.close()


@pytest.mark.browser
def test_map_zoom_and_keyboard(browser: Any, static_server: str) -> None:
    page = open_map_page(browser, static_server, PHONE)
    page.wait_for_selector("body[data-ready='1']")
    before = page.evaluate("panZoom.viewBox")
    page.evaluate("panZoom.zoomIn()")
    after = page.evaluate("panZoom.viewBox")
    assert after[2] < before[2]
    page.mouse.wheel(0, 300)
    page.close()
