"""Component data (rules 2.x, 3.x and the component list): counts and facts, checked against the
loaded tables."""

from __future__ import annotations

from roses.games.richard3 import data as D
from tests.richard3.helpers import A, B, bid


def test_component_counts() -> None:
    """Component counts (map of 2.x): 33 areas (28 land, Isle of Man, 4 exile), 62 borders 24/26/12, 28 sea links,
    14 major ports, 11 crowns, 7 cities, 2 cathedrals, 42 shields in 24 areas, 63 blocks, 25 cards."""
    D.check_data()
    assert D.N_AREAS == 33 and D.N_BORDERS == 62 and D.N_BLOCKS == 63 and D.N_CARDS == 25
    assert sorted(D.BORDER_COLOR.count(c) for c in ("yellow", "blue", "red")) == [12, 24, 26]
    assert sum(len(s) for s in D.AREA_SEAS) == 28
    assert sum(1 for p in D.PORT if p == 2) == 14
    assert len(D.CROWN_AREAS) == 11 and len(D.CITY_AREAS) == 7 and len(D.CATHEDRAL_AREA) == 2
    assert sum(len(s) for s in D.AREA_SHIELDS) == 42
    assert len(D.BLOCKS_OF[D.YORK]) == 31 and len(D.BLOCKS_OF[D.LANCASTER]) == 31


def test_c51_deck() -> None:
    """C51 (5.1): 6×AP2, 7×AP3, 6×AP4 and six events with AP FM1 Muster0 Piracy2 Plague0 Surprise1 Treason1."""
    aps = [D.CARD_AP[c] for c in range(25) if D.CARD_EVENT[c] is None]
    assert (aps.count(2), aps.count(3), aps.count(4)) == (6, 7, 6)
    ev = {D.CARD_EVENT[c]: D.CARD_AP[c] for c in range(25) if D.CARD_EVENT[c]}
    assert ev == {"Force March": 1, "Muster": 0, "Piracy": 2, "Plague": 0, "Surprise": 1, "Treason": 1}


def test_c57_estuaries_no_land_border() -> None:
    """C57 (5.2 sidebar): no land border Glamorgan–Somerset, East Yorks–Lincoln, Kent–Essex."""
    assert bid("Glamorgan", "Somerset") == -1
    assert bid("East Yorks", "Lincoln") == -1
    assert bid("Kent", "Essex") == -1


def test_border_colours_from_rule_examples() -> None:
    """5.21 examples: Middlesex–Oxford yellow; Oxford–Sussex, East Anglia–Rutland, Rutland–Essex blue."""
    assert D.BORDER_LIMIT[bid("Middlesex", "Oxford")] == 4
    for a, b in (("Oxford", "Sussex"), ("East Anglia", "Rutland"), ("Rutland", "Essex")):
        assert D.BORDER_LIMIT[bid(a, b)] == 3
    assert D.BORDER_LIMIT[bid("Cumbria", "Lancaster")] == 2


def test_c30_c67_c68_seas() -> None:
    """C30, C67, C68 (2.81, 5.3): two-zone areas; no sea access for Hereford, Gloucester, South Yorks; Middlesex is a port."""
    two = {D.AREA_NAMES[a] for a in range(33) if len(D.AREA_SEAS[a]) == 2}
    assert two == {"Scotland", "Cornwall", "Kent", "Calais", "France"}
    for a in ("Hereford", "Gloucester", "South Yorks"):
        assert not D.AREA_SEAS[A(a)]
    assert D.PORT[A("Middlesex")] == 2
    assert A("Glamorgan") not in D.SEA_DEST[A("Calais")]
    assert A("East Anglia") not in D.SEA_DEST[A("France")]


def test_c31_isle_of_man_sea_only() -> None:
    """C31 (2.82): the Isle of Man has no land border and holds a Stanley shield."""
    assert not D.ADJ[A("Isle of Man")]
    assert "Stanley" in D.AREA_SHIELDS[A("Isle of Man")]


def test_blocks_ratings_samples() -> None:
    """C33-C42 (3.x): sample ratings from the blocks and the rule examples."""
    assert (D.B_INIT[B("Herbert/Y")], D.B_FIRE[B("Herbert/Y")]) == ("A", 2)
    assert D.B_LOYALTY[B("Rivers/L")] == 1 and D.B_LOYALTY[B("Rivers/Y")] == 2
    assert D.B_STEPS[B("Henry VI/L")] == 4 and D.B_INIT[B("Bombard/Y")] == "D"
    assert D.B_PAIR[B("Clarence/Y")] == B("Clarence/L") and D.B_PAIR[B("Exeter/L")] == B("Exeter/Y")
    assert D.B_NEVILLE[B("Warwick/Y")] and D.B_NEVILLE[B("Kent/L")]
    assert [D.BLOCK_KEY[h] for h in D.HEIRS[D.LANCASTER]] == [
        "Henry VI/L", "Prince Edward/L", "Exeter/L", "Somerset/L", "Richmond/L"]
    assert B("Bombard/Y") not in D.NO_SEA and B("Scots/L") in D.NO_SEA and B("London levy/Y") in D.NO_SEA


def test_c26_c32_exile_areas_and_ports() -> None:
    """C26 (2.7): Lancaster's exiles are France and Scotland, York's Calais and Ireland.
    C32 (2.83): 14 major ports (ship symbols), every other coastal area a minor port."""
    assert {D.AREA_NAMES[a] for a in D.EXILE_AREAS[D.LANCASTER]} == {"France", "Scotland"}
    assert {D.AREA_NAMES[a] for a in D.EXILE_AREAS[D.YORK]} == {"Calais", "Ireland"}
    majors = {D.AREA_NAMES[a] for a in range(33) if D.PORT[a] == 2}
    assert majors == {"Chester", "Glamorgan", "Somerset", "Cornwall", "Northumbria", "East Yorks", "East Anglia",
                      "Middlesex", "Kent", "Sussex", "Ireland", "Scotland", "France", "Calais"}
    assert all((D.PORT[a] > 0) == bool(D.AREA_SEAS[a]) for a in range(33))
