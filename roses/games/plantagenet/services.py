"""Core rule services of Plantagenet, each citing its rule section.

All functions work on the plain state dict built by :mod:`setup`. Sides are ``"York"`` and
``"Lancaster"``. Nothing here asks a player anything: choices are parameters.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from typing import Any, Final

from roses.engine import rng
from roses.engine.contract import DRAW
from roses.engine.log import public
from roses.games.plantagenet import effects as fx
from roses.games.plantagenet.components import AREAS, SIDES, Components
from roses.games.plantagenet.components import load as load_components
from roses.games.plantagenet.decks import add_command_cards, remove_command_cards
from roses.games.plantagenet.records import LordRecord, VassalWhere, Where, put_lord
from roses.games.plantagenet.setup import new_mat, other, scenario_of, threshold

State = dict[str, Any]

INFLUENCE_CAP: Final = 45
#: The Calendar's boxes (2.2.3) and the positions just off its ends (RULINGS R4).
FIRST_BOX: Final = 1
LAST_BOX: Final = 15
OFF_LEFT: Final = 0
OFF_RIGHT: Final = 16


#: The component data (:func:`.components.load`), kept at the first call.
_COMPONENTS: Final[list[Components]] = []


def load() -> Components:
    """The checked component data, :func:`.components.load` kept in a module table: the rules
    ask for it at most actions, and a function behind ``functools.cache`` is a Python call
    even compiled, where a module table is read from a C static."""
    if not _COMPONENTS:
        _COMPONENTS.append(load_components())
    return _COMPONENTS[0]


# ----- 1.4 Influence ----------------------------------------------------------------------

def influence_of(state: State, side: str) -> int:
    """A side's Influence points read off the net track (1.4.1): the leader's lead, else 0."""
    net = int(state["influence"])
    return max(0, net) if side == "York" else max(0, -net)


def gain_influence(state: State, side: str, n: int) -> None:
    """``side`` gains ``n`` (may be negative) Influence points; the net never exceeds 45 (1.4.1)."""
    sign = 1 if side == "York" else -1
    state["influence"] = max(-INFLUENCE_CAP, min(INFLUENCE_CAP, int(state["influence"]) + sign * n))


def lose_influence(state: State, side: str, n: int) -> None:
    """Spending or losing points pushes the net toward the other side (1.4.1 NOTE)."""
    gain_influence(state, side, -n)


def check_cost(extra: int = 0, ways: int = 0, surcharge: int = 0) -> int:
    """Influence points an Influence check costs (1.4.2): 1, plus 1 or 3 extra, plus 1 per Way."""
    if extra not in (0, 1, 3):
        raise ValueError("An Influence check may add 1 or 3 points, never 2 (1.4.2).")
    if ways < 0:
        raise ValueError("ways must be >= 0")
    return 1 + extra + ways + surcharge


def check_rating(rating: int, extra: int = 0, vassal: str | None = None, side: str | None = None) -> int:
    """The modified Influence rating for a check (1.4.2): +1 for 1 extra point, +2 for 3;
    a Vassal's Loyalty is added if its colour is the Levying side's, else subtracted."""
    bonus = {0: 0, 1: 1, 3: 2}.get(extra)
    if bonus is None:
        raise ValueError("An Influence check may add 1 or 3 points, never 2 (1.4.2).")
    r = rating + bonus
    if vassal is not None:
        loyalty = load().vassals[vassal]["loyalty"]
        if loyalty is not None:
            r += loyalty["value"] if loyalty["side"] == side else -loyalty["value"]
    return r


def check_succeeds(roll: int, rating: int) -> bool:
    """1.4.2: success on a roll <= rating; a 1 always succeeds and a 6 always fails."""
    if roll == 1:
        return True
    if roll == 6:
        return False
    return roll <= rating


def influence_check(state: State, side: str, lord: str, *, extra: int = 0, ways: int = 0,
                    vassal: str | None = None, parley: bool = False, surcharge: int = 0,
                    sure: bool = False) -> dict[str, Any]:
    """Pay for and roll an Influence check (1.4.2). Returns ``{"success", "roll", "cost", "target"}``.

    Cards may change the cost by ``surcharge`` (more, or fewer if negative; never below 0) and
    make the check ``sure`` (it succeeds without a roll: ``roll`` is None)."""
    cost = max(0, check_cost(extra, ways) + surcharge)
    rating = modified_rating(state, lord, "influence", parley=parley)
    target = check_rating(rating, extra, vassal, side)
    lose_influence(state, side, cost)
    if sure:
        return {"success": True, "roll": None, "cost": cost, "target": target}
    roll = rng.roll(state)
    ok = check_succeeds(roll, target)
    return {"success": ok, "roll": roll, "cost": cost, "target": target}


# ----- 1.5.2 ratings and their modifiers ---------------------------------------------------

def _mod_applies(state: State, lord: str, when: str | None, parley: bool) -> bool:
    at = state["lords"][lord]["locale"]
    side = load().lords[lord]["side"]
    if when is None:
        return True
    if when == "parley":
        return parley
    if when == "at_friendly_locale":
        return at is not None and is_friendly(state, at, side)
    if when == "at_friendly_city":
        return at is not None and is_friendly(state, at, side) and load().locales[at].get("type") == "City"
    if when == "clarence_removed":
        return state["lords"].get("clarence", {}).get("where") == Where.REMOVED
    if when == "with_margaret":
        m = state["lords"].get("margaret")
        return bool(m) and m["where"] == Where.MAP and m["locale"] == at
    if when == "with_warwick_at_friendly":
        w = state["lords"].get("warwick_l")
        return (bool(w) and w["where"] == Where.MAP and w["locale"] == at
                and at is not None and is_friendly(state, at, side))
    return False


def modified_rating(state: State, lord: str, rating: str, *, parley: bool = False) -> int:
    """A Lord's rating with his Capabilities' structured modifiers applied (1.5.2, 1.9.1)."""
    c = load()
    value = int(c.lords[lord][rating])
    mat = state["lords"][lord].get("mat")
    if mat:
        for cid in mat["capabilities"]:
            for mod in c.cards[cid]["capability"].get("mods", []):
                if mod["rating"] == rating and _mod_applies(state, lord, mod["when"], parley):
                    value += mod["delta"]
    if state["aow"]["York"]["in_effect"] and _lord_sides()[lord] == "York":
        value += _york_event_bonus(state, lord, rating, parley)
    return value


#: Yorkist Gloucester (not as Richard III), named by Y32 and Y33.
GLOUCESTERS: Final = ("gloucester_1", "gloucester_2")


def _york_event_bonus(state: State, lord: str, rating: str, parley: bool) -> int:
    """Rating changes by the Yorkist This Levy Events in effect (1.5.2, 3.1.3): Y14 Richard of
    York (+1 Influence for Parley), Y35 Privy Council (+1 Influence), Y20 Yorkist Parade (+2
    Influence during a Levy), Y22 Loyalty and Trust (+3 Lordship to the Lord chosen), Y33
    Edward V (+3 Lordship to Gloucester)."""
    bonus = 0
    if rating == "influence":
        if parley and fx.event_on(state, "richard_of_york", "York"):
            bonus += 1
        if fx.event_on(state, "privy_council", "York"):
            bonus += 1
        if fx.event_on(state, "yorkist_parade", "York") and fx.in_levy(state):
            bonus += 2
    elif rating == "lordship":
        if fx.event_on(state, "loyalty_and_trust", "York") and fx.book(state).get("loyalty_and_trust") == lord:
            bonus += 3
        if lord in GLOUCESTERS and fx.event_on(state, "edward_v", "York"):
            bonus += 3
    return bonus


# ----- 1.3.1 Favour, Depleted/Exhausted ----------------------------------------------------

def favour(state: State, locale: str) -> str | None:
    return state["favour"].get(locale)


def is_friendly(state: State, locale: str, side: str) -> bool:
    """Strongholds with the side's Favour, and Exile boxes aligned to the side (1.3.1, 3.4 NOTE).
    Only Strongholds have Favour and only Exile boxes an alignment (checked by the invariants),
    so one look-up in each answers for any Locale."""
    return state["favour"].get(locale) == side or state["exile_boxes"].get(locale) == side


def is_enemy(state: State, locale: str, side: str) -> bool:
    return is_friendly(state, locale, other(side))


def set_favour(state: State, locale: str, side: str | None) -> None:
    if locale == "London" and side != "York":
        state["london_for_york"] = False  # Y15: the second Yorkist marker goes with the Favour
    if side is None:
        state["favour"].pop(locale, None)
    else:
        state["favour"][locale] = side


def shift_favour_toward(state: State, locale: str, side: str) -> None:
    """One step toward ``side``: Enemy -> Neutral or Neutral -> Friendly (3.4.1, 3.2.1)."""
    cur = favour(state, locale)
    if cur == side:
        return
    set_favour(state, locale, None if cur == other(side) else side)


def deplete(state: State, locale: str) -> None:
    """Troop Levy, Supply, Forage, Tax: none -> Depleted -> Exhausted (1.3.1)."""
    cur = state["exhaustion"].get(locale)
    state["exhaustion"][locale] = "depleted" if cur is None else "exhausted"


def exhaust(state: State, locale: str) -> None:
    """Pillage always Exhausts (1.3.1, 3.2.1)."""
    state["exhaustion"][locale] = "exhausted"


def is_exhausted(state: State, locale: str) -> bool:
    return state["exhaustion"].get(locale) == "exhausted"


def grow(state: State) -> None:
    """4.8.4: remove Depleted markers, then flip Exhausted to Depleted."""
    state["exhaustion"] = {loc: "depleted" for loc, v in state["exhaustion"].items() if v == "exhausted"}


def net_stronghold_favour(state: State) -> dict[str, tuple[str | None, int]]:
    """1.3.1 Net Stronghold Favour, derived from the map: ``{type: (leader or None, lead)}``."""
    types = _locale_types()
    count = {t: 0 for t in STRONGHOLD_TYPES}  # York's Strongholds minus Lancaster's, by type
    for loc, s in state["favour"].items():
        t = types.get(loc)
        if t in count:
            count[t] += 1 if s == "York" else -1 if s == "Lancaster" else 0
    return {t: ("York", n) if n > 0 else ("Lancaster", -n) if n < 0 else (None, 0) for t, n in count.items()}


#: The Stronghold types compared by Net Stronghold Favour (1.3.1), in their order.
STRONGHOLD_TYPES: Final = ("City", "Town", "Fortress")


@cache
def _locale_types() -> dict[str, str]:
    """Each Locale's Stronghold type (those that have one), computed once."""
    return {loc: str(d["type"]) for loc, d in load().locales.items() if d.get("type")}


def dominates(state: State, side: str, area: str) -> bool:
    """1.3.1 AREAS: Favour at every Stronghold of the Area."""
    fav = state["favour"]
    return all(fav.get(loc) == side for loc in _areas()[area])


@cache
def _areas() -> dict[str, frozenset[str]]:
    """The Strongholds of each Area (1.3.1), computed once."""
    c = load()
    return {a: frozenset(c.area(a)) for a in AREAS}


@cache
def _area_of() -> dict[str, str]:
    """The Area of each Stronghold that has one (1.3.1), computed once."""
    return {loc: area for area, locs in _areas().items() for loc in locs}


def area_locales(area: str) -> frozenset[str]:
    """The Strongholds of an Area (1.3.1), from a table computed once."""
    return _areas()[area]


#: Capabilities that let a side Dominate an Area with fewer Strongholds (4.8.1): key, the
#: Area, the Strongholds needed (Y19 Welshmen, Y21 Southerners, L16 Northmen).
DOMINATION_CARDS: Final = (("welshmen", "Wales", 3), ("southerners", "South", 5), ("northmen", "North", 3))


def card_dominates(state: State, side: str, area: str, lords: list[str] | None = None) -> bool:
    """Y19 Welshmen, Y21 Southerners, L16 Northmen (for Tides of War, 4.8.1): the side
    Dominates the Area while the Lord with the Capability is at one of its Strongholds and at
    least so many of them are Friendly. ``lords``: :func:`on_map` of the side, if the caller has it."""
    for key, where, need in DOMINATION_CARDS:
        if where != area:
            continue
        for cid in fx.capability_cards(key):
            if fx.card_side(cid) != side:
                continue
            for lid in on_map(state, side) if lords is None else lords:
                d = state["lords"][lid]
                if cid in d["mat"]["capabilities"] and d["locale"] in _areas()[area]:
                    fav = state["favour"]
                    return sum(1 for loc in _areas()[area] if fav.get(loc) == side) >= need
    return False


def exile_boxes_for(state: State, lord: str) -> list[str]:
    """The Exile boxes a Lord may use (1.3.1, 3.3.1): Friendly to his side and, where the
    scenario has Allied Networks (Ia, War I), the one listed for his badge."""
    c = load()
    side = side_of(lord)
    boxes = sorted(b for b, s in state["exile_boxes"].items() if s == side)
    nets = state.get("allied_networks")
    if nets:
        allowed = nets.get(c.lords[lord]["badge"])
        boxes = [b for b in boxes if b == allowed]
    return boxes


# ----- Lords on the map ----------------------------------------------------------------------

def side_of(lord: str) -> str:
    return _lord_sides()[lord]


def lords_at(state: State, locale: str, side: str | None = None) -> list[str]:
    """The Lords at a Locale or, for a Sea, the Lords at that Sea (4.6.1), who may Share (1.5.3)."""
    placed = _PLACED
    lrec = state["lords"]
    if side is None:
        return [lid for lid, d in lrec.items() if d["locale"] == locale and d["where"] in placed]
    out = []
    for lid in (_SIDES_IN.get(tuple(lrec)) or sides_in(lrec))[side]:
        d = lrec[lid]
        if d["locale"] == locale and d["where"] in placed:
            out.append(lid)
    return out


#: Where a Lord has a ``locale``: on the map or at Sea.
_PLACED: Final = (Where.MAP, Where.SEA)

#: :func:`setup.other` as a table.
_OTHER: Final = {"York": "Lancaster", "Lancaster": "York"}


def sides_in(lords: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """The Lords of ``lords`` (a state's ``lords``) of each side, in their order there. Made once
    per distinct list of Lord ids (a scenario's Lords change only when one arrives by 6.2.2)."""
    key = tuple(lords)
    hit = _SIDES_IN.get(key)
    if hit is None:
        sides = _lord_sides()
        hit = {side: tuple(lid for lid in key if sides[lid] == side) for side in SIDES}
        if len(_SIDES_IN) >= 1024:  # bounded
            _SIDES_IN.clear()
        _SIDES_IN[key] = hit
    return hit


_SIDES_IN: Final[dict[tuple[str, ...], dict[str, tuple[str, ...]]]] = {}


def on_map(state: State, side: str) -> list[str]:
    """Lords 'on the map': at Strongholds or in Exile boxes (1.3.1)."""
    lrec, on = state["lords"], Where.MAP
    return [lid for lid in (_SIDES_IN.get(tuple(lrec)) or sides_in(lrec))[side] if lrec[lid]["where"] == on]


def any_on_map(state: State, side: str) -> bool:
    """Whether :func:`on_map` of ``side`` names anyone."""
    lrec, on = state["lords"], Where.MAP
    for lid in (_SIDES_IN.get(tuple(lrec)) or sides_in(lrec))[side]:  # noqa: SIM110 (a loop is faster than any())
        if lrec[lid]["where"] == on:
            return True
    return False


def enemy_lords_at(state: State, locale: str, side: str) -> bool:
    """Whether :func:`lords_at` ``locale`` names Lords of ``side``'s Enemy."""
    lrec = state["lords"]
    for lid in (_SIDES_IN.get(tuple(lrec)) or sides_in(lrec))[_OTHER[side]]:
        d = lrec[lid]
        if d["locale"] == locale and d["where"] in _PLACED:
            return True
    return False


# ----- 3.4.1, 4.5.1, 4.6.3, 4.6.4 Routes ------------------------------------------------------

@cache
def _sea_ports() -> dict[str, tuple[str, ...]]:
    """Each Sea's Ports (1.3.1), computed once."""
    c = load()
    return {sea: tuple(c.ports(sea)) for sea in c.seas}


# The tables below that the rules ask for at most actions are module tables made at their first
# call, not functions behind ``functools.cache``: a cached function is a Python call even
# compiled, where a module table is read from a C static (bench/plantagenet.md, "Tables made once").
_STRONGHOLDS: Final[set[str]] = set()
_ADJACENT: Final[dict[str, tuple[str, ...]]] = {}


def _strongholds() -> set[str]:
    """The Strongholds (1.3.1), computed once (read only)."""
    if not _STRONGHOLDS:
        _STRONGHOLDS.update(loc for loc, d in load().locales.items() if d["kind"] == "stronghold")
    return _STRONGHOLDS


def _adjacent() -> dict[str, tuple[str, ...]]:
    """Each Locale's neighbours by Way (1.3.1), computed once."""
    if not _ADJACENT:
        _ADJACENT.update({loc: tuple(nbrs) for loc, nbrs in load().adjacency.items()})
    return _ADJACENT


def _neighbours(state: State, locale: str, lord: str | None, ships: bool, great: bool = False) -> Sequence[str]:
    """Adjacent Locales by Way, plus same-Sea Ports (and the Lord's own Exile box) if he has a
    Ship (1.3.1 SEAS AND PORTS, 3.4.1). ``great``: Y6/L6 Great Ships link every Port of every
    Sea, as if all were on one Sea (RULINGS R86)."""
    if not ships:
        return _adjacent()[locale]
    c = load()
    out = list(c.adjacency[locale])
    if ships:
        sea = c.sea_of(locale)
        here_kind = c.locales[locale]["kind"]
        own_box = state["lords"][lord]["locale"] if lord else None
        if sea and (here_kind == "stronghold" or locale == own_box):
            out += [p for p in (_all_ports() if great else _sea_ports()[sea]) if p != locale]
            if own_box and c.locales[own_box]["kind"] == "exile" and (great or c.sea_of(own_box) == sea) \
                    and own_box != locale:
                out.append(own_box)
    return out


@cache
def _all_ports() -> tuple[str, ...]:
    """Every Port of every Sea (1.3.1), for Y6/L6 Great Ships."""
    return tuple(p for ports in _sea_ports().values() for p in ports)


def great_ships(state: State, lord: str | None) -> bool:
    """Y6/L6 Great Ships on the Lord's mat."""
    if lord is None:
        return False
    mat = state["lords"][lord]["mat"]
    return bool(mat and mat["capabilities"]) and fx.capability(state, lord, "great_ships") is not None


def ships_of(state: State, lord: str) -> int:
    """The Lord's Ships as they count for Sail and Supply: twice with Great Ships (RULINGS R86)."""
    n = int(state["lords"][lord]["mat"]["assets"]["ships"])
    return 2 * n if n and great_ships(state, lord) else n


_LORD_SIDES: Final[dict[str, str]] = {}


def _lord_sides() -> dict[str, str]:
    """Each Lord's side, by id, computed once (a module table, as :func:`_strongholds`)."""
    if not _LORD_SIDES:
        _LORD_SIDES.update({lid: str(d["side"]) for lid, d in load().lords.items()})
    return _LORD_SIDES


#: Each Lord's side, by id (a read-only table).
lord_sides = _lord_sides


@cache
def _side_lords() -> dict[str, tuple[str, ...]]:
    """Each side's Lord ids, from the data."""
    out: dict[str, list[str]] = {}
    for lid, side in _lord_sides().items():
        out.setdefault(side, []).append(lid)
    return {side: tuple(v) for side, v in out.items()}


#: A memo for one look at an unchanging state (one menu: :meth:`campaign.Actions.options`), shared by
#: :func:`enemy_locales`, :func:`route_tree` and the target lists that use them. Never kept across
#: a change of the state; what it holds must not be changed by the callers.
Memo = dict[tuple[Any, ...], Any]


def enemy_locales(state: State, side: str, memo: Memo | None = None) -> set[str]:
    """The Locales (and Seas) where Lords of ``side``'s Enemy are."""
    if memo is not None:
        hit: set[str] | None = memo.get(("enemy", side))
        if hit is not None:
            return hit
    lrec = state["lords"]
    out = set()
    for lid in (_SIDES_IN.get(tuple(lrec)) or sides_in(lrec))[_OTHER[side]]:
        d = lrec[lid]
        if d["where"] in _PLACED:
            out.add(d["locale"])
    if memo is not None:
        memo["enemy", side] = out
    return out


def route_tree(state: State, side: str, start: str, *, lord: str | None = None,
               ships: bool = False, blocked: set[str] | None = None,
               memo: Memo | None = None) -> tuple[dict[str, int], dict[str, int]]:
    """Every Route from ``start`` at once (one breadth-first search, 3.4.1, 4.5.1, 4.6.3).

    Returns ``(friendly, beyond)``: the fewest Ways from ``start`` to each Locale reached by a
    chain of adjacent Friendly Locales free of Enemy Lords (``start`` itself at 0), and to each
    Stronghold free of Enemy Lords but not Friendly one Way beyond such a chain (the targets
    only Parley may reach). Both are empty when ``start`` is not Friendly or holds Enemy Lords.
    Ship hops as in :func:`route_ways`. ``blocked``: :func:`enemy_locales` if the caller has it.
    With ``memo`` (:data:`Memo`) the same search is made once.
    """
    key: tuple[Any, ...] = ("tree", side, start, lord if ships else None, ships)
    if memo is not None:
        hit: tuple[dict[str, int], dict[str, int]] | None = memo.get(key)
        if hit is not None:
            return hit
    if blocked is None:
        blocked = enemy_locales(state, side, memo)
    dist: dict[str, int] = {}
    beyond: dict[str, int] = {}
    if start not in blocked and (state["favour"].get(start) == side or state["exile_boxes"].get(start) == side):
        # else: Enemy Lords there, or not Friendly (is_friendly): no Route
        strongholds = _strongholds()
        great = ships and great_ships(state, lord)  # Y6/L6 Great Ships: every Port linked (R86)
        favour = state["favour"].get
        boxes = state["exile_boxes"]  # 1.3.1 EXILE BOXES are Friendly too
        adjacent = _adjacent()
        dist[start] = 0
        seen = set(blocked)  # Locales already placed (or blocked): a Locale's kind never changes
        seen.add(start)
        frontier = [start]
        dn = 0
        while frontier:  # one ring of Ways at a time (the order of a queue)
            dn += 1
            ring: list[str] = []
            for loc in frontier:
                for nxt in _neighbours(state, loc, lord, ships, great) if ships else adjacent[loc]:
                    if nxt in seen:
                        continue
                    seen.add(nxt)
                    if favour(nxt) == side or (nxt in boxes and boxes[nxt] == side):
                        dist[nxt] = dn
                        ring.append(nxt)
                    elif nxt in strongholds:
                        beyond[nxt] = dn
            frontier = ring
    if memo is not None:
        memo[key] = (dist, beyond)
    return dist, beyond


def route_ways(state: State, side: str, start: str, target: str, *, purpose: str,
               lord: str | None = None, ships: bool = False) -> int | None:
    """The fewest Ways of a Route from ``start`` to ``target``, or None if there is none.

    A Route is a chain of adjacent Locales free of Enemy Lords; every Locale on it is Friendly
    except, for Parley, the target (3.4.1); for Supply and Tax the Source/target too must be
    Friendly (4.5.1, 4.6.3). With a Ship, Ports and the Lord's Exile box on the same Sea are one
    Way apart (1.3.1); Supply never crosses a Sea overland (4.5.1), so ``ships`` should be False
    for an overland Supply Route.
    """
    if purpose not in ("parley", "supply", "tax"):
        raise ValueError(purpose)
    if start == target:
        return 0
    # 3.4.1: from a non-Friendly location only that location may be targeted (route_tree is empty)
    friendly, beyond = route_tree(state, side, start, lord=lord, ships=ships)
    if purpose == "parley":
        if target in beyond:
            return beyond[target]
        if load().locales[target]["kind"] != "stronghold":
            return None
    return friendly.get(target)


def lord_has_ships(state: State, lord: str) -> bool:
    mat = state["lords"][lord].get("mat")
    return bool(mat and mat["assets"]["ships"] > 0)


def parley_targets(state: State, lord: str, *, campaign: bool = False, london: bool = False,
                   memo: Memo | None = None) -> dict[str, int]:
    """Strongholds a Lord may Parley and the Ways to each (3.4.1; 4.6.4 limits Campaign range
    to one Way or one Sea hop). The Lord's own non-Friendly Stronghold is the only target then.
    While London holds two Yorkist markers (Y15 London for York) Lancastrians may not Parley it
    unless an Event aids them (``london``, L17, L18)."""
    c = load()
    side = _lord_sides()[lord]
    d = state["lords"][lord]
    here = d["locale"]
    mat = d.get("mat")
    ships = bool(mat and mat["assets"]["ships"] > 0)  # lord_has_ships
    fav = state["favour"]
    friendly_here = fav.get(here) == side or state["exile_boxes"].get(here) == side  # is_friendly
    if not friendly_here and c.locales[here]["kind"] == "stronghold":
        out = {here: 0}
    elif campaign:  # 4.6.4: one Way (or one Sea hop) only: the Locales next to his own
        blocked = enemy_locales(state, side, memo)
        if here in blocked or not friendly_here:
            return {}
        strongholds = _strongholds()  # a Stronghold is Friendly by Favour (1.3.1)
        near = [t for t in _neighbours(state, here, lord, ships, ships and great_ships(state, lord))
                if t not in blocked and t in strongholds and fav.get(t) != side]
        out = {t: 1 for t in sorted(set(near), key=c.locale_ids.ids.__getitem__)}
    else:
        beyond = route_tree(state, side, here, lord=lord, ships=ships, memo=memo)[1]
        if not beyond:
            return {}
        out = {t: beyond[t] for t in sorted(beyond, key=c.locale_ids.ids.__getitem__)}
    if state["london_for_york"] and not london and "London" in out and side == "Lancaster":
        del out["London"]
    return out


def tax_targets(state: State, lord: str, memo: Memo | None = None) -> dict[str, int]:
    """4.6.3: own Seat, a Seat of his Vassals, or London/Calais/Harlech; not Exhausted; Friendly
    Route free of Enemy Lords (Ports/Exile box by Ship)."""
    side = _lord_sides()[lord]
    d = state["lords"][lord]
    here = d["locale"]
    if state["favour"].get(here) != side and state["exile_boxes"].get(here) != side:  # is_friendly
        return {}
    mat = d["mat"]
    cands = {"London", "Calais", "Harlech"}
    seat = state["seats"].get(lord)
    if seat is not None:
        cands.add(seat)
    if mat["vassals"]:
        seats = load().vassals
        cands |= {seats[v]["seat"] for v in mat["vassals"]}
    out: dict[str, int] = {}
    friendly, _beyond = route_tree(state, side, here, lord=lord, ships=mat["assets"]["ships"] > 0, memo=memo)
    exhaustion = state["exhaustion"]
    for t in sorted(cands):
        if exhaustion.get(t) == "exhausted":  # is_exhausted
            continue
        w = 0 if t == here else friendly.get(t)
        if w is not None:
            out[t] = w
    return out


def shared_assets(state: State, lord: str, asset: str) -> int:
    """What a Lord may use of an Asset with Sharing at his Locale (1.5.3)."""
    d = state["lords"][lord]
    side = side_of(lord)
    return sum(state["lords"][o]["mat"]["assets"][asset] for o in lords_at(state, d["locale"], side))


#: The suffix of a Port Source in :func:`supply_choices` (``"Bristol:ships"``).
BY_SHIP: Final = ":ships"


def supply_choices(state: State, lord: str, memo: Memo | None = None) -> dict[str, dict[str, Any]]:
    """Every Supply the Lord may take now (4.5.1-4.5.2), each Source and kind apart:
    ``{choice: {"source", "kind", "ways", "amount"}}``, where ``choice`` is the Source's name
    for a Stronghold Source and the name plus :data:`BY_SHIP` for a Port Source.

    Stronghold Source: Friendly, not Exhausted, overland Friendly Route free of Enemy Lords;
    amount from the Strongholds table. Port Source: a Friendly Port reached overland or, with
    Ships, across its Sea (no Carts needed for the sea hop); amount = Ships (Shared). Carts:
    one per Provender per overland Way. A Lord in an Exile box must use Ships (Scotland may
    also go overland by Path). A Port may be both; the player chooses (a Port Source is never
    Depleted, 4.5.2). Only choices that add Provender are listed. With ``memo`` they are
    worked out once.
    """
    if memo is not None:
        key = ("supply", lord)
        if key not in memo:
            memo[key] = _supply_choices(state, lord, memo)
        hit: dict[str, dict[str, Any]] = memo[key]
        return hit
    return _supply_choices(state, lord, None)


def _supply_choices(state: State, lord: str, memo: Memo | None) -> dict[str, dict[str, Any]]:
    c = load()
    sides = _lord_sides()
    side = sides[lord]
    lrec = state["lords"]
    here = lrec[lord]["locale"]
    fav, boxes, exhaustion = state["favour"], state["exile_boxes"], state["exhaustion"]
    if fav.get(here) != side and boxes.get(here) != side:  # is_friendly
        return {}
    carts = ships = 0
    for o in (_SIDES_IN.get(tuple(lrec)) or sides_in(lrec))[side]:  # lords_at(); shared_assets of both (1.5.3)
        od = lrec[o]
        if od["locale"] != here or od["where"] not in _PLACED:
            continue
        mat = od["mat"]
        have = mat["assets"]
        # L8 Hay Wains: this Lord's Carts count twice for Supply (RULINGS R70)
        carts += have["carts"] * (2 if mat["capabilities"] and fx.capability(state, o, "hay_wains") else 1)
        ships += have["ships"] * (2 if have["ships"] and great_ships(state, o) else 1)  # Great Ships, R86
    locales = c.locales
    in_exile = locales[here]["kind"] == "exile"
    out: dict[str, dict[str, Any]] = {}
    caps = lrec[lord]["mat"]["capabilities"]
    if caps:  # fx.capability() of each key
        keys = {fx.CAPABILITY_KEYS[cid] for cid in caps}
        harbingers, stafford = "harbingers" in keys, "stafford_branch" in keys  # Y7/L7, Y29
    else:
        harbingers = stafford = False
    # Y7/L7 Harbingers: twice the Provender; Y29 Stafford Branch: 1 more from Exeter or a
    # Stronghold next to it. The Carts carry all of it (RULINGS R70).
    near_exeter = c.adjacency["Exeter"] if stafford else ()

    overland_ok = not in_exile or here == "Scotland"
    blocked = enemy_locales(state, side, memo)
    if not overland_ok:
        overland = {}
    elif carts:
        overland = route_tree(state, side, here, blocked=blocked, memo=memo)[0]
    else:  # without Carts only a Source here, or a Port across the Sea, can give anything (4.5.1)
        overland = {} if here in blocked else {here: 0}
    sea = c.sea_of(here)
    if ships and sea:
        great = great_ships(state, lord)  # Y6/L6: every Port of every Sea (RULINGS R86)
        sources = {loc for loc in overland if locales[loc]["kind"] == "stronghold"}
        sources.update(_all_ports() if great else _sea_ports()[sea])
        ordered: Sequence[str] = sorted(sources, key=c.locale_ids.ids.__getitem__)  # map order
    else:
        great = False
        ordered = sorted([loc for loc in overland if locales[loc]["kind"] == "stronghold"],
                         key=c.locale_ids.ids.__getitem__)
    supply_of = _supply_yields()
    for src in ordered:
        if src in blocked:
            continue
        loc = locales[src]
        if (boxes.get(src) if loc["kind"] == "exile" else fav.get(src)) != side:  # is_friendly
            continue
        w = 0 if src == here and overland_ok else overland.get(src)
        by_sea = bool(ships and sea and loc["port"] and (great or loc["port"] == sea))  # by Sea from a Port or Exile box: no Carts (4.5.1 CARTS NOTE)
        if w is not None and w > carts and not by_sea:
            continue  # too far for the Carts: nothing can be carried (4.5.1)
        bonus = 1 if stafford and (src == "Exeter" or src in near_exeter) else 0
        if w is not None and exhaustion.get(src) != "exhausted":
            amt = supply_of[src] * (2 if harbingers else 1) + bonus
            if w:
                amt = min(amt, carts // w)
            if amt > 0:
                out[src] = {"source": src, "kind": "stronghold", "ways": w, "amount": amt}
        if ships and loc["port"]:
            port_w = 0 if by_sea else w
            if port_w is not None:
                amt = ships * (2 if harbingers else 1) + bonus
                if port_w:
                    amt = min(amt, carts // port_w)
                if amt > 0:
                    out[src + BY_SHIP] = {"source": src, "kind": "port", "ways": port_w, "amount": amt}
    return out


_SUPPLY_YIELDS: Final[dict[str, int]] = {}


def _supply_yields() -> dict[str, int]:
    """The Provender each Stronghold gives as a Supply Source (4.5.1, the Strongholds table),
    computed once (a module table, as :func:`_strongholds`)."""
    if not _SUPPLY_YIELDS:
        c = load()
        _SUPPLY_YIELDS.update({loc: int(c.tables["strongholds"][d["type"]]["supply"])
                               for loc, d in c.locales.items() if d["kind"] == "stronghold"})
    return _SUPPLY_YIELDS


def supply_options(state: State, lord: str) -> dict[str, dict[str, Any]]:
    """4.5.1-4.5.2 Supply Sources: ``{source: {"kind", "ways", "amount"}}``, for a Port that is
    both kinds of Source the one that yields more (the Stronghold on a tie); see
    :func:`supply_choices` for every choice."""
    out: dict[str, dict[str, Any]] = {}
    for o in supply_choices(state, lord).values():
        src = o["source"]
        if src not in out or o["amount"] > out[src]["amount"]:
            out[src] = {"kind": o["kind"], "ways": o["ways"], "amount": o["amount"]}
    return out


# ----- 4.3.3 March speed ----------------------------------------------------------------------

def march_destinations(state: State, start: str, *, actions_left: int, first_action: bool) -> dict[str, int]:
    """Where a March from ``start`` can end and the Command actions it costs (4.3.3).

    Highway: 1 action, and one more Highway free. Road: 1 action. Path: all the card's
    actions, so only as the card's first action. Marching into an Exile box is never allowed
    (1.3.1); from Scotland the one-way Paths lead to Carlisle and Bamburgh.
    """
    c = load()
    out: dict[str, int] = {}
    if actions_left <= 0:
        return out
    for nxt, way in c.adjacency[start].items():
        if c.locales[nxt]["kind"] != "stronghold":
            continue
        if way == "Path":
            if first_action:
                out[nxt] = actions_left
            continue
        out[nxt] = min(out.get(nxt, 1), 1)
        if way == "Highway":
            for far, way2 in c.adjacency[nxt].items():
                if way2 == "Highway" and far != start and c.locales[far]["kind"] == "stronghold":
                    out[far] = min(out.get(far, 1), 1)
    return out


# ----- 2.2.3 Calendar ------------------------------------------------------------------------

def calendar_place(box: int) -> int:
    """Placing beyond the Calendar leaves the piece just off that end (2.2.3)."""
    return OFF_LEFT if box < FIRST_BOX else OFF_RIGHT if box > LAST_BOX else box


def calendar_shift(pos: int, n: int) -> int:
    """Shift a Calendar piece ``n`` boxes (right if positive) with end clamping (2.2.3).

    A piece off the Calendar ignores further shifts that way; the first shift back puts it in
    box 1 (from the left) or box 15 (from the right), whatever the size of that shift.
    """
    if n == 0:
        return pos
    if pos == OFF_RIGHT:
        return OFF_RIGHT if n > 0 else LAST_BOX
    if pos == OFF_LEFT:
        return OFF_LEFT if n < 0 else FIRST_BOX
    return calendar_place(pos + n)


def season(box: int) -> str:
    seasons = load().tables["calendar"]["seasons"]
    return str(seasons[(box - 1) % 5])


def plan_size(box: int) -> int:
    """4.1: 4 / 6 / 7 / 6 / 4 Command cards by season."""
    return int(load().tables["calendar"]["plan_size"][season(box)])


# ----- 3.2.4 Disband and removal --------------------------------------------------------------

def disband_vassal(state: State, vassal: str) -> None:
    """3.2.4 DISBAND VASSAL: both counters face down at current box + (6 - Service)."""
    c = load()
    v = state["vassals"][vassal]
    lord = v["lord"]
    if lord and vassal in state["lords"][lord]["mat"]["vassals"]:
        state["lords"][lord]["mat"]["vassals"].remove(vassal)
    v.update(where=VassalWhere.CALENDAR, lord=None, face_up=False,
             box=calendar_place(state["box"] + 6 - c.vassals[vassal]["service"]))


def _clear_mat(state: State, lord: str) -> None:
    c = load()
    d = state["lords"][lord]
    mat = d["mat"]
    if not mat:
        return
    for v in list(mat["vassals"]):
        disband_vassal(state, v)
    for sv in mat["special_vassals"]:
        state["special_vassals"][sv] = None
    for cid in mat["events"]:  # Held Events played on him (3.1.3) go back to their deck
        owner = c.cards[cid]["side"]
        state["aow"][owner]["deck"].append(cid)
        state["aow"][owner]["deck"].sort(key=c.card_ids.ids.__getitem__)
    for cid in mat["capabilities"]:
        _discard_capability_card(state, cid)
    d["mat"] = None
    release_captives(state, lord)


def _discard_capability_card(state: State, cid: str) -> None:
    """Where a discarded Capability goes: its deck, except the scenario cards below."""
    c = load()
    owner = c.cards[cid]["side"]
    if cid == "L23" and "montagu" in state["special_rules"]:
        state["aow"][owner]["in_game"].remove(cid)  # Ic Montagu: the card leaves play
    elif cid == "L26" and "margaret_edward" in state["special_rules"]:
        state["aow"][owner]["set_aside"].append(cid)  # Wars of the Roses: Edward is set aside (6.3 War I)
    else:
        state["aow"][owner]["deck"].append(cid)
        state["aow"][owner]["deck"].sort(key=c.card_ids.ids.__getitem__)


def disband_special_vassal(state: State, lord: str, vassal: str) -> None:
    """A Special Vassal Disbands (as when Routed in Battle, 4.4.3): its marker leaves the mat
    and the Capability card that placed it is discarded (1.5.4, 4.4.3 Cards)."""
    mat = state["lords"][lord]["mat"]
    mat["special_vassals"].remove(vassal)
    state["special_vassals"][vassal] = None
    cid = load().special_vassals[vassal]["card"]
    if cid in mat["capabilities"]:
        mat["capabilities"].remove(cid)
        _discard_capability_card(state, cid)


def hold_captive(state: State, lord: str, holder: str) -> None:
    """Capture of the King (Ia): ``lord`` Disbands (3.2.4) but his cylinder goes on ``holder``'s
    mat instead of the Calendar; he is not on the map and cannot Muster."""
    _clear_mat(state, lord)
    state["lords"][lord].update(where=Where.HELD, locale=None, box=None, exile=False)
    state["captured"][lord] = holder


def release_captives(state: State, holder: str) -> None:
    """Capture of the King (Ia): when the holder goes into Exile, Disbands or Dies (or is
    otherwise removed), the held Lord goes on the Calendar as if just Disbanded and his side
    gains 10 Influence."""
    captured = state.get("captured")
    if not captured:
        return
    for lord in [x for x, h in captured.items() if h == holder]:
        del captured[lord]
        state["lords"][lord].update(where=Where.CALENDAR, locale=None, exile=False,
                                    box=calendar_place(state["box"] + 6 - load().lords[lord]["influence"]))
        gain_influence(state, side_of(lord), 10)
        public(state, f"{load().lords[lord]['name']} is freed to the Calendar as his holder leaves; "
                      f"{side_of(lord)} gains 10 Influence (Capture of the King).")


def disband_lord(state: State, lord: str, *, exile: bool = False) -> None:
    """3.2.4: Disband his Vassals, return Forces and Assets, discard Capabilities; cylinder to
    current box + (6 - printed Influence); Exile marker if from an Exile box or by choice."""
    c = load()
    d = state["lords"][lord]
    from_box = d["locale"] is not None and c.locales[d["locale"]]["kind"] == "exile"
    _clear_mat(state, lord)
    d.update(where=Where.CALENDAR, locale=None, exile=bool(exile or from_box),
             box=calendar_place(state["box"] + 6 - c.lords[lord]["influence"]))


def remove_lord(state: State, lord: str) -> None:
    """Death or Shipwreck (1.5.1, 4.4.3, 4.8.2): permanently out, with his Seat, his Capability
    cards (discarded) and his Command cards (out of the game: "remove ... their Lord cards,
    Command cards, cylinders, and Seat markers from the game", 4.4.3, 4.8.2)."""
    _clear_mat(state, lord)
    state["lords"][lord].update(where=Where.REMOVED, locale=None, box=None, exile=False)
    state["seats"].pop(lord, None)
    remove_command_cards(state, lord)
    if load().lords[lord]["heir"] and lord not in state["heirs_removed"]:
        state["heirs_removed"].append(lord)


def add_lord(state: State, lord: str, *, box: int | None = None, locale: str | None = None) -> None:
    """6.2.2 ADD: a new arrival enters the game: his Command cards join his side's deck, his
    Seat goes on the map, and his cylinder goes to the Calendar (``box``; during play the next
    Turn's box, "TO CALENDAR") or, Mustered, to the map at ``locale`` with a fresh mat."""
    if (box is None) == (locale is None):
        raise ValueError("a new arrival goes either to a Calendar box or to a Locale (6.2.2 ADD)")
    d: LordRecord = state["lords"][lord]
    if d["where"] != Where.UNUSED:
        raise ValueError(f"{lord} is already in play or was removed (6.2.2)")
    if locale is not None:
        put_lord(d, Where.MAP, locale=locale, mat=new_mat(lord))
    elif box is not None:
        put_lord(d, Where.CALENDAR, box=calendar_place(box))
    state["seats"][lord] = load().lords[lord]["seat"]
    add_command_cards(state, lord)


def unpaid_disband_penalty(state: State, lords: list[str]) -> int:
    """3.2.1 UNPAID/UNFED DISBAND (and Shipwreck, 4.8.2; Exile 4.3.5): printed Influence of
    each Lord plus 1 per Vassal on his mat, Special Vassals included (1.5.4; RULINGS R46)."""
    c = load()
    return sum(c.lords[lid]["influence"] + len(state["lords"][lid]["mat"]["vassals"])
               + len(state["lords"][lid]["mat"]["special_vassals"]) for lid in lords)


# ----- 3.2.1 Pillage ---------------------------------------------------------------------------

def pillage(state: State, lord: str) -> int:
    """3.2.1 PILLAGE at the Lord's Unexhausted Stronghold: add the table's Coin and Provender,
    lose 2 Influence points per Asset added, Exhaust it, give it Enemy Favour, and shift each
    Stronghold adjacent by Way (not by Sea) one step toward Enemy Favour. Returns IP lost."""
    c = load()
    here = state["lords"][lord]["locale"]
    if c.locales[here]["kind"] != "stronghold" or is_exhausted(state, here):
        raise ValueError("Pillage needs an Unexhausted Stronghold; otherwise Unpaid/Unfed Disband (3.2.1).")
    side = side_of(lord)
    row = c.tables["strongholds"][c.locales[here]["type"]]
    mat = state["lords"][lord]["mat"]
    mat["assets"]["coin"] += row["tax"]
    mat["assets"]["provender"] += row["supply"]
    lost = 2 * (row["tax"] + row["supply"])
    lose_influence(state, side, lost)
    exhaust(state, here)
    set_favour(state, here, other(side))
    for nxt in c.adjacency[here]:
        if c.locales[nxt]["kind"] == "stronghold":
            shift_favour_toward(state, nxt, other(side))
    return lost


# ----- 4.8.1 Tides of War ---------------------------------------------------------------------

def tides_of_war(state: State) -> dict[str, dict[str, int]]:
    """The Influence each side gains at Tides of War (4.8.1), itemised.

    Areas: +1 per Area where the side has a Lord, +2 if it Dominates it. Special Strongholds:
    London +2, Calais +2, Harlech +1 for Favour, none while an Enemy Lord is there. Most Favour by
    type: Cities +2, Towns +1, Fortresses +1 (ties: nothing). Gain Lords Influence boxes: printed
    Influence of the side's Lords on the map. Card bonuses: the structured ``tides`` bonus of
    Capabilities on mats (Y28, L17, L18; Y4 needs a choice and comes with the cards stage).
    Queen Regent (II): +3 Lancaster with Margaret at London.
    """
    c = load()
    out: dict[str, dict[str, int]] = {s: {} for s in SIDES}
    lrec = state["lords"]
    areas, area_of = _areas(), _area_of()
    nsf = net_stronghold_favour(state)
    strongholds = c.tables["strongholds"]
    held = {(area, s): 0 for area in AREAS for s in SIDES}  # Favour markers by Area and side
    fav = state["favour"]
    for loc, s in fav.items():
        area = area_of.get(loc)
        if area is not None:
            held[area, s] += 1
    # One look at the Lords: on_map() of each side (in the same order) and the Locales and
    # Seas where each side has Lords (the Enemy Locales of the other, enemy_locales()).
    sides = _lord_sides()
    lords_of: dict[str, list[str]] = {s: [] for s in SIDES}
    placed_at: dict[str, set[str]] = {s: set() for s in SIDES}
    for lid, d in lrec.items():
        where = d["where"]
        if where == Where.MAP:
            lords_of[sides[lid]].append(lid)
            placed_at[sides[lid]].add(d["locale"])
        elif where == Where.SEA:
            placed_at[sides[lid]].add(d["locale"])
    for side in SIDES:
        items = out[side]
        lords = lords_of[side]
        capable = any(lrec[lid]["mat"]["capabilities"] for lid in lords)
        present = {area_of.get(lrec[lid]["locale"]) for lid in lords}
        for area in AREAS:
            if area in present:
                items[f"lord in {area}"] = 1
            # dominates(): the side's Favour at every Stronghold of the Area
            if held[area, side] == len(areas[area]) or (capable and card_dominates(state, side, area, lords)):
                items[f"dominates {area}"] = 2
        enemy = placed_at[other(side)]  # enemy_lords_at, for the three Special Strongholds
        for loc in ("London", "Calais", "Harlech"):
            if fav.get(loc) == side and loc not in enemy:
                items[loc] = int(strongholds[loc]["tides"])
        for t, (leader, _lead) in nsf.items():
            if leader == side:
                items[f"most {t}"] = int(strongholds[t]["tides"])
        if state["box"] in c.tables["calendar"]["gain_lords_influence"]:
            total = sum(c.lords[lid]["influence"] for lid in lords)
            if total:
                items["lords"] = total
        # Card bonuses (4.8.1): structured Tides bonuses of Capabilities on this side's mats.
        if not capable:
            continue
        for lid in lords:
            d = lrec[lid]
            for cid in d["mat"]["capabilities"]:
                bonus = c.cards[cid]["capability"].get("tides")
                if bonus is None:
                    continue
                if bonus["when"] == "away_from_london" and d["locale"] == "London":
                    continue
                items[c.cards[cid]["capability"]["title"]] = items.get(c.cards[cid]["capability"]["title"], 0) \
                    + int(bonus["points"])
    if "queen_regent" in state["special_rules"]:
        m = state["lords"].get("margaret")
        if m and m["where"] == Where.MAP and m["locale"] == "London":
            out["Lancaster"]["Queen Regent"] = 3
    return out


def apply_tides(state: State, charity: int = 0) -> None:
    """4.8.1: each side gains its Tides of War; ``charity``: the Influence points Y4 We done deeds
    of charity bought with Provender this Tides (RULINGS R83), with the Yorkist awards."""
    t = tides_of_war(state)
    if charity:
        t["York"]["We done deeds of charity"] = charity
    for side in (state["rebel"], state["king"]):
        n = sum(t[side].values())
        gain_influence(state, side, n)
        if n:
            public(state, f"Tides of War: {side} +{n} ({', '.join(f'{k} {v}' for k, v in t[side].items())}).")


# ----- 4.8.5 Waste ------------------------------------------------------------------------------

def waste(state: State) -> None:
    """4.8.5: Provender, Carts, Ships halved (round up); Coin and Troops back to the card,
    keeping Mercenaries and Handgunners."""
    c = load()
    for lid, d in state["lords"].items():
        if d["where"] != Where.MAP:
            continue
        mat = d["mat"]
        for a in ("provender", "carts", "ships"):
            mat["assets"][a] = math.ceil(mat["assets"][a] / 2)
        mat["assets"]["coin"] = c.lords[lid]["assets"]["coin"]
        for t, n in c.lords[lid]["troops"].items():
            mat["troops"][t] = n
            mat["routed"][t] = 0


# ----- 5.x Victory ------------------------------------------------------------------------------

def lacks_lords(state: State, side: str) -> bool:
    """5.1: no Lords on the map and no Exile cylinder in the next Turn's Calendar box "(only)".
    After box 15 there is no next box: a cylinder just off the right end (2.2.3) is in no box
    and does not count (RULINGS R18)."""
    if any_on_map(state, side):
        return False
    nxt = state["box"] + 1
    if nxt > LAST_BOX:
        return True
    sides = _lord_sides()
    for lid, d in state["lords"].items():  # noqa: SIM110 (a loop is faster than any() of a generator)
        if d["where"] == Where.CALENDAR and d["exile"] and d["box"] == nxt and sides[lid] == side:
            return False
    return True


def campaign_victory(state: State) -> str | None:
    """5.1 Campaign Victory: the other side wins; both without Lords is a draw."""
    y, lan = lacks_lords(state, "York"), lacks_lords(state, "Lancaster")
    if y and lan:
        return DRAW
    if y:
        return "Lancaster"
    if lan:
        return "York"
    return None


def threshold_victory(state: State, threshold: int | None) -> str | None:
    """5.2: a side at or above the current threshold wins."""
    if threshold is None:
        return None
    for side in SIDES:
        if influence_of(state, side) >= threshold:
            return side
    return None


def scenario_end_winner(state: State, *, tie_to_king: bool = False) -> str:
    """5.3: more Influence wins; a tie is a draw (E FAQ #5: King wins ties in the campaign game)."""
    net = int(state["influence"])
    if net > 0:
        return "York"
    if net < 0:
        return "Lancaster"
    return str(state["king"]) if tie_to_king else DRAW


def heir_ranks_removed(state: State, side: str) -> set[int]:
    """Wars of the Roses: the ranks (6.2.1) of ``side``'s Heirs removed so far, in this War or
    an earlier one (those recorded by :mod:`wars`, and any Heir of this War found removed)."""
    w = state["wars"]
    out = {int(r["rank"]) for r in w["removed"] if r["side"] == side}
    lords = state["lords"]
    out.update(rank for lid, rank in w["heir_lords"].items()
               if side_of(lid) == side and lords[lid]["where"] == Where.REMOVED)
    return out


def war_lost_by_heirs(state: State) -> str | None:
    """Wars of the Roses War Victory (6.0; 6.3 War I Automatic War Victory): the side whose
    Heirs listed for the current War are all removed loses the War. Returns the winner."""
    w = state.get("wars")
    if not w:
        return None
    for side in (state["rebel"], state["king"]):
        if set(w["war_heirs"][side]) <= heir_ranks_removed(state, side):
            return other(side)
    return None


def test_of_arms_winner(state: State) -> str:
    """Ib Test of Arms: the side with Favour at York wins; neither is a draw."""
    return favour(state, "York") or DRAW


def victory_check(state: State) -> str | None:
    """4.8.3 in order: Campaign Victory, Threshold, final Turn. Returns a result or None."""
    scen = scenario_of(state)
    res = campaign_victory(state)
    if res is None and scen["victory"] == "war":
        res = war_lost_by_heirs(state)
    if res is None:
        res = threshold_victory(state, threshold(state))
    if res is None and state["box"] >= state["last_box"]:
        if scen["victory"] == "test_of_arms":
            res = test_of_arms_winner(state)
        else:
            res = scenario_end_winner(state, tie_to_king=scen["victory"] == "war")
    return res


# ----- actions built on the services (used by later stages' Levy/Campaign commands) ----------

def parley(state: State, lord: str, target: str, *, extra: int = 0, campaign: bool = False,
           surcharge: int = 0, sure: bool = False, free: bool = False, london: bool = False) -> dict[str, Any]:
    """Parley (3.4.1 Levy; 4.6.4 Campaign): check Influence paying 1 per Way, and on success
    shift the target one step toward the Lord's side. Campaign Parley of his own location
    succeeds without a check or cost (4.6.4). Raises ValueError if the target is not legal.

    Cards: ``surcharge`` changes the cost, ``sure`` skips the roll, ``free`` makes the check
    cost nothing (Y4 Jack Cade), ``london`` lets an Event's Parley reach a London held by Y15.
    Y34 An honest tale speeds best adds 1 to every Lancastrian Parley, even a free one; Y29
    Dorset makes Devon's Campaign Parleys from Exeter free and sure."""
    side = side_of(lord)
    targets = parley_targets(state, lord, campaign=campaign, london=london)
    if target not in targets:
        raise ValueError(f"{target} cannot be Parleyed by {lord} now (3.4.1).")
    ways = targets[target]
    here = state["lords"][lord]["locale"]
    if campaign and lord == "devon" and here == "Exeter" and fx.event_on(state, "dorset", "York"):
        shift_favour_toward(state, target, side)
        return {"success": True, "roll": None, "cost": 0, "target": None}
    if side == "Lancaster" and state["aow"]["York"]["in_effect"] and fx.event_on(state, "honest_tale", "York"):
        surcharge += 1
    if campaign and target == here:
        if surcharge > 0:
            lose_influence(state, side, surcharge)
        shift_favour_toward(state, target, side)
        return {"success": True, "roll": None, "cost": max(0, surcharge), "target": None}
    if free:
        surcharge -= check_cost(extra, ways)
    res = influence_check(state, side, lord, extra=extra, ways=ways, parley=True, surcharge=surcharge, sure=sure)
    if res["success"]:
        shift_favour_toward(state, target, side)
    return res


def supply_from(state: State, lord: str, choice: str) -> dict[str, Any]:
    """Supply (4.5) by one of :func:`supply_choices`: add its Provender; a Stronghold Source is
    Depleted (or Exhausted if already Depleted), a Port Source is not. Returns the choice."""
    opts = supply_choices(state, lord)
    if choice not in opts:
        raise ValueError(f"{choice} is not a Supply Source for {lord} (4.5.1).")
    o = opts[choice]
    state["lords"][lord]["mat"]["assets"]["provender"] += o["amount"]
    if o["kind"] == "stronghold" and not _chamberlain_seat(state, lord, o["source"]):
        deplete(state, o["source"])
    return o


def _chamberlain_seat(state: State, lord: str, locale: str) -> bool:
    """L10 Chamberlains: the Lord's Supply does not Deplete the Seat of one of his Vassals."""
    if not fx.capability(state, lord, "chamberlains"):
        return False
    vassals = load().vassals
    return any(vassals[v]["seat"] == locale for v in state["lords"][lord]["mat"]["vassals"])


def supply(state: State, lord: str, source: str) -> int:
    """Supply (4.5): add the Provender of the chosen Source; a Stronghold Source is Depleted
    (or Exhausted if already Depleted), a Port Source is not. Returns the Provender added."""
    opts = supply_options(state, lord)
    if source not in opts:
        raise ValueError(f"{source} is not a Supply Source for {lord} (4.5.1).")
    o = opts[source]
    state["lords"][lord]["mat"]["assets"]["provender"] += o["amount"]
    if o["kind"] == "stronghold":
        deplete(state, source)
    return int(o["amount"])
