"""The Wars of the Roses: every branch of the second and third Wars' setups (6.3 IIY, IIL, IIIY,
IIIL), table-driven by the Heirs who survived the earlier Wars (and, for the third War, whether
the Event Y28 Gloucester as Heir was resolved in the second).

Each row names the survivors and what the rulebook then sets up: who is King (or the side's
Heir) and where, the other Heirs, the Lords that depend on them, and the Arts of War cards the
Heirs bring. Heir ranks (6.2.1): York 1 York, 2 March/Edward IV, 3 Rutland, 4 Gloucester/Richard
III; Lancaster 1 Henry VI, 2 Margaret, 3 Somerset (1), 4 Somerset (2)."""

from __future__ import annotations

from typing import Any

import pytest

from roses.games.plantagenet import RULES, wars
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import load
from roses.games.plantagenet.records import Where
from roses.games.plantagenet.services import net_stronghold_favour
from tests.plantagenet.helpers import LANC, YORK, war_state

State = dict[str, Any]

def where(s: State, lord: str) -> str | tuple[Any, ...]:
    """``"unused"``, ``("map", locale)`` or ``("calendar", box, exile)``; absent: ``"-"``."""
    d = s["lords"].get(lord)
    if d is None:
        return "-"
    if d["where"] == Where.MAP:
        return ("map", d["locale"])
    if d["where"] == Where.CALENDAR:
        return ("calendar", d["box"], d["exile"])
    return str(d["where"])


def check_common(s: State, war: str) -> None:
    assert s["war"] == war and s["result"] is None
    assert RULES.check_invariants(s) == []
    assert s["box"] == s["first_box"] and s["first_turn"] and s["stack"] == [{"step": "calendar"}]
    for side in ("York", "Lancaster"):  # every card the Heirs bring is in the deck
        assert set(s["wars"]["cards"][side]) <= set(s["aow"][side]["deck"])


# ----- IIY The Kingmaker (6.3, page 28) -------------------------------------------------------------------
IIY_YORK = [
    # survivors, {lord: place}, Pembroke Mustered, King's cards
    ("Y M R", {"york": ("map", "London"), "march": ("map", "Ludlow"), "rutland": ("map", "Canterbury"),
               "edward_iv": "unused"}, False, ["Y14", "Y18", "Y19", "Y20"]),
    ("Y M", {"york": ("map", "London"), "march": ("map", "Ludlow"), "rutland": "-"}, False,
     ["Y14", "Y18", "Y19", "Y20"]),
    ("Y R", {"york": ("map", "London"), "march": "-", "rutland": ("map", "Canterbury")}, False,
     ["Y14", "Y18", "Y19", "Y20"]),
    ("M R", {"york": "-", "march": "-", "edward_iv": ("map", "London"), "rutland": ("map", "Canterbury")}, False,
     ["Y23", "Y24", "Y28", "Y31"]),
    ("Y", {"york": ("map", "London"), "march": "-", "rutland": "-"}, True, ["Y14", "Y18", "Y19", "Y20"]),
    ("M", {"edward_iv": ("map", "London"), "march": "-", "rutland": "-"}, True, ["Y23", "Y24", "Y28", "Y31"]),
    ("R", {"rutland": ("map", "London"), "york": "-", "edward_iv": "-"}, True, ["Y20", "Y21", "Y28", "Y35"]),
]


@pytest.mark.parametrize(("york", "places", "pembroke", "cards"), IIY_YORK)
def test_iiy_yorkist_succession_at_setup_6_3(york: str, places: dict[str, Any], pembroke: bool,
                                              cards: list[str]) -> None:
    """6.3 IIY: the highest Yorkist Heir is King at London (York with March at Ludlow, else
    Edward IV in March's stead, else Rutland at London "not Canterbury"); Rutland otherwise at
    Canterbury with Yorkist Favour; Pembroke only when two or fewer of the four Heirs remain;
    Devon box 1, Gloucester (1) and Northumberland (1) box 9; Scenario II's other Yorkists are
    not set up."""
    s = war_state("IIY", york, "H M S1 S2")
    check_common(s, "IIY")
    for lord, place in places.items():
        assert where(s, lord) == place, lord
    assert where(s, "pembroke") == (("map", "Pembroke") if pembroke else "unused")
    assert where(s, "devon") == ("calendar", 1, False)
    assert where(s, "gloucester_1") == ("calendar", 9, False) and where(s, "richard_iii") == "unused"
    assert where(s, "northumberland_y1") == ("calendar", 9, False)
    assert s["wars"]["cards"]["York"] == cards and s["king"] == "York"
    assert (s["favour"].get("Canterbury") == "York") == (places.get("rutland") == ("map", "Canterbury"))
    assert s["favour"]["London"] == "York" and s["influence"] == 0
    canterbury = places.get("rutland") == ("map", "Canterbury")
    markers = net_stronghold_favour(s)  # II: Fortress Y2, City Y0; "slide Yorkist Cities marker to 1"
    assert markers["Fortress"] == ("York", 2) and markers["City"] == (("York", 1) if canterbury else (None, 0))
    assert sorted(s["wars"]["war_heirs"]["York"]) == [1, 2, 3, 4]


IIY_LANCASTER = [
    # survivors, box 9 (Exile), Heirs still to arrive, cards of the highest Heir
    ("H M S1 S2", ["henry_vi", "somerset_1"], ["margaret", "somerset_2"], ["L17", "L18", "L20", "L21"]),
    ("H M S2", ["henry_vi", "somerset_2"], ["margaret"], ["L17", "L18", "L20", "L21"]),
    ("H M", ["henry_vi"], ["margaret"], ["L17", "L18", "L20", "L21"]),
    ("M S1 S2", ["margaret", "somerset_1"], ["somerset_2"], ["L27", "L28", "L31"]),
    ("M S2", ["margaret", "somerset_2"], [], ["L27", "L28", "L31"]),
    ("M", ["margaret"], [], ["L27", "L28", "L31"]),
    ("S1 S2", ["somerset_1"], ["somerset_2"], ["L20", "L21", "L27"]),
    ("S2", ["somerset_2"], [], ["L20", "L21", "L27"]),
]


@pytest.mark.parametrize(("lancaster", "box9", "waiting", "cards"), IIY_LANCASTER)
def test_iiy_lancastrian_succession_at_setup_6_3(lancaster: str, box9: list[str], waiting: list[str],
                                                  cards: list[str]) -> None:
    """6.3 IIY: a surviving Henry VI takes Margaret's place in box 9 (Exile), a surviving
    Somerset (1) Somerset (2)'s; the others of the four wait to be added by Succession; Warwick,
    Clarence and Jasper Tudor (1) are Mustered as in Scenario II, Oxford and Exeter (2) in box 9."""
    s = war_state("IIY", "Y M R", lancaster)
    check_common(s, "IIY")
    heirs = ["henry_vi", "margaret", "somerset_1", "somerset_2"]
    assert sorted(h for h in heirs if where(s, h) == ("calendar", 9, True)) == sorted(box9)
    assert sorted(h for h in heirs if where(s, h) == "unused") == sorted(waiting)
    assert all(where(s, h) == "-" for h in heirs if h not in box9 + waiting)
    assert where(s, "warwick_l") == ("map", "Calais") and where(s, "clarence") == ("map", "York")
    assert where(s, "jasper_tudor_1") == ("map", "Harlech")
    assert where(s, "oxford") == ("calendar", 9, True) and where(s, "exeter_2") == ("calendar", 9, True)
    assert s["wars"]["cards"]["Lancaster"] == cards
    assert "L4" not in s["aow"]["Lancaster"]["deck"] and "L36" in s["aow"]["Lancaster"]["deck"]
    assert "queen_regent" not in s["special_rules"]  # RULINGS R62


def test_iiy_without_lancastrian_heirs_is_lost_at_once_6_0() -> None:
    """6.0 War Victory: with Henry VI, Margaret and both Somersets removed in War I the
    Lancastrians have no Heir of War II; they lose it as it begins (and War III follows)."""
    s = war_state("IIY", "Y M R", "")
    assert s["wars"]["winners"] == {"I": "York", "II": "York"} and s["war"] == "IIIY"
    assert where(s, "henry_tudor") == ("map", "France")  # no Margaret, York is King: Henry Tudor


# ----- IIL Lancastrian Legitimacy Fades (6.3, pages 28-29) ---------------------------------------------------
IIL_LANCASTER = [
    # survivors, {lord: place}, Heirs still to arrive, King's cards
    ("H M S1 S2", {"henry_vi": ("map", "London"), "somerset_1": ("map", "Wells")}, ["margaret", "somerset_2"],
     ["L15", "L17"]),
    ("H M S2", {"henry_vi": ("map", "London"), "somerset_2": ("map", "Wells")}, ["margaret"], ["L15", "L17"]),
    ("H M", {"henry_vi": ("map", "London")}, ["margaret"], ["L15", "L17"]),
    ("M S1 S2", {"margaret": ("calendar", 1, False), "somerset_1": ("map", "Wells")}, ["somerset_2"],
     ["L27", "L31"]),
    ("S1 S2", {"somerset_1": ("map", "London")}, ["somerset_2"], ["L16", "L27"]),
]


@pytest.mark.parametrize(("lancaster", "places", "waiting", "cards"), IIL_LANCASTER)
def test_iil_lancastrian_succession_at_setup_6_3(lancaster: str, places: dict[str, Any], waiting: list[str],
                                                  cards: list[str]) -> None:
    """6.3 IIL: the highest Lancastrian Heir is King at London, Somerset (1) or (2) at Wells
    unless King; with Henry VI removed Margaret enters the Calendar in box 1 (RULINGS R65);
    Jasper Tudor (1) at Harlech, Exeter (1) and Oxford box 2, Northumberland box 8. (Henry VI and
    Somerset (1) both removed in War I would have lost it for Lancaster.)"""
    s = war_state("IIL", "Y M R", lancaster)
    check_common(s, "IIL")
    heirs = ["henry_vi", "margaret", "somerset_1", "somerset_2"]
    for h in heirs:
        assert where(s, h) == places.get(h, "unused" if h in waiting else "-"), h
    assert where(s, "jasper_tudor_1") == ("map", "Harlech")
    assert where(s, "exeter_1") == ("calendar", 2, False) and where(s, "oxford") == ("calendar", 2, False)
    assert where(s, "northumberland_l") == ("calendar", 8, False)
    assert s["wars"]["cards"]["Lancaster"] == cards and s["king"] == "Lancaster"
    assert "L26" not in s["aow"]["Lancaster"]["in_game"]  # Margaret takes it when she Musters


IIL_YORK = [
    # survivors, the highest Heir's cards
    ("Y M R", ["Y14", "Y20"]), ("Y M", ["Y14", "Y20"]), ("Y R", ["Y14", "Y20"]), ("Y", ["Y14", "Y20"]),
    ("M R", ["Y20", "Y21"]), ("M", ["Y20", "Y21"]), ("R", ["Y20", "Y21"]), ("", ["Y25", "Y30"]),
]


@pytest.mark.parametrize(("york", "cards"), IIL_YORK)
def test_iil_yorkist_succession_at_setup_6_3(york: str, cards: list[str]) -> None:
    """6.3 IIL: the surviving York, March and Rutland with Gloucester (1) wait in box 7 in Exile;
    the highest of them brings York Y14 Y20, March or Rutland Y20 Y21, Gloucester Y25 Y30;
    Warwick at Calais, Salisbury at York, Pembroke at Pembroke, Devon box 1."""
    s = war_state("IIL", york, "H M S1 S2")
    check_common(s, "IIL")
    alive = york.split()
    for key, lord in (("Y", "york"), ("M", "march"), ("R", "rutland")):
        assert where(s, lord) == (("calendar", 7, True) if key in alive else "-")
    assert where(s, "gloucester_1") == ("calendar", 7, True)
    assert where(s, "warwick_y") == ("map", "Calais") and where(s, "salisbury") == ("map", "York")
    assert where(s, "pembroke") == ("map", "Pembroke") and where(s, "devon") == ("calendar", 1, False)
    assert s["wars"]["cards"]["York"] == cards
    assert {loc for loc, side in s["favour"].items() if side == "York"} == {"Calais", "York", "Ely", "Pembroke",
                                                                           "Ludlow"}
    markers = net_stronghold_favour(s)  # 6.3 IIL: Fortress Yorkist 2, Town Lancastrian 0, City Lancastrian 2
    assert markers["Fortress"] == ("York", 2) and markers["City"] == ("Lancaster", 2)
    assert markers["Town"][1] == 0


# ----- IIIY New Rivals (6.3, pages 29-30) ---------------------------------------------------------------------
IIIY_YORK = [
    # survivors, Y28, King lord, his Heir (lord, locale) or None, Heirs removed by the setup,
    # Northumberland (2) added, the Yorkist Heirs' cards
    ("Y", False, "york", None, [], True, ["Y14", "Y21", "Y37"]),
    ("M", False, "edward_iv", None, [], True, ["Y23", "Y24", "Y37"]),
    ("R", False, "warwick_y", None, [3], False, ["Y16", "Y17", "Y22"]),
    ("G", False, "richard_iii", None, [], True, ["Y32", "Y33", "Y37"]),
    ("Y M", False, "york", ("march", "Ludlow"), [], False, ["Y14", "Y20", "Y21"]),
    ("Y R", False, "york", ("rutland", "Canterbury"), [], True, ["Y14", "Y20", "Y21", "Y37"]),
    ("Y G", False, "york", ("gloucester_1", "Gloucester"), [], False, ["Y14", "Y21", "Y34"]),
    ("M R", False, "edward_iv", ("rutland", "Canterbury"), [], True, ["Y23", "Y24", "Y31", "Y37"]),
    ("M G", False, "edward_iv", ("gloucester_1", "Gloucester"), [], False, ["Y23", "Y24", "Y28", "Y34"]),
    ("R G", False, "rutland", ("gloucester_2", "London"), [], True, ["Y20", "Y21", "Y34", "Y37"]),
    ("R G", True, "richard_iii", None, [3], True, ["Y32", "Y33", "Y37"]),
    ("Y M R", False, "york", ("march", "Ludlow"), [3], False, ["Y14", "Y20", "Y21"]),
    ("Y M G", False, "york", ("march", "Ludlow"), [4], False, ["Y14", "Y20", "Y21"]),
    ("Y R G", False, "york", ("rutland", "Canterbury"), [4], False, ["Y14", "Y20", "Y21"]),
    ("Y R G", True, "york", ("gloucester_1", "Gloucester"), [3], False, ["Y14", "Y21", "Y34"]),
    ("M R G", False, "edward_iv", ("rutland", "Canterbury"), [4], False, ["Y23", "Y24", "Y31"]),
    ("M R G", True, "edward_iv", ("gloucester_1", "Gloucester"), [3], False, ["Y23", "Y24", "Y28", "Y34"]),
    ("Y M R G", False, "york", ("march", "Ludlow"), [3, 4], False, ["Y14", "Y20", "Y21"]),
    ("Y M R G", True, "york", ("march", "Ludlow"), [3, 4], False, ["Y14", "Y20", "Y21"]),
    ("Y M", True, "york", ("march", "Ludlow"), [], False, ["Y14", "Y20", "Y21"]),  # Y28 needs Rutland and Gloucester
]


@pytest.mark.parametrize(("york", "y28", "king", "heir", "removed", "northumberland", "cards"), IIIY_YORK)
def test_iiiy_yorkist_heirs_and_lords_6_3(york: str, y28: bool, king: str, heir: tuple[str, str] | None,
                                          removed: list[int], northumberland: bool, cards: list[str]) -> None:
    """6.3 IIIY: Y28 in the second War removes Rutland when he and Gloucester remain; Rutland
    alone gives way to Warwick as King with Salisbury; exactly one of York, March/Edward IV and
    Gloucester/Richard III brings Northumberland (2) and Y37; the highest Heir is King at
    London, the next his Heir at his place, all others removed; Norfolk at Arundel; all
    Mustered."""
    s = war_state("IIIY", york, "M", y28=y28)
    check_common(s, "IIIY")
    assert where(s, king) == ("map", "London")
    yorkist_heirs = sorted(lid for lid in s["wars"]["heir_lords"] if load().lords[lid]["side"] == "York")
    assert yorkist_heirs == sorted([king] + ([heir[0]] if heir else []))
    if heir:
        assert where(s, heir[0]) == ("map", heir[1])
    gone = sorted(r["rank"] for r in s["wars"]["removed"] if r["side"] == "York" and r["by"] == "setup")
    assert gone == removed
    assert where(s, "northumberland_y2") == (("map", "Carlisle") if northumberland else "-")
    assert where(s, "norfolk") == ("map", "Arundel")
    assert where(s, "salisbury") == (("map", "York") if king == "warwick_y" else "-")
    assert s["wars"]["cards"]["York"] == cards
    assert "Y36" in s["aow"]["York"]["deck"]
    assert all(d["where"] in (Where.MAP, Where.UNUSED) for d in s["lords"].values())  # none on the Calendar
    assert (s["wars"]["designated"] == ["York"]) == (king == "warwick_y")


IIIY_LANCASTER = [
    # Lancastrian survivors, Yorkist survivors, the Lancastrian Heir, where he and his Lords go, cards
    ("H M S1", "Y", "margaret", "France", ["L26", "L27", "L31"]),
    ("M", "M", "margaret", "France", ["L26", "L27", "L31"]),
    ("H S1 S2", "Y M", "henry_tudor", "France", ["L32", "L35"]),
    ("", "G", "henry_tudor", "France", ["L32", "L35"]),
    ("H", "R", "henry_tudor", "France", ["L32", "L35"]),  # Warwick is the Yorkist King
    ("S2", "R G", "henry_tudor", "France", ["L32", "L35"]),  # Rutland is King
    ("H S1", "M R", "warwick_l", "Calais", ["L23", "L30"]),
]


@pytest.mark.parametrize(("lancaster", "york", "heir", "base", "cards"), IIIY_LANCASTER)
def test_iiiy_lancastrian_heir_6_3(lancaster: str, york: str, heir: str, base: str, cards: list[str]) -> None:
    """6.3 IIIY: exactly one Lancastrian Heir: Margaret (with L26 Edward) in France unless
    removed; else Henry Tudor in France unless Edward IV is King; else Warwick at Calais; Oxford
    and Jasper Tudor (2) with him."""
    s = war_state("IIIY", york, lancaster)
    check_common(s, "IIIY")
    lancastrian_heirs = [lid for lid in s["wars"]["heir_lords"] if load().lords[lid]["side"] == "Lancaster"]
    assert lancastrian_heirs == [heir] and where(s, heir) == ("map", base)
    assert where(s, "oxford") == ("map", base) and where(s, "jasper_tudor_2") == ("map", base)
    for other_heir in ("henry_vi", "margaret", "somerset_1", "somerset_2", "henry_tudor", "warwick_l"):
        if other_heir != heir:
            assert where(s, other_heir) == "-"
    owned = set(s["wars"]["cards"]["Lancaster"]) | set(s["lords"][heir]["mat"]["capabilities"])
    assert sorted(owned) == cards
    if heir == "margaret":
        assert s["lords"]["margaret"]["mat"]["special_vassals"] == ["edward"]
    assert s["favour"]["London"] == "York"
    assert s["favour"].get("Oxford") == "Lancaster" and s["favour"].get("Pembroke") == "Lancaster"
    assert (s["favour"].get("Calais") == "Lancaster") == (heir == "warwick_l")
    assert (s["wars"]["designated"] == ["Lancaster"]) == (heir == "warwick_l")


# ----- IIIL Yorkists' Last Stand (6.3, page 30) ------------------------------------------------------------------
IIIL_LANCASTER = [
    # survivors, King lord, the rank he stands for, cards
    ("H M S1 S2", "henry_vi", 1, ["L15", "L17"]), ("H", "henry_vi", 1, ["L15", "L17"]),
    ("H S2", "henry_vi", 1, ["L15", "L17"]), ("M S1 S2", "margaret", 2, ["L26", "L27", "L31"]),
    ("M", "margaret", 2, ["L26", "L27", "L31"]), ("S1 S2", "somerset_1", 3, ["L18", "L20", "L27"]),
    ("S1", "somerset_1", 3, ["L18", "L20", "L27"]), ("S2", "somerset_1", 4, ["L18", "L20", "L27"]),
    ("", "henry_tudor", 5, ["L32", "L35"]),
]


@pytest.mark.parametrize(("lancaster", "king", "rank", "cards"), IIIL_LANCASTER)
def test_iiil_lancastrian_king_6_3(lancaster: str, king: str, rank: int, cards: list[str]) -> None:
    """6.3 IIIL: the highest Lancastrian Heir is King at London (Somerset (2) with the card of
    Somerset (1)), the other Heirs removed; none left: Henry Tudor (RULINGS R67); Oxford at
    Oxford, Jasper Tudor (2) at Pembroke; London and the Lancastrian Seats Lancastrian."""
    s = war_state("IIIL", "Y M", lancaster)
    check_common(s, "IIIL")
    lancastrian_heirs = {lid: r for lid, r in s["wars"]["heir_lords"].items()
                         if load().lords[lid]["side"] == "Lancaster"}
    assert lancastrian_heirs == {king: rank} and where(s, king) == ("map", "London")
    assert s["wars"]["war_heirs"]["Lancaster"] == [rank]
    owned = set(s["wars"]["cards"]["Lancaster"]) | set(s["lords"][king]["mat"]["capabilities"])
    assert sorted(owned) == cards
    assert where(s, "oxford") == ("map", "Oxford") and where(s, "jasper_tudor_2") == ("map", "Pembroke")
    assert {loc for loc, side in s["favour"].items() if side == "Lancaster"} == {"London", "Oxford", "Pembroke"} | (
        {"Wells"} if king == "somerset_1" else set())
    assert s["box"] == 4 and s["last_box"] == 9 and "ravaged_land" in s["special_rules"]


IIIL_YORK = [
    # survivors, Y28, Yorkist Heir lords, Salisbury added, cards
    ("Y", False, ["york"], True, ["Y14", "Y17", "Y18", "Y22"]),
    ("M", False, ["warwick_y"], True, ["Y16", "Y17", "Y22"]),
    ("R", False, ["warwick_y"], True, ["Y16", "Y17", "Y22"]),
    ("G", False, ["gloucester_2"], True, ["Y17", "Y22", "Y35"]),
    ("Y M", False, ["york", "march"], False, ["Y14", "Y18", "Y20"]),
    ("Y R", False, ["york", "rutland"], False, ["Y14", "Y18", "Y20"]),
    ("Y G", False, ["york", "gloucester_1"], False, ["Y14", "Y18", "Y34"]),
    ("Y G", True, ["gloucester_2"], True, ["Y17", "Y22", "Y35"]),
    ("M R", False, ["warwick_y"], True, ["Y16", "Y17", "Y22"]),
    ("M G", False, ["warwick_y"], True, ["Y16", "Y17", "Y22"]),
    ("M G", True, ["gloucester_2"], True, ["Y17", "Y22", "Y35"]),
    ("R G", False, ["warwick_y"], True, ["Y16", "Y17", "Y22"]),
    ("Y M R", False, ["york", "march"], False, ["Y14", "Y18", "Y20"]),
    ("Y M R", True, ["york", "march"], False, ["Y14", "Y18", "Y20"]),  # no Gloucester: Y28 changes nothing
    ("Y M G", False, ["york", "march"], False, ["Y14", "Y18", "Y20"]),
    ("Y M G", True, ["gloucester_2"], True, ["Y17", "Y22", "Y35"]),
    ("R G", True, ["gloucester_2"], True, ["Y17", "Y22", "Y35"]),
    ("Y R G", False, ["york", "rutland"], False, ["Y14", "Y18", "Y20"]),
    ("Y R G", True, ["gloucester_2"], True, ["Y17", "Y22", "Y35"]),
    ("M R G", False, ["warwick_y"], True, ["Y16", "Y17", "Y22"]),
    ("M R G", True, ["gloucester_2"], True, ["Y17", "Y22", "Y35"]),
    ("Y M R G", False, ["york", "march"], False, ["Y14", "Y18", "Y20"]),
    ("Y M R G", True, ["gloucester_2"], True, ["Y17", "Y22", "Y35"]),
]


@pytest.mark.parametrize(("york", "y28", "heirs", "salisbury", "cards"), IIIL_YORK)
def test_iiil_yorkist_heirs_6_3(york: str, y28: bool, heirs: list[str], salisbury: bool, cards: list[str]) -> None:
    """6.3 IIIL: Y28 with Gloucester remaining, or Gloucester highest, leaves him alone (as
    Gloucester (2)) with Y35; else York keeps only his next Heir (Y14 Y18, with March or
    Rutland Y20, with Gloucester (1) Y34); else every Heir is removed and Warwick is the Heir
    (Y16); a single Heir brings Salisbury, Y17 and Y22; Norfolk; all in Burgundy, at Calais with
    Warwick. Edward IV and Richard III come back as March and Gloucester (2)."""
    s = war_state("IIIL", york, "H", y28=y28)
    check_common(s, "IIIL")
    yorkist = sorted(lid for lid in s["wars"]["heir_lords"] if load().lords[lid]["side"] == "York")
    assert yorkist == sorted(heirs)
    base = "Calais" if heirs == ["warwick_y"] else "Burgundy"
    for lid in [*heirs, "norfolk"]:
        assert where(s, lid) == ("map", base)
    assert where(s, "salisbury") == (("map", base) if salisbury else "-")
    assert s["wars"]["cards"]["York"] == cards
    assert where(s, "edward_iv") == "-" and where(s, "richard_iii") == "-"
    yorkist_seats = {load().lords[lid]["seat"] for lid in s["lords"] if load().lords[lid]["side"] == "York"
                     and s["lords"][lid]["where"] == Where.MAP} - {"London"}
    assert {loc for loc, side in s["favour"].items() if side == "York"} == yorkist_seats


# ----- the Influence charge (6.3 IIIY, IIIL Influence Track) -------------------------------------------------
@pytest.mark.parametrize(("war", "york", "lancaster", "by", "net"), [
    ("IIIY", "Y M", "M", "play", 8 * 3 - 8 * 2),
    ("IIIY", "Y", "H M S1 S2", "natural_causes", -8 * 3),
    ("IIIL", "Y M R G", "S2", "play", 8 * 3),
    ("IIIL", "G", "H", "natural_causes", 8 * 3 - 8 * 3),
    ("IIIY", "M", "M S2", "setup", 0),
])
def test_third_war_influence_charge_per_heir_6_3(war: str, york: str, lancaster: str, by: str, net: int) -> None:
    """6.3 IIIY/IIIL: each Heir (not Warwick) removed in an earlier War by Death, Shipwreck or
    Natural Causes costs his side 8 Influence at this setup (RULINGS R66); Heirs removed by a
    setup cost nothing; the second War's setups charge nothing."""
    s = war_state(war, york, lancaster, by=by)
    assert s["influence"] == net
    ii = war_state("IIY", "Y", "H")
    assert ii["influence"] == 0


# ----- every combination of survivors ------------------------------------------------------------------
def survivor_sets(ranks: dict[str, int]) -> list[str]:
    keys = list(ranks)
    return [" ".join(k for i, k in enumerate(keys) if mask >> i & 1) for mask in range(1 << len(keys))]


def possible(war: str, york: list[str], lancaster: list[str]) -> bool:
    """Whether the earlier Wars can leave these survivors for ``war``: War I's Automatic War
    Victory (6.3 War I) goes to York on the removal of Henry VI and Somerset (1), to Lancaster
    on that of York, March and Rutland; a side with no Heir left never wins a War before the
    third (the Dynastic Victory ends the game, 6.0)."""
    if war == "IIL":
        return "H" in lancaster or "S1" in lancaster
    if war in ("IIY", "IIIY"):
        return bool(york)
    return True


@pytest.mark.parametrize("war", ["IIY", "IIL", "IIIY", "IIIL"])
def test_every_combination_of_surviving_heirs_sets_up_a_legal_war_6_3(war: str) -> None:
    """Beyond the rows above (one per branch of each setup): every combination of Yorkist and
    Lancastrian survivors of the earlier Wars (Gloucester is no Heir of War I), with Y28 resolved
    or not, sets up the War with every card in one zone and the invariants kept, no removed Heir
    back in play, the side's Heirs in the War being those that remain (6.2.1), the King's side
    with one in play; or, when a side has no Heir of the War left, that War is lost at once
    (6.0) and the next one is set up."""
    york_ranks = {k: r for k, r in YORK.items() if war.startswith("III") or k != "G"}
    built = 0
    for york in survivor_sets(york_ranks):
        for lancaster in survivor_sets(LANC):
            if not possible(war, york.split(), lancaster.split()):
                continue
            for y28 in ((False, True) if war.startswith("III") else (False,)):
                s = war_state(war, york, lancaster, y28=y28)
                assert RULES.check_invariants(s) == [], (york, lancaster, y28)
                removed = {(r["side"], r["rank"]) for r in s["wars"]["removed"]}
                for lid, rank in s["wars"]["heir_lords"].items():
                    assert (sv.side_of(lid), rank) not in removed, (york, lancaster, lid)
                if s["war"] != war:  # a side had no Heir left: the War was lost as it began
                    assert not york.strip() or not lancaster.strip() or s["result"] is not None
                    continue
                check_common(s, war)
                king = "York" if war.endswith("Y") else "Lancaster"
                assert wars.highest(s, king) is not None, (york, lancaster, y28)
                built += 1
    assert built > 0
