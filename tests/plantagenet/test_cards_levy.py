"""Arts of War cards whose halves act in the Levy (3.1.3 Now and This Levy Events, 3.4 Muster
actions changed by Events and Capabilities, 1.5.2 ratings, 4.8.1 Tides of War bonuses).

Each test names the card half and the section it changes; rigged dice where a roll decides."""

from __future__ import annotations

from typing import Any

import pytest

from roses.engine import rng
from roses.engine.errors import IllegalAction
from roses.games.plantagenet import RULES, arts
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.records import VassalWhere, Where
from roses.games.plantagenet.setup import setup_state

from .helpers import act, add_vassal, options, place, run_frames, set_troops, to_calendar

State = dict[str, Any]


def fresh(scenario: str = "ia-henry-vi", box: int = 2) -> State:
    """The scenario as set up (6.0), in a later Levy (``box``), no stack."""
    s = setup_state(3, scenario)
    s["stack"] = []
    s["box"] = box
    s["first_turn"] = False
    return s


def take(s: State, cid: str) -> None:
    """Take a card out of its deck (to hand it to a zone by hand)."""
    side = "York" if cid[0] == "Y" else "Lancaster"
    s["aow"][side]["deck"].remove(cid)


def implement(s: State, cid: str) -> State:
    """The card is drawn as an Event (3.1.3) and implemented; its decisions wait on the stack."""
    side = "York" if cid[0] == "Y" else "Lancaster"
    take(s, cid)
    s["aow"][side]["drawn"].append(cid)
    s["stack"] = []
    arts.implement_event(s, side, cid)
    RULES.steps.settle(s)
    return s


def in_effect(s: State, cid: str) -> None:
    side = "York" if cid[0] == "Y" else "Lancaster"
    take(s, cid)
    s["aow"][side]["in_effect"].append(cid)


def hold(s: State, cid: str) -> None:
    side = "York" if cid[0] == "Y" else "Lancaster"
    take(s, cid)
    s["aow"][side]["held"].append(cid)


def capability(s: State, lord: str, cid: str) -> None:
    side = "York" if cid[0] == "Y" else "Lancaster"
    take(s, cid)
    s["aow"][side]["drawn"].append(cid)
    arts.deploy_capability(s, lord, cid)


def muster(s: State, side: str, lord: str) -> State:
    run_frames(s, {"step": "muster", "side": side})
    act(s, "lord", lord)
    return s


def ok(s: State) -> None:
    assert RULES.check_invariants(s) == []


# ----- Now Events (3.1.3) -----------------------------------------------------------------------
def test_y10_tax_collectors_event_taxes_twice_the_coin_4_6_3() -> None:
    s = fresh()
    implement(s, "Y10")
    york_coin = s["lords"]["york"]["mat"]["assets"]["coin"]
    assert ("tax", "york>Ely") in options(s)  # his Seat: no check (4.6.3)
    act(s, "tax", "york>Ely")
    assert s["lords"]["york"]["mat"]["assets"]["coin"] == york_coin + 4 and s["exhaustion"]["Ely"] == "depleted"
    assert not any(a[1] and str(a[1]).startswith("york>") for a in options(s))  # once per Lord
    act(s, "done")
    assert s["stack"] == [] or s["stack"][-1]["step"] != "card_pick"
    ok(s)


def test_y15_london_for_york_event_blocks_lancastrian_parley_1_3_1() -> None:
    s = fresh()
    s["favour"]["London"] = "York"
    implement(s, "Y15")
    assert s["london_for_york"]
    place(s, "somerset_1", "St Albans")
    s["favour"]["St Albans"] = "Lancaster"
    assert "London" not in sv.parley_targets(s, "somerset_1")
    assert "London" in sv.parley_targets(s, "somerset_1", london=True)  # L17/L18 may
    sv.set_favour(s, "London", None)  # by Pillage or an Event: the second marker goes too
    assert not s["london_for_york"]


def test_y15_london_for_york_lancastrian_at_london_is_offered_no_parley_there_3_4() -> None:
    """3.4 REQUIREMENTS: a Lord at an Enemy Stronghold may only Parley there; with Y15 London for
    York in force a Lancastrian at London may not even do that, so no Parley of London is offered
    (neither plain nor free) and every offered action is accepted by the rules."""
    s = fresh()
    s["favour"]["London"] = "York"
    s["london_for_york"] = True
    place(s, "henry_vi", "London")
    muster(s, "Lancaster", "henry_vi")
    opts = options(s)
    assert not any(v in ("parley", "free_parley") and str(a).startswith("London") for v, a in opts), opts
    assert opts == [("done", None)]
    with pytest.raises(IllegalAction):
        act(s, "parley", "London")
    s["london_for_york"] = False  # without Y15 the Parley there is offered again
    assert ("parley", "London") in options(s)
    ok(s)


def test_y15_london_for_york_event_no_effect_unless_yorkist_1_3_1() -> None:
    s = fresh()
    implement(s, "Y15")
    assert not s["london_for_york"] and "Y15" in s["aow"]["York"]["deck"]


def test_y17_she_wolf_event_shifts_yorkist_vassals_right_2_2_3() -> None:
    """Y17 She-Wolf of France (Now): every Yorkist Vassal's Calendar marker shifts one box right
    (2.2.3); the Lancastrian ones stay."""
    s = fresh()
    add_vassal(s, "york", "stanley", box=4)
    add_vassal(s, "henry_vi", "essex", box=4)
    implement(s, "Y17")
    assert s["vassals"]["stanley"]["box"] == 5 and s["vassals"]["essex"]["box"] == 4


def test_y21_sir_richard_leigh_event_london_1_3_1() -> None:
    s = fresh()
    assert s["favour"]["London"] == "Lancaster"
    implement(s, "Y21")
    assert "London" not in s["favour"]
    implement(s, "Y21")  # a Now Event returns to its deck (3.1.3): drawn again
    assert s["favour"]["London"] == "York"


def test_y23_charles_the_bold_event_coin_and_provender_3_1_3() -> None:
    s = fresh("ii-warwicks-rebellion")
    before = {lid: dict(s["lords"][lid]["mat"]["assets"]) for lid in sv.on_map(s, "York")}
    implement(s, "Y23")
    for lid, a in before.items():
        now = s["lords"][lid]["mat"]["assets"]
        assert (now["coin"], now["provender"]) == (a["coin"] + 1, a["provender"] + 1)


def test_l30_french_war_loans_event_coin_and_provender_3_1_3() -> None:
    s = fresh("ii-warwicks-rebellion")
    before = s["lords"]["warwick_l"]["mat"]["assets"]["coin"]
    implement(s, "L30")
    assert s["lords"]["warwick_l"]["mat"]["assets"]["coin"] == before + 1


def test_y26_dubious_clarence_event_disbands_clarence_on_success_3_2_4() -> None:
    s = fresh("ii-warwicks-rebellion")
    implement(s, "Y26")
    assert options(s) == [("check", 0), ("check", 1), ("check", 3), ("decline", None)]
    inf = s["influence"]
    rng.rig(s, [3])
    act(s, "check", 0)  # Edward IV Influence 5
    assert s["lords"]["clarence"]["where"] == Where.CALENDAR and s["influence"] == inf - 1


def test_y26_dubious_clarence_event_failure_keeps_clarence() -> None:
    s = fresh("ii-warwicks-rebellion")
    implement(s, "Y26")
    rng.rig(s, [6])
    act(s, "check", 0)
    assert s["lords"]["clarence"]["where"] == Where.MAP


def test_y27_yorkist_north_event_influence_per_stronghold_and_lord_3_1_3() -> None:
    s = fresh("ii-warwicks-rebellion")
    s["favour"].update({"Newcastle": "York", "Carlisle": "York"})
    place(s, "pembroke", "Newcastle")
    inf = s["influence"]
    implement(s, "Y27")
    north_york = sum(1 for loc in ("Newcastle", "Scarborough", "Carlisle", "Bamburgh", "Appleby", "Hexham")
                     if s["favour"].get(loc) == "York")
    assert s["influence"] == inf + north_york + 1


def test_y31_earl_rivers_event_up_to_two_militia_each_1_6() -> None:
    s = fresh("ii-warwicks-rebellion")
    implement(s, "Y31")
    m = s["lords"]["edward_iv"]["mat"]["troops"]["militia"]
    act(s, "add", "edward_iv:2")
    assert s["lords"]["edward_iv"]["mat"]["troops"]["militia"] == m + 2
    assert ("add", "edward_iv:1") not in options(s)
    act(s, "done")
    ok(s)


def test_l14_scots_event_men_at_arms_and_militia_1_6() -> None:
    s = fresh()
    implement(s, "L14")
    t = dict(s["lords"]["henry_vi"]["mat"]["troops"])
    act(s, "add", "henry_vi:both")
    now = s["lords"]["henry_vi"]["mat"]["troops"]
    assert (now["men_at_arms"], now["militia"]) == (t["men_at_arms"] + 1, t["militia"] + 1)
    act(s, "done")


def test_l15_henry_pressures_parliament_event_one_point_per_yorkist_vassal_1_4_1() -> None:
    s = fresh()
    add_vassal(s, "york", "stanley")
    add_vassal(s, "march", "dudley")
    inf = s["influence"]
    implement(s, "L15")
    assert s["influence"] == inf - 2


def test_l19_henrys_proclamation_event_vassals_to_this_turn_3_2_3() -> None:
    s = fresh(box=3)
    add_vassal(s, "york", "stanley", box=7)
    implement(s, "L19")
    assert s["vassals"]["stanley"]["box"] == 3


def test_l22_french_troops_event_lord_at_a_port_1_6() -> None:
    s = fresh()
    place(s, "somerset_1", "Dover")
    implement(s, "L22")
    assert ("add", "somerset_1:2:2") in options(s) and not any("henry_vi" in str(a) for _, a in options(s))
    maa = s["lords"]["somerset_1"]["mat"]["troops"]["men_at_arms"]
    act(s, "add", "somerset_1:2:1")
    assert s["lords"]["somerset_1"]["mat"]["troops"]["men_at_arms"] == maa + 2


@pytest.mark.parametrize("card", ["L23", "L24"])
def test_l23_l24_warwicks_propaganda_event_pay_or_lose_favour_1_3_1(card: str) -> None:
    s = fresh("ii-warwicks-rebellion")
    implement(s, card)
    york = [a for _, a in options(s)]
    assert york and all(s["favour"][x] == "York" for x in york)
    for loc in york[:3]:
        act(s, "name", loc)
    assert RULES.active(s) == ["York"]
    inf = s["influence"]
    act(s, "pay", york[0])
    act(s, "remove", york[1])
    act(s, "remove", york[2])
    assert s["influence"] == inf - 2 and s["favour"][york[0]] == "York"
    assert york[1] not in s["favour"] and york[2] not in s["favour"]


def test_l25_welsh_rebellion_event_troops_of_lords_in_wales_1_6() -> None:
    s = fresh("ii-warwicks-rebellion")
    assert s["lords"]["pembroke"]["locale"] == "Pembroke"
    implement(s, "L25")
    t = sum(s["lords"]["pembroke"]["mat"]["troops"].values())
    act(s, "remove", "pembroke:militia")
    act(s, "remove", "pembroke:longbowmen")
    assert sum(s["lords"]["pembroke"]["mat"]["troops"].values()) == t - 2 and s["stack"] == []


def test_l25_welsh_rebellion_event_favour_when_no_yorkist_lord_in_wales() -> None:
    s = fresh("ii-warwicks-rebellion")
    place(s, "pembroke", "Bristol")
    s["favour"].update({"Cardiff": "York", "Hereford": "York"})
    implement(s, "L25")
    wales = [a for _, a in options(s)]
    act(s, "remove", wales[0])
    act(s, "remove", wales[1])
    assert s["stack"] == [] and all(x not in s["favour"] for x in wales[:2])


def test_l26_henry_released_event_five_points_if_london_lancastrian_1_4_1() -> None:
    """L26 Henry Released (Now): 5 Influence points to the Lancastrians if London is Lancastrian
    (the net track moves 5 their way, 1.4.1), none otherwise."""
    s = fresh("ii-warwicks-rebellion")
    s["favour"]["London"] = "Lancaster"
    inf = s["influence"]
    implement(s, "L26")
    assert s["influence"] == inf - 5
    s = fresh("ii-warwicks-rebellion")
    s["favour"]["London"] = "York"
    inf = s["influence"]
    implement(s, "L26")
    assert s["influence"] == inf and "L26" in s["aow"]["Lancaster"]["deck"]


def test_l27_aragne_event_vassals_checked_3_2_4() -> None:
    """L27 L'Universelle Aragne (Now): two named Yorkist Vassals; each one's Lord checks
    Influence and the Vassal Disbands on a failure (3.2.4; RULINGS R54)."""
    s = fresh("ii-warwicks-rebellion")
    add_vassal(s, "edward_iv", "stanley")
    add_vassal(s, "edward_iv", "essex")
    implement(s, "L27")
    act(s, "name", "essex@edward_iv")
    act(s, "name", "stanley@edward_iv")
    assert RULES.active(s) == ["York"]
    rng.rig(s, [6])
    act(s, "check", 0)  # Essex: fails, Disbands
    rng.rig(s, [1])
    act(s, "check", 0)  # Stanley stays
    assert s["vassals"]["essex"]["where"] == VassalWhere.CALENDAR
    assert s["vassals"]["stanley"]["where"] == VassalWhere.MAT
    ok(s)


def test_l29_wilful_disobedience_event_favour_near_lancastrians_only_1_3_1() -> None:
    """L29 To wilful disobedience (Now): Yorkist Favour goes from two Strongholds at or next to
    a Lancastrian Lord and not at or next to a Yorkist one (1.3.1)."""
    s = fresh("ii-warwicks-rebellion")
    for lid in sv.on_map(s, "York"):
        place(s, lid, "Calais")
    place(s, "warwick_l", "Coventry")
    s["favour"].update({"Lichfield": "York", "Peterborough": "York"})
    implement(s, "L29")
    targets = [a for _, a in options(s)]
    assert "Lichfield" in targets and "Peterborough" not in targets  # not next to a Lancastrian
    assert all(s["favour"][t] == "York" for t in targets)
    act(s, "remove", "Lichfield")
    assert "Lichfield" not in s["favour"]


def test_l31_robins_rebellion_event_three_markers_in_the_north_1_3_1() -> None:
    s = fresh("ii-warwicks-rebellion")
    s["favour"]["Newcastle"] = "York"
    s["favour"].pop("Hexham", None)
    implement(s, "L31")
    act(s, "remove", "Newcastle")
    act(s, "place", "Newcastle")
    act(s, "place", "Hexham")
    assert s["favour"]["Newcastle"] == "Lancaster" and s["favour"]["Hexham"] == "Lancaster" and s["stack"] == []


def test_l32_tudor_banners_event_neighbours_lancastrian_1_3_1() -> None:
    s = fresh("iii-my-kingdom-for-a-horse")
    place(s, "henry_tudor", "Harlech")
    s["favour"]["Harlech"] = "Lancaster"
    from roses.games.plantagenet.components import load
    near = [n for n in load().adjacency["Harlech"] if load().locales[n]["kind"] == "stronghold"]
    place(s, "norfolk", near[0])
    s["favour"][near[0]] = "York"
    implement(s, "L32")
    assert s["favour"][near[0]] == "York"  # a Yorkist Lord is there
    assert all(s["favour"][n] == "Lancaster" for n in near[1:])


# ----- This Levy Events (3.1.3) and Levy actions (3.4) ------------------------------------------
def test_y4_jack_cade_event_two_free_sure_parleys_3_4_1() -> None:
    s = fresh()
    for loc in ("Pembroke", "Harlech", "Cardiff", "Hereford", "Shrewsbury", "Ludlow"):
        s["favour"][loc] = "York"
    in_effect(s, "Y4")
    muster(s, "York", "march")  # at Ludlow, in Wales
    assert s["stack"][-1]["free"] == {"cade": 2}
    target = next(a for v, a in options(s) if v == "cade_parley")
    inf, rolls = s["influence"], s["rolls"]
    act(s, "cade_parley", target)
    assert s["favour"][target] == "York" and s["influence"] == inf and s["stack"][-1]["left"] == 2
    assert s["rolls"] == rolls  # it succeeds: no die


def test_y7_yorkists_block_parliament_event_no_lancastrian_vassal_levy_3_4_3() -> None:
    s = fresh()
    s["favour"]["St Albans"] = "Lancaster"
    muster(s, "Lancaster", "henry_vi")
    assert any(v == "levy_vassal" for v, _ in options(s))
    s = fresh()
    s["favour"]["St Albans"] = "Lancaster"
    in_effect(s, "Y7")
    muster(s, "Lancaster", "henry_vi")
    assert not any(v == "levy_vassal" for v, _ in options(s))


def test_y14_richard_of_york_event_plus_one_influence_for_parley_1_5_2() -> None:
    s = fresh()
    assert sv.modified_rating(s, "york", "influence", parley=True) == 5
    in_effect(s, "Y14")
    assert sv.modified_rating(s, "york", "influence", parley=True) == 6
    assert sv.modified_rating(s, "york", "influence") == 5  # Parley only


def test_y16_the_commons_event_adds_militia_to_levy_troops_3_4_4() -> None:
    s = fresh()
    in_effect(s, "Y16")
    muster(s, "York", "york")
    assert ("levy_troops_by", "commons=2") in options(s)
    m = s["lords"]["york"]["mat"]["troops"]["militia"]
    act(s, "levy_troops_by", "commons=2")
    assert s["lords"]["york"]["mat"]["troops"]["militia"] == m + 1 + 2  # City: 1 Militia, +2


def test_y18_succession_event_one_sure_cheaper_parley_per_lord_3_4_1() -> None:
    s = fresh()
    in_effect(s, "Y18")
    muster(s, "York", "york")
    inf, rolls = s["influence"], s["rolls"]
    act(s, "parley_sure", "Peterborough")  # 1 Way: 2 points, one less
    assert s["influence"] == inf - 1 and s["favour"]["Peterborough"] == "York" and s["rolls"] == rolls
    assert not any(v == "parley_sure" for v, _ in options(s))  # once per Lord


def test_l18_parliament_votes_event_sure_parley_even_london_for_york_3_4_1() -> None:
    s = fresh()
    s["favour"]["London"] = "York"
    s["london_for_york"] = True
    place(s, "henry_vi", "St Albans")
    s["favour"]["St Albans"] = "Lancaster"
    in_effect(s, "L18")
    muster(s, "Lancaster", "henry_vi")
    assert ("parley", "London") not in options(s) and ("parley_sure", "London") in options(s)
    rolls = s["rolls"]
    act(s, "parley_sure", "London")
    assert "London" not in s["favour"] and not s["london_for_york"] and s["rolls"] == rolls


def test_y20_yorkist_parade_held_event_plus_two_influence_this_levy_1_5_2() -> None:
    s = fresh()
    s["favour"]["London"] = "York"
    place(s, "york", "London")
    hold(s, "Y20")
    s["stack"] = [{"step": "muster", "side": "York"}, {"step": "end_levy"}][::-1]
    RULES.steps.settle(s)
    assert ("event", "Y20") in options(s)
    act(s, "event", "Y20")
    assert "Y20" in s["aow"]["York"]["in_effect"]
    assert sv.modified_rating(s, "york", "influence") == 7
    act(s, "end")
    assert "Y20" in s["aow"]["York"]["deck"]  # ends with the Levy


def test_y22_loyalty_and_trust_event_plus_three_lordship_1_5_2() -> None:
    s = fresh()
    implement(s, "Y22")
    act(s, "lord", "march")
    assert sv.modified_rating(s, "march", "lordship") == 5 and sv.modified_rating(s, "york", "lordship") == 3


def test_y24_sun_in_splendour_held_event_musters_edward_iv_3_4_2() -> None:
    s = fresh("ii-warwicks-rebellion")
    to_calendar(s, "edward_iv", 6, exile=True)
    hold(s, "Y24")
    run_frames(s, {"step": "muster", "side": "York"}, {"step": "end_levy"})
    act(s, "event", "Y24")
    assert ("muster", "Calais") not in options(s) or s["favour"].get("Calais") == "York"
    act(s, "muster", "London")
    assert s["lords"]["edward_iv"]["where"] == Where.MAP and s["lords"]["edward_iv"]["locale"] == "London"
    assert ("lord", "edward_iv") in options(s)  # no Lord had acted: he takes part (RULINGS R51)
    ok(s)


def test_y28_gloucester_as_heir_event_three_parleys_without_lordship_3_4_1() -> None:
    s = fresh("ii-warwicks-rebellion", box=4)
    place(s, "gloucester_1", "Gloucester")
    s["favour"]["Gloucester"] = "York"
    in_effect(s, "Y28")
    muster(s, "York", "gloucester_1")
    assert s["stack"][-1]["free"] == {"parley": 3}
    t = next(a for v, a in options(s) if v == "free_parley")
    rng.rig(s, [1])
    act(s, "free_parley", t)
    assert s["stack"][-1]["left"] == 2 and s["stack"][-1]["free"]["parley"] == 2  # Lordship 2 kept


def test_l17_my_crown_is_in_my_heart_event_two_parleys_for_henry_3_4_1() -> None:
    """L17 My crown is in my heart: Henry VI may Parley twice more without spending Lordship; the
    Influence check still decides (rigged die: a success, then a failure)."""
    s = fresh()
    in_effect(s, "L17")
    muster(s, "Lancaster", "henry_vi")
    assert s["stack"][-1]["free"] == {"parley": 2}
    left = s["stack"][-1]["left"]
    rolls = s["rolls"]
    rng.rig(s, [1])
    act(s, "free_parley", "Guildford")
    assert s["favour"].get("Guildford") == "Lancaster" and s["rolls"] == rolls + 1
    assert s["stack"][-1]["left"] == left and s["stack"][-1]["free"] == {"parley": 1}
    target = next(a for v, a in options(s) if v == "free_parley" and "+" not in a)
    was = s["favour"].get(target)
    rng.rig(s, [6])
    act(s, "free_parley", target)
    assert s["favour"].get(target) == was and s["stack"][-1]["left"] == left
    assert not any(v == "free_parley" for v, _ in options(s))
    act(s, "done")
    muster_frame = s["stack"][-1]
    assert muster_frame["lord"] is None


def test_y32_the_kings_name_event_cancels_lancastrian_levy_action_3_4() -> None:
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    in_effect(s, "Y32")
    place(s, "henry_tudor", "Oxford")
    s["favour"]["Oxford"] = "Lancaster"
    muster(s, "Lancaster", "henry_tudor")
    before = dict(s["lords"]["henry_tudor"]["mat"]["troops"])
    act(s, "levy_troops")
    assert RULES.active(s) == ["York"] and ("cancel", None) in options(s)
    inf = s["influence"]
    act(s, "cancel")
    assert s["lords"]["henry_tudor"]["mat"]["troops"] == before and "Oxford" not in s["exhaustion"]
    assert s["influence"] == inf - 1  # York paid 1
    assert RULES.active(s) == ["Lancaster"] and s["stack"][-1]["left"] == 1  # Lordship stays spent


def test_y32_the_kings_name_event_declined_changes_nothing() -> None:
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    in_effect(s, "Y32")
    place(s, "henry_tudor", "Oxford")
    s["favour"]["Oxford"] = "Lancaster"
    muster(s, "Lancaster", "henry_tudor")
    act(s, "levy_troops")
    after = (dict(s["lords"]["henry_tudor"]["mat"]["troops"]), dict(s["exhaustion"]), s["influence"])
    act(s, "pass")
    assert (dict(s["lords"]["henry_tudor"]["mat"]["troops"]), dict(s["exhaustion"]), s["influence"]) == after


def test_y33_edward_v_event_plus_three_lordship_to_gloucester_1_5_2() -> None:
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    in_effect(s, "Y33")
    assert sv.modified_rating(s, "gloucester_2", "lordship") == 6
    assert sv.modified_rating(s, "norfolk", "lordship") == 3


def test_y34_an_honest_tale_event_lancastrian_parley_costs_one_more_3_4_1() -> None:
    """Y34 An honest tale speeds best: every Lancastrian Parley costs 1 more Influence point
    (3.4.1, 1.4.2)."""
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    in_effect(s, "Y34")
    place(s, "henry_tudor", "Oxford")
    s["favour"]["Oxford"] = "Lancaster"
    inf = s["influence"]
    rng.rig(s, [1])
    sv.parley(s, "henry_tudor", "Abingdon" if "Abingdon" in sv.parley_targets(s, "henry_tudor")
              else next(iter(sv.parley_targets(s, "henry_tudor"))))
    assert s["influence"] == inf + 3  # Lancaster pays 1 + 1 Way + 1 (the net moves to York)


def test_y35_privy_council_event_plus_one_influence_1_5_2() -> None:
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    base = sv.modified_rating(s, "norfolk", "influence")
    in_effect(s, "Y35")
    assert sv.modified_rating(s, "norfolk", "influence") == base + 1


def test_l4_be_sent_for_event_exiles_from_any_box_3_3_1() -> None:
    s = fresh("ii-warwicks-rebellion")
    run_frames(s, {"step": "exiles", "side": "Lancaster"})
    assert s["stack"] == []  # Margaret and the others are in box 9
    s["aow"]["Lancaster"]["in_game"].append("L4")
    s["aow"]["Lancaster"]["deck"].append("L4")
    in_effect(s, "L4")
    run_frames(s, {"step": "exiles", "side": "Lancaster"})
    assert ("muster_exile", "margaret@France") in options(s)


def test_l9_rising_wages_event_yorkist_levy_troops_cost_a_coin_3_4_4() -> None:
    s = fresh()
    in_effect(s, "L9")
    muster(s, "York", "york")
    coin = s["lords"]["york"]["mat"]["assets"]["coin"]
    assert ("levy_troops", None) in options(s)
    act(s, "levy_troops")
    assert s["lords"]["york"]["mat"]["assets"]["coin"] == coin - 1
    s["lords"]["york"]["mat"]["assets"]["coin"] = 0
    assert not any(v.startswith("levy_troops") for v, _ in options(s))


def test_l34_buckinghams_plot_event_yorkist_vassal_levy_costs_two_more_3_4_3() -> None:
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    s["favour"]["Leicester"] = "York"
    place(s, "norfolk", "Leicester")
    in_effect(s, "L34")
    muster(s, "York", "norfolk")
    inf = s["influence"]
    rng.rig(s, [6])
    act(s, "levy_vassal", "dudley")
    assert s["influence"] == inf - 3


def test_l35_margaret_beaufort_event_henry_tudor_levies_any_vassal_3_4_3() -> None:
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    in_effect(s, "L35")
    muster(s, "Lancaster", "henry_tudor")  # in France
    vassals = {a for v, a in options(s) if v == "levy_vassal"}
    assert "stanley" in vassals and "essex" in vassals


def test_l37_earl_of_richmond_event_vassal_levy_sure_3_4_3() -> None:
    """L37 The Earl of Richmond: every Lancastrian Vassal Levy succeeds this Levy (3.4.3)."""
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    in_effect(s, "L37")
    place(s, "oxford", "Leicester")
    s["favour"]["Leicester"] = "Lancaster"
    muster(s, "Lancaster", "oxford")
    assert ("levy_vassal", "dudley") in options(s) and ("levy_vassal", "dudley+1") not in options(s)
    rolls = s["rolls"]
    act(s, "levy_vassal", "dudley")
    assert s["vassals"]["dudley"]["where"] == VassalWhere.MAT and s["rolls"] == rolls


def test_y13_aspielles_held_event_shows_held_cards_privately_3_1_3() -> None:
    s = fresh()
    hold(s, "Y13")
    hold(s, "L20")
    run_frames(s, {"step": "muster", "side": "York"}, {"step": "end_levy"})
    act(s, "event", "Y13")
    mine = [e for e in s["log"] if isinstance(e, list) and e[0] == "York" and "Aspielles" in e[1]]
    assert mine and "L20" in mine[-1][1]
    assert all("L20" not in e for e in s["log"] if isinstance(e, str))


def test_l13_aspielles_held_event_inspects_a_hidden_mat_1_5_3() -> None:
    s = setup_state(3, "ia-henry-vi", {"hidden_mats": True})
    s["stack"], s["box"], s["first_turn"] = [], 2, False
    hold(s, "L13")
    run_frames(s, {"step": "muster", "side": "Lancaster"}, {"step": "end_levy"})
    act(s, "event", "L13")
    assert RULES.active(s) == ["Lancaster"] and ("lord", "york") in options(s)
    reveals = s.get("reveals", 0)
    act(s, "lord", "york")
    assert any(isinstance(e, list) and e[0] == "Lancaster" and "York's mat" in e[1] for e in s["log"])
    # The hidden mat is shown: a reveal, so that what Lancaster sees next may rightly depend on
    # it (roses.engine.swapcheck tells it from a leak by this count).
    assert s["reveals"] == reveals + 1


def _muster_after_the_last_lord(card: str, quick: bool = False) -> State:
    """Ia, a later Levy: Lancaster's Muster with no Lancastrian Lord on the map (none left to
    act) while Lancaster holds ``card`` as its one Held Event."""
    s = setup_state(3, "ia-henry-vi", {"quick_reactions_lancaster": True} if quick else None)
    s["stack"], s["box"], s["first_turn"] = [], 2, False
    for lid in ("henry_vi", "somerset_1"):
        to_calendar(s, lid, 9)
    hold(s, card)
    return run_frames(s, {"step": "muster", "side": "Lancaster"}, {"step": "end_levy"})


def test_muster_wait_looks_the_same_whatever_the_side_holds_3_4_r50_r51() -> None:
    """3.4 and RULINGS R50/R51: after the side's last Lord, its Muster stays open for the Held
    Events it may play there (L13 Aspielles); whether it waits may depend only on what the other
    side can know (it holds an Event, and Aspielles is not known elsewhere), not on which Event
    it holds: York sees the same wait, prompt and view with L13 or L20 in Lancaster's hand."""
    seen = []
    for card in ("L13", "L20"):  # Aspielles may be played in the Muster, Parliament's Truce not
        s = _muster_after_the_last_lord(card)
        assert RULES.active(s) == ["Lancaster"]
        seen.append((RULES.active(s), RULES.view(s, "York")))
        assert ("end", None) in options(s)
        assert (("event", card) in options(s)) == (card == "L13")
        act(s, "end")
        assert s["stack"] == [] and card in s["aow"]["Lancaster"]["held"]
    assert seen[0] == seen[1]


def test_muster_no_wait_without_held_events_or_with_quick_reactions_3_4_r50() -> None:
    """With no Held Event (public) the Muster ends after the last Lord; with the side's quick
    reactions chosen it waits only for a card it can play (RULINGS R50)."""
    s = setup_state(3, "ia-henry-vi")
    s["stack"], s["box"], s["first_turn"] = [], 2, False
    for lid in ("henry_vi", "somerset_1"):
        to_calendar(s, lid, 9)
    run_frames(s, {"step": "muster", "side": "Lancaster"}, {"step": "end_levy"})
    assert s["stack"] == []
    assert _muster_after_the_last_lord("L20", quick=True)["stack"] == []
    assert RULES.active(_muster_after_the_last_lord("L13", quick=True)) == ["Lancaster"]


# ----- Capabilities in the Levy and their ratings (1.5.2, 3.4) -----------------------------------
def test_y12_soldiers_of_fortune_capability_mercenaries_for_a_coin_3_4_4() -> None:
    s = fresh()
    capability(s, "york", "Y12")
    muster(s, "York", "york")
    coin = s["lords"]["york"]["mat"]["assets"]["coin"]
    act(s, "levy_troops_by", "merc=1")
    mat = s["lords"]["york"]["mat"]
    assert mat["troops"]["mercenaries"] == 2 and mat["assets"]["coin"] == coin - 1


def test_y16_beloved_warwick_capability_five_militia_3_4_4() -> None:
    s = fresh()
    place(s, "warwick_y", "Calais")
    s["favour"]["Calais"] = "York"
    capability(s, "warwick_y", "Y16")
    muster(s, "York", "warwick_y")
    m = s["lords"]["warwick_y"]["mat"]["troops"]["militia"]
    act(s, "levy_troops_by", "mode=militia5")
    assert s["lords"]["warwick_y"]["mat"]["troops"]["militia"] == m + 5 and s["exhaustion"]["Calais"] == "depleted"


def test_y17_alice_montagu_capability_vassals_serve_longer_3_4_3() -> None:
    s = fresh()
    place(s, "salisbury", "York")
    s["favour"]["York"] = "York"
    capability(s, "salisbury", "Y17")
    s["favour"]["Appleby"] = "York"
    place(s, "salisbury", "Appleby")
    muster(s, "York", "salisbury")
    rng.rig(s, [1])
    act(s, "levy_vassal", "westmorland")
    assert s["vassals"]["westmorland"]["box"] == 2 + 3 + 1


def test_y18_irishmen_capability_five_militia_in_ireland_3_4_4() -> None:
    s = fresh()
    place(s, "york", "Ireland")
    capability(s, "york", "Y18")
    muster(s, "York", "york")
    assert ("levy_troops_by", "mode=irish") in options(s)
    m = s["lords"]["york"]["mat"]["troops"]["militia"]
    act(s, "levy_troops_by", "mode=irish")
    assert s["lords"]["york"]["mat"]["troops"]["militia"] == m + 5 and "Ireland" not in s["exhaustion"]


@pytest.mark.parametrize("card,lord,scenario", [("Y31", "edward_iv", "ii-warwicks-rebellion"),
                                                 ("L9", "henry_vi", "ia-henry-vi")])
def test_woodvilles_quartermasters_capability_no_depletion_3_4_4(card: str, lord: str, scenario: str) -> None:
    """Y31 Woodvilles and L9 Quartermasters: the Lord's Levy Troops never Deplete nor Exhaust
    the Stronghold (3.4.4)."""
    s = fresh(scenario)
    place(s, lord, "London")
    s["favour"]["London"] = "York" if card[0] == "Y" else "Lancaster"
    capability(s, lord, card)
    muster(s, "York" if card[0] == "Y" else "Lancaster", lord)
    act(s, "levy_troops")
    act(s, "levy_troops")
    assert "London" not in s["exhaustion"]
    s = fresh(scenario)  # without the card the same two Levies Exhaust London
    place(s, lord, "London")
    s["favour"]["London"] = "York" if card[0] == "Y" else "Lancaster"
    muster(s, "York" if card[0] == "Y" else "Lancaster", lord)
    act(s, "levy_troops")
    act(s, "levy_troops")
    assert s["exhaustion"]["London"] == "exhausted"


def test_l10_chamberlains_capability_no_depletion_at_vassal_seat_3_4_4() -> None:
    s = fresh()
    place(s, "henry_vi", "St Albans")
    s["favour"]["St Albans"] = "Lancaster"
    add_vassal(s, "henry_vi", "essex")
    capability(s, "henry_vi", "L10")
    muster(s, "Lancaster", "henry_vi")
    act(s, "levy_troops")
    assert "St Albans" not in s["exhaustion"]


def test_l12_commission_of_array_capability_levy_troops_next_door_3_4_4() -> None:
    s = fresh()
    capability(s, "henry_vi", "L12")
    s["favour"]["St Albans"] = "Lancaster"
    muster(s, "Lancaster", "henry_vi")
    assert ("levy_troops_by", "at=St Albans") in options(s)
    act(s, "levy_troops_by", "at=St Albans")
    assert s["exhaustion"]["St Albans"] == "depleted" and "London" not in s["exhaustion"]


def test_l32_two_roses_capability_vassal_levy_sure_3_4_3() -> None:
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    place(s, "henry_tudor", "Leicester")
    s["favour"]["Leicester"] = "Lancaster"
    capability(s, "henry_tudor", "L32")
    muster(s, "Lancaster", "henry_tudor")
    assert ("levy_vassal", "dudley+1") not in options(s)
    rng.rig(s, [6])  # not rolled
    act(s, "levy_vassal", "dudley")
    assert s["vassals"]["dudley"]["where"] == VassalWhere.MAT and s["rigged"] == [6]


def test_l35_thomas_stanley_capability_free_levy_troops_once_3_4_4() -> None:
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    place(s, "henry_tudor", "Oxford")
    s["favour"]["Oxford"] = "Lancaster"
    capability(s, "henry_tudor", "L35")
    assert "thomas_stanley" in s["lords"]["henry_tudor"]["mat"]["special_vassals"]
    muster(s, "Lancaster", "henry_tudor")
    act(s, "free_troops", "here")
    assert s["stack"][-1]["left"] == 2 and not any(v == "free_troops" for v, _ in options(s))


def test_y24_hastings_capability_vassal_men_at_arms_command_1_5_4() -> None:
    s = fresh("ii-warwicks-rebellion")
    maa = s["lords"]["edward_iv"]["mat"]["troops"]["men_at_arms"]
    capability(s, "edward_iv", "Y24")
    mat = s["lords"]["edward_iv"]["mat"]
    assert mat["troops"]["men_at_arms"] == maa + 2 and "hastings" in mat["special_vassals"]
    assert sv.modified_rating(s, "edward_iv", "command") == 3


@pytest.mark.parametrize("card,lord,scenario", [("Y14", "york", "ia-henry-vi"),
                                                 ("Y23", "edward_iv", "ii-warwicks-rebellion")])
def test_burgundians_capability_handgunners_once_at_a_port_1_6(card: str, lord: str, scenario: str) -> None:
    """Y14 and Y23 Burgundians: once, when the Lord is at a Port, he adds 2 Handgunners (1.6)."""
    s = fresh(scenario)
    capability(s, lord, card)
    assert s["lords"][lord]["mat"]["troops"]["handgunners"] == 0
    place(s, lord, "Dover")
    from roses.games.plantagenet import reactions
    for fn in reactions.HOOKS["moved"]:
        fn(s, [lord])
    assert s["lords"][lord]["mat"]["troops"]["handgunners"] == 2
    place(s, lord, "Sandwich" if "Sandwich" in s["favour"] else "Hastings")
    for fn in reactions.HOOKS["moved"]:
        fn(s, [lord])
    assert s["lords"][lord]["mat"]["troops"]["handgunners"] == 2  # once only
    ok(s)


def test_y15_naval_blockade_capability_lancastrian_ship_levy_1_3_1() -> None:
    s = fresh()
    place(s, "warwick_y", "Dover")
    capability(s, "warwick_y", "Y15")
    place(s, "somerset_1", "Southampton")
    s["favour"]["Southampton"] = "Lancaster"
    muster(s, "Lancaster", "somerset_1")
    rng.rig(s, [5])
    act(s, "levy_transport", "ship")
    assert s["lords"]["somerset_1"]["mat"]["assets"]["ships"] == 0  # cancelled on 3-6
    rng.rig(s, [2])
    act(s, "levy_transport", "ship")
    assert s["lords"]["somerset_1"]["mat"]["assets"]["ships"] == 1


def test_rating_capabilities_1_5_2() -> None:
    """Y5 Thomas Bourchier (+1 Command at a Friendly City), Y20 York's Favoured Son, Y22 Fair
    Arbiter, Y26 Fallen Brother, L11 In the Name of the King, L13 Expert Counsellors, L19 Andrew
    Trollope, L20 Veteran of French Wars, L21 My Father's Blood, L24 Married to a Neville, L26
    Edward, L28 Loyal Somerset: the data's rating modifiers, read in one place."""
    s = fresh()
    capability(s, "york", "Y5")
    assert sv.modified_rating(s, "york", "command") == 3  # Ely: Friendly City
    capability(s, "march", "Y20")
    assert (sv.modified_rating(s, "march", "influence"), sv.modified_rating(s, "march", "command")) == (3, 3)
    capability(s, "henry_vi", "L11")
    assert sv.modified_rating(s, "henry_vi", "influence", parley=True) == 6
    capability(s, "somerset_1", "L13")
    assert sv.modified_rating(s, "somerset_1", "valour") == 4
    capability(s, "somerset_1", "L20")
    assert sv.modified_rating(s, "somerset_1", "valour") == 6
    place(s, "salisbury", "Ely")
    capability(s, "salisbury", "Y22")
    assert (sv.modified_rating(s, "salisbury", "influence"), sv.modified_rating(s, "salisbury", "lordship")) == (4, 4)
    place(s, "exeter_1", "London")
    capability(s, "exeter_1", "L19")
    assert sv.modified_rating(s, "exeter_1", "valour") == 3 and "trollope" in s["lords"]["exeter_1"]["mat"]["special_vassals"]
    place(s, "northumberland_l", "London")
    capability(s, "northumberland_l", "L21")
    assert sv.modified_rating(s, "northumberland_l", "valour") == 2
    s2 = fresh("ii-warwicks-rebellion")
    place(s2, "clarence", "Calais")
    s2["favour"]["Calais"] = "Lancaster"
    capability(s2, "clarence", "L24")
    assert sv.modified_rating(s2, "clarence", "influence") == 3 and sv.modified_rating(s2, "clarence", "command") == 2
    place(s2, "gloucester_1", "London")
    capability(s2, "gloucester_1", "Y26")
    assert sv.modified_rating(s2, "gloucester_1", "influence") == 2
    sv.remove_lord(s2, "clarence")
    assert sv.modified_rating(s2, "gloucester_1", "influence") == 4
    place(s2, "margaret", "Calais")
    capability(s2, "margaret", "L26")
    assert sv.modified_rating(s2, "margaret", "valour") == 2
    place(s2, "somerset_2", "Calais")
    capability(s2, "somerset_2", "L28")
    assert sv.modified_rating(s2, "somerset_2", "valour") == 2


def test_tides_capabilities_4_8_1() -> None:
    """Y28 First Son, L17 Margaret (Takes the Reins), L18 Council Member (data Tides bonuses);
    Y19 Welshmen, Y21 Southerners, L16 Northmen (Domination with fewer Strongholds)."""
    s = fresh()
    capability(s, "march", "Y19")  # at Ludlow, in Wales
    for loc in ("Ludlow", "Hereford", "Cardiff"):
        s["favour"][loc] = "York"
    assert sv.tides_of_war(s)["York"].get("dominates Wales") == 2
    s["favour"].pop("Cardiff")
    assert "dominates Wales" not in sv.tides_of_war(s)["York"]
    capability(s, "york", "Y21")
    place(s, "york", "Dover")
    for loc in ("Dover", "Hastings", "Canterbury", "Rochester", "Guildford"):
        s["favour"][loc] = "York"
    assert sv.tides_of_war(s)["York"].get("dominates South") == 2
    place(s, "northumberland_l", "Newcastle")
    capability(s, "northumberland_l", "L16")
    for loc in ("Newcastle", "Carlisle", "Bamburgh"):
        s["favour"][loc] = "Lancaster"
    assert sv.tides_of_war(s)["Lancaster"].get("dominates North") == 2
    capability(s, "henry_vi", "L17")
    assert "Margaret (Takes the Reins)" not in sv.tides_of_war(s)["Lancaster"]  # at London
    place(s, "henry_vi", "Coventry")
    assert sv.tides_of_war(s)["Lancaster"]["Margaret (Takes the Reins)"] == 2
    capability(s, "somerset_1", "L18")
    assert sv.tides_of_war(s)["Lancaster"]["Council Member"] == 1
    s2 = fresh("ii-warwicks-rebellion")
    capability(s2, "edward_iv", "Y28")
    assert sv.tides_of_war(s2)["York"]["First Son"] == 1


def test_l22_stafford_estates_capability_coin_and_provender_each_campaign_4_0() -> None:
    s = fresh()
    place(s, "buckingham", "Coventry")
    capability(s, "buckingham", "L22")
    a = dict(s["lords"]["buckingham"]["mat"]["assets"])
    run_frames(s, {"step": "end_levy"})
    now = s["lords"]["buckingham"]["mat"]["assets"]
    assert (now["coin"], now["provender"]) == (a["coin"] + 1, a["provender"] + 1)


def test_set_troops_helper_is_used() -> None:
    s = fresh()
    set_troops(s, "york", militia=1)
    assert s["lords"]["york"]["mat"]["troops"]["militia"] == 1


# ----- Pay (3.2) ------------------------------------------------------------------------------------
def test_l14_percys_power_capability_pay_in_the_north_is_free_3_2() -> None:
    s = fresh()
    place(s, "northumberland_l", "Newcastle")
    place(s, "somerset_1", "Carlisle")
    capability(s, "northumberland_l", "L14")
    coin = s["lords"]["somerset_1"]["mat"]["assets"]["coin"]
    inf = s["influence"]
    run_frames(s, {"step": "pay_troops", "side": "Lancaster"}, {"step": "pay_lords", "side": "Lancaster"})
    act(s, "pay")
    assert s["lords"]["somerset_1"]["mat"]["assets"]["coin"] == coin
    assert s["influence"] == inf + 1  # Henry VI at London pays; the two in the North do not


def test_l37_madame_la_grande_capability_coin_at_each_pay_3_2() -> None:
    s = fresh("iii-my-kingdom-for-a-horse", box=4)
    place(s, "oxford", "Dover")
    s["favour"]["Dover"] = "Lancaster"
    capability(s, "oxford", "L37")
    set_troops(s, "oxford")
    coin = s["lords"]["oxford"]["mat"]["assets"]["coin"]
    run_frames(s, {"step": "pay_troops", "side": "Lancaster"})
    assert s["lords"]["oxford"]["mat"]["assets"]["coin"] == coin + 1


def test_y24_hastings_men_at_arms_go_at_waste_e_faq_6_4_8_5() -> None:
    """Y24 Hastings: the 2 Men-at-Arms he adds are no part of Edward IV's card, so Waste (4.8.5:
    Troops back to the card's values) removes them (E FAQ #6); the Special Vassal and the
    Capability stay (Vassals and cards are unaffected)."""
    from roses.games.plantagenet.components import load

    s = fresh("ii-warwicks-rebellion")
    capability(s, "edward_iv", "Y24")
    mat = s["lords"]["edward_iv"]["mat"]
    printed = load().lords["edward_iv"]["troops"]["men_at_arms"]
    assert mat["troops"]["men_at_arms"] == printed + 2
    sv.waste(s)
    assert mat["troops"]["men_at_arms"] == printed
    assert "hastings" in mat["special_vassals"] and "Y24" in mat["capabilities"]
    ok(s)


def test_l25_welsh_rebellion_lord_left_without_troops_disbands_1_6() -> None:
    """L25 Welsh Rebellion takes 2 Troops from a Yorkist Lord in Wales; one left with none
    Disbands at once (1.6: a Mustered Lord with no Troops outside Battle)."""
    s = fresh("ii-warwicks-rebellion")
    set_troops(s, "pembroke", militia=1, longbowmen=1)
    implement(s, "L25")
    act(s, "remove", "pembroke:militia")
    assert s["lords"]["pembroke"]["where"] == Where.MAP
    act(s, "remove", "pembroke:longbowmen")
    assert s["lords"]["pembroke"]["where"] == Where.CALENDAR and s["stack"] == []
    ok(s)


def test_y26_fallen_brother_counts_clarence_removed_by_shaky_allies_errata_6_0_ii() -> None:
    """Y26 Fallen Brother (+2 Influence, +1 Lordship once Clarence is gone) also counts
    Clarence's removal when Margaret is placed in France (Shaky Allies, 6.0 II; errata FAQ #4),
    not only his Death or Shipwreck."""
    from roses.games.plantagenet.levy import muster_lord

    s = fresh("ii-warwicks-rebellion")
    place(s, "gloucester_1", "London")
    capability(s, "gloucester_1", "Y26")
    influence = sv.modified_rating(s, "gloucester_1", "influence")
    lordship = sv.modified_rating(s, "gloucester_1", "lordship")
    muster_lord(s, "margaret", "France")
    assert s["lords"]["clarence"]["where"] == Where.REMOVED
    assert sv.modified_rating(s, "gloucester_1", "influence") == influence + 2
    assert sv.modified_rating(s, "gloucester_1", "lordship") == lordship + 1
