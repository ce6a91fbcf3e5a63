"""Treachery rolls and the Treason card (rules 6.9, 6.91, 3.13, 9.1, Treason card; research
C35, C36, C107-C111, C135, ruling A7, §6 situation 11 and the Treason part of 24)."""

from __future__ import annotations

import pytest

from roses.engine.errors import IllegalAction
from roses.games.richard3.data import BLOCK_ID, DEAD
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
    log_text,
    pass_until,
    steps,
    turn,
    verbs,
)


def _targets(s: dict, role: str, roller: str) -> list[str]:
    return [a[1] for a in args(s, role, "treachery") if a[0] == roller]


def _sit11(extra_defenders: tuple[str, ...] = ()) -> dict:
    """The Pretender Duke of York (B3) attacks Derby, defended by Northumberland/L (B3, loyalty 2)
    and the King Henry VI (B2)."""
    s = base()
    enter(s, "Northumberland/L", "Derby", steps=3)
    enter(s, "Henry VI/L", "Derby")
    for k in extra_defenders:
        enter(s, k, "Derby")
    enter(s, "Duke of York/Y", "Derby", frm="Leicester")
    enter(s, "Essex/Y", "Derby", frm="Leicester")
    begin(s, "Derby", Y)
    # Lancaster's B defenders act first; they pass
    while turn(s) == L:
        do(s, L, "pass", group(s)[0])
    return s


# ------------------------------------------------------------------ situation 11
def test_situation11_pretender_defection_success() -> None:
    """§6 situation 11, C107, C108 (6.9): the Pretender rolls 2 dice on Northumberland/L (loyalty
    2): 2 and 4 are both even: Northumberland/L is replaced by Northumberland/Y at the same
    strength, in York's Reserve, fighting from the next round. The King may not roll it back."""
    s = _sit11()
    assert "Northumberland/L" in _targets(s, Y, "Duke of York/Y")
    rolls = s["rolls"]
    do(s, Y, "treachery", ["Duke of York/Y", "Northumberland/L"], dice=(2, 4))
    assert s["rolls"] == rolls + 2
    assert at(s, "Northumberland/L") == "off-map" and at(s, "Northumberland/Y") == "Derby"
    assert steps(s, "Northumberland/Y") == 3
    nb = BLOCK_ID["Northumberland/Y"]
    assert s["reserve"][nb] == 1 and nb in s["battle"]["defected"]
    assert "defects" in log_text(s) and "Earl of Northumberland" in log_text(s)
    # not in any group this round; joins in round 2
    pass_until(s, lambda x: x["battle"]["round"] == 2)
    assert s["reserve"][nb] == 0
    # the King (Henry VI) has his roll, but the defector is not a target in this battle (C109)
    assert turn(s) == L and "Henry VI/L" in group(s)
    assert "Northumberland/Y" not in _targets(s, L, "Henry VI/L")


def test_situation11_failed_roll_uses_the_pretenders_roll() -> None:
    """Situation 11: 2 and 3 fail; the Duke has used his one roll for this battle."""
    s = _sit11()
    do(s, Y, "treachery", ["Duke of York/Y", "Northumberland/L"], dice=(2, 3))
    assert at(s, "Northumberland/L") == "Derby" and "stays loyal" in log_text(s)
    pass_until(s, lambda x: x["battle"]["round"] == 2 and turn(x) == Y)
    assert _targets(s, Y, "Duke of York/Y") == []
    assert "fire" in verbs(s, Y)


def test_situation11_illegal_targets() -> None:
    """Situation 11, C107 (6.9, 3.13, 9.1): roses (Clifford), mercenaries, levies and heirs without
    a loyalty number (March) are never targets; the King himself is not; Clarence/Exeter are
    targets unless King or Pretender."""
    s = base()
    for k in ("Clifford/L", "French/L", "York levy/L", "Exeter/L", "Henry VI/L", "Westmoreland/L"):
        enter(s, k, "Derby")
    enter(s, "Duke of York/Y", "Derby", frm="Leicester")
    begin(s, "Derby", Y)
    while turn(s) == L:
        do(s, L, "pass", group(s)[0])
    assert sorted(_targets(s, Y, "Duke of York/Y")) == ["Exeter/L", "Westmoreland/L"]
    # York defending with March and Clarence: Henry VI (the King) may target Clarence, not March
    s2 = base()
    enter(s2, "March/Y", "Derby")
    enter(s2, "Clarence/Y", "Derby")
    enter(s2, "Henry VI/L", "Derby", frm="Lancaster")
    begin(s2, "Derby", L)
    while turn(s2) == Y:
        do(s2, Y, "pass", group(s2)[0])
    assert _targets(s2, L, "Henry VI/L") == ["Clarence/Y"]


def test_c110_warwick_rolls_one_die_on_kent_and_salisbury_never_northumberland() -> None:
    """C36, C110 (6.91): Warwick/Y rolling on Kent/L uses 1 die; Warwick may not target
    Northumberland or Westmoreland."""
    s = base()
    enter(s, "Kent/L", "Oxford")
    enter(s, "Northumberland/L", "Oxford")
    enter(s, "Westmoreland/L", "Oxford")
    enter(s, "Warwick/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y)
    while turn(s) == L:
        do(s, L, "pass", group(s)[0])
    assert group(s) == ["Warwick/Y"]
    assert _targets(s, Y, "Warwick/Y") == ["Kent/L"]
    rolls = s["rolls"]
    do(s, Y, "treachery", ["Warwick/Y", "Kent/L"], dice=(6,))
    assert s["rolls"] == rolls + 1 and at(s, "Kent/Y") == "Oxford"


def test_c36_kent_is_loyalty_2_for_the_king() -> None:
    """C36 (3.13, 6.91): Kent/Salisbury have loyalty 2 when anyone but Warwick rolls."""
    s = base()
    enter(s, "Kent/Y", "Oxford")
    enter(s, "Henry VI/L", "Oxford", frm="Warwick")
    begin(s, "Oxford", L)
    do(s, Y, "pass", "Kent/Y")
    rolls = s["rolls"]
    do(s, L, "treachery", ["Henry VI/L", "Kent/Y"], dice=(2, 5))
    assert s["rolls"] == rolls + 2 and at(s, "Kent/Y") == "Oxford"


def test_c35_loyalty_of_the_current_version() -> None:
    """C35 (3.13): Rivers has loyalty 1 as a Lancastrian (1 die) and 2 as a Yorkist (2 dice)."""
    s = base()
    enter(s, "Rivers/L", "Oxford")
    enter(s, "Duke of York/Y", "Oxford", frm="Warwick")
    enter(s, "Essex/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y)
    do(s, L, "pass", "Rivers/L")
    rolls = s["rolls"]
    do(s, Y, "treachery", ["Duke of York/Y", "Rivers/L"], dice=(1,))
    assert s["rolls"] == rolls + 1
    s2 = base()
    enter(s2, "Rivers/Y", "Oxford")
    enter(s2, "Henry VI/L", "Oxford", frm="Warwick")
    begin(s2, "Oxford", L)
    do(s2, Y, "pass", "Rivers/Y")
    rolls = s2["rolls"]
    do(s2, L, "treachery", ["Henry VI/L", "Rivers/Y"], dice=(1, 2))
    assert s2["rolls"] == rolls + 2


def test_c107_one_roll_each_per_battle_and_only_on_the_rollers_turn() -> None:
    """C107 (6.9): the roll replaces the roller's battle turn (no fire after it), one per battle."""
    s = _sit11(extra_defenders=("Westmoreland/L",))
    do(s, Y, "treachery", ["Duke of York/Y", "Northumberland/L"], dice=(1, 2))
    assert turn(s) == Y and "Duke of York/Y" not in group(s)
    with pytest.raises(IllegalAction):
        do(s, Y, "treachery", ["Duke of York/Y", "Westmoreland/L"])
    assert s["battle"]["used"] == ["pretender"]


def test_c109_three_rolls_on_one_block_and_no_rollback() -> None:
    """C109 (6.9): one block may face three rolls in one battle (Treason card, the Pretender,
    Warwick); a block that defected cannot be rolled back in the same battle."""
    s = base()
    s["treason"] = 0
    enter(s, "Salisbury/L", "Oxford")
    enter(s, "Henry VI/L", "Oxford")
    enter(s, "Duke of York/Y", "Oxford", frm="Warwick")
    enter(s, "Warwick/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y)
    assert turn(s) == Y and step_name(s) == "treason"
    rolls = s["rolls"]
    do(s, Y, "treason", "Salisbury/L", dice=(1, 2))            # roll 1 (loyalty 2, plain)
    assert s["rolls"] == rolls + 2 and s["treason"] == -1
    # B defenders first (Salisbury, Henry VI), then York's B attackers
    while turn(s) == L:
        do(s, L, "pass", group(s)[0])
    do(s, Y, "treachery", ["Duke of York/Y", "Salisbury/L"], dice=(3, 4))   # roll 2
    do(s, Y, "treachery", ["Warwick/Y", "Salisbury/L"], dice=(2,))          # roll 3: 1 die, success
    assert at(s, "Salisbury/Y") == "Oxford"
    assert s["rolls"] == rolls + 5
    pass_until(s, lambda x: x["battle"]["round"] == 2 and turn(x) == L)
    assert "Henry VI/L" in group(s) and _targets(s, L, "Henry VI/L") == ["Warwick/Y"]  # not Salisbury/Y


def test_a7_defection_in_round_3_into_attackers_reserve_must_retreat_in_round_4() -> None:
    """Ruling A7: a block that defects into the attacker's Reserve in round 3 joins in round 4 and,
    being an attacker, must retreat."""
    s = base()
    enter(s, "Kent/L", "Oxford")
    enter(s, "Oxford/L", "Oxford")
    enter(s, "Warwick/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y)
    pass_until(s, lambda x: x["battle"]["round"] == 3 and turn(x) == Y)
    do(s, Y, "treachery", ["Warwick/Y", "Kent/L"], dice=(4,))
    pass_until(s, lambda x: x["battle"]["round"] == 4 and turn(x) == Y)
    assert verbs(s, Y) == {"retreat"}
    assert "Kent/Y" in {a[0] for a in args(s, Y, "retreat")}


def test_c111_killed_noble_does_not_change_sides() -> None:
    """C111 (p.7 sidebar, 6.83): a killed two-version noble goes to its owner's pool face-down; the
    other version stays off-map."""
    s = base()
    enter(s, "Stanley/L", "Oxford", steps=1)
    enter(s, "Herbert/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y)
    do(s, Y, "fire", "Herbert/Y", dice=(1, 6, 6))
    assert at(s, "Stanley/L") == "pool" and s["down"][BLOCK_ID["Stanley/L"]] == 1
    assert at(s, "Stanley/Y") == "off-map"


def test_defection_of_last_defender_in_round_1_deploys_reserves_and_changes_control() -> None:
    """Ruling (6.3 with 6.9): if the Defender's last fighting block defects in round 1 and it has
    Reserves, they deploy at once and control changes."""
    s = base()
    enter(s, "Stanley/L", "Oxford")
    enter(s, "Pembroke/L", "Oxford", frm="Gloucester", reserve=2)
    enter(s, "Duke of York/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y, p1=Y)
    do(s, L, "pass", "Stanley/L")
    do(s, Y, "treachery", ["Duke of York/Y", "Stanley/L"], dice=(2,))
    bt = s["battle"]
    assert bt["att"] == 1 and s["reserve"][BLOCK_ID["Pembroke/L"]] == 0


def test_defection_of_the_last_enemy_block_ends_the_battle() -> None:
    """6.9: if the only enemy block defects the battle ends; the defector is with the victor."""
    s = base()
    enter(s, "Stanley/L", "Oxford")
    enter(s, "Duke of York/Y", "Oxford", frm="Warwick")
    begin(s, "Oxford", Y)
    do(s, L, "pass", "Stanley/L")
    do(s, Y, "treachery", ["Duke of York/Y", "Stanley/L"], dice=(2,))
    assert step_name(s) == "regroup" and s["stack"][-1]["side"] == 0
    assert at(s, "Stanley/Y") == "Oxford"
    assert ["Stanley/Y", "Wilts"] in args(s, Y, "regroup")  # the defector regroups with the victor
    assert "York wins the battle of Oxford" in log_text(s)


# ------------------------------------------------------------------ Treason (situation 24)
def test_situation24_treason_roll_before_a_battle_the_enemy_started() -> None:
    """§6 situation 24 (Treason part), C135: Lancaster holds the Treason roll; at the start of a
    battle York started, before round 1, Lancaster rolls on Stanley/Y (loyalty 1): a 4 brings him
    into Lancaster's Reserve. No King/Pretender/Warwick needed. The roll is then spent."""
    s = base()
    s["treason"] = 1
    enter(s, "Wiltshire/L", "Oxford")
    enter(s, "Stanley/Y", "Oxford", frm="Warwick")
    enter(s, "Norfolk/Y", "Oxford", frm="Warwick")
    enter(s, "Beaumont/L", "Essex")
    enter(s, "Suffolk/Y", "Essex", frm="Rutland")
    begin(s, "Oxford", Y, p1=L)
    assert step_name(s) == "treason" and turn(s) == L
    assert args(s, L, "treason") == ["Stanley/Y"]  # Norfolk is a rose
    rolls = s["rolls"]
    do(s, L, "treason", "Stanley/Y", dice=(4,))
    assert s["rolls"] == rolls + 1 and s["treason"] == -1
    sb = BLOCK_ID["Stanley/L"]
    assert at(s, "Stanley/L") == "Oxford" and s["reserve"][sb] == 1
    r1 = []
    while s["battle"]["round"] == 1:
        r1 += group(s)
        do(s, turn(s), "pass", group(s)[0])
    assert "Stanley/L" not in r1
    pass_until(s, lambda x: x["battle"] is None)
    # the next battle of the turn: no Treason step any more
    begin(s, "Essex", Y, p1=L)
    assert step_name(s) == "turn"


def test_c135_treason_kept_when_declined_and_uses_plain_loyalty() -> None:
    """C135: declining keeps the roll for another battle this turn (ruling); the roll uses the
    target's plain loyalty even against Kent (2 dice, no Warwick modifier)."""
    s = base()
    s["treason"] = 0
    enter(s, "Clifford/L", "Oxford")      # no target: no Treason step
    enter(s, "Norfolk/Y", "Oxford", frm="Warwick")
    enter(s, "Kent/L", "Essex")
    enter(s, "Suffolk/Y", "Essex", frm="Rutland")
    begin(s, "Oxford", Y)
    assert step_name(s) == "turn" and s["treason"] == 0
    pass_until(s, lambda x: x["battle"] is None)
    begin(s, "Essex", Y)
    assert step_name(s) == "treason"
    do(s, Y, "keep_treason")
    assert s["treason"] == 0 and step_name(s) == "turn"
    s2 = base()
    s2["treason"] = 0
    enter(s2, "Kent/L", "Essex")
    enter(s2, "Warwick/Y", "Essex", frm="Rutland")
    begin(s2, "Essex", Y)
    rolls = s2["rolls"]
    do(s2, Y, "treason", "Kent/L", dice=(2, 3))
    assert s2["rolls"] == rolls + 2 and at(s2, "Kent/L") == "Essex"
    assert "treason" not in s2["battle"]["used"]


def test_c107_clarence_not_a_target_while_pretender() -> None:
    """C107 with 9.1 (C125): Clarence cannot defect while he is the Pretender (all senior York
    heirs dead)."""
    s = base()
    for k in ("Duke of York/Y", "March/Y", "Rutland/Y"):
        s["loc"][BLOCK_ID[k]] = DEAD
        s["steps"][BLOCK_ID[k]] = 0
    enter(s, "Clarence/Y", "Derby")
    enter(s, "Norfolk/Y", "Derby")
    enter(s, "Henry VI/L", "Derby", frm="Lancaster")
    begin(s, "Derby", L)
    while turn(s) == Y:
        do(s, Y, "pass", group(s)[0])
    assert _targets(s, L, "Henry VI/L") == []
