"""The Wars of the Roses in play (6.0, 6.1-6.3): Succession when an Heir Dies or is
Shipwrecked, Margaret's Edward, Surrender, the end of each War (Natural Causes, Renewed War),
the War, Dynastic and Final Victories, Y28, and card conservation through all of it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from roses.engine import rng
from roses.engine.contract import DRAW
from roses.engine.steps import find, push
from roses.games.plantagenet import RULES, wars
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import load
from roses.games.plantagenet.levy import muster_lord
from roses.games.plantagenet.records import Where
from tests.plantagenet.helpers import (
    act,
    approach,
    place,
    play_until,
    run_frames,
    set_troops,
    war_state,
)

State = dict[str, Any]


def wotr(seed: int = 1) -> State:
    """War I at its start, with the first Levy's drawn cards put back and an empty stack."""
    s = RULES.setup(seed, "wars-of-the-roses")
    for zones in s["aow"].values():
        zones["deck"] = sorted(zones["deck"] + zones["drawn"], key=lambda c: (c[0], int(c[1:])))
        zones["drawn"] = []
    s["stack"] = []
    return s


def zone_of(s: State, card: str) -> str | None:
    """Where ``card`` is (one zone, checked by the invariants), None if out of play."""
    side = load().cards[card]["side"]
    for zone in ("deck", "drawn", "held", "in_effect", "set_aside"):
        if card in s["aow"][side][zone]:
            return zone
    for lid, d in s["lords"].items():
        if d["mat"] and card in d["mat"]["capabilities"]:
            return f"mat:{lid}"
    assert card not in s["aow"][side]["in_game"]
    return None


def take_from_deck(s: State, card: str, zone: str, lord: str | None = None) -> None:
    side = load().cards[card]["side"]
    s["aow"][side]["deck"].remove(card)
    if lord is None:
        s["aow"][side][zone].append(card)
    else:
        s["lords"][lord]["mat"]["capabilities"].append(card)


def die_in_battle(s: State, lord: str, winner_side_lords: list[str], locale: str, roll: int = 6,
                  rout_too: tuple[str, ...] = ()) -> State:
    """Run a Battle at ``locale`` in which ``lord`` (and ``rout_too``) Routs and rolls ``roll``
    for Death; the Lords of ``winner_side_lords`` Approach. Returns the state at the first
    decision after the Battle's end (or with the stack empty)."""
    approach(s, locale, winner_side_lords)
    for lid in [lord, *rout_too]:
        if s["stack"] and s["stack"][-1]["step"] == "approach":
            act(s, "fight", lid)
    for lid in [lord, *rout_too]:
        s["battle"]["lords"][lid]["routed"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}]
    rng.rig(s, [roll])
    RULES.steps.settle(s)
    return s


# ----- War I (6.3 "Plantagenets Go to War") ---------------------------------------------------------
def test_war_i_removal_of_henry_vi_adds_margaret_and_changes_cards_6_3() -> None:
    """6.3 War I: "Removal of Henry VI adds Margaret to the next Calendar box. Remove Arts of War
    cards L15 and L17 from play (wherever they are) and add L27 and L31 to the Lancastrian
    deck" (6.2.2 ADD: her Command cards and Seat too)."""
    s = wotr()
    take_from_deck(s, "L15", "held")
    take_from_deck(s, "L17", "", lord="somerset_1")
    sv.remove_lord(s, "henry_vi")
    wars.watch(s)
    m = s["lords"]["margaret"]
    assert m["where"] == Where.CALENDAR and m["box"] == s["box"] + 1 and not m["exile"]
    assert s["seats"]["margaret"] == "London"
    assert {"margaret-1", "margaret-2", "margaret-3"} <= set(s["command"]["Lancaster"]["deck"])
    assert zone_of(s, "L15") is None and zone_of(s, "L17") is None
    assert zone_of(s, "L27") == "deck" and zone_of(s, "L31") == "deck"
    assert s["wars"]["removed"] == [{"side": "Lancaster", "rank": 1, "lord": "henry_vi", "war": "I", "by": "play"}]
    assert RULES.check_invariants(s) == []
    assert s["result"] is None and s["war"] == "I"  # Somerset (1) remains: no War Victory yet


def test_war_i_removal_of_somerset_1_adds_somerset_2_6_3() -> None:
    """6.3 War I: "Removal of Somerset (1) adds Somerset (2) to the next Calendar box (whether or
    not highest Heir)"; the Yorkists add or replace nobody."""
    s = wotr()
    sv.remove_lord(s, "somerset_1")
    wars.watch(s)
    assert s["lords"]["somerset_2"]["where"] == Where.CALENDAR and s["lords"]["somerset_2"]["box"] == 2
    assert "somerset-1" in s["command"]["Lancaster"]["deck"]
    sv.remove_lord(s, "march")
    wars.watch(s)
    assert [s["lords"][lid]["where"] for lid in ("york", "rutland")] == [Where.MAP, Where.CALENDAR]
    assert RULES.check_invariants(s) == []


def test_margaret_musters_with_edward_l26_6_3() -> None:
    """6.3 War I: "Muster of Margaret immediately assigns Arts of War card L26 Edward to her mat
    as a free, mandatory Capability. Her Disband or removal sets the card aside ... The
    Capability returns to Margaret if she Musters anew." With it comes the Special Vassal."""
    s = wotr()
    sv.remove_lord(s, "henry_vi")
    wars.watch(s)
    muster_lord(s, "margaret", "France")
    mat = s["lords"]["margaret"]["mat"]
    assert mat["capabilities"] == ["L26"] and mat["special_vassals"] == ["edward"]
    assert s["special_vassals"]["edward"] == "margaret" and "L26" in s["aow"]["Lancaster"]["in_game"]
    assert sv.modified_rating(s, "margaret", "valour") == load().lords["margaret"]["valour"] + 1
    assert RULES.check_invariants(s) == []
    sv.disband_lord(s, "margaret")
    assert zone_of(s, "L26") == "set_aside" and s["special_vassals"]["edward"] is None
    assert RULES.check_invariants(s) == []
    muster_lord(s, "margaret", "France")
    assert zone_of(s, "L26") == "mat:margaret" and s["aow"]["Lancaster"]["set_aside"] == []
    assert RULES.check_invariants(s) == []
    sv.remove_lord(s, "margaret")
    assert zone_of(s, "L26") == "set_aside"
    ia = RULES.setup(1, "ia-henry-vi")  # outside the Wars nothing happens
    place(ia, "somerset_1", "Wells")
    muster_lord(ia, "somerset_1", "Wells")
    assert ia["lords"]["somerset_1"]["mat"]["capabilities"] == []


def test_heir_dying_in_battle_succession_after_the_battle_6_2_2() -> None:
    """6.2.2 Succession "upon Death": Henry VI Dies in a Battle; the War goes on (Somerset (1)
    remains) and Margaret is added once the Battle is over (RULINGS R61); the removal itself is
    recorded at once."""
    s = wotr()
    place(s, "york", "London")
    s["lords"]["somerset_1"]["locale"] = "Wells"
    die_in_battle(s, "henry_vi", ["york"], "London")
    assert s["lords"]["henry_vi"]["where"] == Where.REMOVED
    assert s["wars"]["removed"][0]["lord"] == "henry_vi" and s["battle"] is None
    assert s["lords"]["margaret"]["where"] == Where.CALENDAR
    assert RULES.check_invariants(s) == []


def test_henry_vi_dies_in_a_battle_in_play_succession_before_tides_of_war_6_2_2() -> None:
    """6.2.2 and 6.3 War I ("remove L15 and L17 from play (wherever they are)"), RULINGS R61:
    Henry VI Dies in a Battle fought in the first Campaign of the Wars of the Roses, reached by
    play; the moment that Battle is over, with the Turn's Tides of War and Disembark still to
    come, Margaret is in the next Calendar box and the cards are exchanged."""
    s = play_until(RULES.setup(1, "wars-of-the-roses"),
                   lambda s: bool(s["stack"]) and s["stack"][-1]["step"] == "actions")
    assert s["box"] == 1 and [f["step"] for f in s["stack"][-4:-1]] == ["disembark", "tides_of_war", "command"]
    place(s, "york", "Ely")
    place(s, "henry_vi", "Cambridge")
    set_troops(s, "henry_vi", militia=1)
    set_troops(s, "york", men_at_arms=2, longbowmen=12)
    push(s, {"step": "actions", "side": "York", "lord": "york", "left": 3, "used": 0, "highway": None})
    act(s, "march", "Cambridge")
    rng.rig(s, [6] * 40)  # every Protection and Valour reroll fails; the Death check kills
    for _ in range(100):  # Lancaster fights; each side takes its first choice, York's Hits on Longbowmen
        if s["battle"] is None and s["lords"]["henry_vi"]["where"] == Where.REMOVED:
            break
        role = RULES.active(s)[0]
        legal = RULES.legal_actions(s, role)
        act(s, *legal[-1 if role == "York" and legal[0][0] == "hit" else 0])
    assert any("Death check for Henry VI: 6: he Dies" in line for line in RULES.log_for(s, "York"))
    assert s["lords"]["york"]["where"] == Where.MAP
    assert find(s, "tides_of_war") is not None and find(s, "disembark") is not None  # the Turn goes on
    assert s["wars"]["pending"] == []
    m = s["lords"]["margaret"]
    assert m["where"] == Where.CALENDAR and m["box"] == 2
    assert zone_of(s, "L15") is None and zone_of(s, "L17") is None
    assert zone_of(s, "L27") == "deck" and zone_of(s, "L31") == "deck"
    assert RULES.check_invariants(s) == []


def test_succession_waits_for_the_battle_to_end_6_2_2() -> None:
    """RULINGS R61: while a Battle (or a Disembark) is under way the removal is recorded and
    the War Victory checked, but the new Lords and cards come when it is over; a Disembark
    merely queued for the end of the Campaign does not hold them back."""
    s = wotr()
    s["battle"] = {"locale": "London", "events": [], "lords": {}}
    sv.remove_lord(s, "henry_vi")
    wars.watch(s)
    assert s["wars"]["pending"] and s["lords"]["margaret"]["where"] == Where.UNUSED and zone_of(s, "L15")
    s["stack"] = [{"step": "disembark", "todo": []}, {"step": "land", "side": "York", "lord": "york", "ports": []}]
    s["battle"] = None
    wars.watch(s)
    assert s["lords"]["margaret"]["where"] == Where.UNUSED
    s["stack"] = [{"step": "disembark"}]  # queued for the end of the Campaign, not under way
    wars.watch(s)
    assert not s["wars"]["pending"] and s["lords"]["margaret"]["where"] == Where.CALENDAR
    assert zone_of(s, "L15") is None


def test_shipwreck_of_an_heir_is_removal_4_8_2_6_2_2() -> None:
    """6.2.2: Shipwreck (4.8.2) removes an Heir as Death does: Somerset (1) Shipwrecked at the
    Disembark roll adds Somerset (2) to the next box."""
    s = wotr()
    d = s["lords"]["somerset_1"]
    d["where"], d["locale"] = Where.SEA, "North Sea"
    rng.rig(s, [1])
    run_frames(s, {"step": "disembark"})
    assert s["lords"]["somerset_1"]["where"] == Where.REMOVED
    assert s["lords"]["somerset_2"]["where"] == Where.CALENDAR and s["lords"]["somerset_2"]["box"] == 2
    assert RULES.check_invariants(s) == []


def test_war_i_lancastrian_automatic_war_victory_goes_to_iil_6_1_2() -> None:
    """6.3 War I: removal of York, March and Rutland wins War I for the Lancastrians at once;
    6.1.2: they won, so IIL is set up, with only Gloucester (1) as a Yorkist Heir in box 7."""
    s = wotr()
    for lid in ("york", "march", "rutland"):
        sv.remove_lord(s, lid)
    RULES.steps.settle(s)
    assert s["wars"]["winners"] == {"I": "Lancaster"} and s["war"] == "IIL"
    assert s["lords"]["gloucester_1"]["box"] == 7 and "york" not in s["lords"]
    assert s["wars"]["cards"]["York"] == ["Y25", "Y30"]
    assert RULES.check_invariants(s) == []


def test_drawn_war_goes_to_the_king_ruling_r60() -> None:
    """RULINGS R60: a War that ends with no winner (both sides without Lords, 5.1, or tied
    Influence at its end, E FAQ #5) goes to the King's side."""
    s = wotr()
    wars.end_war(s, DRAW)
    assert s["wars"]["winners"] == {"I": "Lancaster"} and s["war"] == "IIL"
    assert any("RULINGS R60" in line for line in RULES.log_for(s, "York"))


# ----- Surrender (6.1.1) ------------------------------------------------------------------------------
def surrender_battle(seed: int = 1) -> State:
    """War I: Somerset (1) is gone, so Henry VI is the last Lancastrian Heir of War I; he is
    Routed in a Battle at London and must check for Death."""
    s = wotr(seed)
    sv.remove_lord(s, "somerset_1")
    wars.watch(s)
    place(s, "york", "London")
    approach(s, "London", ["york"])
    act(s, "fight", "henry_vi")
    s["battle"]["lords"]["henry_vi"]["routed"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}]
    RULES.steps.settle(s)
    return s


def test_surrender_offered_before_the_last_heirs_death_check_6_1_1() -> None:
    """6.1.1: "A side in the first or second War may concede that War as the loser ... just
    before their last Heir still present in that War ... rolls for Death (4.4.3)": offered to
    that side only, beside the Death check; conceding ends the War, the Heir survives and the
    next War is set up (IIY: Henry VI in box 9)."""
    s = surrender_battle()
    assert s["stack"][-1]["step"] == "death" and RULES.active(s) == ["Lancaster"]
    assert RULES.legal_actions(s, "Lancaster") == [("check", "henry_vi"), ("surrender", "henry_vi")]
    assert RULES.legal_actions(s, "York") == []
    act(s, "surrender", "henry_vi")
    assert not any(line.startswith("Death check for Henry VI") for line in RULES.log_for(s, "York"))
    assert s["wars"]["winners"] == {"I": "York"} and s["war"] == "IIY"
    assert s["lords"]["henry_vi"]["where"] == Where.CALENDAR and s["lords"]["henry_vi"]["box"] == 9
    assert "Surrender" in wars.milestones(s)
    assert RULES.check_invariants(s) == []


def test_declining_surrender_leaves_the_death_check_6_1_1() -> None:
    """Declining is simply the Death check: the roll decides; Henry VI's Death then wins War I
    for the Yorkists by War Victory, and he is gone for good."""
    s = surrender_battle()
    rng.rig(s, [6])
    act(s, "check", "henry_vi")
    assert s["wars"]["winners"] == {"I": "York"} and "henry_vi" not in s["lords"]
    assert s["wars"]["removed"][-1]["lord"] == "henry_vi"
    s2 = surrender_battle()
    rng.rig(s2, [1])
    act(s2, "check", "henry_vi")
    assert s2["war"] == "I" and s2["lords"]["henry_vi"]["where"] == Where.CALENDAR


def test_no_surrender_while_other_heirs_remain_or_in_war_iii_6_1_1() -> None:
    """Not the last Heir (Somerset (1) remains), or in the third War: no Surrender option."""
    s = wotr()
    place(s, "york", "London")
    s["lords"]["somerset_1"]["locale"] = "Wells"
    approach(s, "London", ["york"])
    act(s, "fight", "henry_vi")
    s["battle"]["lords"]["henry_vi"]["routed"] = True
    s["stack"] = [{"step": "battle", "stage": "end"}]
    rng.rig(s, [1])
    RULES.steps.settle(s)  # one option only: the check makes itself
    assert not s["rigged"] and s["lords"]["henry_vi"]["where"] == Where.CALENDAR
    iii = war_state("IIIY", "Y", "M")
    assert not wars.surrender_possible(iii, "York", "york") and wars.last_heir(iii, "York", "york")


# ----- the second War in play (6.3 IIY, IIL) -------------------------------------------------------------
def test_iiy_york_dies_edward_iv_replaces_march_in_place_6_3() -> None:
    """6.3 IIY: York removed and March present: "replace March with Edward IV as King ... in
    place during play" (mat, cylinder, Seat, Command cards where they are: 6.2.2 REPLACE); York's
    cards Y14 Y18 Y19 Y20 leave play wherever they are, Edward IV's Y23 Y24 Y28 Y31 join."""
    s = war_state("IIY", "Y M R", "H M S1 S2")
    s["stack"] = []
    s["lords"]["march"]["mat"]["troops"]["militia"] = 7
    take_from_deck(s, "Y18", "held")
    take_from_deck(s, "Y20", "", lord="march")
    sv.remove_lord(s, "york")
    wars.watch(s)
    e = s["lords"]["edward_iv"]
    assert e["where"] == Where.MAP and e["locale"] == "Ludlow" and e["mat"]["troops"]["militia"] == 7
    assert s["lords"]["march"]["where"] == Where.UNUSED and s["seats"]["edward_iv"] == "London"
    assert "march" not in s["seats"] and s["wars"]["heir_lords"]["edward_iv"] == 2
    assert [c for c in s["command"]["York"]["deck"] if c.startswith(("march", "edward"))] == \
        ["edward_iv-1", "edward_iv-2", "edward_iv-3"]
    for cid in ("Y14", "Y18", "Y19", "Y20"):
        assert zone_of(s, cid) is None, cid
    for cid in ("Y23", "Y24", "Y28", "Y31"):
        assert zone_of(s, cid) == "deck", cid
    assert s["lords"]["pembroke"]["where"] == Where.UNUSED  # three Heirs remain
    assert RULES.check_invariants(s) == []


def test_iiy_king_rutland_dies_richard_iii_and_pembroke_6_3() -> None:
    """6.3 IIY: Rutland, King, removed: Gloucester becomes King, replaced in place by Richard III
    (still on the Calendar in box 9); the cards repeated from one King to the next (Y35) stay
    where they are; two or fewer Heirs remain: Pembroke is added to the next box."""
    s = war_state("IIY", "R", "H M S1 S2")
    s["stack"] = []
    assert s["lords"]["pembroke"]["where"] == Where.MAP  # already at setup (two Heirs remain)
    take_from_deck(s, "Y35", "held")
    sv.remove_lord(s, "rutland")
    wars.watch(s)
    r = s["lords"]["richard_iii"]
    assert r["where"] == Where.CALENDAR and r["box"] == 9 and s["lords"]["gloucester_1"]["where"] == Where.UNUSED
    assert zone_of(s, "Y35") == "held"
    for cid in ("Y20", "Y21", "Y28"):
        assert zone_of(s, cid) is None
    for cid in ("Y32", "Y33", "Y34"):
        assert zone_of(s, cid) == "deck"
    assert RULES.check_invariants(s) == []


def test_iiy_pembroke_added_when_two_heirs_remain_6_3() -> None:
    s = war_state("IIY", "Y M", "H")
    s["stack"] = []
    assert s["lords"]["pembroke"]["where"] == Where.UNUSED
    sv.remove_lord(s, "march")
    wars.watch(s)
    p = s["lords"]["pembroke"]
    assert p["where"] == Where.CALENDAR and p["box"] == s["box"] + 1 and s["seats"]["pembroke"] == "Pembroke"
    assert s["wars"]["cards"]["York"] == ["Y14", "Y18", "Y19", "Y20"]  # York is still King
    assert RULES.check_invariants(s) == []


def test_iiy_henry_vi_dies_margaret_added_without_exile_6_3() -> None:
    """6.3 IIY: "If Henry VI is later removed, add Margaret to the next Calendar box (no Exile)";
    his cards L17 L18 L20 L21 leave play (one of them a Mustered Capability), hers L27 L28 L31
    join."""
    s = war_state("IIY", "Y M R", "H M S1 S2")
    s["stack"] = []
    take_from_deck(s, "L20", "", lord="jasper_tudor_1")
    sv.remove_lord(s, "henry_vi")
    wars.watch(s)
    m = s["lords"]["margaret"]
    assert m["where"] == Where.CALENDAR and m["box"] == 2 and not m["exile"]
    assert s["lords"]["jasper_tudor_1"]["mat"]["capabilities"] == []
    for cid in ("L17", "L18", "L20", "L21"):
        assert zone_of(s, cid) is None
    for cid in ("L27", "L28", "L31"):
        assert zone_of(s, cid) == "deck"
    sv.remove_lord(s, "somerset_1")
    wars.watch(s)
    assert s["lords"]["somerset_2"]["where"] == Where.CALENDAR
    assert s["wars"]["cards"]["Lancaster"] == ["L27", "L28", "L31"]  # Margaret is still the highest
    assert RULES.check_invariants(s) == []


def test_iil_york_removed_y20_stays_where_it_is_6_2_2() -> None:
    """6.2.2 ARTS OF WAR, the rulebook's example (Y20 in War IIL): York as highest Heir brings Y14
    Y20; March next brings Y20 Y21: Y14 leaves play, Y20 stays where it is, Y21 joins."""
    s = war_state("IIL", "Y M R", "H M S1 S2")
    s["stack"] = []
    take_from_deck(s, "Y20", "held")
    sv.remove_lord(s, "york")
    wars.watch(s)
    assert zone_of(s, "Y14") is None and zone_of(s, "Y20") == "held" and zone_of(s, "Y21") == "deck"
    assert s["lords"]["march"]["where"] == Where.CALENDAR  # no Edward IV in IIL
    assert RULES.check_invariants(s) == []


def test_iil_somerset_2_replaces_somerset_1_in_place_6_3() -> None:
    """6.3 IIL: "Any removal of Somerset (1) (whether King or not) replaces Somerset (1) with
    Somerset (2) in place": where Somerset (1) fell, if no Enemy Lord holds it, Somerset (2)
    Musters with a fresh mat; Shipwrecked (at Sea) he goes to the next box (RULINGS R64)."""
    s = war_state("IIL", "Y M R", "H M S1 S2")
    s["stack"] = []
    s["battle"] = {"locale": "Wells", "events": [], "lords": {}}
    sv.remove_lord(s, "somerset_1")
    wars.watch(s)
    s["battle"] = None
    wars.watch(s)
    d = s["lords"]["somerset_2"]
    assert d["where"] == Where.MAP and d["locale"] == "Wells" and d["mat"] is not None
    assert RULES.check_invariants(s) == []
    s2 = war_state("IIL", "Y M R", "H M S1 S2")
    s2["stack"] = []
    place(s2, "warwick_y", "Wells")
    s2["battle"] = {"locale": "Wells", "events": [], "lords": {}}
    sv.remove_lord(s2, "somerset_1")
    wars.watch(s2)
    s2["battle"] = None
    wars.watch(s2)
    assert s2["lords"]["somerset_2"]["where"] == Where.CALENDAR and s2["lords"]["somerset_2"]["box"] == 2


def test_iil_henry_vi_king_dies_margaret_king_cards_6_3() -> None:
    """6.3 IIL: Henry VI (King) removed: Margaret to the next box, and King: L15 L17 out, L27 L31
    in; she Musters with L26 Edward."""
    s = war_state("IIL", "Y", "H M S1 S2")
    s["stack"] = []
    sv.remove_lord(s, "henry_vi")
    wars.watch(s)
    assert s["lords"]["margaret"]["box"] == 2 and s["wars"]["cards"]["Lancaster"] == ["L27", "L31"]
    assert zone_of(s, "L15") is None and zone_of(s, "L17") is None
    muster_lord(s, "margaret", "France")
    assert s["lords"]["margaret"]["mat"]["capabilities"] == ["L26"]
    assert RULES.check_invariants(s) == []


# ----- the end of a War: Natural Causes, Dynastic, Final (6.0, 6.3) -----------------------------------------
def test_natural_causes_after_the_second_war_6_3() -> None:
    """6.3 IIY Natural Causes: Henry VI and York, if still present, roll two dice and are removed
    on less than the last Turn played; then Edward IV (only) rolls one die, removed on a 6.
    Removed Heirs cost 8 Influence each at the third War's setup."""
    s = war_state("IIY", "Y M R", "H M S1 S2")
    s["box"] = 8
    rng.rig(s, [2, 3, 6, 6])  # Henry VI 5 < 8: removed; York 12: lives
    wars.end_war(s, "Lancaster")
    assert not s["rigged"] and s["war"] == "IIIL"
    gone = [(r["lord"], r["by"]) for r in s["wars"]["removed"] if r["by"] == "natural_causes"]
    assert gone == [("henry_vi", "natural_causes")]
    assert s["influence"] == 8  # Lancaster lost one Heir in an earlier War
    s2 = war_state("IIY", "M R", "H M S1 S2")  # Edward IV is King
    s2["box"] = 3
    rng.rig(s2, [1, 1, 6])  # Henry VI 2 < 3: removed; York not present; Edward IV rolls 6: removed
    wars.end_war(s2, "York")
    assert not s2["rigged"] and s2["war"] == "IIIY"
    assert [r["lord"] for r in s2["wars"]["removed"] if r["by"] == "natural_causes"] == ["henry_vi", "edward_iv"]
    assert s2["lords"]["rutland"]["locale"] == "London"  # Rutland King with Gloucester (2) his Heir
    s3 = war_state("IIL", "Y M R", "H M S1 S2")  # IIL: no roll for Edward IV (not even March)
    s3["box"] = 15
    rng.rig(s3, [6, 6, 6, 6])
    wars.end_war(s3, "York")
    assert [r["lord"] for r in s3["wars"]["removed"] if r["by"] == "natural_causes"] == ["henry_vi", "york"]


def test_dynastic_victory_in_the_second_war_6_0() -> None:
    """6.0 Dynastic Victory: "A side that has its entire list of Heirs removed ... immediately
    loses the full Wars of the Roses" (Warwick is no Heir before the third War): the Yorkists
    in IIL with York, March, Rutland lost in War I and Gloucester now removed."""
    s = war_state("IIL", "", "H M S1 S2")
    s["stack"] = []
    sv.remove_lord(s, "gloucester_1")
    RULES.steps.settle(s)
    assert s["result"] == "Lancaster" and "Dynastic Victory" in wars.milestones(s)
    assert RULES.active(s) == []


def test_dynastic_victory_by_natural_causes_6_0_6_3() -> None:
    """The Yorkists win IIL with York their only Heir left; Natural Causes removes him: they have
    no Heir left for the third War and lose the Wars of the Roses."""
    s = war_state("IIL", "Y", "H M S1 S2")
    sv.remove_lord(s, "gloucester_1")
    wars.watch(s)
    assert s["result"] is None
    s["box"] = 12
    rng.rig(s, [6, 6, 1, 2])  # Henry VI lives, York 3 < 12
    wars.end_war(s, "York")
    assert s["result"] == "Lancaster" and s["wars"]["winners"] == {"I": "Lancaster", "II": "York"}


def test_lancastrians_never_lose_dynastically_before_war_iii_6_0() -> None:
    """6.0 NOTE: not possible for the Lancastrians in the first and second Wars because of
    Henry Tudor: with their four Heirs gone they lose War II only."""
    s = war_state("IIL", "Y M R", "H")
    s["stack"] = []
    sv.remove_lord(s, "henry_vi")
    RULES.steps.settle(s)
    assert s["result"] is None and s["wars"]["winners"]["II"] == "York" and s["war"] == "IIIY"


def test_third_war_heir_removal_only_decides_the_war_6_3() -> None:
    """6.3 IIIY/IIIL: "Heir removal affects only setup, not play"; the War is lost when all of
    the side's Heirs of this War are removed, and winning the third War wins the Wars of the
    Roses (6.0 Final Victory)."""
    s = war_state("IIIY", "Y M", "M")
    s["stack"] = []
    deck = list(s["aow"]["York"]["deck"])
    sv.remove_lord(s, "york")
    RULES.steps.settle(s)
    assert s["result"] is None and s["lords"]["march"]["locale"] == "Ludlow" and s["aow"]["York"]["deck"] == deck
    sv.remove_lord(s, "march")
    RULES.steps.settle(s)
    assert s["result"] == "Lancaster" and s["wars"]["winners"]["III"] == "Lancaster"
    assert wars.milestones(s) == ["War II", "War III", "Final Victory"]


def test_third_war_ends_at_its_last_box_influence_decides_6_0() -> None:
    """6.0 Final Victory: 5.3 applies after the third War (ties to the King, E FAQ #5)."""
    s = war_state("IIIL", "Y M", "H")
    s["box"] = s["last_box"]
    s["influence"] = 3
    assert sv.victory_check(s) == "York"
    s["influence"] = 0
    assert sv.victory_check(s) == "Lancaster"
    wars.end_war(s, "Lancaster")
    assert s["result"] == "Lancaster"


# ----- Y28 Gloucester as Heir (6.3 IIY, IIL "Gloucester") ---------------------------------------------------
def test_y28_set_aside_in_the_second_war_counts_at_the_third_wars_setup_6_3() -> None:
    """6.3 IIY/IIL Gloucester: Y28, once resolved, is set aside "for reference in setup of the
    next War": at the end of the second War the record notes it, and IIIY then removes Rutland
    when he and Gloucester remain."""
    s = war_state("IIY", "M R", "H M S1 S2")  # Edward IV is King: Y28 is one of his cards
    assert "gloucester_as_heir_aside" in s["special_rules"]
    s["aow"]["York"]["deck"].remove("Y28")
    s["aow"]["York"]["set_aside"].append("Y28")
    assert RULES.check_invariants(s) == []
    s["box"] = 2
    rng.rig(s, [6, 6, 1])  # Natural Causes: Henry VI and Edward IV live
    wars.end_war(s, "York")
    assert not s["rigged"] and s["wars"]["y28"] and s["war"] == "IIIY"
    assert s["lords"]["edward_iv"]["locale"] == "London" and "rutland" not in s["lords"]
    assert s["lords"]["gloucester_1"]["locale"] == "Gloucester"


# ----- views, milestones, whole games -----------------------------------------------------------------
def test_wars_view_is_public_and_the_same_for_both_sides() -> None:
    s = war_state("IIY", "Y M", "H S1 S2")
    views = [RULES.view(s, r)["wars"] for r in ("York", "Lancaster", "Observer")]
    assert views[0] == views[1] == views[2]
    assert views[0]["war"] == "IIY" and views[0]["winners"] == {"I": "York"}
    assert {r["heir"] for r in views[0]["removed"]} == {"Rutland", "Margaret (Edward)"}
    assert "wars" not in RULES.view(RULES.setup(1, "ia-henry-vi"), "York")


@pytest.mark.parametrize("seed", [3, 11])
def test_random_wars_of_the_roses_keep_every_card_in_one_zone(seed: int) -> None:
    """Whole random games through the three Wars: the invariants (every Arts of War card in
    exactly one zone, Command cards those of the Lords in play, the Wars' record) hold after
    every action, and the game ends by a rule."""
    s = RULES.setup(seed, "wars-of-the-roses")
    pick = random.Random(seed)
    seen = set()
    while RULES.result(s) is None:
        role = RULES.active(s)[0]
        verb, arg = pick.choice(RULES.legal_actions(s, role))
        s = RULES.action(s, role, verb, arg)
        seen.add(s["war"])
        assert RULES.check_invariants(s) == []
    assert s["result"] in ("York", "Lancaster") and len(seen) >= 2
