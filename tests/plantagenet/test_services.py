"""Rule services, each test citing its section."""

from __future__ import annotations

from typing import Any

import pytest

from roses.engine import rng
from roses.games.plantagenet import RULES
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import load
from roses.games.plantagenet.setup import new_mat


def _ia() -> dict[str, Any]:
    return RULES.setup(11, "ia-henry-vi")


def _place(state: dict[str, Any], lord: str, locale: str) -> None:
    d = state["lords"][lord]
    if d["mat"] is None:
        d["mat"] = new_mat(lord)
    d.update(where="map", locale=locale, box=None, exile=False)


# ----- 1.4 Influence -----------------------------------------------------------------------

def test_situation_1_influence_check_1_4_2() -> None:
    """§7.1: Influence-3 Yorkist Parleys an adjacent Stronghold in Levy with +1: cost 3,
    target 4, a roll of 5 fails and Favour is unchanged."""
    s = _ia()
    _place(s, "salisbury", "Ely")  # Ely is Yorkist in Ia; Peterborough is adjacent and Neutral
    assert sv.parley_targets(s, "salisbury")["Peterborough"] == 1
    rng.rig(s, [5])
    res = sv.parley(s, "salisbury", "Peterborough", extra=1)
    assert (res["cost"], res["target"], res["roll"], res["success"]) == (3, 4, 5, False)
    assert s["influence"] == -3  # York spent 3: the net moves 3 toward Lancaster
    assert sv.favour(s, "Peterborough") is None
    rng.rig(s, [4])
    assert sv.parley(s, "salisbury", "Peterborough", extra=1)["success"]
    assert sv.favour(s, "Peterborough") == "York"


def test_situation_1_two_extra_points_rejected_1_4_2() -> None:
    with pytest.raises(ValueError):
        sv.check_cost(extra=2)
    with pytest.raises(ValueError):
        sv.check_rating(3, extra=2)
    assert sv.check_cost(extra=3, ways=2) == 6
    assert sv.check_rating(3, extra=3) == 5


def test_situation_1_natural_one_and_six_1_4_2() -> None:
    assert sv.check_succeeds(1, 0)
    assert sv.check_succeeds(1, -3)
    assert not sv.check_succeeds(6, 9)
    assert sv.check_succeeds(4, 4) and not sv.check_succeeds(5, 4)


def test_natural_one_succeeds_with_rating_zero_vassal_loyalty_1_4_2() -> None:
    """Clarence (Influence 1) checking against Bonville (white Loyalty 1) for Lancaster: rating 0."""
    s = RULES.setup(1, "ii-warwicks-rebellion")
    assert sv.check_rating(1, 0, "bonville", "Lancaster") == 0
    assert sv.check_rating(1, 0, "beaumont", "Lancaster") == 3
    rng.rig(s, [1, 2])
    assert sv.influence_check(s, "Lancaster", "clarence", vassal="bonville")["success"]
    assert not sv.influence_check(s, "Lancaster", "clarence", vassal="bonville")["success"]


def test_influence_track_net_and_cap_1_4_1() -> None:
    s = _ia()
    sv.gain_influence(s, "York", 3)
    assert (sv.influence_of(s, "York"), sv.influence_of(s, "Lancaster")) == (3, 0)
    sv.lose_influence(s, "York", 4)  # the 1.4.1 example: 3 Yorkist, spend 4 -> 1 Lancastrian
    assert (s["influence"], sv.influence_of(s, "Lancaster")) == (-1, 1)
    sv.gain_influence(s, "Lancaster", 100)
    assert s["influence"] == -45
    sv.gain_influence(s, "York", 200)
    assert s["influence"] == 45


# ----- Routes -------------------------------------------------------------------------------

def test_situation_2_route_blocked_3_4_1() -> None:
    """§7.2: a target 2 Ways away is unreachable while the middle Stronghold is Neutral or holds
    an Enemy Lord."""
    s = _ia()
    assert "Lincoln" not in sv.parley_targets(s, "york")  # Peterborough Neutral
    sv.set_favour(s, "Peterborough", "York")
    assert sv.parley_targets(s, "york")["Lincoln"] == 2
    _place(s, "somerset_1", "Peterborough")
    assert "Lincoln" not in sv.parley_targets(s, "york")
    assert "Peterborough" not in sv.parley_targets(s, "york")  # not a Parley target: Friendly


def test_situation_2_ship_makes_same_sea_port_one_way_1_3_1() -> None:
    """§7.2: with a Ship at a Port, a Port on the same Sea is 1 Way away; not without one."""
    s = _ia()
    _place(s, "york", "Lynn")
    sv.set_favour(s, "Lynn", "York")
    assert "Newcastle" not in sv.parley_targets(s, "york")
    s["lords"]["york"]["mat"]["assets"]["ships"] = 1
    t = sv.parley_targets(s, "york")
    assert t["Newcastle"] == 1 and t["Ipswich"] == 1
    assert "Dover" not in t  # other Sea
    assert sv.parley_targets(s, "york", campaign=True)["Newcastle"] == 1


def test_parley_from_non_friendly_location_only_there_3_4_1_and_campaign_auto_4_6_4() -> None:
    s = _ia()
    _place(s, "salisbury", "Peterborough")  # Neutral
    assert sv.parley_targets(s, "salisbury") == {"Peterborough": 0}
    before = s["influence"]
    res = sv.parley(s, "salisbury", "Peterborough", campaign=True)
    assert res["success"] and res["cost"] == 0 and s["influence"] == before
    assert sv.favour(s, "Peterborough") == "York"


def test_campaign_parley_range_one_way_4_6_4() -> None:
    s = _ia()
    sv.set_favour(s, "Peterborough", "York")
    assert "Lincoln" in sv.parley_targets(s, "york")
    assert "Lincoln" not in sv.parley_targets(s, "york", campaign=True)


def test_tax_targets_4_6_3() -> None:
    s = _ia()
    assert sv.tax_targets(s, "york") == {"Ely": 0}  # own Seat; London is Enemy
    assert sv.tax_targets(s, "henry_vi") == {"London": 0}
    sv.exhaust(s, "Ely")
    assert sv.tax_targets(s, "york") == {}


# ----- 4.3.3 March speed ----------------------------------------------------------------------

def test_situation_7_march_speed_4_3_3() -> None:
    """§7.7: London -> St Albans -> Cambridge by two Highways is 1 action; London -> Rochester ->
    Canterbury by Roads is 2; Chester -> York by Path only as the first action, using the card."""
    s = _ia()
    d = sv.march_destinations(s, "London", actions_left=2, first_action=True)
    assert d["St Albans"] == 1 and d["Cambridge"] == 1
    assert d["Rochester"] == 1 and "Canterbury" not in d
    assert sv.march_destinations(s, "Rochester", actions_left=1, first_action=False)["Canterbury"] == 1
    assert sv.march_destinations(s, "Chester", actions_left=2, first_action=True)["York"] == 2
    assert "York" not in sv.march_destinations(s, "Chester", actions_left=1, first_action=False)
    assert set(sv.march_destinations(s, "Scotland", actions_left=2, first_action=True)) == {"Carlisle", "Bamburgh"}
    assert "Scotland" not in sv.march_destinations(s, "Carlisle", actions_left=2, first_action=True)


# ----- 4.5 Supply -----------------------------------------------------------------------------

def test_situation_15_supply_carts_4_5_2() -> None:
    """§7.15: 4 Carts, 2 Ways from a Friendly Depleted City: 2 Provender, City Exhausted;
    with 3 Carts only 1."""
    s = _ia()
    for loc in ("Peterborough", "Lincoln"):
        sv.set_favour(s, loc, "York")
    sv.deplete(s, "Lincoln")
    mat = s["lords"]["york"]["mat"]
    mat["assets"]["carts"] = 4
    opts = sv.supply_options(s, "york")
    assert opts["Lincoln"] == {"kind": "stronghold", "ways": 2, "amount": 2}
    before = mat["assets"]["provender"]
    assert sv.supply(s, "york", "Lincoln") == 2
    assert mat["assets"]["provender"] == before + 2
    assert s["exhaustion"]["Lincoln"] == "exhausted"
    assert "Lincoln" not in sv.supply_options(s, "york")
    s2 = _ia()
    for loc in ("Peterborough", "Lincoln"):
        sv.set_favour(s2, loc, "York")
    s2["lords"]["york"]["mat"]["assets"]["carts"] = 3
    assert sv.supply_options(s2, "york")["Lincoln"]["amount"] == 1


def test_supply_port_source_with_ships_4_5_2() -> None:
    s = RULES.setup(1, "ii-warwicks-rebellion")  # Warwick at Calais with 2 Ships
    opts = sv.supply_options(s, "warwick_l")
    assert opts["Calais"]["amount"] == 3  # Calais as a Stronghold gives 3 > 2 Ships
    sv.exhaust(s, "Calais")
    assert sv.supply_options(s, "warwick_l")["Calais"] == {"kind": "port", "ways": 0, "amount": 2}


# ----- 1.3.1 Favour and markers ------------------------------------------------------------------

def test_favour_shift_and_depletion_1_3_1() -> None:
    s = _ia()
    sv.shift_favour_toward(s, "London", "York")
    assert sv.favour(s, "London") is None
    sv.shift_favour_toward(s, "London", "York")
    assert sv.favour(s, "London") == "York"
    sv.deplete(s, "Ely")
    assert s["exhaustion"]["Ely"] == "depleted"
    sv.deplete(s, "Ely")
    assert sv.is_exhausted(s, "Ely")
    sv.deplete(s, "Lynn")
    sv.grow(s)  # 4.8.4
    assert s["exhaustion"] == {"Ely": "depleted"}


def test_exile_boxes_friendly_only_to_aligned_side_1_3_1() -> None:
    s = _ia()
    assert sv.is_friendly(s, "Scotland", "Lancaster") and not sv.is_friendly(s, "Scotland", "York")
    assert sv.dominates(s, "York", "Wales") is False


# ----- 2.2.3 Calendar ---------------------------------------------------------------------------

def test_calendar_shift_and_end_clamping_2_2_3() -> None:
    assert sv.calendar_shift(10, 1) == 11 and sv.calendar_shift(11, -1) == 10
    assert sv.calendar_shift(14, 3) == sv.OFF_RIGHT
    assert sv.calendar_shift(sv.OFF_RIGHT, 2) == sv.OFF_RIGHT  # further shifts ignored
    assert sv.calendar_shift(sv.OFF_RIGHT, -3) == 15  # first shift back: box 15
    assert sv.calendar_shift(2, -5) == sv.OFF_LEFT
    assert sv.calendar_shift(sv.OFF_LEFT, -1) == sv.OFF_LEFT
    assert sv.calendar_shift(sv.OFF_LEFT, 4) == 1
    assert sv.calendar_place(17) == sv.OFF_RIGHT and sv.calendar_place(0) == sv.OFF_LEFT


# ----- 3.2.4 Disband ----------------------------------------------------------------------------

def test_disband_lord_and_vassals_3_2_4() -> None:
    s = RULES.setup(1, "ib-towton")
    assert s["box"] == 1
    sv.disband_lord(s, "march")  # Influence 2: box 1 + 4
    d = s["lords"]["march"]
    assert (d["where"], d["box"], d["exile"], d["mat"]) == ("calendar", 5, False, None)
    # Fauconberg (Service 3) face down at box 1 + 3
    assert s["vassals"]["fauconberg"] == {"where": "calendar", "lord": None, "box": 4, "face_up": False}
    assert RULES.check_invariants(s) == []


def test_disband_from_exile_box_marks_exile_3_2_4() -> None:
    s = RULES.setup(1, "iii-my-kingdom-for-a-horse")  # box 3, Oxford in France
    sv.disband_lord(s, "oxford")
    assert s["lords"]["oxford"]["box"] == 7 and s["lords"]["oxford"]["exile"] is True
    sv.disband_lord(s, "gloucester_2", exile=True)  # Influence 5 -> box 4, Exile by choice
    assert s["lords"]["gloucester_2"]["box"] == 4 and s["lords"]["gloucester_2"]["exile"]


def test_disband_removes_montagu_card_ic_and_frees_special_vassal_1_5_4() -> None:
    """Ic Montagu: Disband of Warwick removes L23 from play; the Special Vassal is freed."""
    s = RULES.setup(1, "ic-somersets-return")
    sv.disband_lord(s, "warwick_y")
    assert "L23" not in s["aow"]["Lancaster"]["deck"] and "L23" not in s["aow"]["Lancaster"]["in_game"]
    assert s["special_vassals"]["montagu"] is None
    assert s["lords"]["warwick_y"]["box"] == 5 + 1  # box 5 + (6 - 5)
    assert RULES.check_invariants(s) == []


def test_disband_returns_capabilities_to_deck_1_5_1() -> None:
    s = _ia()
    s["aow"]["York"]["deck"].remove("Y20")
    s["lords"]["march"]["mat"]["capabilities"].append("Y20")
    assert RULES.check_invariants(s) == []
    sv.disband_lord(s, "march")
    assert "Y20" in s["aow"]["York"]["deck"]
    assert RULES.check_invariants(s) == []


def test_remove_lord_and_unpaid_penalty_3_2_1() -> None:
    s = RULES.setup(1, "ib-towton")
    assert sv.unpaid_disband_penalty(s, ["march", "norfolk"]) == 2 + 1 + 3  # Fauconberg counts 1
    sv.remove_lord(s, "march")
    assert s["lords"]["march"]["where"] == "removed" and "march" not in s["seats"]
    assert s["heirs_removed"] == ["march"]


# ----- 4.8.1 Tides of War -------------------------------------------------------------------------

def test_tides_of_war_ia_start_4_8_1() -> None:
    s = _ia()
    t = sv.tides_of_war(s)
    # Box 1 gains Lords Influence. York: York 5 + March 2; March at Ludlow (Wales); most Fortresses.
    assert t["York"] == {"lord in Wales": 1, "most Fortress": 1, "lords": 7}
    # Lancaster: London 2 (no Enemy Lord there); Henry VI 5 + Somerset 5. Cities tied 1-1.
    assert t["Lancaster"] == {"London": 2, "lords": 10}
    _place(s, "salisbury", "London")
    assert "London" not in sv.tides_of_war(s)["Lancaster"]
    s["box"] = 2
    assert "lords" not in sv.tides_of_war(s)["York"]
    sv.apply_tides(s)


def test_tides_domination_and_queen_regent_4_8_1() -> None:
    s = RULES.setup(1, "ic-somersets-return")
    t = sv.tides_of_war(s)
    assert t["York"]["dominates South"] == 2 and t["Lancaster"]["dominates North"] == 2
    assert t["Lancaster"]["lord in North"] == 1  # Somerset at Bamburgh
    s3 = RULES.setup(1, "iii-my-kingdom-for-a-horse")  # Lancastrians in France: in no Area (R14)
    assert not any(k.startswith("lord in") for k in sv.tides_of_war(s3)["Lancaster"])
    s2 = RULES.setup(1, "ii-warwicks-rebellion")
    _place(s2, "margaret", "London")
    assert sv.tides_of_war(s2)["Lancaster"]["Queen Regent"] == 3


# ----- 5.x Victory -------------------------------------------------------------------------------

def test_campaign_victory_5_1() -> None:
    s = RULES.setup(1, "ic-somersets-return")  # Henry VI Exile in box 5
    sv.disband_lord(s, "somerset_1")
    assert sv.lacks_lords(s, "Lancaster")  # Henry VI is in box 5, not next box 6
    assert sv.campaign_victory(s) == "York"
    s["lords"]["henry_vi"]["box"] = 6
    assert sv.campaign_victory(s) is None
    for lid in ("march", "warwick_y"):
        sv.disband_lord(s, lid)
    s["lords"]["henry_vi"]["box"] = 9
    assert sv.campaign_victory(s) == "Draw"


def test_threshold_and_scenario_end_5_2_5_3() -> None:
    s = _ia()
    assert sv.threshold_victory(s, 40) is None
    s["influence"] = -40
    assert sv.threshold_victory(s, 40) == "Lancaster"
    s["influence"] = 0
    assert sv.scenario_end_winner(s) == "Draw"
    assert sv.scenario_end_winner(s, tie_to_king=True) == "Lancaster"
    s["influence"] = 2
    assert sv.scenario_end_winner(s) == "York"


def test_victory_check_order_4_8_3() -> None:
    s = _ia()
    s["influence"] = 41
    assert sv.victory_check(s) == "York"  # threshold 40 in box 1
    s["box"] = 15
    s["influence"] = 29
    assert sv.victory_check(s) == "York"  # final Turn, more Influence
    s["influence"] = 0
    assert sv.victory_check(s) == "Draw"


def test_test_of_arms_ib() -> None:
    s = RULES.setup(1, "ib-towton")
    assert sv.victory_check(s) == "Draw"  # York Neutral at the end
    sv.set_favour(s, "York", "Lancaster")
    assert sv.victory_check(s) == "Lancaster"


def test_dead_lords_command_cards_leave_the_game_4_4_3_4_8_2() -> None:
    """4.4.3 Death / 4.8.2 Shipwreck: "remove ... their Lord cards, Command cards, cylinders, and
    Seat markers from the game": from the deck and from a Plan alike."""
    s = _ia()
    cmd = s["command"]["Lancaster"]
    cmd["deck"].remove("somerset-2")
    cmd["plan"].append("somerset-2")
    sv.remove_lord(s, "somerset_1")
    assert not [cid for z in ("deck", "plan", "revealed") for cid in cmd[z] if cid.startswith("somerset-")]
    assert "henry_vi-1" in cmd["deck"] and "pass-1" in cmd["deck"]
    assert RULES.check_invariants(s) == []


def test_new_arrival_adds_his_command_cards_6_2_2() -> None:
    """6.2.2 ADD: a new arrival's Command cards join the game with his Seat and cylinder (the
    next Turn's box during play, TO CALENDAR)."""
    s = RULES.setup(1, "wars-of-the-roses")
    sv.remove_lord(s, "henry_vi")
    sv.add_lord(s, "margaret", box=s["box"] + 1)
    assert [cid for cid in s["command"]["Lancaster"]["deck"] if cid.startswith("margaret-")] == \
        ["margaret-1", "margaret-2", "margaret-3"]
    assert s["lords"]["margaret"]["where"] == "calendar" and s["lords"]["margaret"]["box"] == 2
    assert s["seats"]["margaret"] == load().lords["margaret"]["seat"]
    sv.remove_lord(s, "somerset_1")  # Somerset (2) shares the badge: its cards leave, then return
    assert "somerset-1" not in s["command"]["Lancaster"]["deck"]
    sv.add_lord(s, "somerset_2", box=2)
    assert "somerset-1" in s["command"]["Lancaster"]["deck"]
    assert RULES.check_invariants(s) == []
    with pytest.raises(ValueError):
        sv.add_lord(s, "margaret", box=3)  # already in play


def test_campaign_victory_at_box_15_ignores_cylinders_off_the_calendar_5_1_2_2_3() -> None:
    """5.1 looks at the next Turn's Calendar box "(only)"; after box 15 there is none, and a
    cylinder shifted off the right end (2.2.3, position 16) is in no box (RULINGS R18)."""
    s = _ia()
    s["box"] = 15
    for lid in ("york", "march", "salisbury", "warwick_y", "rutland"):
        sv.disband_lord(s, lid, exile=True)
        assert s["lords"][lid]["box"] == sv.OFF_RIGHT
    assert sv.lacks_lords(s, "York")
    assert sv.campaign_victory(s) == "Lancaster"
    s["box"] = 14
    s["lords"]["york"]["box"] = 15
    assert not sv.lacks_lords(s, "York")  # an Exile cylinder in the next box still counts


def test_wotr_automatic_war_victory_6_3() -> None:
    s = RULES.setup(1, "wars-of-the-roses")
    sv.remove_lord(s, "henry_vi")
    assert sv.war_lost_by_heirs(s) is None
    sv.remove_lord(s, "somerset_1")
    assert sv.war_lost_by_heirs(s) == "York"
    s2 = RULES.setup(1, "wars-of-the-roses")
    assert sv.victory_check(s2) is None
    s2["box"] = 15
    assert sv.victory_check(s2) == "Lancaster"  # tie goes to the King (E FAQ #5, RULINGS R3)


# ----- 1.5.2 ratings -----------------------------------------------------------------------------

def test_modified_ratings_1_5_2() -> None:
    s = _ia()
    mat = s["lords"]["march"]["mat"]
    assert sv.modified_rating(s, "march", "command") == 2
    mat["capabilities"].append("Y20")  # York's Favoured Son
    assert sv.modified_rating(s, "march", "command") == 3
    assert sv.modified_rating(s, "march", "influence") == 3
    hm = s["lords"]["henry_vi"]["mat"]
    hm["capabilities"].append("L11")  # In the Name of the King: +1 for Parley only
    assert sv.modified_rating(s, "henry_vi", "influence") == 5
    assert sv.modified_rating(s, "henry_vi", "influence", parley=True) == 6
    sm = s["lords"]["somerset_1"]["mat"]
    sm["capabilities"].append("L13")
    assert sv.modified_rating(s, "somerset_1", "valour") == 4


def test_waste_4_8_5() -> None:
    s = _ia()
    mat = s["lords"]["york"]["mat"]
    mat["assets"].update(provender=5, carts=3, coin=9)
    mat["troops"].update(militia=7, mercenaries=2)
    sv.waste(s)
    assert mat["assets"]["provender"] == 3 and mat["assets"]["carts"] == 2 and mat["assets"]["coin"] == 2
    assert mat["troops"]["militia"] == 2 and mat["troops"]["mercenaries"] == 2


def test_situation_4_pillage_london_3_2_1() -> None:
    """§7.4 (Background Book): York Pillages Lancastrian London: +3 Provender +3 Coin, Yorkists
    -12 IP, London Exhausted and stays Lancastrian, Oxford, Rochester, Guildford and St Albans
    each shift one step toward Lancaster."""
    s = _ia()
    _place(s, "york", "London")
    for loc in ("Oxford", "Rochester"):
        sv.set_favour(s, loc, "York")
    mat = s["lords"]["york"]["mat"]
    coin, prov = mat["assets"]["coin"], mat["assets"]["provender"]
    assert sv.pillage(s, "york") == 12
    assert (mat["assets"]["coin"], mat["assets"]["provender"]) == (coin + 3, prov + 3)
    assert s["influence"] == -12
    assert sv.is_exhausted(s, "London") and sv.favour(s, "London") == "Lancaster"
    assert sv.favour(s, "Oxford") is None and sv.favour(s, "Rochester") is None
    assert sv.favour(s, "Guildford") == "Lancaster" and sv.favour(s, "St Albans") == "Lancaster"
    with pytest.raises(ValueError):
        sv.pillage(s, "york")  # now Exhausted


def test_tides_card_bonuses_4_8_1() -> None:
    s = RULES.setup(1, "ii-warwicks-rebellion")
    s["box"] = 2
    s["lords"]["edward_iv"]["mat"]["capabilities"].append("Y28")
    assert sv.tides_of_war(s)["York"]["First Son"] == 1
    s = _ia()
    s["lords"]["henry_vi"]["mat"]["capabilities"].append("L17")
    assert "Margaret (Takes the Reins)" not in sv.tides_of_war(s)["Lancaster"]
    s["lords"]["henry_vi"]["locale"] = "Harlech"
    assert sv.tides_of_war(s)["Lancaster"]["Margaret (Takes the Reins)"] == 2


def test_allied_networks_and_exile_boxes_3_3_1() -> None:
    s = _ia()
    assert sv.exile_boxes_for(s, "henry_vi") == ["Scotland"]
    assert sv.exile_boxes_for(s, "somerset_1") == ["Scotland"]
    assert sv.exile_boxes_for(s, "buckingham") == ["France"]
    assert sv.exile_boxes_for(s, "rutland") == ["Ireland"]
    assert sv.exile_boxes_for(s, "warwick_y") == ["Burgundy"]
    w = RULES.setup(1, "wars-of-the-roses")
    assert sv.exile_boxes_for(w, "margaret") == ["France"]
    assert sv.exile_boxes_for(w, "somerset_2") == ["Scotland"]
    ii = RULES.setup(1, "ii-warwicks-rebellion")  # no Allied Networks: any Friendly box
    assert sv.exile_boxes_for(ii, "margaret") == ["France"]
    assert sv.exile_boxes_for(ii, "edward_iv") == ["Burgundy"]
    assert sv.exile_boxes_for(RULES.setup(1, "ib-towton"), "march") == []


def test_the_data_tables_made_once_are_the_datas() -> None:
    """The tables of the component data the rules read at most actions are module tables made
    at their first call (not ``functools.cache``, a Python call even compiled): each is the same
    object at every call, holds what the data gives (1.3.1 the map, 1.5 the Lords, 1.9 the
    cards, 4.5.1 the Strongholds table) and ``services.load`` is the checked data itself."""
    from roses.games.plantagenet import arts, campaign, components, effects, rules, setup

    c = components.load()
    assert sv.load() is c and sv.load() is sv.load()
    made = (sv._strongholds, sv._adjacent, sv._lord_sides, sv._supply_yields, rules._lord_names_and_sides,
            campaign._lord_names, arts._facts, arts._lord_badges, arts._titles, effects._event_cards,
            effects._capability_cards, setup.scenario_data, campaign.tables)
    for table in made:
        assert not hasattr(table, "cache_info"), table  # not behind functools.cache
        assert table() is table(), table
    assert sv._strongholds() == {loc for loc, d in c.locales.items() if d["kind"] == "stronghold"}
    assert sv._adjacent() == {loc: tuple(nbrs) for loc, nbrs in c.adjacency.items()}
    assert sv._lord_sides() == {lid: d["side"] for lid, d in c.lords.items()}
    assert rules._lord_names_and_sides() == {lid: (d["name"], d["side"]) for lid, d in c.lords.items()}
    assert campaign._lord_names() == {lid: d["name"] for lid, d in c.lords.items()}
    assert arts._lord_badges() == {lid: d["badge"] for lid, d in c.lords.items()}
    assert sv._supply_yields()["London"] == int(c.tables["strongholds"][c.locales["London"]["type"]]["supply"])
    assert set(arts._facts()) == set(c.cards) == set(arts._titles())
    assert all(cid in effects.EVENT_KEYS for cards in effects._event_cards().values() for cid in cards)
    assert all(cid in effects.CAPABILITY_KEYS for cards in effects._capability_cards().values() for cid in cards)
    assert set(setup.scenario_data()) == set(setup.SCENARIOS)
