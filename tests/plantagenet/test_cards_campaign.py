"""Arts of War cards whose halves act in the Campaign (4.x) or when a Lord is replaced (6.2.2).

Each test names the card half and the section it changes."""

from __future__ import annotations

from typing import Any

import pytest

from roses.engine import rng
from roses.engine.contract import OBSERVER, canonical_json
from roses.games.plantagenet import RULES, arts, wars
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.records import VassalWhere, Where
from roses.games.plantagenet.setup import setup_state

from .helpers import act, options, place, run_frames, set_troops, to_calendar, war_state

State = dict[str, Any]


def _take(s: State, cid: str) -> str:
    """Take ``cid`` out of its deck (or bring it into the game if the scenario lacks it)."""
    side = "York" if cid[0] == "Y" else "Lancaster"
    if cid in s["aow"][side]["deck"]:
        s["aow"][side]["deck"].remove(cid)
    else:
        s["aow"][side]["in_game"].append(cid)
    return side


def deploy(s: State, lord: str, cid: str) -> None:
    """Put ``cid`` on ``lord``'s mat as a Capability (3.4.6)."""
    side = _take(s, cid)
    s["aow"][side]["drawn"].append(cid)
    arts.deploy_capability(s, lord, cid)


def in_effect(s: State, cid: str) -> None:
    """The Event of ``cid`` is in effect (3.1.3)."""
    side = _take(s, cid)
    s["aow"][side]["in_effect"].append(cid)


def ia(box: int = 2) -> State:
    """Ia in a later Turn with every Lord off the map (each test places those it needs)."""
    s = RULES.setup(3, "ia-henry-vi")
    s["box"] = box
    s["first_turn"] = False
    for lid in ("henry_vi", "somerset_1", "york", "march"):
        to_calendar(s, lid, 9)
    for side in ("York", "Lancaster"):
        for cid in list(s["aow"][side]["drawn"]):
            s["aow"][side]["drawn"].remove(cid)
            arts.to_deck(s, side, cid)
    s["stack"] = []
    return s


def activate(s: State, lord: str, left: int = 2) -> State:
    """``lord`` is the Active Lord with ``left`` Command actions (4.2.1)."""
    return run_frames(s, {"step": "actions", "side": sv.side_of(lord), "lord": lord, "left": left, "used": 0,
                          "highway": None})


def verbs(s: State, verb: str) -> list[Any]:
    return [a for v, a in options(s) if v == verb]


def assets(s: State, lord: str) -> dict[str, int]:
    return dict(s["lords"][lord]["mat"]["assets"])


def ok(s: State) -> None:
    assert RULES.check_invariants(s) == []


# ----- Y34 / Y35: "discard when he becomes Richard III" (6.2.2 REPLACE, Scenario III) ------------
def test_y34_y35_capabilities_discarded_when_king_richard_replaces_gloucester_6_0_iii() -> None:
    """Y34 So wise, so young and Y35 Kingdom United hold "as Gloucester": when Scenario III's
    King Richard puts Richard III in Gloucester's place at a Muster, both go back to the deck."""
    s = setup_state(3, "iii-my-kingdom-for-a-horse")
    s["stack"] = []
    s["first_turn"] = False
    deploy(s, "gloucester_2", "Y34")
    deploy(s, "gloucester_2", "Y35")
    run_frames(s, {"step": "muster", "side": "York"})
    act(s, "king_richard")
    assert s["lords"]["richard_iii"]["mat"]["capabilities"] == []
    assert "Y34" in s["aow"]["York"]["deck"] and "Y35" in s["aow"]["York"]["deck"]
    assert any("Gloucester is now Richard III" in str(line) for line in s["log"][-3:])
    assert RULES.check_invariants(s) == []


def test_y34_kept_when_march_becomes_edward_iv_and_discarded_for_richard_iii_6_2_2() -> None:
    """6.3 IIY Succession: REPLACE of Gloucester by Richard III (wars.replace_heir) discards Y34;
    a replacement of another Lord leaves Capabilities alone."""
    s = war_state("IIY", "G", "H M S1 S2")
    s["stack"] = []
    place(s, "gloucester_1", "London")
    deploy(s, "gloucester_1", "Y34")
    wars.replace_heir(s, "gloucester_1", "richard_iii", "test: Gloucester becomes King")
    assert s["lords"]["richard_iii"]["where"] == Where.MAP
    assert "Y34" not in s["lords"]["richard_iii"]["mat"]["capabilities"]
    assert "Y34" in s["aow"]["York"]["deck"]
    assert RULES.check_invariants(s) == []



# ----- Supply, Forage and Tax (4.5, 4.6.2, 4.6.3) -----------------------------------------------
def test_y13_scourers_capability_forage_yields_one_more_4_6_2() -> None:
    s = ia()
    place(s, "york", "Ely", provender=0)
    deploy(s, "york", "Y13")
    activate(s, "york")
    act(s, "forage")  # Friendly, no Enemy adjacent: sure
    assert assets(s, "york")["provender"] == 2 and s["exhaustion"]["Ely"] == "depleted"
    ok(s)


def test_y13_scourers_failed_forage_yields_nothing_4_6_2() -> None:
    s = ia()
    place(s, "york", "Cambridge", provender=0)  # Neutral: 1-4
    deploy(s, "york", "Y13")
    activate(s, "york")
    rng.rig(s, [5])
    act(s, "forage")
    assert assets(s, "york")["provender"] == 0


def test_y7_harbingers_capability_supply_yields_twice_4_5_2() -> None:
    """Y7 Harbingers: twice the table's Provender, at the Lord's Locale and (Carts enough)
    one Way off; the Carts carry all of it (RULINGS R70)."""
    s = ia()
    place(s, "york", "Ely", provender=0, carts=2)
    s["favour"]["Peterborough"] = "York"
    deploy(s, "york", "Y7")
    activate(s, "york")
    got = {o["source"]: o["amount"] for o in sv.supply_choices(s, "york").values()}
    assert got["Ely"] == 4  # a City: 2 Provender (Strongholds table), twice
    assert got["Peterborough"] == 2  # 4 Provender, but 2 Carts over 1 Way carry 2
    act(s, "supply", "Ely")
    assert assets(s, "york")["provender"] == 4
    ok(s)


def test_l7_harbingers_capability_port_supply_twice_4_5_2() -> None:
    s = ia()
    s["favour"].update({"Bristol": "Lancaster"})
    place(s, "somerset_1", "Bristol", provender=0, ships=1, carts=0)
    deploy(s, "somerset_1", "L7")
    assert sv.supply_choices(s, "somerset_1")["Bristol:ships"]["amount"] == 2  # 1 Ship, twice


def test_l8_hay_wains_capability_carts_count_twice_for_supply_4_5_1() -> None:
    """L8 Hay Wains: 1 Cart carries 1 Provender over 1 Way (4.5.1); counted twice, 2 (Oxford, a
    City one Highway from London, gives 2)."""
    s = ia()
    place(s, "somerset_1", "London", provender=0, carts=1)
    s["favour"].update({"London": "Lancaster", "Oxford": "Lancaster"})
    assert sv.supply_choices(s, "somerset_1")["Oxford"]["amount"] == 1
    deploy(s, "somerset_1", "L8")
    assert sv.supply_choices(s, "somerset_1")["Oxford"]["amount"] == 2
    assert sv.supply_choices(s, "somerset_1")["London"]["amount"] == 3  # no Way: no Carts needed


def test_y29_stafford_branch_supply_and_tax_near_exeter_4_5_4_6_3() -> None:
    """Y29 Stafford Branch (Devon): Supply or Tax from Exeter or a Stronghold next to it yields 1
    more Provender or Coin."""
    s = setup_state(3, "ii-warwicks-rebellion")
    s["stack"] = []
    if "devon" not in s["lords"]:
        s["lords"]["devon"] = {"where": Where.UNUSED, "locale": None, "box": None, "exile": False, "mat": None}
    place(s, "devon", "Exeter", provender=0, coin=0, carts=0)
    s["favour"]["Exeter"] = "York"
    s["exhaustion"].pop("Exeter", None)
    deploy(s, "devon", "Y29")
    table = sv.supply_choices(s, "devon")["Exeter"]["amount"]
    s["lords"]["devon"]["mat"]["capabilities"].remove("Y29")
    assert sv.supply_choices(s, "devon")["Exeter"]["amount"] == table - 1
    s["lords"]["devon"]["mat"]["capabilities"].append("Y29")
    from roses.games.plantagenet import card_rules as cr
    from roses.games.plantagenet.campaign import collect_tax

    coin = cr.tax_coin(s, "devon", "Exeter")
    collect_tax(s, "devon", "Exeter", None)
    assert assets(s, "devon")["coin"] == coin and coin == 2 + 1  # a City: 2 Coin (table), +1


def test_y34_so_wise_campaign_tax_even_a_failed_one_gives_a_coin_4_6_3() -> None:
    s = setup_state(3, "iii-my-kingdom-for-a-horse")
    s["stack"] = []
    deploy(s, "gloucester_2", "Y34")
    from roses.games.plantagenet.campaign import collect_tax

    coin = assets(s, "gloucester_2")["coin"]
    rng.rig(s, [6])  # a 6 always fails (1.4.2)
    collect_tax(s, "gloucester_2", "London", 0)
    assert assets(s, "gloucester_2")["coin"] == coin + 1
    coin += 1
    s["exhaustion"].pop("London", None)
    rng.rig(s, [1])
    collect_tax(s, "gloucester_2", "London", 0)
    assert assets(s, "gloucester_2")["coin"] == coin + 3 + 1  # London: 3 Coin (table), +1


def test_l10_chamberlains_supply_does_not_deplete_his_vassals_seat_4_5_2() -> None:
    s = ia()
    from roses.games.plantagenet.components import load

    c = load()
    vid, seat = next((v, d["seat"]) for v, d in c.vassals.items() if v in s["vassals"])
    place(s, "somerset_1", seat, provender=0)
    s["favour"][seat] = "Lancaster"
    s["exhaustion"].pop(seat, None)
    s["lords"]["somerset_1"]["mat"]["vassals"].append(vid)
    s["vassals"][vid].update(where=VassalWhere.MAT, lord="somerset_1")
    deploy(s, "somerset_1", "L10")
    activate(s, "somerset_1")
    act(s, "supply", seat)
    assert seat not in s["exhaustion"] and assets(s, "somerset_1")["provender"] > 0
    ok(s)


# ----- Command actions changed by Events in effect (4.3, 4.6.1, 4.6.4) -----------------------------
def test_y6_seamanship_event_sail_after_another_action_for_one_action_4_6_1() -> None:
    s = ia()
    s["favour"].update({"Bristol": "York"})
    place(s, "march", "Bristol", provender=0, ships=2, carts=0)
    activate(s, "march", 3)
    act(s, "forage")
    assert verbs(s, "sail") == []  # 4.6.1: Sail takes the whole card, so only as its first action
    in_effect(s, "Y6")
    assert verbs(s, "sail")
    dest = verbs(s, "sail")[0]
    act(s, "sail", dest)
    frame = next(f for f in reversed(s["stack"]) if f["step"] == "actions") if s["stack"] else None
    assert s["lords"]["march"]["locale"] == dest
    assert frame is not None and frame["left"] == 1  # 3 - Forage - Sail
    ok(s)


def test_l6_seamanship_is_the_lancastrians_own_4_6_1() -> None:
    """L6 Seamanship: a Lancastrian Sail costs 1 Command action (so it may follow another
    action); the Yorkists gain nothing from it (4.6.1; RULINGS R71 a)."""
    s = ia()
    s["favour"].update({"Bristol": "York"})
    place(s, "march", "Bristol", provender=0, ships=2, carts=0)
    in_effect(s, "L6")  # the Lancastrian card does not help a Yorkist
    activate(s, "march", 3)
    act(s, "forage")
    assert verbs(s, "sail") == []
    s = ia()
    s["favour"].update({"Bristol": "Lancaster"})
    place(s, "somerset_1", "Bristol", provender=0, ships=2, carts=0)
    in_effect(s, "L6")
    activate(s, "somerset_1", 3)
    act(s, "forage")
    dest = verbs(s, "sail")[0]
    act(s, "sail", dest)
    frame = next((f for f in reversed(s["stack"]) if f["step"] == "actions"), None)
    assert s["lords"]["somerset_1"]["locale"] == dest and frame is not None and frame["left"] == 1
    ok(s)


def test_l21_french_fleet_event_no_yorkist_sail_this_campaign_4_6_1() -> None:
    s = ia()
    s["favour"].update({"Bristol": "York"})
    place(s, "march", "Bristol", provender=0, ships=2, carts=0)
    activate(s, "march")
    assert verbs(s, "sail")
    in_effect(s, "L21")
    assert verbs(s, "sail") == []
    assert not RULES.steps["actions"].is_legal(s, s["stack"][-1], "York", "sail", "Irish Sea")


def test_y25_owain_glyndwr_event_no_lancastrian_march_into_wales_4_3() -> None:
    from roses.games.plantagenet.components import load

    c = load()
    s = ia()
    here, dest = next((a, b) for a, nbrs in c.adjacency.items() for b in nbrs
                      if c.locales[a]["kind"] == "stronghold" and c.locales[a]["area"] != "Wales"
                      and c.locales[b]["kind"] == "stronghold" and c.locales[b]["area"] == "Wales")
    place(s, "somerset_1", here)
    activate(s, "somerset_1")
    assert dest in verbs(s, "march")
    in_effect(s, "Y25")
    assert dest not in verbs(s, "march")
    assert not RULES.steps["actions"].is_legal(s, s["stack"][-1], "Lancaster", "march", dest)
    place(s, "york", here)  # a Yorkist still may
    activate(s, "york")
    assert dest in verbs(s, "march")


def test_l10_new_act_event_yorkist_parley_takes_the_whole_card_4_6_4() -> None:
    """L10 New Act of Parliament: a Yorkist Parley uses up the whole Command card (4.6.4, 4.2.1;
    RULINGS R71)."""
    s = ia()
    place(s, "york", "Ely")
    s["favour"].pop("Cambridge", None)
    activate(s, "york", 3)
    assert "Cambridge" in verbs(s, "parley")
    in_effect(s, "L10")
    act(s, "parley", "Cambridge")
    boost = s["stack"][-1]
    assert boost["step"] == "boost"
    rng.rig(s, [1])
    act(s, "spend", 0)
    assert all(f["step"] != "actions" or f["left"] == 0 for f in s["stack"])
    ok(s)


def test_l8_hay_wains_capability_carts_count_twice_to_haul_4_3_2() -> None:
    """L8 Hay Wains: 1 Cart Hauls 2 Provender on a March (4.3.2); without it the second is discarded."""
    s = ia()
    s["favour"].update({"London": "Lancaster", "Oxford": "Lancaster"})
    place(s, "somerset_1", "London", provender=2, carts=1)
    deploy(s, "somerset_1", "L8")
    activate(s, "somerset_1")
    act(s, "march", "Oxford")
    assert s["lords"]["somerset_1"]["locale"] == "Oxford" and assets(s, "somerset_1")["provender"] == 2
    s = ia()
    s["favour"].update({"London": "Lancaster", "Oxford": "Lancaster"})
    place(s, "somerset_1", "London", provender=2, carts=1)
    activate(s, "somerset_1")
    act(s, "march", "Oxford")
    assert assets(s, "somerset_1")["provender"] == 1


def test_y14_burgundians_capability_after_a_campaign_march_to_a_port_1_6() -> None:
    """Y14 Burgundians: once, when the Lord is at a Port, 2 Handgunners; a March into a Port
    Stronghold brings them at once (the Campaign's moves announce arrivals to the cards)."""
    from roses.games.plantagenet.components import load

    c = load()
    s = ia()
    here, port = next((a, b) for a, nbrs in c.adjacency.items() for b in nbrs
                      if c.locales[a]["kind"] == "stronghold" and not c.locales[a]["port"]
                      and c.locales[b]["kind"] == "stronghold" and c.locales[b]["port"])
    place(s, "york", here)
    s["favour"].update({here: "York", port: "York"})
    deploy(s, "york", "Y14")
    assert s["lords"]["york"]["mat"]["troops"]["handgunners"] == 0
    activate(s, "york")
    act(s, "march", port)
    assert s["lords"]["york"]["locale"] == port
    assert s["lords"]["york"]["mat"]["troops"]["handgunners"] == 2
    ok(s)


def _road_chain() -> tuple[str, str, str]:
    """Three Strongholds A-B-C joined by Roads (A-C not adjacent)."""
    from roses.games.plantagenet.components import load

    c = load()
    sh = {loc for loc, d in c.locales.items() if d["kind"] == "stronghold"}
    for a in sorted(sh):
        for b, w in c.adjacency[a].items():
            if w != "Road" or b not in sh:
                continue
            for cc, w2 in c.adjacency[b].items():
                if w2 == "Road" and cc in sh and cc != a and cc not in c.adjacency[a]:
                    return a, b, cc
    raise AssertionError("no Road chain")


def test_y11_never_wait_capability_road_as_highway_alone_4_3_3() -> None:
    """Y11 Yorkists Never Wait: a Lord Marching alone treats Roads as Highways, so a Road March
    is followed by a free second one (4.3.3); without the card the second costs an action."""
    a, b, cc = _road_chain()
    s = ia()
    place(s, "york", a)
    deploy(s, "york", "Y11")
    activate(s, "york", 1)
    act(s, "march", b)
    assert cc in verbs(s, "march")  # free: no action left, yet a second March is open
    act(s, "march", cc)
    assert s["lords"]["york"]["locale"] == cc
    s = ia()
    place(s, "york", a)
    activate(s, "york", 1)
    act(s, "march", b)
    assert s["lords"]["york"]["locale"] == b and all(f["step"] != "actions" for f in s["stack"])


def test_l8_forced_marches_event_lancastrian_alone_roads_as_highways_4_3_3() -> None:
    a, b, cc = _road_chain()
    s = ia()
    place(s, "somerset_1", a)
    in_effect(s, "L8")
    activate(s, "somerset_1", 1)
    act(s, "march", b)
    assert cc in verbs(s, "march")
    s = ia()  # a Yorkist is not helped by the Lancastrian Event
    place(s, "york", a)
    in_effect(s, "L8")
    activate(s, "york", 1)
    act(s, "march", b)
    assert all(f["step"] != "actions" for f in s["stack"])


def test_y11_never_wait_not_for_a_group_4_3_3() -> None:
    a, b, cc = _road_chain()
    s = ia()
    place(s, "york", a)
    place(s, "march", a)
    deploy(s, "york", "Y11")
    activate(s, "york", 1)
    act(s, "march", b)
    assert ("take", "march") in options(s)
    act(s, "take", "march")
    act(s, "go")
    assert s["lords"]["march"]["locale"] == b
    assert all(f["step"] != "actions" for f in s["stack"])  # a Group: the Road stays a Road


def test_y30_captain_capability_marshal_when_alone_with_unranked_lords_4_3_1() -> None:
    """Y30 Captain: Pembroke (no ring) counts as a Marshal where no Friendly Marshal or
    Lieutenant is with him: he may take any Lord there as a Group; not where one is."""
    from roses.games.plantagenet.campaign import group_candidates

    s = setup_state(3, "ii-warwicks-rebellion")
    s["stack"] = []
    where = next(loc for loc in ("Oxford", "Coventry", "Exeter", "Bristol") if not sv.lords_at(s, loc))
    place(s, "pembroke", where)
    place(s, "northumberland_y1", where)
    assert group_candidates(s, "pembroke") == []
    deploy(s, "pembroke", "Y30")
    assert group_candidates(s, "pembroke") == ["northumberland_y1"]
    from roses.games.plantagenet.components import load

    ranked = next(lid for lid in s["lords"] if sv.side_of(lid) == "York" and load().lords[lid]["ring"])
    place(s, ranked, where)
    assert group_candidates(s, "pembroke") == []  # a Friendly Marshal or Lieutenant is with him


def _hold(s: State, cid: str) -> None:
    side = _take(s, cid)
    s["aow"][side]["held"].append(cid)


def _march_to_port(s: State, lord: str) -> str:
    """Place ``lord`` next to a Port Stronghold (both Friendly) and March him there."""
    from roses.games.plantagenet.components import load

    c = load()
    here, port = next((a, b) for a, nbrs in c.adjacency.items() for b in nbrs
                      if c.locales[a]["kind"] == "stronghold" and not c.locales[a]["port"]
                      and c.locales[b]["kind"] == "stronghold" and c.locales[b]["port"])
    side = sv.side_of(lord)
    s["favour"].update({here: side, port: side})
    place(s, lord, here, provender=0)
    activate(s, lord, 1)
    act(s, "march", port)
    return port


def test_l28_rebel_supply_depot_event_after_march_to_a_port_4_provender_no_feed_4_7() -> None:
    """L28 Rebel Supply Depot, played by its holder right after a March to a Port: 4 Provender,
    and the Lord's next Feed is skipped (RULINGS R74)."""
    s = ia()
    _hold(s, "L28")
    port = _march_to_port(s, "somerset_1")
    assert s["stack"][-1]["step"] == "react" and ("play", "L28") in options(s)
    act(s, "play", "L28")
    assert s["lords"]["somerset_1"]["locale"] == port and assets(s, "somerset_1")["provender"] == 4
    assert "L28" in s["aow"]["Lancaster"]["deck"] and s["cards"]["skip_feed"] == ["somerset_1"]
    run_frames(s, {"step": "feed", "side": "Lancaster"})  # Moved, but this Feed is skipped
    assert assets(s, "somerset_1")["provender"] == 4 and s["cards"]["skip_feed"] == []
    ok(s)


def test_l28_rebel_supply_depot_window_pass_changes_nothing_4_7() -> None:
    s = ia()
    _hold(s, "L28")
    _march_to_port(s, "somerset_1")
    assert s["stack"][-1]["step"] == "react"
    act(s, "pass")
    assert "L28" in s["aow"]["Lancaster"]["held"] and assets(s, "somerset_1")["provender"] == 0
    assert not s.get("cards", {}).get("skip_feed")


def test_l28_window_not_offered_to_yorkists_nor_without_held_cards_3_1_3() -> None:
    s = ia()
    _march_to_port(s, "york")
    assert all(f["step"] != "react" for f in s["stack"])
    s = ia()
    _march_to_port(s, "somerset_1")  # Lancaster holds no Event: no pause
    assert all(f["step"] != "react" for f in s["stack"])


def test_l33_surprise_landing_event_free_march_after_sail_to_a_port_4_6_1() -> None:
    """L33 Surprise Landing: after the Sail (which spends the card, 4.6.1) the Lord may take one
    free March action, and nothing else (RULINGS R75)."""
    s = ia()
    s["favour"].update({"Bristol": "Lancaster", "Harlech": "Lancaster"})
    place(s, "somerset_1", "Harlech", provender=0, ships=2, carts=0)
    _hold(s, "L33")
    activate(s, "somerset_1", 2)
    assert "Bristol" in verbs(s, "sail")
    act(s, "sail", "Bristol")
    assert s["lords"]["somerset_1"]["locale"] == "Bristol"
    assert s["stack"][-1]["step"] == "react" and s["stack"][-1]["window"] == "surprise_landing"
    act(s, "play", "L33")
    assert {v for v, _a in options(s)} == {"march", "pass"}
    dest = verbs(s, "march")[0]
    act(s, "march", dest)
    assert s["lords"]["somerset_1"]["locale"] == dest
    ok(s)


@pytest.mark.parametrize("port", ["Harlech", "Pembroke"])
def test_l33_surprise_landing_not_offered_where_no_march_can_follow_4_3_4_6_1(port: str) -> None:
    """L33 Surprise Landing gives one March; after a Sail (the card's first action) a Path may
    not be Marched (4.3, Path only as a card's first action), and Harlech and Pembroke have
    only Paths: the card could do nothing there, so it is not offered (RULINGS R75)."""
    s = ia()
    s["favour"].update({"Bristol": "Lancaster", port: "Lancaster"})
    place(s, "somerset_1", "Bristol", provender=0, ships=2, carts=0)
    _hold(s, "L33")
    activate(s, "somerset_1", 2)
    assert port in verbs(s, "sail")
    act(s, "sail", port)
    assert s["lords"]["somerset_1"]["locale"] == port
    assert all(not (f["step"] == "react" and f["window"] == "surprise_landing") for f in s["stack"])
    assert "L33" in s["aow"]["Lancaster"]["held"]
    ok(s)


def test_l33_surprise_landing_pass_ends_the_card_4_6_1() -> None:
    s = ia()
    s["favour"].update({"Bristol": "Lancaster", "Harlech": "Lancaster"})
    place(s, "somerset_1", "Harlech", provender=0, ships=2, carts=0)
    _hold(s, "L33")
    activate(s, "somerset_1", 2)
    act(s, "sail", "Bristol")
    act(s, "pass")
    assert all(f["step"] != "actions" for f in s["stack"]) and "L33" in s["aow"]["Lancaster"]["held"]


def test_y10_agitators_capability_deplete_a_neutral_stronghold_next_to_him_1_3_1() -> None:
    """Y10 Agitators: one Command action Depletes a Neutral or Enemy Stronghold next to the Lord,
    a second one Exhausts it; never a Friendly one, nor an Exhausted one (RULINGS R76)."""
    s = ia()
    place(s, "york", "Ely")
    s["favour"].pop("Cambridge", None)
    s["favour"]["Peterborough"] = "York"
    activate(s, "york", 3)
    assert verbs(s, "agitate") == []  # without the card
    deploy(s, "york", "Y10")
    targets = verbs(s, "agitate")
    assert "Cambridge" in targets and "Peterborough" not in targets
    act(s, "agitate", "Cambridge")
    assert s["exhaustion"]["Cambridge"] == "depleted"
    act(s, "agitate", "Cambridge")
    assert s["exhaustion"]["Cambridge"] == "exhausted"
    assert "Cambridge" not in verbs(s, "agitate")
    ok(s)


def test_l30_merchants_capability_removes_two_markers_on_a_successful_check_1_3_1() -> None:
    """L30 Merchants: one Command action and an Influence check (with the usual extra points,
    1.4.2); success removes two Depleted/Exhausted markers at or next to Warwick (RULINGS R77)."""
    from roses.games.plantagenet.campaign import tables

    s = setup_state(3, "ii-warwicks-rebellion")
    s["stack"] = []
    s["first_turn"] = False
    where = next(loc for loc in ("Oxford", "Coventry", "Exeter", "Bristol") if not sv.lords_at(s, loc))
    place(s, "warwick_l", where)
    s["exhaustion"] = {}
    near = list(tables().near[where])
    s["exhaustion"].update({where: "exhausted", near[0]: "depleted"})
    deploy(s, "warwick_l", "L30")
    activate(s, "warwick_l", 2)
    choices = verbs(s, "merchants")
    assert len(choices) == 1 and set(choices[0].split("+")) == {where, near[0]}
    act(s, "merchants", choices[0])
    assert s["stack"][-1]["step"] == "boost"
    rng.rig(s, [1])
    act(s, "spend", 0)
    assert where not in s["exhaustion"] and near[0] not in s["exhaustion"]
    ok(s)


def test_l30_merchants_failed_check_leaves_the_markers_1_4_2() -> None:
    s = setup_state(3, "ii-warwicks-rebellion")
    s["stack"] = []
    s["first_turn"] = False
    where = next(loc for loc in ("Oxford", "Coventry", "Exeter", "Bristol") if not sv.lords_at(s, loc))
    place(s, "warwick_l", where)
    s["exhaustion"] = {where: "depleted"}
    deploy(s, "warwick_l", "L30")
    activate(s, "warwick_l", 2)
    assert verbs(s, "merchants") == [where]
    act(s, "merchants", where)
    rng.rig(s, [6])  # a 6 always fails (1.4.2)
    act(s, "spend", 0)
    assert s["exhaustion"] == {where: "depleted"}


def test_y8_exile_pact_event_yorkist_to_a_friendly_exile_box_for_one_action_4_2_2() -> None:
    """Y8 Exile Pact in effect: a Yorkist Lord spends one Command action to go to a Friendly
    Exile box (in Ia, York's by the Allied Networks: Ireland), no Influence spent; never a
    Lancastrian box (RULINGS R78)."""
    s = ia()
    place(s, "york", "Ely")
    activate(s, "york", 2)
    assert verbs(s, "exile_pact") == []
    in_effect(s, "Y8")
    assert verbs(s, "exile_pact") == ["Ireland"]
    inf = s["influence"]
    act(s, "exile_pact", "Ireland")
    d = s["lords"]["york"]
    assert d["where"] == Where.MAP and d["locale"] == "Ireland" and s["influence"] == inf
    assert s["stack"][-1]["left"] == 1
    ok(s)


@pytest.mark.parametrize("scenario", ["ia-henry-vi", "wars-of-the-roses"])
def test_y8_exile_pact_only_to_the_allied_network_box_1_3_1_3_3_1(scenario: str) -> None:
    """Y8 Exile Pact with the Allied Networks of Ia and War I (1.3.1, 3.3.1: each badge's one
    Exile box): York may go only to Ireland and March only to Burgundy (RULINGS R78)."""
    s = RULES.setup(3, scenario)
    s["stack"] = []
    in_effect(s, "Y8")
    for lord, box in (("york", "Ireland"), ("march", "Burgundy")):
        place(s, lord, "Ely")
        activate(s, lord, 2)
        assert verbs(s, "exile_pact") == [box] == sv.exile_boxes_for(s, lord)
        act(s, "exile_pact", box)
        assert s["lords"][lord]["locale"] == box
        s["stack"] = []


def test_y8_exile_pact_not_for_lancastrians_4_2_2() -> None:
    s = ia()
    place(s, "somerset_1", "London")
    in_effect(s, "Y8")
    activate(s, "somerset_1", 2)
    assert verbs(s, "exile_pact") == []


# ----- Y12/L20 Parliament's Truce, Y2/L2 Flank Attack, L15 King's Parley (4.3.4, 4.3.5) ---------------
def _find(s: State, step: str) -> dict[str, Any] | None:
    return next((f for f in reversed(s["stack"]) if f["step"] == step), None)


def _march_into_henry(s: State) -> State:
    """York at Ely Marches to Cambridge, where Henry VI is: an Approach (4.3.5)."""
    place(s, "york", "Ely")
    place(s, "henry_vi", "Cambridge")
    activate(s, "york", 3)
    return act(s, "march", "Cambridge")


def test_y12_parliaments_truce_held_event_in_own_actions_no_approach_no_intercept_4_3_4_4_3_5() -> None:
    """Y12 Parliament's Truce, played in the holder's own Command actions: for the rest of the
    Campaign no March may Approach and no Intercept is offered, to either side (RULINGS R79)."""
    s = ia()
    _hold(s, "Y12")
    place(s, "york", "London")
    place(s, "henry_vi", "St Albans")
    place(s, "exeter_1", "Bedford")  # Highway to St Albans
    activate(s, "york", 3)
    assert "St Albans" in verbs(s, "march") and ("event", "Y12") in options(s)
    act(s, "event", "Y12")
    assert "Y12" in s["aow"]["York"]["in_effect"] and "St Albans" not in verbs(s, "march")
    act(s, "march", "Guildford")
    assert _find(s, "intercept") is None and _find(s, "approach") is None
    ok(s)


def test_l20_parliaments_truce_at_the_approach_sends_the_approachers_back_4_3_5() -> None:
    """L20 Parliament's Truce played by the Approached side at the Approach: no Approach; the
    Marching Lords go back where they came from, still Moved (R79)."""
    s = ia()
    _hold(s, "L20")
    _march_into_henry(s)
    top = s["stack"][-1]
    assert top["step"] == "react" and top["window"] == "approach" and top["side"] == "Lancaster"
    act(s, "play", "L20")
    assert s["lords"]["york"]["locale"] == "Ely" and s["lords"]["york"]["where"] == Where.MAP
    assert _find(s, "approach") is None and s["battle"] is None
    assert "york" in s["moved"] and "L20" in s["aow"]["Lancaster"]["in_effect"]
    ok(s)


def test_l20_truce_at_the_approach_leaves_the_card_its_other_actions_4_3_5() -> None:
    """Parliament's Truce says only "No Approach and no Intercept for the rest of this Campaign";
    4.3.5 skips a card's remaining actions after an Exile or a Battle, and neither happens. So the
    Marching Lord, back where he came from, goes on with his card's other actions (unlike L15
    King's Parley, whose text ends the card; RULINGS R79)."""
    s = ia()
    _hold(s, "L20")
    _march_into_henry(s)  # York at Ely, 3 actions: the March into Cambridge spends one
    act(s, "play", "L20")
    top = s["stack"][-1]
    assert top["step"] == "actions" and top["lord"] == "york" and top["left"] == 2 and top["highway"] is None
    assert RULES.active(s) == ["York"]
    marches = verbs(s, "march")
    assert marches and "Cambridge" not in marches  # no Approach while the Truce is in effect
    act(s, "march", marches[0])
    assert s["lords"]["york"]["locale"] == marches[0] and s["stack"][-1]["left"] == 1
    ok(s)


def test_y12_truce_at_an_intercept_into_enemy_lords_leaves_the_card_its_other_actions_4_3_4() -> None:
    """The Truce played against an Intercept of a March into Enemy Lords: no Intercept, no
    Approach, the Marching Lord goes back, and his card goes on (RULINGS R79)."""
    s = ia()
    _hold(s, "Y12")
    place(s, "york", "London")
    place(s, "henry_vi", "St Albans")
    place(s, "exeter_1", "Bedford")
    activate(s, "york", 3)
    act(s, "march", "St Albans")
    act(s, "intercept", "exeter_1")
    act(s, "play", "Y12")
    assert s["lords"]["york"]["locale"] == "London" and s["battle"] is None
    top = s["stack"][-1]
    assert top["step"] == "actions" and top["lord"] == "york" and top["left"] == 2 and top["highway"] is None
    assert "St Albans" not in verbs(s, "march")
    ok(s)


def test_truce_window_pass_lets_the_approach_go_on_4_3_5() -> None:
    s = ia()
    _hold(s, "L20")
    _march_into_henry(s)
    act(s, "pass")
    ap = _find(s, "approach")
    assert ap is not None and ap["from"] == "Ely" and RULES.active(s) == ["Lancaster"]
    assert "L20" in s["aow"]["Lancaster"]["held"]


def test_y12_truce_at_an_intercept_cancels_it_4_3_4() -> None:
    """The Marching side may answer an Intercept with Parliament's Truce: it does not happen."""
    s = ia()
    _hold(s, "Y12")
    place(s, "york", "London")
    place(s, "exeter_1", "Bedford")
    activate(s, "york", 1)
    act(s, "march", "St Albans")
    act(s, "intercept", "exeter_1")
    top = s["stack"][-1]
    assert top["step"] == "react" and top["window"] == "intercept" and top["side"] == "York"
    act(s, "play", "Y12")
    assert s["lords"]["exeter_1"]["locale"] == "Bedford" and s["lords"]["york"]["locale"] == "St Albans"
    assert _find(s, "approach") is None and "exeter_1" not in s["moved"]
    ok(s)


@pytest.mark.parametrize(("card", "marcher", "interceptor"), [("L2", "march", "henry_vi"), ("Y2", "somerset_1", "york")])
def test_y2_l2_flank_attack_intercept_without_roll_and_the_interceptor_attacks_4_3_4(
        card: str, marcher: str, interceptor: str) -> None:
    """Y2 and L2 Flank Attack: the Intercept succeeds with no roll (Henry VI, Valour 0, can do it)
    and the Intercepting side is the Attacker in the Battle that follows (RULINGS R80)."""
    s = ia()
    side, foe = sv.side_of(interceptor), sv.side_of(marcher)
    _hold(s, card)
    s["favour"]["York"] = foe
    place(s, marcher, "York")
    place(s, interceptor, "Shrewsbury")  # Road to Chester
    activate(s, marcher, 2)
    act(s, "march", "Chester")
    assert RULES.active(s) == [side]
    assert ("flank", interceptor) in options(s) and ("intercept", interceptor) in options(s)
    rolls = s["rolls"]
    act(s, "flank", interceptor)
    assert s["rolls"] == rolls  # no die rolled
    assert s["lords"][interceptor]["locale"] == "Chester" and card in s["aow"][side]["deck"]
    ap = _find(s, "approach")
    assert ap is not None and ap["attacker"] == foe and ap["battle_attacker"] == side
    assert RULES.active(s) == [side]
    act(s, "fight", interceptor)
    assert s["battle"] is not None and s["battle"]["attacker"] == side
    assert s["battle"]["defender"] == foe


def test_flank_attack_not_offered_without_the_card_4_3_4() -> None:
    s = ia()
    place(s, "march", "York")
    place(s, "henry_vi", "Shrewsbury")
    activate(s, "march", 2)
    act(s, "march", "Chester")
    assert not verbs(s, "flank")


def test_l15_kings_parley_capability_cancels_a_yorkist_approach_to_henry_4_3_5() -> None:
    """L15 King's Parley: when Yorkists Approach Henry VI he may discard the card; the Approach is
    cancelled and their Command card ends (RULINGS R81)."""
    s = ia()
    place(s, "henry_vi", "Cambridge")
    deploy(s, "henry_vi", "L15")
    _march_into_henry(s)
    top = s["stack"][-1]
    assert top["step"] == "react" and top["side"] == "Lancaster" and ("use", "L15") in options(s)
    act(s, "use", "L15")
    assert s["lords"]["york"]["locale"] == "Ely" and _find(s, "approach") is None
    assert _find(s, "actions") is None and "L15" in s["aow"]["Lancaster"]["deck"]
    assert "L15" not in s["lords"]["henry_vi"]["mat"]["capabilities"]
    ok(s)


def test_l15_kings_parley_only_for_henry_approached_by_yorkists_4_3_5() -> None:
    s = ia()
    place(s, "henry_vi", "Cambridge")
    deploy(s, "henry_vi", "L15")
    place(s, "somerset_1", "Peterborough")
    place(s, "york", "Ely")
    activate(s, "york", 3)
    act(s, "march", "Peterborough")  # Somerset, not Henry, is Approached: no King's Parley
    assert all(f["step"] != "react" for f in s["stack"])


# ----- L29 High Admiral (4.6.1, 4.3.5) ---------------------------------------------------------------
def _admiral(s: State) -> State:
    s["favour"].update({"Bristol": "York", "Harlech": "Lancaster"})
    place(s, "exeter_1", "Harlech", provender=0, ships=2, carts=0)
    place(s, "york", "Bristol")
    return s


def test_l29_high_admiral_capability_sail_into_enemy_lords_is_an_approach_4_6_1_4_3_5() -> None:
    """L29 High Admiral: Exeter may Sail to a Port holding Enemy Lords; it is an Approach (no
    Intercept: that is for Marches, 4.3.4), which ends his card (RULINGS R82)."""
    s = _admiral(ia())
    activate(s, "exeter_1", 2)
    assert "Bristol" not in verbs(s, "sail")
    s = _admiral(ia())
    deploy(s, "exeter_1", "L29")
    activate(s, "exeter_1", 2)
    assert "Bristol" in verbs(s, "sail")
    act(s, "sail", "Bristol")
    ap = _find(s, "approach")
    assert ap is not None and ap["attacker"] == "Lancaster" and ap["attackers"] == ["exeter_1"]
    assert ap["from"] == "Harlech" and _find(s, "actions") is None and _find(s, "intercept") is None
    assert s["lords"]["exeter_1"]["locale"] == "Bristol" and RULES.active(s) == ["York"]
    ok(s)


def test_l29_high_admiral_not_under_parliaments_truce_4_6_1() -> None:
    s = _admiral(ia())
    deploy(s, "exeter_1", "L29")
    in_effect(s, "Y12")
    activate(s, "exeter_1", 2)
    assert "Bristol" not in verbs(s, "sail")


# ----- Y4 We done deeds of charity (4.8.1) -----------------------------------------------------------
def _tides_net(s: State) -> int:
    t = sv.tides_of_war(s)
    return sum(t["York"].values()) - sum(t["Lancaster"].values())


def test_y4_deeds_of_charity_capability_provender_for_influence_at_tides_of_war_4_8_1() -> None:
    """Y4 We done deeds of charity: at Tides of War the Lord may spend 1 or 2 Provender (Sharing
    allowed) for 1 Influence point apiece (RULINGS R83)."""
    s = ia()
    place(s, "york", "London", provender=1)
    place(s, "march", "London", provender=2)
    deploy(s, "york", "Y4")
    before, net = s["influence"], _tides_net(s)
    run_frames(s, {"step": "tides_of_war"})
    top = s["stack"][-1]
    assert top["step"] == "react" and top["window"] == "tides" and ("use", "Y4") in options(s)
    act(s, "use", "Y4")
    assert verbs(s, "spend") == [1, 2]
    act(s, "spend", 2)
    assert assets(s, "york")["provender"] == 0 and assets(s, "march")["provender"] == 1  # his own first
    assert s["influence"] == before + net + 2 and s["stack"] == []
    assert any("We done deeds of charity 2" in str(line) for line in s["log"][-3:])
    ok(s)


def test_y4_deeds_of_charity_pass_or_no_provender_4_8_1() -> None:
    s = ia()
    place(s, "york", "London", provender=2)
    deploy(s, "york", "Y4")
    before, net = s["influence"], _tides_net(s)
    run_frames(s, {"step": "tides_of_war"})
    act(s, "pass")
    assert s["influence"] == before + net and assets(s, "york")["provender"] == 2
    s = ia()
    place(s, "york", "London", provender=0)
    deploy(s, "york", "Y4")
    run_frames(s, {"step": "tides_of_war"})  # nothing to spend: no pause
    assert s["stack"] == []


def test_y4_deeds_of_charity_with_hidden_mats_asks_whatever_the_mat_holds_4_8_1_r50() -> None:
    """With Hidden Mats the Yorkists are asked how much to spend whatever the Provender, and may
    spend nothing: the other side sees the same wait and the same prompt (RULINGS R83, R50)."""
    seen = []
    for provender in (0, 2):
        s = ia()
        s["options"]["hidden_mats"] = True
        place(s, "york", "London", provender=provender)
        deploy(s, "york", "Y4")
        before, net = s["influence"], _tides_net(s)
        run_frames(s, {"step": "tides_of_war"})
        act(s, "use", "Y4")
        assert RULES.active(s) == ["York"]
        assert verbs(s, "spend") == [0, 1, 2][:provender + 1]
        seen.append(canonical_json([RULES.active(s), RULES.view(s, "Lancaster"), RULES.view(s, OBSERVER)]))
        act(s, "spend", 0)
        assert s["influence"] == before + net and assets(s, "york")["provender"] == provender
        assert "spends no Provender" in str(s["log"][-2:])
        ok(s)
    assert seen[0] == seen[1]


# ----- L4 Heralds (4.2.2, 1.4.2) ---------------------------------------------------------------------
def test_l4_heralds_capability_whole_card_check_moves_a_cylinder_to_the_next_turn_1_4_2() -> None:
    """L4 Heralds: at a Port, the whole card on an Influence check; success moves one Lord cylinder
    on the Calendar to the next Turn's box (RULINGS R84)."""
    s = ia(box=2)  # Henry VI, Somerset, York and March are in box 9
    s["favour"]["Bristol"] = "Lancaster"
    place(s, "exeter_1", "Bristol")
    deploy(s, "exeter_1", "L4")
    activate(s, "exeter_1", 3)
    targets = verbs(s, "heralds")
    assert "somerset_1" in targets and "york" in targets
    act(s, "heralds", "somerset_1")
    assert s["stack"][-1]["step"] == "boost"
    rng.rig(s, [1])
    act(s, "spend", 0)
    assert s["lords"]["somerset_1"]["box"] == 3 and _find(s, "actions") is None
    ok(s)


def test_l4_heralds_only_at_a_port_and_as_the_first_action_4_2_2() -> None:
    s = ia(box=2)
    s["favour"]["Oxford"] = "Lancaster"
    place(s, "exeter_1", "Oxford")  # not a Port
    deploy(s, "exeter_1", "L4")
    activate(s, "exeter_1", 3)
    assert not verbs(s, "heralds")
    s = ia(box=2)
    s["favour"]["Bristol"] = "Lancaster"
    place(s, "exeter_1", "Bristol")
    deploy(s, "exeter_1", "L4")
    activate(s, "exeter_1", 3)
    s["stack"][-1]["used"] = 1
    assert not verbs(s, "heralds")


def test_l4_heralds_failed_check_moves_nothing_1_4_2() -> None:
    s = ia(box=2)
    s["favour"]["Bristol"] = "Lancaster"
    place(s, "exeter_1", "Bristol")
    deploy(s, "exeter_1", "L4")
    activate(s, "exeter_1", 3)
    act(s, "heralds", "york")
    rng.rig(s, [6])
    act(s, "spend", 0)
    assert s["lords"]["york"]["box"] == 9


# ----- Y15 Naval Blockade on Campaign actions (4.5, 4.6.1) -------------------------------------------
def _blockade(s: State) -> State:
    place(s, "warwick_y", "Dover")
    deploy(s, "warwick_y", "Y15")
    s["favour"]["Southampton"] = "Lancaster"
    place(s, "somerset_1", "Southampton", provender=0, ships=1, carts=0)
    return activate(s, "somerset_1", 2)


def test_y15_naval_blockade_capability_cancels_a_lancastrian_sail_on_its_sea_unless_1_2_4_6_1() -> None:
    """Y15 Naval Blockade (Warwick at a Port): a Lancastrian Sail from or to a Port of that Sea
    happens only on a roll of 1-2; otherwise the Sail's cost is spent (RULINGS R57, R85)."""
    s = _blockade(ia())
    dest = next(p for p in verbs(s, "sail") if p != "English Channel")
    rng.rig(s, [4])
    act(s, "sail", dest)
    assert s["lords"]["somerset_1"]["locale"] == "Southampton" and _find(s, "actions") is None
    s = _blockade(ia())
    rng.rig(s, [2])
    act(s, "sail", dest)
    assert s["lords"]["somerset_1"]["locale"] == dest
    ok(s)


def test_y15_naval_blockade_cancels_supply_by_ship_on_its_sea_4_5_1() -> None:
    s = _blockade(ia())
    assert "Southampton:ships" in verbs(s, "supply")
    rng.rig(s, [3])
    act(s, "supply", "Southampton:ships")
    assert assets(s, "somerset_1")["provender"] == 0 and s["stack"][-1]["left"] == 1
    rng.rig(s, [1])
    act(s, "supply", "Southampton:ships")
    assert assets(s, "somerset_1")["provender"] == 1


# ----- Y6/L6 Great Ships (4.6.1, 4.5.1, 1.3.1) ------------------------------------------------------
def _mariner(s: State, great: bool, card: str = "L6") -> State:
    """The Lord of ``card``'s side (Somerset or March) at Southampton with 10 Forces and one
    Ship; with ``great`` he has the Great Ships Capability ``card``."""
    side = "Lancaster" if card[0] == "L" else "York"
    lord = "somerset_1" if side == "Lancaster" else "march"
    s["favour"]["Southampton"] = side
    place(s, lord, "Southampton", provender=0, ships=1, carts=0)
    set_troops(s, lord, militia=9)  # 10 Forces with the Retinue: two Ships' worth (4.6.1)
    if great:
        deploy(s, lord, card)
    return s


@pytest.mark.parametrize(("card", "lord"), [("L6", "somerset_1"), ("Y6", "march")])
def test_l6_great_ships_capability_ships_count_twice_for_sail_4_6_1(card: str, lord: str) -> None:
    """Y6/L6 Great Ships: the Lord's Ships count twice for Sail: one Ship carries 12 Forces
    (RULINGS R86)."""
    s = activate(_mariner(ia(), False, card), lord, 2)
    assert not verbs(s, "sail")
    s = activate(_mariner(ia(), True, card), lord, 2)
    dest = next(p for p in verbs(s, "sail") if p != "English Channel")
    act(s, "sail", dest)
    assert s["lords"][lord]["locale"] == dest
    ok(s)


@pytest.mark.parametrize(("card", "lord"), [("L6", "somerset_1"), ("Y6", "march")])
def test_l6_great_ships_count_twice_for_supply_by_ship_4_5_1(card: str, lord: str) -> None:
    """Y6/L6 Great Ships: the Lord's Ships count twice for Supply by Ship (4.5.2)."""
    s = activate(_mariner(ia(), False, card), lord, 2)
    assert sv.supply_choices(s, lord)["Southampton:ships"]["amount"] == 1
    s = activate(_mariner(ia(), True, card), lord, 2)
    assert sv.supply_choices(s, lord)["Southampton:ships"]["amount"] == 2


@pytest.mark.parametrize(("card", "lord"), [("Y6", "march"), ("L6", "somerset_1")])
def test_y6_great_ships_link_every_port_of_every_sea_for_routes_1_3_1(card: str, lord: str) -> None:
    """Y6/L6 Great Ships: every Port of every Sea is one Way from the Lord's Port for Parley, Supply and
    Tax Routes (RULINGS R86)."""
    from roses.games.plantagenet.components import load

    c = load()
    side = sv.side_of(lord)
    here_sea = c.sea_of("Southampton")
    far = [p for p in c.ports() if c.sea_of(p) != here_sea]
    s = _mariner(ia(), False, card)
    plain = sv.route_tree(s, side, "Southampton", lord=lord, ships=True)
    s = _mariner(ia(), True, card)
    great = sv.route_tree(s, side, "Southampton", lord=lord, ships=True)
    for p in far:
        ways = great[0].get(p, great[1].get(p))
        assert ways == 1, p
    assert any(plain[0].get(p, plain[1].get(p)) != 1 for p in far)
    targets = sv.parley_targets(s, lord, campaign=True)
    assert {p for p in far if not sv.is_friendly(s, p, side)} <= set(targets)
    s["favour"].update({p: side for p in far})
    assert {f"{p}:ships" for p in far} <= set(sv.supply_choices(s, lord))


def test_y29_dorset_event_devons_parley_from_exeter_asks_no_points_4_6_4() -> None:
    """Y29 Dorset in effect: Devon's Campaign Parley from Exeter costs nothing and succeeds, so no
    extra Influence points are asked for (1.4.2)."""
    s = setup_state(3, "ii-warwicks-rebellion")
    s["stack"] = []
    s["first_turn"] = False
    s["favour"]["Exeter"] = "York"
    place(s, "devon", "Exeter")
    in_effect(s, "Y29")
    activate(s, "devon", 2)
    target = verbs(s, "parley")[0]
    before, was = s["influence"], sv.favour(s, target)
    act(s, "parley", target)
    assert s["stack"][-1]["step"] == "actions" and s["influence"] == before
    assert sv.favour(s, target) == (None if was == "Lancaster" else "York")  # one step toward York
    ok(s)


def test_y12_truce_at_an_intercept_also_stops_the_approach_there_4_3_5() -> None:
    """A March into Enemy Lords draws an Intercept; the Truce played against it also forbids the
    Approach: the Marching Lord goes back where he came from (RULINGS R79)."""
    s = ia()
    _hold(s, "Y12")
    place(s, "york", "London")
    place(s, "henry_vi", "St Albans")
    place(s, "exeter_1", "Bedford")
    activate(s, "york", 1)
    act(s, "march", "St Albans")
    act(s, "intercept", "exeter_1")
    act(s, "play", "Y12")
    assert s["lords"]["york"]["locale"] == "London" and s["lords"]["exeter_1"]["locale"] == "Bedford"
    assert _find(s, "approach") is None and s["battle"] is None and _find(s, "actions") is None
    ok(s)
