"""Retreats, round 4, regroups and Piracy (rules 6.6, 6.7, 6.2, 2.7, 5.3, Piracy card;
rulings A4, A5, A7)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from roses.engine.errors import IllegalAction
from roses.games.richard3.data import BLOCK_ID
from tests.richard3.helpers import bid, step_name
from tests.richard3.test_battle_kit import (
    L,
    Y,
    args,
    at,
    base,
    begin,
    do,
    enter,
    group,
    log_text,
    pass_until,
    turn,
    verbs,
)


def _dests(s: dict, role: str, key: str, verb: str = "retreat") -> set[str]:
    return {a[1] for a in args(s, role, verb) if a[0] == key}


def _round(n: int, role: str | None = None) -> Callable[[dict], bool]:
    """Predicate: the battle is in round n (and, if given, role is acting)."""
    return lambda x: x["battle"]["round"] == n and (role is None or turn(x) == role)


# ------------------------------------------------------------------ C96, situation 12
def test_situation12_no_retreat_in_round_1_then_friendly_or_vacant_only() -> None:
    """§6 situation 12, C96 (6.6): no retreat in round 1; from round 2 a block retreats to an
    adjacent friendly or vacant area (several areas by different borders), never to an enemy or
    contested area."""
    s = base()
    enter(s, "Oxford/L", "Oxford")
    enter(s, "Beaumont/L", "Oxford")
    enter(s, "Wiltshire/L", "Gloucester")          # friendly neighbour
    enter(s, "Norfolk/Y", "Sussex")                # enemy neighbour
    enter(s, "Essex/Y", "Leicester")               # contested neighbour
    enter(s, "Pembroke/L", "Leicester")
    enter(s, "Suffolk/Y", "Oxford", frm="Middlesex")
    begin(s, "Oxford", Y)
    assert group(s) == ["Oxford/L"] and "retreat" not in verbs(s, L)
    pass_until(s, _round(2, L))
    d = _dests(s, L, "Oxford/L")
    assert d == {"Warwick", "Gloucester", "Wilts"}   # not Middlesex (York's entry), Sussex, Leicester
    do(s, L, "retreat", ["Oxford/L", "Gloucester"])
    do(s, L, "retreat", ["Beaumont/L", "Wilts"])     # the other block by another border
    assert at(s, "Oxford/L") == "Gloucester" and at(s, "Beaumont/L") == "Wilts"
    assert step_name(s) == "regroup" and s["stack"][-1]["side"] == 0


def test_c96_never_into_enemy_exile() -> None:
    """C96 with 2.7: York may not retreat from Cumbria into (vacant) Scotland; Lancaster may."""
    s = base()
    enter(s, "Norfolk/Y", "Cumbria")
    enter(s, "Clifford/L", "Cumbria", frm="Lancaster")
    begin(s, "Cumbria", L)
    pass_until(s, _round(2, Y))
    assert "Scotland" not in _dests(s, Y, "Norfolk/Y")
    s2 = base()
    enter(s2, "Clifford/L", "Cumbria")
    enter(s2, "Norfolk/Y", "Cumbria", frm="Lancaster")
    begin(s2, "Cumbria", Y)
    pass_until(s2, _round(2, L))
    assert "Scotland" in _dests(s2, L, "Clifford/L")


# ------------------------------------------------------------------ C97 entry borders
def test_c97_no_retreat_across_enemy_entry_border_p2_exception() -> None:
    """C97 (6.6): a block may not retreat across a border the enemy used to enter the battle; if
    both players crossed it, only Player 2 may retreat across it."""
    s = base()
    enter(s, "Oxford/L", "Oxford", frm="Warwick")   # Lancaster (P2) also came in over Warwick–Oxford
    enter(s, "Norfolk/Y", "Oxford", frm="Warwick")
    enter(s, "Suffolk/Y", "Oxford", frm="Leicester")
    begin(s, "Oxford", Y, p1=Y)
    pass_until(s, _round(2, Y))
    assert set(group(s)) == {"Norfolk/Y", "Suffolk/Y"}
    assert "Warwick" not in _dests(s, Y, "Norfolk/Y")      # P1: Lancaster crossed it too
    assert "Leicester" in _dests(s, Y, "Norfolk/Y")        # York's own border
    do(s, Y, "pass", "Norfolk/Y")
    do(s, Y, "pass", "Suffolk/Y")
    pass_until(s, _round(3))
    assert turn(s) == L
    d = _dests(s, L, "Oxford/L")
    assert "Warwick" in d and "Leicester" not in d


# ------------------------------------------------------------------ C98 border limits per round
def test_c98_situation12_red_border_two_per_round() -> None:
    """C98, §6 situation 12 (6.6): border limits apply to retreats each battle round: only 2 of 3
    blocks cross the red Lancaster–Cumbria border in a round; the count resets next round."""
    s = base()
    for k in ("Clifford/L", "Beaumont/L", "Wiltshire/L"):
        enter(s, k, "Lancaster")
    enter(s, "Norfolk/Y", "Lancaster", frm="Chester")
    enter(s, "Suffolk/Y", "Derby")       # enemy: Derby closed
    enter(s, "Arundel/Y", "North Yorks")  # enemy
    enter(s, "Essex/Y", "South Yorks")    # enemy
    begin(s, "Lancaster", Y)
    pass_until(s, _round(2, L))
    assert group(s) == ["Clifford/L"]
    do(s, L, "retreat", ["Clifford/L", "Cumbria"])
    do(s, L, "retreat", ["Beaumont/L", "Cumbria"])
    assert "Cumbria" not in _dests(s, L, "Wiltshire/L")
    assert _dests(s, L, "Wiltshire/L") == set()      # Chester is York's entry border
    do(s, L, "pass", "Wiltshire/L")
    pass_until(s, _round(3, L))
    assert _dests(s, L, "Wiltshire/L") == {"Cumbria"}


def test_a5_surprise_does_not_widen_retreats() -> None:
    """Ruling A5: Surprise's +1 is for its one group's move, not for retreats."""
    s = base()
    s["surprise"] = 1
    for k in ("Clifford/L", "Beaumont/L", "Wiltshire/L"):
        enter(s, k, "Lancaster")
    enter(s, "Norfolk/Y", "Lancaster", frm="Chester")
    for k, a in (("Suffolk/Y", "Derby"), ("Arundel/Y", "North Yorks"), ("Essex/Y", "South Yorks")):
        enter(s, k, a)
    begin(s, "Lancaster", Y)
    pass_until(s, _round(2, L))
    do(s, L, "retreat", ["Clifford/L", "Cumbria"])
    do(s, L, "retreat", ["Beaumont/L", "Cumbria"])
    assert "Cumbria" not in _dests(s, L, "Wiltshire/L")


# ------------------------------------------------------------------ C99 round 4
def test_c99_attacker_that_cannot_retreat_in_round_4_is_eliminated() -> None:
    """C99, situation 12 (6.6): an attacker that must retreat in round 4 but cannot is eliminated
    on its battle turn (Norfolk attacked Cornwall from Somerset; Somerset and Dorset are now
    enemy areas)."""
    s = base()
    enter(s, "Devon/L", "Cornwall")
    enter(s, "Norfolk/Y", "Cornwall", frm="Somerset")
    enter(s, "Wiltshire/L", "Somerset")
    enter(s, "Beaumont/L", "Dorset")
    begin(s, "Cornwall", Y)
    pass_until(s, lambda x: x["battle"]["round"] == 4 or step_name(x) == "regroup")
    # Devon (B) and Norfolk (B): the defender first, then Norfolk's turn eliminates it
    assert turn(s) == L and group(s) == ["Devon/L"]
    do(s, L, "pass", "Devon/L")
    assert at(s, "Norfolk/Y") == "dead"
    assert "cannot retreat and is eliminated" in log_text(s)
    assert step_name(s) == "regroup" and s["stack"][-1]["side"] == 1


def test_a7_round_4_attacker_has_no_treachery() -> None:
    """Ruling A7: an attacking King/Pretender/Warwick in round 4 may only retreat (Warwick may roll
    on Kent in round 1, not in round 4)."""
    s = base()
    enter(s, "Kent/L", "Oxford")
    enter(s, "Warwick/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y)
    assert turn(s) == L
    do(s, L, "pass", "Kent/L")
    assert args(s, Y, "treachery") == [["Warwick/Y", "Kent/L"]]
    pass_until(s, _round(4, Y))
    assert verbs(s, Y) == {"retreat"}


# ------------------------------------------------------------------ C100 regroup
def test_c100_victor_regroups_including_reserves_border_limits() -> None:
    """C100 (6.7): the victor may regroup any of its blocks in the area, Reserves included, to
    adjacent friendly or vacant areas (not enemy or contested), border limits apply, never by
    sea; the reserve that never joined is not named in the log."""
    s = base()
    enter(s, "Devon/L", "Oxford", steps=1)
    enter(s, "Herbert/Y", "Oxford", frm="Warwick")
    enter(s, "Norfolk/Y", "Oxford", frm="Warwick")
    enter(s, "Suffolk/Y", "Oxford", frm="Middlesex", reserve=1)
    enter(s, "Wiltshire/L", "Gloucester")   # enemy neighbour
    begin(s, "Oxford", Y)
    do(s, Y, "fire", "Herbert/Y", dice=(1, 6, 6))
    bt = s["battle"]
    assert bt is not None and step_name(s) == "regroup" and turn(s) == Y
    d = _dests(s, Y, "Suffolk/Y", "regroup")
    assert "Gloucester" not in d and {"Warwick", "Leicester", "Middlesex", "Sussex", "Wilts"} <= d
    do(s, Y, "regroup", ["Suffolk/Y", "Sussex"])
    assert "Duke of Suffolk" not in log_text(s) and "A York block regroups to Sussex" in log_text(s)
    assert at(s, "Suffolk/Y") == "Sussex"
    do(s, Y, "regroup", ["Herbert/Y", "Wilts"])
    assert at(s, "Herbert/Y") == "Wilts"
    do(s, Y, "end_regroup")
    assert s["battle"] is None and at(s, "Norfolk/Y") == "Oxford"


def test_c100_regroup_border_limit() -> None:
    """C100: border limits apply to the regroup (blue Oxford–Sussex: 3)."""
    s = base()
    enter(s, "Devon/L", "Oxford", steps=1)
    for k in ("Herbert/Y", "Norfolk/Y", "Suffolk/Y", "Arundel/Y"):
        enter(s, k, "Oxford", frm="Warwick")
    begin(s, "Oxford", Y)
    do(s, Y, "fire", "Herbert/Y", dice=(1, 6, 6))
    for k in ("Herbert/Y", "Norfolk/Y", "Suffolk/Y"):
        do(s, Y, "regroup", [k, "Sussex"])
    assert "Sussex" not in _dests(s, Y, "Arundel/Y", "regroup")
    with pytest.raises(IllegalAction):
        do(s, Y, "regroup", ["Arundel/Y", "Sussex"])


def test_c100_regroup_ends_by_itself_when_nothing_can_move() -> None:
    """C100: with no legal regroup the battle simply ends (the core continues)."""
    s = base()
    enter(s, "Devon/L", "Cornwall", steps=1)
    enter(s, "Norfolk/Y", "Cornwall", frm="Somerset")
    enter(s, "Wiltshire/L", "Somerset")
    enter(s, "Beaumont/L", "Dorset")
    begin(s, "Cornwall", Y)
    do(s, L, "pass", "Devon/L")
    do(s, Y, "fire", "Norfolk/Y", dice=(1, 1, 1, 1))
    assert s["battle"] is None and at(s, "Norfolk/Y") == "Cornwall"


# ------------------------------------------------------------------ C132 Piracy, ruling A4
def _pirates() -> dict:
    s = base()
    s["piracy"] = 0
    enter(s, "Abp Canterbury/L", "Kent")
    enter(s, "Norfolk/Y", "Kent", frm="North Sea", pirate="North Sea")
    enter(s, "Suffolk/Y", "Kent", frm="North Sea", pirate="North Sea")
    enter(s, "Oxford/L", "Essex")         # enemy coastal area on the North Sea
    return begin(s, "Kent", Y)


def test_c132_piracy_attackers_retreat_only_by_sea_same_zone() -> None:
    """C132, ruling A4 (Piracy): attacking pirates retreat only by sea, to a friendly or vacant
    coastal area of the zone they crossed (North Sea), never to an enemy area or an enemy exile
    area (Scotland), never by land (Middlesex, Sussex)."""
    s = _pirates()
    pass_until(s, _round(2, Y))
    d = _dests(s, Y, "Norfolk/Y")
    assert "Calais" in d and "East Anglia" in d and "Middlesex" in d
    assert "Essex" not in d and "Scotland" not in d and "Sussex" not in d
    assert "Dorset" not in d  # Channel only: not the zone crossed
    do(s, Y, "retreat", ["Norfolk/Y", "Calais"])
    assert at(s, "Norfolk/Y") == "Calais" and "by sea" in log_text(s)


def test_c132_piracy_regroup_by_sea_defender_by_land() -> None:
    """C132: a victorious pirate regroups by sea only; a block without Piracy never by sea."""
    s = _pirates()
    assert turn(s) == Y and sorted(group(s)) == ["Norfolk/Y", "Suffolk/Y"]  # B attackers before C
    do(s, Y, "fire", "Norfolk/Y", dice=(1, 1, 1, 1))
    assert step_name(s) == "regroup"
    d = _dests(s, Y, "Suffolk/Y", "regroup")
    assert "Calais" in d and "East Anglia" in d and "Sussex" not in d and "Middlesex" in d
    do(s, Y, "regroup", ["Suffolk/Y", "Calais"])
    assert at(s, "Suffolk/Y") == "Calais"
    s2 = base()
    enter(s2, "Norfolk/Y", "Kent")
    enter(s2, "Abp Canterbury/L", "Kent", frm="Sussex", steps=1)
    begin(s2, "Kent", L)
    assert turn(s2) == Y
    do(s2, Y, "fire", "Norfolk/Y", dice=(1, 1, 1, 1))
    assert step_name(s2) == "regroup"
    assert _dests(s2, Y, "Norfolk/Y", "regroup") == {"Middlesex", "Sussex"}


def test_retreat_leaves_acted_block_out_and_battle_goes_on() -> None:
    """6.6: a retreat is the block's battle turn; the rest of the battle goes on without it."""
    s = base()
    enter(s, "Oxford/L", "Oxford")
    enter(s, "Norfolk/Y", "Oxford", frm="Warwick")
    enter(s, "Suffolk/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y)
    pass_until(s, _round(2, Y))
    do(s, Y, "retreat", ["Norfolk/Y", "Warwick"])
    assert step_name(s) == "turn" and group(s) == ["Suffolk/Y"]
    assert s["loc"][BLOCK_ID["Norfolk/Y"]] != s["battle"]["area"]


def test_c98_retreat_counts_are_per_side_and_defenders_may_retreat_in_round_4() -> None:
    """C98 (5.21 "Border limits apply to each player"): York's retreats over a border do not use
    Lancaster's count; a defender may still retreat (optionally) in round 4."""
    s = base()
    for k in ("Clifford/L", "Beaumont/L"):
        enter(s, k, "Oxford")
    for k in ("Norfolk/Y", "Suffolk/Y"):
        enter(s, k, "Oxford", frm="Middlesex")
    begin(s, "Oxford", Y, p1=Y)
    pass_until(s, _round(4, L))
    assert group(s) == ["Clifford/L"]
    do(s, L, "retreat", ["Clifford/L", "Wilts"])
    assert group(s) == ["Beaumont/L"] and "Wilts" in _dests(s, L, "Beaumont/L")
    pass_until(s, lambda x: turn(x) == Y)
    from roses.games.richard3.data import N_BORDERS
    assert s["battle"]["rc"] == [N_BORDERS + bid("Oxford", "Wilts")]  # one Lancaster crossing only


def test_c100_regroup_never_into_contested_area() -> None:
    """C100 (6.7): never to an enemy or contested area."""
    s = base()
    enter(s, "Devon/L", "Oxford", steps=1)
    enter(s, "Herbert/Y", "Oxford", frm="Warwick")
    enter(s, "Arundel/Y", "Sussex")
    enter(s, "Wiltshire/L", "Sussex", frm="Wilts")   # Sussex is contested (a battle to come)
    begin(s, "Oxford", Y)
    do(s, Y, "fire", "Herbert/Y", dice=(1, 6, 6))
    d = _dests(s, Y, "Herbert/Y", "regroup")
    assert "Sussex" not in d and "Warwick" in d


def test_c132_piracy_through_the_core() -> None:
    """C132, ruling A4, through the core's sea moves: York's pirates attack Cornwall from Calais
    across the Channel; from round 2 they may retreat only by sea to friendly/vacant Channel areas
    (Calais, Sussex, Kent), not to enemy Dorset, enemy-exile France or by land to Somerset."""
    from tests.richard3 import helpers as H
    s = H.keep_hands(H.new())
    H.play(s, "Piracy", "AP2")
    for k in ("Warwick/Y", "Salisbury/Y"):
        H.act(s, Y, "sea", k)
        H.act(s, Y, "sea_to", "Cornwall")
    H.to_battle_or_supply(s)
    bt = s["battle"]
    assert bt is not None and bt["area"] == H.A("Cornwall") and bt["att"] == 0
    pass_until(s, _round(2, Y))
    d = _dests(s, Y, "Warwick/Y")
    assert {"Calais", "Sussex", "Kent"} <= d
    assert not d & {"Dorset", "France", "Somerset", "Middlesex"}
    H.act(s, Y, "retreat", ["Warwick/Y", "Calais"])
    assert at(s, "Warwick/Y") == "Calais"
