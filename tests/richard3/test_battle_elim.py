"""Eliminations in battle and instant victory (rules 6.8x, 9.0, 9.1; C101-C106, C123)."""

from __future__ import annotations

from roses.games.richard3.data import BLOCK_ID, DEAD, HEIRS
from tests.richard3.test_battle_kit import (
    RULES,
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
)


def _kill(defender: str, area: str, steps: int = 1, attacker: str = "Herbert/Y",
          frm: str = "Warwick", att_role: str = Y) -> dict:
    """attacker (an A block) destroys a 1-step defender with its first fire."""
    s = base()
    enter(s, defender, area, steps=steps)
    enter(s, attacker, area, frm=frm)
    begin(s, area, att_role)
    while attacker not in group(s):
        do(s, turn(s), "pass", group(s)[0])
    do(s, turn(s), "fire", attacker, dice=(1, 1, 1, 1))
    return s


def test_c101_king_killed_throne_empty_until_supply() -> None:
    """C101 (6.81): the King dies: no King until the next Supply Phase (king_block -1), a minor is
    owed; no King treachery roll is possible for the rest of the Battle Phase."""
    s = base()
    enter(s, "Henry VI/L", "Oxford", steps=1)
    enter(s, "Exeter/L", "Oxford")                     # a royal heir, A1
    enter(s, "March/Y", "Oxford", frm="Warwick")       # A3 heir: charges the King
    enter(s, "Buckingham/Y", "Oxford", frm="Warwick")  # loyalty 1: a target for a King's roll
    begin(s, "Oxford", Y)
    owed = s["minors_owed"][1]
    do(s, L, "pass", "Exeter/L")          # A defender first
    do(s, Y, "charge", ["March/Y", "Henry VI/L"], dice=(1, 6, 6))
    assert at(s, "Henry VI/L") == "dead" and s["king_block"] == -1
    assert s["minors_owed"][1] == owed + 1
    assert "Henry VI (Lancaster heir) is killed" in log_text(s)
    pass_until(s, lambda x: x["battle"]["round"] == 2 and turn(x) == L)
    assert "Exeter/L" in group(s) and args(s, L, "treachery") == []


def test_c102_heir_permanently_dead() -> None:
    """C102 (6.82): heirs are permanently eliminated; the senior minor is owed to the side."""
    s = _kill("Rutland/Y", "Oxford", attacker="Clifford/L", att_role=L)
    assert s["loc"][BLOCK_ID["Rutland/Y"]] == DEAD and s["minors_owed"][0] == 1


def test_c103_nobles_roses_nevilles_church() -> None:
    """C103 (6.83): rose nobles are permanently dead; other nobles and church go face-down to the
    owner's pool; the Nevilles are permanently killed (both versions)."""
    s = _kill("Wiltshire/L", "Oxford")
    assert at(s, "Wiltshire/L") == "dead"
    s = _kill("Buckingham/L", "Oxford")
    assert at(s, "Buckingham/L") == "pool" and s["down"][BLOCK_ID["Buckingham/L"]] == 1
    s = _kill("Abp York/L", "Oxford")
    assert at(s, "Abp York/L") == "pool" and s["down"][BLOCK_ID["Abp York/L"]] == 1
    s = _kill("Kent/Y", "Oxford", attacker="Clifford/L", att_role=L)
    assert at(s, "Kent/Y") == "dead" and at(s, "Kent/L") == "dead"


def test_c104_c105_c106_levies_bombards_mercenaries_rebel() -> None:
    """C104 (6.84) levies and Bombards: pool face-down; C105 (6.85) mercenaries: home face-down,
    the Welsh to the Lancaster pool; C106 (6.86) the Rebel: the Pretender's pool face-down."""
    s = _kill("Coventry levy/L", "Oxford")
    assert at(s, "Coventry levy/L") == "pool" and s["down"][BLOCK_ID["Coventry levy/L"]] == 1
    s = _kill("Bombard/L", "Oxford")
    assert at(s, "Bombard/L") == "pool" and s["down"][BLOCK_ID["Bombard/L"]] == 1
    s = _kill("Burgundian/Y", "Oxford", attacker="Clifford/L", att_role=L)
    assert at(s, "Burgundian/Y") == "Calais" and s["down"][BLOCK_ID["Burgundian/Y"]] == 1
    s = _kill("Welsh/L", "Oxford")
    assert at(s, "Welsh/L") == "pool" and s["down"][BLOCK_ID["Welsh/L"]] == 1
    s = _kill("Rebel/R", "Oxford", attacker="Clifford/L", att_role=L)  # York is Pretender: York's rebel
    assert at(s, "Rebel/R") == "pool" and s["down"][BLOCK_ID["Rebel/R"]] == 1


def test_c123_instant_victory_stops_the_battle_at_once() -> None:
    """C123 (9.0): killing the last enemy heir wins at once; the battle stops (no bonus fire, no
    more turns)."""
    s = base()
    for h in HEIRS[0]:
        if h != BLOCK_ID["March/Y"]:
            s["loc"][h] = DEAD
            s["steps"][h] = 0
    enter(s, "March/Y", "Oxford", steps=1)
    enter(s, "Norfolk/Y", "Oxford")
    enter(s, "Clifford/L", "Oxford", frm="Warwick")
    begin(s, "Oxford", L)
    do(s, Y, "pass", "March/Y")
    do(s, L, "fire", "Clifford/L", dice=(1, 1, 1))
    assert s["result"] is None  # Norfolk (4) was the strongest: it took the hits
    s = base()
    for h in HEIRS[0]:
        if h != BLOCK_ID["March/Y"]:
            s["loc"][h] = DEAD
            s["steps"][h] = 0
    enter(s, "March/Y", "Oxford", steps=1)
    enter(s, "Wiltshire/L", "Oxford", frm="Warwick")
    enter(s, "Somerset/L", "Oxford", frm="Warwick")   # A2: charges March
    begin(s, "Oxford", L)
    do(s, Y, "pass", "March/Y")
    do(s, L, "charge", ["Somerset/L", "March/Y"], dice=(1, 6, 6))
    assert s["result"] == L and s["battle"] is None
    assert RULES.active(s) == []
