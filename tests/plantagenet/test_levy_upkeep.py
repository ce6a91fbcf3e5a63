"""Pay (3.2) and Feed (4.7): Sharing, Greed, Pillage, Unpaid/Unfed Disband, Pay Lords and Vassals."""

from __future__ import annotations

from typing import Any

import pytest

from roses.engine.contract import canonical_json
from roses.engine.errors import IllegalAction
from roses.games.plantagenet import RULES
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.records import VassalWhere, Where
from roses.games.plantagenet.upkeep import upkeep_need

from .helpers import act, options, place, run_frames, set_troops, to_calendar

State = dict[str, Any]


def _ia() -> State:
    """Ia with every Lord off the map, so that each test places only those it needs."""
    s = RULES.setup(3, "ia-henry-vi")
    s["box"] = 2
    s["first_turn"] = False
    for lid in ("henry_vi", "somerset_1", "york", "march"):
        to_calendar(s, lid, 9)
    return s


def _coin(s: State, lord: str) -> int:
    return int(s["lords"][lord]["mat"]["assets"]["coin"])


def _prov(s: State, lord: str) -> int:
    return int(s["lords"][lord]["mat"]["assets"]["provender"])


def test_need_is_one_per_six_troops_rounded_up_without_retinue_or_vassals_3_2_1() -> None:
    s = _ia()
    place(s, "york", "Ely")
    set_troops(s, "york", men_at_arms=6)
    mat = s["lords"]["york"]["mat"]
    assert upkeep_need(mat) == 1
    mat["troops"]["militia"] = 1
    assert upkeep_need(mat) == 2
    mat["vassals"].append("essex")  # Vassals and the Retinue do not count
    assert upkeep_need(mat) == 2
    set_troops(s, "york", longbowmen=13)
    assert upkeep_need(mat) == 3


def test_situation_3_pay_sharing_3_2_1() -> None:
    """§7.3: A (13 Troops, 2 Coin) and B (6 Troops, 3 Coin) together: A pays 2 and is 1
    short, B pays its own 1 and must give 1 to A. No Pillage; B keeps 1 Coin. Nobody chooses
    anything (one giver, one taker)."""
    s = _ia()
    place(s, "york", "Ely", coin=2)
    set_troops(s, "york", men_at_arms=5, longbowmen=4, militia=4)
    place(s, "salisbury", "Ely", coin=3)
    set_troops(s, "salisbury", men_at_arms=3, longbowmen=3)
    run_frames(s, {"step": "pay_troops", "side": "York"})
    assert s["stack"] == [] and (_coin(s, "york"), _coin(s, "salisbury")) == (0, 1)
    assert s["exhaustion"] == {} and s["influence"] == 0
    assert any("Sharing: Salisbury gives 1 Coin for York" in line for line in RULES.log_for(s, "Lancaster"))


def test_greed_no_coin_beyond_the_requirement_3_2_1() -> None:
    s = _ia()
    place(s, "york", "Ely", coin=5)
    run_frames(s, {"step": "pay_troops", "side": "York"})
    assert _coin(s, "york") == 4  # 6 Troops: 1 Coin, no more (1.7.2)


def test_sharing_choice_when_coin_is_short_for_two_lords_3_2_1() -> None:
    """Two short Lords and one giver with too little: the owner chooses who is covered."""
    s = _ia()
    place(s, "york", "Ely", coin=0)
    place(s, "salisbury", "Ely", coin=0)
    place(s, "warwick_y", "Ely", coin=2)  # pays his 1, has 1 to give
    s["exhaustion"]["Ely"] = "exhausted"
    run_frames(s, {"step": "pay_troops", "side": "York"})
    assert RULES.active(s) == ["York"]
    assert options(s) == [("share", "warwick_y>salisbury"), ("share", "warwick_y>york")]
    assert RULES.label(s, "York", "share", "warwick_y>york") == "Warwick gives 1 Coin to York"
    before = canonical_json(s)
    with pytest.raises(IllegalAction):
        act(s, "share", "york>salisbury")
    assert canonical_json(s) == before
    act(s, "share", "warwick_y>york")
    # Ely is Exhausted: Salisbury, still short, Disbands Unpaid (3 Influence).
    assert s["stack"] == []
    assert s["lords"]["salisbury"]["where"] == Where.CALENDAR and s["lords"]["york"]["where"] == Where.MAP
    assert s["influence"] == -3


def test_sharing_choice_of_giver_when_coin_is_plenty_1_5_3() -> None:
    s = _ia()
    place(s, "york", "Ely", coin=0)
    place(s, "salisbury", "Ely", coin=3)
    place(s, "warwick_y", "Ely", coin=3)
    run_frames(s, {"step": "pay_troops", "side": "York"})
    assert options(s) == [("share", "salisbury>york"), ("share", "warwick_y>york")]
    act(s, "share", "warwick_y>york")
    assert s["stack"] == [] and (_coin(s, "salisbury"), _coin(s, "warwick_y")) == (2, 1)


def test_situation_4_pay_pillage_london_3_2_1() -> None:
    """§7.4 (Background Book): York, unable to Pay, Pillages Lancastrian London: +3 Provender
    +3 Coin, York loses 12 Influence, London Exhausted and still Lancastrian, St Albans, Oxford,
    Guildford and Rochester shift toward Lancaster; then York Pays from the Coin gained."""
    s = _ia()
    place(s, "york", "London", coin=0, provender=0)
    run_frames(s, {"step": "pay_troops", "side": "York"})
    assert s["stack"] == []
    assert (_coin(s, "york"), _prov(s, "york")) == (2, 3)  # +3, 1 paid
    assert s["influence"] == -12
    assert s["exhaustion"]["London"] == "exhausted" and s["favour"]["London"] == "Lancaster"
    for loc in ("St Albans", "Oxford", "Guildford", "Rochester"):
        assert s["favour"][loc] == "Lancaster"
    assert any("short of Coin" in line for line in RULES.log_for(s, "Lancaster"))


def test_one_pillager_per_stronghold_then_shared_pay_3_2_1() -> None:
    """Two Unpaid Lords at an Unexhausted Stronghold: the owner picks one Pillager; the
    Coin gained pays him, then is Shared with the other (3.2.1)."""
    s = _ia()
    place(s, "york", "Peterborough", coin=0)
    place(s, "salisbury", "Peterborough", coin=0)
    run_frames(s, {"step": "pay_troops", "side": "York"})
    assert options(s) == [("pillage", "salisbury"), ("pillage", "york")]
    act(s, "pillage", "salisbury")
    # A City gives 2 Coin: Salisbury pays 1 and must give the other to York.
    assert s["stack"] == [] and (_coin(s, "salisbury"), _coin(s, "york")) == (0, 0)
    assert _prov(s, "salisbury") == 1 + 2 and s["influence"] == -8
    assert s["exhaustion"]["Peterborough"] == "exhausted" and s["favour"]["Peterborough"] == "Lancaster"


def test_rulebook_example_unpaid_disband_penalty_3_2_1() -> None:
    """3.2.1 EXAMPLE: Salisbury and Rutland, each with one Vassal, still too short after the
    Pillage: both Disband Unpaid and York loses 3 + 2 + 1 + 1 = 7 Influence."""
    s = _ia()
    place(s, "salisbury", "Ely", coin=0)
    place(s, "rutland", "Ely", coin=0)
    set_troops(s, "salisbury", longbowmen=13)
    set_troops(s, "rutland", longbowmen=13)
    for vid, lord in (("essex", "salisbury"), ("dudley", "rutland")):
        s["vassals"][vid].update(where=VassalWhere.MAT, lord=lord, box=5)
        s["lords"][lord]["mat"]["vassals"].append(vid)
    run_frames(s, {"step": "pay_troops", "side": "York"})
    act(s, "pillage", "rutland")  # Ely (City): +2 Coin, -8 Influence, still short of 6
    assert s["stack"] == []
    assert s["influence"] == -8 - 7
    for lid in ("salisbury", "rutland"):
        assert s["lords"][lid]["where"] == Where.CALENDAR
    assert s["lords"]["salisbury"]["box"] == 2 + 6 - 3 and s["lords"]["rutland"]["box"] == 2 + 6 - 2
    assert s["vassals"]["essex"]["where"] == VassalWhere.CALENDAR and not s["vassals"]["essex"]["face_up"]


def test_unpaid_in_exile_box_disbands_with_exile_marker_1_3_1_3_2_4() -> None:
    s = _ia()
    place(s, "york", "Ireland", coin=0)
    run_frames(s, {"step": "pay_troops", "side": "York"})
    d = s["lords"]["york"]
    assert (d["where"], d["exile"], d["box"]) == (Where.CALENDAR, True, 3)
    assert s["influence"] == -5 and s["exhaustion"] == {}


def test_unpaid_at_exhausted_stronghold_disbands_3_2_1() -> None:
    s = _ia()
    place(s, "york", "Ely", coin=0)
    s["exhaustion"]["Ely"] = "exhausted"
    run_frames(s, {"step": "pay_troops", "side": "York"})
    assert s["lords"]["york"]["where"] == Where.CALENDAR and not s["lords"]["york"]["exile"]
    assert s["favour"]["Ely"] == "York"  # no Pillage


def test_hidden_mats_sharing_is_private_and_shortfall_declared_1_5_3() -> None:
    s = RULES.setup(3, "ia-henry-vi", {"hidden_mats": True})
    s["box"], s["first_turn"] = 2, False
    for lid in ("henry_vi", "somerset_1", "york", "march"):
        to_calendar(s, lid, 9)
    place(s, "york", "Ely", coin=0)
    place(s, "salisbury", "Ely", coin=3)
    reveals = s.get("reveals", 0)
    run_frames(s, {"step": "pay_troops", "side": "York"})
    lan, york = RULES.log_for(s, "Lancaster"), RULES.log_for(s, "York")
    assert any("York is short of Coin (1)" in line for line in lan)
    assert not any("Sharing" in line for line in lan) and any("Sharing" in line for line in york)
    assert s["reveals"] == reveals + 1


def test_feed_moved_lords_and_clear_markers_4_7() -> None:
    """4.7: only Lords marked Moved/Fought Feed; Sharing comes from any Lord there; the
    markers of the side are removed when its Feed is over."""
    s = _ia()
    place(s, "york", "Ely", provender=0)
    place(s, "salisbury", "Ely", provender=2)
    place(s, "henry_vi", "London", provender=0)
    s["moved"] = ["henry_vi", "york"]
    run_frames(s, {"step": "feed", "side": "York"})
    assert (_prov(s, "york"), _prov(s, "salisbury")) == (0, 1)
    assert s["moved"] == ["henry_vi"]


def test_unfed_pillage_then_feed_from_provender_gained_4_7() -> None:
    s = _ia()
    place(s, "henry_vi", "Ely", provender=0, coin=0)  # 8 Troops: 2 Provender
    s["moved"] = ["henry_vi"]
    run_frames(s, {"step": "feed", "side": "Lancaster"})
    # Ely is a City: +2 Provender +2 Coin; he Feeds 2; Lancaster loses 8 Influence.
    assert (_prov(s, "henry_vi"), _coin(s, "henry_vi")) == (0, 2)
    assert s["influence"] == 8 and s["favour"]["Ely"] == "York" and s["moved"] == []


def test_unfed_disband_penalty_4_7() -> None:
    s = _ia()
    place(s, "henry_vi", "Ely", provender=0)
    s["exhaustion"]["Ely"] = "exhausted"
    s["moved"] = ["henry_vi"]
    run_frames(s, {"step": "feed", "side": "Lancaster"})
    assert s["lords"]["henry_vi"]["where"] == Where.CALENDAR and s["influence"] == 5


def test_feed_only_listed_lords_4_8_2() -> None:
    s = _ia()
    place(s, "york", "Ely", provender=0)
    place(s, "salisbury", "Lynn", provender=0)
    s["exhaustion"].update({"Ely": "exhausted", "Lynn": "exhausted"})
    run_frames(s, {"step": "feed", "side": "York", "lords": ["salisbury"]})
    assert s["lords"]["salisbury"]["where"] == Where.CALENDAR and s["lords"]["york"]["where"] == Where.MAP


def test_pay_lords_voluntary_disband_then_cost_3_2_2() -> None:
    s = _ia()
    place(s, "york", "Ely")
    place(s, "salisbury", "Ireland")
    place(s, "rutland", "Ely")
    run_frames(s, {"step": "pay_lords", "side": "York"})
    assert options(s) == [("disband", "rutland"), ("disband", "salisbury"), ("disband", "york"), ("pay", None)]
    act(s, "disband", "rutland")
    assert s["lords"]["rutland"]["where"] == Where.CALENDAR and s["lords"]["rutland"]["box"] == 2 + 4
    act(s, "pay")
    assert s["stack"] == [] and s["influence"] == -(1 + 2)


def test_pay_vassals_pay_shifts_or_disband_3_2_3() -> None:
    s = _ia()
    place(s, "york", "Ely")
    for vid, box in (("essex", 2), ("dudley", 2), ("stanley", 3)):
        s["vassals"][vid].update(where=VassalWhere.MAT, lord="york", box=box)
        s["lords"]["york"]["mat"]["vassals"].append(vid)
    run_frames(s, {"step": "pay_vassals", "side": "York"})
    assert options(s) == [("pay", "dudley"), ("pay", "essex"), ("disband", "dudley"), ("disband", "essex")]
    act(s, "pay", "essex")
    assert s["vassals"]["essex"]["box"] == 3 and s["influence"] == -1
    act(s, "disband", "dudley")
    assert s["stack"] == []
    assert s["vassals"]["dudley"] == {"where": VassalWhere.CALENDAR, "lord": None, "box": 2 + 5, "face_up": False}
    assert s["lords"]["york"]["mat"]["vassals"] == ["essex", "stanley"]


def test_second_levy_queues_the_three_pay_steps_r_then_k_3_2_2_2_4() -> None:
    s = RULES.setup(1, "ia-henry-vi")
    s["first_turn"] = False
    from roses.games.plantagenet.levy import levy_frames
    names = [(f["step"], f.get("side")) for f in levy_frames(s)]
    i = names.index(("pay_troops", "York"))
    assert names[i:i + 6] == [("pay_troops", "York"), ("pay_troops", "Lancaster"), ("pay_lords", "York"),
                              ("pay_lords", "Lancaster"), ("pay_vassals", "York"), ("pay_vassals", "Lancaster")]
    assert sv.on_map(s, "York")


def test_unfed_at_sea_disbands_4_7_r21() -> None:
    """A Lord at Sea (4.6.1) who cannot Feed has nothing to Pillage: Unfed Disband (RULINGS R21)."""
    s = _ia()
    place(s, "york", "Ely", provender=0)
    s["lords"]["york"].update(where=Where.SEA, locale="North Sea")
    s["moved"] = ["york"]
    run_frames(s, {"step": "feed", "side": "York"})
    assert s["lords"]["york"]["where"] == Where.CALENDAR and s["influence"] == -5 and s["moved"] == []
