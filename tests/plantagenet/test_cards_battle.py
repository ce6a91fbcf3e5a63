"""Arts of War cards in Battle (4.4): Held Events played after the Array (4.4.1) and upon the
Death checks (4.4.3), and the Capabilities that change Forces, Protection, Hits and the Death
checks. Each test names the card half and the section it changes; rigged dice where a roll
decides."""

from __future__ import annotations

from typing import Any

import pytest

from roses.engine import rng
from roses.games.plantagenet import RULES, arts, battle
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.battle import RETINUE, protection, side_hits, start_battle
from roses.games.plantagenet.records import VassalWhere, Where
from roses.games.plantagenet.setup import setup_state

from .helpers import act, add_vassal, approach, options, place, run_frames, set_troops

State = dict[str, Any]


def fresh(scenario: str = "ia-henry-vi") -> State:
    s = setup_state(3, scenario)
    s["stack"], s["box"], s["first_turn"] = [], 2, False
    for sr in ("capture_of_the_king",):
        if sr in s["special_rules"]:
            s["special_rules"].remove(sr)
    if scenario == "ia-henry-vi":
        place(s, "somerset_1", "Guildford")  # Henry VI alone at London
    return s


def side_of(cid: str) -> str:
    return "York" if cid[0] == "Y" else "Lancaster"


def capability(s: State, lord: str, cid: str) -> None:
    s["aow"][side_of(cid)]["deck"].remove(cid)
    s["aow"][side_of(cid)]["drawn"].append(cid)
    arts.deploy_capability(s, lord, cid)


def hold(s: State, cid: str) -> None:
    """``cid`` is in its side's hand of Held Events (brought into the game if the scenario lacks it)."""
    zones = s["aow"][side_of(cid)]
    if cid in zones["deck"]:
        zones["deck"].remove(cid)
    else:
        zones["in_game"].append(cid)
    zones["held"].append(cid)


def played(s: State, cid: str) -> None:
    """The Held Event was played in this Battle (in effect for it, 4.4.4)."""
    s["battle"]["events"].append(cid)


def bare_battle(s: State, locale: str | None, attacker: str, lords: dict[str, list[str]]) -> dict[str, Any]:
    for side_lords in lords.values():
        for lid in side_lords:
            if locale is not None:
                place(s, lid, locale)
    return start_battle(s, locale, attacker, lords)


def step(s: State) -> str | None:
    return s["stack"][-1]["step"] if s["stack"] else None


def past_windows(s: State) -> State:
    """Pass the Approach's reaction windows (Blocked Ford, RULINGS R50): a side holding Events
    is asked even when it holds no Blocked Ford."""
    while step(s) == "react":
        act(s, "pass")
    return s


def to_round_one(s: State) -> State:
    """From an Approach: everyone fights, Arrays made, Event windows and card decisions passed."""
    while step(s) in ("approach", "array", "battle_event", "card_pick"):
        verb, arg = options(s)[0] if step(s) != "battle_event" else ("pass", None)
        if step(s) == "approach":
            verb, arg = next(o for o in options(s) if o[0] == "fight")
        if step(s) == "card_pick":
            verb, arg = next((o for o in options(s) if o[0] in ("done", "decline", "pass")), options(s)[0])
        act(s, verb, arg)
    return s


# ----- Capabilities: Forces for one Battle (4.4.1, 4.4.4) ------------------------------------------
def test_y3_l3_musterd_my_soldiers_capability_at_a_friendly_stronghold_4_4_4() -> None:
    s = fresh()
    capability(s, "york", "Y3")
    maa = s["lords"]["york"]["mat"]["troops"]["men_at_arms"]
    b = bare_battle(s, "Ely", "Lancaster", {"Lancaster": ["somerset_1"], "York": ["york"]})
    assert b["temp"]["york"] == {"men_at_arms": 2, "longbowmen": 1}
    assert s["lords"]["york"]["mat"]["troops"]["men_at_arms"] == maa + 2
    battle.remove_battle_troops(s, b)
    assert s["lords"]["york"]["mat"]["troops"]["men_at_arms"] == maa
    s2 = fresh()
    capability(s2, "henry_vi", "L3")
    b2 = bare_battle(s2, "Ely", "Lancaster", {"Lancaster": ["henry_vi"], "York": ["york"]})
    assert "henry_vi" not in b2["temp"]  # Ely is not Friendly to Lancaster


def test_y25_pembroke_and_l25_welsh_lord_capabilities_longbowmen_in_wales_4_4_1() -> None:
    s = fresh("ii-warwicks-rebellion")
    capability(s, "pembroke", "Y25")
    capability(s, "jasper_tudor_1", "L25")
    b = bare_battle(s, "Cardiff", "York", {"York": ["pembroke"], "Lancaster": ["jasper_tudor_1"]})
    assert b["temp"] == {"pembroke": {"longbowmen": 2}, "jasper_tudor_1": {"longbowmen": 2}}


def test_y27_percys_north_capability_militia_in_the_north_4_4_1() -> None:
    s = fresh("ii-warwicks-rebellion")
    place(s, "northumberland_y1", "Newcastle")
    capability(s, "northumberland_y1", "Y27")
    b = bare_battle(s, "Newcastle", "York", {"York": ["northumberland_y1"], "Lancaster": ["clarence"]})
    assert b["temp"]["northumberland_y1"] == {"militia": 4}


def test_y35_kingdom_united_capability_militia_as_gloucester_4_4_1() -> None:
    s = fresh("iii-my-kingdom-for-a-horse")
    capability(s, "gloucester_2", "Y35")
    b = bare_battle(s, "Dover", "York", {"York": ["gloucester_2"], "Lancaster": ["oxford"]})
    assert b["temp"]["gloucester_2"] == {"militia": 3}


def test_y37_percys_north_capability_route_to_carlisle_4_4_1() -> None:
    s = fresh("iii-my-kingdom-for-a-horse")
    capability(s, "northumberland_y2", "Y37")
    b = bare_battle(s, "Carlisle", "Lancaster", {"York": ["northumberland_y2"], "Lancaster": ["oxford"]})
    assert b["temp"]["northumberland_y2"] == {"men_at_arms": 2}
    s2 = fresh("iii-my-kingdom-for-a-horse")
    capability(s2, "northumberland_y2", "Y37")
    s2["favour"] = {}
    b2 = bare_battle(s2, "Dover", "Lancaster", {"York": ["northumberland_y2"], "Lancaster": ["oxford"]})
    assert "northumberland_y2" not in b2["temp"]  # no Friendly Route to Carlisle


def test_l33_philibert_capability_near_a_channel_port_4_4_1() -> None:
    """L33 Philibert de Chandée: 2 more Men-at-Arms in a Battle at or next to a Friendly English
    Channel Port (4.4.1; RULINGS R59 b)."""
    s = fresh("iii-my-kingdom-for-a-horse")
    capability(s, "oxford", "L33")
    s["favour"]["Dover"] = "Lancaster"
    b = bare_battle(s, "Dover", "York", {"York": ["norfolk"], "Lancaster": ["oxford"]})
    assert b["temp"]["oxford"] == {"men_at_arms": 2}


def test_battle_troops_none_on_bosworth_field_rulings_r59() -> None:
    s = fresh("iii-my-kingdom-for-a-horse")
    capability(s, "oxford", "L33")
    for lid in ("oxford", "norfolk"):
        s["lords"][lid]["where"] = Where.BATTLE
    b = start_battle(s, None, "Lancaster", {"York": ["norfolk"], "Lancaster": ["oxford"]})
    assert b["temp"] == {}


# ----- Capabilities: Protection, Hits (4.4.2) -------------------------------------------------------
def test_y9_barricades_capability_protection_at_friendly_stronghold_4_4_2() -> None:
    s = fresh()
    capability(s, "york", "Y9")
    bare_battle(s, "Ely", "Lancaster", {"Lancaster": ["somerset_1"], "York": ["york"]})
    assert (protection(s, "york", "men_at_arms"), protection(s, "york", "militia")) == (4, 2)
    s["favour"]["Ely"] = "Lancaster"
    assert protection(s, "york", "men_at_arms") == 3


def test_l5_church_blessing_capability_men_at_arms_1_4_4_4_2() -> None:
    s = fresh()
    capability(s, "henry_vi", "L5")
    bare_battle(s, "London", "York", {"Lancaster": ["henry_vi"], "York": ["york"]})
    assert protection(s, "henry_vi", "men_at_arms") == 4 and protection(s, "henry_vi", "militia") == 1


def test_l34_piquiers_capability_until_three_rout_4_4_2() -> None:
    s = fresh("iii-my-kingdom-for-a-horse")
    capability(s, "oxford", "L34")
    b = bare_battle(s, "Dover", "York", {"York": ["norfolk"], "Lancaster": ["oxford"]})
    assert protection(s, "oxford", "militia") == 4
    for _ in range(3):
        battle.rout_unit(s, "oxford", "men_at_arms") if s["lords"]["oxford"]["mat"]["troops"]["men_at_arms"] \
            else battle.rout_unit(s, "oxford", "militia")
    assert b["piquiers"]["oxford"] == 3 and protection(s, "oxford", "militia") == 1


def test_l23_montagu_capability_retinue_1_5_4_4_2() -> None:
    s = fresh("ii-warwicks-rebellion")
    capability(s, "warwick_l", "L23")
    bare_battle(s, "Calais", "York", {"York": ["edward_iv"], "Lancaster": ["warwick_l"]})
    assert protection(s, "warwick_l", RETINUE) == 5 and "montagu" in s["lords"]["warwick_l"]["mat"]["special_vassals"]


def test_l27_barded_horse_capability_missile_and_melee_4_4_2() -> None:
    s = fresh("ii-warwicks-rebellion")
    place(s, "margaret", "Calais")
    capability(s, "margaret", "L27")
    bare_battle(s, "Calais", "York", {"York": ["edward_iv"], "Lancaster": ["margaret"]})
    assert protection(s, "margaret", RETINUE, "missile") == 3 and protection(s, "margaret", RETINUE, "melee") == 5


def test_l36_chevaliers_capability_men_at_arms_double_melee_weaker_to_missiles_4_4_2() -> None:
    s = fresh("iii-my-kingdom-for-a-horse")
    set_troops(s, "oxford", men_at_arms=3)
    b = bare_battle(s, "Dover", "York", {"York": ["norfolk"], "Lancaster": ["oxford"]})
    plain = side_hits(s, b, ["oxford"], "melee")
    capability(s, "oxford", "L36")
    assert side_hits(s, b, ["oxford"], "melee") == plain + 3
    assert protection(s, "oxford", "men_at_arms", "missile") == 2 and protection(s, "oxford", "men_at_arms") == 3


def test_l31_yeomen_of_the_crown_capability_men_at_arms_rout_instead_4_4_2() -> None:
    s = fresh("ii-warwicks-rebellion")
    place(s, "margaret", "Calais")
    capability(s, "margaret", "L31")
    b = bare_battle(s, "Calais", "York", {"York": ["edward_iv"], "Lancaster": ["margaret"]})
    b["lords"]["margaret"]["valour"] = 0
    maa = s["lords"]["margaret"]["mat"]["troops"]["men_at_arms"]
    run_frames(s, {"step": "hits", "side": "Lancaster", "lords": ["margaret"], "left": 1, "kind": "melee"})
    rng.rig(s, [6])
    act(s, "hit", "margaret:retinue")
    assert ("yeomen", None) in options(s)
    act(s, "yeomen")
    assert not b["lords"]["margaret"]["retinue_routed"]
    assert s["lords"]["margaret"]["mat"]["troops"]["men_at_arms"] == maa - 1


@pytest.mark.parametrize(("card", "lord"), [("Y1", "york"), ("Y2", "york"), ("L1", "henry_vi"), ("L2", "henry_vi")])
def test_culverins_capability_die_of_missile_hits_discarded_4_4_2(card: str, lord: str) -> None:
    """Y1/Y2/L1/L2 Culverins & Falconets: after the Events, the owner may discard the card; in
    Round 1 the Lord's side then Strikes one die more of Missile Hits."""
    s = fresh()
    side = side_of(card)
    foe = "Lancaster" if side == "York" else "York"
    capability(s, lord, card)
    approach(s, "London", ["york"])
    past_windows(s)
    act(s, "fight", "henry_vi")
    assert step(s) == "card_pick" and RULES.active(s) == [side] and ("fire", f"{card}:{lord}") in options(s)
    act(s, "fire", f"{card}:{lord}")
    assert card in s["aow"][side]["deck"] and s["lords"][lord]["mat"]["capabilities"] == []
    while RULES.active(s) != ["York"]:
        act(s, "done")  # the Flights before York's, the last one
    rng.rig(s, [4])
    act(s, "done")  # York's Flight: the Missile Strike follows
    assert s["battle"]["strike"]["hits"][foe] == side_hits(s, s["battle"], [lord], "missile") + 4


def test_y36_vanguard_capability_norfolks_engagement_only_4_4_2() -> None:
    s = fresh("iii-my-kingdom-for-a-horse")
    capability(s, "norfolk", "Y36")
    b = bare_battle(s, "London", "York", {"York": ["norfolk", "gloucester_2"], "Lancaster": ["oxford", "henry_tudor"]})
    b["front"]["Lancaster"] = ["oxford", "henry_tudor", None]
    b["front"]["York"] = ["norfolk", "gloucester_2", None]
    b["round"] = 1
    b["vanguard"] = True
    b["links"] = {"oxford": "norfolk", "norfolk": "oxford", "henry_tudor": "gloucester_2",
                  "gloucester_2": "henry_tudor"}
    run_frames(s, {"step": "battle", "stage": "engagements"})
    assert b["engagements"] == [["oxford", "norfolk"]]


def test_y32_final_charge_capability_three_more_hits_4_4_2() -> None:
    s = fresh("iii-my-kingdom-for-a-horse")
    from roses.games.plantagenet.setup import replace_in_place
    replace_in_place(s, "gloucester_2", "richard_iii")
    capability(s, "richard_iii", "Y32")
    b = bare_battle(s, "London", "Lancaster", {"York": ["richard_iii"], "Lancaster": ["oxford"]})
    b["round"], b["engagements"], b["order"], b["struck"] = 1, [["oxford", "richard_iii"]], [0], 0
    melee = side_hits(s, b, ["richard_iii"], "melee")
    run_frames(s, {"step": "battle", "stage": "melee"})
    assert step(s) == "card_pick"
    rng.rig(s, [2])  # the Retinue's own Hit, taken at once (its only unit): Protected
    act(s, "charge")
    assert b["strike"]["hits"]["Lancaster"] == melee + 3
    assert any("Hit on Richard III's Retinue: rolls 2" in str(e) for e in s["log"])


def test_y33_bloody_thou_art_capability_routed_lancastrians_die_4_4_3() -> None:
    s = fresh("iii-my-kingdom-for-a-horse")
    from roses.games.plantagenet.setup import replace_in_place
    replace_in_place(s, "gloucester_2", "richard_iii")
    capability(s, "richard_iii", "Y33")
    b = bare_battle(s, "London", "York", {"York": ["richard_iii"], "Lancaster": ["oxford"]})
    b["lords"]["oxford"]["routed"] = True
    hold(s, "L36")  # Talbot to the Rescue cannot be played: there are no Death checks
    rolls = s["rolls"]
    run_frames(s, {"step": "battle", "stage": "end"})
    assert b["bloody"] and s["lords"]["oxford"]["where"] == Where.REMOVED
    assert s["rolls"] == rolls and s["aow"]["Lancaster"]["held"] == ["L36"]


def test_y8_england_is_my_home_capability_disband_next_box_instead_of_exile_4_3_5() -> None:
    s2 = fresh()
    capability(s2, "york", "Y8")
    approach(s2, "London", ["somerset_1"], ["york"])
    inf = s2["influence"]
    act(s2, "exile", "york")
    assert s2["lords"]["york"]["where"] == Where.CALENDAR and s2["lords"]["york"]["box"] == 3
    assert not s2["lords"]["york"]["exile"] and s2["influence"] == inf


# ----- Held Events in Battle (4.4.1) ------------------------------------------------------------------
def test_y1_l1_leeward_battle_line_event_halves_missile_hits_unless_both_4_4_2() -> None:
    s = fresh()
    b = bare_battle(s, "London", "York", {"York": ["york"], "Lancaster": ["henry_vi"]})
    b["round"], b["engagements"], b["order"] = 1, [["henry_vi", "york"]], [0]
    battle.BattleDriver().strike(s, b, 0, "missile")
    plain = dict(b["strike"]["hits"])
    s["stack"] = []
    played(s, "L1")
    battle.BattleDriver().strike(s, b, 0, "missile")
    assert b["strike"]["hits"]["Lancaster"] == (plain["Lancaster"] + 1) // 2
    s["stack"] = []
    played(s, "Y1")
    battle.BattleDriver().strike(s, b, 0, "missile")
    assert b["strike"]["hits"] == plain


def test_y5_l5_suspicion_event_disbands_a_lower_influence_enemy_4_4_1() -> None:
    s = fresh()
    hold(s, "Y5")
    place(s, "march", "London")
    approach(s, "London", ["york", "march"], ["somerset_1"])
    past_windows(s)
    act(s, "fight", "henry_vi")
    act(s, "fight", "somerset_1")
    while step(s) == "array":
        act(s, *options(s)[0])
    # Henry VI and Somerset (1) have printed Influence 5, like York; March's is 2: nobody is
    # lower than a Yorkist Lord there, so Suspicion cannot be played. York is still asked (it
    # could hold another Battle Event, RULINGS R50) and may only pass.
    assert step(s) == "battle_event" and options(s) == [("pass", None)]
    act(s, "pass")
    assert s["aow"]["York"]["held"] == ["Y5"]
    # With Exeter (printed Influence 2) there, York checks Influence (rigged 2: success) and
    # Exeter Disbands, leaving the Battle.
    s = fresh()
    hold(s, "Y5")
    approach(s, "London", ["york"], ["exeter_1"])
    past_windows(s)
    act(s, "fight", "henry_vi")
    act(s, "fight", "exeter_1")
    while step(s) == "array":
        act(s, *options(s)[0])
    act(s, "play", "Y5")
    assert ("check", "york>exeter_1") in options(s) and ("check", "york>henry_vi") not in options(s)
    rng.rig(s, [2])
    act(s, "check", "york>exeter_1")
    assert "exeter_1" not in s["battle"]["lords"] and s["lords"]["exeter_1"]["where"] == Where.CALENDAR
    assert "Y5" in s["aow"]["York"]["deck"] and RULES.check_invariants(s) == []


def test_l5_suspicion_event_success_removes_the_lord_from_battle_4_4_1() -> None:
    s = fresh()
    hold(s, "L5")
    place(s, "march", "London")
    approach(s, "London", ["york", "march"])
    past_windows(s)
    act(s, "fight", "henry_vi")
    while step(s) == "array":
        act(s, *options(s)[0])
    act(s, "play", "L5")
    assert ("check", "henry_vi>march") in options(s) and ("check", "henry_vi>york") not in options(s)
    rng.rig(s, [2])
    act(s, "check", "henry_vi>march")
    assert "march" not in s["battle"]["lords"] and s["lords"]["march"]["where"] == Where.CALENDAR
    assert "march" not in s["battle"]["front"]["York"]
    assert RULES.check_invariants(s) == []


def test_l7_for_trust_not_him_event_takes_an_enemy_vassal_4_4_1() -> None:
    s = fresh()
    hold(s, "L7")
    place(s, "march", "London")
    add_vassal(s, "march", "stanley")
    approach(s, "London", ["york", "march"])
    past_windows(s)
    act(s, "fight", "henry_vi")
    while step(s) == "array":
        act(s, *options(s)[0])
    act(s, "play", "L7")
    rng.rig(s, [1])
    act(s, "levy", "henry_vi>stanley@march")
    assert "stanley" in s["lords"]["henry_vi"]["mat"]["vassals"] and s["vassals"]["stanley"]["lord"] == "henry_vi"
    assert s["vassals"]["stanley"]["box"] == 2 + 1
    assert RULES.check_invariants(s) == []


def test_y17_alice_montagu_capability_immune_to_for_trust_not_him_4_4_1() -> None:
    s = fresh()
    hold(s, "L7")
    place(s, "salisbury", "London")
    add_vassal(s, "salisbury", "stanley")
    capability(s, "salisbury", "Y17")
    approach(s, "London", ["salisbury"])
    past_windows(s)
    act(s, "fight", "henry_vi")
    while step(s) == "array":
        act(s, *options(s)[0])
    assert ("play", "L7") not in options(s)  # no Vassal it could take


def test_l12_ravine_event_lord_sits_out_round_one_4_4_2() -> None:
    s = fresh()
    b = bare_battle(s, "London", "York", {"York": ["york"], "Lancaster": ["henry_vi"]})
    b["front"] = {"Lancaster": [None, "henry_vi", None], "York": [None, "york", None]}
    b["round"], b["ravine"] = 1, "york"
    s["lords"]["york"]["mat"]["events"].append("L12")
    s["aow"]["Lancaster"]["deck"].remove("L12")
    run_frames(s, {"step": "battle", "stage": "engage"})
    assert b["engagements"] == []
    battle.end_ravine(s, b)
    assert "L12" in s["aow"]["Lancaster"]["deck"] and s["lords"]["york"]["mat"]["events"] == []


def test_y19_caltrops_event_two_more_melee_hits_each_round_4_4_2() -> None:
    s = fresh()
    b = bare_battle(s, "London", "York", {"York": ["york"], "Lancaster": ["henry_vi"]})
    b["round"], b["engagements"], b["order"] = 1, [["henry_vi", "york"]], [0]
    plain = side_hits(s, b, ["york"], "melee")
    played(s, "Y19")
    b["caltrops"] = {"0": 2}
    battle.BattleDriver().strike(s, b, 0, "melee")
    assert b["strike"]["hits"]["Lancaster"] == plain + 2


def test_y30_regroup_event_routed_troops_come_back_4_4_2() -> None:
    """Y30 Regroup, played after the Array (4.4.1), lets one Lord roll his Routed Troops against
    their Protection once (4.4.2): each success comes back (RULINGS R59 c)."""
    s = fresh()
    b = bare_battle(s, "London", "York", {"York": ["york"], "Lancaster": ["henry_vi"]})
    hold(s, "Y30")
    run_frames(s, {"step": "battle_event", "side": "York", "window": "array"})
    assert ("play", "Y30") in options(s)
    act(s, "play", "Y30")
    assert b["regroup"] == ["York"] and "Y30" in b["events"] and "Y30" in s["aow"]["York"]["deck"]
    s["stack"] = []
    set_troops(s, "york", men_at_arms=0, militia=1)
    s["lords"]["york"]["mat"]["routed"]["militia"] = 2
    b["regroup"] = ["York"]
    run_frames(s, *battle.regroup_picks(b))
    rng.rig(s, [1, 4])
    act(s, "regroup", "york")
    mat = s["lords"]["york"]["mat"]
    assert (mat["troops"]["militia"], mat["routed"]["militia"]) == (2, 1) and b["regroup"] == []


def test_y36_swift_maneuver_event_ends_the_round_when_a_retinue_routs_4_4_2() -> None:
    s = fresh()
    b = bare_battle(s, "London", "York", {"York": ["york"], "Lancaster": ["henry_vi"]})
    b["round"] = 1
    played(s, "Y36")
    s["stack"] = [{"step": "battle", "stage": "strike"},
                  {"step": "hits", "side": "York", "lords": ["york"], "left": 3, "kind": "melee"},
                  {"step": "hits", "side": "Lancaster", "lords": ["henry_vi"], "left": 2, "kind": "melee"}]
    RULES.steps.settle(s)  # Lancaster has a real choice of unit: asked
    rng.rig(s, [6])
    act(s, "hit", "henry_vi:retinue")  # Henry's Valour is 0: his Retinue Routs
    assert step(s) == "card_pick" and RULES.active(s) == ["York"]
    act(s, "end")
    assert b["lords"]["henry_vi"]["routed"]  # the Round ended: Lord Rout at once
    assert not any(f["step"] == "hits" for f in s["stack"])


def test_y37_patrick_de_la_mote_event_two_dice_for_culverins_4_4_2() -> None:
    """Y37 Patrick de la Mote, played after the Array: the Yorkist Culverins & Falconets roll two
    dice of Missile Hits (rigged 3 and 4: 7 more Hits), the Lancastrian ones still one."""
    s = fresh()
    bare_battle(s, "London", "York", {"York": ["york"], "Lancaster": ["henry_vi"]})
    from roses.games.plantagenet import card_rules as cr
    assert cr.culverin_dice(s, "York") == 1
    played(s, "Y37")
    assert cr.culverin_dice(s, "York") == 2 and cr.culverin_dice(s, "Lancaster") == 1
    s = fresh()
    capability(s, "york", "Y1")
    hold(s, "Y37")
    approach(s, "London", ["york"])
    past_windows(s)
    act(s, "fight", "henry_vi")
    while step(s) == "array":
        act(s, *options(s)[0])
    assert step(s) == "battle_event" and ("play", "Y37") in options(s)
    act(s, "play", "Y37")
    assert step(s) == "card_pick"  # York holds no more Events: the window closed
    act(s, "fire", "Y1:york")
    while RULES.active(s) != ["York"]:
        act(s, "done")
    rng.rig(s, [3, 4])
    act(s, "done")  # York's Flight: the Missile Strike follows
    assert s["battle"]["strike"]["hits"]["Lancaster"] == side_hits(s, s["battle"], ["york"], "missile") + 7


# ----- Held Events upon the Death checks (4.4.3) -------------------------------------------------------
def death_ready(s: State, side: str, lord: str, locale: str) -> dict[str, Any]:
    foe = [lid for lid in sv.on_map(s, "York" if side == "Lancaster" else "Lancaster")][:1]
    b = bare_battle(s, locale, "York" if side == "Lancaster" else "Lancaster",
                    {side: [lord], ("York" if side == "Lancaster" else "Lancaster"): foe})
    b["lords"][lord]["routed"] = True
    return b


@pytest.mark.parametrize(("card", "lord"), [("Y3", "york"), ("Y9", "march"), ("L3", "somerset_1")])
def test_y3_y9_l3_escape_ship_event_exile_instead_of_death_4_4_3(card: str, lord: str) -> None:
    """Y3, Y9 and L3 Escape Ship upon the Death checks: with a Route to a Friendly Port the
    Routed Lord goes into Exile (the Exile of 4.3.5: his side loses his printed Influence)
    instead of rolling (RULINGS R59 e)."""
    s = fresh()
    side = side_of(card)
    hold(s, card)
    place(s, lord, "Dover")
    death_ready(s, side, lord, "Dover")
    s["favour"]["Dover"] = side
    run_frames(s, {"step": "battle_event", "side": side, "window": "death"}, {"step": "death", "side": side})
    act(s, "play", card)
    assert card in s["aow"][side]["deck"]
    assert ("escape", lord) in options(s)
    inf, rolls = s["influence"], s["rolls"]
    penalty = sv.unpaid_disband_penalty(s, [lord])  # printed Influence, +1 per Vassal
    act(s, "escape", lord)
    assert s["lords"][lord]["exile"] and s["rolls"] == rolls
    assert s["influence"] == inf + (penalty if side == "Lancaster" else -penalty)


def test_l36_talbot_to_the_rescue_event_disband_instead_of_death_4_4_3() -> None:
    s = fresh("iii-my-kingdom-for-a-horse")
    hold(s, "L36")
    death_ready(s, "Lancaster", "oxford", "London")
    run_frames(s, {"step": "battle_event", "side": "Lancaster", "window": "death"}, {"step": "death", "side": "Lancaster"})
    act(s, "play", "L36")
    rolls = s["rolls"]
    act(s, "talbot", "oxford")
    assert s["lords"]["oxford"]["where"] == Where.CALENDAR and s["rolls"] == rolls


def test_l16_warden_of_the_marches_event_to_a_northern_stronghold_4_4_3() -> None:
    s = fresh()
    hold(s, "L16")
    place(s, "northumberland_l", "Newcastle")
    s["favour"].update({"Newcastle": "York", "Bamburgh": "Lancaster"})
    death_ready(s, "Lancaster", "northumberland_l", "Newcastle")
    run_frames(s, {"step": "battle_event", "side": "Lancaster", "window": "death"}, {"step": "death", "side": "Lancaster"})
    act(s, "play", "L16")
    act(s, "warden", "northumberland_l:Bamburgh")
    d = s["lords"]["northumberland_l"]
    assert d["where"] == Where.MAP and d["locale"] == "Bamburgh" and "northumberland_l" not in s["battle"]["lords"]


def test_vassals_on_mats_kept_in_order() -> None:
    s = fresh()
    add_vassal(s, "york", "stanley")
    assert s["vassals"]["stanley"]["where"] == VassalWhere.MAT


# ----- the reaction windows' pause (RULINGS R50) ------------------------------------------------------
def _array_window(quick: bool, held: list[str]) -> State:
    s = setup_state(3, "ia-henry-vi", {"quick_reactions_york": quick})
    s["stack"], s["box"], s["first_turn"] = [], 2, False
    s["special_rules"].remove("capture_of_the_king")
    place(s, "somerset_1", "Guildford")
    for cid in held:
        hold(s, cid)
    approach(s, "London", ["york"])
    past_windows(s)
    act(s, "fight", "henry_vi")
    return s


def test_reaction_window_safe_default_waits_whenever_a_card_could_be_held_rulings_r50() -> None:
    """Safe default: York holds an Event (Y12, no Battle use) and could hold a Battle Event, so
    the window waits for York, offers only Pass, and Pass changes nothing; Lancaster, who holds
    no Event, is not asked; the prompt Lancaster sees does not depend on what York holds."""
    s = _array_window(False, ["Y12"])
    assert step(s) == "battle_event" and RULES.active(s) == ["York"] and options(s) == [("pass", None)]
    other = _array_window(False, ["Y19"])
    assert RULES.view(s, "Lancaster")["prompt"] == RULES.view(other, "Lancaster")["prompt"]
    before = {k: s[k] for k in ("aow", "lords", "influence", "favour")}
    import copy
    before = copy.deepcopy(before)
    act(s, "pass")
    assert {k: s[k] for k in before} == before and step(s) == "flee"


def test_reaction_window_quick_option_asks_only_the_holder_rulings_r50() -> None:
    """With quick_reactions_york the window waits only when York holds a card it may play now."""
    s = _array_window(True, ["Y12"])
    assert step(s) == "flee"
    s = _array_window(True, ["Y19"])
    assert step(s) == "battle_event" and options(s) == [("play", "Y19"), ("pass", None)]
    act(s, "play", "Y19")
    assert s["battle"]["events"] == ["Y19"] and "Y19" in s["aow"]["York"]["deck"]


def test_death_window_only_at_its_moment_rulings_r50() -> None:
    """The Death-check window waits only while the side has Routed Lords to check."""
    s = fresh("iii-my-kingdom-for-a-horse")
    hold(s, "L36")
    b = bare_battle(s, "London", "York", {"York": ["norfolk"], "Lancaster": ["oxford"]})
    run_frames(s, {"step": "battle_event", "side": "Lancaster", "window": "death"})
    assert s["stack"] == []  # nobody Routed: no window
    b["lords"]["oxford"]["routed"] = True
    run_frames(s, {"step": "battle_event", "side": "Lancaster", "window": "death"})
    assert RULES.active(s) == ["Lancaster"]


def test_queen_regent_not_in_iiy_rulings_r56() -> None:
    """IIY lists its special rules and Queen Regent is not among them (6.3): no +3 with
    Margaret at London in that War."""
    from roses.games.plantagenet.setup import war_data
    assert "queen_regent" not in war_data()["IIY"]["special_rules"]
    s = fresh("ii-warwicks-rebellion")
    place(s, "margaret", "London")
    assert sv.tides_of_war(s)["Lancaster"].get("Queen Regent") == 3  # Scenario II itself
    s["special_rules"] = list(war_data()["IIY"]["special_rules"])
    assert "Queen Regent" not in sv.tides_of_war(s)["Lancaster"]


@pytest.mark.parametrize("card", ["Y11", "L11"])
def test_y11_l11_blocked_ford_event_no_exile_at_this_approach_4_3_5(card: str) -> None:
    """Y11 and L11 Blocked Ford are played at the Approach (the Defender's window, then the
    Attacker's): the Lords there may only fight. Passed, the Exile choice stays."""
    side = side_of(card)
    for play in (True, False):
        s = fresh()
        hold(s, card)
        approach(s, "London", ["york"])
        assert step(s) == "react" and RULES.active(s) == [side] and ("play", card) in options(s)
        act(s, "play" if play else "pass", card if play else None)
        assert step(s) == "approach" and RULES.active(s) == ["Lancaster"]
        assert (("exile", "henry_vi") in options(s)) is not play
        assert (card in s["aow"][side]["deck"]) is play and (card in s["aow"][side]["held"]) is not play


def test_y3_musterd_soldiers_troops_go_after_the_battle_and_a_lord_left_without_troops_disbands_1_6() -> None:
    """Y3 Muster'd my soldiers adds Troops for one Battle only (4.4.4); a Lord whose own Troops
    were all lost keeps none of them after it and Disbands (1.6)."""
    s = fresh()
    capability(s, "york", "Y3")
    b = bare_battle(s, "Ely", "Lancaster", {"Lancaster": ["somerset_1"], "York": ["york"]})
    assert b["temp"]["york"] == {"men_at_arms": 2, "longbowmen": 1}
    set_troops(s, "york", men_at_arms=2, longbowmen=1)  # only the Battle's Troops are left
    battle.remove_battle_troops(s, b)
    assert s["lords"]["york"]["where"] == Where.CALENDAR and b["temp"] == {}


def test_hidden_mats_shown_to_the_enemy_in_battle_only_1_5_3() -> None:
    """Hidden Mats (1.5.3): the other side sees a mat, and its Capabilities stop being secret,
    only while its Lord is in a Battle; the other Lords' mats stay hidden."""
    s = setup_state(3, "ia-henry-vi", {"hidden_mats": True})
    s["stack"], s["box"], s["first_turn"] = [], 2, False
    s["special_rules"].remove("capture_of_the_king")
    capability(s, "york", "Y9")
    assert RULES.view(s, "Lancaster")["lords"]["york"]["mat"] == "hidden" and '"Y9"' in RULES.secrets(s, "Lancaster")
    place(s, "somerset_1", "Guildford")
    approach(s, "London", ["york"])
    past_windows(s)
    act(s, "fight", "henry_vi")
    seen = RULES.view(s, "Lancaster")["lords"]
    assert seen["york"]["mat"]["capabilities"] == ["Y9"] and '"Y9"' not in RULES.secrets(s, "Lancaster")
    assert seen["march"]["mat"] == "hidden"  # not in this Battle
    assert RULES.view(s, "York")["lords"]["somerset_1"]["mat"] == "hidden"
    assert isinstance(RULES.view(s, "York")["lords"]["henry_vi"]["mat"], dict)


def test_l16_warden_of_the_marches_never_brings_warwick_to_margaret_6_0_ii() -> None:
    """L16 Warden of the Marches under Shaky Allies (6.0 II): Warwick is not sent to the
    Stronghold of the North where Margaret is (RULINGS R87); to another one he may go (4.4.3)."""
    s = fresh("ii-warwicks-rebellion")
    hold(s, "L16")
    place(s, "warwick_l", "Newcastle")
    place(s, "margaret", "Bamburgh")
    s["favour"].update({"Newcastle": "York", "Bamburgh": "Lancaster", "Carlisle": "Lancaster"})
    death_ready(s, "Lancaster", "warwick_l", "Newcastle")
    run_frames(s, {"step": "battle_event", "side": "Lancaster", "window": "death"}, {"step": "death", "side": "Lancaster"})
    act(s, "play", "L16")
    assert ("warden", "warwick_l:Carlisle") in options(s) and ("warden", "warwick_l:Bamburgh") not in options(s)
