"""Land movement, border limits, pinning (5.2, 5.21, 5.22)."""

from __future__ import annotations

import pytest

from roses.engine.errors import IllegalAction
from roses.games.richard3.data import POOL
from tests.richard3.helpers import (
    RULES,
    A,
    B,
    L,
    Y,
    act,
    args,
    bid,
    blocks_at,
    keep_hands,
    move,
    new,
    phase,
    play,
    put,
    step_name,
    to_battle_or_supply,
)

FIVE = ("Norfolk/Y", "Suffolk/Y", "Arundel/Y", "Essex/Y", "Hastings/Y")


def _five_in_middlesex(york_card: str) -> dict:
    s = keep_hands(new())
    put(s, "Henry VI/L", "Lincoln")
    for k in FIVE:
        put(s, k, "Middlesex")
    play(s, york_card, "AP2")
    assert s["p1"] == 0
    return s


def test_situation3_yellow_border_four_then_via_leicester() -> None:
    """5.21 example, C54, C58, C60: 4 of 5 blocks cross Middlesex–Oxford; the 5th must go via Leicester or Sussex."""
    s = _five_in_middlesex("AP4")
    act(s, Y, "move", "Middlesex")
    for k in FIVE[:4]:
        act(s, Y, "block", k)
        act(s, Y, "to", "Oxford")
        act(s, Y, "stop")
    act(s, Y, "block", FIVE[4])
    nxt = args(s, Y, "to")
    assert "Oxford" not in nxt and "Leicester" in nxt and "Sussex" in nxt
    act(s, Y, "to", "Leicester")
    assert "Oxford" in args(s, Y, "to")
    act(s, Y, "to", "Oxford")
    assert len(blocks_at(s, "Oxford")) == 5
    assert s["bc"][0][bid("Middlesex", "Oxford")] == 4 and s["bc"][0][bid("Leicester", "Oxford")] == 1


def test_situation3_surprise_plus_one() -> None:
    """C134 (Surprise): border limits +1, so all 5 cross Middlesex–Oxford directly."""
    s = _five_in_middlesex("Surprise")
    act(s, Y, "move", "Middlesex")
    for k in FIVE:
        act(s, Y, "block", k)
        assert "Oxford" in args(s, Y, "to")
        act(s, Y, "to", "Oxford")
        if step_name(s) == "path":
            act(s, Y, "stop")
    assert len(blocks_at(s, "Oxford")) == 5


def test_situation3_red_border_two_and_stop() -> None:
    """C59 (5.21): Cumbria→Lancaster is red: at most 2 cross and they must stop (none goes on to Chester)."""
    s = keep_hands(new())
    for k in ("Norfolk/Y", "Suffolk/Y", "Arundel/Y"):
        put(s, k, "Cumbria")
    play(s, "AP4", "AP2")
    act(s, Y, "move", "Cumbria")
    for k in ("Norfolk/Y", "Suffolk/Y"):
        act(s, Y, "block", k)
        act(s, Y, "to", "Lancaster")
        assert step_name(s) == "group"  # stopped at once after the red border
    act(s, Y, "block", "Arundel/Y")
    assert "Lancaster" not in args(s, Y, "to")


def test_situation3_counts_are_per_player() -> None:
    """C58 (5.21): each player has his own border counts; York's use does not limit Lancaster."""
    s = keep_hands(new())
    for k in ("Buckingham/L", "Shrewsbury/L"):
        put(s, k, "Cumbria")
    play(s, "AP2", "AP4")
    assert s["p1"] == 1
    s["bc"][0][bid("Cumbria", "Lancaster")] = 2
    move(s, L, "Cumbria", [("Buckingham/L", ["Lancaster"]), ("Shrewsbury/L", ["Lancaster"])])
    assert len(blocks_at(s, "Lancaster")) == 2


def test_situation3_estuaries_not_land_moves() -> None:
    """C57: no land move Glamorgan→Somerset, East Yorks→Lincoln, Kent→Essex."""
    s = keep_hands(new())
    put(s, "Norfolk/Y", "Glamorgan")
    put(s, "Suffolk/Y", "East Yorks")
    put(s, "Arundel/Y", "Kent")
    play(s, "AP4", "AP2")
    for area, bad, blk in (("Glamorgan", "Somerset", "Norfolk/Y"), ("East Yorks", "Lincoln", "Suffolk/Y"),
                           ("Kent", "Essex", "Arundel/Y")):
        act(s, Y, "move", area)
        act(s, Y, "block", blk)
        assert bad not in args(s, Y, "to")
        act(s, Y, "to", args(s, Y, "to")[0])
        if step_name(s) == "path":
            act(s, Y, "stop")
        if step_name(s) == "group":
            act(s, Y, "end_group")


def test_c55_stop_on_entering_enemy_area_and_c56_move_once() -> None:
    """C55, C56, C61: a block entering an enemy area stops (attack); a moved block cannot move again."""
    s = keep_hands(new())
    put(s, "Norfolk/Y", "Sussex")
    play(s, "AP4", "AP2")
    act(s, Y, "move", "Sussex")
    act(s, Y, "block", "Norfolk/Y")
    act(s, Y, "to", "Wilts")  # Wiltshire/L is there
    assert step_name(s) == "main"  # group over: nothing else in Sussex
    assert s["atk"][A("Wilts")] == 0
    assert "Wilts" not in args(s, Y, "move")


def test_c12_recruited_block_cannot_move() -> None:
    s = keep_hands(new())
    play(s, "AP4", "AP2")
    act(s, Y, "recruit", "Norfolk/Y")
    act(s, Y, "place", "East Anglia")
    assert "East Anglia" not in args(s, Y, "move")


def test_c27_enemy_exile_never_entered_by_land() -> None:
    """C27, C29: York may not enter Scotland by land; Lancaster may."""
    s = keep_hands(new())
    put(s, "Norfolk/Y", "Cumbria")
    play(s, "AP4", "AP2")
    act(s, Y, "move", "Cumbria")
    act(s, Y, "block", "Norfolk/Y")
    assert "Scotland" not in args(s, Y, "to")


def _pinning_position() -> dict:
    s = keep_hands(new())
    for k in ("Buckingham/L", "Northumberland/L", "Shrewsbury/L", "Westmoreland/L", "Stanley/L"):
        put(s, k, "Chester")
    for k in ("Norfolk/Y", "Suffolk/Y", "Arundel/Y"):
        put(s, k, "Derby")
    put(s, "Hastings/Y", "Warwick")
    play(s, "AP4", "AP2")
    move(s, Y, "Derby", [(k, ["Chester"]) for k in ("Norfolk/Y", "Suffolk/Y", "Arundel/Y")])
    move(s, Y, "Warwick", [("Hastings/Y", ["Chester"])])
    act(s, Y, "end")
    assert sorted(args(s, Y, "main")) == ["Derby", "Warwick"]  # A1: the attacker declares
    act(s, Y, "main", "Derby")
    assert RULES.active(s) == [L]
    return s


def test_situation5_pinning_two_may_leave() -> None:
    """5.22 example, C62, C63: 3 non-reserve attackers pin 3 of 5 defenders; Lancaster chooses
    which 2 leave; never across the Chester–Derby or Chester–Warwick borders."""
    s = _pinning_position()
    assert s["reserve"][B("Hastings/Y")] == 1 and s["reserve"][B("Norfolk/Y")] == 0
    act(s, L, "move", "Chester")
    act(s, L, "block", "Stanley/L")
    assert set(args(s, L, "to")) == {"Lancaster", "Caernarvon", "Powys", "Hereford"}
    act(s, L, "to", "Hereford")
    act(s, L, "stop")
    act(s, L, "block", "Buckingham/L")
    act(s, L, "to", "Lancaster")
    act(s, L, "stop")
    assert step_name(s) == "main"  # the 3 left are pinned: the group closes itself
    assert "Chester" not in args(s, L, "move")
    assert not set(args(s, L, "sea")) & {"Northumberland/L", "Shrewsbury/L", "Westmoreland/L"}


def test_situation5_unpinned_may_sea_move() -> None:
    """C63: an unpinned defender may also leave by sea."""
    s = _pinning_position()
    assert "Stanley/L" in args(s, L, "sea")
    act(s, L, "sea", "Stanley/L")
    assert "Isle of Man" in args(s, L, "sea_to")


def test_illegal_move_leaves_state_untouched() -> None:
    from roses.engine.game import digest
    s = keep_hands(new())
    play(s, "AP4", "AP2")
    d = digest(s)
    with pytest.raises(IllegalAction):
        act(s, Y, "move", "Middlesex")
    with pytest.raises(IllegalAction):
        act(s, Y, "to", "Kent")
    with pytest.raises(IllegalAction):
        act(s, L, "end")
    assert digest(s) == d
    assert s["loc"][B("Norfolk/Y")] == POOL


def test_c86_fourth_attack_border_prohibited() -> None:
    """C86 (6.3): an attacker may use at most 3 borders into one battle."""
    s = keep_hands(new())
    put(s, "Henry VI/L", "Lincoln")
    put(s, "Oxford/L", "Middlesex")
    for k, a in (("Norfolk/Y", "Essex"), ("Suffolk/Y", "Kent"), ("Arundel/Y", "Sussex"), ("Hastings/Y", "Oxford")):
        put(s, k, a)
    s["loc"][B("Oxford/L")] = A("Middlesex")
    play(s, "AP4", "AP2")
    move(s, Y, "Essex", [("Norfolk/Y", ["Middlesex"])])
    move(s, Y, "Kent", [("Suffolk/Y", ["Middlesex"])])
    move(s, Y, "Sussex", [("Arundel/Y", ["Middlesex"])])
    act(s, Y, "move", "Oxford")
    act(s, Y, "block", "Hastings/Y")
    assert "Middlesex" not in args(s, Y, "to")


def test_c91_p2_reinforcement_two_borders() -> None:
    """C91 (6.3 example): P2 blocks moving into a battle P1 started are Reserves; at most 2 borders."""
    s = keep_hands(new())
    put(s, "Oxford/L", "Essex")
    put(s, "Beaumont/L", "Essex")
    for k in ("Norfolk/Y", "Suffolk/Y", "Arundel/Y"):
        put(s, k, "Rutland")
    for k in ("Buckingham/L", "Shrewsbury/L", "Westmoreland/L"):
        put(s, k, "East Anglia")
    put(s, "Stanley/L", "Middlesex")
    put(s, "Rivers/L", "Leicester")
    put(s, "Henry VI/L", "Lincoln")
    play(s, "AP4", "AP4")
    s["p1"] = 0
    move(s, Y, "Rutland", [(k, ["Essex"]) for k in ("Norfolk/Y", "Suffolk/Y", "Arundel/Y")])
    to_battle_or_supply_once(s)
    move(s, L, "East Anglia", [("Buckingham/L", ["Essex"])])
    move(s, L, "Middlesex", [("Stanley/L", ["Essex"])])
    assert s["reserve"][B("Buckingham/L")] == 2 and s["reserve"][B("Stanley/L")] == 2
    act(s, L, "move", "Leicester")
    act(s, L, "block", "Rivers/L")
    assert "Essex" not in args(s, L, "to")  # a third reinforcing border


def to_battle_or_supply_once(s: dict) -> None:
    """End P1's Action Phase only."""
    act(s, RULES.active(s)[0], "end")


def test_to_battle_helper_runs() -> None:
    s = keep_hands(new())
    play(s, "AP2", "AP2")
    to_battle_or_supply(s)
    assert phase(s) in ("card", "battle", "supply")
