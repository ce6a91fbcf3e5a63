"""Sea moves and ports (5.3, 5.31) and Piracy (p.4 sidebar)."""

from __future__ import annotations

from tests.richard3.helpers import (
    RULES,
    A,
    B,
    L,
    Y,
    act,
    args,
    blocks_at,
    keep_hands,
    new,
    play,
    put,
)


def _york(card: str = "AP2") -> dict:
    s = keep_hands(new())
    play(s, card, "AP2" if card != "AP2" else "AP2")
    if s["p1"] != 0:
        s["p1"] = 0
    return s


def test_situation4_port_pair_two_blocks_one_ap() -> None:
    """C71 (5.31, example turn): Warwick and Salisbury Calais→East Anglia (major→major) for 1 AP;
    a third block on that route costs 1 more."""
    s = keep_hands(new())
    play(s, "AP3", "AP2")
    act(s, Y, "sea", "Warwick/Y")
    act(s, Y, "sea_to", "East Anglia")
    assert s["stack"][0]["ap"] == 2
    act(s, Y, "sea", "Salisbury/Y")
    act(s, Y, "sea_to", "East Anglia")
    assert s["stack"][0]["ap"] == 2  # paired: free
    act(s, Y, "sea", "Kent/Y")
    act(s, Y, "sea_to", "East Anglia")
    assert s["stack"][0]["ap"] == 1
    assert len(blocks_at(s, "East Anglia")) == 3


def test_situation4_minor_port_costs_one_each() -> None:
    """C64, C71: Calais→Essex (a minor port) costs 1 AP per block."""
    s = keep_hands(new())
    put(s, "Oxford/L", "Lincoln")
    play(s, "AP3", "AP2")
    act(s, Y, "sea", "Warwick/Y")
    act(s, Y, "sea_to", "Essex")
    act(s, Y, "sea", "Salisbury/Y")
    act(s, Y, "sea_to", "Essex")
    assert s["stack"][0]["ap"] == 1


def test_situation4_ap2_four_blocks_to_kent() -> None:
    """5.3 example: AP2 moves 4 blocks Calais→Kent (two port pairs)."""
    s = keep_hands(new())
    play(s, "AP2", "AP2")
    for k in ("Warwick/Y", "Salisbury/Y", "Kent/Y", "March/Y"):
        act(s, Y, "sea", k)
        act(s, Y, "sea_to", "Kent")
    assert len(blocks_at(s, "Kent")) == 4


def test_situation4_illegal_destinations_and_blocks() -> None:
    """C64, C65, C66, C67, C68, C70, C27: Calais cannot reach Glamorgan; no sea to Hereford/Gloucester/South Yorks;
    no enemy or contested destination without Piracy; Scots/Welsh/Rebel/levies never sea move."""
    s = keep_hands(new())
    put(s, "Rebel/R", "Rutland")
    put(s, "London levy/Y", "Essex")
    play(s, "AP4", "AP2")
    act(s, Y, "sea", "Warwick/Y")
    dests = set(args(s, Y, "sea_to"))
    assert "Glamorgan" not in dests and "Cornwall" not in dests  # Irish Sea / enemy-held
    assert not dests & {"Hereford", "Gloucester", "South Yorks", "France", "Scotland"}
    assert "Isle of Man" not in dests
    act(s, Y, "sea_to", "Kent")
    sea_blocks = set(args(s, Y, "sea"))
    assert "Rebel/R" not in sea_blocks and "London levy/Y" not in sea_blocks
    # C65: a block that sea moved may not land move
    assert "Kent" not in args(s, Y, "move")


def test_situation4_legal_cornwall_kent_and_ireland_man() -> None:
    """C67, C28, C31: Cornwall→Kent (Channel) for Lancaster; Ireland→Isle of Man for York."""
    s = keep_hands(new())
    play(s, "AP2", "AP4")
    assert s["p1"] == 1
    act(s, L, "sea", "Exeter/L")
    assert "Kent" in args(s, L, "sea_to")
    assert "Calais" not in args(s, L, "sea_to") and "Ireland" not in args(s, L, "sea_to")
    act(s, L, "sea_to", "Kent")
    assert "Scots/L" not in args(s, L, "sea")
    act(s, L, "end")
    act(s, Y, "sea", "Duke of York/Y")
    assert "Isle of Man" in args(s, Y, "sea_to")


def test_c132_piracy_attack_no_pairing() -> None:
    """C132, ruling A4: Piracy lets sea moves attack an enemy coastal area; an attacking move costs
    1 AP (no port pairing), marks the pirate's zones; land moves and recruits are not allowed."""
    s = keep_hands(new())
    play(s, "Piracy", "AP2")
    assert s["p1"] == 0 and s["piracy"] == 0
    assert not args(s, Y, "move") and not args(s, Y, "recruit")
    act(s, Y, "sea", "Warwick/Y")
    assert "Cornwall" in args(s, Y, "sea_to")  # enemy-held, on the Channel
    act(s, Y, "sea_to", "Cornwall")
    assert s["stack"][0]["ap"] == 1 and s["atk"][A("Cornwall")] == 0
    assert s["pirate"][B("Warwick/Y")] == 1 << 1  # English Channel
    act(s, Y, "sea", "Salisbury/Y")
    act(s, Y, "sea_to", "Cornwall")
    assert RULES.active(s) == [L]  # 2 AP spent


def test_surprise_allows_sea_move() -> None:
    """C134: Surprise may be used for a normal sea move."""
    s = keep_hands(new())
    play(s, "Surprise", "AP2")
    assert "Warwick/Y" in args(s, Y, "sea")
