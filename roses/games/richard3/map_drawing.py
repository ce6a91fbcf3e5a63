"""Build the schematic Richard III map layout (our own drawing, approximate geography).

Run ``python -m roses.games.richard3.map_drawing`` to rewrite
``roses/web/static/richard3/layout.json`` (the file the browser client loads).

The map is described here in longitude/latitude so that every area sits in its true
geographic place; the script projects it to SVG coordinates. Areas are polygons over
*named* junction points, so two areas that share a border share exactly the same points
and the border line is computed from the polygons (no separate drawing that could drift).

Map facts (borders and their types, seas, ports, crowns, cities, cathedrals, shields) follow
the Richard III rules v1.02, sections 2.1-2.82, and the printed map; ``tests/web/test_map.py``
checks them against ``roses.games.richard3`` data when that module is present.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

Pt = tuple[float, float]

OUT = Path(__file__).resolve().parents[2] / "web" / "static" / "richard3" / "layout.json"

# ---------------------------------------------------------------- projection
W, H = 1240, 1560
LON0, LAT0 = -7.7, 56.5
SX, SY = 120.0, 200.0  # px per degree (about cos(53 deg) aspect)


def proj(p: Pt) -> tuple[float, float]:
    lon, lat = p
    return (round((lon - LON0) * SX + 10, 1), round((LAT0 - lat) * SY + 20, 1))


# ---------------------------------------------------------------- junction points
N: dict[str, Pt] = {
    "solway": (-3.05, 54.98), "scn": (-2.55, 55.2), "berwick": (-2.03, 55.78),
    "cnny": (-2.25, 54.55), "clny": (-2.55, 54.25), "cl_coast": (-3.15, 54.22),
    "nney": (-1.2, 54.45), "ne_coast": (-0.95, 54.58), "nyls": (-2.15, 53.95),
    "nyes": (-0.85, 54.05), "humber_n": (-0.85, 53.76), "humber_s": (-0.85, 53.62),
    "slsd": (-1.95, 53.5), "syld": (-1.15, 53.3), "ldc": (-2.1, 53.3), "mersey": (-3.0, 53.4),
    "ccdw": (-1.9, 52.85), "dwl": (-1.45, 52.72), "dll": (-0.95, 52.95), "llr": (-0.55, 52.7),
    "wash_lr": (0.0, 52.88), "wash_re": (0.4, 52.78), "rea_es": (0.45, 52.2),
    "lre": (-0.25, 52.15), "lem": (-0.15, 51.75), "lmo": (-0.6, 51.7), "low": (-1.25, 52.1),
    "cwh": (-2.4, 52.45), "chp": (-3.0, 52.5), "cpc": (-3.35, 52.9), "dee": (-3.3, 53.33),
    "cpp": (-3.75, 52.45), "dovey": (-4.05, 52.55), "ppg": (-3.75, 51.95),
    "loughor": (-4.1, 51.67), "pgh": (-3.1, 51.98), "hwg": (-2.2, 52.15), "wgo": (-1.65, 51.95),
    "sev_gh": (-2.75, 51.66), "sev_hg": (-2.55, 51.76), "sev_gs": (-2.6, 51.45),
    "gow": (-1.7, 51.6), "gsw": (-2.3, 51.45), "owsx": (-1.4, 51.3), "omsx": (-0.7, 51.35),
    "msk": (-0.1, 51.25), "thames_mk": (0.0, 51.44), "thames_me": (0.05, 51.57),
    "sk_coast": (0.75, 50.93), "wsd": (-1.75, 50.95), "sd_coast": (-1.6, 50.73),
    "swd": (-2.3, 51.05), "scd": (-3.0, 50.85), "cs_coast": (-3.6, 51.2),
    "cd_coast": (-2.95, 50.7), "eae_coast": (1.25, 51.95),
}

# Each polygon: junction names (str) and plain coastline points (tuples), in order.
Poly = list[str | Pt]
AREAS: dict[str, Poly] = {
    "Scotland": ["solway", "scn", "berwick", (-2.4, 55.95), (-2.9, 56.02), (-2.6, 56.2),
                 (-2.45, 56.5), (-2.45, 62.0), (-5.3, 62.0), (-5.3, 56.5), (-5.0, 56.0), (-4.85, 55.5), (-5.1, 54.9),
                 (-4.85, 54.62), (-4.4, 54.72), (-3.6, 54.88)],
    "Cumbria": ["solway", "scn", "cnny", "clny", "cl_coast", (-3.4, 54.3), (-3.6, 54.55),
                (-3.45, 54.85)],
    "Northumbria": ["scn", "berwick", (-1.75, 55.65), (-1.55, 55.4), (-1.45, 55.05),
                    (-1.35, 54.9), (-1.2, 54.65), "ne_coast", "nney", "cnny"],
    "North Yorks": ["cnny", "nney", "nyes", "nyls", "clny"],
    "East Yorks": ["nney", "ne_coast", (-0.6, 54.48), (-0.4, 54.28), (-0.1, 54.12),
                   (-0.22, 54.05), (0.15, 53.62), (0.02, 53.7), (-0.3, 53.78), "humber_n",
                   "nyes"],
    "South Yorks": ["nyls", "nyes", "humber_n", "humber_s", "syld", "slsd"],
    "Lancaster": ["cl_coast", "clny", "nyls", "slsd", "ldc", "mersey", (-3.05, 53.6),
                  (-3.0, 53.9), (-2.85, 54.15)],
    "Derby": ["slsd", "syld", "dll", "dwl", "ccdw", "ldc"],
    "Lincoln": ["humber_s", (-0.3, 53.62), (0.1, 53.5), (0.25, 53.35), (0.35, 53.1),
                "wash_lr", "llr", "dll", "syld"],
    "Chester": ["mersey", "ldc", "ccdw", "cwh", "chp", "cpc", "dee", (-3.15, 53.42)],
    "Caernarvon": ["dee", "cpc", "cpp", "dovey", (-4.1, 52.7), (-4.2, 52.85), (-4.75, 52.78),
                   (-4.35, 53.1), (-4.2, 53.22), (-3.8, 53.32)],
    "Powys": ["cpc", "chp", "pgh", "ppg", "cpp"],
    "Pembroke": ["dovey", "cpp", "ppg", "loughor", (-4.5, 51.72), (-4.9, 51.62), (-5.1, 51.7),
                 (-5.3, 51.9), (-4.6, 52.1), (-4.2, 52.3)],
    "Glamorgan": ["loughor", "ppg", "pgh", "sev_gh", (-3.0, 51.58), (-3.2, 51.47),
                  (-3.6, 51.45), (-4.0, 51.56)],
    "Hereford": ["chp", "cwh", "hwg", "sev_hg", "sev_gh", "pgh"],
    "Warwick": ["ccdw", "dwl", "low", "wgo", "hwg", "cwh"],
    "Leicester": ["dwl", "dll", "llr", "lre", "lem", "lmo", "low"],
    "Rutland": ["llr", "wash_lr", (0.15, 52.72), "wash_re", "rea_es", "lre"],
    "East Anglia": ["wash_re", (0.8, 52.97), (1.3, 52.95), (1.65, 52.75), (1.75, 52.5),
                    (1.6, 52.1), "eae_coast", "rea_es"],
    "Essex": ["lre", "rea_es", "eae_coast", (1.25, 51.82), (0.95, 51.62), (0.6, 51.58),
              "thames_me", "lem"],
    "Middlesex": ["lmo", "lem", "thames_me", (-0.03, 51.5), "thames_mk", "msk", "omsx"],
    "Kent": ["thames_mk", (0.5, 51.42), (1.0, 51.43), (1.45, 51.36), (1.3, 51.1), (1.0, 50.95),
             "sk_coast", "msk"],
    "Oxford": ["low", "lmo", "omsx", "owsx", "gow", "wgo"],
    "Gloucester": ["hwg", "wgo", "gow", "gsw", "sev_gs", (-2.3, 51.78), "sev_hg"],
    "Wilts": ["gow", "owsx", "wsd", "swd", "gsw"],
    "Somerset": ["sev_gs", "gsw", "swd", "scd", "cs_coast", (-3.3, 51.18), (-2.95, 51.3)],
    "Dorset": ["swd", "wsd", "sd_coast", (-2.0, 50.6), (-2.45, 50.57), "cd_coast", "scd"],
    "Cornwall": ["cs_coast", "scd", "cd_coast", (-3.45, 50.6), (-3.5, 50.22), (-4.15, 50.35),
                 (-4.7, 50.3), (-5.2, 49.96), (-5.7, 50.07), (-5.1, 50.4), (-4.75, 50.6),
                 (-4.5, 51.0), (-4.2, 51.2)],
    "Sussex": ["owsx", "omsx", "msk", "sk_coast", (0.3, 50.75), (-0.2, 50.8), (-0.9, 50.77),
               (-1.3, 50.8), "sd_coast", "wsd"],
    "Isle of Man": [(-4.35, 54.42), (-4.28, 54.22), (-4.6, 54.03), (-4.8, 54.1),
                    (-4.62, 54.36)],
    "Ireland": [(-5.45, 55.3), (-5.5, 54.7), (-5.55, 54.3), (-6.1, 54.0), (-6.1, 53.5),
                (-6.0, 53.3), (-6.05, 52.95), (-6.3, 52.3), (-6.6, 52.1), (-7.2, 52.0),
                (-20.0, 52.0), (-20.0, 55.35), (-6.2, 55.35)],
    "France": [(-5.0, 49.05), (-3.0, 49.1), (-2.0, 49.18), (-1.9, 49.7), (-1.3, 49.65),
               (-1.0, 49.4), (0.2, 49.45), (0.6, 49.85), (1.4, 50.1), (1.55, 50.45),
               (12.0, 50.5), (12.0, 44.0), (-5.0, 44.0)],
    "Calais": [(1.72, 50.85), (1.85, 50.97), (2.2, 51.06), (12.0, 51.1), (12.0, 50.62),
               (1.8, 50.64)],
}

# Area ids of the rules module (roses.games.richard3.data: the order of data.json); views and
# action arguments name areas by these ids. Borders are listed below in the rules' id order too.
AREA_ORDER = ["Scotland", "Northumbria", "Cumbria", "North Yorks", "East Yorks", "Isle of Man",
              "Lancaster", "South Yorks", "Chester", "Derby", "Lincoln", "Caernarvon", "Powys",
              "Warwick", "Leicester", "Rutland", "East Anglia", "Pembroke", "Glamorgan",
              "Hereford", "Gloucester", "Oxford", "Middlesex", "Essex", "Somerset", "Wilts",
              "Sussex", "Kent", "Cornwall", "Dorset", "Ireland", "Calais", "France"]

# Playable areas not in England/Wales: exile areas (2.7) and the Isle of Man (2.82).
EXILE = {"France": "Lancaster", "Scotland": "Lancaster", "Calais": "York", "Ireland": "York"}
WALES = {"Pembroke", "Caernarvon", "Powys", "Glamorgan"}  # 2.6

# Unplayable islands (2.82), drawn greyed.
DECOR: dict[str, list[Pt]] = {
    "Anglesey": [(-4.25, 53.28), (-4.35, 53.42), (-4.6, 53.4), (-4.68, 53.25), (-4.45, 53.19)],
    "Isle of Wight": [(-1.55, 50.64), (-1.1, 50.69), (-1.15, 50.56), (-1.45, 50.57)],
}

# ---------------------------------------------------------------- map facts (rules 2.x)
YELLOW = """North Yorks-East Yorks, North Yorks-South Yorks, South Yorks-Derby, Chester-Powys,
Chester-Derby, Chester-Warwick, Lincoln-Leicester, Pembroke-Glamorgan, Warwick-Leicester,
Leicester-Rutland, Leicester-Middlesex, Leicester-Oxford, East Anglia-Essex,
Gloucester-Oxford, Gloucester-Somerset, Oxford-Middlesex, Middlesex-Essex,
Cornwall-Somerset, Cornwall-Dorset, Somerset-Wilts, Somerset-Dorset, Wilts-Dorset,
Wilts-Sussex, Sussex-Kent"""
BLUE = """Northumbria-North Yorks, Northumbria-East Yorks, East Yorks-South Yorks, Lancaster-Chester,
South Yorks-Lincoln, Caernarvon-Chester, Chester-Hereford, Derby-Warwick, Derby-Leicester,
Derby-Lincoln, Lincoln-Rutland, Powys-Glamorgan, Hereford-Warwick, Hereford-Gloucester,
Hereford-Glamorgan, Warwick-Oxford, Warwick-Gloucester, Leicester-Essex,
Rutland-East Anglia, Rutland-Essex, Gloucester-Wilts, Oxford-Wilts, Oxford-Sussex,
Middlesex-Sussex, Middlesex-Kent, Sussex-Dorset"""
RED = """Scotland-Cumbria, Scotland-Northumbria, Cumbria-Northumbria, Cumbria-North Yorks,
Cumbria-Lancaster, North Yorks-Lancaster, Lancaster-South Yorks, Lancaster-Derby,
Caernarvon-Powys, Caernarvon-Pembroke, Pembroke-Powys, Powys-Hereford"""
LIMITS = {"yellow": 4, "blue": 3, "red": 2}  # 5.2 border limits

SEAS: dict[str, list[str]] = {  # 2.81
    "Irish Sea": ["Ireland", "Isle of Man", "Scotland", "Cumbria", "Lancaster", "Chester",
                  "Caernarvon", "Pembroke", "Glamorgan", "Somerset", "Cornwall", "France"],
    "North Sea": ["Scotland", "Northumbria", "East Yorks", "Lincoln", "Rutland", "East Anglia",
                  "Essex", "Middlesex", "Kent", "Calais"],
    "English Channel": ["Cornwall", "Dorset", "Sussex", "Kent", "Calais", "France"],
}
MAJOR_PORTS = ["Chester", "Glamorgan", "Somerset", "Cornwall", "Northumbria", "East Yorks",
               "East Anglia", "Middlesex", "Kent", "Sussex", "Ireland", "Scotland", "France",
               "Calais"]  # 2.83
CROWNS = ["Cumbria", "South Yorks", "Caernarvon", "Chester", "Derby", "Pembroke", "Warwick",
          "Gloucester", "Middlesex", "Sussex", "Cornwall"]  # 2.3
CITIES = {"Bristol": "Somerset", "Coventry": "Warwick", "London": "Middlesex",
          "Newcastle": "Northumbria", "Norwich": "East Anglia", "Salisbury": "Wilts",
          "York": "South Yorks"}  # 2.4
CITY_SIDE = {"Bristol": "Lancaster", "Coventry": "Lancaster", "Newcastle": "Lancaster",
             "York": "Lancaster", "London": "York", "Norwich": "York", "Salisbury": "York"}
CATHEDRALS = {"Canterbury": "Kent", "York": "South Yorks"}  # 2.5
SHIELDS: dict[str, list[str]] = {  # 2.2 (house shields named "York" / "Lancaster")
    "Isle of Man": ["Stanley"], "Northumbria": ["Northumberland", "Westmoreland"],
    "Cumbria": ["Northumberland", "Clifford"], "North Yorks": ["Salisbury", "Clifford"],
    "East Yorks": ["Kent", "Salisbury", "Northumberland"], "South Yorks": ["York", "Shrewsbury"],
    "Lancaster": ["Lancaster", "Stanley"], "Caernarvon": ["Norfolk"],
    "Lincoln": ["Lancaster", "Beaumont"], "Pembroke": ["Richmond", "Pembroke"],
    "Hereford": ["York"], "Warwick": ["Buckingham", "Warwick"],
    "Leicester": ["Hastings", "Rivers"], "Rutland": ["York", "Worcester"],
    "East Anglia": ["Norfolk", "Suffolk"],
    "Glamorgan": ["Buckingham", "Norfolk", "Herbert", "Warwick"], "Oxford": ["Suffolk"],
    "Essex": ["Oxford", "Essex"], "Wilts": ["Wiltshire"], "Sussex": ["Arundel"],
    "Kent": ["Buckingham"], "Cornwall": ["Devon", "Exeter"], "Dorset": ["Somerset"],
    "Calais": ["Warwick"],
}

# Where to put the name and the blocks when the automatic point is poor (lon, lat).
LABEL_AT: dict[str, Pt] = {
    "Scotland": (-3.9, 55.9), "Ireland": (-6.9, 54.0), "France": (1.0, 49.62),
    "Calais": (1.98, 50.88), "Isle of Man": (-4.55, 54.22),
    # English and Welsh areas: the name high in the area, so the blocks fit below it
    "Northumbria": (-1.95, 55.3), "Cumbria": (-2.95, 54.92), "North Yorks": (-1.65, 54.42),
    "East Yorks": (-0.5, 54.3), "South Yorks": (-1.45, 53.84), "Lancaster": (-2.7, 53.97),
    "Derby": (-1.5, 53.27), "Lincoln": (-0.45, 53.47), "Chester": (-2.6, 53.25),
    "Caernarvon": (-3.75, 53.17), "Powys": (-3.4, 52.75), "Pembroke": (-4.65, 52.03),
    "Glamorgan": (-3.55, 51.87), "Hereford": (-2.75, 52.38), "Warwick": (-1.85, 52.6),
    "Leicester": (-0.85, 52.77), "Rutland": (0.05, 52.64), "East Anglia": (1.05, 52.84),
    "Essex": (0.5, 52.04), "Middlesex": (-0.28, 51.7), "Kent": (0.75, 51.38),
    "Oxford": (-1.2, 51.9), "Gloucester": (-2.0, 52.0), "Wilts": (-1.85, 51.5),
    "Somerset": (-2.75, 51.35), "Dorset": (-2.3, 50.95), "Sussex": (-0.6, 51.22),
    "Cornwall": (-4.0, 50.88),
}
SEA_LABEL_AT: dict[str, Pt] = {"Irish Sea": (-4.95, 53.72), "North Sea": (1.15, 54.1),
                               "English Channel": (-2.2, 50.2)}
SEA_LINES: list[list[Pt]] = [  # visible boundaries between sea zones (over water)
    [(-5.7, 50.07), (-4.6, 49.08)],  # Irish Sea | Channel (off Land's End)
    [(1.3, 51.1), (1.72, 50.9)],  # Channel | North Sea (Strait of Dover)
]
# The three zones partition the canvas; land covers the parts over land.
SEA_POLYS: dict[str, list[Pt]] = {
    "Irish Sea": [(-20.0, 62.0), (-3.0, 62.0), (-3.0, 56.6), (-2.5, 55.5), (-2.2, 54.5), (-2.0, 53.5),
                  (-1.8, 52.5), (-1.5, 51.6), (-3.0, 51.0), (-4.6, 50.55), (-5.7, 50.07),
                  (-4.6, 49.08), (-4.6, 44.0), (-20.0, 44.0)],
    "North Sea": [(-3.0, 62.0), (12.0, 62.0), (12.0, 50.9), (1.72, 50.9), (1.3, 51.1),
                  (0.9, 51.1), (-1.5, 51.6), (-1.8, 52.5), (-2.0, 53.5), (-2.2, 54.5),
                  (-2.5, 55.5)],
    "English Channel": [(-1.5, 51.6), (0.9, 51.1), (1.3, 51.1), (1.72, 50.9), (12.0, 50.9),
                        (12.0, 44.0), (-4.6, 44.0), (-4.6, 49.08), (-5.7, 50.07), (-4.6, 50.55),
                        (-3.0, 51.0)],
}
# Estuaries are not borders (rules, "Estuaries"): Glamorgan-Somerset, East Yorks-Lincoln,
# Kent-Essex. They are gaps of water in the drawing; nothing to store.


def pairs(text: str) -> list[tuple[str, str]]:
    out = []
    for item in text.replace("\n", " ").split(","):
        a, b = (x.strip() for x in item.split("-"))
        if a not in AREAS or b not in AREAS:
            raise ValueError(f"unknown area in border {item!r}")
        out.append((a, b))
    return out


def resolve(poly: Poly) -> list[Pt]:
    return [N[p] if isinstance(p, str) else p for p in poly]


def area_xy(name: str) -> list[tuple[float, float]]:
    return [proj(p) for p in resolve(AREAS[name])]


def shared_border(a: str, b: str) -> list[Pt]:
    """The chain of junction points two polygons share, in a's order."""
    pa, pb = AREAS[a], AREAS[b]
    sb = {p for p in pb if isinstance(p, str)}
    n = len(pa)
    inside = [isinstance(p, str) and p in sb for p in pa]
    # find a start index whose predecessor is not shared
    if all(inside):
        raise ValueError(f"{a} and {b} share all points")
    start = next(i for i in range(n) if inside[i] and not inside[i - 1])
    chain: list[str] = []
    i = start
    while inside[i % n]:
        chain.append(str(pa[i % n]))
        i += 1
    if len(chain) < 2:
        raise ValueError(f"{a} and {b} share fewer than two points: {chain}")
    # make sure the chain is also consecutive in b
    return [N[c] for c in chain]


def polylabel(poly: list[tuple[float, float]]) -> tuple[float, float]:
    """Pole of inaccessibility by grid search (good enough for these small polygons)."""
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    best, best_d = (sum(xs) / len(xs), sum(ys) / len(ys)), -1.0
    steps = 60
    for i in range(steps + 1):
        for j in range(steps + 1):
            x = min(xs) + (max(xs) - min(xs)) * i / steps
            y = min(ys) + (max(ys) - min(ys)) * j / steps
            if not inside_poly((x, y), poly):
                continue
            d = min(seg_dist((x, y), poly[k], poly[k - 1]) for k in range(len(poly)))
            if d > best_d:
                best, best_d = (x, y), d
    return (round(best[0], 1), round(best[1], 1))


def inside_poly(pt: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    x, y = pt
    c = False
    for k in range(len(poly)):
        x1, y1 = poly[k]
        x2, y2 = poly[k - 1]
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            c = not c
    return c


def seg_dist(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def midpoint(pts: list[tuple[float, float]]) -> tuple[float, float]:
    """The point halfway along a polyline."""
    lengths = [math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1)]
    half = sum(lengths) / 2
    for i, seg in enumerate(lengths):
        if half <= seg and seg > 0:
            t = half / seg
            return (round(pts[i][0] + t * (pts[i + 1][0] - pts[i][0]), 1),
                    round(pts[i][1] + t * (pts[i + 1][1] - pts[i][1]), 1))
        half -= seg
    return pts[-1]


def build() -> dict[str, Any]:
    areas: dict[str, Any] = {}
    for name in AREAS:
        xy = area_xy(name)
        label = proj(LABEL_AT[name]) if name in LABEL_AT else polylabel(xy)
        kind = "exile" if name in EXILE else ("island" if name == "Isle of Man" else "land")
        areas[name] = {
            "name": name,
            "kind": kind,
            "poly": [list(p) for p in xy],
            "label": list(label),
        }
        if name in EXILE:
            areas[name]["exile_of"] = EXILE[name]
        if name in WALES:
            areas[name]["wales"] = True
    borders: list[dict[str, Any]] = []
    for kind, text in (("yellow", YELLOW), ("blue", BLUE), ("red", RED)):
        for a, b in pairs(text):
            pts = [proj(p) for p in shared_border(a, b)]
            borders.append({"id": len(borders), "a": a, "b": b, "type": kind, "limit": LIMITS[kind],
                            "pts": [list(p) for p in pts], "mid": list(midpoint(pts))})
    seas = {
        name: {"name": name, "poly": [list(proj(p)) for p in SEA_POLYS[name]],
               "label": list(proj(SEA_LABEL_AT[name])), "coasts": SEAS[name]}
        for name in SEAS
    }
    return {
        "game": "richard3",
        "area_order": AREA_ORDER,
        "comment": "Schematic map drawn for Roses (not publisher art). Generated by roses/games/richard3/map_drawing.py.",
        "viewBox": [0, 0, W, H],
        "areas": areas,
        "borders": borders,
        "seas": seas,
        "sea_lines": [[list(proj(p)) for p in line] for line in SEA_LINES],
        "decor": {name: [list(proj(p)) for p in pts] for name, pts in DECOR.items()},
        "features": {
            "major_ports": MAJOR_PORTS,
            "crowns": CROWNS,
            "cities": {city: {"area": area, "side": CITY_SIDE[city]} for city, area in CITIES.items()},
            "cathedrals": CATHEDRALS,
            "shields": SHIELDS,
            "wales": sorted(WALES),
            "exile": EXILE,
        },
    }


def main() -> None:
    data = build()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(data['areas'])} areas, {len(data['borders'])} borders)")


if __name__ == "__main__":
    main()
