"""Approach and Exile (4.3.5) and Battle (4.4) with rigged dice, rule section by rule section,
including the Background Book's Battle of London (Scenario Ia quickstart) and research §7
situations 6, 9, 11, 12, 13 and 19."""

from __future__ import annotations

import random
from typing import Any

import pytest

from roses.engine import rng
from roses.engine.errors import IllegalAction
from roses.engine.fuzz import _view_problems
from roses.engine.game import Game
from roses.games.plantagenet import RULES
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.battle import BATTLE_STEPS, RETINUE, side_hits
from roses.games.plantagenet.components import TROOP_TYPES, load
from roses.games.plantagenet.records import Where
from tests.plantagenet.helpers import act, add_vassal, approach, place, set_troops

State = dict[str, Any]


def step(s: State) -> str | None:
    return s["stack"][-1]["step"] if s["stack"] else None


def opts(s: State) -> list[tuple[str, Any]]:
    (role,) = RULES.active(s)
    return RULES.legal_actions(s, role)


def hits(s: State, arg: str, rolls: list[int], valour: str | None = None) -> State:
    """Assign one Hit to ``arg`` with the given die roll(s); on a failed roll with Valour left,
    answer the Valour question with ``valour`` ("reroll" or "rout")."""
    rng.rig(s, rolls)
    act(s, "hit", arg)
    if step(s) == "valour":
        assert valour is not None, "a Valour decision was asked"
        act(s, valour)
    assert not s["rigged"], "every rigged roll was used"
    return s


def fresh(scenario: str = "ia-henry-vi") -> State:
    """A scenario's starting state with the first Levy's drawn cards put back: the tests place
    Lords and run Approach frames on their own."""
    s = RULES.setup(1, scenario)
    for zones in s["aow"].values():
        zones["deck"] = sorted(zones["deck"] + zones["drawn"], key=lambda c: (c[0], int(c[1:])))
        zones["drawn"] = []
    s["log"] = []
    return s


def london_battle() -> State:
    """The Background Book's Battle of London (Ia quickstart): York (2 Men-at-Arms, 3 Longbowmen,
    3 Militia) and March (with Shrewsbury) Approach Henry VI (with Essex) at Lancastrian London;
    Somerset is away at Guildford. The example plays without Capture of the King."""
    s = fresh()
    s["special_rules"].remove("capture_of_the_king")
    s["influence"] = -3
    place(s, "somerset_1", "Guildford")
    place(s, "york", "London")
    set_troops(s, "york", men_at_arms=2, longbowmen=3, militia=3)
    place(s, "march", "London")
    add_vassal(s, "march", "shrewsbury")
    add_vassal(s, "henry_vi", "essex")
    return approach(s, "London", ["york", "march"])


# ----- the worked example ---------------------------------------------------------------------
def test_battle_of_london_worked_example_4_4() -> None:
    """Background Book, Battle: 12 and 6 Missile Hits, 11 and 7 Melee Hits, Henry VI Flees in
    Round 2 and survives his Death check (3 - 2), Disbands to box 2 with Essex to box 6; the
    Yorkists gain 6 Influence, take no Spoils at Lancastrian London and recover one Militia."""
    s = london_battle()
    assert step(s) == "approach" and RULES.active(s) == ["Lancaster"]
    assert opts(s) == [("fight", "henry_vi"), ("exile", "henry_vi")]
    act(s, "fight", "henry_vi")
    # 4.4.1 Array: Henry alone must be at Front center (placed without a question); York opposite.
    assert s["battle"]["front"]["Lancaster"] == [None, "henry_vi", None]
    assert RULES.active(s) == ["York"]
    assert opts(s) == [("place", "center:march"), ("place", "center:york")]  # Battle Lords by id
    act(s, "place", "center:york")
    assert opts(s) == [("place", "right:march"), ("place", "left:march")]
    act(s, "place", "right:march")  # "March on York's Right"
    b = s["battle"]
    assert b["front"]["York"] == ["march", "york", None]
    assert {lid: d["valour"] for lid, d in b["lords"].items()} == {"henry_vi": 0, "york": 2, "march": 3}
    # Round 1: no one Flees.
    assert step(s) == "flee" and RULES.active(s) == ["Lancaster"]
    act(s, "done")
    act(s, "done")
    # One Engagement: March Flanks Henry VI.
    assert b["engagements"] == [["henry_vi", "march", "york"]]
    assert b["strike"] == {"engagement": 0, "kind": "missile", "hits": {"Lancaster": 12, "York": 6}}
    assert RULES.active(s) == ["Lancaster"]  # Defenders apply their Hits first
    for r in (3, 1, 1, 2, 3, 1, 4):
        hits(s, "henry_vi:militia", [r])
    assert s["lords"]["henry_vi"]["mat"]["routed"]["militia"] == 4
    for r in (1, 1, 1, 6, 6):
        hits(s, "henry_vi:longbowmen", [r])
    assert s["lords"]["henry_vi"]["mat"]["routed"]["longbowmen"] == 2
    assert RULES.active(s) == ["York"]
    for who, r in (("york", 2), ("york", 3), ("york", 4), ("march", 5)):
        hits(s, f"{who}:militia", [r], valour="rout")
    hits(s, "york:longbowmen", [2], valour="rout")
    hits(s, "york:longbowmen", [3], valour="rout")
    # Melee: the Militia have Routed, so they Strike no more.
    assert b["strike"] == {"engagement": 0, "kind": "melee", "hits": {"Lancaster": 11, "York": 7}}
    for r in (1, 2, 3, 3, 4):
        hits(s, "henry_vi:men_at_arms", [r])
    hits(s, "henry_vi:essex", [6])
    for r in (1, 2, 3, 4, 4):
        hits(s, "henry_vi:retinue", [r])
    hits(s, "march:men_at_arms", [6, 5], valour="reroll")  # March's Valour rerolls his own unit once
    assert b["lords"]["march"]["valour"] == 2 and b["lords"]["york"]["valour"] == 2
    hits(s, "york:men_at_arms", [5], valour="rout")
    hits(s, "york:men_at_arms", [4, 6], valour="reroll")
    for r in (1, 2, 3, 4):
        hits(s, "york:retinue", [r])
    # End of Round 1: Henry keeps his Retinue and one Men-at-Arms; nobody Routs.
    assert [lid for lid, d in b["lords"].items() if d["routed"]] == []
    assert s["lords"]["henry_vi"]["mat"]["troops"]["men_at_arms"] == 1
    assert b["lords"]["henry_vi"]["vassals_routed"] == ["essex"]
    assert s["lords"]["york"]["mat"]["troops"] == {"men_at_arms": 0, "longbowmen": 1, "militia": 0,
                                                   "mercenaries": 0, "handgunners": 0}
    assert b["round"] == 2 and step(s) == "flee" and RULES.active(s) == ["Lancaster"]
    # Round 2: Henry Flees; the whole side has Routed, so the Battle ends at once. Then the
    # Losses rolls, the Battle's Lords by id (March's Men-at-Arms and Militia; York's 2
    # Men-at-Arms, 2 Longbowmen, 3 Militia: only one of York's Militia rolls a 1) and Henry's
    # Death check: 3, -2 for Fleeing.
    rng.rig(s, [6, 4, 4, 5, 2, 2, 1, 2, 3, 3])
    act(s, "flee", "henry_vi")
    assert not s["rigged"]
    assert s["stack"] == [] and s["battle"] is None
    assert s["influence"] == 3  # from 3 Lancastrian to 3 Yorkist: +6 (5 for Henry VI, 1 for Essex)
    assert s["lords"]["york"]["mat"]["troops"] == {"men_at_arms": 0, "longbowmen": 1, "militia": 1,
                                                   "mercenaries": 0, "handgunners": 0}
    assert s["lords"]["york"]["mat"]["routed"] == dict.fromkeys(s["lords"]["york"]["mat"]["routed"], 0)
    assert s["lords"]["march"]["mat"]["troops"]["longbowmen"] == 2
    assert s["lords"]["march"]["mat"]["vassals"] == ["shrewsbury"]
    assert s["lords"]["york"]["mat"]["assets"]["carts"] == 2  # no Spoils at an Enemy Stronghold
    henry = s["lords"]["henry_vi"]
    assert (henry["where"], henry["box"], henry["exile"]) == (Where.CALENDAR, 2, False)
    assert s["vassals"]["essex"] == {"where": "calendar", "lord": None, "box": 6, "face_up": False}
    assert s["moved"] == ["march", "york"]  # 4.4.4 Fought
    log = "\n".join(x if isinstance(x, str) else x[1] for x in s["log"])
    assert "Death check for Henry VI: 3-2 = 1: he survives." in log
    assert "York gains 6 Influence" in log


# ----- 4.3.5 Approach and Exile -----------------------------------------------------------------
def test_situation_6_both_exile_on_approach_4_3_5() -> None:
    """Somerset Approaches York and March (with Shrewsbury) at Lancastrian London; both Exile:
    the Yorkists lose 8 Influence, Somerset takes all their Carts and Provender, York goes to
    box 2 and March to box 5 with Exile markers, Shrewsbury face down in box 5; no Battle."""
    s = fresh()
    place(s, "henry_vi", "Rochester")
    add_vassal(s, "march", "shrewsbury")
    approach(s, "London", ["somerset_1"], ["york", "march"])
    assert RULES.active(s) == ["York"]
    act(s, "exile", "york")
    act(s, "exile", "march")
    assert s["stack"] == [] and s["battle"] is None
    assert s["influence"] == -8
    assert s["lords"]["somerset_1"]["mat"]["assets"]["carts"] == 2 + 2 + 1
    assert s["lords"]["somerset_1"]["mat"]["assets"]["provender"] == 2 + 2 + 1
    assert [(s["lords"][x]["box"], s["lords"][x]["exile"]) for x in ("york", "march")] == [(2, True), (5, True)]
    assert s["vassals"]["shrewsbury"] == {"where": "calendar", "lord": None, "box": 5, "face_up": False}


def test_exile_spoils_halved_at_neutral_stronghold_shared_among_approachers_4_3_5() -> None:
    """Exile Spoils as if after Battle (4.4.3): half, rounded up, at a Neutral Stronghold; the
    Approaching side shares them out among its Lords as it wishes (RULINGS R42)."""
    s = fresh()
    place(s, "york", "Coventry", carts=3, provender=5)
    approach(s, "Coventry", ["henry_vi", "somerset_1"], ["york"])
    act(s, "exile", "york")
    assert step(s) == "spoils" and RULES.active(s) == ["Lancaster"]
    assert s["stack"][-1]["carts"] == 2 and s["stack"][-1]["provender"] == 3
    act(s, "give", "somerset_1:carts")
    act(s, "give_all", "henry_vi")
    assert s["lords"]["somerset_1"]["mat"]["assets"]["carts"] == 2 + 1
    assert s["lords"]["henry_vi"]["mat"]["assets"]["carts"] == 2 + 1
    assert s["lords"]["henry_vi"]["mat"]["assets"]["provender"] == 2 + 3
    assert s["stack"] == []


def test_approach_some_exile_others_fight_4_3_5() -> None:
    """Each Enemy Lord chooses; the Battle is fought by those who stayed (4.3.5 BATTLE)."""
    s = fresh()
    approach(s, "Ely", ["henry_vi"], ["march"])
    assert sorted(opts(s)) == sorted([("fight", "york"), ("exile", "york"), ("fight", "march"), ("exile", "march")])
    act(s, "exile", "march")
    act(s, "fight", "york")
    assert step(s) != "approach" and sorted(s["battle"]["lords"]) == ["henry_vi", "york"]
    assert s["battle"]["attacker"] == "Lancaster" and s["battle"]["locale"] == "Ely"


# ----- 4.4.1 Array, 4.4.2 Reposition and Engage --------------------------------------------------
def test_array_defender_center_first_attacker_opposite_first_rest_reserve_4_4_1() -> None:
    s = fresh("ii-warwicks-rebellion")
    for lid in ("edward_iv", "pembroke", "devon", "gloucester_1"):
        place(s, lid, "Coventry")
    approach(s, "Coventry", ["warwick_l", "clarence"], [])
    for lid in ("edward_iv", "pembroke", "devon", "gloucester_1"):
        act(s, "fight", lid)
    assert RULES.active(s) == ["York"]  # the Defender first, Front center first
    assert {a for _, a in opts(s)} == {f"center:{x}" for x in ("edward_iv", "pembroke", "devon", "gloucester_1")}
    act(s, "place", "center:edward_iv")
    assert {a.split(":")[0] for _, a in opts(s)} == {"left", "right"}
    act(s, "place", "left:devon")
    assert {a.split(":")[0] for _, a in opts(s)} == {"right"}
    act(s, "place", "right:pembroke")
    b = s["battle"]
    assert b["front"]["York"] == ["devon", "edward_iv", "pembroke"] and b["reserve"]["York"] == ["gloucester_1"]
    # The Attacker: center first, then opposite the Defender's left or right.
    assert {a for _, a in opts(s)} == {"center:warwick_l", "center:clarence"}
    act(s, "place", "center:clarence")
    assert opts(s) == [("place", "right:warwick_l"), ("place", "left:warwick_l")]  # both face a Defender
    act(s, "place", "left:warwick_l")  # the Attacker's left faces the Defender's right
    assert b["front"]["Lancaster"] == [None, "clarence", "warwick_l"]
    assert step(s) == "flee"


def engage_array(s: State, defender: list[str | None], attacker: list[str | None]) -> dict[str, Any]:
    """Set the Front Arrays (index 0-2, the Defender's left to right) of the Battle on top and
    run its Engage stage (4.4.2)."""
    b = s["battle"]
    d, a = b["defender"], b["attacker"]
    b["front"] = {d: list(defender), a: list(attacker)}
    b["reserve"] = {d: [], a: []}
    b["late"] = None
    s["stack"] = [{"step": "battle", "stage": "engage"}]  # the Battle alone on the stack
    RULES.steps.settle(s)
    return b


def two_on_two() -> State:
    """York and March (Defending at Ely) against Henry VI and Somerset, Arrayed and ready."""
    s = fresh()
    approach(s, "Ely", ["henry_vi", "somerset_1"], ["march"])
    act(s, "fight", "york")
    act(s, "fight", "march")
    return s


def test_flanking_example_single_engagement_4_4_2() -> None:
    """The rulebook's Engage example (an Array left by Rout): B and C oppose each other, A Flanks
    C, D Flanks B, so all four form one Engagement."""
    s = two_on_two()
    b = engage_array(s, ["march", "york", None], [None, "henry_vi", "somerset_1"])  # A B / C D
    assert b["links"] == {"march": "henry_vi", "york": "henry_vi", "henry_vi": "york", "somerset_1": "york"}
    assert b["engagements"] == [["march", "york", "henry_vi", "somerset_1"]]


def test_center_flank_choice_and_attacker_orders_engagements_4_4_2() -> None:
    """A center Lord with Enemies left and right but none opposite chooses whom to Flank; with
    several Engagements the Attacker declares their order."""
    s = two_on_two()
    engage_array(s, ["york", None, "march"], [None, "henry_vi", None])
    assert step(s) == "flank" and RULES.active(s) == ["Lancaster"]
    assert opts(s) == [("flank", "york"), ("flank", "march")]
    act(s, "flank", "march")
    b = s["battle"]
    assert b["links"] == {"york": "henry_vi", "march": "henry_vi", "henry_vi": "march"}
    assert b["engagements"] == [["york", "march", "henry_vi"]]
    # Three separate pairs: the Attacker orders them.
    s2 = fresh("ii-warwicks-rebellion")
    for lid in ("edward_iv", "pembroke", "devon"):
        place(s2, lid, "Coventry")
    approach(s2, "Coventry", ["warwick_l", "clarence", "jasper_tudor_1"], [])
    for lid in ("edward_iv", "pembroke", "devon"):
        act(s2, "fight", lid)
    for arg in ("center:edward_iv", "left:devon", "center:clarence", "left:warwick_l"):
        act(s2, "place", arg)  # Pembroke and Jasper Tudor take the last positions by themselves
    assert s2["battle"]["front"] == {"York": ["devon", "edward_iv", "pembroke"],
                                     "Lancaster": ["jasper_tudor_1", "clarence", "warwick_l"]}
    act(s2, "done")
    act(s2, "done")
    b2 = s2["battle"]
    assert len(b2["engagements"]) == 3 and RULES.active(s2) == ["Lancaster"] and step(s2) == "order"
    assert opts(s2) == [("engagement", 0), ("engagement", 1), ("engagement", 2)]
    act(s2, "engagement", 2)
    act(s2, "engagement", 0)
    assert b2["order"] == [2, 0, 1]  # the last one is placed by itself
    assert b2["strike"]["engagement"] == 2 and b2["strike"]["kind"] == "missile"


def test_reposition_rout_advance_center_4_4_2() -> None:
    """Routed Lords leave the Array; Reserves Advance into empty Front positions; an empty
    center is filled from the left or right."""
    s = fresh("ii-warwicks-rebellion")
    for lid in ("edward_iv", "pembroke", "devon", "gloucester_1"):
        place(s, lid, "Coventry")
    approach(s, "Coventry", ["warwick_l"], [])
    for lid in ("edward_iv", "pembroke", "devon", "gloucester_1"):
        act(s, "fight", lid)
    for arg in ("center:edward_iv", "left:devon", "right:pembroke"):
        act(s, "place", arg)
    b = s["battle"]
    assert b["reserve"]["York"] == ["gloucester_1"]
    act(s, "flee", "edward_iv")
    act(s, "flee", "devon")
    act(s, "done")
    act(s, "done")  # Lancaster
    # Edward IV and Devon are gone; Gloucester advances into the center or the left.
    assert step(s) == "advance" and opts(s) == [("advance", "left:gloucester_1"), ("advance", "center:gloucester_1")]
    act(s, "advance", "left:gloucester_1")
    assert step(s) == "center" and opts(s) == [("center", "gloucester_1"), ("center", "pembroke")]
    act(s, "center", "pembroke")
    assert b["front"]["York"] == ["gloucester_1", "pembroke", None]


# ----- 4.4.2 Strike --------------------------------------------------------------------------
def test_situation_9_hit_totals_round_up_4_4_2() -> None:
    """5 Longbowmen + 4 Militia = 12 Missile Hits; 2 Retinues + 1 Vassal + 3 Men-at-Arms = 11
    Melee Hits; a lone Militia 1 Missile Hit (½ rounded up)."""
    s = fresh()
    place(s, "york", "London")
    place(s, "march", "London")
    set_troops(s, "york", men_at_arms=2, longbowmen=3, militia=3)
    add_vassal(s, "march", "shrewsbury")
    blords = {lid: {"retinue_routed": False, "vassals_routed": []} for lid in ("york", "march", "henry_vi")}
    b = {"lords": blords}
    assert side_hits(s, b, ["york", "march"], "missile") == 12
    set_troops(s, "york", men_at_arms=2)
    set_troops(s, "march", men_at_arms=1, longbowmen=2)
    assert side_hits(s, b, ["york", "march"], "melee") == 11
    set_troops(s, "henry_vi", militia=1)
    assert side_hits(s, b, ["henry_vi"], "missile") == 1


def test_situation_11_valour_rerolls_own_units_once_4_4_2() -> None:
    """A failed roll may be rerolled once with a Valour marker of the unit's own Lord; a
    second failure Routs; York's markers cannot save March's units."""
    s = london_battle()
    act(s, "fight", "henry_vi")
    act(s, "place", "center:york")
    act(s, "place", "right:march")
    act(s, "done")
    act(s, "done")
    b = s["battle"]
    b["lords"]["march"]["valour"] = 1
    for _ in range(12):  # Henry takes his Missile Hits on the Retinue, all Protected
        hits(s, "henry_vi:retinue", [1])
    assert RULES.active(s) == ["York"]
    hits(s, "march:militia", [4, 3], valour="reroll")  # fails, rerolls, fails again: Routs
    assert s["lords"]["march"]["mat"]["routed"]["militia"] == 1 and b["lords"]["march"]["valour"] == 0
    rng.rig(s, [5])
    act(s, "hit", "march:longbowmen")  # March has no Valour left: York's cannot help
    assert step(s) == "hits" and s["lords"]["march"]["mat"]["routed"]["longbowmen"] == 1
    assert b["lords"]["york"]["valour"] == 2
    rng.rig(s, [6])
    act(s, "hit", "york:longbowmen")
    assert step(s) == "valour" and opts(s) == [("reroll", None), ("rout", None)]
    rng.rig(s, [1])
    act(s, "reroll")
    assert s["lords"]["york"]["mat"]["routed"]["longbowmen"] == 0 and b["lords"]["york"]["valour"] == 1


def test_situation_12_lord_routs_when_last_troop_routs_battle_ends_4_4_2() -> None:
    """Henry VI keeps his Retinue and Vassal but loses his last Troop in Round 1: he Routs at the
    end of the Round, and as his side's last Lord the Battle ends."""
    s = fresh()
    place(s, "somerset_1", "Guildford")
    set_troops(s, "henry_vi", men_at_arms=1)
    add_vassal(s, "henry_vi", "essex")
    set_troops(s, "york", militia=1)  # 1 Missile Hit, then 3 + 1 Melee
    approach(s, "London", ["york"])
    act(s, "fight", "henry_vi")
    act(s, "done")
    act(s, "done")
    hits(s, "henry_vi:men_at_arms", [5])  # the Missile Hit Routs Henry's only Troop
    b = s["battle"]
    assert not b["lords"]["henry_vi"]["routed"]  # not until Lord Rout at the end of the Round
    assert b["strike"] == {"engagement": 0, "kind": "melee", "hits": {"Lancaster": 4, "York": 5}}
    for _ in range(4):  # Henry's Retinue and Essex still Strike (5 Hits): York takes them next
        hits(s, "henry_vi:retinue", [1])
    for _ in range(4):
        hits(s, "york:retinue", [1])
    assert b["round"] == 1 and not b["lords"]["henry_vi"]["routed"]
    hits(s, "york:retinue", [1])  # the last Hit: Lord Rout, and the Battle is over
    assert s["stack"] == [] and s["battle"] is None
    # Scenario Ia: Capture of the King (York is the only Unrouted Yorkist, so he holds Henry).
    assert s["lords"]["henry_vi"]["where"] == Where.HELD and s["captured"] == {"henry_vi": "york"}
    assert s["influence"] == 5 + 1 + 10
    assert s["vassals"]["essex"]["where"] == "calendar"


def test_all_routed_both_lose_no_influence_4_4_3() -> None:
    """Both sides' last Lords Rout in the same Round: both lose, nobody gains Influence, no
    Spoils; both check for Death (the Defender first) and Disband."""
    s = fresh()
    place(s, "somerset_1", "Guildford")
    set_troops(s, "henry_vi", militia=1)
    set_troops(s, "york", militia=1)
    approach(s, "London", ["york"])
    act(s, "fight", "henry_vi")
    act(s, "done")
    act(s, "done")
    assert s["battle"]["strike"]["hits"] == {"Lancaster": 1, "York": 1}
    hits(s, "henry_vi:militia", [6])  # Routs (Henry has no Valour)
    rng.rig(s, [6])
    act(s, "hit", "york:militia")
    before = s["influence"]
    # Melee: each Retinue alone Strikes 3 and takes the other's 3 (one unit: no question asked);
    # then both Lords Rout (no Troops), and roll their Death checks: Henry VI 2, York 1.
    rng.rig(s, [1, 1, 1, 1, 1, 1, 2, 1])
    act(s, "rout")
    assert not s["rigged"] and s["stack"] == []
    assert s["influence"] == before
    assert s["lords"]["york"]["where"] == Where.CALENDAR and s["lords"]["henry_vi"]["where"] == Where.CALENDAR
    assert s["moved"] == []


def test_situation_13_death_checks_fled_minus_two_order_by_owner_4_4_3() -> None:
    """A Fled Lord rolling 3 survives (3-2 = 1) and Disbands; the side chooses the order of its
    Death checks; a Routed Lord who did not Flee dies on 3 and is removed with his Seat (a
    non-Heir in a standalone scenario is simply gone)."""
    s = fresh("ii-warwicks-rebellion")
    place(s, "devon", "Coventry")
    place(s, "pembroke", "Coventry")
    approach(s, "Coventry", ["warwick_l"], [])
    act(s, "fight", "devon")
    act(s, "fight", "pembroke")
    act(s, "place", "center:devon")
    act(s, "place", "left:pembroke")
    act(s, "flee", "devon")
    act(s, "flee", "pembroke")  # the whole side Fled: the Battle ends at once
    assert step(s) == "death" and RULES.active(s) == ["York"]
    assert opts(s) == [("check", "devon"), ("check", "pembroke")]  # Battle Lords by id
    rng.rig(s, [3, 5])  # Devon 3-2 = 1 survives; Pembroke 5-2 = 3 dies
    act(s, "check", "devon")  # then Pembroke's check, the last, makes itself
    assert not s["rigged"] and s["stack"] == []
    assert s["lords"]["devon"]["where"] == Where.CALENDAR and s["lords"]["devon"]["box"] == 1 + 6 - 4
    assert s["lords"]["pembroke"]["where"] == Where.REMOVED and "pembroke" not in s["seats"]
    assert s["influence"] == -(4 + 2)  # Lancaster gains Devon's and Pembroke's printed Influence
    s2 = fresh("ii-warwicks-rebellion")
    place(s2, "devon", "Coventry")
    set_troops(s2, "devon", militia=1)
    set_troops(s2, "warwick_l", men_at_arms=1)
    approach(s2, "Coventry", ["warwick_l"], [])
    act(s2, "fight", "devon")
    act(s2, "done")
    act(s2, "done")
    hits(s2, "warwick_l:men_at_arms", [1])  # Devon's Militia's Missile Hit
    assert s2["battle"]["strike"]["hits"] == {"York": 4, "Lancaster": 4}
    rng.rig(s2, [6])
    act(s2, "hit", "devon:militia")
    rng.rig(s2, [1, 1, 1])  # Devon's Retinue takes the other 3 Hits by itself
    act(s2, "rout")
    for _ in range(3):
        hits(s2, "warwick_l:retinue", [1])
    # The last Hit; then Devon Routs (no Troops left), Warwick has nothing to recover, and
    # Devon's Death check is a 3: he Dies.
    hits(s2, "warwick_l:retinue", [1, 3])
    assert s2["stack"] == [] and s2["lords"]["devon"]["where"] == Where.REMOVED
    assert s2["moved"] == ["warwick_l"]


def test_death_removes_lord_seat_and_cards_4_4_3() -> None:
    s = fresh("ii-warwicks-rebellion")
    place(s, "devon", "Coventry")
    approach(s, "Coventry", ["warwick_l"], [])
    act(s, "fight", "devon")
    b = s["battle"]
    b["lords"]["devon"]["routed"] = True  # Routed without Fleeing
    s["stack"] = [{"step": "battle", "stage": "end"}]  # straight to Ending the Battle
    rng.rig(s, [3])
    RULES.steps.settle(s)
    assert s["lords"]["devon"]["where"] == Where.REMOVED and "devon" not in s["seats"]
    assert not any(c.startswith("devon-") for c in s["command"]["York"]["deck"])
    assert s["stack"] == []


def test_losses_disband_unrouted_lord_who_loses_all_troops_4_4_3() -> None:
    s = fresh()
    place(s, "somerset_1", "Guildford")
    set_troops(s, "york", militia=1)
    approach(s, "London", ["york"])
    act(s, "fight", "henry_vi")
    b = s["battle"]
    # York's only Militia Routed but York himself did not (he won when Henry Fled).
    s["lords"]["york"]["mat"]["troops"]["militia"] = 0
    s["lords"]["york"]["mat"]["routed"]["militia"] = 1
    b["lords"]["henry_vi"]["routed"] = b["lords"]["henry_vi"]["fled"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}]  # straight to Ending the Battle
    rng.rig(s, [2, 1])  # Losses: the Militia is Lost (2 > 1); Henry's Death check 1-2: survives
    RULES.steps.settle(s)
    assert s["lords"]["york"]["where"] == Where.CALENDAR and s["moved"] == []


def test_spoils_favour_and_routed_vassals_disband_4_4_3() -> None:
    """At a Stronghold Friendly to the winner, all the losers' Carts and Provender go to its
    Unrouted Lords; a Routed Vassal of an Unrouted Lord Disbands; a Routed Special Vassal's card
    is discarded."""
    s = fresh("ic-somersets-return")
    place(s, "somerset_1", "London", carts=3, provender=4)
    approach(s, "London", ["somerset_1"])
    act(s, "fight", "warwick_y")
    act(s, "fight", "march")
    b = s["battle"]
    b["lords"]["somerset_1"]["routed"] = True
    b["lords"]["warwick_y"]["vassals_routed"] = ["montagu"]
    s["stack"] = [{"step": "battle", "stage": "end"}]  # straight to Ending the Battle
    rng.rig(s, [6])
    RULES.steps.settle(s)
    assert step(s) == "spoils" and RULES.active(s) == ["York"]
    act(s, "give_all", "march")
    assert s["lords"]["march"]["mat"]["assets"]["carts"] == 1 + 3
    assert s["lords"]["march"]["mat"]["assets"]["provender"] == 1 + 4
    assert s["lords"]["somerset_1"]["where"] == Where.REMOVED
    assert s["lords"]["warwick_y"]["mat"]["special_vassals"] == [] and s["special_vassals"]["montagu"] is None
    assert "L23" not in s["lords"]["warwick_y"]["mat"]["capabilities"]
    assert "L23" not in s["aow"]["Lancaster"]["in_game"]  # Ic Montagu: the card leaves play


# ----- Scenario rules: Capture of the King, Test of Arms, Norfolk is Late -----------------------
def _rout_henry(s: State) -> None:
    act(s, "fight", "henry_vi")
    b = s["battle"]
    b["lords"]["henry_vi"]["routed"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}]  # straight to Ending the Battle


def test_situation_19_capture_of_the_king_ia() -> None:
    """A Yorkist win against Henry VI: +10 Influence besides the normal reward, no Death check,
    Henry on an Unrouted Yorkist mat, off the map; when his holder Exiles, Henry goes to the
    Calendar as if Disbanded and Lancaster gains 10."""
    s = fresh()
    place(s, "somerset_1", "Guildford")
    approach(s, "London", ["york", "march"])
    _rout_henry(s)
    RULES.steps.settle(s)
    assert step(s) == "capture" and RULES.active(s) == ["York"]
    assert opts(s) == [("hold", "march"), ("hold", "york")]  # Battle Lords by id
    before_rolls = s["rolls"]
    act(s, "hold", "march")
    assert s["rolls"] == before_rolls  # no Death check roll
    assert s["influence"] == 5 + 10
    assert s["lords"]["henry_vi"]["where"] == Where.HELD and s["captured"] == {"henry_vi": "march"}
    assert "henry_vi" not in sv.on_map(s, "Lancaster")
    assert RULES.check_invariants(s) == []
    # The holder goes into Exile on a later Approach.
    s["lords"]["somerset_1"]["locale"] = "Guildford"
    approach(s, "London", ["somerset_1"])
    act(s, "exile", "march")
    act(s, "exile", "york")
    assert s["captured"] == {}
    assert s["lords"]["henry_vi"]["where"] == Where.CALENDAR and s["lords"]["henry_vi"]["box"] == 2
    assert RULES.check_invariants(s) == []


def test_capture_needs_a_yorkist_win_ia() -> None:
    s = fresh()
    place(s, "somerset_1", "Guildford")
    approach(s, "London", ["york"])
    act(s, "fight", "henry_vi")
    b = s["battle"]
    b["lords"]["york"]["routed"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}]  # straight to Ending the Battle
    rng.rig(s, [1])
    RULES.steps.settle(s)
    assert s["captured"] == {} and s["lords"]["henry_vi"]["where"] == Where.MAP


def test_test_of_arms_battle_at_york_ib() -> None:
    s = fresh("ib-towton")
    place(s, "warwick_y", "York")
    approach(s, "York", ["warwick_y"], ["somerset_1"])
    act(s, "fight", "somerset_1")
    s["battle"]["lords"]["somerset_1"]["routed"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}]  # straight to Ending the Battle
    rng.rig(s, [1])
    RULES.steps.settle(s)
    assert s["favour"]["York"] == "York"


def test_test_of_arms_unchanged_when_both_lose_ib() -> None:
    s = fresh("ib-towton")
    s["favour"]["York"] = "Lancaster"
    place(s, "warwick_y", "York")
    approach(s, "York", ["warwick_y"], ["somerset_1"])
    act(s, "fight", "somerset_1")
    for lid in ("warwick_y", "somerset_1"):
        s["battle"]["lords"][lid]["routed"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}]
    rng.rig(s, [1, 1])
    RULES.steps.settle(s)
    assert s["favour"]["York"] == "Lancaster" and s["stack"] == []


def test_special_vassals_count_as_vassals_1_5_4() -> None:
    """Warwick with the Montagu Special Vassal (Ic) is worth 5 + 1 for Exile, Battle rewards and
    Unpaid Disband (RULINGS R46)."""
    s = fresh("ic-somersets-return")
    assert sv.unpaid_disband_penalty(s, ["warwick_y"]) == 5 + 1
    place(s, "march", "Calais")
    approach(s, "London", ["somerset_1"])
    before = s["influence"]
    act(s, "exile", "warwick_y")
    assert s["influence"] == before - 6
    assert s["special_vassals"]["montagu"] is None


def test_foreign_haven_warwick_exiles_on_yorkist_approach_ii() -> None:
    """Foreign Haven (II): Warwick's Exile upon a Yorkist Approach shifts the Lancastrians on the
    Calendar (Warwick too) left to the current Turn, then the Yorkists left to the next."""
    s = fresh("ii-warwicks-rebellion")
    approach(s, "Calais", ["edward_iv"])
    act(s, "exile", "warwick_l")
    cal = {lid: d["box"] for lid, d in s["lords"].items() if d["where"] == Where.CALENDAR}
    assert cal == {"warwick_l": 1, "margaret": 1, "somerset_2": 1, "oxford": 1, "exeter_2": 1,
                   "devon": 1, "gloucester_1": 2, "northumberland_y1": 2}
    assert s["lords"]["margaret"]["exile"]  # markers are kept


def test_foreign_haven_warwick_dies_as_defender_errata_ii() -> None:
    s = fresh("ii-warwicks-rebellion")
    approach(s, "Calais", ["edward_iv"])
    act(s, "fight", "warwick_l")
    s["battle"]["lords"]["warwick_l"]["routed"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}]
    rng.rig(s, [6])
    RULES.steps.settle(s)
    assert s["lords"]["warwick_l"]["where"] == Where.REMOVED
    assert s["lords"]["margaret"]["box"] == 1 and s["lords"]["gloucester_1"]["box"] == 2


def test_foreign_haven_edward_iv_may_exile_instead_of_death_ii() -> None:
    """Edward IV Routed while Margaret is off the map may go into Exile instead of his Death
    check (Foreign Haven, II); with Margaret on the map he must check."""
    s = fresh("ii-warwicks-rebellion")
    approach(s, "London", ["warwick_l"])
    act(s, "fight", "edward_iv")
    s["battle"]["lords"]["edward_iv"]["routed"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}]
    RULES.steps.settle(s)
    assert step(s) == "death" and opts(s) == [("check", "edward_iv"), ("exile", "edward_iv")]
    before = s["influence"]
    act(s, "exile", "edward_iv")
    assert s["lords"]["edward_iv"]["where"] == Where.CALENDAR and s["lords"]["edward_iv"]["exile"]
    assert s["influence"] == before - 5 and s["stack"] == []
    s2 = fresh("ii-warwicks-rebellion")
    place(s2, "margaret", "France")
    approach(s2, "London", ["warwick_l"])
    act(s2, "fight", "edward_iv")
    s2["battle"]["lords"]["edward_iv"]["routed"] = True
    s2["stack"] = [{"step": "battle", "stage": "end"}]
    rng.rig(s2, [1])
    RULES.steps.settle(s2)
    assert not s2["rigged"] and s2["lords"]["edward_iv"]["where"] == Where.CALENDAR
    assert not s2["lords"]["edward_iv"]["exile"]


def test_norfolk_is_late_first_battle_only_ib() -> None:
    """Norfolk Arrays in Reserve and may not Advance before Round 2 in the first Battle with
    another Yorkist; later Battles are normal."""
    s = fresh("ib-towton")
    approach(s, "London", ["somerset_1"], [])
    act(s, "fight", "march")
    act(s, "fight", "norfolk")
    act(s, "fight", "warwick_y")
    b = s["battle"]
    assert b["late"] == "norfolk" and s["norfolk_late_used"]
    assert {a.split(":")[1] for _, a in opts(s)} == {"march", "warwick_y"}
    act(s, "place", "center:march")
    act(s, "place", "left:warwick_y")
    assert b["reserve"]["York"] == ["norfolk"]
    act(s, "flee", "warwick_y")
    act(s, "done")
    act(s, "done")
    assert step(s) != "advance" and b["front"]["York"] == [None, "march", None]  # no Advance in Round 1
    assert b["reserve"]["York"] == ["norfolk"]
    s["stack"] = [{"step": "battle", "stage": "round"}]  # on to Round 2
    RULES.steps.settle(s)
    act(s, "done")
    act(s, "done")
    assert b["round"] == 2 and step(s) == "advance"
    assert opts(s) == [("advance", "left:norfolk"), ("advance", "right:norfolk")]
    act(s, "advance", "right:norfolk")
    assert b["front"]["York"] == [None, "march", "norfolk"]
    s2 = fresh("ib-towton")
    s2["norfolk_late_used"] = True
    approach(s2, "London", ["somerset_1"], [])
    for lid in ("march", "norfolk", "warwick_y"):
        act(s2, "fight", lid)
    assert s2["battle"]["late"] is None


# ----- views, hidden information, undo ------------------------------------------------------------
def test_battle_is_public_and_mats_revealed_in_battle_1_5_3() -> None:
    s = RULES.setup(1, "ia-henry-vi", {"hidden_mats": True})
    place(s, "somerset_1", "Guildford")
    s["lords"]["york"]["mat"]["capabilities"].append("Y5")
    s["aow"]["York"]["deck"].remove("Y5")
    assert RULES.view(s, "Lancaster")["lords"]["york"]["mat"] == "hidden"
    reveals = s.get("reveals", 0)
    approach(s, "London", ["york"])
    act(s, "fight", "henry_vi")
    assert s["reveals"] > reveals
    v = RULES.view(s, "Lancaster")
    assert v["lords"]["york"]["mat"]["capabilities"] == ["Y5"]
    assert '"Y5"' not in RULES.secrets(s, "Lancaster")
    assert v["battle"]["front"]["Lancaster"] == {"center": "henry_vi"}
    assert v["battle"]["attacker"] == "York"


def test_undo_never_crosses_a_die_roll_or_the_other_side() -> None:
    g = Game.new(RULES, 3, "ia-henry-vi")
    place(g.state, "somerset_1", "Guildford")
    approach(g.state, "London", ["york", "march"])
    g.apply("Lancaster", "fight", "henry_vi")
    g.apply("York", "place", "center:york")
    assert g.can_undo("York")  # no roll yet, still York's decision
    g.apply("York", ".undo")
    assert g.state["battle"]["front"]["York"] == [None, None, None]
    g.apply("York", "place", "center:york")
    g.apply("York", "place", "right:march")
    g.apply("Lancaster", "done")
    assert not g.can_undo("York")
    g.apply("York", "done")
    g.apply("Lancaster", "hit", "henry_vi:militia")  # a die is rolled
    assert not g.can_undo("Lancaster")


def test_held_event_windows_in_battle_and_at_death_checks_4_4_1_4_4_3() -> None:
    """The Defender then the Attacker may play Held Events "in Battle" after the Array: the
    window offers the holder's playable cards; played (L12 Ravine here) it is revealed, back to
    its deck, in effect for this Battle, and asks for its target; passed, nothing changes."""
    for play in (False, True):
        s = london_battle()
        s["aow"]["Lancaster"]["deck"].remove("L12")
        s["aow"]["Lancaster"]["held"].append("L12")
        act(s, "fight", "henry_vi")
        act(s, "place", "center:york")
        act(s, "place", "right:march")
        assert step(s) == "battle_event" and RULES.active(s) == ["Lancaster"]
        assert opts(s) == [("play", "L12"), ("pass", None)]
        if not play:
            act(s, "pass")
            assert s["aow"]["Lancaster"]["held"] == ["L12"] and s["battle"]["events"] == []
        else:
            reveals = s.get("reveals", 0)
            act(s, "play", "L12")
            assert s["battle"]["events"] == ["L12"] and s["reveals"] > reveals
            assert step(s) == "card_pick" and ("lord", "york") in opts(s)
            act(s, "lord", "york")
            assert "L12" in s["lords"]["york"]["mat"]["events"] and s["battle"]["ravine"] == "york"
        assert step(s) == "flee"  # York holds nothing to play: its window passed by itself


def test_terminal_description_and_labels_of_a_battle() -> None:
    s = london_battle()
    act(s, "fight", "henry_vi")
    act(s, "place", "center:york")
    act(s, "place", "right:march")
    act(s, "done")
    act(s, "done")
    text = RULES.describe(RULES.view(s, "York"))
    assert "Battle at London, Round 1: York Attacks, Lancaster Defends." in text
    assert "York Front: right March, center York" in text
    assert "Henry VI (Lancaster, Valour 0): Retinue, 2 Men-at-Arms, 2 Longbowmen, 4 Militia, Vassal Essex" in text
    assert RULES.label(s, "Lancaster", "hit", "henry_vi:militia") == "Henry VI: Militia (Protection 1)"
    assert RULES.label(s, "Lancaster", "hit", "henry_vi:essex") == "Henry VI: Vassal Essex (Protection 1-4)"


def test_bad_battle_input_is_refused_without_change() -> None:
    s = london_battle()
    before = RULES.view(s, "Lancaster")
    with pytest.raises(IllegalAction):
        RULES.action(s, "Lancaster", "exile", "york")
    with pytest.raises(IllegalAction):
        RULES.action(s, "York", "fight", "henry_vi")
    assert RULES.view(s, "Lancaster") == before


def test_battle_steps_are_named_once() -> None:
    names = [st.name for st in BATTLE_STEPS]
    assert len(names) == len(set(names)) and "approach" in names


# ----- random Battles: every step checked, every Battle ends ------------------------------------
BATTLES = [
    ("ia-henry-vi", "London", ["york", "march"], ["henry_vi", "somerset_1"]),
    ("ii-warwicks-rebellion", "Coventry", ["warwick_l", "clarence", "jasper_tudor_1"],
     ["edward_iv", "pembroke", "devon", "gloucester_1"]),
    ("ib-towton", "York", ["somerset_1", "exeter_1", "northumberland_l"], ["march", "norfolk", "warwick_y"]),
    ("ic-somersets-return", "London", ["somerset_1"], ["march", "warwick_y"]),
]
#: Extra Troops for a Battle's Lords, so that it is not one-sided.
TROOPS = {3: {"somerset_1": {"men_at_arms": 5, "longbowmen": 5, "militia": 4}}}


@pytest.mark.parametrize("index", range(len(BATTLES)))
def test_random_battles_end_and_keep_invariants_4_4_2(index: int) -> None:
    """Random decisions (rarely Fleeing, so that Battles last several Rounds): every state keeps
    the invariants and the views their hidden information, and every Battle ends (4.4.2: each
    Round every Engaged Lord takes at least the 3 Melee Hits of an enemy Retinue, and units never
    come back during a Battle, so Rounds cannot go on for ever)."""
    scenario, locale, attackers, defenders = BATTLES[index]
    rounds = []
    for seed in range(6):
        s = fresh(scenario)
        for lid, troops in TROOPS.get(index, {}).items():
            set_troops(s, lid, **troops)
        for lid in list(s["lords"]):
            if s["lords"][lid]["where"] == Where.MAP and s["lords"][lid]["locale"] == locale \
                    and lid not in attackers + defenders:
                place(s, lid, "Calais" if locale != "Calais" else "Dover")
        approach(s, locale, attackers, [d for d in defenders if s["lords"][d]["where"] != Where.UNUSED])
        pick = random.Random(seed)
        max_round = 0
        for n in range(3000):
            if not s["stack"] or s["result"] is not None:
                break
            (role,) = RULES.active(s)
            legal = RULES.legal_actions(s, role)
            calm = [a for a in legal if a[0] in ("done", "fight")]
            verb, arg = calm[0] if calm and pick.random() < 0.9 else pick.choice(legal)
            RULES.action(s, role, verb, arg)
            assert RULES.check_invariants(s) == [], (seed, n)
            assert _view_problems(RULES, s, ["York", "Lancaster"], RULES.active(s)) == []
            if s["battle"]:
                max_round = max(max_round, s["battle"]["round"])
        assert s["stack"] == [] or s["result"] is not None
        assert s["battle"] is None
        rounds.append(max_round)
    assert max(rounds) >= 2  # several Rounds were fought


def test_fast_is_legal_agrees_with_options() -> None:
    """The fast legality checks of the Hits and Bosworth steps give the answer of membership in
    their options, for every candidate argument (legal or not), all through random games."""
    c = load()
    unit_names = [RETINUE, *TROOP_TYPES, *c.vassals, *c.special_vassals]
    checked = 0
    for scenario, seed in (("bosworth", 1), ("bosworth", 2), ("bosworth", 3)):
        s = RULES.setup(seed, scenario)
        pick = random.Random(seed)
        while s["result"] is None:
            frame = s["stack"][-1]
            stp = RULES.steps[frame["step"]]
            for role in RULES.active(s):
                legal = set(RULES.legal_actions(s, role))
                cands: list[tuple[str, Any]]
                if frame["step"] == "hits":
                    cands = [("hit", f"{lid}:{u}") for lid in s["battle"]["lords"] for u in unit_names]
                elif frame["step"] == "bosworth":
                    lords = [lid for lid in s["lords"] if s["lords"][lid]["where"] == Where.BATTLE]
                    cands = [("capability", f"{cid}:{lid}") for cid in c.cards for lid in lords]
                    cands += [("front", f"{slot}:{lid}") for slot in ("left", "center", "right", "x") for lid in lords]
                    cands += [("lock", None), ("hit", "x"), ("capability", 3)]
                else:
                    continue
                for verb, arg in cands:
                    assert stp.is_legal(s, frame, role, verb, arg) == ((verb, arg) in legal), (verb, arg)
                    checked += 1
            active = RULES.active(s)
            role = pick.choice(active)
            verb, arg = pick.choice(RULES.legal_actions(s, role))
            RULES.action(s, role, verb, arg)
    assert checked > 1000


def test_hidden_mats_exile_spoils_declared_to_both_sides_1_5_3_4_3_5() -> None:
    """Hidden Mats (1.5.3): an Exile on Approach declares what the Lord had and gives up (its
    Spoils, 4.3.5) to both sides, a reveal that undo cannot cross."""
    s = RULES.setup(1, "ia-henry-vi", {"hidden_mats": True})
    for zones in s["aow"].values():
        zones["deck"] = sorted(zones["deck"] + zones["drawn"], key=lambda c: (c[0], int(c[1:])))
        zones["drawn"] = []
    place(s, "henry_vi", "Rochester")
    approach(s, "London", ["somerset_1"], ["york"])
    reveals = s.get("reveals", 0)
    act(s, "exile", "york")
    assert s.get("reveals", 0) > reveals
    line = ("York goes into Exile (4.3.5): York loses 5 Influence; he had 2 Carts and 2 Provender and gives up "
            "2 Carts and 2 Provender.")
    for role in ("York", "Lancaster"):
        assert line in RULES.log_for(s, role), role
