"""Richard III component data: loaded from ``data.json`` and checked at import.

Everything here is a constant table indexed by small integers, built once at import so the
rules code never looks anything up by string on the hot path.

Ids
    * Areas ``0..32`` in the order of ``data.json`` (``AREA_ID["Kent"]``). Special locations
      (not areas) are ``POOL``, ``MINOR``, ``OFF``, ``DEAD`` and ``PRISON`` (see STATE.md).
    * Blocks ``0..62`` in the order of ``data.json`` (``BLOCK_ID["Warwick/Y"]``).
    * Land borders ``0..61`` (``border_between(a, b)``); the sea approaches used by Piracy
      attacks are pseudo-borders ``SEA_BORDER + zone`` (62, 63, 64).
    * Sides: ``YORK = 0``, ``LANCASTER = 1``; the Rebel's printed side is ``REBEL = 2`` (it
      always belongs to the Pretender, see common.owner).
    * Cards ``0..24``.

The loader checks the component counts (rules 2.x, 3.x) and the internal consistency of the file, and
raises ``DataError`` if anything is off.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from roses.engine.codec import IdCodec

ROLES: tuple[str, str] = ("York", "Lancaster")
YORK = 0
LANCASTER = 1
REBEL = 2
SIDE_OF_NAME = {"York": YORK, "Lancaster": LANCASTER, "Rebel": REBEL}
SIDE_LETTER = ("Y", "L", "R")

# Special locations (block "loc" values that are not areas).
POOL = 40      # in its owner's pool (face-up: recruitable; face-down: eliminated this campaign)
MINOR = 41     # a minor heir waiting to enter (4.5)
OFF = 42       # the other version of a two-version block, off-map until a defection (4.6)
DEAD = 43      # permanently eliminated (or unlisted in the scenario)
PRISON = 44    # Kingmaker: Henry VI prisoner in the Tower (p.9 note)
SPECIAL_NAMES = {POOL: "pool", MINOR: "minor", OFF: "off-map", DEAD: "dead", PRISON: "the Tower"}

# Block types.
HEIR, NOBLE, CHURCH, LEVY, BOMBARD, MERC, REBEL_T = range(7)
TYPE_OF_NAME = {"heir": HEIR, "noble": NOBLE, "church": CHURCH, "levy": LEVY, "bombard": BOMBARD,
                "merc": MERC, "rebel": REBEL_T}
TYPE_NAMES = ("heir", "noble", "church", "levy", "bombard", "merc", "rebel")

# Area kinds.
LAND, EXILE, ISLAND = 0, 1, 2
COLOR_LIMIT = {"yellow": 4, "blue": 3, "red": 2}


class DataError(Exception):
    """The data file is inconsistent."""


_RAW: dict[str, Any] = json.loads((Path(__file__).with_name("data.json")).read_text(encoding="utf-8"))

# ---------------------------------------------------------------- areas
SEA_ZONES: tuple[str, ...] = tuple(_RAW["sea_zones"])
ZONE_ID = {z: i for i, z in enumerate(SEA_ZONES)}
N_AREAS = len(_RAW["areas"])
AREA_NAMES: tuple[str, ...] = tuple(a["name"] for a in _RAW["areas"])
#: The id codec of areas: names in actions and views, ids in the state.
AREAS = IdCodec("area", AREA_NAMES)
AREA_ID: dict[str, int] = AREAS.ids
AREA_KIND: tuple[int, ...] = tuple({"land": LAND, "exile": EXILE, "island": ISLAND}[a["kind"]] for a in _RAW["areas"])
#: side whose exile area this is, or -1
EXILE_OF: tuple[int, ...] = tuple(SIDE_OF_NAME[a["exile_of"]] if a["exile_of"] else -1 for a in _RAW["areas"])
#: 0 not a port, 1 minor port, 2 major port (2.83)
PORT: tuple[int, ...] = tuple({None: 0, "minor": 1, "major": 2}[a["port"]] for a in _RAW["areas"])
AREA_SEAS: tuple[tuple[int, ...], ...] = tuple(tuple(ZONE_ID[z] for z in a["seas"]) for a in _RAW["areas"])
CROWN: tuple[bool, ...] = tuple(bool(a["crown"]) for a in _RAW["areas"])
CITY: tuple[str | None, ...] = tuple(a["city"] for a in _RAW["areas"])
CATHEDRAL: tuple[str | None, ...] = tuple(a["cathedral"] for a in _RAW["areas"])
WALES: tuple[bool, ...] = tuple(bool(a["wales"]) for a in _RAW["areas"])
AREA_SHIELDS: tuple[tuple[str, ...], ...] = tuple(tuple(a["shields"]) for a in _RAW["areas"])
#: supply limit of an area (7.1: 4, 5 with a city); exile areas use EXILE_LIMIT instead (7.2)
SUPPLY_LIMIT: tuple[int, ...] = tuple(5 if c else 4 for c in CITY)
EXILE_LIMIT: dict[int, int] = {AREA_ID[k]: v for k, v in _RAW["exile_limits"].items()}
CITY_AREA: dict[str, int] = {c: i for i, c in enumerate(CITY) if c}
CATHEDRAL_AREA: dict[str, int] = {c: i for i, c in enumerate(CATHEDRAL) if c}
EXILE_AREAS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(i for i in range(N_AREAS) if EXILE_OF[i] == YORK),
    tuple(i for i in range(N_AREAS) if EXILE_OF[i] == LANCASTER),
)
CROWN_AREAS: tuple[int, ...] = tuple(i for i in range(N_AREAS) if CROWN[i])
CITY_AREAS: tuple[int, ...] = tuple(i for i in range(N_AREAS) if CITY[i])
WALES_AREAS: tuple[int, ...] = tuple(i for i in range(N_AREAS) if WALES[i])
#: areas a block may enter at all, per side: everything but the enemy's exile areas (2.7)
ENTERABLE: tuple[tuple[bool, ...], tuple[bool, ...]] = (
    tuple(EXILE_OF[i] != LANCASTER for i in range(N_AREAS)),
    tuple(EXILE_OF[i] != YORK for i in range(N_AREAS)),
)
SHIELD_AREAS: dict[str, tuple[int, ...]] = {}
for _i, _sh in enumerate(AREA_SHIELDS):
    for _s in _sh:
        SHIELD_AREAS.setdefault(_s, ())
        SHIELD_AREAS[_s] = (*SHIELD_AREAS[_s], _i)

# ---------------------------------------------------------------- borders
BORDERS: tuple[tuple[int, int, int], ...] = tuple(
    (AREA_ID[a], AREA_ID[b], COLOR_LIMIT[c]) for a, b, c in _RAW["borders"])
N_BORDERS = len(BORDERS)
SEA_BORDER = N_BORDERS  # pseudo-border id of sea zone z is SEA_BORDER + z
BORDER_LIMIT: tuple[int, ...] = tuple(lim for _, _, lim in BORDERS)
BORDER_RED: tuple[bool, ...] = tuple(lim == 2 for lim in BORDER_LIMIT)
BORDER_COLOR: tuple[str, ...] = tuple({4: "yellow", 3: "blue", 2: "red"}[lim] for lim in BORDER_LIMIT)
_BID: dict[tuple[int, int], int] = {}
_adj: list[list[tuple[int, int]]] = [[] for _ in range(N_AREAS)]
for _i, (_a, _b, _) in enumerate(BORDERS):
    _BID[(_a, _b)] = _i
    _BID[(_b, _a)] = _i
    _adj[_a].append((_b, _i))
    _adj[_b].append((_a, _i))
#: ADJ[a] = ((neighbour, border id), ...) in a stable order
ADJ: tuple[tuple[tuple[int, int], ...], ...] = tuple(tuple(sorted(x)) for x in _adj)
NEIGHBOURS: tuple[frozenset[int], ...] = tuple(frozenset(n for n, _ in x) for x in ADJ)
#: ZONE_AREAS[z] = areas on sea zone z
ZONE_AREAS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(N_AREAS) if z in AREA_SEAS[i]) for z in range(len(SEA_ZONES)))
#: SEA_DEST[a] = areas reachable from a by one sea move (sharing a zone), a excluded
SEA_DEST: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({j for z in AREA_SEAS[i] for j in ZONE_AREAS[z] if j != i})) for i in range(N_AREAS))


def border_between(a: int, b: int) -> int:
    """Land border id between areas a and b, or -1 if they are not adjacent by land."""
    return _BID.get((a, b), -1)


def shared_zones(a: int, b: int) -> int:
    """Bit mask of the sea zones both areas touch (0 if none)."""
    m = 0
    for z in AREA_SEAS[a]:
        if z in AREA_SEAS[b]:
            m |= 1 << z
    return m


def border_name(bid: int) -> str:
    if bid >= SEA_BORDER:
        return SEA_ZONES[bid - SEA_BORDER]
    a, b, _ = BORDERS[bid]
    return f"{AREA_NAMES[a]}–{AREA_NAMES[b]}"


# ---------------------------------------------------------------- blocks
_BL = _RAW["blocks"]
N_BLOCKS = len(_BL)
BLOCK_KEY: tuple[str, ...] = tuple(b["key"] for b in _BL)
#: The id codec of blocks: keys (``"Warwick/Y"``) in actions and views, ids in the state.
BLOCKS = IdCodec("block", BLOCK_KEY)
BLOCK_ID: dict[str, int] = BLOCKS.ids
BLOCK_NAME: tuple[str, ...] = tuple(b["name"] for b in _BL)
B_SIDE: tuple[int, ...] = tuple(SIDE_OF_NAME[b["side"]] for b in _BL)
B_TYPE: tuple[int, ...] = tuple(TYPE_OF_NAME[b["type"]] for b in _BL)
B_STEPS: tuple[int, ...] = tuple(int(b["steps"]) for b in _BL)
B_INIT: tuple[str, ...] = tuple(b["rating"][0] for b in _BL)
B_FIRE: tuple[int, ...] = tuple(int(b["rating"][1]) for b in _BL)
B_LOYALTY: tuple[int, ...] = tuple(int(b["loyalty"]) for b in _BL)
B_ROSE: tuple[bool, ...] = tuple(bool(b["rose"]) for b in _BL)
B_RANK: tuple[int, ...] = tuple(int(b["rank"]) for b in _BL)
B_NEVILLE: tuple[bool, ...] = tuple(bool(b["neville"]) for b in _BL)
B_SHIELDS: tuple[tuple[str, ...], ...] = tuple(tuple(b["shields"]) for b in _BL)
B_PAIR: tuple[int, ...] = tuple(BLOCK_ID[b["pair"]] if b["pair"] else -1 for b in _BL)
#: mercenaries' home exile area (6.85); -1 for the Welsh (home is the Lancaster pool) and non-mercs
B_HOME: tuple[int, ...] = tuple(AREA_ID[b["home"]] if b["home"] else -1 for b in _BL)
#: levies: their city's area; church: their cathedral's area; else -1
B_CITY_AREA: tuple[int, ...] = tuple(CITY_AREA[b["city"]] if b["city"] else -1 for b in _BL)
B_CATH_AREA: tuple[int, ...] = tuple(CATHEDRAL_AREA[b["cathedral"]] if b["cathedral"] else -1 for b in _BL)
#: areas holding one of the block's own shields (nobles; for heirs see common.heir_shield_ok)
B_SHIELD_AREAS: tuple[frozenset[int], ...] = tuple(
    frozenset(a for s in sh for a in SHIELD_AREAS.get(s, ())) for sh in B_SHIELDS)
#: heirs of each side by rank (senior first)
HEIRS: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(sorted((i for i in range(N_BLOCKS) if B_TYPE[i] == HEIR and B_SIDE[i] == YORK), key=lambda i: B_RANK[i])),
    tuple(sorted((i for i in range(N_BLOCKS) if B_TYPE[i] == HEIR and B_SIDE[i] == LANCASTER), key=lambda i: B_RANK[i])),
)
#: two-version heirs: the heir version and its enemy-noble version (9.1)
CLARENCE_Y = BLOCK_ID["Clarence/Y"]
CLARENCE_L = BLOCK_ID["Clarence/L"]
EXETER_L = BLOCK_ID["Exeter/L"]
EXETER_Y = BLOCK_ID["Exeter/Y"]
#: for a defected heir (an enemy-noble version), the heir version it came from
DEFECTED_HEIR: dict[int, int] = {CLARENCE_L: CLARENCE_Y, EXETER_Y: EXETER_L}
WARWICK = (BLOCK_ID["Warwick/Y"], BLOCK_ID["Warwick/L"])
NO_WARWICK_TARGET = frozenset(BLOCK_ID[k] for k in (
    "Northumberland/Y", "Northumberland/L", "Westmoreland/Y", "Westmoreland/L"))
WARWICK_KIN = frozenset(BLOCK_ID[k] for k in ("Kent/Y", "Kent/L", "Salisbury/Y", "Salisbury/L"))
HENRY_VI = BLOCK_ID["Henry VI/L"]
REBEL_BLOCK = BLOCK_ID["Rebel/R"]
WELSH = BLOCK_ID["Welsh/L"]
#: personal Lancaster shields and their owners (2.2)
PERSONAL_SHIELD_OWNER: dict[str, int] = {
    "Exeter": EXETER_L, "Somerset": BLOCK_ID["Somerset/L"], "Richmond": BLOCK_ID["Richmond/L"]}
HOUSE_SHIELD = ("York", "Lancaster")
#: blocks that may never sea move (5.3); the Bombard may (ruling A6)
NO_SEA: frozenset[int] = frozenset(
    i for i in range(N_BLOCKS)
    if B_TYPE[i] in (LEVY, REBEL_T) or BLOCK_KEY[i] in ("Scots/L", "Welsh/L"))
#: blocks that count as nobles for Usurpation (8.2) in their current version: heirs, nobles, church
USURP_TYPES = frozenset((HEIR, NOBLE, CHURCH))
BLOCKS_OF: tuple[tuple[int, ...], ...] = (
    tuple(i for i in range(N_BLOCKS) if B_SIDE[i] == YORK),
    tuple(i for i in range(N_BLOCKS) if B_SIDE[i] == LANCASTER),
    (REBEL_BLOCK,),
)

# ---------------------------------------------------------------- cards
_CA = _RAW["cards"]
N_CARDS = len(_CA)
CARD_NAME: tuple[str, ...] = tuple(c["name"] for c in _CA)
CARD_AP: tuple[int, ...] = tuple(int(c["ap"]) for c in _CA)
CARD_EVENT: tuple[str | None, ...] = tuple(c["event"] for c in _CA)
#: a unique tag per card, shown only to its holder (used by secrets())
CARD_TAG: tuple[str, ...] = tuple(f"card#{i:02d}" for i in range(N_CARDS))
EVENT_CARD: dict[str, int] = {e: i for i, e in enumerate(CARD_EVENT) if e}
MULLIGAN_MAX = 13  # 5.1

# ---------------------------------------------------------------- scenarios
SCENARIOS: dict[str, dict[str, Any]] = _RAW["scenarios"]
SCENARIO_IDS: tuple[str, ...] = ("wars-of-the-roses", "kingmaker", "richard-iii")


def scenario_locations(scenario: str) -> list[int]:
    """Initial ``loc`` of every block for a scenario (unlisted: OFF if the pair is listed, else DEAD)."""
    setup: dict[str, str] = SCENARIOS[scenario]["setup"]
    loc = [DEAD] * N_BLOCKS
    special = {"Pool": POOL, "Minor": MINOR, "Prisoner": PRISON}
    for key, where in setup.items():
        loc[BLOCK_ID[key]] = special[where] if where in special else AREA_ID[where]
    for i in range(N_BLOCKS):
        if BLOCK_KEY[i] not in setup and B_PAIR[i] >= 0 and BLOCK_KEY[B_PAIR[i]] in setup:
            loc[i] = OFF
    return loc


# ---------------------------------------------------------------- checks
def check_data() -> None:
    """Check the component counts (rules 2.x, 3.x) and the consistency of the tables; raise DataError."""
    problems: list[str] = []

    def want(what: str, got: int, expected: int) -> None:
        if got != expected:
            problems.append(f"{what}: {got}, expected {expected}")

    want("areas", N_AREAS, 33)
    want("land areas", sum(1 for k in AREA_KIND if k == LAND), 28)
    want("exile areas", sum(1 for k in AREA_KIND if k == EXILE), 4)
    want("Wales areas", len(WALES_AREAS), 4)
    want("inland areas", sum(1 for i in range(N_AREAS) if AREA_KIND[i] == LAND and not AREA_SEAS[i]), 10)
    want("borders", N_BORDERS, 62)
    for color, n in (("yellow", 24), ("blue", 26), ("red", 12)):
        want(f"{color} borders", sum(1 for c in BORDER_COLOR if c == color), n)
    want("sea links", sum(len(s) for s in AREA_SEAS), 28)
    want("Irish Sea areas", len(ZONE_AREAS[ZONE_ID["Irish Sea"]]), 12)
    want("North Sea areas", len(ZONE_AREAS[ZONE_ID["North Sea"]]), 10)
    want("Channel areas", len(ZONE_AREAS[ZONE_ID["English Channel"]]), 6)
    want("coastal areas", sum(1 for s in AREA_SEAS if s), 23)
    want("two-zone areas", sum(1 for s in AREA_SEAS if len(s) == 2), 5)
    want("major ports", sum(1 for p in PORT if p == 2), 14)
    want("minor ports", sum(1 for p in PORT if p == 1), 9)
    want("crowns", len(CROWN_AREAS), 11)
    want("cities", len(CITY_AREAS), 7)
    want("cathedrals", len(CATHEDRAL_AREA), 2)
    want("shield entries", sum(len(s) for s in AREA_SHIELDS), 42)
    want("areas with shields", sum(1 for s in AREA_SHIELDS if s), 24)
    want("blocks", N_BLOCKS, 63)
    want("York blocks", len(BLOCKS_OF[YORK]), 31)
    want("Lancaster blocks", len(BLOCKS_OF[LANCASTER]), 31)
    want("two-version pairs", sum(1 for p in B_PAIR if p >= 0) // 2, 13)
    want("cards", N_CARDS, 25)
    want("action cards", sum(1 for e in CARD_EVENT if e is None), 19)
    want("deck AP", sum(CARD_AP), 62)
    for side in (YORK, LANCASTER):
        want(f"heirs of {ROLES[side]}", len(HEIRS[side]), 5)
        if [B_RANK[h] for h in HEIRS[side]] != [1, 2, 3, 4, 5]:
            problems.append(f"heir ranks of {ROLES[side]}")
    for i in range(N_BLOCKS):
        p = B_PAIR[i]
        if p >= 0 and (B_PAIR[p] != i or B_SIDE[p] == B_SIDE[i]):
            problems.append(f"pair of {BLOCK_KEY[i]}")
        if B_STEPS[i] not in (2, 3, 4) or B_FIRE[i] not in (1, 2, 3, 4) or B_INIT[i] not in "ABCD":
            problems.append(f"ratings of {BLOCK_KEY[i]}")
        for s in B_SHIELDS[i]:
            if s not in SHIELD_AREAS:
                problems.append(f"shield {s} of {BLOCK_KEY[i]} is on no area")
    for a in range(N_AREAS):
        for s in AREA_SHIELDS[a]:
            if not any(s in B_SHIELDS[i] for i in range(N_BLOCKS)):
                problems.append(f"shield {s} in {AREA_NAMES[a]} belongs to no block")
    for sid in SCENARIO_IDS:
        if sid not in SCENARIOS:
            problems.append(f"scenario {sid} missing")
            continue
        for key, where in SCENARIOS[sid]["setup"].items():
            if key not in BLOCK_ID:
                problems.append(f"{sid}: unknown block {key}")
            elif where not in ("Pool", "Minor", "Prisoner") and where not in AREA_ID:
                problems.append(f"{sid}: unknown location {where}")
        loc = scenario_locations(sid)
        for i in range(N_BLOCKS):
            p = B_PAIR[i]
            if p >= 0 and loc[i] not in (OFF, DEAD) and loc[p] not in (OFF, DEAD):
                problems.append(f"{sid}: both versions of {BLOCK_KEY[i]} in play")
    want("wars-of-the-roses Lancaster on map",
         sum(1 for i in BLOCKS_OF[LANCASTER] if scenario_locations("wars-of-the-roses")[i] < N_AREAS), 11)
    want("wars-of-the-roses Lancaster in pool",
         sum(1 for i in BLOCKS_OF[LANCASTER] if scenario_locations("wars-of-the-roses")[i] == POOL), 13)
    want("wars-of-the-roses York on map",
         sum(1 for i in BLOCKS_OF[YORK] if scenario_locations("wars-of-the-roses")[i] < N_AREAS), 9)
    want("wars-of-the-roses York pool (with the Rebel)",
         sum(1 for i in (*BLOCKS_OF[YORK], REBEL_BLOCK) if scenario_locations("wars-of-the-roses")[i] == POOL), 13)
    if problems:
        raise DataError("richard3 data: " + "; ".join(problems))


check_data()
