"""Generate Roses' own open Kingmaker board (``board.json``) from real geography.

This is not the published Kingmaker board and copies nothing of it (no image, no square
numbering). It is a grid laid over the real map of England, Wales, the Scottish border, the
east of Ireland and the near Continent:

- coastline: the 1 km GLOBE land/sea mask of the ``global-land-mask`` package (NOAA data,
  public domain), sampled 8 x 8 times in every square: a square is land when at least half of
  its samples are (or when a place stands in it);
- projection: sinusoidal, central meridian 2 W, squares of :data:`SQUARE_KM` km;
- every place, river, estuary, road, forest and zone below is entered here from public facts
  (latitude and longitude of towns, castles, river mouths and road stations) and our own
  choices (documented in ``docs/kingmaker/board.md``).

Run ``python -m roses.games.kingmaker.data.make_board`` (needs ``pip install -e '.[board]'``)
to rewrite ``board.json`` next to this file; ``--check`` only compares. The output is
deterministic.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from roses.games.kingmaker.board import FORMAT, VERSION, check_board, square_id

OUT = Path(__file__).with_name("board.json")

SQUARE_KM = 16.0
CENTRAL_LON = -2.0
LAT_MIN, LAT_MAX = 49.85, 56.05
LON_MIN, LON_MAX = -7.0, 3.0
SAMPLES = 8
KM_PER_DEG = 6371.0 * math.pi / 180.0

LatLon = tuple[float, float]

# ----- projection --------------------------------------------------------------------------


def project(lat: float, lon: float) -> tuple[float, float]:
    """(x, y) in km: x east of the central meridian, y north of the equator."""
    return (lon - CENTRAL_LON) * KM_PER_DEG * math.cos(math.radians(lat)), lat * KM_PER_DEG


def unproject(x: float, y: float) -> LatLon:
    lat = y / KM_PER_DEG
    return lat, CENTRAL_LON + x / (KM_PER_DEG * math.cos(math.radians(lat)))


WEST_KM = min(project(la, LON_MIN)[0] for la in (LAT_MIN, LAT_MAX))
EAST_KM = max(project(la, LON_MAX)[0] for la in (LAT_MIN, LAT_MAX))
NORTH_KM = LAT_MAX * KM_PER_DEG
SOUTH_KM = LAT_MIN * KM_PER_DEG
COLS = math.ceil((EAST_KM - WEST_KM) / SQUARE_KM)
ROWS = math.ceil((NORTH_KM - SOUTH_KM) / SQUARE_KM)


def cell_of(lat: float, lon: float) -> tuple[int, int]:
    x, y = project(lat, lon)
    return int((x - WEST_KM) // SQUARE_KM), int((NORTH_KM - y) // SQUARE_KM)


def centre_xy(col: int, row: int) -> tuple[float, float]:
    return WEST_KM + (col + 0.5) * SQUARE_KM, NORTH_KM - (row + 0.5) * SQUARE_KM


def centre(col: int, row: int) -> LatLon:
    return unproject(*centre_xy(col, row))


# ----- geometry helpers --------------------------------------------------------------------


def inside(pt: LatLon, poly: Sequence[LatLon]) -> bool:
    """Point in polygon (ray casting on lat/lon; fine at this scale)."""
    lat, lon = pt
    hit = False
    n = len(poly)
    for i in range(n):
        (a_lat, a_lon), (b_lat, b_lon) = poly[i], poly[(i + 1) % n]
        if (a_lat > lat) != (b_lat > lat):
            t = (lat - a_lat) / (b_lat - a_lat)
            if lon < a_lon + t * (b_lon - a_lon):
                hit = not hit
    return hit


def _segments_cross(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float],
                    s: tuple[float, float]) -> bool:
    def orient(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(r, s, p), orient(r, s, q)
    d3, d4 = orient(p, q, r), orient(p, q, s)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def line_crosses(p: tuple[float, float], q: tuple[float, float],
                 line_xy: Sequence[tuple[float, float]]) -> bool:
    return any(_segments_cross(p, q, line_xy[i], line_xy[i + 1]) for i in range(len(line_xy) - 1))


def dist_to_line(p: tuple[float, float], line_xy: Sequence[tuple[float, float]]) -> float:
    best = math.inf
    for (ax, ay), (bx, by) in zip(line_xy, line_xy[1:], strict=False):
        dx, dy = bx - ax, by - ay
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy)
                                                  / (dx * dx + dy * dy)))
        best = min(best, math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy))
    return best


def xy_line(points: Iterable[LatLon]) -> list[tuple[float, float]]:
    return [project(la, lo) for la, lo in points]


# ----- regions (which country or island a point of land belongs to) -------------------------

#: The Scottish border (Solway - Liddel - Cheviots - Tweed - Berwick bounds), closed round
#: the north-west of the grid. Berwick and its bounds are English (the rules treat Berwick
#: apart from Scotland, L47).
SCOTLAND = [
    (54.975, -3.06), (55.04, -2.96), (55.12, -2.86), (55.20, -2.70), (55.28, -2.56),
    (55.36, -2.46), (55.42, -2.30), (55.48, -2.18), (55.56, -2.24), (55.62, -2.24),
    (55.66, -2.22), (55.70, -2.17), (55.74, -2.10), (55.78, -2.06), (55.81, -2.03),
    (56.30, -2.03), (56.30, -6.80), (55.30, -6.80), (55.30, -5.40), (54.55, -5.00),
    (54.55, -4.20), (54.80, -3.50), (54.93, -3.20),
]
#: The England-Wales border (Dee - Offa's Dyke country - Wye - Chepstow), closed round the west.
WALES = [
    (53.20, -2.95), (53.08, -2.87), (52.98, -2.74), (52.93, -3.00), (52.86, -3.05),
    (52.78, -3.09), (52.68, -3.10), (52.63, -3.05), (52.56, -3.08), (52.47, -3.12),
    (52.34, -3.05), (52.27, -3.00), (52.20, -3.03), (52.07, -3.10), (51.95, -2.98),
    (51.84, -2.85), (51.81, -2.70), (51.70, -2.67), (51.62, -2.65), (51.30, -3.00),
    (51.30, -5.90), (53.60, -5.90), (53.50, -3.35), (53.36, -3.28), (53.27, -3.10),
]
ANGLESEY = [(53.45, -4.80), (53.45, -3.95), (53.29, -4.00), (53.25, -4.09), (53.22, -4.17),
            (53.13, -4.33), (53.08, -4.50), (53.08, -4.80)]
WIGHT = [(50.700, -1.62), (50.735, -1.45), (50.775, -1.30), (50.750, -1.10), (50.650, -1.00),
         (50.540, -1.30), (50.630, -1.62)]
MAN = [(54.46, -4.90), (54.46, -4.25), (54.00, -4.25), (54.00, -4.90)]
#: The Pale of Calais (Wissant - Guines - Ardres - Gravelines).
CALAIS_PALE = [(51.05, 1.66), (51.05, 2.14), (50.90, 2.14), (50.82, 1.95), (50.82, 1.66)]


def region(lat: float, lon: float) -> str:
    """The land area of a point known to be land."""
    if (lat < 51.6 and lon > 1.5) or (lat < 50.5 and lon > -2.3):
        return "pale_of_calais" if inside((lat, lon), CALAIS_PALE) else "continent"
    if lon < -5.35 and lat < 55.28:
        return "ireland"
    if inside((lat, lon), MAN):
        return "man"
    if inside((lat, lon), ANGLESEY):
        return "anglesey"
    if inside((lat, lon), WIGHT):
        return "wight"
    if inside((lat, lon), SCOTLAND):
        return "scotland"
    if inside((lat, lon), WALES):
        return "wales"
    return "england"


AREAS: list[dict[str, Any]] = [
    {"id": "england", "code": "E", "name": "England", "kind": "land", "england": True},
    {"id": "wales", "code": "W", "name": "Wales", "kind": "land", "england": True},
    {"id": "scotland", "code": "S", "name": "Scotland", "kind": "land", "refuge": True},
    {"id": "ireland", "code": "I", "name": "Ireland", "kind": "land", "refuge": True,
     "island": True},
    {"id": "continent", "code": "F", "name": "The Continent", "kind": "land", "refuge": True},
    {"id": "pale_of_calais", "code": "C", "name": "Calais and its Pale", "kind": "land"},
    {"id": "anglesey", "code": "A", "name": "Isle of Anglesey", "kind": "land", "refuge": True,
     "island": True, "england": True},
    {"id": "wight", "code": "V", "name": "Isle of Wight", "kind": "land", "refuge": True,
     "island": True, "england": True},
    {"id": "man", "code": "M", "name": "Isle of Man", "kind": "land", "refuge": True,
     "island": True},
    {"id": "north_sea", "code": "n", "name": "North Sea", "kind": "sea"},
    {"id": "channel", "code": "c", "name": "English Channel", "kind": "sea"},
    {"id": "irish_sea", "code": "i", "name": "Irish Sea", "kind": "sea"},
    {"id": "st_georges_channel", "code": "g", "name": "St George's Channel", "kind": "sea"},
    {"id": "bristol_channel", "code": "b", "name": "Bristol Channel", "kind": "sea"},
    {"id": "thames_estuary", "code": "t", "name": "Thames Estuary", "kind": "sea",
     "estuary": True},
    {"id": "humber_estuary", "code": "h", "name": "Humber", "kind": "sea", "estuary": True},
]

#: Seeds of the sea zones: each sea square takes the zone of the nearest seed by sea.
SEA_SEEDS: list[tuple[str, LatLon]] = [
    ("north_sea", (54.6, 1.0)), ("north_sea", (52.6, 2.5)), ("north_sea", (55.9, -1.6)),
    ("north_sea", (51.6, 1.5)),
    ("channel", (50.3, -1.0)), ("channel", (50.0, -3.5)), ("channel", (49.95, -5.5)),
    ("channel", (50.5, 0.8)), ("channel", (50.95, 1.45)),
    ("irish_sea", (53.8, -4.8)), ("irish_sea", (54.7, -5.3)), ("irish_sea", (55.1, -5.45)),
    ("irish_sea", (54.0, -3.3)),
    ("st_georges_channel", (52.3, -5.5)), ("st_georges_channel", (51.8, -6.0)),
    ("bristol_channel", (51.35, -3.8)), ("bristol_channel", (51.3, -4.7)),
]

#: Tidal estuaries and narrow seas drawn as water squares (ships sail up them to their ports,
#: L166): the squares within ``width`` km of the line become sea of the named area, except
#: squares holding a place (Southampton Water and the Solent join the Channel).
WATER_CHANNELS: list[tuple[str, float, list[LatLon]]] = [
    ("thames_estuary", 8.0, [(51.50, -0.02), (51.49, 0.07), (51.46, 0.30), (51.47, 0.50), (51.50, 0.75)]),
    ("channel", 7.0, [(50.87, -1.37), (50.80, -1.22)]),
    ("humber_estuary", 8.0, [(53.71, -0.60), (53.72, -0.35), (53.64, -0.10), (53.58, 0.12)]),
]

# ----- rivers and estuaries (lines between squares) ----------------------------------------

RIVERS: list[tuple[str, str, list[LatLon]]] = [
    ("thames", "Thames", [(51.64, -1.86), (51.69, -1.69), (51.75, -1.25), (51.67, -1.28),
                          (51.60, -1.12), (51.46, -0.97), (51.54, -0.90), (51.57, -0.77),
                          (51.52, -0.72), (51.49, -0.61), (51.43, -0.51), (51.41, -0.31),
                          (51.46, -0.30), (51.505, -0.08), (51.485, 0.0), (51.49, 0.07)]),
    ("severn", "Severn", [(52.49, -3.73), (52.45, -3.54), (52.51, -3.31), (52.66, -3.15),
                          (52.71, -2.75), (52.53, -2.42), (52.38, -2.32), (52.19, -2.22),
                          (52.06, -2.21), (51.99, -2.16), (51.87, -2.25), (51.85, -2.32)]),
    ("wye", "Wye", [(52.47, -3.73), (52.30, -3.51), (52.15, -3.40), (52.07, -3.13),
                    (52.05, -2.72), (51.91, -2.58), (51.81, -2.71), (51.64, -2.67),
                    (51.61, -2.65)]),
    ("trent", "Trent", [(53.10, -2.15), (53.00, -2.18), (52.76, -1.93), (52.80, -1.63),
                        (52.87, -1.40), (52.94, -1.14), (53.08, -0.81), (53.40, -0.77),
                        (53.70, -0.69)]),
    ("ouse", "Ouse", [(54.10, -1.40), (53.96, -1.08), (53.78, -1.07), (53.70, -0.87),
                      (53.70, -0.69)]),
    ("ure", "Ure and Swale", [(54.30, -2.10), (54.28, -1.80), (54.14, -1.52), (54.10, -1.40)]),
    ("aire", "Aire", [(53.96, -2.02), (53.79, -1.55), (53.72, -1.36), (53.69, -1.03),
                      (53.70, -0.87)]),
    ("don", "Don", [(53.53, -1.63), (53.38, -1.47), (53.43, -1.36), (53.52, -1.13),
                    (53.62, -0.98), (53.70, -0.87)]),
    ("tees", "Tees", [(54.70, -2.45), (54.54, -1.92), (54.48, -1.56), (54.51, -1.35),
                      (54.57, -1.32), (54.63, -1.15)]),
    ("wear", "Wear", [(54.75, -2.00), (54.66, -1.68), (54.775, -1.575), (54.86, -1.57),
                      (54.91, -1.37)]),
    ("tyne", "Tyne", [(54.97, -2.45), (54.97, -2.10), (54.96, -1.61), (55.01, -1.42)]),
    ("tweed", "Tweed", [(55.65, -3.19), (55.60, -2.72), (55.60, -2.43), (55.65, -2.25),
                        (55.72, -2.16), (55.765, -2.01)]),
    ("eden", "Eden", [(54.47, -2.35), (54.58, -2.49), (54.66, -2.70), (54.90, -2.93),
                      (54.95, -3.05)]),
    ("lune", "Lune", [(54.32, -2.55), (54.20, -2.60), (54.05, -2.80), (54.00, -2.88)]),
    ("ribble", "Ribble", [(54.07, -2.28), (53.87, -2.39), (53.76, -2.70), (53.73, -2.95)]),
    ("mersey_river", "Mersey", [(53.41, -2.15), (53.44, -2.30), (53.40, -2.45), (53.375, -2.61)]),
    ("dee", "Dee", [(52.91, -3.60), (52.98, -3.38), (52.97, -3.17), (53.00, -2.91),
                    (53.19, -2.89)]),
    ("conwy", "Conwy", [(53.09, -3.80), (53.14, -3.80), (53.28, -3.83), (53.30, -3.85)]),
    ("teifi", "Teifi", [(52.20, -3.90), (52.11, -4.08), (52.04, -4.47), (52.08, -4.66),
                        (52.11, -4.69)]),
    ("towy", "Towy", [(51.99, -3.80), (51.88, -3.99), (51.86, -4.31), (51.74, -4.38)]),
    ("usk", "Usk", [(51.95, -3.39), (51.82, -3.02), (51.70, -2.90), (51.58, -2.99),
                    (51.54, -2.97)]),
    ("avon", "Avon (Warwickshire)", [(52.40, -1.00), (52.37, -1.26), (52.28, -1.58),
                                     (52.19, -1.71), (52.09, -1.95), (51.99, -2.16)]),
    ("bristol_avon", "Avon (Bristol)", [(51.58, -2.10), (51.46, -2.12), (51.38, -2.36),
                                        (51.45, -2.59), (51.50, -2.71)]),
    ("great_ouse", "Great Ouse", [(52.00, -0.99), (52.13, -0.47), (52.23, -0.27),
                                  (52.33, -0.18), (52.40, 0.26), (52.75, 0.40)]),
    ("nene", "Nene", [(52.26, -1.16), (52.24, -0.90), (52.48, -0.47), (52.525, -0.45),
                      (52.57, -0.24), (52.66, 0.16), (52.80, 0.20)]),
    ("welland", "Welland", [(52.48, -0.92), (52.65, -0.48), (52.79, -0.15), (52.85, 0.05)]),
    ("witham", "Witham", [(52.91, -0.64), (53.23, -0.54), (52.98, -0.02), (52.93, 0.05)]),
    ("medway", "Medway", [(51.20, 0.27), (51.27, 0.52), (51.37, 0.49)]),
    ("tamar", "Tamar", [(50.90, -4.45), (50.64, -4.31), (50.52, -4.20)]),
    ("exe", "Exe", [(51.13, -3.65), (50.90, -3.49), (50.72, -3.53), (50.68, -3.47)]),
    ("yare", "Yare", [(52.63, 1.30), (52.59, 1.55), (52.60, 1.73)]),
    ("liffey", "Liffey", [(53.20, -6.50), (53.36, -6.45), (53.35, -6.24)]),
]

ESTUARIES: list[tuple[str, str, list[LatLon]]] = [
    ("severn_estuary", "Severn estuary", [(51.85, -2.32), (51.80, -2.45), (51.72, -2.48),
                                          (51.60, -2.62), (51.52, -2.72)]),
    # drawn along its south shore at Liverpool, so that Liverpool's square is on the north bank
    ("mersey", "Mersey estuary", [(53.375, -2.61), (53.345, -2.73), (53.36, -2.90),
                                  (53.375, -2.97), (53.43, -3.04), (53.46, -3.08)]),
    ("dee_estuary", "Dee estuary", [(53.19, -2.89), (53.25, -3.13), (53.35, -3.32)]),
    # drawn a few km west of the Hamoaze, so that Plymouth's square is on the Devon bank
    ("tamar_estuary", "Tamar estuary", [(50.52, -4.20), (50.45, -4.26), (50.34, -4.26)]),
    ("medway_estuary", "Medway estuary", [(51.37, 0.49), (51.40, 0.60), (51.44, 0.76)]),
    ("orwell", "Orwell and Stour", [(52.05, 1.16), (51.95, 1.28)]),
    ("solway", "Solway", [(54.95, -3.05), (54.95, -3.25), (54.90, -3.45)]),
    ("tees_mouth", "Tees mouth", [(54.57, -1.32), (54.63, -1.15)]),
    ("exe_estuary", "Exe estuary", [(50.68, -3.47), (50.62, -3.41)]),
    # drawn a few km south of its course at Hull, so that Hull's square stays on the north bank
    ("humber", "Humber", [(53.70, -0.69), (53.66, -0.62), (53.64, -0.45), (53.62, -0.25),
                          (53.58, 0.12)]),
    ("thames_mouth", "Thames estuary", [(51.49, 0.07), (51.46, 0.30), (51.47, 0.50),
                                        (51.50, 0.75)]),
]

# ----- roads (main medieval roads, through their stations) ---------------------------------

LONDON = (51.51, -0.10)
ROADS: list[tuple[str, str, list[LatLon]]] = [
    ("great_north_road", "Great North Road", [
        LONDON, (51.65, -0.20), (51.99, -0.19), (52.33, -0.18), (52.65, -0.48), (52.91, -0.64),
        (53.08, -0.81), (53.52, -1.13), (53.71, -1.28), (53.88, -1.26), (53.96, -1.08),
        (54.34, -1.43), (54.52, -1.55), (54.78, -1.57), (54.97, -1.61), (55.17, -1.69),
        (55.41, -1.71), (55.77, -2.00)]),
    ("ermine_street", "Ermine Street", [
        LONDON, (51.81, -0.03), (52.05, -0.02), (52.32, -0.18), (52.65, -0.48), (53.23, -0.54),
        (53.60, -0.58)]),
    ("watling_street", "Watling Street", [
        (51.13, 1.31), (51.28, 1.08), (51.39, 0.50), LONDON, (51.75, -0.34), (51.89, -0.52),
        (52.06, -0.86), (52.13, -0.99), (52.50, -1.30), (52.58, -1.55), (52.66, -1.85),
        (52.71, -2.75), (52.97, -2.68), (53.19, -2.89)]),
    ("fosse_way", "Fosse Way", [
        (50.72, -3.53), (50.78, -3.00), (51.00, -2.68), (51.38, -2.36), (51.72, -1.97),
        (51.93, -1.72), (52.50, -1.30), (52.63, -1.13), (53.08, -0.81), (53.23, -0.54)]),
    ("bath_road", "Bath Road", [
        LONDON, (51.47, -0.36), (51.52, -0.72), (51.46, -0.97), (51.40, -1.32), (51.42, -1.73),
        (51.44, -2.00), (51.46, -2.12), (51.38, -2.36), (51.45, -2.59)]),
    ("gloucester_road", "London to Gloucester and Hereford", [
        LONDON, (51.55, -0.48), (51.63, -0.75), (51.75, -1.26), (51.78, -1.48), (51.83, -1.84),
        (51.865, -2.24), (51.91, -2.58), (52.05, -2.72)]),
    ("march_road", "The March road", [
        (52.05, -2.72), (52.23, -2.74), (52.37, -2.72), (52.71, -2.75)]),
    ("exeter_road", "London to Exeter and Cornwall", [
        LONDON, (51.43, -0.51), (51.27, -1.09), (51.21, -1.48), (51.07, -1.79), (51.00, -2.20),
        (50.95, -2.52), (50.88, -2.79), (50.80, -3.19), (50.72, -3.53), (50.74, -4.00),
        (50.64, -4.36), (50.47, -4.72), (50.26, -5.05)]),
    ("plymouth_road", "Exeter to Plymouth", [(50.72, -3.53), (50.52, -3.75), (50.37, -4.14)]),
    ("winchester_road", "London to Winchester and Southampton", [
        (51.27, -1.09), (51.06, -1.31), (50.90, -1.40)]),
    ("norwich_road", "London to Colchester and Norwich", [
        LONDON, (51.73, 0.47), (51.89, 0.90), (52.06, 1.15), (52.36, 1.16), (52.63, 1.30),
        (52.61, 1.72)]),
    ("lynn_road", "London to Cambridge and Lynn", [
        (51.81, -0.03), (52.20, 0.12), (52.40, 0.26), (52.75, 0.40), (52.65, 0.69),
        (52.63, 1.30)]),
    ("carlisle_road", "The western road to Carlisle", [
        (52.66, -1.85), (52.90, -2.15), (53.01, -2.23), (53.39, -2.60), (53.55, -2.63),
        (53.76, -2.70), (54.05, -2.80), (54.33, -2.75), (54.53, -2.68), (54.66, -2.75),
        (54.89, -2.93)]),
    ("craven_road", "York to Lancaster", [
        (53.96, -1.08), (53.88, -1.26), (53.80, -1.55), (53.96, -2.02), (54.07, -2.28),
        (54.05, -2.80)]),
    ("coventry_road", "Coventry road", [
        (52.13, -0.99), (52.26, -1.16), (52.41, -1.51), (52.50, -1.70), (52.68, -1.83)]),
    ("nottingham_road", "Leicester to Nottingham and Doncaster", [
        (52.63, -1.13), (52.77, -1.20), (52.95, -1.15), (53.14, -1.20), (53.30, -1.12),
        (53.52, -1.13)]),
    ("severn_road", "Bristol to Worcester and Shrewsbury", [
        (51.45, -2.59), (51.69, -2.46), (51.865, -2.24), (51.99, -2.16), (52.19, -2.22),
        (52.53, -2.42), (52.71, -2.75)]),
    ("south_wales_road", "The South Wales road", [
        (51.865, -2.24), (51.78, -2.40), (51.64, -2.67), (51.58, -2.99), (51.48, -3.18),
        (51.66, -3.80), (51.62, -3.94), (51.86, -4.31), (51.80, -4.97), (51.88, -5.27)]),
    ("north_wales_road", "The North Wales road", [
        (53.19, -2.89), (53.25, -3.13), (53.29, -3.46), (53.28, -3.83),
        (53.14, -4.27)]),
    ("cardigan_road", "Carmarthen to Cardigan", [(51.86, -4.31), (52.08, -4.66)]),
    ("dere_street", "Dere Street", [
        (53.96, -1.08), (54.38, -1.63), (54.97, -2.02), (55.48, -2.55), (55.60, -2.72),
        (55.95, -3.19)]),
    ("tyne_gap_road", "Newcastle to Carlisle", [
        (54.97, -1.61), (54.97, -2.10), (54.97, -2.46), (54.94, -2.73), (54.89, -2.93)]),
    ("beverley_road", "York to Beverley and Hull", [(53.96, -1.08), (53.84, -0.43),
                                                    (53.744, -0.33)]),
    ("dover_road", "Dover to Sandwich", [(51.13, 1.31), (51.27, 1.34), (51.28, 1.08)]),
]

# ----- forests (historic royal forests and great woods; ellipses: centre, radii in km) -------

FORESTS: list[tuple[str, LatLon, float, float]] = [
    ("Sherwood", (53.20, -1.08), 9, 20), ("Forest of Dean", (51.79, -2.55), 9, 9),
    ("The Weald", (51.03, 0.25), 55, 16), ("Savernake", (51.38, -1.65), 8, 7),
    ("Arden", (52.34, -1.78), 14, 11), ("New Forest", (50.87, -1.60), 12, 11),
    ("Epping and Waltham", (51.66, 0.06), 7, 9), ("Rockingham", (52.52, -0.65), 15, 7),
    ("Cannock Chase", (52.74, -1.98), 8, 8), ("Needwood", (52.83, -1.78), 6, 6),
    ("Charnwood", (52.72, -1.25), 7, 7), ("Galtres", (54.07, -1.10), 9, 9),
    ("Knaresborough", (54.00, -1.62), 9, 7), ("Bowland", (53.98, -2.55), 12, 9),
    ("Inglewood", (54.77, -2.85), 11, 11), ("Pickering", (54.32, -0.78), 16, 8),
    ("Dartmoor", (50.58, -3.92), 13, 13), ("Exmoor", (51.13, -3.65), 14, 8),
    ("Selwood", (51.15, -2.35), 7, 8), ("Wychwood", (51.85, -1.53), 7, 7),
    ("Bernwood", (51.80, -1.07), 6, 6), ("Macclesfield", (53.25, -2.05), 8, 8),
    ("Delamere", (53.22, -2.66), 7, 7), ("Feckenham", (52.25, -2.00), 7, 6),
    ("Wyre", (52.37, -2.40), 6, 6), ("Hatfield Chase", (53.58, -0.95), 8, 8),
    ("Whittlewood and Salcey", (52.10, -0.95), 8, 6), ("Windsor Forest", (51.42, -0.72), 8, 7),
    ("Radnor Forest", (52.30, -3.20), 8, 8), ("Fforest Fawr", (51.88, -3.60), 10, 8),
    ("Ettrick Forest", (55.47, -3.10), 18, 14), ("Kielder and Redesdale", (55.25, -2.40), 12, 10),
    ("Rotherham woods", (53.43, -1.36), 5, 5),
]

# ----- places -----------------------------------------------------------------------------
# (id, name, lat, lon, type, options). Options: f = fortified, o = open (unfortified),
# r = royal castle, c = cathedral, p = port, M = major city (garrison 300), e2 = added by E2,
# x = no Commons vote and no Parliament (outside the realm's shires). Aliases after "|".

PLACES: list[tuple[str, str, float, float, str, str]] = [
    # the rulebook's places
    ("london", "London", 51.5125, -0.0900, "city", "f c p M"),
    ("tower_of_london", "Tower of London", 51.5081, -0.0759, "castle", "r"),
    ("windsor", "Windsor", 51.4839, -0.6044, "castle", "r"),
    ("bristol", "Bristol", 51.4545, -2.5879, "city", "f p M"),
    ("coventry", "Coventry", 52.4081, -1.5106, "city", "f c"),
    ("newark", "Newark", 53.0763, -0.8086, "town", "f"),
    ("conway", "Conway", 53.2803, -3.8295, "castle", "r p"),
    ("kenilworth", "Kenilworth", 52.3474, -1.5906, "castle", "r"),
    ("lancaster", "Lancaster", 54.0499, -2.8007, "town", "f p"),
    ("bamburgh", "Bamburgh", 55.6090, -1.7099, "castle", "r p|bamburg"),
    ("york", "York", 53.9600, -1.0873, "city", "f c M"),
    ("fotheringhay", "Fotheringhay", 52.5262, -0.4412, "castle", ""),
    ("shrewsbury", "Shrewsbury", 52.7077, -2.7543, "town", "f"),
    ("harlech", "Harlech", 52.8602, -4.1086, "castle", "r p"),
    ("plymouth", "Plymouth", 50.3700, -4.1400, "town", "f p"),
    ("carisbrooke", "Carisbrooke", 50.6873, -1.3136, "castle", "r p"),
    ("dublin", "Dublin", 53.3430, -6.2675, "city", "f c p M e2 x"),
    ("beaumaris", "Beaumaris", 53.2646, -4.0897, "castle", "r p"),
    ("dover", "Dover", 51.1295, 1.3213, "castle", "r p"),
    ("cardigan", "Cardigan", 52.0825, -4.6614, "castle", "r p"),
    ("norwich", "Norwich", 52.6286, 1.2993, "city", "f c"),
    ("newcastle", "Newcastle upon Tyne", 54.9697, -1.6086, "town", "f p|newcastle_upon_tyne"),
    ("calais", "Calais", 50.9513, 1.8587, "town", "f p x"),
    ("carlisle", "Carlisle", 54.8951, -2.9382, "city", "f c"),
    ("swansea", "Swansea", 51.6214, -3.9436, "town", "f p"),
    ("berwick", "Berwick", 55.7708, -2.0048, "town", "f p|berwick_upon_tweed"),
    ("caernarvon", "Caernarvon", 53.1393, -4.2765, "castle", "r p|caernarfon"),
    ("douglas", "Douglas", 54.1523, -4.4861, "castle", "p x"),
    ("salisbury", "Salisbury", 51.0688, -1.7945, "city", "o c"),
    ("wells", "Wells", 51.2090, -2.6471, "city", "o c"),
    ("st_davids", "St Davids", 51.8818, -5.2660, "city", "o c"),
    ("rotherham", "Rotherham", 53.4326, -1.3635, "town", "o"),
    ("cockermouth", "Cockermouth", 54.6633, -3.3620, "castle", "|cockermonth"),
    ("alnwick", "Alnwick", 55.4155, -1.7060, "castle", ""),
    ("chillingham", "Chillingham", 55.5262, -1.9040, "castle", ""),
    ("raby", "Raby", 54.5914, -1.8011, "castle", ""),
    ("durham", "Durham", 54.7753, -1.5849, "city", "f c"),
    ("canterbury", "Canterbury", 51.2802, 1.0789, "city", "f c"),
    ("lincoln", "Lincoln", 53.2344, -0.5387, "city", "f c"),
    # home castles and seats of the nobles, titles and offices (public card set, research §4.1)
    ("appleby", "Appleby", 54.5780, -2.4890, "castle", ""),
    ("arundel", "Arundel", 50.8560, -0.5530, "castle", ""),
    ("ashby", "Ashby de la Zouch", 52.7460, -1.4770, "castle", ""),
    ("berkeley", "Berkeley", 51.6907, -2.4589, "castle", ""),
    ("bolton", "Bolton", 54.3218, -1.9560, "castle", ""),
    ("brecon", "Brecon", 51.9470, -3.3910, "castle", ""),
    ("chester", "Chester", 53.1905, -2.8910, "city", "f"),
    ("colchester", "Colchester", 51.8890, 0.9040, "town", "f"),
    ("corfe", "Corfe", 50.6400, -2.0570, "castle", "r"),
    ("devizes", "Devizes", 51.3520, -1.9940, "castle", ""),
    ("exeter", "Exeter", 50.7260, -3.5270, "city", "f c"),
    ("framlingham", "Framlingham", 52.2240, 1.3470, "castle", ""),
    ("gloucester", "Gloucester", 51.8642, -2.2380, "town", "f"),
    ("goodrich", "Goodrich", 51.8770, -2.6150, "castle", ""),
    ("greystoke", "Greystoke", 54.6690, -2.8660, "castle", ""),
    ("halton", "Halton", 53.3330, -2.6950, "castle", ""),
    ("hedingham", "Hedingham", 51.9930, 0.6010, "castle", ""),
    ("heighley", "Heighley", 53.0350, -2.3380, "castle", ""),
    ("helmsley", "Helmsley", 54.2460, -1.0640, "castle", ""),
    ("hereford", "Hereford", 52.0560, -2.7160, "city", "f c"),
    ("hull", "Hull", 53.7440, -0.3320, "town", "f p|kingston_upon_hull"),
    ("huntingdon", "Huntingdon", 52.3310, -0.1840, "town", "o"),
    ("ipswich", "Ipswich", 52.0590, 1.1550, "town", "f p"),
    ("kings_lynn", "King's Lynn", 52.7540, 0.3980, "town", "f p|lynn"),
    ("lathom", "Lathom", 53.5700, -2.8300, "castle", ""),
    ("launceston", "Launceston", 50.6370, -4.3600, "castle", ""),
    ("leicester", "Leicester", 52.6340, -1.1310, "town", "f"),
    ("ludlow", "Ludlow", 52.3670, -2.7180, "castle", ""),
    ("middleham", "Middleham", 54.2850, -1.8060, "castle", ""),
    ("northampton", "Northampton", 52.2370, -0.8970, "town", "f"),
    ("nottingham", "Nottingham", 52.9500, -1.1540, "town", "f"),
    ("okehampton", "Okehampton", 50.7330, -4.0040, "castle", ""),
    ("pleshey", "Pleshey", 51.8040, 0.4120, "castle", ""),
    ("pontefract", "Pontefract", 53.6940, -1.3090, "castle", ""),
    ("raglan", "Raglan", 51.7680, -2.8500, "castle", ""),
    ("richmond", "Richmond", 54.4030, -1.7370, "castle", ""),
    ("rochester", "Rochester", 51.3890, 0.5030, "city", "f c"),
    ("sandwich", "Sandwich", 51.2740, 1.3390, "town", "f p"),
    ("skipton", "Skipton", 53.9620, -2.0170, "castle", ""),
    ("southampton", "Southampton", 50.8980, -1.4040, "town", "f p"),
    ("stafford", "Stafford", 52.8060, -2.1170, "castle", ""),
    ("tattershall", "Tattershall", 53.1000, -0.1920, "castle", ""),
    ("tiverton", "Tiverton", 50.9020, -3.4880, "castle", ""),
    ("warwick", "Warwick", 52.2790, -1.5850, "castle", ""),
    ("wingfield", "Wingfield", 52.3490, 1.2620, "castle", ""),
    ("worcester", "Worcester", 52.1920, -2.2200, "city", "f c"),
    # further towns, cities, sees, castles and ports of the realm (our choice)
    ("winchester", "Winchester", 51.0632, -1.3080, "city", "f c"),
    ("bath", "Bath", 51.3811, -2.3590, "city", "f c"),
    ("lichfield", "Lichfield", 52.6816, -1.8266, "city", "o c"),
    ("ely", "Ely", 52.3990, 0.2620, "city", "o c"),
    ("chichester", "Chichester", 50.8365, -0.7792, "city", "f c"),
    ("st_asaph", "St Asaph", 53.2580, -3.4420, "city", "o c"),
    ("llandaff", "Llandaff", 51.4960, -3.2180, "city", "o c"),
    ("oxford", "Oxford", 51.7520, -1.2577, "town", "f"),
    ("cambridge", "Cambridge", 52.2053, 0.1218, "town", "o"),
    ("reading", "Reading", 51.4540, -0.9730, "town", "o"),
    ("st_albans", "St Albans", 51.7520, -0.3390, "town", "o"),
    ("bedford", "Bedford", 52.1360, -0.4670, "town", "o"),
    ("stamford", "Stamford", 52.6530, -0.4800, "town", "o"),
    ("derby", "Derby", 52.9220, -1.4770, "town", "o"),
    ("doncaster", "Doncaster", 53.5228, -1.1285, "town", "o"),
    ("wakefield", "Wakefield", 53.6830, -1.4990, "town", "o"),
    ("beverley", "Beverley", 53.8420, -0.4340, "town", "o"),
    ("hexham", "Hexham", 54.9710, -2.1010, "town", "o"),
    ("kendal", "Kendal", 54.3280, -2.7460, "town", "o"),
    ("preston", "Preston", 53.7590, -2.6990, "town", "o"),
    ("tewkesbury", "Tewkesbury", 51.9930, -2.1600, "town", "o"),
    ("bury_st_edmunds", "Bury St Edmunds", 52.2470, 0.7110, "town", "o"),
    ("maidstone", "Maidstone", 51.2720, 0.5290, "town", "o"),
    ("guildford", "Guildford", 51.2360, -0.5700, "town", "f"),
    ("lewes", "Lewes", 50.8730, 0.0080, "town", "f"),
    ("marlborough", "Marlborough", 51.4200, -1.7290, "town", "o"),
    ("taunton", "Taunton", 51.0150, -3.1030, "town", "f"),
    ("bodmin", "Bodmin", 50.4710, -4.7190, "town", "o"),
    ("yarmouth", "Great Yarmouth", 52.6080, 1.7300, "town", "f p|great_yarmouth"),
    ("boston", "Boston", 52.9770, -0.0220, "town", "o p"),
    ("scarborough", "Scarborough", 54.2860, -0.3970, "town", "f p"),
    ("hartlepool", "Hartlepool", 54.6900, -1.2100, "town", "f p"),
    ("dartmouth", "Dartmouth", 50.3510, -3.5790, "town", "f p"),
    ("poole", "Poole", 50.7150, -1.9870, "town", "o p"),
    ("rye", "Rye", 50.9500, 0.7340, "town", "f p"),
    ("hastings", "Hastings", 50.8550, 0.5730, "town", "f p"),
    ("portsmouth", "Portsmouth", 50.7960, -1.1080, "town", "f p"),
    ("fowey", "Fowey", 50.3350, -4.6370, "town", "o p"),
    ("barnstaple", "Barnstaple", 51.0800, -4.0600, "town", "o p"),
    ("bridgwater", "Bridgwater", 51.1280, -3.0030, "town", "f p"),
    ("liverpool", "Liverpool", 53.4060, -2.9920, "town", "o p"),
    ("sandal", "Sandal", 53.6600, -1.4860, "castle", ""),
    ("sheriff_hutton", "Sheriff Hutton", 54.0870, -1.0050, "castle", ""),
    ("knaresborough", "Knaresborough", 54.0090, -1.4670, "castle", ""),
    ("warkworth", "Warkworth", 55.3450, -1.6110, "castle", ""),
    ("norham", "Norham", 55.7210, -2.1610, "castle", ""),
    ("newcastle_under_lyme", "Newcastle under Lyme", 53.0110, -2.2270, "castle", ""),
    ("tutbury", "Tutbury", 52.8570, -1.6860, "castle", ""),
    ("monmouth", "Monmouth", 51.8110, -2.7160, "castle", ""),
    ("chepstow", "Chepstow", 51.6420, -2.6750, "castle", "p"),
    ("cardiff", "Cardiff", 51.4810, -3.1800, "castle", "p"),
    ("pembroke", "Pembroke", 51.6740, -4.9150, "castle", "p"),
    ("carmarthen", "Carmarthen", 51.8570, -4.3120, "castle", "r"),
    ("aberystwyth", "Aberystwyth", 52.4140, -4.0820, "castle", "r p"),
    ("denbigh", "Denbigh", 53.1840, -3.4180, "castle", ""),
    ("flint", "Flint", 53.2490, -3.1330, "castle", "r"),
    # landings abroad: unfortified ports that serve Ireland and the Continent
    ("drogheda", "Drogheda", 53.7179, -6.3561, "town", "o p x"),
    ("boulogne", "Boulogne", 50.7264, 1.6147, "town", "o p x"),
]

#: Named squares that are not places: the Cheviots (Scots Invasion), the forest square of
#: Rotherham (Royal Hunt) and France (where the Treaty, Papal Diet and War in Europe send people
#: "to the Continent"; Saint-Omer).
LANDMARKS: list[tuple[str, str, float, float]] = [
    ("cheviots", "The Cheviots", 55.4776, -2.1453),
    ("rotherham_forest", "Rotherham forest", 53.4326, -1.3635),
    ("france", "France", 50.7500, 2.2500),
]

#: Regional-bonus zones (office and bishop bonuses). Polygons in (lat, lon); a land square
#: is in the zone when its centre is inside (and its area is one of ``areas`` when given).
ZONE_POLYGONS: list[tuple[str, str, list[LatLon], tuple[str, ...]]] = [
    ("devon_cornwall", "Devon and Cornwall", [
        (51.30, -3.73), (51.23, -3.73), (51.10, -3.55), (50.98, -3.35), (50.90, -3.10),
        (50.80, -2.95), (50.72, -2.94), (49.80, -2.94), (49.80, -6.50), (51.30, -6.50)],
     ("england",)),
    ("north_of_trent", "North of the Trent", [
        (53.45, -3.10), (53.39, -2.60), (53.00, -2.18), (52.95, -1.70), (52.94, -1.14),
        (53.08, -0.81), (53.40, -0.77), (53.70, -0.69), (53.58, 0.30), (56.30, 0.30),
        (56.30, -3.60)], ("england",)),
    ("north_of_tees", "North of the Tees", [
        (54.35, -3.60), (54.53, -2.68), (54.70, -2.49), (54.54, -1.92), (54.48, -1.56),
        (54.51, -1.35), (54.57, -1.32), (54.63, -1.00), (56.30, -1.00), (56.30, -3.60)],
     ("england",)),
    ("lancaster", "The County Palatine of Lancaster", [
        (53.46, -3.10), (53.34, -2.73), (53.39, -2.60), (53.43, -2.30), (53.45, -2.05),
        (53.75, -2.05), (53.95, -2.25), (54.10, -2.45), (54.22, -2.55), (54.24, -2.80),
        (54.45, -3.00), (54.40, -3.30), (54.10, -3.35), (53.90, -3.15), (53.60, -3.15)],
     ("england",)),
]
#: Zones made of whole areas, and London's own square.
ZONE_AREAS: list[tuple[str, str, tuple[str, ...]]] = [
    ("wales", "Wales", ("wales", "anglesey")),
    ("ireland", "Ireland", ("ireland",)),
    ("calais", "Calais", ("pale_of_calais",)),
]

# ----- house values: garrisons and capacities (docs/kingmaker/board.md) ---------------------


def garrison_and_capacity(ptype: str, opts: set[str]) -> tuple[int, int]:
    if "M" in opts:
        return 300, 600
    if "o" in opts:
        return 0, 200
    if ptype == "castle":
        return (200, 300) if "r" in opts else (100, 200)
    return (200, 400) if ptype == "city" else (200, 300)


# ----- the generator -----------------------------------------------------------------------


def _land_mask() -> Callable[[list[float], list[float]], list[bool]]:
    try:
        from global_land_mask import globe
    except ImportError:  # pragma: no cover - a developer tool
        sys.exit("make_board needs the land mask: pip install -e '.[board]'")

    def is_land(lats: list[float], lons: list[float]) -> list[bool]:
        import numpy as np

        return [bool(v) for v in globe.is_land(np.array(lats), np.array(lons))]

    return is_land


def _neighbours(col: int, row: int) -> Iterable[tuple[int, int]]:
    for dc in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if (dc or dr) and 0 <= col + dc < COLS and 0 <= row + dr < ROWS:
                yield col + dc, row + dr


def generate() -> dict[str, Any]:  # noqa: C901, PLR0915 - draws the open board, one region after another
    is_land = _land_mask()
    code = {a["id"]: a["code"] for a in AREAS}

    # places first: their squares are land, in their own area
    place_cells: dict[tuple[int, int], list[str]] = {}
    place_area: dict[tuple[int, int], str] = {}
    for pid, _name, lat, lon, _t, _o in PLACES:
        cell = cell_of(lat, lon)
        place_cells.setdefault(cell, []).append(pid)
        reg = region(lat, lon)
        if place_area.setdefault(cell, reg) != reg:
            # England, Wales and Scotland share borders: the square's land decides
            if {reg, place_area[cell]} <= {"england", "wales", "scotland", "mixed"}:
                place_area[cell] = "mixed"
            else:
                raise SystemExit(f"{pid}: shares a square with a place of area "
                                 f"{place_area[cell]}")
    place_area = {c: a for c, a in place_area.items() if a != "mixed"}

    land: dict[tuple[int, int], bool] = {}
    area: dict[tuple[int, int], str] = {}
    points = []
    for row in range(ROWS):
        for col in range(COLS):
            x0, y0 = WEST_KM + col * SQUARE_KM, NORTH_KM - row * SQUARE_KM
            for i in range(SAMPLES):
                for j in range(SAMPLES):
                    points.append(unproject(x0 + (i + 0.5) * SQUARE_KM / SAMPLES,
                                            y0 - (j + 0.5) * SQUARE_KM / SAMPLES))
    mask = is_land([p[0] for p in points], [p[1] for p in points])
    per = SAMPLES * SAMPLES
    for row in range(ROWS):
        for col in range(COLS):
            k0 = (row * COLS + col) * per
            regions: Counter[str] = Counter(
                region(*points[k]) for k in range(k0, k0 + per) if mask[k])
            n = sum(regions.values())
            cell = (col, row)
            land[cell] = n * 2 >= SAMPLES * SAMPLES or cell in place_cells
            if cell in place_area:
                area[cell] = place_area[cell]
            elif n:
                area[cell] = max(sorted(regions), key=lambda r: regions[r])
            else:
                area[cell] = region(*centre(col, row))

    # tidal estuaries as water squares
    for aid, width, pts in WATER_CHANNELS:
        line = xy_line(pts)
        for cell in list(land):
            if cell not in place_cells and dist_to_line(centre_xy(*cell), line) <= width:
                land[cell] = False
                area[cell] = aid

    # tidy: inland water bodies become land; land with no place and no link is dropped
    def pinched(a: tuple[int, int], b: tuple[int, int]) -> bool:
        """A diagonal between two land squares whose two other corners are water."""
        return (a[0] != b[0] and a[1] != b[1] and not land[(a[0], b[1])]
                and not land[(b[0], a[1])])

    def components(cells: set[tuple[int, int]], by_land: bool = False
                   ) -> list[set[tuple[int, int]]]:
        left, out = set(cells), []
        while left:
            start = min(left)
            left.discard(start)
            comp, todo = {start}, [start]
            while todo:
                c = todo.pop()
                for nb in _neighbours(*c):
                    if nb in left and not (by_land and pinched(c, nb)):
                        left.discard(nb)
                        comp.add(nb)
                        todo.append(nb)
            out.append(comp)
        return out

    sea_comps = components({c for c, v in land.items() if not v})
    main_sea = max(sea_comps, key=len)
    for comp in sea_comps:
        if comp is not main_sea:
            for c in comp:
                land[c] = True
                area[c] = region(*centre(*c))
    for comp in components({c for c, v in land.items() if v}, by_land=True):
        if not any(c in place_cells for c in comp):
            for c in comp:
                land[c] = False

    # sea zones: nearest seed by sea (estuary squares keep their estuary area)
    seeds = []
    for zone, (lat, lon) in SEA_SEEDS:
        cell = cell_of(lat, lon)
        if land.get(cell, True):
            raise SystemExit(f"sea seed {zone} {lat},{lon} is not at sea")
        seeds.append((cell, zone))
    zone_of: dict[tuple[int, int], str] = {}
    todo: deque[tuple[int, int]] = deque()
    for cell, zone in seeds:
        zone_of.setdefault(cell, zone)
        todo.append(cell)
    while todo:
        c = todo.popleft()
        for nb in _neighbours(*c):
            if not land[nb] and nb not in zone_of:
                zone_of[nb] = zone_of[c]
                todo.append(nb)
    for c, v in land.items():
        if not v and area[c] not in ("thames_estuary", "humber_estuary"):
            area[c] = zone_of[c]
        elif v and not any(a["id"] == area[c] and a["kind"] == "land" for a in AREAS):
            area[c] = region(*centre(*c))

    # forests
    def forest_at(lat: float, lon: float) -> bool:
        x, y = project(lat, lon)
        for _n, (fl, fo), rx, ry in FORESTS:
            cx, cy = project(fl, fo)
            if ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0:
                return True
        return False

    forest: set[tuple[int, int]] = set()
    for cell, v in land.items():
        if not v:
            continue
        x0, y0 = WEST_KM + cell[0] * SQUARE_KM, NORTH_KM - cell[1] * SQUARE_KM
        k = 4
        hits = sum(forest_at(*unproject(x0 + (i + 0.5) * SQUARE_KM / k,
                                        y0 - (j + 0.5) * SQUARE_KM / k))
                   for i in range(k) for j in range(k))
        if hits * 5 >= 2 * k * k:
            forest.add(cell)
    forest.add(cell_of(53.4326, -1.3635))  # Rotherham's square is forest (Royal Hunt)

    sid = {c: square_id(*c) for c in land}

    def pair(a: tuple[int, int], b: tuple[int, int]) -> list[str]:
        return sorted([sid[a], sid[b]], key=lambda s: (len(s), s))

    def crossing_edges(pts: list[LatLon]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        line = xy_line(pts)
        out = []
        for c in sorted(land):
            if not land[c]:
                continue
            for nb in _neighbours(*c):
                if nb > c and land[nb] and line_crosses(centre_xy(*c), centre_xy(*nb), line):
                    out.append((c, nb))
        return out

    # estuaries (barriers), then the island straits, then rivers on the other edges
    taken: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    estuaries = []
    for eid, name, pts in ESTUARIES:
        edges = [e for e in crossing_edges(pts) if e not in taken]
        taken.update(edges)
        if edges:
            estuaries.append({"id": eid, "name": name, "edges": [pair(*e) for e in edges]})
    straits: dict[str, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
    island_names = {"anglesey": ("menai_strait", "Menai Strait"),
                    "wight": ("solent", "The Solent"), "man": ("man_sound", "Irish Sea"),
                    "ireland": ("irish_channel", "Irish Sea"),
                    "continent": ("strait_of_dover", "Strait of Dover"),
                    "pale_of_calais": ("strait_of_dover", "Strait of Dover")}
    for c in sorted(land):
        if not land[c]:
            continue
        for nb in _neighbours(*c):
            if nb <= c or not land[nb] or (c, nb) in taken:
                continue
            a1, a2 = area[c], area[nb]
            isl = a1 if a1 in island_names and a2 not in island_names else (
                a2 if a2 in island_names and a1 not in island_names else None)
            if isl:
                straits.setdefault(isl, []).append((c, nb))
                taken.add((c, nb))
    for isl, edges in sorted(straits.items()):
        eid, name = island_names[isl]
        estuaries.append({"id": eid, "name": name, "edges": [pair(*e) for e in edges]})
    # a diagonal step between two land squares whose other two corners are water crosses water
    pinch = []
    for c in sorted(land):
        if not land[c]:
            continue
        for dc in (-1, 1):
            nb = (c[0] + dc, c[1] + 1)
            if nb not in land or not land[nb] or (min(c, nb), max(c, nb)) in taken:
                continue
            if pinched(c, nb):
                e = (min(c, nb), max(c, nb))
                pinch.append(e)
                taken.add(e)
    if pinch:
        estuaries.append({"id": "narrow_waters", "name": "Narrow waters",
                          "edges": [pair(*e) for e in pinch]})
    rivers = []
    for rid, name, pts in RIVERS:
        edges = [e for e in crossing_edges(pts) if e not in taken]
        taken.update(edges)
        if edges:
            rivers.append({"id": rid, "name": name, "edges": [pair(*e) for e in edges]})
    barrier = {tuple(sorted((a, b))) for est in estuaries for a, b in est["edges"]}

    crossings = []
    car = cell_of(53.1393, -4.2765)
    menai = [pair(car, nb) for nb in _neighbours(*car) if land[nb] and area[nb] == "anglesey"]
    if menai:
        crossings.append({"id": "menai_crossing", "name": "Menai crossing (from Caernarvon)",
                          "edges": menai})

    # roads: straight lines between stations, detoured by land where a line leaves the land
    def land_path(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
        prev = {a: a}
        q = deque([a])
        while q:
            c = q.popleft()
            if c == b:
                break
            for nb in _neighbours(*c):
                if nb in prev or not land[nb]:
                    continue
                if tuple(sorted((sid[c], sid[nb]))) in barrier:
                    continue
                prev[nb] = c
                q.append(nb)
        if b not in prev:
            raise SystemExit(f"no land path {sid[a]} -> {sid[b]}")
        path = [b]
        while path[-1] != a:
            path.append(prev[path[-1]])
        return path[::-1]

    roads = []
    for rid, name, stations in ROADS:
        cells: list[tuple[int, int]] = []
        for (la1, lo1), (la2, lo2) in zip(stations, stations[1:], strict=False):
            x1, y1 = project(la1, lo1)
            x2, y2 = project(la2, lo2)
            steps = max(2, int(math.hypot(x2 - x1, y2 - y1) / (SQUARE_KM / 6)))
            for k in range(steps + 1):
                la, lo = unproject(x1 + (x2 - x1) * k / steps, y1 + (y2 - y1) * k / steps)
                cell = cell_of(la, lo)
                if not cells or cells[-1] != cell:
                    cells.append(cell)
        good: list[tuple[int, int]] = []
        for cell in cells:
            if not land[cell]:
                continue
            if good and (max(abs(cell[0] - good[-1][0]), abs(cell[1] - good[-1][1])) > 1
                         or tuple(sorted((sid[cell], sid[good[-1]]))) in barrier):
                try:
                    good.extend(land_path(good[-1], cell)[1:])
                except SystemExit:
                    continue  # a square across water (e.g. Anglesey): the road skips it
            elif not good or good[-1] != cell:
                good.append(cell)
        if good[-1] != cell_of(*stations[-1]):
            raise SystemExit(f"road {rid} does not reach its last station")
        # a road may step into a town and out again (A B A): it serves the town
        roads.append({"id": rid, "name": name, "squares": [sid[c] for c in good]})

    # places
    places = []
    for pid, name, lat, lon, ptype, opt in PLACES:
        opts_s, _, alias_s = opt.partition("|")
        opts = set(opts_s.split())
        cell = cell_of(lat, lon)
        x, y = project(lat, lon)
        at = [round((x - WEST_KM) / SQUARE_KM - cell[0], 2),
              round((NORTH_KM - y) / SQUARE_KM - cell[1], 2)]
        garrison, capacity = garrison_and_capacity(ptype, opts)
        foreign = "x" in opts
        entry: dict[str, Any] = {
            "id": pid, "name": name, "square": sid[cell], "type": ptype,
            "fortified": "o" not in opts}
        if "r" in opts:
            entry["royal"] = True
        entry["garrison"] = garrison
        entry["capacity"] = capacity
        if "c" in opts:
            entry["cathedral"] = True
        if "p" in opts:
            links = [sid[nb] for nb in _neighbours(*cell) if not land[nb]]
            if not links:
                print(f"warning: port {pid} at {sid[cell]} has no sea next to it: not a port",
                      file=sys.stderr)
            else:
                entry["port"] = sorted(links, key=lambda s: (len(s), s))
        entry["parliament"] = ptype != "castle" and not foreign
        entry["commons"] = None if ptype == "castle" or foreign else ptype
        if "e2" in opts:
            entry["level"] = "e2"
        entry["at"] = at
        if alias_s:
            entry["aliases"] = alias_s.split()
        entry["geo"] = [lat, lon]
        places.append(entry)

    zones = []
    for zid, zname, poly, in_areas in ZONE_POLYGONS:
        sqs = [sid[c] for c in sorted(land, key=lambda c: (c[1], c[0]))
               if land[c] and area[c] in in_areas and inside(centre(*c), poly)]
        zones.append({"id": zid, "name": zname, "squares": sqs})
    for zid, zname, in_areas in ZONE_AREAS:
        sqs = [sid[c] for c in sorted(land, key=lambda c: (c[1], c[0]))
               if land[c] and area[c] in in_areas]
        zones.append({"id": zid, "name": zname, "squares": sqs})
    zones.append({"id": "london", "name": "London", "squares": [sid[cell_of(51.5125, -0.09)]]})

    terrain, area_map = [], []
    for row in range(ROWS):
        t, a = [], []
        for col in range(COLS):
            c = (col, row)
            t.append("." if not land[c] else ("f" if c in forest else "o"))
            a.append(code[area[c]])
        terrain.append("".join(t))
        area_map.append("".join(a))

    return {
        "format": FORMAT,
        "version": VERSION,
        "id": "roses-open",
        "name": "Roses open board",
        "notice": ("Roses' own board, drawn by roses/games/kingmaker/data/make_board.py over the "
                   "real geography of England, Wales, the Scottish border, eastern Ireland and "
                   "the near Continent. It is not the published Kingmaker board."),
        "sources": [
            "Coastline: the 1 km GLOBE land/sea mask (NOAA, public domain) as packaged by "
            "global-land-mask 1.0.0, sampled 8 x 8 per square.",
            "Places, river courses, road stations and forests: public latitude/longitude of "
            "towns, castles, river mouths and historic forests, entered in make_board.py.",
            "Garrisons, capacities, sea zones, regional zones: Roses house values and "
            "choices, see docs/kingmaker/board.md.",
        ],
        "grid": {"columns": COLS, "rows": ROWS, "square_km": SQUARE_KM,
                 "projection": {"type": "sinusoidal", "central_lon": CENTRAL_LON,
                                "square_km": SQUARE_KM, "west_km": round(WEST_KM, 3),
                                "north_km": round(NORTH_KM, 3)}},
        "areas": AREAS,
        "terrain": terrain,
        "area_map": area_map,
        "zones": zones,
        "rivers": rivers,
        "estuaries": estuaries,
        "roads": roads,
        "crossings": crossings,
        "places": places,
        "landmarks": [{"id": i, "name": n, "square": sid[cell_of(la, lo)], "geo": [la, lo]}
                      for i, n, la, lo in LANDMARKS],
    }


def dump(data: dict[str, Any]) -> str:
    """JSON with one line per row, place, zone and feature (readable diffs)."""
    lines = ["{"]
    keys = list(data)
    for i, k in enumerate(keys):
        v = data[k]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(v, list) and v and not all(isinstance(x, str) and len(x) < 20 for x in v):
            lines.append(f"  {json.dumps(k)}: [")
            for j, item in enumerate(v):
                c2 = "," if j < len(v) - 1 else ""
                lines.append(f"    {json.dumps(item, ensure_ascii=False)}{c2}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--check", action="store_true", help="compare with the file, write nothing")
    ap.add_argument("--show", action="store_true", help="print the terrain and areas")
    args = ap.parse_args(argv)
    data = generate()
    faults = check_board(json.loads(dump(data)))
    for f in faults:
        print(f"fault: {f}", file=sys.stderr)
    text = dump(data)
    if args.show:
        for t, a in zip(data["terrain"], data["area_map"], strict=True):
            print(t, a)
    if args.check:
        same = Path(args.out).read_text(encoding="utf-8") == text
        print("board.json is up to date" if same else "board.json differs from the generator")
        return 0 if same and not faults else 1
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {COLS} x {ROWS} squares, {len(data['places'])} places, "
          f"{len(faults)} fault(s)")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
