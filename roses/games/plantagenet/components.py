"""Plantagenet component data: loaded from ``data/*.json`` and checked when loaded.

The JSON files are our own format (see ``docs/plantagenet/data.md``). Every reference
(seats, ways, eligible Lords, Special Vassal cards) and every count is checked against
the rulebook (1.2, 1.3.1, 1.5, 1.9) and the cards by :func:`load`; a bad file raises
:class:`DataError` naming the problem.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from roses.engine.codec import IdCodec

DATA_DIR = Path(__file__).parent / "data"

SIDES = ("York", "Lancaster")
STRONGHOLD_TYPES = ("City", "Town", "Fortress", "London", "Calais", "Harlech")
SPECIAL_STRONGHOLDS = ("London", "Calais", "Harlech")
AREAS = ("North", "South", "Wales")
WAY_TYPES = ("Highway", "Road", "Path")
TROOP_TYPES = ("men_at_arms", "longbowmen", "militia", "mercenaries", "handgunners")
ASSET_TYPES = ("provender", "coin", "carts", "ships")
RATINGS = ("influence", "lordship", "command", "valour")
TIMINGS = ("hold", "this_levy", "this_campaign", "now")
RINGS = (None, "marshal", "lieutenant")
#: Conditions a structured rating modifier on a Capability may carry (see rating.py).
MOD_CONDITIONS = (None, "parley", "at_friendly_locale", "at_friendly_city", "clarence_removed",
                  "with_margaret", "with_warwick_at_friendly")
#: Conditions of a Capability's Tides of War bonus (4.8.1 "card bonuses").
TIDES_CONDITIONS = (None, "away_from_london")

#: Expected counts (rulebook 1.2, 1.3.1, 1.5.4, 1.9).
COUNTS: dict[str, int] = {
    "strongholds": 54, "cities": 25, "towns": 21, "fortresses": 5, "special_strongholds": 3,
    "exile_boxes": 4, "seas": 3, "ports": 16, "north": 6, "south": 9, "wales": 6,
    "ways": 81, "highways": 23, "roads": 52, "paths": 6, "one_way_paths": 2,
    "lords": 28, "lords_per_side": 14, "regular_vassals": 13, "special_vassals": 6,
    "aow_cards": 74, "aow_per_side": 37, "aow_0_roses": 13, "aow_1_rose": 9, "aow_2_roses": 9,
    "aow_3_roses": 6, "command_york": 40, "command_lancaster": 37,
}


class DataError(ValueError):
    """A component data file is inconsistent."""


@dataclass(frozen=True)
class Components:
    locales: dict[str, dict[str, Any]]
    seas: dict[str, dict[str, Any]]
    ways: list[tuple[str, str, str]]
    one_way: list[tuple[str, str, str]]
    lords: dict[str, dict[str, Any]]
    vassals: dict[str, dict[str, Any]]
    special_vassals: dict[str, dict[str, Any]]
    cards: dict[str, dict[str, Any]]
    tables: dict[str, Any]
    #: Derived: for each Locale, ``{neighbour: way type}`` for Ways one may travel.
    adjacency: dict[str, dict[str, str]] = field(default_factory=dict)
    #: Derived: Command cards per side, ``[card id, ...]`` e.g. ``"york-1"``, ``"pass-3"``.
    command_cards: dict[str, list[str]] = field(default_factory=dict)
    #: Names <-> ids, one codec per kind (roses.engine.codec): Locales (Strongholds, Exile
    #: boxes, Seas) in map order, Lords in card order, Arts of War cards in ``(side letter,
    #: number)`` order (so sorting by id is the deck order the state keeps), and each side's
    #: Command cards in :attr:`command_cards` order. Filled by :func:`build`.
    locale_ids: IdCodec = field(default_factory=lambda: IdCodec("locale", ()))
    lord_ids: IdCodec = field(default_factory=lambda: IdCodec("lord", ()))
    card_ids: IdCodec = field(default_factory=lambda: IdCodec("card", ()))
    command_ids: dict[str, IdCodec] = field(default_factory=dict)

    # ----- convenient views ------------------------------------------------------------
    def strongholds(self) -> list[str]:
        return [n for n, d in self.locales.items() if d["kind"] == "stronghold"]

    def exile_boxes(self) -> list[str]:
        return [n for n, d in self.locales.items() if d["kind"] == "exile"]

    def ports(self, sea: str | None = None) -> list[str]:
        return [n for n, d in self.locales.items()
                if d["kind"] == "stronghold" and d["port"] and (sea is None or d["port"] == sea)]

    def area(self, area: str) -> list[str]:
        return [n for n, d in self.locales.items() if d.get("area") == area]

    def sea_of(self, locale: str) -> str | None:
        """The Sea a Port borders, or an Exile box's arrow points to (1.3.1)."""
        d = self.locales[locale]
        return d.get("port") if d["kind"] == "stronghold" else d.get("sea")

    def command_cards_of(self, lord: str) -> list[str]:
        """The Command cards of a Lord: his badge's cards (1.9.2; versions of a Lord share them, 1.5.1)."""
        badge = self.lords[lord]["badge"]
        return [cid for cid in self.command_cards[self.lords[lord]["side"]] if cid.rsplit("-", 1)[0] == badge]

    def badges(self, side: str) -> list[str]:
        seen: list[str] = []
        for lord in self.lords.values():
            if lord["side"] == side and lord["badge"] not in seen:
                seen.append(lord["badge"])
        return seen


def _fail(msg: str) -> None:
    raise DataError(msg)


def _read(name: str) -> Any:
    with open(DATA_DIR / name, encoding="utf-8") as fh:
        return json.load(fh)


def _check_locales(locales: dict[str, Any], seas: dict[str, Any]) -> None:
    for name, d in locales.items():
        kind = d.get("kind")
        if kind == "stronghold":
            if d.get("type") not in STRONGHOLD_TYPES:
                _fail(f"{name}: bad stronghold type {d.get('type')!r}")
            if d.get("area") not in (None, *AREAS):
                _fail(f"{name}: bad area {d.get('area')!r}")
            if d.get("port") is not None and d["port"] not in seas:
                _fail(f"{name}: port on unknown sea {d['port']!r}")
        elif kind == "exile":
            if d.get("sea") not in seas:
                _fail(f"{name}: exile box on unknown sea {d.get('sea')!r}")
        elif kind == "sea":
            if name not in seas:
                _fail(f"{name}: sea missing from the seas table")
        else:
            _fail(f"{name}: bad kind {kind!r}")
    for sea, d in seas.items():
        for other in d["adjacent"]:
            if other not in seas or sea not in seas[other]["adjacent"]:
                _fail(f"sea adjacency {sea}-{other} is not symmetric")


def _check_ways(locales: dict[str, Any], ways: list[Any], one_way: list[Any]) -> None:
    seen: set[frozenset[str]] = set()
    for a, b, t in ways:
        for end in (a, b):
            if end not in locales or locales[end]["kind"] != "stronghold":
                _fail(f"way {a}-{b}: {end} is not a Stronghold")
        if t not in WAY_TYPES:
            _fail(f"way {a}-{b}: bad type {t!r}")
        key = frozenset((a, b))
        if key in seen or a == b:
            _fail(f"way {a}-{b} duplicated")
        seen.add(key)
    for a, b, t in one_way:
        if locales.get(a, {}).get("kind") != "exile" or locales.get(b, {}).get("kind") != "stronghold":
            _fail(f"one-way way {a}->{b} must lead from an Exile box to a Stronghold")
        if t != "Path":
            _fail(f"one-way way {a}->{b} must be a Path (1.3.1)")


def _check_lords(lords: dict[str, Any], locales: dict[str, Any]) -> None:
    for lid, d in lords.items():
        if d["side"] not in SIDES:
            _fail(f"lord {lid}: bad side")
        if locales.get(d["seat"], {}).get("kind") != "stronghold":
            _fail(f"lord {lid}: seat {d['seat']!r} is not a Stronghold")
        if d["ring"] not in RINGS:
            _fail(f"lord {lid}: bad ring")
        if d["heir"] is not None and not (isinstance(d["heir"], int) and 1 <= d["heir"] <= 6):
            _fail(f"lord {lid}: bad heir rank")
        for r in RATINGS:
            if not isinstance(d[r], int) or not 0 <= d[r] <= 6:
                _fail(f"lord {lid}: bad {r}")
        if set(d["troops"]) != {"men_at_arms", "longbowmen", "militia"}:
            _fail(f"lord {lid}: troops must list men_at_arms, longbowmen, militia")
        if set(d["assets"]) != set(ASSET_TYPES):
            _fail(f"lord {lid}: assets must list {ASSET_TYPES}")
        if sum(d["troops"].values()) < 1:
            _fail(f"lord {lid}: a Lord starts with Troops (1.6)")
        if d["assets"]["ships"] > 2:
            _fail(f"lord {lid}: at most 2 Ships (1.7.3)")


def _check_vassals(vassals: dict[str, Any], special: dict[str, Any], locales: dict[str, Any],
                   cards: dict[str, Any]) -> None:
    for vid, d in vassals.items():
        if locales.get(d["seat"], {}).get("kind") != "stronghold":
            _fail(f"vassal {vid}: seat is not a Stronghold")
        if d["service"] not in (1, 2, 3):
            _fail(f"vassal {vid}: bad service")
        loy = d["loyalty"]
        if loy is not None and (loy["side"] not in SIDES or loy["value"] not in (1, 2)):
            _fail(f"vassal {vid}: bad loyalty")
    for vid, d in special.items():
        card = cards.get(d["card"])
        if card is None or card["capability"].get("special_vassal") != vid:
            _fail(f"special vassal {vid}: card {d['card']} does not place it")


def _check_cards(cards: dict[str, Any], lords: dict[str, Any], special: dict[str, Any]) -> None:
    for cid, d in cards.items():
        side = d["side"]
        if side not in SIDES or cid[0] != side[0] or not cid[1:].isdigit():
            _fail(f"card {cid}: bad id or side")
        if d["roses"] not in (0, 1, 2, 3):
            _fail(f"card {cid}: bad roses")
        if d["event"]["timing"] not in TIMINGS:
            _fail(f"card {cid}: bad event timing")
        for half in ("event", "capability"):
            if not d[half].get("title") or not d[half].get("effect"):
                _fail(f"card {cid}: {half} needs a title and an effect")
        cap = d["capability"]
        badges = {lord["badge"] for lord in lords.values() if lord["side"] == side}
        # L23 Montagu names Warwick, who exists on both sides; Lords named are of the card's side.
        if cap["lords"] != "any":
            if not isinstance(cap["lords"], list) or not cap["lords"]:
                _fail(f"card {cid}: eligible lords must be 'any' or a list")
            for b in cap["lords"]:
                if b not in badges:
                    _fail(f"card {cid}: eligible badge {b!r} is not a {side} Lord")
        for mod in cap.get("mods", []):
            if mod["rating"] not in RATINGS or mod["when"] not in MOD_CONDITIONS:
                _fail(f"card {cid}: bad rating modifier {mod}")
        tides = cap.get("tides")
        if tides is not None and (tides["when"] not in TIDES_CONDITIONS or not 1 <= tides["points"] <= 3):
            _fail(f"card {cid}: bad Tides of War bonus")
        if "special_vassal" in cap and cap["special_vassal"] not in special:
            _fail(f"card {cid}: unknown special vassal")


def _check_tables(tables: dict[str, Any]) -> None:
    if set(tables["troop_pool"]) != set(TROOP_TYPES):
        _fail("troop pool must list every troop type")
    if sum(tables["troop_pool"].values()) != 128:
        _fail("troop pool must total 128 (1.2)")
    if set(tables["strongholds"]) != set(STRONGHOLD_TYPES):
        _fail("strongholds table must list every stronghold type")
    for t, row in tables["strongholds"].items():
        if any(k not in TROOP_TYPES for k in row["levy"]):
            _fail(f"strongholds table {t}: bad troop type")
    if set(tables["forces"]) != {"retinue", "vassal", *TROOP_TYPES}:
        _fail("forces table must list retinue, vassal and every troop type")
    cal = tables["calendar"]
    if cal["boxes"] != 15 or set(cal["plan_size"]) != set(cal["seasons"]):
        _fail("calendar table is inconsistent")


def _derive_adjacency(locales: dict[str, Any], ways: list[tuple[str, str, str]],
                      one_way: list[tuple[str, str, str]]) -> dict[str, dict[str, str]]:
    adj: dict[str, dict[str, str]] = {n: {} for n in locales}
    for a, b, t in ways:
        adj[a][b] = t
        adj[b][a] = t
    for a, b, t in one_way:
        adj[a][b] = t
    return adj


def _count(c: Components) -> dict[str, int]:
    sh = c.strongholds()
    types = [c.locales[n]["type"] for n in sh]
    ways_t = [t for _, _, t in c.ways]
    cards = list(c.cards.values())
    return {
        "strongholds": len(sh), "cities": types.count("City"), "towns": types.count("Town"),
        "fortresses": types.count("Fortress"),
        "special_strongholds": sum(types.count(t) for t in SPECIAL_STRONGHOLDS),
        "exile_boxes": len(c.exile_boxes()), "seas": len(c.seas), "ports": len(c.ports()),
        "north": len(c.area("North")), "south": len(c.area("South")), "wales": len(c.area("Wales")),
        "ways": len(c.ways), "highways": ways_t.count("Highway"), "roads": ways_t.count("Road"),
        "paths": ways_t.count("Path"), "one_way_paths": len(c.one_way),
        "lords": len(c.lords),
        "lords_per_side": min(sum(1 for d in c.lords.values() if d["side"] == s) for s in SIDES),
        "regular_vassals": len(c.vassals), "special_vassals": len(c.special_vassals),
        "aow_cards": len(cards),
        "aow_per_side": min(sum(1 for d in cards if d["side"] == s) for s in SIDES),
        "aow_0_roses": sum(1 for d in cards if d["roses"] == 0) // 2,
        "aow_1_rose": sum(1 for d in cards if d["roses"] == 1) // 2,
        "aow_2_roses": sum(1 for d in cards if d["roses"] == 2) // 2,
        "aow_3_roses": sum(1 for d in cards if d["roses"] == 3) // 2,
        "command_york": len(c.command_cards["York"]),
        "command_lancaster": len(c.command_cards["Lancaster"]),
    }


def build(raw_map: dict[str, Any], lords: dict[str, Any], vassals: dict[str, Any],
          cards: dict[str, Any], tables: dict[str, Any]) -> Components:
    """Check raw data and build :class:`Components` (raises :class:`DataError`)."""
    locales, seas = raw_map["locales"], raw_map["seas"]
    ways = [tuple(w) for w in raw_map["ways"]]
    one_way = [tuple(w) for w in raw_map["one_way_ways"]]
    _check_locales(locales, seas)
    _check_ways(locales, raw_map["ways"], raw_map["one_way_ways"])
    _check_lords(lords, locales)
    _check_cards(cards, lords, vassals["special"])
    _check_vassals(vassals["regular"], vassals["special"], locales, cards)
    _check_tables(tables)
    c = Components(locales=locales, seas=seas, ways=ways, one_way=one_way,
                   lords=lords, vassals=vassals["regular"], special_vassals=vassals["special"],
                   cards=cards, tables=tables,
                   locale_ids=IdCodec("locale", locales), lord_ids=IdCodec("lord", lords),
                   card_ids=IdCodec("card", sorted(cards, key=lambda cid: (cid[0], int(cid[1:])))))
    c.adjacency.update(_derive_adjacency(locales, c.ways, c.one_way))
    per = tables["command_cards_per_lord_badge"]
    for side in SIDES:
        deck = [f"{b}-{i}" for b in c.badges(side) for i in range(1, per + 1)]
        deck += [f"pass-{i}" for i in range(1, tables["pass_cards_per_side"] + 1)]
        c.command_cards[side] = deck
        c.command_ids[side] = IdCodec(f"{side} Command card", deck)
    counts = _count(c)
    for key, want in COUNTS.items():
        if counts[key] != want:
            _fail(f"count {key}: {counts[key]} in the data, {want} expected")
    return c


@cache
def load() -> Components:
    """The checked component data (cached)."""
    return build(_read("map.json"), _read("lords.json"), _read("vassals.json"),
                 _read("cards.json"), _read("tables.json"))
