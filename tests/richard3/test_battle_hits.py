"""Fire, hits, defence bonuses and heir charges (rules 6.4, 6.5, 2.2-2.6, 3.11-3.12, 3.21-3.24;
ruling A11)."""

from __future__ import annotations

from roses.games.richard3 import battle as BT
from roses.games.richard3.data import AREA_ID, BLOCK_ID, DEAD
from tests.richard3.helpers import step_name
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
    pass_until,
    steps,
    turn,
)


def _fp(s: dict, role: str, key: str) -> int:
    """Firepower of a block as the battle view shows it (with any defence bonus)."""
    return [b for b in BT.view_part(s, role)["blocks"] if b["key"] == key][0]["firepower"]


# ------------------------------------------------------------------ C33, C34, C92
def test_c33_c92_one_die_per_step_hits_at_or_below_firepower() -> None:
    """C33 (3.11): a block rolls one die per current step; C92 (6.4): a die hits if it is at or
    below firepower (Stanley B2 example: 1s and 2s hit); each hit removes one step."""
    s = base()
    enter(s, "Stanley/L", "Oxford", steps=3)          # B2 defender, no shield in Oxford
    enter(s, "Norfolk/Y", "Oxford", frm="Warwick")    # 4 steps
    begin(s, "Oxford", Y)
    rolls = s["rolls"]
    do(s, L, "fire", "Stanley/L", dice=(2, 3, 1))
    assert s["rolls"] == rolls + 3
    assert s["battle"]["last"]["dice"] == [2, 3, 1] and s["battle"]["last"]["hits"] == 2
    assert steps(s, "Norfolk/Y") == 2


def test_c34_number_is_the_highest_hitting_roll() -> None:
    """C34 (3.12): B3 hits on 1-3, not on 4."""
    s = base()
    enter(s, "Salisbury/L", "Oxford")                 # B2 3 steps
    enter(s, "Warwick/Y", "Oxford", frm="Warwick")    # B3 4 steps
    begin(s, "Oxford", Y)
    do(s, L, "pass", "Salisbury/L")
    do(s, Y, "fire", "Warwick/Y", dice=(3, 4, 4, 6))
    assert steps(s, "Salisbury/L") == 2


# ------------------------------------------------------------------ C93 situation 8
def _sit8() -> dict:
    s = base()
    enter(s, "Norfolk/Y", "Leicester", steps=2)
    enter(s, "Suffolk/Y", "Leicester", steps=2)
    enter(s, "Essex/Y", "Leicester", steps=1)
    enter(s, "Northumberland/L", "Leicester", frm="Derby")  # B3, 4 steps, attacking
    begin(s, "Leicester", L)
    for k in ("Norfolk/Y", "Suffolk/Y", "Essex/Y"):  # York's B defenders act first
        do(s, Y, "pass", k)
    assert group(s) == ["Northumberland/L"]
    return s


def test_situation8_hits_to_strongest_owner_breaks_tie() -> None:
    """§6 situation 8, C93 (6.4): Northumberland rolls 1, 2, 3, 5 = 3 hits. York (the owner of the
    blocks hit) picks Norfolk or Suffolk to take 2 (eliminated: a rose noble, permanently); the
    3rd hit goes to the other 2-step block, not to Essex."""
    s = _sit8()
    do(s, L, "fire", "Northumberland/L", dice=(1, 2, 3, 5))
    assert step_name(s) == "hits" and turn(s) == Y
    assert sorted(args(s, Y, "hit")) == ["Norfolk/Y", "Suffolk/Y"]
    assert BT.legal_actions(s, L) == []
    do(s, Y, "hit", "Suffolk/Y")
    assert at(s, "Suffolk/Y") == "dead" and s["loc"][BLOCK_ID["Suffolk/Y"]] == DEAD
    assert steps(s, "Norfolk/Y") == 1 and steps(s, "Essex/Y") == 1
    assert step_name(s) == "turn" and s["battle"]["round"] == 2


def test_c93_no_choice_when_all_tied_blocks_die_anyway() -> None:
    """C93: 4 hits on two 2-step blocks (and a 1-step one): both 2-step blocks die, no choice is
    asked; nothing is left for Essex."""
    s = _sit8()
    do(s, L, "fire", "Northumberland/L", dice=(1, 1, 1, 1))
    assert at(s, "Norfolk/Y") == "dead" and at(s, "Suffolk/Y") == "dead"
    assert steps(s, "Essex/Y") == 1


def test_c93_surplus_goes_on_to_next_strongest() -> None:
    """C93: surplus hits after an elimination go to the next strongest block."""
    s = base()
    enter(s, "Norfolk/Y", "Leicester", steps=2)
    enter(s, "Essex/Y", "Leicester", steps=1)
    enter(s, "Northumberland/L", "Leicester", frm="Derby")
    begin(s, "Leicester", L)
    do(s, Y, "pass", "Norfolk/Y")
    do(s, Y, "pass", "Essex/Y")
    do(s, L, "fire", "Northumberland/L", dice=(1, 1, 1, 6))
    assert at(s, "Norfolk/Y") == "dead" and at(s, "Essex/Y") == "dead"
    assert step_name(s) == "regroup"


# ------------------------------------------------------------------ defence bonuses
def test_c16_c94_shield_bonus_only_when_defending() -> None:
    """C16, C94 (2.2, 6.4): a noble is +1 defending its shield area, never attacking there."""
    s = base()
    enter(s, "Wiltshire/L", "Wilts")                 # B2 on his shield, defending
    enter(s, "Essex/Y", "Wilts", frm="Sussex")
    begin(s, "Wilts", Y)
    assert _fp(s, L, "Wiltshire/L") == 3
    s2 = base()
    enter(s2, "Essex/Y", "Wilts")                     # York defends Wilts
    enter(s2, "Wiltshire/L", "Wilts", frm="Dorset")  # Wiltshire attacks his own shield area
    begin(s2, "Wilts", L)
    assert _fp(s2, L, "Wiltshire/L") == 2
    do(s2, Y, "pass", "Essex/Y")
    do(s2, L, "fire", "Wiltshire/L", dice=(3, 3, 3))
    assert steps(s2, "Essex/Y") == 3


def test_c17_shield_bonus_even_if_moved_there_or_defected_in() -> None:
    """C17 (2.2): the bonus applies to a defender that moved there this turn, and to a block that
    defected to the Defender during the battle (Stanley in Lancaster)."""
    s = base()
    enter(s, "Henry VI/L", "Lancaster")                   # the King, defending (a house shield)
    enter(s, "Wiltshire/L", "Lancaster", frm="Derby")     # moved there this turn: still a defender
    enter(s, "Stanley/Y", "Lancaster", frm="Chester")     # loyalty 1, attacking
    enter(s, "Norfolk/Y", "Lancaster", frm="Chester")
    begin(s, "Lancaster", Y, p1=L)
    assert s["moved"][BLOCK_ID["Wiltshire/L"]] == 1
    do(s, L, "treachery", ["Henry VI/L", "Stanley/Y"], dice=(4,))
    assert at(s, "Stanley/L") == "Lancaster" and at(s, "Stanley/Y") == "off-map"
    pass_until(s, lambda x: x["battle"]["round"] == 2)
    assert _fp(s, L, "Stanley/L") == 3   # B2 +1 on his Lancaster shield, now defending


def test_c18_only_senior_heir_present_gets_the_shield() -> None:
    """C18, C19 (2.2): York heirs defending a York house shield (Hereford): only the senior heir
    present (not in Reserve) gets +1."""
    s = base()
    enter(s, "Duke of York/Y", "Hereford")
    enter(s, "Rutland/Y", "Hereford")
    enter(s, "Buckingham/L", "Hereford", frm="Warwick")
    begin(s, "Hereford", L)
    assert _fp(s, Y, "Duke of York/Y") == 4 and _fp(s, Y, "Rutland/Y") == 1
    s2 = base()
    enter(s2, "Duke of York/Y", "Hereford", frm="Chester", reserve=2)  # a reinforcement
    enter(s2, "Rutland/Y", "Hereford")
    enter(s2, "Buckingham/L", "Hereford", frm="Warwick")
    begin(s2, "Hereford", L, p1=L)
    assert _fp(s2, Y, "Rutland/Y") == 2


def test_c20_personal_lancaster_shields() -> None:
    """C20 (2.2): Dorset is Somerset's own shield; another Lancaster heir uses it only once
    Somerset is dead."""
    s = base()
    enter(s, "Exeter/L", "Dorset")
    enter(s, "Essex/Y", "Dorset", frm="Sussex")
    begin(s, "Dorset", Y)
    assert _fp(s, L, "Exeter/L") == 1
    s2 = base()
    s2["loc"][BLOCK_ID["Somerset/L"]] = DEAD
    s2["steps"][BLOCK_ID["Somerset/L"]] = 0
    enter(s2, "Exeter/L", "Dorset")
    enter(s2, "Essex/Y", "Dorset", frm="Sussex")
    begin(s2, "Dorset", Y)
    assert _fp(s2, L, "Exeter/L") == 2


def test_c21_crown_for_king_not_pretender_heirs() -> None:
    """C21 (2.3): a crown area (Chester) gives +1 to the King / senior royal heir defending, never
    to Pretender heirs."""
    s = base()
    enter(s, "Henry VI/L", "Chester")
    enter(s, "Essex/Y", "Chester", frm="Derby")
    begin(s, "Chester", Y)
    assert _fp(s, L, "Henry VI/L") == 3
    s2 = base()
    enter(s2, "Rutland/Y", "Chester")
    enter(s2, "Wiltshire/L", "Chester", frm="Derby")
    begin(s2, "Chester", L)
    assert _fp(s2, Y, "Rutland/Y") == 1


def test_c22_a11_exeter_in_cornwall_shield_and_crown() -> None:
    """C22, ruling A11 (2.3): Exeter (A1) alone defends Cornwall at A3 (own shield +1, crown +1 as
    senior royal heir present); with Henry VI there, Henry takes the crown +1 and Exeter keeps
    his shield +1."""
    s = base()
    enter(s, "Exeter/L", "Cornwall")
    enter(s, "Essex/Y", "Cornwall", frm="Somerset")
    begin(s, "Cornwall", Y)
    assert _fp(s, L, "Exeter/L") == 3
    s2 = base()
    enter(s2, "Exeter/L", "Cornwall")
    enter(s2, "Henry VI/L", "Cornwall")
    enter(s2, "Essex/Y", "Cornwall", frm="Somerset")
    begin(s2, "Cornwall", Y)
    assert _fp(s2, L, "Henry VI/L") == 3 and _fp(s2, L, "Exeter/L") == 2


def test_c23_c24_c25_city_cathedral_wales() -> None:
    """C23 (2.4) a levy +1 defending its city; C24 (2.5) a church block +1 defending its
    cathedral; C25 (2.6) the Welsh +1 defending any area of Wales. Attackers get nothing."""
    s = base()
    enter(s, "London levy/Y", "Middlesex")
    enter(s, "Wiltshire/L", "Middlesex", frm="Oxford")
    begin(s, "Middlesex", L)
    assert _fp(s, Y, "London levy/Y") == 4
    s2 = base()
    enter(s2, "Abp Canterbury/Y", "Kent")
    enter(s2, "Wiltshire/L", "Kent", frm="Sussex")
    begin(s2, "Kent", L)
    assert _fp(s2, Y, "Abp Canterbury/Y") == 2
    s3 = base()
    enter(s3, "Welsh/L", "Powys")
    enter(s3, "Essex/Y", "Powys", frm="Chester")
    begin(s3, "Powys", Y)
    assert _fp(s3, L, "Welsh/L") == 3
    s4 = base()
    enter(s4, "Essex/Y", "Powys")
    enter(s4, "Welsh/L", "Powys", frm="Glamorgan")
    begin(s4, "Powys", L)
    assert _fp(s4, L, "Welsh/L") == 2


# ------------------------------------------------------------------ C95 charge, situation 10
def _sit10(wilts_steps: int = 3) -> dict:
    s = base()
    enter(s, "Wiltshire/L", "Wilts", steps=wilts_steps)   # B2, +1 on his shield
    enter(s, "March/Y", "Wilts", frm="Sussex")            # A3, 3 steps, senior York heir present
    enter(s, "Rutland/Y", "Wilts", frm="Sussex")
    return begin(s, "Wilts", Y)


def test_situation10_charge_and_bonus_fire() -> None:
    """§6 situation 10, C95 (6.5): March charges Wiltshire: 1, 3, 6 = 2 hits, Wiltshire drops to 1
    and fires back at once (die 2: March drops to 2). Wiltshire still has its own turn."""
    s = _sit10()
    assert group(s) == ["March/Y"]
    assert ["March/Y", "Wiltshire/L"] in args(s, Y, "charge")
    do(s, Y, "charge", ["March/Y", "Wiltshire/L"], dice=(1, 3, 6, 2))
    assert steps(s, "Wiltshire/L") == 1 and steps(s, "March/Y") == 2
    last = s["battle"]["last"]
    assert last["reply"] == [2] and last["reply_hits"] == 1 and last["reply_fp"] == 3
    assert turn(s) == L and group(s) == ["Wiltshire/L"]


def test_situation10_charge_surplus_lost() -> None:
    """C95 (6.5): against Wiltshire at 2 steps, 3 hits eliminate it; the surplus hit is lost (Rutland
    untouched) and a destroyed target does not fire back."""
    s = _sit10(wilts_steps=2)
    do(s, Y, "charge", ["March/Y", "Wiltshire/L"], dice=(1, 2, 3))
    assert at(s, "Wiltshire/L") == "dead"
    assert steps(s, "March/Y") == 3 and steps(s, "Rutland/Y") == 3
    assert step_name(s) == "regroup"


def test_c95_only_senior_heir_present_may_charge_and_not_in_round_4_attacking() -> None:
    """C95 (6.5): Rutland may not charge while March is present; an attacker may not charge in
    round 4; the senior heir among the non-Reserve blocks may charge."""
    s = _sit10()
    do(s, Y, "pass", "March/Y")
    do(s, L, "pass", "Wiltshire/L")
    assert group(s) == ["Rutland/Y"] and args(s, Y, "charge") == []
    pass_until(s, lambda x: x["battle"]["round"] == 4 and turn(x) == Y)
    assert args(s, Y, "charge") == []
    s2 = base()
    enter(s2, "Wiltshire/L", "Wilts")
    enter(s2, "March/Y", "Wilts", frm="Dorset", reserve=1)
    enter(s2, "Rutland/Y", "Wilts", frm="Sussex")
    begin(s2, "Wilts", Y)
    do(s2, L, "pass", "Wiltshire/L")
    assert ["Rutland/Y", "Wiltshire/L"] in args(s2, Y, "charge")


def test_c95_defender_heir_charges_with_defence_bonus() -> None:
    """C95, C21: a defending King charges at his normal (defending) firepower."""
    s = base()
    enter(s, "Henry VI/L", "Chester")                  # B2 +1 crown
    enter(s, "Essex/Y", "Chester", frm="Derby")
    begin(s, "Chester", Y)
    do(s, L, "charge", ["Henry VI/L", "Essex/Y"], dice=(3, 4, 5, 6))
    assert steps(s, "Essex/Y") == 2
    assert s["battle"]["last"]["fp"] == 3
    assert s["loc"][BLOCK_ID["Essex/Y"]] == AREA_ID["Chester"]


def test_c95_charge_hits_only_the_named_target_not_the_strongest() -> None:
    """C95 (6.5): the charge fires at the named block even if another is stronger; Reserves cannot
    be named."""
    s = base()
    enter(s, "Wiltshire/L", "Oxford", steps=3)
    enter(s, "Northumberland/L", "Oxford")                       # 4 steps: the strongest
    enter(s, "Beaumont/L", "Oxford", frm="Gloucester", reserve=2)
    enter(s, "March/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y, p1=Y)
    targets = [a[1] for a in args(s, Y, "charge")]
    assert sorted(targets) == ["Northumberland/L", "Wiltshire/L"]
    do(s, Y, "charge", ["March/Y", "Wiltshire/L"], dice=(1, 6, 6, 6, 6))
    assert steps(s, "Wiltshire/L") == 2 and steps(s, "Northumberland/L") == 4
