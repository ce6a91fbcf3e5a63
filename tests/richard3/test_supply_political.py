"""Supply (7.x; situation 18) and the Political Turn (8.x; situation 21; C112-C124)."""

from __future__ import annotations

from roses.games.richard3 import common as C
from roses.games.richard3.data import AREA_ID, DEAD, POOL
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


def _supply_position() -> dict:
    s = keep_hands(new())
    for k in ("Norfolk/Y", "Suffolk/Y", "Arundel/Y", "Essex/Y", "Hastings/Y", "Herbert/Y"):
        put(s, k, "Warwick")
    put(s, "Worcester/Y", "Derby", steps=1)
    for k in ("Buckingham/Y", "Northumberland/Y", "Stanley/Y", "Rivers/Y"):
        put(s, k, "Derby")
    put(s, "Irish/Y", "Kent")
    put(s, "Shrewsbury/Y", "Ireland")
    play(s, "AP2", "AP2")
    to_battle_or_supply(s)
    return s


def test_situation18_supply_limits() -> None:
    """C112, C113 (7.1, 7.2): 6 blocks in Warwick (city, limit 5) lose 1 step; 5 in Derby lose 1
    (a 1-step block chosen is eliminated per 6.8); 3 exiles in Ireland without the Irish lose 1."""
    s = _supply_position()
    assert phase(s) == "supply" and RULES.active(s) == [Y]
    areas = [t[2] for t in todo(s)]
    assert areas == sorted([A("Warwick"), A("Derby"), A("Ireland")])
    assert all(t[3] == 1 for t in todo(s))
    while phase(s) == "supply":
        kind, side, area, n = todo(s)[0]
        if area == A("Derby"):
            act(s, Y, "reduce", "Worcester/Y")
        elif area == A("Warwick"):
            act(s, Y, "reduce", "Norfolk/Y")
        else:
            assert set(args(s, Y, "reduce")) == {"Duke of York/Y", "Rutland/Y", "Shrewsbury/Y"}
            act(s, Y, "reduce", "Shrewsbury/Y")
    assert s["loc"][B("Worcester/Y")] == DEAD  # rose noble eliminated by supply
    assert s["steps"][B("Norfolk/Y")] == 3 and s["steps"][B("Shrewsbury/Y")] == 2
    assert phase(s) == "card" and s["turn"] == 2


def test_c113_local_mercenaries_free() -> None:
    """C113, ruling A9: Calais supplies 4 blocks plus its local mercenaries (Calais, Burgundian);
    another mercenary there counts against the limit."""
    s = keep_hands(new())
    play(s, "AP2", "AP2")
    to_battle_or_supply(s)
    assert phase(s) == "card"  # 4 nobles/heirs + 2 local mercenaries: no loss
    s2 = keep_hands(new())
    put(s2, "Irish/Y", "Calais")
    play(s2, "AP2", "AP2")
    to_battle_or_supply(s2)
    assert phase(s2) == "supply" and todo(s2)[0][:3] == ["reduce", 0, A("Calais")]
    assert "Calais merc/Y" not in args(s2, Y, "reduce") and "Irish/Y" in args(s2, Y, "reduce")


def _political_position() -> dict:
    s = keep_hands(new())
    s["turn"] = 7
    s["hands"] = [s["hands"][0][:1], s["hands"][1][:1]]
    s["deck"] = [c for c in range(25) if c not in s["hands"][0] + s["hands"][1]]
    put(s, "Welsh/L", "Powys")
    put(s, "Burgundian/Y", "Kent")
    put(s, "Rebel/R", "Rutland")
    put(s, "Duke of York/Y", "Hereford")
    put(s, "March/Y", "Oxford")
    put(s, "Norfolk/Y", "Essex")
    put(s, "Oxford/L", "Lincoln")
    put(s, "Kent/Y", "Sussex")
    put(s, "Northumberland/L", "East Yorks")
    put(s, "Henry VI/L", "Leicester", steps=2)
    s["down"][B("Buckingham/L")] = 1
    s["steps"][B("Buckingham/L")] = 0
    return s


def test_situation21_political_turn() -> None:
    """C115-C122 (8.1, 8.3-8.5): levies/Welsh disband, mercenaries go home, the Rebel disbands;
    the Pretender's heirs go to exile, nobles to their shields; the King's heirs to a shield or
    crown; reset to full strength; face-down blocks stand up; 7 new cards each."""
    s = _political_position()
    RULES.action(s, Y, "play", s["hands"][0][0])
    RULES.action(s, L, "play", s["hands"][1][0])
    to_battle_or_supply(s)
    while phase(s) == "supply":
        role = RULES.active(s)[0]
        v, a = RULES.legal_actions(s, role)[0]
        act(s, role, v, a)
    assert phase(s) == "political"
    # 8.1
    assert s["loc"][B("Welsh/L")] == POOL
    assert s["loc"][B("Burgundian/Y")] == AREA_ID["Calais"]
    assert s["loc"][B("Rebel/R")] == POOL
    assert s["king"] == 1  # no usurpation
    # 8.3: York (Pretender) first
    seen_heirs = 0
    while phase(s) == "political":
        role = RULES.active(s)[0]
        kind, side, b, n = todo(s)[0]
        opts = args(s, role, kind if kind != "home" else "home")
        if b == B("Duke of York/Y") or b == B("March/Y"):
            assert sorted(opts) == ["Calais", "Ireland"]
            seen_heirs += 1
        if b == B("Henry VI/L"):
            assert {"Lancaster", "Lincoln", "Middlesex", "Chester", "Cornwall"} <= set(opts)
        act(s, role, kind if kind != "home" else "home", opts[0])
    assert seen_heirs == 2
    # Norfolk: East Anglia / Glamorgan / Caernarvon (all vacant or friendly) -> auto-chosen? he had options
    assert s["loc"][B("Norfolk/Y")] in (A("East Anglia"), A("Glamorgan"), A("Caernarvon"))
    # Kent/Y: East Yorks enemy-held (Northumberland/L) and Calais has room -> Calais
    assert s["loc"][B("Kent/Y")] == A("Calais")
    # 8.5
    assert phase(s) == "mulligan" and s["campaign"] == 2 and s["turn"] == 1
    assert s["steps"][B("Henry VI/L")] == 4
    assert s["down"][B("Buckingham/L")] == 0 and s["steps"][B("Buckingham/L")] == 4
    assert len(s["hands"][0]) == 7 and len(s["hands"][1]) == 7
    assert RULES.check_invariants(s) == []


def test_c117_usurpation_and_c124_final_king_wins() -> None:
    """C117, C124 (8.2, 9.0): in the last campaign the Pretender with more nobles usurps and wins."""
    s = keep_hands(new("richard-iii"))
    s["turn"] = 7
    s["hands"] = [s["hands"][0][:1], s["hands"][1][:1]]
    s["deck"] = [c for c in range(25) if c not in s["hands"][0] + s["hands"][1]]
    for k, a in (("Richmond/L", "Middlesex"), ("Oxford/L", "Kent"), ("Pembroke/L", "Pembroke"),
                 ("Shrewsbury/L", "South Yorks")):
        put(s, k, a)
    for k in ("Norfolk/Y", "Suffolk/Y", "Arundel/Y", "Essex/Y", "Northumberland/Y", "Stanley/Y"):
        C.eliminate(s, B(k))
    put(s, "Gloucester/Y", "Calais")
    RULES.action(s, Y, "play", s["hands"][0][0])
    RULES.action(s, L, "play", s["hands"][1][0])
    to_battle_or_supply(s)
    while phase(s) == "supply":
        role = RULES.active(s)[0]
        v, a = RULES.legal_actions(s, role)[0]
        act(s, role, v, a)
    assert s["result"] == L and s["king"] == 1


def test_c117_ties_to_the_king() -> None:
    """C117: a tie in the Usurpation count goes to the King."""
    from roses.games.richard3.political import usurpation_counts as _usurpation_counts
    s = new("richard-iii")
    c = _usurpation_counts(s)
    assert c[0] > c[1]


def test_c129_defected_heirs_go_home() -> None:
    """C129 (9.1): going home as enemy nobles, Exeter goes to Cornwall and Clarence to a vacant York
    shield, otherwise to the friendly pool."""
    from roses.games.richard3 import supply
    s = new()
    put(s, "Clarence/L", "Essex")
    put(s, "Exeter/Y", "Kent")
    opts_c = supply.home_options(s, 1, B("Clarence/L"))
    assert sorted(opts_c) == sorted([A("South Yorks"), A("Hereford"), A("Rutland")])
    put(s, "Norfolk/Y", "Hereford")
    assert A("Hereford") not in supply.home_options(s, 1, B("Clarence/L"))  # not vacant
    assert supply.home_options(s, 0, B("Exeter/Y")) == []  # Cornwall is Lancastrian: pool
    put(s, "Exeter/L", "Dorset")  # (the heir version cannot coexist; put() keeps one in play)
    put(s, "Exeter/Y", "Kent")
    put(s, "Devon/L", "Dorset")
    assert supply.home_options(s, 0, B("Exeter/Y")) == [A("Cornwall")]
