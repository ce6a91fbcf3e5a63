"""Event cards (p.4 sidebar: the Event cards)."""

from __future__ import annotations

from roses.games.richard3.data import DEAD
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
    step_name,
)


def test_situation22_force_march_three_areas() -> None:
    """C130: Force March: one group, up to 3 areas (Cornwall→Somerset→Gloucester→Hereford), no sea."""
    s = keep_hands(new())
    play(s, "AP2", "Force March")
    assert s["p1"] == 1
    assert not args(s, L, "sea") and not args(s, L, "recruit")
    act(s, L, "move", "Cornwall")
    act(s, L, "block", "Devon/L")
    act(s, L, "to", "Somerset")
    act(s, L, "to", "Gloucester")
    assert "Hereford" in args(s, L, "to")
    act(s, L, "to", "Hereford")
    assert s["loc"][B("Devon/L")] == A("Hereford")
    assert step_name(s) == "group"  # 3 areas: stopped


def test_situation22_force_march_attacks_and_red_stop() -> None:
    """C130: Force March may attack; a red border still stops the block."""
    s = keep_hands(new())
    put(s, "Norfolk/Y", "Gloucester")
    play(s, "AP2", "Force March")
    act(s, L, "move", "Cornwall")
    act(s, L, "block", "Devon/L")
    act(s, L, "to", "Somerset")
    act(s, L, "to", "Gloucester")  # York there: attack, stop
    assert s["atk"][A("Gloucester")] == 1 and step_name(s) == "group"
    s2 = keep_hands(new())
    put(s2, "Buckingham/L", "Pembroke")
    play(s2, "AP2", "Force March")
    act(s2, L, "move", "Pembroke")
    act(s2, L, "block", "Buckingham/L")
    act(s2, L, "to", "Powys")  # red
    assert step_name(s2) == "group"


def _muster_position() -> dict:
    s = keep_hands(new())
    put(s, "Henry VI/L", "Lincoln")
    put(s, "Oxford/L", "Lincoln")
    put(s, "Norfolk/Y", "Middlesex")
    for k, a in (("Suffolk/Y", "Essex"), ("Arundel/Y", "Kent"), ("Hastings/Y", "Leicester"),
                 ("Herbert/Y", "Sussex"), ("Worcester/Y", "Rutland")):
        put(s, k, a)
    play(s, "Muster", "AP2")
    assert s["p1"] == 0
    return s


def test_situation22_muster_converges() -> None:
    """C131: Muster on friendly Middlesex: blocks from Essex, Kent, Leicester, Sussex and Rutland
    (via Essex or Leicester) all arrive in one action; no sea move."""
    s = _muster_position()
    assert "Middlesex" in args(s, Y, "muster")
    assert "Lincoln" not in args(s, Y, "muster")  # enemy area
    act(s, Y, "muster", "Middlesex")
    movers = set(args(s, Y, "block"))
    assert {"Suffolk/Y", "Arundel/Y", "Hastings/Y", "Herbert/Y", "Worcester/Y"} <= movers
    for k in ("Suffolk/Y", "Arundel/Y", "Hastings/Y", "Herbert/Y"):
        act(s, Y, "block", k)
        act(s, Y, "to", "Middlesex")
    act(s, Y, "block", "Worcester/Y")
    first = set(args(s, Y, "to"))
    assert {"Essex", "Leicester"} <= first
    assert "East Anglia" not in first  # cannot reach Middlesex from there in time
    act(s, Y, "to", "Essex")
    assert args(s, Y, "to") == ["Middlesex"] and ("stop", None) not in RULES.legal_actions(s, Y)
    act(s, Y, "to", "Middlesex")
    assert len(blocks_at(s, "Middlesex")) == 6


def test_situation22_muster_no_route_through_enemy() -> None:
    """C131: a block whose only routes pass an enemy area cannot muster."""
    s = _muster_position()
    put(s, "Beaumont/L", "Essex")
    put(s, "Clifford/L", "Leicester")
    s["loc"][B("Suffolk/Y")] = A("East Anglia")
    s["loc"][B("Hastings/Y")] = A("Oxford")
    act(s, Y, "muster", "Middlesex")
    assert "Worcester/Y" not in args(s, Y, "block")  # Rutland: via Essex or Leicester only, both enemy


def test_situation22_surprise_one_group() -> None:
    """C134: Surprise moves one group (1 AP) and no recruit."""
    s = keep_hands(new())
    put(s, "Norfolk/Y", "Kent")
    play(s, "Surprise", "AP2")
    assert not args(s, Y, "recruit")
    act(s, Y, "move", "Kent")
    act(s, Y, "end_group")
    assert RULES.active(s) == [L]


def test_situation24_treason_one_group_and_flag() -> None:
    """C135: Treason: move one group; the player holds one Treachery roll for a battle this turn."""
    s = keep_hands(new())
    play(s, "AP2", "Treason")
    assert s["p1"] == 1 and s["treason"] == 1
    assert not args(s, L, "sea") and not args(s, L, "recruit")
    act(s, L, "move", "Essex")
    act(s, L, "block", "Oxford/L")
    act(s, L, "to", "Middlesex")
    act(s, L, "stop")
    assert RULES.active(s) == [Y]  # one group: the Action Phase is over


def test_situation24_plague_kills_sole_heir_instant_win() -> None:
    """C133, C123, C139: Plague on Middlesex with Gloucester (sole York heir) at 1 step: he dies and
    Lancaster wins at once, before Player 2 acts."""
    s = keep_hands(new("richard-iii"))
    s["steps"][B("Gloucester/Y")] = 1
    play(s, "AP4", "Plague")
    assert s["p1"] == 1
    assert "Middlesex" in args(s, L, "plague")
    assert "East Anglia" in args(s, L, "plague") and "Wilts" not in args(s, L, "plague")
    act(s, L, "plague", "Middlesex")
    assert s["loc"][B("Gloucester/Y")] == DEAD
    assert RULES.result(s) == L and RULES.active(s) == []


def test_plague_every_block_loses_a_step() -> None:
    """C133: every block in the struck city area loses one step."""
    s = keep_hands(new("richard-iii"))
    put(s, "Westmoreland/Y", "East Anglia", steps=1)
    play(s, "AP4", "Plague")
    act(s, L, "plague", "East Anglia")
    assert s["steps"][B("Norfolk/Y")] == 3 and s["steps"][B("Suffolk/Y")] == 2
    assert s["loc"][B("Westmoreland/Y")] != A("East Anglia")
    assert s["down"][B("Westmoreland/Y")] == 1


def test_a10_plague_may_be_declined() -> None:
    """Ruling A10: the Plague player may end without striking."""
    s = keep_hands(new("richard-iii"))
    play(s, "AP4", "Plague")
    assert ("end", None) in RULES.legal_actions(s, L)
    act(s, L, "end")
    assert RULES.active(s) == [Y]
