"""No stalling (stalling.py, ruling K93; standing orders for alliances and offers, ruling K94):
a request refused once (entry, alliance, a dealing offer, a negotiated exchange) is not made
again to the same player in the same turn unless the position changed; every open question
names the default a lapse plays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from roses.engine.errors import IllegalAction
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import Z_HAND, W
from roses.games.kingmaker.play import start_turn
from tests.kingmaker.helpers import give_hand, put, staged, turn_of
from tests.kingmaker.test_orders import MOVE, public_lines

EXCHANGE = {"to": "P2", "give": {"cards": ["chancellor"]}, "ask": {"any": 1}}


def _two_at_nottingham(tmp_path: Path) -> dict[str, Any]:
    """P1's Percy and Stanley stand outside P2's Nottingham (C4) in P1's movement phase."""
    state = staged(tmp_path)
    put(state, 0, "percy", "C4")
    put(state, 0, "stanley", "C4")
    put(state, 1, "mowbray", "A1")
    state["pown"]["nottingham"] = 1
    turn_of(state, 0, dict(MOVE), stage=2)
    return state


def test_an_entry_refused_is_not_asked_again_in_the_turn_until_the_position_changes_k93(tmp_path: Path) -> None:
    """§Faction, §Town, Cities, and Castles: the owner refused entry to Nottingham; P1 may not put the
    same question to him again with another noble while nothing has changed."""
    state = _two_at_nottingham(tmp_path)
    RULES.action(state, "P1", "enter", ["percy", "nottingham"])
    assert RULES.view(state, "P2")["default"] == ["deny", None]
    RULES.action(state, "P2", "deny")
    legal = RULES.legal_actions(state, "P1")
    assert ("enter", ["stanley", "nottingham"]) not in legal
    with pytest.raises(IllegalAction):
        RULES.action(state, "P1", "enter", ["stanley", "nottingham"])
    # the position changes: Percy moves off; the question may be put again
    RULES.action(state, "P1", "select", "percy")
    RULES.action(state, "P1", "to", "C3")
    assert ("enter", ["stanley", "nottingham"]) in RULES.legal_actions(state, "P1")
    RULES.action(state, "P1", "enter", ["stanley", "nottingham"])
    assert RULES.active(state) == ["P2"]


def test_the_refusals_are_forgotten_when_a_turn_begins_k93(tmp_path: Path) -> None:
    state = _two_at_nottingham(tmp_path)
    RULES.action(state, "P1", "enter", ["percy", "nottingham"])
    RULES.action(state, "P2", "deny")
    assert state["refused"] and state["refused"][0][1:3] == [0, "enter:nottingham"]
    start_turn(state, 1)
    assert "refused" not in state


def test_an_alliance_declined_is_not_proposed_again_in_another_decision_of_the_turn_k93(tmp_path: Path) -> None:
    """§Alliances: P2 declined; P1's dealing menu no longer offers "ally P2", in this decision or
    the next, until the position changes."""
    state = _two_at_nottingham(tmp_path)
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "ally", "P2")
    assert RULES.view(state, "P2")["default_label"]
    RULES.action(state, "P2", "decline")
    RULES.action(state, "P1", "end")  # the combat phase: another decision of the same turn
    RULES.action(state, "P1", "deal")
    legal = RULES.legal_actions(state, "P1")
    assert ("ally", "P2") not in legal and ("ally", "P3") in legal
    RULES.action(state, "P1", "ally", "P3")  # an alliance with P3 changes the position
    RULES.action(state, "P3", "accept")
    RULES.action(state, "P1", "deal")
    assert ("ally", "P2") in RULES.legal_actions(state, "P1")


def test_a_declined_exchange_is_not_proposed_again_unchanged_k93(tmp_path: Path) -> None:
    state = _two_at_nottingham(tmp_path)
    give_hand(state, 0, "chancellor")
    give_hand(state, 1, "warden_of_the_cinque_ports")
    RULES.action(state, "P1", "propose_exchange", EXCHANGE)
    oid = state["offers"][0]["id"]
    RULES.action(state, "P2", "decline_exchange", oid)
    with pytest.raises(IllegalAction, match="declined this offer in this turn"):
        RULES.action(state, "P1", "propose_exchange", EXCHANGE)
    # another offer is another request
    RULES.action(state, "P1", "propose_exchange", {**EXCHANGE, "ask": {"any": 0}, "ally": True})
    assert len(state["offers"]) == 1


def test_standing_orders_answer_alliances_and_offers_k94(tmp_path: Path) -> None:
    state = _two_at_nottingham(tmp_path)
    give_hand(state, 0, "chancellor")
    RULES.action(state, "P2", "set_order", {"kind": "alliance:P1", "value": "accept"})
    RULES.action(state, "P3", "set_order", {"kind": "offer", "value": "decline"})
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "ally", "P2")
    assert state["ally"][0][1] == 1 and RULES.active(state) == ["P1"]
    assert "P2 answers by standing order: accept." in " ".join(public_lines(state))
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "offer_card", ["chancellor", "P3", "gift"])
    assert RULES.active(state) == ["P1"]  # declined at once: nobody waited for P3
    assert W(state).cid("chancellor") in [c for c, z in enumerate(state["cz"]) if z == Z_HAND and state["ch"][c] == 0]
    RULES.action(state, "P1", "deal")  # ruling K93: the declined gift is not offered again
    assert ("offer_card", ["chancellor", "P3", "gift"]) not in RULES.legal_actions(state, "P1")


def test_a_standing_order_declines_exchanges_at_once_k94(tmp_path: Path) -> None:
    state = _two_at_nottingham(tmp_path)
    give_hand(state, 0, "chancellor")
    give_hand(state, 1, "warden_of_the_cinque_ports")
    RULES.action(state, "P2", "set_order", {"kind": "exchange", "value": "decline"})
    with pytest.raises(IllegalAction):
        RULES.action(state, "P2", "set_order", {"kind": "exchange", "value": "accept"})
    RULES.action(state, "P1", "propose_exchange", EXCHANGE)
    assert not state.get("offers")
    assert "P2 declines offer 1 by standing order." in RULES.log_for(state, "P1")
    assert "P2 declines offer 1 by standing order." not in RULES.log_for(state, "P3")


def test_every_question_names_the_default_a_lapse_plays(tmp_path: Path) -> None:
    state = _two_at_nottingham(tmp_path)
    RULES.action(state, "P1", "enter", ["percy", "nottingham"])
    view = RULES.view(state, "P2")
    assert view["default"] == ["deny", None] and view["default_label"] == RULES.label(state, "P2", "deny", None)
    assert "default_label" not in RULES.view(state, "P1")
