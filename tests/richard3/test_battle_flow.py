"""Battle flow: reveal, rounds, turn order, Bombard, Reserves, control change, round 4
(rules 6.1-6.3, 3.12)."""

from __future__ import annotations

from roses.games.richard3 import battle as BT
from roses.games.richard3.data import AREA_ID, BLOCK_ID, BLOCK_KEY, N_BLOCKS
from tests.richard3 import helpers as H
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


def _sit7(with_extra: bool = False) -> dict:
    """Situation 7: Herbert (A2) and Clarence (B2) attack Rivers (B2) in Oxford from Warwick;
    optionally a York Bombard in the Main Attack and a defending Clifford (A2)."""
    s = base()
    enter(s, "Rivers/L", "Oxford")
    enter(s, "Herbert/Y", "Oxford", frm="Warwick")
    enter(s, "Clarence/Y", "Oxford", frm="Warwick")
    if with_extra:
        enter(s, "Clifford/L", "Oxford")
        enter(s, "Bombard/Y", "Oxford", frm="Warwick")
    return begin(s, "Oxford", Y)


def _order_of_round(s: dict) -> list[tuple[str, list[str]]]:
    """Pass through one round, returning (role, group) for each battle turn taken."""
    rnd = s["battle"]["round"]
    seen: list[tuple[str, list[str]]] = []
    while s["battle"] is not None and s["battle"]["round"] == rnd:
        role, g = turn(s), group(s)
        seen.append((role, g))
        do(s, role, "pass", g[0])
    return seen


# ------------------------------------------------------------------ C81 reveal / hide
def test_c81_reveal_participants_then_hide_again() -> None:
    """C81 (6.1): non-Reserve blocks of both sides are revealed (a reveal is recorded for undo);
    after the battle the blocks stand up again (battle None, Reserve flags cleared)."""
    s = base()
    enter(s, "Wiltshire/L", "Wilts")
    enter(s, "Norfolk/Y", "Wilts", frm="Sussex")
    enter(s, "Suffolk/Y", "Wilts", frm="Dorset", reserve=1)
    before = s["reveals"]
    begin(s, "Wilts", Y)
    bt = s["battle"]
    assert s["reveals"] == before + 1
    assert sorted(bt["revealed"]) == sorted([BLOCK_ID["Wiltshire/L"], BLOCK_ID["Norfolk/Y"]])
    text = log_text(s)
    assert "Earl of Wiltshire" in text and "Duke of Norfolk" in text
    assert "Duke of Suffolk" not in text and "1 block(s) in Reserve" in text
    # York retreats everything in round 2: battle over, Lancaster has nothing to regroup? it may
    pass_until(s, lambda x: x["battle"]["round"] == 2 and turn(x) == Y)
    do(s, Y, "retreat", ["Norfolk/Y", "Sussex"])
    do(s, Y, "retreat", ["Suffolk/Y", "Dorset"])
    assert s["battle"] is not None and step_name(s) == "regroup"
    do(s, L, "end_regroup")
    assert s["battle"] is None
    assert all(r == 0 for b, r in enumerate(s["reserve"]) if s["loc"][b] == AREA_ID["Wilts"])


# ------------------------------------------------------------------ C82 battle turn choices
def test_c82_fire_or_pass_in_round_1_retreat_from_round_2() -> None:
    """C82 (6.2): a block may Fire or Pass in round 1 (no Retreat); from round 2 also Retreat."""
    s = _sit7()
    assert turn(s) == Y and group(s) == ["Herbert/Y"]
    assert verbs(s, Y) == {"fire", "pass"}
    pass_until(s, lambda x: x["battle"]["round"] == 2)
    assert verbs(s, Y) >= {"fire", "pass", "retreat"}
    assert "Warwick" in [a[1] for a in args(s, Y, "retreat")]


# ------------------------------------------------------------------ C83 order, situation 7
def test_situation7_order_herbert_rivers_clarence() -> None:
    """C83, §6 situation 7 (6.2 battle example): Herbert (A2), Rivers (B2), Clarence (B2)."""
    s = _sit7()
    order = _order_of_round(s)
    assert order == [(Y, ["Herbert/Y"]), (L, ["Rivers/L"]), (Y, ["Clarence/Y"])]
    # the same order again in round 2
    assert _order_of_round(s) == order


def test_situation7_bombard_a3_first_round_d3_later() -> None:
    """C83, C84 (6.2): with a defending Clifford (A2) and a York Bombard in the Main Attack:
    round 1 Clifford, then Herbert and the Bombard (York picks the order), Rivers, Clarence;
    round 2 the Bombard acts last (D3)."""
    s = _sit7(with_extra=True)
    assert turn(s) == L and group(s) == ["Clifford/L"]
    do(s, L, "pass", "Clifford/L")
    assert turn(s) == Y and sorted(group(s)) == ["Bombard/Y", "Herbert/Y"]
    do(s, Y, "pass", "Bombard/Y")  # York chooses the order within its A group
    assert group(s) == ["Herbert/Y"]
    do(s, Y, "pass", "Herbert/Y")
    assert (turn(s), group(s)) == (L, ["Rivers/L"])
    do(s, L, "pass", "Rivers/L")
    assert (turn(s), group(s)) == (Y, ["Clarence/Y"])
    do(s, Y, "pass", "Clarence/Y")
    order = _order_of_round(s)
    assert order == [(L, ["Clifford/L"]), (Y, ["Herbert/Y"]), (L, ["Rivers/L"]), (Y, ["Clarence/Y"]),
                     (Y, ["Bombard/Y"])]


def test_situation7_bombard_in_reserve_is_d3_in_round_2() -> None:
    """C84 (6.2): a Bombard entering as a Reserve never gets A3: it has no turn in round 1 and
    acts as D3 from round 2."""
    s = base()
    enter(s, "Rivers/L", "Oxford")
    enter(s, "Herbert/Y", "Oxford", frm="Warwick")
    enter(s, "Bombard/Y", "Oxford", frm="Leicester", reserve=1)
    begin(s, "Oxford", Y)
    r1 = _order_of_round(s)
    assert all("Bombard/Y" not in g for _, g in r1)
    r2 = _order_of_round(s)
    assert r2[-1] == (Y, ["Bombard/Y"])
    # the Bombard fires at D3: three dice, hits on 1-3
    s2 = base()
    enter(s2, "Rivers/L", "Oxford")
    enter(s2, "Herbert/Y", "Oxford", frm="Warwick")
    enter(s2, "Bombard/Y", "Oxford", frm="Leicester", reserve=1)
    begin(s2, "Oxford", Y)
    pass_until(s2, lambda x: x["battle"]["round"] == 2 and group(x) == ["Bombard/Y"])
    view = BT.view_part(s2, L)
    bomb = [b for b in view["blocks"] if b["key"] == "Bombard/Y"][0]
    assert bomb["rating"] == "D3"
    do(s2, Y, "fire", "Bombard/Y", dice=(3, 4, 6))
    assert s2["battle"]["last"]["hits"] == 1 and steps(s2, "Rivers/L") == 1


# ------------------------------------------------------------------ C85 four rounds, round 4
def test_c85_round_4_attacker_must_retreat_defender_fires_first() -> None:
    """C85 (6.2, Pursuit sidebar): at most 4 rounds; in round 4 attacking blocks may only retreat
    (no fire, pass, charge or treachery, ruling A7); earlier-letter defenders fire before."""
    s = base()
    enter(s, "Clifford/L", "Oxford")  # A2 defender
    enter(s, "Clarence/Y", "Oxford", frm="Warwick")  # B2 attacker, an heir
    enter(s, "Warwick/Y", "Oxford", frm="Warwick")   # B3 attacker, a treachery roller
    begin(s, "Oxford", Y)
    pass_until(s, lambda x: x["battle"]["round"] == 4)
    assert turn(s) == L and group(s) == ["Clifford/L"]
    do(s, L, "fire", "Clifford/L", dice=(6, 6, 6))
    assert turn(s) == Y
    assert verbs(s, Y) == {"retreat"}
    assert {a[1] for a in args(s, Y, "retreat")} >= {"Leicester", "Middlesex"}
    assert "Warwick" in {a[1] for a in args(s, Y, "retreat")}  # 6.6: York's own entry border is open
    do(s, Y, "retreat", ["Clarence/Y", "Leicester"])
    do(s, Y, "retreat", ["Warwick/Y", "Gloucester"])
    assert step_name(s) == "regroup" and s["stack"][-1]["side"] == 1
    assert at(s, "Clarence/Y") == "Leicester" and at(s, "Warwick/Y") == "Gloucester"


def test_c85_battle_ends_after_round_4() -> None:
    """C85: the battle lasts at most 4 rounds; the defender keeps the area."""
    s = _sit7()
    pass_until(s, lambda x: step_name(x) == "regroup")
    assert s["battle"]["round"] == 4 and s["stack"][-1]["side"] == 1
    assert at(s, "Rivers/L") == "Oxford"
    assert at(s, "Herbert/Y") != "Oxford" and at(s, "Clarence/Y") != "Oxford"


# ------------------------------------------------------------------ C87, C88, C91 reserves
def test_c87_c88_reserves_do_not_fight_or_take_hits_in_round_1() -> None:
    """C87, C88 (6.3): blocks of other borders are Reserves: no turn and no hits in round 1; they
    join at the start of round 2. Surplus hits with no other target are lost."""
    s = base()
    enter(s, "Northumberland/L", "Essex")          # B3, 4 steps
    enter(s, "Essex/Y", "Essex", frm="Rutland", steps=1)        # Main Attack
    enter(s, "Norfolk/Y", "Essex", frm="Middlesex", reserve=1)  # Reserve
    begin(s, "Essex", Y)
    assert turn(s) == L and group(s) == ["Northumberland/L"]
    do(s, L, "fire", "Northumberland/L", dice=(1, 1, 1, 1))
    assert at(s, "Essex/Y") == "dead"
    assert steps(s, "Norfolk/Y") == 4 and at(s, "Norfolk/Y") == "Essex"
    # York's round-1 blocks are gone: its Reserve deploys at once but cannot fire this round
    assert s["reserve"][BLOCK_ID["Norfolk/Y"]] == 0
    assert s["battle"]["round"] == 2  # Norfolk deployed but had no turn in round 1
    assert turn(s) == L and group(s) == ["Northumberland/L"]


def test_c91_p2_reinforcements_fight_from_round_2() -> None:
    """C91 (6.3): blocks P2 moved into a battle P1 started are Reserves, fighting from round 2."""
    s = base()
    enter(s, "Oxford/L", "Essex")
    enter(s, "Norfolk/Y", "Essex", frm="Rutland")
    enter(s, "Pembroke/L", "Essex", frm="East Anglia", reserve=2)
    begin(s, "Essex", Y, p1=Y)
    seen = _order_of_round(s)
    assert all("Pembroke/L" not in g for _, g in seen)
    assert s["battle"]["round"] == 2
    assert "Earl of Pembroke" in log_text(s)  # named when it joins
    r2 = _order_of_round(s)
    assert r2 == [(L, ["Oxford/L"]), (L, ["Pembroke/L"]), (Y, ["Norfolk/Y"])]


def test_situation6_reserves_and_round_1_through_the_core() -> None:
    """§6 situation 6 (6.3 example), through the core's movement: York attacks Essex with 3 from
    Rutland (Main Attack) and 2 from Middlesex; Lancaster (P2) adds 3 from East Anglia. Round 1 is
    the 3 Rutland blocks against the 2 defenders; the 5 others join at the start of round 2."""
    s = H.keep_hands(H.new())
    H.clear_map(s)
    H.put(s, "Henry VI/L", "Lincoln")
    for k in ("Oxford/L", "Beaumont/L"):
        H.put(s, k, "Essex")
    for k in ("Norfolk/Y", "Suffolk/Y", "Arundel/Y"):
        H.put(s, k, "Rutland")
    for k in ("Hastings/Y", "Herbert/Y"):
        H.put(s, k, "Middlesex")
    for k in ("Wiltshire/L", "Pembroke/L", "Devon/L"):
        H.put(s, k, "East Anglia")
    H.play(s, "AP4", "AP3")
    assert s["p1"] == 0
    H.move(s, Y, "Rutland", [("Norfolk/Y", ["Essex"]), ("Suffolk/Y", ["Essex"]), ("Arundel/Y", ["Essex"])])
    H.move(s, Y, "Middlesex", [("Hastings/Y", ["Essex"]), ("Herbert/Y", ["Essex"])])
    H.act(s, Y, "end")
    H.act(s, Y, "main", "Rutland")
    H.move(s, L, "East Anglia", [("Wiltshire/L", ["Essex"]), ("Pembroke/L", ["Essex"]), ("Devon/L", ["Essex"])])
    H.act(s, L, "end")
    bt = s["battle"]
    assert bt is not None and bt["area"] == AREA_ID["Essex"] and bt["att"] == 0
    fighting = sorted(BLOCK_KEY[b] for b in bt["revealed"])
    assert fighting == sorted(["Norfolk/Y", "Suffolk/Y", "Arundel/Y", "Oxford/L", "Beaumont/L"])
    assert s["reserve"][BLOCK_ID["Hastings/Y"]] == 1 and s["reserve"][BLOCK_ID["Wiltshire/L"]] == 2
    r1 = _order_of_round(s)
    in_r1 = {k for _, g in r1 for k in g}
    assert in_r1 == {"Norfolk/Y", "Suffolk/Y", "Arundel/Y", "Oxford/L", "Beaumont/L"}
    assert s["battle"]["round"] == 2
    assert all(s["reserve"][b] == 0 for b in range(N_BLOCKS) if s["loc"][b] == AREA_ID["Essex"])
    r2 = _order_of_round(s)
    assert {k for _, g in r2 for k in g} == in_r1 | {"Hastings/Y", "Herbert/Y", "Wiltshire/L", "Pembroke/L", "Devon/L"}


# ------------------------------------------------------------------ C89, C90 early deployment
def test_c89_reserves_deploy_when_round_1_blocks_die_and_take_hits_from_unfired_blocks() -> None:
    """C89 (6.3): if all of a side's round-1 blocks are eliminated its Reserves deploy at once:
    they cannot fire until round 2 but take hits from enemy blocks that have not fired yet. The
    surplus of the fire that destroyed the last round-1 block is lost (ruling)."""
    s = base()
    enter(s, "Clifford/L", "Oxford")     # A2
    enter(s, "Wiltshire/L", "Oxford")    # B2
    enter(s, "Essex/Y", "Oxford", frm="Warwick", steps=1)          # B1, main
    enter(s, "Suffolk/Y", "Oxford", frm="Leicester", reserve=1)    # B2 reserve, 3 steps
    begin(s, "Oxford", Y)
    do(s, L, "fire", "Clifford/L", dice=(1, 2, 1))  # 3 hits: Essex dies, 2 surplus lost
    assert at(s, "Essex/Y") == "dead" and steps(s, "Suffolk/Y") == 3
    assert s["reserve"][BLOCK_ID["Suffolk/Y"]] == 0 and "deploy at once" in log_text(s)
    assert s["battle"]["att"] == 0  # the attacker's reserves deploying do not change control
    # Wiltshire (B2) has not fired: it may hit the deployed Suffolk; Suffolk has no turn in round 1
    assert turn(s) == L and group(s) == ["Wiltshire/L"]
    do(s, L, "fire", "Wiltshire/L", dice=(1, 5, 6))
    assert steps(s, "Suffolk/Y") == 2
    assert s["battle"]["round"] == 2
    assert turn(s) == L and group(s) == ["Clifford/L"]


def test_c90_control_changes_when_defenders_die_in_round_1() -> None:
    """C90 (6.3): all defending blocks eliminated in round 1 with defender Reserves present: the
    Defender becomes the Attacker (and must retreat in round 4)."""
    s = base()
    enter(s, "Devon/L", "Oxford", steps=1)                           # B2 defender
    enter(s, "Herbert/Y", "Oxford", frm="Warwick")                   # A2 attacker
    enter(s, "Pembroke/L", "Oxford", frm="Gloucester", reserve=2)    # Lancaster reinforcement
    begin(s, "Oxford", Y, p1=Y)
    do(s, Y, "fire", "Herbert/Y", dice=(1, 6, 6))
    assert at(s, "Devon/L") == "dead"  # a rose noble (6.83)
    bt = s["battle"]
    assert bt["att"] == 1 and s["atk"][AREA_ID["Oxford"]] == 1
    assert "Control changes" in log_text(s)
    assert bt["round"] == 2  # nothing else could act in round 1
    # round 4: Lancaster (now attacker) must retreat
    pass_until(s, lambda x: x["battle"]["round"] == 4 and turn(x) == L)
    assert verbs(s, L) == {"retreat"}
    assert "Gloucester" in [a[1] for a in args(s, L, "retreat")]  # Lancaster entered there itself


def test_reserve_flags_of_other_areas_untouched() -> None:
    """Battle clears Reserve flags only in its own area."""
    s = base()
    enter(s, "Devon/L", "Oxford")
    enter(s, "Herbert/Y", "Oxford", frm="Warwick")
    enter(s, "Oxford/L", "Essex")
    enter(s, "Norfolk/Y", "Essex", frm="Rutland")
    enter(s, "Suffolk/Y", "Essex", frm="Middlesex", reserve=1)
    begin(s, "Oxford", Y)
    pass_until(s, lambda x: x["battle"] is None)
    assert s["reserve"][BLOCK_ID["Suffolk/Y"]] == 1
