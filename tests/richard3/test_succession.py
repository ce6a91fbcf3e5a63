"""Eliminations, succession, Clarence & Exeter (6.8, 4.5, 9.1)."""

from __future__ import annotations

from roses.games.richard3 import common as C
from roses.games.richard3.data import AREA_ID, DEAD, MINOR, OFF, POOL
from tests.richard3.helpers import (
    RULES,
    A,
    B,
    L,
    Y,
    act,
    args,
    keep_hands,
    new,
    phase,
    play,
    put,
    to_battle_or_supply,
    todo,
)


def _to_supply(s: dict) -> None:
    to_battle_or_supply(s)
    assert phase(s) in ("supply", "card")


def test_situation16_king_dies_prince_edward_enters_crown() -> None:
    """C101, C102 (6.81, 6.82): Henry VI dies: no King (so no King treachery) for the rest of the
    Battle Phase; at the next Supply Phase Prince Edward enters a friendly or vacant crown area of
    Lancaster's choice and becomes King; the location is announced."""
    s = keep_hands(new())
    s["turn"] = 3
    play(s, "AP2", "AP2")
    C.eliminate(s, B("Henry VI/L"))
    assert C.king_block(s) == -1 and s["minors_owed"][1] == 1
    assert C.treachery_dice(s, B("Northumberland/Y"), C.KING) == 1  # the roll itself is fine...
    assert s["king_block"] == -1  # ...but there is no King to make it (battle checks king_block)
    _to_supply(s)
    assert RULES.active(s) == [L] and todo(s)[0][0] == "enter"
    options = args(s, L, "enter")
    assert "Chester" in options and "Middlesex" in options and "Calais" not in options
    act(s, L, "enter", "Chester")
    assert s["king_block"] == B("Prince Edward/L") and s["loc"][B("Prince Edward/L")] == A("Chester")
    assert any("Prince Edward" in x and "Chester" in x for x in RULES.view(s, Y)["log"])
    assert s["minors_owed"][1] == 0


def test_situation16_pretender_heirs_die_march_pretender_minors_exile() -> None:
    """C37, ruling A2, C102: York and Rutland die in one turn: March is Pretender at once; at the
    Supply Phase Clarence, then Gloucester, enter in Calais or Ireland."""
    s = keep_hands(new())
    play(s, "AP2", "AP2")
    C.eliminate(s, B("Duke of York/Y"))
    assert C.pretender_block(s) == B("March/Y")  # March (#2) is senior to Rutland (#3)
    C.eliminate(s, B("Rutland/Y"))
    assert C.pretender_block(s) == B("March/Y")
    _to_supply(s)
    assert todo(s)[0][0] == "enter" and RULES.active(s) == [Y]
    assert sorted(args(s, Y, "enter")) == ["Calais", "Ireland"]
    act(s, Y, "enter", "Ireland")
    assert s["loc"][B("Clarence/Y")] == A("Ireland")
    act(s, Y, "enter", "Calais")
    assert s["loc"][B("Gloucester/Y")] == A("Calais")
    assert s["minors_owed"][0] == 0


def test_situation16_exeter_defects_and_execution() -> None:
    """C125-C128 (9.1): Exeter defects: Exeter/Y is a York noble (loyalty 1), no Lancaster minor
    enters; York may execute him in a Supply Phase, after which a Lancaster minor is owed."""
    s = keep_hands(new())
    play(s, "AP2", "AP2")
    y = C.defect(s, B("Exeter/L"))
    assert y == B("Exeter/Y") and s["loc"][y] == A("Cornwall") and s["loc"][B("Exeter/L")] == OFF
    assert C.owner(s, y) == 0 and s["minors_owed"][1] == 0
    assert B("Exeter/L") not in C.heirs_alive(s, 1)
    put(s, "Exeter/Y", "Somerset")  # out of the Lancastrian crowd in Cornwall
    _to_supply(s)
    assert todo(s)[0][0] == "execute" and RULES.active(s) == [Y]
    act(s, Y, "execute")
    assert s["loc"][B("Exeter/Y")] == DEAD and s["loc"][B("Exeter/L")] == DEAD
    assert s["minors_owed"][1] == 1  # enters at the next Supply Phase


def test_c125_king_or_pretender_cannot_defect() -> None:
    """C125 (9.1): Clarence or Exeter cannot be targeted while King or Pretender."""
    s = new("kingmaker")
    assert C.treachery_dice(s, B("Clarence/L"), C.KING) == 1
    s2 = new()
    for k in ("Henry VI/L",):
        C.eliminate(s2, B(k))
    s2["king_block"] = B("Exeter/L")
    s2["loc"][B("Prince Edward/L")] = DEAD
    assert C.treachery_dice(s2, B("Exeter/L"), C.PRETENDER) == 0


def test_situation17_eliminations() -> None:
    """C103-C106 (6.83-6.86), C43: Clifford permanent; Buckingham/L face-down to the pool; Warwick/Y
    permanent (Neville); Burgundian face-down at Calais; Welsh to the Lancaster pool; Rebel to the
    Pretender's pool; a levy face-down to the pool."""
    s = new()
    put(s, "Buckingham/L", "Warwick")
    put(s, "Burgundian/Y", "Kent")
    put(s, "Welsh/L", "Powys")
    put(s, "Rebel/R", "Rutland")
    put(s, "York levy/L", "South Yorks")
    for k in ("Clifford/L", "Buckingham/L", "Warwick/Y", "Burgundian/Y", "Welsh/L", "Rebel/R", "York levy/L"):
        C.eliminate(s, B(k))
    loc, down = s["loc"], s["down"]
    assert loc[B("Clifford/L")] == DEAD
    assert loc[B("Buckingham/L")] == POOL and down[B("Buckingham/L")] == 1
    assert loc[B("Warwick/Y")] == DEAD and loc[B("Warwick/L")] == DEAD
    assert loc[B("Burgundian/Y")] == AREA_ID["Calais"] and down[B("Burgundian/Y")] == 1
    assert loc[B("Welsh/L")] == POOL and down[B("Welsh/L")] == 1
    assert loc[B("Rebel/R")] == POOL and C.owner(s, B("Rebel/R")) == 0
    assert loc[B("York levy/L")] == POOL and down[B("York levy/L")] == 1
    assert RULES.check_invariants(s) == []


def test_c105_face_down_mercenary_cannot_move() -> None:
    """C80, C105: a face-down mercenary at home cannot move this campaign."""
    s = keep_hands(new())
    C.eliminate(s, B("Burgundian/Y"))
    play(s, "AP4", "AP2")
    assert "Burgundian/Y" not in args(s, Y, "sea")
    assert "Calais merc/Y" in args(s, Y, "sea")


def test_c49_minor_enters_only_for_deaths() -> None:
    """C49: minors start off-map and one enters per heir killed."""
    s = new()
    assert s["loc"][B("Prince Edward/L")] == MINOR and s["loc"][B("Gloucester/Y")] == MINOR
    assert s["minors_owed"] == [0, 0]


def test_c123_instant_victory_on_last_heir() -> None:
    """C123, C139: killing the sole enemy heir wins at once."""
    s = new("richard-iii")
    C.eliminate(s, B("Richmond/L"))
    assert s["result"] == Y


def test_situation16_king_killed_in_a_real_battle_then_crowned() -> None:
    """C101, C13 (6.81) through the battle module, rigged dice: March attacks Henry VI (1 step) in
    Middlesex in turn 3 and kills him; there is no King for the rest of the turn; at the Supply
    Phase Prince Edward enters a crown area chosen by Lancaster and becomes King."""
    from roses.engine import rng
    s = keep_hands(new())
    s["turn"] = 3
    s["hands"] = [s["hands"][0][:5], s["hands"][1][:5]]
    s["deck"] = [c for c in range(25) if c not in s["hands"][0] + s["hands"][1]]
    put(s, "Henry VI/L", "Middlesex", steps=1)
    put(s, "March/Y", "Kent")
    play(s, "AP4", "AP2")
    act(s, Y, "move", "Kent")
    act(s, Y, "block", "March/Y")
    act(s, Y, "to", "Middlesex")
    to_battle_or_supply(s)
    assert phase(s) == "battle" and s["battle"] is not None
    rng.rig(s, [1, 1, 1])
    for _ in range(50):
        if s["battle"] is None:
            break
        role = RULES.active(s)[0]
        opts = RULES.legal_actions(s, role)
        fire = [a for a in opts if a[0] == "fire" and a[1] == "March/Y"]
        verb, arg = fire[0] if fire else (("end_regroup", None) if ("end_regroup", None) in opts else opts[0])
        act(s, role, verb, arg)
    assert s["loc"][B("Henry VI/L")] == DEAD
    assert phase(s) == "supply" and s["king_block"] == -1 and todo(s)[0][0] == "enter"
    assert RULES.active(s) == [L]
    act(s, L, "enter", "Sussex")
    assert s["king_block"] == B("Prince Edward/L") and s["loc"][B("Prince Edward/L")] == A("Sussex")
    assert RULES.result(s) is None
