"""Each scenario's setup checked item by item against its rulebook page (6.0-6.3)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from roses.engine.errors import BadOptions, UnknownScenario
from roses.games.plantagenet import RULES
from roses.games.plantagenet.components import load
from roses.games.plantagenet.services import net_stronghold_favour, plan_size
from roses.games.plantagenet.setup import (
    SCENARIOS,
    aow_cards,
    scenario_data,
    setup_state,
    special_rules,
    threshold,
    war_data,
)

NORTH = ["Appleby", "Bamburgh", "Carlisle", "Hexham", "Newcastle", "Scarborough"]
SOUTH = ["Arundel", "Canterbury", "Dover", "Guildford", "Hastings", "Rochester", "Salisbury",
         "Southampton", "Winchester"]
ALL_VASSALS = ["beaumont", "bonville", "devon", "dudley", "essex", "fauconberg", "norfolk", "oxford",
               "shrewsbury", "stanley", "suffolk", "westmorland", "worcester"]


def _setup(scenario: str, **opts: Any) -> dict[str, Any]:
    """The state as the scenario sets it up (6.0), before play begins: the first Levy's draw
    (3.1.2) changes the decks at once."""
    state = setup_state(7, scenario, opts or None)
    state["stack"] = []
    return state


def _where(state: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    out: dict[str, tuple[Any, ...]] = {}
    for lid, d in state["lords"].items():
        if d["where"] in ("map", "battle"):
            out[lid] = (d["where"], d["locale"])
        elif d["where"] == "calendar":
            out[lid] = ("calendar", d["box"], d["exile"])
        else:
            out[lid] = (d["where"],)
    return out


def _favour(state: dict[str, Any], side: str) -> list[str]:
    return sorted(loc for loc, s in state["favour"].items() if s == side)


def _vassals_at_seats(state: dict[str, Any]) -> list[str]:
    return sorted(v for v, d in state["vassals"].items() if d["where"] == "seat")


def _markers(state: dict[str, Any]) -> dict[str, tuple[str | None, int]]:
    return net_stronghold_favour(state)


def _aow_counts(cards: list[str]) -> dict[int, int]:
    c = load()
    out: dict[int, int] = {}
    for cid in cards:
        out[c.cards[cid]["roses"]] = out.get(c.cards[cid]["roses"], 0) + 1
    return out


def _check_common(state: dict[str, Any]) -> None:
    json.dumps(state)
    assert state["roles"] == ["York", "Lancaster"]
    assert state["result"] is None
    assert RULES.check_invariants(state) == []
    for lid, d in state["lords"].items():
        if d["mat"] is not None:
            lord = load().lords[lid]
            for t, n in lord["troops"].items():
                assert d["mat"]["troops"][t] == n
            assert d["mat"]["assets"] == lord["assets"]


def test_ia_henry_vi_page_20() -> None:
    s = _setup("ia-henry-vi")
    _check_common(s)
    assert (s["king"], s["rebel"], s["first_box"], s["last_box"], s["box"]) == ("Lancaster", "York", 1, 15, 1)
    assert _where(s) == {
        "henry_vi": ("map", "London"), "somerset_1": ("map", "London"),
        "northumberland_l": ("calendar", 2, False), "exeter_1": ("calendar", 3, False),
        "buckingham": ("calendar", 5, False),
        "york": ("map", "Ely"), "march": ("map", "Ludlow"), "salisbury": ("calendar", 2, False),
        "warwick_y": ("calendar", 3, False), "rutland": ("calendar", 5, False),
    }
    assert s["seats"] == {"henry_vi": "London", "somerset_1": "Wells", "northumberland_l": "Carlisle",
                          "exeter_1": "Exeter", "buckingham": "Coventry", "york": "Ely", "march": "Ludlow",
                          "salisbury": "York", "warwick_y": "Calais", "rutland": "Canterbury"}
    assert s["exile_boxes"] == {"Scotland": "Lancaster", "France": "Lancaster", "Ireland": "York", "Burgundy": "York"}
    assert _vassals_at_seats(s) == ALL_VASSALS
    assert _favour(s, "Lancaster") == ["London", "Wells"]
    assert _favour(s, "York") == ["Ely", "Ludlow"]
    assert s["influence"] == 0
    assert _markers(s) == {"City": (None, 0), "Town": (None, 0), "Fortress": ("York", 1)}
    assert [threshold(s, b) for b in (1, 5, 6, 10, 11, 15)] == [40, 40, 35, 35, 30, 30]
    for side in ("York", "Lancaster"):
        assert _aow_counts(s["aow"][side]["deck"]) == {0: 13, 1: 9}
    # Command cards of the Lords in play only (6.2.2 ADD, RULINGS R17): 5 badges x 3 + 4 Pass.
    assert len(s["command"]["York"]["deck"]) == 19 and len(s["command"]["Lancaster"]["deck"]) == 19
    nets = s["allied_networks"]
    assert nets["henry_vi"] == nets["somerset"] == "Scotland"
    assert nets["northumberland"] == nets["exeter"] == nets["buckingham"] == "France"
    assert nets["york"] == nets["rutland"] == "Ireland"
    assert nets["march"] == nets["warwick"] == nets["salisbury"] == "Burgundy"
    assert {"allied_networks", "capture_of_the_king"} <= set(s["special_rules"])


def test_ib_towton_page_22() -> None:
    s = _setup("ib-towton")
    _check_common(s)
    assert (s["king"], s["first_box"], s["last_box"]) == ("Lancaster", 1, 1)
    assert scenario_data()["ib-towton"]["end_marker"] == 2
    assert _where(s) == {"somerset_1": ("map", "Newcastle"), "exeter_1": ("map", "Newcastle"),
                         "northumberland_l": ("map", "Carlisle"), "march": ("map", "London"),
                         "norfolk": ("map", "London"), "warwick_y": ("map", "London")}
    assert s["lords"]["march"]["mat"]["vassals"] == ["fauconberg"]
    assert s["vassals"]["fauconberg"] == {"where": "mat", "lord": "march", "box": 4, "face_up": True}
    assert _vassals_at_seats(s) == [v for v in ALL_VASSALS if v not in ("fauconberg", "norfolk")]
    assert _favour(s, "Lancaster") == sorted(["St Albans", *NORTH])
    assert _favour(s, "York") == sorted(["London", "Calais", "Hereford", "Gloucester", "Oxford", *SOUTH])
    assert s["exile_boxes"] == {}
    assert s["influence"] == 0
    # "No Stronghold markers": the counts are derived from the map all the same (RULINGS R5).
    assert _markers(s)["City"] == ("York", 6)
    assert threshold(s) is None
    assert {"norfolk_is_late", "test_of_arms"} <= set(s["special_rules"])
    assert (s["box"], RULES.steps.phase(RULES.setup(7, "ib-towton"))) == (1, "levy")
    for side in ("York", "Lancaster"):
        assert _aow_counts(s["aow"][side]["deck"]) == {0: 13, 1: 9}


def test_ic_somersets_return_page_23() -> None:
    s = _setup("ic-somersets-return")
    _check_common(s)
    assert (s["king"], s["rebel"], s["first_box"], s["last_box"]) == ("York", "Lancaster", 5, 7)
    assert scenario_data()["ic-somersets-return"]["end_marker"] == 8
    assert _where(s) == {"march": ("map", "London"), "warwick_y": ("map", "London"),
                         "somerset_1": ("map", "Bamburgh"), "henry_vi": ("calendar", 5, True)}
    assert s["lords"]["warwick_y"]["mat"]["capabilities"] == ["L23"]
    assert s["lords"]["warwick_y"]["mat"]["special_vassals"] == ["montagu"]
    assert s["special_vassals"]["montagu"] == "warwick_y"
    assert "L23" not in s["aow"]["Lancaster"]["deck"]
    assert set(s["seats"]) == {"march", "warwick_y", "henry_vi", "somerset_1"}
    assert s["exile_boxes"] == {"Burgundy": "York", "Scotland": "Lancaster"}
    assert _vassals_at_seats(s) == ALL_VASSALS
    assert _favour(s, "York") == sorted(["Ludlow", "Hereford", "London", "Calais", *SOUTH])
    assert _favour(s, "Lancaster") == sorted(["Harlech", "Pembroke", "Cardiff", "Chester", "Lancaster", *NORTH])
    assert s["influence"] == -6  # 6 on the Lancastrian side
    assert _markers(s) == {"Fortress": ("Lancaster", 1), "Town": (None, 0), "City": ("York", 2)}
    assert threshold(s) == 25
    assert {"montagu", "brief_rebellion"} <= set(s["special_rules"])
    assert (s["box"], RULES.steps.phase(RULES.setup(7, "ic-somersets-return"))) == (5, "levy")
    assert _aow_counts(s["aow"]["York"]["deck"]) == {0: 13, 1: 9}
    assert _aow_counts(s["aow"]["Lancaster"]["deck"]) == {0: 13, 1: 9}  # L23 (2 roses) is on Warwick


def test_ii_warwicks_rebellion_page_24() -> None:
    s = _setup("ii-warwicks-rebellion")
    _check_common(s)
    assert (s["king"], s["first_box"], s["last_box"]) == ("York", 1, 15)
    assert _where(s) == {
        "edward_iv": ("map", "London"), "pembroke": ("map", "Pembroke"), "devon": ("calendar", 1, False),
        "gloucester_1": ("calendar", 9, False), "northumberland_y1": ("calendar", 9, False),
        "warwick_l": ("map", "Calais"), "clarence": ("map", "York"), "jasper_tudor_1": ("map", "Harlech"),
        "margaret": ("calendar", 9, True), "somerset_2": ("calendar", 9, True), "oxford": ("calendar", 9, True),
        "exeter_2": ("calendar", 9, True)}
    assert s["exile_boxes"] == {"Burgundy": "York", "France": "Lancaster"}
    assert _vassals_at_seats(s) == [v for v in ALL_VASSALS if v not in ("devon", "oxford")]
    assert _favour(s, "York") == sorted(["London", "Ely", "Ludlow", "Carlisle", "Pembroke", "Exeter"])
    assert _favour(s, "Lancaster") == sorted(["Calais", "Harlech", "York", "Coventry", "Wells"])
    assert s["influence"] == 0
    assert _markers(s) == {"Fortress": ("York", 2), "Town": (None, 0), "City": (None, 0)}
    assert [threshold(s, b) for b in (1, 6, 11)] == [40, 35, 30]
    assert _aow_counts(s["aow"]["York"]["deck"]) == {0: 13, 2: 9}
    assert _aow_counts(s["aow"]["Lancaster"]["deck"]) == {0: 12, 2: 9}
    assert "L4" not in s["aow"]["Lancaster"]["deck"]
    assert {"foreign_haven", "shaky_allies", "queen_regent"} <= set(s["special_rules"])


def test_iii_my_kingdom_for_a_horse_page_25() -> None:
    s = _setup("iii-my-kingdom-for-a-horse")
    _check_common(s)
    assert (s["king"], s["first_box"], s["last_box"], s["box"]) == ("York", 3, 9, 3)
    assert scenario_data()["iii-my-kingdom-for-a-horse"]["end_marker"] == 10
    assert _where(s) == {"gloucester_2": ("map", "London"), "northumberland_y2": ("map", "Carlisle"),
                         "norfolk": ("map", "Arundel"), "richard_iii": ("unused",),
                         "henry_tudor": ("map", "France"), "jasper_tudor_2": ("map", "France"),
                         "oxford": ("map", "France")}
    assert s["exile_boxes"] == {"Burgundy": "York", "France": "Lancaster"}
    assert _vassals_at_seats(s) == [v for v in ALL_VASSALS if v not in ("oxford", "norfolk")]
    assert _favour(s, "York") == sorted(["London", "Calais", "Carlisle", "Arundel", "Gloucester", "York"])
    assert _favour(s, "Lancaster") == sorted(["Oxford", "Harlech", "Pembroke"])
    assert s["influence"] == 0
    assert _markers(s) == {"Fortress": ("Lancaster", 1), "Town": ("York", 1), "City": ("York", 2)}
    assert threshold(s) == 45
    for side in ("York", "Lancaster"):
        assert _aow_counts(s["aow"][side]["deck"]) == {0: 13, 3: 6}
    assert {"king_richard", "ravaged_land"} <= set(s["special_rules"])
    r = _setup("iii-my-kingdom-for-a-horse", king_richard_at_setup=True)
    assert r["lords"]["richard_iii"]["where"] == "map" and r["lords"]["richard_iii"]["locale"] == "London"
    assert r["lords"]["gloucester_2"]["where"] == "unused"
    assert r["seats"]["richard_iii"] == "London" and "gloucester_2" not in r["seats"]


def test_bosworth_page_25() -> None:
    s = _setup("bosworth")
    _check_common(s)
    assert s["king"] == "York"
    assert _where(s) == {lid: ("battle", None) for lid in
                         ("richard_iii", "northumberland_y2", "norfolk", "henry_tudor", "jasper_tudor_2", "oxford")}
    assert s["favour"] == {} and s["seats"] == {} and _vassals_at_seats(s) == []
    for side in ("York", "Lancaster"):
        assert _aow_counts(s["aow"][side]["deck"]) == {0: 13, 3: 6}
    assert s["special_rules"] == ["on_bosworth_field"]


def test_wars_of_the_roses_war_i_page_27() -> None:
    """War I: Scenario Ia setup with the War I special rules in place of Ia's."""
    s = _setup("wars-of-the-roses")
    ia = _setup("ia-henry-vi")
    _check_common(s)
    assert s["war"] == "I"
    for key in ("favour", "seats", "exile_boxes", "vassals", "aow", "influence", "box", "king"):
        assert s[key] == ia[key], key
    assert {k: v for k, v in _where(s).items() if k not in ("margaret", "somerset_2")} == _where(ia)
    assert s["lords"]["margaret"]["where"] == "unused" and s["lords"]["somerset_2"]["where"] == "unused"
    assert s["allied_networks"]["margaret"] == "France"
    assert [threshold(s, b) for b in (1, 8, 15)] == [40, 40, 40]
    d = scenario_data()["wars-of-the-roses"]
    assert d["heirs"] == {"Lancaster": ["henry_vi", "margaret", "somerset_1", "somerset_2"],
                          "York": ["york", "march", "rutland"]}
    assert d["succession"][0] == {"on_removal_of": "henry_vi", "add_to_next_box": "margaret",
                                  "aow_remove": ["L15", "L17"], "aow_add": ["L27", "L31"]}
    assert "capture_of_the_king" not in s["special_rules"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_setup_is_deterministic_and_json(scenario: str) -> None:
    a = RULES.setup(3, scenario)
    b = RULES.setup(3, scenario)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert json.loads(json.dumps(a)) == a


def test_command_decks_hold_only_the_lords_in_play_6_2_2() -> None:
    """6.2.2 ADD ("add a new arrival's Command cards to the game"): a scenario's Command deck
    holds the cards of its Lords in play (map, Calendar, Battle) and the 4 Pass cards, never the
    cards of Lords absent from the scenario (RULINGS R17)."""
    ic = _setup("ic-somersets-return")
    assert ic["command"]["York"]["deck"] == [f"{b}-{i}" for b in ("march", "warwick") for i in (1, 2, 3)] \
        + [f"pass-{i}" for i in range(1, 5)]
    assert ic["command"]["Lancaster"]["deck"] == [f"{b}-{i}" for b in ("henry_vi", "somerset") for i in (1, 2, 3)] \
        + [f"pass-{i}" for i in range(1, 5)]
    w = _setup("wars-of-the-roses")  # Margaret is a card of the War but not yet in play
    assert not any(cid.startswith("margaret-") for cid in w["command"]["Lancaster"]["deck"])
    b = _setup("bosworth")
    assert len(b["command"]["York"]["deck"]) == 3 * 3 + 4
    # III: Richard III is not in play unless he replaces Gloucester at setup (6.2.2 REPLACE).
    iii = _setup("iii-my-kingdom-for-a-horse")
    assert "gloucester-1" in iii["command"]["York"]["deck"] and "richard_iii-1" not in iii["command"]["York"]["deck"]
    r = _setup("iii-my-kingdom-for-a-horse", king_richard_at_setup=True)
    assert "richard_iii-1" in r["command"]["York"]["deck"] and "gloucester-1" not in r["command"]["York"]["deck"]
    assert len(r["command"]["York"]["deck"]) == len(iii["command"]["York"]["deck"])
    for s in (ic, w, b, iii, r):
        assert RULES.check_invariants(s) == []


def test_aow_deck_rule_roses() -> None:
    """6.0 DECKS: no-rose cards plus the scenario number's roses, letter ignored."""
    assert aow_cards("ia-henry-vi", "York") == aow_cards("ic-somersets-return", "York")
    assert len(aow_cards("ii-warwicks-rebellion", "Lancaster")) == 21


def test_plan_sizes_4_1() -> None:
    assert [plan_size(b) for b in range(1, 16)] == [4, 6, 7, 6, 4] * 3


def test_unknown_scenario_and_bad_options() -> None:
    with pytest.raises(UnknownScenario):
        RULES.setup(1, "nope")
    with pytest.raises(BadOptions):
        RULES.setup(1, "ia-henry-vi", {"fog": True})
    schema = RULES.options_schema()
    assert schema["hidden_mats"]["default"] is False


def test_special_rules_described() -> None:
    rules = special_rules()
    used = {r for d in [*scenario_data().values(), *war_data().values()] for r in d["special_rules"]}
    assert used == set(rules)
    for r in rules.values():
        assert r["summary"] and r["section"] and r["stage"]
