"""Build the Plantagenet board data for the browser (our own drawing; no publisher art).

Run ``python -m roses.web.plantagenet_board`` to rewrite
``roses/web/static/plantagenet/board.json``; ``tests/web/test_plantagenet_board.py`` checks
that it is up to date and agrees with the game's data.

The game's data (``roses/games/plantagenet/data``) has no map coordinates, so every Locale is
placed here at the longitude and latitude of the real town (Exile boxes, Seas: a free place
near the country or sea they stand for) and projected like the Richard III map
(:mod:`roses.web.mapgen`), whose coastline polygons draw the land under it. The board adds,
in the open North Sea east of England, the Calendar (15 boxes, 2.2) and, above the map, the
Influence track (1.4.1). The game's own facts (Stronghold types, Areas, Ports, Ways, Lords,
Vassals, the Arts of War cards in our own words, the Calendar table) are copied from
:func:`roses.games.plantagenet.components.load`, so the client needs no other file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from roses.games.plantagenet.components import load
from roses.games.plantagenet.setup import scenario_data
from roses.web import mapgen

OUT = Path(__file__).parent / "static" / "plantagenet" / "board.json"

Pt = tuple[float, float]

# ---------------------------------------------------------------- projection
LON0, LON1 = -6.5, 5.6
LAT0, LAT1 = 56.1, 49.45
SX, SY = 160.0, 266.0  # map units per degree (about cos 53° between them)
TOP = 130.0  # the band above the map for the Influence track
W = round((LON1 - LON0) * SX)
H = round((LAT0 - LAT1) * SY + TOP)


def proj(p: Pt) -> tuple[float, float]:
    lon, lat = p
    return (round((lon - LON0) * SX, 1), round((LAT0 - lat) * SY + TOP, 1))


# ---------------------------------------------------------------- where things are (lon, lat)
#: Each Stronghold at its real town (Ravenspur: the lost port at Spurn Head).
TOWNS: dict[str, Pt] = {
    "Lynn": (0.40, 52.75), "Ravenspur": (0.11, 53.60), "Ipswich": (1.15, 52.06),
    "Newcastle": (-1.61, 54.97), "Scarborough": (-0.40, 54.28), "Calais": (1.86, 50.95),
    "Exeter": (-3.53, 50.72), "Dorchester": (-2.44, 50.71), "Plymouth": (-4.14, 50.37),
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
    "St Albans": "n", "London": "s", "Rochester": "e", "Canterbury": "e", "Hastings": "e",
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

#: The Calendar (2.2): 15 boxes in a column in the open sea east of England.
CALENDAR_TOP_LEFT: Pt = (2.25, 55.95)
CALENDAR_BOTTOM_RIGHT: Pt = (5.5, 51.3)


# ---------------------------------------------------------------- building
def _land() -> dict[str, list[list[float]]]:
    """The coastline polygons of the Richard III map (England, Wales, Scotland, Ireland, the
    Isle of Man, France, the Low Countries' coast), reprojected."""
    out: dict[str, list[list[float]]] = {}
    for name, poly in mapgen.AREAS.items():
        out[name] = [list(proj(p)) for p in mapgen.resolve(poly)]
    for name, pts in mapgen.DECOR.items():
        out[name] = [list(proj(p)) for p in pts]
    return out


def _calendar() -> dict[str, Any]:
    c = load()
    cal = c.tables["calendar"]
    x0, y0 = proj(CALENDAR_TOP_LEFT)
    x1, y1 = proj(CALENDAR_BOTTOM_RIGHT)
    n = int(cal["boxes"])
    rows = []
    height = (y1 - y0) / n
    seasons = cal["seasons"]
    for i in range(n):
        box = i + 1
        season = seasons[(box - 1) % len(seasons)]
        rows.append({"box": box, "season": season, "plan": cal["plan_size"][season],
                     "x": x0, "y": round(y0 + i * height, 1), "w": round(x1 - x0, 1), "h": round(height, 1),
                     "gain_lords": box in cal["gain_lords_influence"], "grow": box in cal["grow"],
                     "waste": box in cal["waste"]})
    return {"rows": rows, "x": x0, "y": y0, "w": round(x1 - x0, 1), "h": round(y1 - y0, 1)}


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


def build() -> dict[str, Any]:
    c = load()
    locales: dict[str, Any] = {}
    for name, d in c.locales.items():
        if d["kind"] == "stronghold":
            x, y = proj(TOWNS[name])
            locales[name] = {"kind": "stronghold", "type": d["type"], "area": d["area"], "port": d["port"],
                             "x": x, "y": y, "label": LABEL_SIDE.get(name, "s")}
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
        "comment": "Plantagenet board drawn for Roses (not publisher art): Locales at their real "
                   "towns. Generated by roses/web/plantagenet_board.py.",
        "viewBox": [0, 0, W, H],
        "land": _land(),
        "locales": locales,
        "ways": [list(w) for w in c.ways],
        "one_way": [list(w) for w in c.one_way],
        "areas": {a: {"label": list(proj(p)),
                      "hull": _hull([proj(TOWNS[n]) for n in c.area(a)], 34.0)} for a, p in AREA_LABEL_AT.items()},
        "scenarios": {sid: d["name"] for sid, d in scenario_data().items()},
        "calendar": _calendar(),
        "influence": {"x": 40.0, "y": 26.0, "w": float(W - 80), "h": 70.0, "cap": c.tables["influence_cap"]},
        "lords": lords,
        "vassals": vassals,
        "special_vassals": special,
        "cards": cards,
        "troop_types": list(c.tables["troop_pool"]),
        "forces": c.tables["forces"],
        "strongholds": {t: {k: row[k] for k in ("supply", "tax", "tides")} for t, row in c.tables["strongholds"].items()},
    }


def main() -> None:
    data = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(data['locales'])} locales, {len(data['ways'])} ways)")


if __name__ == "__main__":
    main()
