"""Levy (3.1, 3.3, 3.4): Arts of War, Exiles and Vassals, Muster actions; hidden information."""

from __future__ import annotations

from typing import Any

import pytest

from roses.engine import rng
from roses.engine.contract import canonical_json
from roses.engine.errors import CannotUndo, IllegalAction
from roses.engine.fuzz import _view_problems
from roses.engine.game import Game
from roses.games.plantagenet import RULES, arts
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.levy import levy_frames, troops_in_use
from roses.games.plantagenet.records import VassalWhere, Where
from roses.games.plantagenet.rules import current_step
from roses.games.plantagenet.setup import setup_state

from .helpers import act, options, place, run_frames, to_calendar

State = dict[str, Any]


def _fresh(scenario: str) -> State:
    """The scenario as set up (6.0), before the first Levy's draw, with no stack."""
    s = setup_state(3, scenario)
    s["stack"] = []
    assert RULES.check_invariants(s) == []
    return s


def _ia(box: int = 1) -> State:
    s = _fresh("ia-henry-vi")
    s["box"] = box
    s["first_turn"] = box == 1
    return s


def _drawn(s: State, side: str, *cards: str) -> None:
    for cid in cards:
        s["aow"][side]["deck"].remove(cid)
        s["aow"][side]["drawn"].append(cid)


def _muster(s: State, side: str, lord: str) -> State:
    """Run ``side``'s Muster and pick ``lord`` to act."""
    run_frames(s, {"step": "muster", "side": side})
    act(s, "lord", lord)
    return s


# ----- 3.1 Arts of War -------------------------------------------------------------------------
def test_draw_shuffles_unused_cards_only_and_counts_as_a_roll_3_1_1() -> None:
    s = _ia(2)
    zones = s["aow"]["York"]
    for cid, zone in (("Y1", "held"), ("Y4", "in_effect")):
        zones["deck"].remove(cid)
        zones[zone].append(cid)
    s["lords"]["york"]["mat"]["capabilities"].append("Y5")
    zones["deck"].remove("Y5")
    rolls = s["rolls"]
    got = arts.draw(s, "York", 2)
    assert len(got) == 2 and not {"Y1", "Y4", "Y5"} & set(got)
    assert zones["drawn"] == got and not set(got) & set(zones["deck"])
    assert s["rolls"] == rolls + 1
    assert zones["deck"] == sorted(zones["deck"], key=lambda c: int(c[1:]))  # no order is kept (3.1.1)


def test_first_levy_capabilities_owner_chooses_the_lord_3_1_2() -> None:
    s = _ia()
    _drawn(s, "York", "Y7", "Y19")
    run_frames(s, {"step": "arts_of_war", "side": "York", "drawn": True})
    assert RULES.active(s) == ["York"] and options(s) == [("assign", "march"), ("assign", "york")]
    act(s, "assign", "march")
    # Y19 Welshmen: York or March; both eligible, so the owner is asked again.
    assert options(s) == [("assign", "march"), ("assign", "york")]
    act(s, "assign", "york")
    assert s["stack"] == [] and s["aow"]["York"]["drawn"] == []
    assert s["lords"]["march"]["mat"]["capabilities"] == ["Y7"]
    assert s["lords"]["york"]["mat"]["capabilities"] == ["Y19"]
    assert RULES.check_invariants(s) == []


def test_first_levy_capability_single_candidate_or_discarded_3_1_2() -> None:
    s = _ia()
    _drawn(s, "York", "Y20", "Y22")  # Y20: March or Rutland -> March only; Y22: Salisbury -> nobody
    run_frames(s, {"step": "arts_of_war", "side": "York", "drawn": True})
    assert s["stack"] == []
    assert s["lords"]["march"]["mat"]["capabilities"] == ["Y20"]
    assert "Y22" in s["aow"]["York"]["deck"]
    assert any("discards the Capability Fair Arbiter (Y22)" in line for line in RULES.log_for(s, "Lancaster"))


def test_hidden_mats_first_levy_capability_asked_even_with_one_lord_1_5_3_3_1_2() -> None:
    """1.5.3 Hidden Mats, 3.1.2, RULINGS R88: the first Levy's Capability is deployed out of
    sight, so York is asked for it whenever a Lord can take it, one or several: Lancaster sees
    the same wait with Y20 (March only) as with Y7 (March or York). With open mats a single
    candidate takes it at once (the deployment names the card anyway)."""
    seen = []
    for card, choices in (("Y20", [("assign", "march")]), ("Y7", [("assign", "march"), ("assign", "york")])):
        s = setup_state(3, "ia-henry-vi", {"hidden_mats": True})
        s["stack"], s["box"], s["first_turn"] = [], 1, True
        _drawn(s, "York", card)
        run_frames(s, {"step": "arts_of_war", "side": "York", "drawn": True})
        assert RULES.active(s) == ["York"] and options(s) == choices
        seen.append(canonical_json(RULES.view(s, "Lancaster")))
        act(s, "assign", "march")
        assert s["lords"]["march"]["mat"]["capabilities"] == [card] and s["stack"] == []
    assert seen[0] == seen[1]


def test_capability_limits_two_per_lord_no_same_name_3_4_6() -> None:
    s = _ia()
    s["lords"]["march"]["mat"]["capabilities"] = ["Y1"]
    s["aow"]["York"]["deck"].remove("Y1")
    assert not arts.can_hold_capability(s, "march", "Y2")  # both "Culverins & Falconets"
    assert arts.can_hold_capability(s, "march", "Y3")
    s["lords"]["march"]["mat"]["capabilities"].append("Y3")
    s["aow"]["York"]["deck"].remove("Y3")
    assert not arts.can_hold_capability(s, "march", "Y5")  # two already
    assert not arts.can_hold_capability(s, "york", "Y20")  # not his badge
    assert RULES.check_invariants(s) == []


def test_later_levy_events_hold_this_levy_now_3_1_3() -> None:
    s = _ia(2)
    _drawn(s, "York", "Y1", "Y7")  # Y1 Hold, Y7 This Levy
    _drawn(s, "Lancaster", "L14")  # L14 Now
    reveals = s.get("reveals", 0)
    run_frames(s, {"step": "arts_of_war", "side": "York", "drawn": True},
               {"step": "arts_of_war", "side": "Lancaster", "drawn": True})
    y, lan = s["aow"]["York"], s["aow"]["Lancaster"]
    assert y["held"] == ["Y1"] and y["in_effect"] == ["Y7"] and y["drawn"] == []
    assert "L14" in lan["deck"] and lan["drawn"] == []
    assert s["reveals"] == reveals + 2  # Y7 and L14 revealed, Y1 not
    lan_log = RULES.log_for(s, "Lancaster")
    assert any("York draws an Event to hold (1 held)" in line for line in lan_log)
    assert not any("(Y1)" in line for line in lan_log)
    assert any("(Y1)" in line for line in RULES.log_for(s, "York"))
    # The Lancastrian sees a count only (§5).
    v = RULES.view(s, "Lancaster")
    assert v["aow"]["York"]["held"] == 1 and v["aow"]["York"]["in_effect"] == ["Y7"]
    assert '"Y1"' in RULES.secrets(s, "Lancaster") and '"Y1"' not in canonical_json(v)
    # This Levy Events end after Muster (3.4.6 NOTE).
    run_frames(s, {"step": "end_levy"})
    assert y["in_effect"] == [] and "Y7" in y["deck"] and y["held"] == ["Y1"]


def test_event_effect_hook_is_called_3_1_3(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str, str | None]] = []
    monkeypatch.setitem(arts.EVENT_EFFECTS, "Y10", lambda st, side, card, lord: calls.append((side, card, lord)))
    s = _ia(2)
    _drawn(s, "York", "Y10")
    run_frames(s, {"step": "arts_of_war", "side": "York", "drawn": True})
    assert calls == [("York", "Y10", None)]


def test_drawn_cards_hidden_from_the_other_side_3_1() -> None:
    s = _ia()
    _drawn(s, "York", "Y7", "Y19")
    run_frames(s, {"step": "arts_of_war", "side": "York", "drawn": True})
    assert '"Y19"' in RULES.secrets(s, "Lancaster")
    v = RULES.view(s, "Lancaster")
    assert v["aow"]["York"]["drawn"] == 2 and '"Y19"' not in canonical_json(v)
    assert _view_problems(RULES, s, ["York", "Lancaster"], RULES.active(s)) == []


def test_play_and_discard_held_events_3_1_3_4_8_6() -> None:
    s = _ia(2)
    zones = s["aow"]["York"]
    for cid in ("Y1", "Y5", "Y9"):
        zones["deck"].remove(cid)
        zones["held"].append(cid)
    reveals = s.get("reveals", 0)
    arts.play_held(s, "York", "Y5", lord="york")
    assert s["lords"]["york"]["mat"]["events"] == ["Y5"] and s["reveals"] == reveals + 1
    arts.play_held(s, "York", "Y9")
    assert "Y9" in zones["deck"]
    assert RULES.check_invariants(s) == []
    run_frames(s, {"step": "discard_held", "side": "York"})
    assert options(s) == [("discard", "Y1"), ("done", None)]
    act(s, "discard", "Y1")
    assert s["stack"] == [] and zones["held"] == [] and "Y1" in zones["deck"]
    assert any("York discards a Held Event" in line for line in RULES.log_for(s, "Lancaster"))
    assert not any("(Y1)" in line for line in RULES.log_for(s, "Lancaster"))
    sv.disband_lord(s, "york")  # a card tucked on a mat goes back when the mat is cleared
    assert "Y5" in zones["deck"] and RULES.check_invariants(s) == []


# ----- 3.3 Exiles ------------------------------------------------------------------------------
def test_muster_exiles_into_allowed_box_free_3_3_1() -> None:
    s = _fresh("ic-somersets-return")
    infl = s["influence"]
    run_frames(s, {"step": "exiles", "side": "Lancaster"})
    assert options(s) == [("muster_exile", "henry_vi@Scotland"), ("done", None)]
    act(s, "muster_exile", "henry_vi@Scotland")
    d = s["lords"]["henry_vi"]
    assert (d["where"], d["locale"], d["exile"]) == (Where.MAP, "Scotland", False)
    assert d["mat"]["troops"]["militia"] == 4 and s["influence"] == infl and s["stack"] == []


def test_exiles_not_ready_before_their_box_and_allied_networks_3_3_1() -> None:
    s = _ia(2)
    to_calendar(s, "york", 3, exile=True)
    to_calendar(s, "march", 2, exile=True)
    run_frames(s, {"step": "exiles", "side": "York"})
    assert options(s) == [("muster_exile", "march@Burgundy"), ("done", None)]  # Ia: March -> Burgundy
    act(s, "done")
    assert s["lords"]["march"]["where"] == Where.CALENDAR


def test_shaky_allies_margaret_to_france_removes_clarence_6_0_ii() -> None:
    s = _fresh("ii-warwicks-rebellion")
    s["box"] = 9
    run_frames(s, {"step": "exiles", "side": "Lancaster"})
    act(s, "muster_exile", "margaret@France")
    assert s["lords"]["clarence"]["where"] == Where.REMOVED and "clarence" not in s["seats"]
    assert RULES.check_invariants(s) == []


# ----- 3.4 Muster --------------------------------------------------------------------------------
def test_muster_lords_act_one_at_a_time_within_lordship_3_4() -> None:
    s = _ia()
    run_frames(s, {"step": "muster", "side": "York"})
    assert options(s) == [("lord", "march"), ("lord", "york"), ("end", None)]
    act(s, "lord", "march")  # Lordship 2
    act(s, "levy_transport", "carts")
    act(s, "levy_transport", "carts")
    assert options(s) == [("lord", "york"), ("end", None)]  # March is done after 2 actions
    assert s["lords"]["march"]["mat"]["assets"]["carts"] == 1 + 4
    act(s, "end")
    assert s["stack"] == []


def test_enemy_or_neutral_stronghold_only_parley_there_then_normal_3_4() -> None:
    s = _ia()
    place(s, "york", "Peterborough")  # Neutral
    _muster(s, "York", "york")
    assert options(s) == [("parley", "Peterborough"), ("parley", "Peterborough+1"), ("parley", "Peterborough+3"),
                          ("done", None)]
    rng.rig(s, [2])
    act(s, "parley", "Peterborough")
    assert s["favour"]["Peterborough"] == "York" and s["influence"] == -1  # own location: no Way cost
    assert ("levy_troops", None) in options(s)  # now Friendly: the rest of his Lordship as usual


def test_parley_costs_one_per_way_3_4_1_1_4_2() -> None:
    s = _ia()
    _muster(s, "York", "york")  # at Ely (Yorkist)
    assert ("parley", "Peterborough+1") in options(s) and ("parley", "Ely") not in options(s)
    rng.rig(s, [5])
    act(s, "parley", "Peterborough+1")  # 1 + 1 Way + 1 extra = 3, target 5 + 1 = 6
    assert s["influence"] == -3 and s["favour"]["Peterborough"] == "York"


def test_levy_troops_deplete_then_exhaust_and_pool_limit_3_4_4() -> None:
    s = _ia()
    _muster(s, "York", "york")  # Ely: City, 1 Longbow + 1 Militia; Lordship 3
    act(s, "levy_troops")
    assert s["exhaustion"]["Ely"] == "depleted"
    mat = s["lords"]["york"]["mat"]
    assert (mat["troops"]["longbowmen"], mat["troops"]["militia"]) == (3, 3)
    mat["troops"]["longbowmen"] += 40 - troops_in_use(s)["longbowmen"]  # the pool is out of Longbowmen
    act(s, "levy_troops")
    assert s["exhaustion"]["Ely"] == "exhausted" and mat["troops"]["militia"] == 4
    assert troops_in_use(s)["longbowmen"] == 40
    assert ("levy_troops", None) not in options(s)  # Exhausted (1.3.1)


def test_no_levy_troops_in_exile_box_and_ship_there_3_4_4_3_4_5() -> None:
    s = _ia()
    place(s, "york", "Ireland")
    _muster(s, "York", "york")
    opts = options(s)
    assert ("levy_troops", None) not in opts and ("levy_transport", "ship") in opts
    act(s, "levy_transport", "ship")
    act(s, "levy_transport", "ship")
    assert s["lords"]["york"]["mat"]["assets"]["ships"] == 2
    assert ("levy_transport", "ship") not in options(s)  # two at most (1.7.3)


def test_ship_needs_friendly_port_and_fewer_than_nine_holders_3_4_5_1_7_3() -> None:
    s = _ia()
    _muster(s, "York", "york")  # Ely is no Port
    assert ("levy_transport", "ship") not in options(s)
    s = _ia()
    place(s, "york", "Lynn")
    s["favour"]["Lynn"] = "York"
    for lid, d in s["lords"].items():  # the nine other Lords of Ia all have a Ship
        if lid != "york":
            place(s, lid, d["locale"] or ("Ireland" if sv.side_of(lid) == "York" else "Scotland"), ships=1)
    _muster(s, "York", "york")
    assert ("levy_transport", "ship") not in options(s)
    s["lords"]["york"]["mat"]["assets"]["ships"] = 1  # already a holder: a second Ship adds none (R22)
    s["lords"]["rutland"]["mat"]["assets"]["ships"] = 0
    assert ("levy_transport", "ship") in options(s)


def test_levy_vassal_with_loyalty_and_service_3_4_3() -> None:
    s = _ia()
    place(s, "york", "Lincoln")
    s["favour"]["Lincoln"] = "York"
    _muster(s, "York", "york")
    assert ("levy_vassal", "beaumont") in options(s)
    rng.rig(s, [4])  # Beaumont: Loyalty 2 red, so York's 5 becomes 3: a 4 fails
    act(s, "levy_vassal", "beaumont")
    assert s["vassals"]["beaumont"]["where"] == VassalWhere.SEAT and s["influence"] == -1
    rng.rig(s, [4])
    act(s, "levy_vassal", "beaumont+1")  # 4 against 3 + 1
    v = s["vassals"]["beaumont"]
    assert (v["where"], v["lord"], v["box"], v["face_up"]) == (VassalWhere.MAT, "york", 1 + 1, True)
    assert s["lords"]["york"]["mat"]["vassals"] == ["beaumont"] and s["influence"] == -3


def test_levy_vassal_needs_friendly_enemy_free_seat_3_4_3() -> None:
    s = _ia()
    _muster(s, "York", "york")
    assert not any(v == "levy_vassal" for v, _a in options(s))  # no Vassal Seat is Yorkist
    s["favour"]["Lincoln"] = "York"
    assert ("levy_vassal", "beaumont") in options(s)
    place(s, "exeter_1", "Lincoln")
    assert ("levy_vassal", "beaumont") not in options(s)


def test_levy_lord_ready_musters_at_seat_friendly_3_4_2() -> None:
    s = _ia(2)
    _muster(s, "York", "york")
    assert ("levy_lord", "salisbury") in options(s) and ("levy_lord", "warwick_y") not in options(s)  # box 3
    rng.rig(s, [5])
    act(s, "levy_lord", "salisbury")
    d = s["lords"]["salisbury"]
    assert (d["where"], d["locale"]) == (Where.MAP, "York") and s["favour"]["York"] == "York"
    assert d["mat"]["troops"]["men_at_arms"] == 2
    act(s, "done")
    assert options(s) == [("lord", "march"), ("end", None)]  # Salisbury, Mustered now, does not act


def test_levy_lord_enemy_at_seat_owner_chooses_friendly_seat_3_4_2() -> None:
    s = _ia(2)
    place(s, "northumberland_l", "York")  # Enemy Lord at Salisbury's Seat
    _muster(s, "York", "york")
    rng.rig(s, [1])
    act(s, "levy_lord", "salisbury")
    assert current_step(s) == "place_lord" and options(s) == [("place", "Ely"), ("place", "Ludlow")]
    act(s, "place", "Ludlow")
    assert s["lords"]["salisbury"]["locale"] == "Ludlow" and "York" not in s["favour"]
    assert current_step(s) == "muster"


def test_levy_lord_not_offered_without_a_place_or_when_exile_3_4_2_3_3_1() -> None:
    s = _ia(2)
    place(s, "northumberland_l", "York")
    place(s, "exeter_1", "Ely")
    place(s, "buckingham", "Ludlow")
    _muster(s, "York", "march")
    # York and March are at Ely and Ludlow with Enemy Lords: no Friendly Enemy-free Seat.
    assert not any(v == "levy_lord" for v, _a in options(s))
    s2 = _ia(2)
    to_calendar(s2, "salisbury", 2, exile=True)
    _muster(s2, "York", "york")
    assert ("levy_lord", "salisbury") not in options(s2)


def test_levy_capability_from_unused_cards_3_4_6() -> None:
    s = _ia()
    _muster(s, "York", "march")
    caps = [a for v, a in options(s) if v == "levy_capability"]
    assert "Y19" in caps and "Y22" not in caps  # Y22 Fair Arbiter is Salisbury's
    act(s, "levy_capability", "Y19")
    assert s["lords"]["march"]["mat"]["capabilities"] == ["Y19"] and "Y19" not in s["aow"]["York"]["deck"]
    assert RULES.check_invariants(s) == []


def test_special_vassal_comes_with_its_capability_1_5_4() -> None:
    s = _fresh("ii-warwicks-rebellion")
    _muster(s, "York", "edward_iv")
    act(s, "levy_capability", "Y24")  # Hastings
    assert s["special_vassals"]["hastings"] == "edward_iv"
    assert s["lords"]["edward_iv"]["mat"]["special_vassals"] == ["hastings"]
    assert RULES.check_invariants(s) == []
    sv.disband_lord(s, "edward_iv")
    assert s["special_vassals"]["hastings"] is None and "Y24" in s["aow"]["York"]["deck"]


def test_king_richard_at_muster_6_0_iii() -> None:
    s = _fresh("iii-my-kingdom-for-a-horse")
    run_frames(s, {"step": "muster", "side": "York"})
    assert ("king_richard", None) in options(s)
    act(s, "king_richard")
    assert s["lords"]["richard_iii"]["where"] == Where.MAP and s["lords"]["gloucester_2"]["where"] == Where.UNUSED
    assert ("lord", "richard_iii") in options(s) and ("king_richard", None) not in options(s)
    assert RULES.check_invariants(s) == []


def test_illegal_levy_action_refused_without_change() -> None:
    s = _ia()
    _muster(s, "York", "york")
    before = canonical_json(s)
    for verb, arg in (("levy_troops", "x"), ("parley", "Peterborough+2"), ("levy_lord", "henry_vi"),
                      ("levy_capability", "L1")):
        with pytest.raises(IllegalAction):
            act(s, verb, arg)
    assert canonical_json(s) == before


def test_undo_in_muster_but_not_across_a_check_or_a_draw_item_5() -> None:
    game = Game.new(RULES, 5, "ia-henry-vi")
    # The first Levy's draws are shuffles: nobody can undo across them.
    while current_step(game.state) == "arts_of_war":
        role = game.active()[0]
        verb, arg = RULES.legal_actions(game.state, role)[0]
        game.apply(role, verb, arg)
    while current_step(game.state) != "muster" or game.state["stack"][-1].get("lord") is None:
        role = game.active()[0]
        opts = RULES.legal_actions(game.state, role)
        verb, arg = next((o for o in opts if o[0] in ("done", "lord")), opts[0])
        game.apply(role, verb, arg)
    role = game.active()[0]
    game.apply(role, "levy_transport", "carts")
    assert game.can_undo(role)
    game.apply(role, ".undo")
    opts = RULES.legal_actions(game.state, role)
    verb, arg = next(o for o in opts if o[0] == "parley")
    game.apply(role, verb, arg)
    assert not game.can_undo(role)
    with pytest.raises(CannotUndo):
        game.apply(role, ".undo")


def test_levy_frames_order_2_2_4_3_0() -> None:
    s = _ia(2)
    names = [(f["step"], f.get("side")) for f in levy_frames(s)]
    assert names[:2] == [("arts_of_war", "York"), ("arts_of_war", "Lancaster")]
    assert names[-6:] == [("ready_vassals", None), ("exiles", "York"), ("exiles", "Lancaster"),
                          ("muster", "York"), ("muster", "Lancaster"), ("end_levy", None)]


def test_muster_view_part() -> None:
    s = _ia()
    _muster(s, "York", "york")
    assert RULES.view(s, "Lancaster")["muster"] == {"side": "York", "lord": "york", "left": 3, "to_act": ["march"]}


def test_king_richard_keeps_gloucesters_vassals_6_0_iii_6_2_2() -> None:
    s = _fresh("iii-my-kingdom-for-a-horse")
    s["vassals"]["westmorland"].update(where=VassalWhere.MAT, lord="gloucester_2", box=5)
    s["lords"]["gloucester_2"]["mat"]["vassals"].append("westmorland")
    run_frames(s, {"step": "muster", "side": "York"})
    act(s, "king_richard")
    assert s["vassals"]["westmorland"]["lord"] == "richard_iii"
    assert s["lords"]["richard_iii"]["mat"]["vassals"] == ["westmorland"]
    assert RULES.check_invariants(s) == []


def test_muster_fast_is_legal_agrees_with_options_3_4() -> None:
    """Muster.is_legal lists an acting Lord's actions for one verb only (lord_actions ``only``);
    it must give the answer of membership in the options, for every verb and argument seen."""
    import random

    step = RULES.steps["muster"]
    verbs = ("lord", "end", "done", "king_richard", "parley", "parley_sure", "free_parley", "cade_parley",
             "levy_lord", "levy_vassal", "levy_troops", "levy_troops_by", "free_troops", "levy_transport",
             "levy_capability", "event", "other")
    checked = 0
    for scenario in ("ia-henry-vi", "iii-my-kingdom-for-a-horse", "wars-of-the-roses"):
        for seed in range(2):
            pick = random.Random(seed)
            s = RULES.setup(seed, scenario)
            steps = 0
            while RULES.result(s) is None and steps < 1000:
                active = RULES.active(s)
                role = pick.choice(active)
                frame = s["stack"][-1]
                legal = RULES.legal_actions(s, role)
                if frame["step"] == "muster":
                    checked += 1
                    args = {a for _v, a in legal} | {None, "London", "London+9", 7}
                    have = set(legal)
                    for verb in verbs:
                        for arg in args:
                            assert step.is_legal(s, frame, role, verb, arg) == ((verb, arg) in have), (verb, arg)
                    assert not step.is_legal(s, frame, role, "parley", ["London"])  # unhashable: refused
                RULES.action(s, role, *pick.choice(legal))
                steps += 1
    assert checked > 50
