"""Build the Plantagenet board data for the browser (our own drawing; no publisher art).

Run ``python -m roses.games.plantagenet.board_drawing`` to rewrite
``roses/web/static/plantagenet/board.json`` (the file the browser client loads);
``tests/web/test_plantagenet_board.py`` checks that it is up to date and agrees with the game's
data.

The game's data (``roses/games/plantagenet/data``) has no map coordinates, so every Locale is
placed here at the longitude and latitude of the real town (Exile boxes, Seas: a free place
near the country or sea they stand for). The land under them is the real coastline of Britain,
Ireland and the coast of France and Flanders, traced from a global land mask (the
``global-land-mask`` package of the ``board`` extra, as the Kingmaker open board) by marching
squares at 1/50 degree and simplified; the borders of Wales and Scotland follow the real ones
in outline; the three Seas (1.3.1) are tinted zones of the water split where the rules split
them (the Strait of Dover, Land's End). Run with the ``board`` extra installed: the traced
coastline is written into the board file, and a rebuild without the extra keeps it. The board
file also holds the Calendar's 15 boxes (2.2) and the Influence track's cap (1.4.1), which the
page draws in a strip along the top of the board. The game's own facts (Stronghold types, Areas, Ports, Ways, Lords,
Vassals, the Arts of War cards in our own words, the Calendar table) are copied from
:func:`roses.games.plantagenet.components.load`, so the client needs no other file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from roses.games.plantagenet.components import load
from roses.games.plantagenet.setup import scenario_data

OUT = Path(__file__).resolve().parents[2] / "web" / "static" / "plantagenet" / "board.json"

Pt = tuple[float, float]

# ---------------------------------------------------------------- projection
LON0, LON1 = -6.5, 5.6
LAT0, LAT1 = 56.1, 49.45
SX, SY = 160.0, 266.0  # map units per degree (about cos 53° between them)
TOP = 0.0  # no band above the map (the Influence track and Calendar are drawn by the page above the board)
W = round((LON1 - LON0) * SX)
H = round((LAT0 - LAT1) * SY + TOP)


def proj(p: Pt) -> tuple[float, float]:
    lon, lat = p
    return (round((lon - LON0) * SX, 1), round((LAT0 - lat) * SY + TOP, 1))


# ---------------------------------------------------------------- where things are (lon, lat)
#: Each Stronghold at its real town (Ravenspur: the lost port by Spurn Head, on the Holderness shore).
TOWNS: dict[str, Pt] = {
    "Lynn": (0.40, 52.75), "Ravenspur": (0.04, 53.67), "Ipswich": (1.15, 52.06),
    "Newcastle": (-1.61, 54.97), "Scarborough": (-0.42, 54.27), "Calais": (1.86, 50.95),
    "Exeter": (-3.53, 50.72), "Dorchester": (-2.44, 50.71), "Plymouth": (-4.14, 50.39),
    "Truro": (-5.05, 50.26), "Arundel": (-0.55, 50.85), "Dover": (1.31, 51.13),
    "Hastings": (0.57, 50.86), "Southampton": (-1.40, 50.90), "Bristol": (-2.59, 51.45),
    "Pembroke": (-4.91, 51.67), "Harlech": (-4.11, 52.86), "Chester": (-2.89, 53.19),
    "Coventry": (-1.51, 52.41), "Ely": (0.26, 52.40), "Gloucester": (-2.24, 51.86),
    "Launceston": (-4.36, 50.64), "Lichfield": (-1.83, 52.68), "Lincoln": (-0.54, 53.23),
    "Norwich": (1.30, 52.63), "Oxford": (-1.26, 51.75), "Peterborough": (-0.24, 52.57),
    "Wells": (-2.65, 51.21), "Worcester": (-2.22, 52.19), "York": (-1.08, 53.96),
    "London": (-0.10, 51.51), "Bedford": (-0.47, 52.14), "Bury St Edmunds": (0.71, 52.25),
    "Cambridge": (0.12, 52.21), "Derby": (-1.48, 52.92), "Lancaster": (-2.80, 54.05),
    "Leicester": (-1.13, 52.64), "Newbury": (-1.32, 51.40), "Northampton": (-0.90, 52.24),
    "Nottingham": (-1.15, 52.95), "St Albans": (-0.34, 51.75), "Carlisle": (-2.93, 54.89),
    "Bamburgh": (-1.71, 55.61), "Appleby": (-2.49, 54.58), "Hexham": (-2.10, 54.97),
    "Canterbury": (1.08, 51.28), "Guildford": (-0.57, 51.24), "Rochester": (0.50, 51.39),
    "Salisbury": (-1.79, 51.07), "Winchester": (-1.31, 51.06), "Cardiff": (-3.18, 51.48),
    "Hereford": (-2.72, 52.06), "Shrewsbury": (-2.75, 52.71), "Ludlow": (-2.72, 52.37),
}

#: Where each name goes from its marker: below (default), above, left or right.
LABEL_SIDE: dict[str, str] = {
    "Lynn": "n", "Ravenspur": "e", "Ipswich": "e", "Newcastle": "e", "Scarborough": "e",
    "Calais": "e", "Dover": "e", "Truro": "w", "Plymouth": "s", "Launceston": "n",
    "Pembroke": "w", "Harlech": "w", "Chester": "w", "Bristol": "w", "Cardiff": "w",
    "Hereford": "w", "Ludlow": "w", "Shrewsbury": "w", "Worcester": "e", "Gloucester": "e",
    "Wells": "w", "Ely": "e", "Cambridge": "s", "Bury St Edmunds": "e", "Norwich": "e",
    "St Albans": "w", "London": "s", "Rochester": "e", "Canterbury": "e", "Hastings": "e",
    "Arundel": "s", "Southampton": "s", "Winchester": "n", "Salisbury": "w", "Newbury": "n",
    "Oxford": "w", "Bedford": "w", "Northampton": "w", "Leicester": "e", "Coventry": "w",
    "Lichfield": "w", "Derby": "w", "Nottingham": "e", "Lincoln": "e", "York": "e",
    "Lancaster": "w", "Appleby": "w", "Carlisle": "w", "Hexham": "w", "Bamburgh": "e",
    "Peterborough": "n", "Exeter": "e", "Dorchester": "s", "Guildford": "s",
}

#: Exile boxes: a free place near the country (1.3.1); size in map units.
EXILE_AT: dict[str, Pt] = {
    "Scotland": (-3.35, 55.62), "Ireland": (-5.95, 53.35), "France": (0.05, 49.78),
    "Burgundy": (3.45, 50.72),
}
EXILE_SIZE = (176.0, 92.0)

#: Seas: where the name (and Lords at Sea, 4.6.1) go.
SEA_AT: dict[str, Pt] = {
    "North Sea": (0.95, 54.85), "English Channel": (-2.6, 50.12), "Irish Sea": (-5.15, 53.95),
}

#: Area names (1.3.1), written faintly near their Strongholds.
AREA_LABEL_AT: dict[str, Pt] = {"North": (-2.3, 55.35), "Wales": (-3.85, 52.35), "South": (-0.05, 50.62)}



# ---------------------------------------------------------------- building
#: The frame of the traced coastline (lon, lat), a little larger than the board, and its step.
COAST_FRAME = (-7.6, 6.8, 48.5, 57.0)
COAST_STEP = 0.02
#: Rings smaller than this (square map units) are dropped (specks of rock, tiny lakes).
COAST_MIN_AREA = 60.0
#: Douglas-Peucker tolerance of the simplified coastline (map units).
COAST_TOLERANCE = 1.2

#: The real borders in outline (lon, lat), drawn dashed: England-Wales (Dee estuary to the
#: Severn) and England-Scotland (Solway Firth to the Tweed).
BORDERS: dict[str, list[Pt]] = {
    "Wales": [(-3.08, 53.25), (-2.93, 53.12), (-2.73, 52.98), (-3.12, 52.75), (-3.05, 52.55),
              (-3.15, 52.35), (-2.98, 52.13), (-3.05, 51.98), (-2.83, 51.90), (-2.66, 51.62)],
    "Scotland": [(-3.08, 54.97), (-2.95, 55.05), (-2.68, 55.17), (-2.46, 55.34), (-2.21, 55.45),
                 (-2.30, 55.63), (-2.03, 55.79)],
}

#: Country names (faint capitals) on the land around the board.
COUNTRY_AT: dict[str, Pt] = {"SCOTLAND": (-4.1, 55.85), "IRELAND": (-5.55, 54.85),
                             "ENGLAND": (-1.55, 52.95), "FRANCE": (2.45, 50.2), "FLANDERS": (3.7, 51.05)}

#: The three Seas as zones of the water (lon, lat): the land is drawn over them, so only their
#: water shows. The North Sea meets the Channel at the Strait of Dover; the Channel meets the
#: Irish Sea (with the Bristol Channel) at Land's End.
SEA_ZONES: dict[str, list[Pt]] = {
    "North Sea": [(-3.6, 58.0), (7.5, 58.0), (7.5, 51.2), (1.92, 50.98), (1.38, 51.16), (0.2, 51.45),
                  (-1.3, 51.7), (-2.2, 51.75), (-2.9, 53.0), (-2.6, 54.5), (-3.0, 55.4)],
    "English Channel": [(-8.0, 47.5), (7.5, 47.5), (7.5, 51.2), (1.92, 50.98), (1.38, 51.16), (0.2, 51.45),
                        (-1.3, 51.7), (-2.2, 51.75), (-3.4, 51.0), (-4.4, 50.55), (-5.3, 50.15),
                        (-5.72, 50.05), (-8.0, 50.05)],
    "Irish Sea": [(-8.0, 50.05), (-5.72, 50.05), (-5.3, 50.15), (-4.4, 50.55), (-3.4, 51.0), (-2.2, 51.75),
                  (-2.9, 53.0), (-2.6, 54.5), (-3.0, 55.4), (-3.6, 58.0), (-8.0, 58.0)],
}


def _rings_of(mask: list[list[bool]], lon0: float, lat0: float, step: float) -> list[list[Pt]]:
    """The outlines of the land cells of ``mask`` (rows from ``lat0`` north, columns from
    ``lon0`` east) by marching squares, as closed rings of (lon, lat), the frame padded with
    water so that every ring closes."""
    rows, cols = len(mask), len(mask[0])

    def land(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and mask[r][c]

    # each cell corner is a sample; an edge midpoint is (r, c, "h"|"v")
    def mid(r: int, c: int, d: str) -> Pt:
        if d == "h":  # between (r, c) and (r, c + 1)
            return (lon0 + (c + 0.5) * step, lat0 + r * step)
        return (lon0 + c * step, lat0 + (r + 0.5) * step)

    nxt: dict[tuple[int, int, str], tuple[int, int, str]] = {}
    for r in range(-1, rows):
        for c in range(-1, cols):
            a, b, cc, d = land(r, c), land(r, c + 1), land(r + 1, c + 1), land(r + 1, c)
            code = (a << 0) | (b << 1) | (cc << 2) | (d << 3)
            if code in (0, 15):
                continue
            bottom, right, top, left = (r, c, "h"), (r, c + 1, "v"), (r + 1, c, "h"), (r, c, "v")
            # segments oriented with land on the left (a consistent walk)
            segs = {
                1: [(left, bottom)], 2: [(bottom, right)], 3: [(left, right)], 4: [(right, top)],
                5: [(left, top), (right, bottom)], 6: [(bottom, top)], 7: [(left, top)],
                8: [(top, left)], 9: [(top, bottom)], 10: [(top, right), (bottom, left)],
                11: [(top, right)], 12: [(right, left)], 13: [(right, bottom)], 14: [(bottom, left)],
            }[code]
            for s0, s1 in segs:
                nxt[s0] = s1
    rings: list[list[Pt]] = []
    seen: set[tuple[int, int, str]] = set()
    for start in sorted(nxt):
        if start in seen:
            continue
        ring: list[Pt] = []
        cur = start
        while cur not in seen:
            seen.add(cur)
            ring.append(mid(*cur))
            cur = nxt[cur]
        rings.append(ring)
    return rings


def _simplify(pts: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """Douglas-Peucker on an open polyline (its two ends kept)."""
    if len(pts) < 3:
        return pts
    keep = [False] * len(pts)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    while stack:
        i, j = stack.pop()
        (x1, y1), (x2, y2) = pts[i], pts[j]
        dx, dy = x2 - x1, y2 - y1
        norm = (dx * dx + dy * dy) ** 0.5
        best, at = 0.0, -1
        for k in range(i + 1, j):
            x, y = pts[k]
            d = abs(dy * (x - x1) - dx * (y - y1)) / norm if norm else ((x - x1) ** 2 + (y - y1) ** 2) ** 0.5
            if d > best:
                best, at = d, k
        if at >= 0 and best > tol:
            keep[at] = True
            stack += [(i, at), (at, j)]
    return [p for p, k in zip(pts, keep, strict=True) if k]


def _area(ring: list[list[float]]) -> float:
    return sum(ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1] for i in range(len(ring))) / 2


def trace_coast() -> list[list[list[float]]]:
    """The coastline rings in map units (needs the ``board`` extra: global-land-mask, numpy).
    Land rings and lake rings alike; the client fills them even-odd."""
    import numpy as np
    from global_land_mask import globe

    lon_a, lon_b, lat_a, lat_b = COAST_FRAME
    ncol = round((lon_b - lon_a) / COAST_STEP) + 1
    nrow = round((lat_b - lat_a) / COAST_STEP) + 1
    lats = np.array([lat_a + r * COAST_STEP for r in range(nrow)])
    lons = np.array([lon_a + c * COAST_STEP for c in range(ncol)])
    grid = globe.is_land(*np.meshgrid(lats, lons, indexing="ij"))
    mask = [[bool(v) for v in row] for row in grid]
    out = []
    for ring in _rings_of(mask, lon_a, lat_a, COAST_STEP):
        xy = [proj(p) for p in ring]
        closed = _simplify([*xy, xy[0]], COAST_TOLERANCE)[:-1]
        if len(closed) < 3:
            continue
        pts = [[round(x, 1), round(y, 1)] for x, y in closed]
        if abs(_area(pts)) >= COAST_MIN_AREA:
            out.append(pts)
    out.sort(key=lambda r: -abs(_area(r)))
    return out


def _committed_coast() -> list[list[list[float]]] | None:
    """The coastline already in the board file (kept by a rebuild without the ``board`` extra)."""
    if not OUT.exists():
        return None
    coast = json.loads(OUT.read_text(encoding="utf-8")).get("coast")
    return coast if isinstance(coast, list) else None


def _calendar() -> dict[str, Any]:
    """The Calendar's 15 boxes (2.2): season, Plan size and what happens after each."""
    c = load()
    cal = c.tables["calendar"]
    rows = []
    seasons = cal["seasons"]
    for box in range(1, int(cal["boxes"]) + 1):
        season = seasons[(box - 1) % len(seasons)]
        rows.append({"box": box, "season": season, "plan": cal["plan_size"][season],
                     "gain_lords": box in cal["gain_lords_influence"], "grow": box in cal["grow"],
                     "waste": box in cal["waste"]})
    return {"rows": rows}


def _hull(points: list[tuple[float, float]], pad: float) -> list[list[float]]:
    """The convex hull of ``points``, each corner pushed ``pad`` map units away from the
    centre (an Area's outline around its Strongholds)."""
    pts = sorted(set(points))

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    hull = lower[:-1] + upper[:-1]
    cx = sum(p[0] for p in hull) / len(hull)
    cy = sum(p[1] for p in hull) / len(hull)
    out = []
    for x, y in hull:
        d = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 or 1.0
        out.append([round(x + (x - cx) / d * pad, 1), round(y + (y - cy) / d * pad, 1)])
    return out


def _stack_sides(points: dict[str, tuple[float, float]], labels: dict[str, str]) -> dict[str, str]:
    """Where each Stronghold's Lords stand: above its marker ("n") or below it ("s"), on the
    side with more room before the next Stronghold (a name above forces them below)."""
    out = {}
    for name, (x, y) in points.items():
        if labels.get(name, "s") == "n":
            out[name] = "s"
            continue

        def room(dy: float, x: float = x, y: float = y, name: str = name) -> float:
            cx, cy = x, y + dy
            return min(((px - cx) ** 2 / 4 + (py - cy) ** 2) ** 0.5 for n, (px, py) in points.items() if n != name)

        out[name] = "s" if room(64.0) > room(-48.0) + 12 else "n"
    return out


def build(coast: list[list[list[float]]] | None = None) -> dict[str, Any]:
    """The board; ``coast`` the traced coastline (default: the one in the board file)."""
    c = load()
    if coast is None:
        coast = _committed_coast() or []
    locales: dict[str, Any] = {}
    stack = _stack_sides({n: proj(TOWNS[n]) for n, d in c.locales.items() if d["kind"] == "stronghold"}, LABEL_SIDE)
    for name, d in c.locales.items():
        if d["kind"] == "stronghold":
            x, y = proj(TOWNS[name])
            locales[name] = {"kind": "stronghold", "type": d["type"], "area": d["area"], "port": d["port"],
                             "x": x, "y": y, "label": LABEL_SIDE.get(name, "s"), "stack": stack[name]}
        elif d["kind"] == "exile":
            x, y = proj(EXILE_AT[name])
            locales[name] = {"kind": "exile", "sea": d["sea"], "x": x, "y": y,
                             "w": EXILE_SIZE[0], "h": EXILE_SIZE[1]}
        else:
            x, y = proj(SEA_AT[name])
            locales[name] = {"kind": "sea", "x": x, "y": y, "adjacent": list(c.seas[name]["adjacent"])}
    lords = {lid: {k: d[k] for k in ("name", "side", "badge", "seat", "ring", "heir", "influence",
                                       "lordship", "command", "valour")}
             for lid, d in c.lords.items()}
    vassals = {vid: {"name": d["name"], "seat": d["seat"], "service": d["service"], "loyalty": d["loyalty"]}
               for vid, d in c.vassals.items()}
    special = {vid: {"name": d["name"], "card": d["card"]} for vid, d in c.special_vassals.items()}
    cards = {cid: {"side": d["side"], "roses": d["roses"],
                   "event": {k: d["event"][k] for k in ("title", "timing", "effect")},
                   "capability": {"title": d["capability"]["title"], "lords": d["capability"]["lords"],
                                  "effect": d["capability"]["effect"]}}
             for cid, d in c.cards.items()}
    return {
        "game": "plantagenet",
        "comment": "Plantagenet board drawn for Roses (not publisher art): the real coastline, "
                   "Locales at their real towns. Generated by roses/games/plantagenet/board_drawing.py.",
        "viewBox": [0, 0, W, H],
        "coast": coast,
        "borders": {k: [list(proj(p)) for p in v] for k, v in BORDERS.items()},
        "countries": {k: list(proj(p)) for k, p in COUNTRY_AT.items()},
        "sea_zones": {k: [list(proj(p)) for p in v] for k, v in SEA_ZONES.items()},
        "locales": locales,
        "ways": [list(w) for w in c.ways],
        "one_way": [list(w) for w in c.one_way],
        "areas": {a: {"label": list(proj(p)),
                      "hull": _hull([proj(TOWNS[n]) for n in c.area(a)], 34.0)} for a, p in AREA_LABEL_AT.items()},
        "scenarios": {sid: d["name"] for sid, d in scenario_data().items()},
        "calendar": _calendar(),
        "influence": {"cap": c.tables["influence_cap"]},
        "lords": lords,
        "vassals": vassals,
        "special_vassals": special,
        "cards": cards,
        "troop_types": list(c.tables["troop_pool"]),
        "forces": c.tables["forces"],
        "strongholds": {t: {k: row[k] for k in ("supply", "tax", "tides")} for t, row in c.tables["strongholds"].items()},
    }


def main() -> None:
    try:
        coast = trace_coast()
    except ImportError:
        print("global-land-mask is not installed (pip install -e '.[board]'): keeping the traced coastline")
        coast = None
    data = build(coast)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(data['locales'])} locales, {len(data['ways'])} ways, {len(data['coast'])} coast rings)")


if __name__ == "__main__":
    main()
