"""Campaign (4.0-4.8): Plan, Command cards, the Command menu, Intercept and Approach hand-off,
Sail and Disembark, End Campaign; hidden Plans and undo. Each test names its rule section."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import pytest

from roses.engine import rng
from roses.engine.contract import canonical_json
from roses.engine.errors import CannotUndo, IllegalAction
from roses.engine.fuzz import _view_problems
from roses.engine.game import Game
from roses.engine.steps import find
from roses.games.plantagenet import RULES, arts
from roses.games.plantagenet import campaign as cp
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import load
from roses.games.plantagenet.records import Where

from .helpers import act, options, place, run_frames, set_troops, to_calendar

State = dict[str, Any]


def _ia(box: int = 2) -> State:
    """Ia with every Lord off the map, so that each test places only those it needs."""
    s = RULES.setup(3, "ia-henry-vi")
    s["box"] = box
    s["first_turn"] = False
    for lid in ("henry_vi", "somerset_1", "york", "march"):
        to_calendar(s, lid, 9)
    _undraw(s)
    s["stack"] = []
    return s


def _undraw(s: State) -> None:
    """The first Levy's Arts of War draw is not ours to make here: the cards go back."""
    for side in ("York", "Lancaster"):
        for cid in list(s["aow"][side]["drawn"]):
            s["aow"][side]["drawn"].remove(cid)
            arts.to_deck(s, side, cid)


def _actions(lord: str, left: int | None = None) -> dict[str, Any]:
    side = sv.side_of(lord)
    return {"step": "actions", "side": side, "lord": lord, "left": 2 if left is None else left, "used": 0,
            "highway": None}


def _activate(s: State, lord: str, left: int | None = None) -> State:
    return run_frames(s, _actions(lord, left))


def _verbs(s: State, verb: str) -> list[Any]:
    return [a for v, a in options(s) if v == verb]


def _prov(s: State, lord: str) -> int:
    return int(s["lords"][lord]["mat"]["assets"]["provender"])


def _top(s: State) -> str | None:
    return s["stack"][-1]["step"] if s["stack"] else None


# ----- 4.1 Plan -------------------------------------------------------------------------------------
def _to_plan(scenario: str = "ia-henry-vi", seed: int = 1) -> State:
    s = RULES.setup(seed, scenario)
    _undraw(s)
    s["stack"] = [f for f in s["stack"] if f["step"] == "calendar" or f["step"] in (
        "begin_campaign", "plan", "command", "tides_of_war", "disembark", "victory_check", "grow", "waste",
        "reset")]
    RULES.steps.settle(s)
    assert _top(s) == "plan"
    return s


def test_plan_both_sides_at_once_in_secret_4_1_2() -> None:
    """Both sides build at once; the other side sees nothing (no count, no card) until both
    have locked in; then only the size of the other's Plan."""
    s = _to_plan()
    assert RULES.active(s) == ["York", "Lancaster"]  # Rebel (York in Ia) listed first
    before_deck = RULES.view(s, "Lancaster")["command"]["York"]["deck"]
    s = RULES.action(s, "York", "add", "york-1")
    s = RULES.action(s, "York", "add", "march-1")
    y, lan = RULES.view(s, "York"), RULES.view(s, "Lancaster")
    assert y["plan_draft"] == ["york-1", "march-1"]
    assert "plan_draft" in lan and lan["plan_draft"] == []  # Lancaster's own (empty) Plan only
    assert lan["command"]["York"] == {"deck": before_deck, "plan": 0, "revealed": []}
    assert '"york-1"' in RULES.secrets(s, "Lancaster") and '"york-1"' not in canonical_json(lan)
    assert _view_problems(RULES, s, ["York", "Lancaster"], RULES.active(s)) == []
    s = RULES.action(s, "Lancaster", "add", "henry_vi-1")
    s = RULES.action(s, "York", "add", "york-2")
    s = RULES.action(s, "York", "add", "march-2")
    assert ("lock", None) in RULES.legal_actions(s, "York")  # 4 cards in box 1 (4.1)
    assert not [a for a in RULES.legal_actions(s, "York") if a[0] == "add"]
    s = RULES.action(s, "York", "lock")
    assert RULES.active(s) == ["Lancaster"]
    assert RULES.view(s, "Lancaster")["command"]["York"]["plan"] == 0  # nothing before both lock in
    for cid in ("henry_vi-2", "somerset-1", "somerset-2"):
        s = RULES.action(s, "Lancaster", "add", cid)
    reveals = s.get("reveals", 0)
    s = RULES.action(s, "Lancaster", "lock")
    assert s["reveals"] == reveals + 2  # the Plans' sizes, then the first card (undo stops here)
    assert s["command"]["York"]["plan"] == ["march-1", "york-2", "march-2"]
    assert s["command"]["York"]["revealed"] == ["york-1"]  # the Rebels' first card (4.2)
    assert "york-1" not in s["command"]["York"]["deck"]
    lan = RULES.view(s, "Lancaster")
    assert lan["command"]["York"]["plan"] == 3 and isinstance(lan["command"]["York"]["deck"], int)
    assert lan["command"]["York"]["revealed"] == ["york-1"]
    assert RULES.view(s, "York")["command"]["York"]["plan"] == ["march-1", "york-2", "march-2"]
    assert RULES.check_invariants(s) == []


def test_plan_offers_one_card_per_badge_and_takes_back_4_1_1() -> None:
    s = _to_plan()
    adds = [a for v, a in RULES.legal_actions(s, "York") if v == "add"]
    assert adds == ["york-1", "march-1", "salisbury-1", "rutland-1", "warwick-1"]  # no Pass: enough Lords
    s = RULES.action(s, "York", "add", "york-1")
    assert "york-2" in [a for v, a in RULES.legal_actions(s, "York") if v == "add"]
    s = RULES.action(s, "York", "remove")
    assert RULES.view(s, "York")["plan_draft"] == []
    with pytest.raises(IllegalAction):
        RULES.action(s, "York", "add", "york-2")  # the first unused card of a badge only
    with pytest.raises(IllegalAction):
        RULES.action(s, "York", "lock")  # not full


def test_pass_cards_only_to_fill_the_plan_ruling_r30_4_1_1() -> None:
    """4.1.1: Pass cards fill the Plan only when too few cards of Lords on the map remain;
    cards of Lords not on the map may be used (4.2.3 makes them do nothing)."""
    s = _ia(box=3)  # 7 cards; only March on the map: 3 of his cards, so at most 4 Pass cards
    place(s, "march", "Ludlow")
    assert cp.pass_limit(s, "York") == 4
    run_frames(s, {"step": "plan", "drafts": {"York": [], "Lancaster": []}, "locked": []})
    for _ in range(4):
        s = RULES.action(s, "York", "add", cp.plan_additions(s, "York", s["stack"][-1]["drafts"]["York"])[-1])
    draft = s["stack"][-1]["drafts"]["York"]
    assert draft == ["pass-1", "pass-2", "pass-3", "pass-4"]
    assert not [a for v, a in RULES.legal_actions(s, "York") if v == "add" and a.startswith("pass")]
    place(s, "york", "Ely")
    place(s, "salisbury", "York")
    assert cp.pass_limit(s, "York") == 0  # 9 cards of Lords on the map for 7 places
    # A side with no cards of Lords in play fills what it can (RULINGS R30).
    assert cp.plan_target(s, "Lancaster") == 7
    s["command"]["Lancaster"]["deck"] = ["pass-1", "pass-2", "pass-3", "pass-4"]
    assert cp.plan_target(s, "Lancaster") == 4


def test_plan_undo_only_own_actions_until_the_other_side_acts_4_1_2() -> None:
    game = Game.new(RULES, 1, "ia-henry-vi")
    game.state = _to_plan()
    game.apply("York", "add", "york-1")
    assert game.can_undo("York")
    game.apply("York", ".undo")
    assert game.view("York")["plan_draft"] == []
    game.apply("York", "add", "york-1")
    game.apply("Lancaster", "add", "henry_vi-1")
    assert not game.can_undo("York")  # the other side's decision came after
    with pytest.raises(CannotUndo):
        game.apply("York", ".undo")


# ----- 4.2 Command ------------------------------------------------------------------------------------
def _command(s: State, york: list[str], lancaster: list[str]) -> State:
    for side, cards in (("York", york), ("Lancaster", lancaster)):
        cm = s["command"][side]
        cm["deck"] = [c for c in cm["deck"] if c not in cards]
        cm["plan"] = list(cards)
    return run_frames(s, {"step": "command", "next": s["rebel"], "feed": 0})


def test_command_alternates_rebel_first_and_reveals_4_2() -> None:
    s = _ia(box=1)
    place(s, "york", "Ely")
    place(s, "henry_vi", "London")
    reveals = s.get("reveals", 0)
    s = _command(s, ["york-1", "pass-1"], ["henry_vi-1", "pass-1"])
    assert s["reveals"] == reveals + 1
    assert s["command"]["York"]["revealed"] == ["york-1"]
    assert RULES.view(s, "Lancaster")["command"]["York"]["revealed"] == ["york-1"]
    assert RULES.view(s, "Lancaster")["activation"] == {"side": "York", "lord": "york", "left": 2}
    assert RULES.active(s) == ["York"] and _top(s) == "actions"
    s = act(s, "pass")
    assert RULES.active(s) == ["Lancaster"]  # then the King's side's card
    assert s["command"]["Lancaster"]["revealed"] == ["henry_vi-1"]
    s = act(s, "pass")
    assert s["stack"] == []  # two Pass cards: nothing happens (4.2.3), then both Plans are empty
    assert s["command"]["York"]["revealed"] == ["york-1", "pass-1"]


def test_pass_card_and_lord_not_on_the_map_do_nothing_4_2_3() -> None:
    s = _ia(box=1)
    place(s, "henry_vi", "London")
    s = _command(s, ["pass-1", "york-1"], ["henry_vi-1"])  # York is on the Calendar
    assert RULES.active(s) == ["Lancaster"]
    log = RULES.log_for(s, "Observer")
    assert any("York reveals a Pass card: nothing happens (4.2.3)" in line for line in log)
    s = act(s, "pass")
    assert s["stack"] == []  # York's second card (a Lord not on the map) did nothing either
    assert any("not on the map: nothing happens" in line for line in RULES.log_for(s, "Observer"))


def test_uneven_plans_the_other_side_goes_on_alone_4_2() -> None:
    s = _ia(box=1)
    place(s, "york", "Ely")
    s = _command(s, ["york-1", "york-2"], [])
    assert s["command"]["York"]["revealed"] == ["york-1"]
    s = act(s, "pass")
    assert s["command"]["York"]["revealed"] == ["york-1", "york-2"] and RULES.active(s) == ["York"]


def test_command_rating_gives_the_actions_and_feed_follows_each_card_4_2_1_4_7() -> None:
    s = _ia(box=1)
    place(s, "march", "Ludlow")  # Command 2
    place(s, "henry_vi", "London")
    s = _command(s, ["march-1"], ["henry_vi-1"])
    assert s["stack"][-1]["left"] == 2
    prov = _prov(s, "march")
    s = act(s, "march", "Hereford")  # Highway: one action, a second Highway may follow
    assert s["moved"] == ["march"]
    s = act(s, "pass")
    assert _prov(s, "march") == prov - 1  # 4 Troops: 1 Provender (4.7)
    assert s["moved"] == [] and RULES.active(s) == ["Lancaster"]  # markers removed, next card


# ----- 4.3 March --------------------------------------------------------------------------------------
def test_situation_7_march_speed_4_3_3() -> None:
    """§7.7: London → St Albans → Cambridge by two Highways costs one action; London →
    Rochester → Canterbury by Roads costs two; a Path takes the whole card, so only first."""
    s = _ia()
    place(s, "york", "London")
    _activate(s, "york", 2)
    assert set(_verbs(s, "march")) == {"St Albans", "Oxford", "Guildford", "Rochester"}
    s = act(s, "march", "St Albans")
    assert s["stack"][-1]["left"] == 1
    assert set(_verbs(s, "march")) == {"Bedford", "Cambridge", "Ipswich", "London"}
    assert s["stack"][-1]["highway"] == {"group": ["york"], "from": "London"}  # back to London costs 1
    s = act(s, "march", "Cambridge")  # the second Highway is free
    assert s["lords"]["york"]["locale"] == "Cambridge" and s["stack"][-1]["left"] == 1
    assert s["stack"][-1]["highway"] is None  # no third Highway
    s = act(s, "march", "Ely")  # the last action, a new Highway March: a second one may follow
    assert s["stack"][-1]["left"] == 0 and _verbs(s, "march") == ["Peterborough"]
    s = act(s, "pass")
    assert s["stack"] == [] and s["lords"]["york"]["locale"] == "Ely"

    s = _ia()
    place(s, "york", "London")
    _activate(s, "york", 2)
    s = act(s, "march", "Rochester")
    assert s["stack"][-1]["left"] == 1 and s["stack"][-1]["highway"] is None
    s = act(s, "march", "Canterbury")
    assert s["stack"] == []

    s = _ia()
    place(s, "march", "Chester")
    _activate(s, "march", 2)
    assert "York" in _verbs(s, "march")  # Path, as the first action
    s = act(s, "march", "Shrewsbury")
    s = act(s, "march", "Chester")
    assert s["stack"] == []
    s = _ia()
    place(s, "march", "Chester")
    _activate(s, "march", 2)
    s = act(s, "march", "York")  # the Path uses the whole card
    assert s["stack"] == [] and s["lords"]["march"]["locale"] == "York"


def test_march_only_from_a_stronghold_or_scotland_4_3_1_3_1() -> None:
    s = _ia()
    s["exile_boxes"]["Scotland"] = "York"
    place(s, "march", "Scotland")
    _activate(s, "march", 2)
    assert sorted(_verbs(s, "march")) == ["Bamburgh", "Carlisle"]  # the one-way Paths (1.3.1)
    s = _ia()
    s["exile_boxes"]["France"] = "York"
    place(s, "march", "France")
    _activate(s, "march", 2)
    assert _verbs(s, "march") == []
    place(s, "salisbury", "Carlisle")
    s["stack"] = []
    _activate(s, "salisbury", 2)
    assert "Scotland" not in _verbs(s, "march")  # never into an Exile box


def test_group_march_marshal_and_lieutenant_4_3_1() -> None:
    """A Marshal may take any or all Lords at his Locale; a Lieutenant any but a Marshal
    (RULINGS R32); all who March are marked Moved."""
    s = _ia()
    place(s, "york", "Ely")  # Marshal
    place(s, "march", "Ely")
    place(s, "salisbury", "Ely")
    _activate(s, "york", 2)
    s = act(s, "march", "Cambridge")
    assert _top(s) == "group"
    assert options(s) == [("go", None), ("take", "march"), ("take", "salisbury"), ("cancel", None)]
    s = act(s, "take", "march")
    s = act(s, "go")
    assert s["lords"]["march"]["locale"] == "Cambridge" and s["lords"]["salisbury"]["locale"] == "Ely"
    assert s["moved"] == ["march", "york"]
    # The free second Highway goes on with the same Group.
    s = act(s, "march", "St Albans")
    assert s["lords"]["march"]["locale"] == "St Albans"

    s = _ia()
    place(s, "warwick_y", "Ely")  # Lieutenant
    place(s, "york", "Ely")       # Marshal: cannot go with a Lieutenant
    place(s, "march", "Ely")
    _activate(s, "warwick_y", 2)
    s = act(s, "march", "Cambridge")
    assert [a for v, a in options(s) if v == "take"] == ["march"]
    s = act(s, "cancel")
    assert _top(s) == "actions" and s["lords"]["warwick_y"]["locale"] == "Ely"


def test_haul_discards_provender_beyond_carts_4_3_2() -> None:
    s = _ia()
    place(s, "march", "Ludlow", provender=4, carts=1)
    _activate(s, "march", 2)
    s = act(s, "march", "Hereford")
    assert _prov(s, "march") == 1  # a lone Lord: done at once
    assert any("discards 3 Provender Haul (4.3.2)" in line for line in RULES.log_for(s, "Observer"))
    # A Group Shares its Carts; which Lord discards the excess is the owner's choice.
    s = _ia()
    place(s, "york", "Ely", provender=3, carts=0)
    place(s, "march", "Ely", provender=2, carts=3)
    _activate(s, "york", 2)
    s = act(s, "march", "Peterborough")
    s = act(s, "take", "march")
    s = act(s, "go")
    assert _top(s) == "discard" and sorted(a for _v, a in options(s)) == ["march", "york"]
    s = act(s, "discard", "march")
    s = act(s, "discard", "march")
    assert (_prov(s, "york"), _prov(s, "march")) == (3, 0)
    assert s["lords"]["york"]["locale"] == "Peterborough"


def test_situation_8_intercept_4_3_4() -> None:
    """§7.8: a Lord adjacent to the destination only by Path cannot Intercept; one adjacent by
    Road with Valour 2 succeeds on 1-2 (marked Moved, Approached); Henry VI (Valour 0) never."""
    def setup() -> State:
        s = _ia()
        place(s, "march", "York")
        place(s, "exeter_1", "Shrewsbury")         # Road to Chester, Valour 2
        place(s, "northumberland_l", "Lancaster")  # Path to Chester
        return _activate(s, "march", 2)

    s = setup()
    s = act(s, "march", "Chester")
    assert RULES.active(s) == ["Lancaster"] and _top(s) == "intercept"
    assert [a for v, a in options(s) if v == "intercept"] == ["exeter_1"]
    rng.rig(s, [3])
    s = act(s, "intercept", "exeter_1")
    assert s["lords"]["exeter_1"]["locale"] == "Shrewsbury" and "exeter_1" not in s["moved"]
    assert RULES.active(s) == []  # the Path took the card; Feed, then nothing else here

    s = setup()
    s = act(s, "march", "Chester")
    rng.rig(s, [2])
    s = act(s, "intercept", "exeter_1")
    log = RULES.log_for(s, "Observer")
    assert any("Exeter (1) Intercepts at Chester: rolls 2, Valour 2" in line for line in log)
    assert any("Approach" in line and "Chester" in line for line in log)
    approach = find(s, "approach")  # the Battle part decides from here (4.3.5)
    assert approach is not None and approach["locale"] == "Chester"
    assert approach["attacker"] == "York" and approach["attackers"] == ["march"]
    assert s["lords"]["exeter_1"]["locale"] == "Chester"
    assert {"exeter_1", "march"} <= set(s["moved"])
    assert find(s, "actions") is None  # Approach ends the card's actions

    s = _ia()
    place(s, "march", "York")
    place(s, "henry_vi", "Shrewsbury")
    _activate(s, "march", 2)
    s = act(s, "march", "Chester")
    rng.rig(s, [1])
    s = act(s, "intercept", "henry_vi")
    assert s["lords"]["henry_vi"]["locale"] == "Shrewsbury"


def test_approach_hands_over_to_the_battle_and_ends_the_card_4_3_5() -> None:
    s = _ia()
    place(s, "york", "Ely")
    place(s, "march", "Ely")
    place(s, "henry_vi", "Cambridge")
    _activate(s, "york", 3)
    s = act(s, "march", "Cambridge")
    s = act(s, "take", "march")
    s = act(s, "go")
    approach = find(s, "approach")
    assert approach is not None
    assert {k: approach[k] for k in ("step", "locale", "attacker", "attackers")} == {
        "step": "approach", "locale": "Cambridge", "attacker": "York", "attackers": ["york", "march"]}
    assert find(s, "actions") is None and s["moved"] == ["march", "york"]
    assert RULES.active(s) == ["Lancaster"]  # Henry VI chooses Exile or Battle (4.3.5)


def test_intercept_at_the_middle_of_two_highways_ruling_r33_4_3_3_4_3_4() -> None:
    """The first Highway ends at the middle Stronghold: Intercept may happen there; the free
    second Highway is a new arrival where Intercept may be tried again."""
    s = _ia()
    place(s, "york", "London")
    place(s, "exeter_1", "Bedford")  # Highway to St Albans, Road to Cambridge
    _activate(s, "york", 1)
    s = act(s, "march", "St Albans")
    assert _top(s) == "intercept" and [a for v, a in options(s) if v == "intercept"] == ["exeter_1"]
    s = act(s, "decline")
    assert _top(s) == "actions" and s["stack"][-1]["left"] == 0 and "Cambridge" in _verbs(s, "march")
    s = act(s, "march", "Cambridge")
    assert _top(s) == "intercept"
    rng.rig(s, [1])
    s = act(s, "intercept", "exeter_1")
    approach = find(s, "approach")
    assert approach is not None and approach["locale"] == "Cambridge"


def test_intercept_with_a_group_and_decline_4_3_4() -> None:
    s = _ia()
    place(s, "march", "Oxford")
    place(s, "henry_vi", "London")    # Marshal, Valour 0
    place(s, "somerset_1", "Guildford")  # Lieutenant, Valour 2; London is a Highway away
    place(s, "exeter_1", "Guildford")
    _activate(s, "march", 1)
    s = act(s, "march", "London")  # Approach at London whatever happens
    assert _top(s) == "intercept" and [a for v, a in options(s) if v == "intercept"] == ["exeter_1", "somerset_1"]
    s = act(s, "intercept", "somerset_1")
    assert _top(s) == "group" and [a for v, a in options(s) if v == "take"] == ["exeter_1"]
    s = act(s, "take", "exeter_1")
    rng.rig(s, [2])
    s = act(s, "go")
    assert any("Somerset (1), Exeter (1) Intercept from Guildford to London" in line
               for line in RULES.log_for(s, "Observer"))
    s2 = _ia()
    place(s2, "march", "Oxford")
    place(s2, "exeter_1", "Guildford")
    _activate(s2, "march", 1)
    s2 = act(s2, "march", "London")
    s2 = act(s2, "decline")
    assert s2["lords"]["exeter_1"]["locale"] == "Guildford" and s2["lords"]["march"]["locale"] == "London"


# ----- 4.5 Supply, 4.6.2 Forage, 4.6.3 Tax, 4.6.4 Parley, 4.6.5 Pass -----------------------------------
def test_supply_action_depletes_and_declares_carts_4_5() -> None:
    s = _ia()
    place(s, "york", "Ely", provender=0, carts=4)
    s["favour"]["Peterborough"] = "York"
    s["exhaustion"]["Peterborough"] = "depleted"
    _activate(s, "york", 2)
    assert set(_verbs(s, "supply")) >= {"Ely", "Peterborough"}
    s = act(s, "supply", "Peterborough")  # City: 2 Provender, 2 Carts per Way (4.5.2 EXAMPLE)
    assert _prov(s, "york") == 2 and s["exhaustion"]["Peterborough"] == "exhausted"
    assert any("2 Carts over 1 Ways" in line for line in RULES.log_for(s, "Observer"))
    s = act(s, "supply", "Ely")
    assert _prov(s, "york") == 4 and s["stack"] == []


def test_supply_at_a_port_stronghold_or_ships_the_players_choice_4_5_2() -> None:
    """A Friendly Port may be a Stronghold Source (table amount, Depleted) or a Port Source
    (one per Ship, never Depleted): both are offered (RULINGS R38)."""
    s = _ia()
    s["favour"].update({"Bristol": "York", "Harlech": "York"})
    place(s, "march", "Bristol", provender=0, ships=2, carts=0)
    _activate(s, "march", 2)
    assert _verbs(s, "supply") == ["Bristol", "Bristol:ships", "Harlech:ships"]
    s = act(s, "supply", "Bristol:ships")
    assert _prov(s, "march") == 2 and "Bristol" not in s["exhaustion"]
    assert any("Supplies 2 Provender with Ships from the Port Bristol" in line for line in RULES.log_for(s, "Observer"))
    s = act(s, "supply", "Bristol")
    assert _prov(s, "march") == 4 and s["exhaustion"]["Bristol"] == "depleted"


def test_forage_4_6_2() -> None:
    s = _ia()
    place(s, "york", "Ely", provender=0)
    _activate(s, "york", 2)
    s = act(s, "forage")  # Friendly, no Enemy adjacent: sure
    assert _prov(s, "york") == 1 and s["exhaustion"]["Ely"] == "depleted"
    s = act(s, "forage")
    assert _prov(s, "york") == 2 and s["exhaustion"]["Ely"] == "exhausted"
    s = _ia()
    place(s, "york", "Cambridge", provender=0)  # Neutral: 1-4
    _activate(s, "york", 2)
    rng.rig(s, [5, 4])
    s = act(s, "forage")
    assert _prov(s, "york") == 0 and "Cambridge" not in s["exhaustion"]
    s = act(s, "forage")
    assert _prov(s, "york") == 1
    s = _ia()
    place(s, "york", "Ely", provender=0)
    place(s, "henry_vi", "Cambridge")  # an Enemy Lord adjacent: 1-3 even at a Friendly Locale
    _activate(s, "york", 2)
    rng.rig(s, [4, 3])
    s = act(s, "forage")
    assert _prov(s, "york") == 0
    s = act(s, "forage")
    assert _prov(s, "york") == 1
    s = _ia()
    place(s, "york", "Ely")
    s["exhaustion"]["Ely"] = "exhausted"
    _activate(s, "york", 2)
    assert "forage" not in dict(options(s))


def test_tax_own_seat_sure_and_london_with_a_check_4_6_3() -> None:
    s = _ia()
    place(s, "york", "Ely", coin=0)
    _activate(s, "york", 2)
    rolls = s["rolls"]
    s = act(s, "tax", "Ely")  # his Seat: no check, no cost
    assert s["lords"]["york"]["mat"]["assets"]["coin"] == 2 and s["rolls"] == rolls and s["influence"] == 0
    assert s["exhaustion"]["Ely"] == "depleted"
    s = _ia()
    place(s, "somerset_1", "London", coin=0)  # his Seat is Wells: London needs a check
    _activate(s, "somerset_1", 2)
    assert set(_verbs(s, "tax")) == {"London"}  # Wells: no Friendly Route; Calais, Harlech not Friendly
    s = act(s, "tax", "London")
    assert _top(s) == "boost" and [a for _v, a in options(s)] == [0, 1, 3]
    rng.rig(s, [6, 5])
    s = act(s, "spend", 1)  # 2 Influence points, rating 5 + 1: a 6 always fails (1.4.2)
    assert s["influence"] == 2 and s["lords"]["somerset_1"]["mat"]["assets"]["coin"] == 0
    s = act(s, "tax", "London")
    s = act(s, "spend", 0)
    assert s["influence"] == 3  # Lancaster spent 3 in all: the net moves toward York
    assert s["lords"]["somerset_1"]["mat"]["assets"]["coin"] == 3 and s["exhaustion"]["London"] == "depleted"


def test_parley_own_location_sure_and_adjacent_with_a_check_4_6_4() -> None:
    s = _ia()
    place(s, "york", "Cambridge")
    _activate(s, "york", 2)
    s = act(s, "parley", "Cambridge")
    assert sv.favour(s, "Cambridge") == "York" and s["influence"] == 0
    assert set(_verbs(s, "parley")) == {"St Albans", "Bury St Edmunds", "Bedford"}  # one Way away
    s = act(s, "parley", "Bedford")
    rng.rig(s, [3])
    s = act(s, "spend", 0)  # 1 + 1 Way; Influence 5 against 3
    assert sv.favour(s, "Bedford") == "York" and s["influence"] == -2


def test_pass_ends_the_card_4_6_5() -> None:
    s = _ia()
    place(s, "york", "Ely")
    _activate(s, "york", 2)
    assert ("pass", None) in options(s)
    s = act(s, "pass")
    assert s["stack"] == []


# ----- 4.6.1 Sail, 4.8.2 Disembark ------------------------------------------------------------------
def _york_at_newcastle() -> State:
    """§7.16: York at Newcastle with 1 Ship, Retinue + 5 Troops, 2 Carts and 5 Provender."""
    s = _ia()
    place(s, "york", "Newcastle", ships=1, carts=2, provender=5)
    set_troops(s, "york", men_at_arms=2, longbowmen=2, militia=1)
    return _activate(s, "york", 2)


def test_situation_16_sailing_example_4_6_1() -> None:
    s = _york_at_newcastle()
    dests = _verbs(s, "sail")
    assert set(dests) == {"Lynn", "Ravenspur", "Ipswich", "Scarborough", "North Sea", "English Channel"}
    assert "Harlech" not in dests and "Dover" not in dests  # no Port to Port across Seas (E FAQ #1)
    s = act(s, "sail", "North Sea")
    assert _prov(s, "york") == 2  # 3 Provender discarded to Sail
    assert s["lords"]["york"]["where"] == Where.SEA and s["lords"]["york"]["locale"] == "North Sea"
    log = RULES.log_for(s, "Observer")
    assert any("discards 3 Provender to Sail (4.6.1)" in line for line in log)
    assert any("1 Ships carry 6 Forces, 2 Provender and 2 Carts" in line for line in log)
    assert s["stack"] == []  # Sail takes the whole card
    assert any("at Sea outside the Campaign" in p for p in RULES.check_invariants(s))
    s["stack"] = [{"step": "disembark"}]
    assert RULES.check_invariants(s) == []  # until Disembark (4.8.2)
    # Disembark: 1-4 Shipwreck (4.8.2): removed, Seat and Command cards gone, penalty.
    rng.rig(s, [3])
    run_frames(s, {"step": "disembark"})
    assert s["lords"]["york"]["where"] == Where.REMOVED and "york" not in s["seats"]
    assert s["influence"] == -5  # Influence 5, no Vassals
    assert not any(cid.startswith("york-") for cid in s["command"]["York"]["deck"])


def test_sail_from_sea_to_a_port_of_an_adjacent_sea_4_6_1() -> None:
    s = _ia()
    place(s, "warwick_y", "Calais")  # 2 Ships, 7 Forces
    s["lords"]["warwick_y"].update(where=Where.SEA, locale="English Channel")
    place(s, "henry_vi", "Dover")
    _activate(s, "warwick_y", 2)
    dests = set(_verbs(s, "sail"))
    assert {"Calais", "Exeter", "North Sea", "Irish Sea", "Lynn", "Bristol", "Harlech"} <= dests
    assert "Dover" not in dests and "English Channel" not in dests  # Enemy Lord; already there
    assert _verbs(s, "march") == [] and _verbs(s, "supply") == []  # at Sea: Sail or Pass only
    s = act(s, "sail", "Lynn")
    assert s["lords"]["warwick_y"]["where"] == Where.MAP and s["lords"]["warwick_y"]["locale"] == "Lynn"
    assert s["stack"] == []


def test_sail_needs_ships_for_forces_and_groups_share_them_4_6_1() -> None:
    s = _ia()
    place(s, "march", "Bristol", ships=0)
    _activate(s, "march", 2)
    assert _verbs(s, "sail") == []  # no Ship
    s = _ia()
    place(s, "york", "Bristol", ships=1)  # Marshal with 7 Forces: one Ship is not enough
    place(s, "march", "Bristol", ships=1)  # 5 Forces
    _activate(s, "york", 2)
    assert "Irish Sea" in _verbs(s, "sail")  # possible with March's Ship
    s = act(s, "sail", "Pembroke")
    assert _top(s) == "group" and ("go", None) not in options(s)
    s = act(s, "take", "march")
    assert ("go", None) in options(s)  # 2 Ships for 12 Forces
    s = act(s, "go")
    assert {s["lords"][x]["locale"] for x in ("york", "march")} == {"Pembroke"}
    assert s["moved"] == ["march", "york"]
    s = _ia()
    place(s, "march", "Bristol", ships=1)
    _activate(s, "march", 2)
    s = act(s, "forage")
    assert _verbs(s, "sail") == []  # the whole card: only as the first action


def test_disembark_land_at_a_free_port_and_feed_or_disband_4_8_2() -> None:
    s = _ia()
    place(s, "york", "Newcastle", provender=0)
    s["lords"]["york"].update(where=Where.SEA, locale="North Sea")
    place(s, "henry_vi", "Lynn")
    rng.rig(s, [6])
    run_frames(s, {"step": "disembark"})
    assert _top(s) == "land" and RULES.active(s) == ["York"]
    assert [a for _v, a in options(s)] == ["Ravenspur", "Ipswich", "Newcastle", "Scarborough"]
    s = act(s, "land", "Scarborough")
    assert s["lords"]["york"]["locale"] == "Scarborough"
    # He must Feed at once (4.7): 6 Troops and no Provender, so he Pillages Scarborough (a Town:
    # 1 Coin, 1 Provender, 4 Influence) and eats the Provender gained (3.2.1).
    assert s["stack"] == [] and s["moved"] == []
    assert _prov(s, "york") == 0 and s["influence"] == -4
    assert s["exhaustion"]["Scarborough"] == "exhausted" and sv.favour(s, "Scarborough") == "Lancaster"
    s = _ia()
    place(s, "march", "Bristol")
    s["lords"]["march"].update(where=Where.SEA, locale="Irish Sea")
    for port, lord in (("Bristol", "henry_vi"), ("Pembroke", "somerset_1"), ("Harlech", "exeter_1")):
        place(s, lord, port)
    rng.rig(s, [5])
    run_frames(s, {"step": "disembark"})
    assert s["lords"]["march"]["where"] == Where.CALENDAR and not s["lords"]["march"]["exile"]
    assert s["influence"] == 0  # Disbands normally: no penalty


def test_lords_at_sea_are_not_on_the_map_for_tides_of_war_ruling_r31_4_8_1() -> None:
    """1.3.1: "on the map" means at a Locale; a Sea is none: a Lord at Sea scores no Area and
    no Gain Lords Influence (box 1 has it)."""
    s = _ia(box=1)
    place(s, "march", "Ludlow")
    place(s, "york", "Newcastle")
    assert sv.tides_of_war(s)["York"]["lords"] == 7
    s["lords"]["york"].update(where=Where.SEA, locale="North Sea")
    tides = sv.tides_of_war(s)["York"]
    assert tides["lords"] == 2 and "lord in North" not in tides
    assert sv.on_map(s, "York") == ["march"]


def test_disembark_rebel_lords_first_4_8_2() -> None:
    s = _ia()
    for lord, port in (("henry_vi", "Bristol"), ("york", "Newcastle")):
        place(s, lord, port)
        s["lords"][lord].update(where=Where.SEA, locale="North Sea" if lord == "york" else "Irish Sea")
    rng.rig(s, [1, 2])
    run_frames(s, {"step": "disembark"})
    log = RULES.log_for(s, "Observer")
    wrecks = [line.split(" at ")[0] for line in log if "Shipwreck" in line]
    assert wrecks == ["York", "Henry VI"]  # Yorkists are the Rebels in Ia (2.2.4)


# ----- 4.8 End Campaign -------------------------------------------------------------------------------
def test_end_campaign_order_and_reset_4_8() -> None:
    s = RULES.setup(1, "ia-henry-vi")
    order = [f["step"] for f in cp.campaign_frames(s)]
    assert order == ["begin_campaign", "plan", "command", "tides_of_war", "disembark", "victory_check", "grow",
                     "waste", "reset"]
    s["command"]["York"]["revealed"] = ["york-1"]
    s["command"]["York"]["deck"].remove("york-1")
    s["aow"]["York"]["held"].append(s["aow"]["York"]["deck"].pop(0))
    run_frames(s, {"step": "reset"})
    assert _top(s) == "discard_held" and RULES.active(s) == ["York"]  # R then B (4.8.6)
    s = act(s, "done")
    assert s["box"] == 2 and "york-1" in s["command"]["York"]["deck"]
    assert s["command"]["York"]["revealed"] == []


# ----- hidden information and undo ------------------------------------------------------------------
def test_hidden_mats_declarations_are_public_reveals_1_5_3() -> None:
    s = _ia()
    s["options"]["hidden_mats"] = True
    place(s, "march", "Ludlow", provender=3, carts=1)
    _activate(s, "march", 2)
    reveals = s.get("reveals", 0)
    s = act(s, "march", "Hereford")
    assert s["reveals"] > reveals
    lan = RULES.log_for(s, "Lancaster")
    assert any("Hauling 1 Provender with 1 Carts" in line for line in lan)
    assert RULES.view(s, "Lancaster")["lords"]["march"]["mat"] == "hidden"


def test_undo_never_crosses_a_roll_or_a_reveal_campaign() -> None:
    game = Game.new(RULES, 1, "ia-henry-vi")
    s = _ia()
    place(s, "york", "Ely")
    place(s, "march", "Ludlow")
    game.state = _activate(s, "york", 2)
    game.apply("York", "march", "Cambridge")
    assert game.can_undo("York")  # nothing rolled or revealed
    game.apply("York", ".undo")
    assert game.state["lords"]["york"]["locale"] == "Ely"
    game.state["lords"]["york"]["locale"] = "Cambridge"
    game.apply("York", "forage")  # Neutral: a roll
    assert not game.can_undo("York")
    # A reveal: York's next Command card is turned up after his Pass, still York to act.
    s = _ia(box=1)
    place(s, "york", "Ely")
    game.state = _command(s, ["york-1", "york-2"], [])
    game.apply("York", "pass")
    assert RULES.active(game.state) == ["York"] and game.state["command"]["York"]["revealed"] == ["york-1", "york-2"]
    assert not game.can_undo("York")


def test_invariants_of_the_campaign() -> None:
    s = _ia()
    place(s, "york", "Ely")
    s["lords"]["york"]["where"] = Where.SEA
    assert any("at Sea but not at a Sea" in p for p in RULES.check_invariants(s))
    s = _ia()
    s["command"]["York"]["plan"] = ["york-1"]
    s["command"]["York"]["deck"].remove("york-1")
    assert any("a Plan outside the Command cards" in p for p in RULES.check_invariants(s))


# ----- Routes: one search gives every target (speed), same answers as one search per target ------
def _route_by_target(s: State, side: str, start: str, target: str, purpose: str, lord: str | None,
                     ships: bool) -> int | None:
    """A Route searched for one target only (3.4.1, 4.5.1, 4.6.3), as the test's reference."""
    if start == target:
        return 0
    if sv.enemy_lords_at(s, start, side) or not sv.is_friendly(s, start, side):
        return None
    seen = {start: 0}
    queue = deque([start])
    while queue:
        loc = queue.popleft()
        for nxt in sv._neighbours(s, loc, lord, ships):
            if nxt in seen or sv.enemy_lords_at(s, nxt, side):
                continue
            if nxt == target and purpose == "parley":
                if load().locales[nxt]["kind"] != "stronghold":
                    continue
            elif not sv.is_friendly(s, nxt, side):
                continue
            seen[nxt] = seen[loc] + 1
            if nxt == target:
                return seen[nxt]
            queue.append(nxt)
    return None


@pytest.mark.parametrize("seed", range(6))
def test_route_tree_agrees_with_one_search_per_target_3_4_1_4_5_1(seed: int) -> None:
    c = load()
    pick = random.Random(seed)
    s = _ia()
    strongholds = c.strongholds()
    for loc in strongholds:
        s["favour"].pop(loc, None)
        r = pick.random()
        if r < 0.45:
            s["favour"][loc] = "York"
        elif r < 0.7:
            s["favour"][loc] = "Lancaster"
    place(s, "york", pick.choice(strongholds), ships=pick.choice([0, 1]), carts=pick.choice([0, 1, 3]))
    s["exhaustion"].update({loc: "depleted" for loc in pick.sample(strongholds, 8)})
    s["exhaustion"].update({loc: "exhausted" for loc in pick.sample(strongholds, 8)})
    place(s, "henry_vi", pick.choice(strongholds))
    place(s, "somerset_1", pick.choice(strongholds))
    s["exile_boxes"]["Burgundy"] = "York"
    for start in [*strongholds, "Burgundy"]:
        s["lords"]["york"]["locale"] = start
        ships = sv.lord_has_ships(s, "york")
        for target in strongholds:
            for purpose in ("parley", "supply", "tax"):
                want = _route_by_target(s, "York", start, target, purpose, "york", ships)
                assert sv.route_ways(s, "York", start, target, purpose=purpose, lord="york", ships=ships) == want
        if sv.enemy_lords_at(s, start, "York"):
            continue
        targets = sv.parley_targets(s, "york")
        if start in c.locales and c.locales[start]["kind"] == "stronghold" and not sv.is_friendly(s, start, "York"):
            assert targets == {start: 0}
            continue
        want_t = {t: w for t in strongholds if not sv.is_friendly(s, t, "York")
                  and (w := _route_by_target(s, "York", start, t, "parley", "york", ships)) is not None}
        assert targets == want_t and list(targets) == [t for t in strongholds if t in want_t]
        assert sv.parley_targets(s, "york", campaign=True) == {t: w for t, w in want_t.items() if w <= 1}
        if sv.is_friendly(s, start, "York"):
            assert sv.supply_options(s, "york") == _supply_by_source(s, "york")


def _supply_by_source(s: State, lord: str) -> dict[str, Any]:
    """Supply Sources found one Source at a time (4.5.1-4.5.2), as the test's reference."""
    c = load()
    side = sv.side_of(lord)
    here = s["lords"][lord]["locale"]
    carts, ships = sv.shared_assets(s, lord, "carts"), sv.shared_assets(s, lord, "ships")
    overland_ok = c.locales[here]["kind"] != "exile" or here == "Scotland"
    out: dict[str, Any] = {}
    for src in c.strongholds():
        if not sv.is_friendly(s, src, side) or sv.enemy_lords_at(s, src, side):
            continue
        w = _route_by_target(s, side, here, src, "supply", None, False) if overland_ok else None
        best: dict[str, Any] | None = None
        if w is not None and not sv.is_exhausted(s, src):
            amt = int(c.tables["strongholds"][c.locales[src]["type"]]["supply"])
            best = {"kind": "stronghold", "ways": w, "amount": amt if w == 0 else min(amt, carts // w)}
        if ships and c.locales[src]["port"]:
            pw = 0 if c.sea_of(here) == c.locales[src]["port"] else w
            if pw is not None:
                amt = ships if pw == 0 else min(ships, carts // pw)
                if best is None or amt > best["amount"]:
                    best = {"kind": "port", "ways": pw, "amount": amt}
        if best is not None and best["amount"] > 0:
            out[src] = best
    return out


def test_fast_is_legal_agrees_with_options() -> None:
    """Actions.is_legal checks one verb only; it must give the answer of the options."""
    step = RULES.steps["actions"]
    universe = [None, 3, *load().locales]
    checked = 0
    for seed in range(4):
        pick = random.Random(seed)
        s = RULES.setup(seed, "iii-my-kingdom-for-a-horse")
        while RULES.result(s) is None and checked < 60:
            active = RULES.active(s)
            role = pick.choice(active)
            frame = s["stack"][-1]
            if frame["step"] == "actions":
                checked += 1
                legal = set(RULES.legal_actions(s, role))
                for verb in ("march", "sail", "supply", "forage", "tax", "parley", "pass", "other"):
                    for arg in universe:
                        assert step.is_legal(s, frame, role, verb, arg) == ((verb, arg) in legal), (verb, arg)
            RULES.action(s, role, *pick.choice(RULES.legal_actions(s, role)))
    assert checked > 10


def test_plan_fast_is_legal_agrees_with_options_4_1() -> None:
    step = RULES.steps["plan"]
    for seed in range(3):
        pick = random.Random(seed)
        s = _to_plan(seed=seed)
        universe = [None, 1, "york-9", *load().command_cards["York"], *load().command_cards["Lancaster"]]
        while _top(s) == "plan":
            frame = s["stack"][-1]
            for role in RULES.active(s):
                legal = set(RULES.legal_actions(s, role))
                for verb in ("add", "remove", "lock", "other"):
                    for arg in universe:
                        assert step.is_legal(s, frame, role, verb, arg) == ((verb, arg) in legal), (verb, arg)
            role = pick.choice(RULES.active(s))
            RULES.action(s, role, *pick.choice(RULES.legal_actions(s, role)))


@pytest.mark.parametrize("seed", range(4))
def test_command_menu_memo_gives_the_same_targets_4_5_4_6_3_4_6_4(seed: int) -> None:
    """The Command menu shares one Enemy scan and Route search (services.Memo) among Supply
    (4.5.1), Tax (4.6.3) and Parley (4.6.4); each list must be the one computed alone."""
    c = load()
    pick = random.Random(seed)
    s = _ia()
    strongholds = c.strongholds()
    for loc in strongholds:
        s["favour"].pop(loc, None)
        r = pick.random()
        if r < 0.45:
            s["favour"][loc] = "York"
        elif r < 0.7:
            s["favour"][loc] = "Lancaster"
    s["exhaustion"].update({loc: "depleted" for loc in pick.sample(strongholds, 6)})
    place(s, "henry_vi", pick.choice(strongholds))
    place(s, "somerset_1", pick.choice(strongholds))
    for start in strongholds:
        place(s, "york", start, ships=pick.choice([0, 1, 2]), carts=pick.choice([0, 1, 3]))
        memo: sv.Memo = {}
        assert sv.supply_choices(s, "york", memo) == sv.supply_choices(s, "york")
        assert sv.tax_targets(s, "york", memo) == sv.tax_targets(s, "york")
        assert sv.parley_targets(s, "york", campaign=True, memo=memo) == sv.parley_targets(s, "york", campaign=True)
        assert sv.parley_targets(s, "york", memo=memo) == sv.parley_targets(s, "york")
        if sv.is_friendly(s, start, "York"):
            assert ("enemy", "York") in memo  # the Enemy scan was made once, for the whole menu


def _scenario_ii() -> State:
    s = RULES.setup(3, "ii-warwicks-rebellion")
    s["box"], s["first_turn"], s["stack"] = 2, False, []
    _undraw(s)
    s["favour"].update({"Canterbury": "Lancaster", "Dover": "Lancaster", "Rochester": "Lancaster",
                        "Hastings": "Lancaster"})
    return s


def test_shaky_allies_margaret_and_warwick_never_march_or_sail_into_one_stronghold_6_0_ii() -> None:
    """Shaky Allies (6.0 II): Margaret and Warwick may never enter the same Stronghold: no March
    or Sail there, alone or in a Group, and no Group of both (RULINGS R87)."""
    s = _scenario_ii()
    place(s, "warwick_l", "Canterbury")
    place(s, "margaret", "Dover")
    _activate(s, "warwick_l", 2)
    assert "Dover" not in _verbs(s, "march") and "Rochester" in _verbs(s, "march")
    s = _scenario_ii()
    place(s, "warwick_l", "Canterbury")
    place(s, "margaret", "Rochester")
    _activate(s, "margaret", 2)
    assert "Canterbury" not in _verbs(s, "march") and "Dover" not in _verbs(s, "march")  # Dover: a Road too far
    # A Group: both in the France Exile box (no Stronghold); Margaret, a Marshal, may not take
    # Warwick with her as she Sails to a Port.
    s = _scenario_ii()
    place(s, "margaret", "France", ships=2)
    place(s, "warwick_l", "France", ships=2)
    _activate(s, "margaret", 2)
    act(s, "sail", "Dover")
    assert s["stack"][-1]["step"] == "group" and ("take", "warwick_l") not in options(s)
    assert ("go", None) in options(s)
    # Sail: not to a Port where the other is.
    s = _scenario_ii()
    place(s, "warwick_l", "Calais", ships=2)
    place(s, "margaret", "Hastings")
    _activate(s, "warwick_l", 2)
    assert "Hastings" not in _verbs(s, "sail") and "Dover" in _verbs(s, "sail")
    # Without the special rule nothing is barred.
    s = _scenario_ii()
    s["special_rules"].remove("shaky_allies")
    place(s, "warwick_l", "Canterbury")
    place(s, "margaret", "Dover")
    _activate(s, "warwick_l", 2)
    assert "Dover" in _verbs(s, "march")
