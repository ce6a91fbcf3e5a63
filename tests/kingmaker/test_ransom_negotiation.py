"""A ransom negotiated (combat.Ransom; §Capture of Noble Counters: "ransomed back ... for some
consideration"; E1 §Booty: "the defeated player may trade one or more of his future draws";
ruling K95): the captor asks, the owner pays, refuses or counters once, the captor accepts the
counter or holds to his demand; the defaults stay as ruled (K27: refusal, execution)."""

from __future__ import annotations

from pathlib import Path

from roses.engine.contract import OBSERVER
from roses.engine.log import visible_log
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import Z_HAND, Z_NOBLE
from tests.kingmaker.helpers import event_on_top, give_hand, put, staged, turn_of
from tests.kingmaker.test_rulings import DECK


def _captive(tmp_path: Path, rules: str = "basic") -> tuple[dict, int]:
    """P1's Percy beats and captures P2's Grey at C2; P1 disposes of him."""
    state = staged(tmp_path, rules=rules, deck=DECK)
    put(state, 0, "percy", "C2")
    d = put(state, 1, "grey", "C2")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "r32")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert RULES.active(state) == ["P1"] and state["stack"][-1]["step"] == "captive"
    return state, d


def public(state: dict) -> list[str]:
    return [str(x) for x in visible_log(state["log"], OBSERVER)]


def test_owner_counters_and_the_captor_accepts_k95(tmp_path: Path) -> None:
    state, d = _captive(tmp_path)
    a, b, c = (give_hand(state, 1, x) for x in ("earl_of_kent", "chancellor", "warden_of_the_cinque_ports"))
    RULES.action(state, "P1", "ransom", ["grey", 3])
    assert RULES.active(state) == ["P2"]
    legal = RULES.legal_actions(state, "P2")
    assert ("ransom", ["grey", 1]) in legal and ("ransom", ["grey", 3]) not in legal  # the demand itself is no counter
    assert ("ransom_draws", ["grey", 1]) not in legal  # future draws only with E1 (§Booty)
    assert RULES.label(state, "P2", "ransom", ["grey", 1]) == "counter: offer 1 card(s) of your hand for Grey"
    RULES.action(state, "P2", "ransom", ["grey", 1])
    assert RULES.active(state) == ["P1"]  # the captor answers the counter
    assert RULES.view(state, "P1")["default"] == ["decline", None]
    assert "P2 counters: 1 card(s) of his hand for Grey." in public(state)
    RULES.action(state, "P1", "accept")
    assert RULES.active(state) == ["P2"] and state["stack"][-1]["step"] == "ransom_pay"
    RULES.action(state, "P2", "give_card", "chancellor")
    assert state["cz"][d] == Z_NOBLE and state["ncap"][d] < 0  # freed
    assert (state["cz"][b], state["ch"][b]) == (Z_HAND, 0)
    assert state["ch"][a] == state["ch"][c] == 1  # the other two stay with P2


def test_the_captor_holds_to_his_demand_and_no_second_counter_k95(tmp_path: Path) -> None:
    state, d = _captive(tmp_path)
    for x in ("earl_of_kent", "chancellor"):
        give_hand(state, 1, x)
    RULES.action(state, "P1", "ransom", ["grey", 2])
    RULES.action(state, "P2", "ransom", ["grey", 1])
    RULES.action(state, "P1", "by_default", "deadline")  # the captor's lapse: he holds to his demand
    assert "P1's deadline passed: hold to your demand (the published default)." in public(state)
    assert RULES.active(state) == ["P2"]
    assert RULES.legal_actions(state, "P2") == [("pay", None), ("refuse", None)]
    RULES.action(state, "P2", "by_default", "deadline")  # the owner's lapse: refusal, execution (K27)
    assert state["cz"][d] != Z_NOBLE


def test_a_counter_in_future_draws_with_e1_k95(tmp_path: Path) -> None:
    state, d = _captive(tmp_path, rules="e1")
    give_hand(state, 1, "earl_of_kent")
    RULES.action(state, "P1", "ransom", ["grey", 1])
    assert ("ransom_draws", ["grey", 2]) in RULES.legal_actions(state, "P2")
    RULES.action(state, "P2", "ransom_draws", ["grey", 2])
    RULES.action(state, "P1", "accept")
    assert state["cz"][d] == Z_NOBLE and state["ncap"][d] < 0
    assert state["booty"]["1"] == [0, 0]  # P1 takes P2's next two Crown draws (§Booty, K65)
