"""Kingmaker dealings as offers (Transfers L434-452, Alliances L304-313)."""

from __future__ import annotations

from pathlib import Path

from roses.games.kingmaker import RULES
from roses.games.kingmaker.combat import attackers_at
from roses.games.kingmaker.common import (
    E_HAND,
    Z_AWARD,
    Z_HAND,
    W,
    heir_controller,
    ship_controller,
)
from tests.kingmaker.helpers import award, give_hand, put, staged, turn_of

MOVE = {"step": "move", "p": 0, "sel": None, "ship": None}


def test_gift_of_a_hand_card_is_an_offer_seen_only_by_the_two(tmp_path: Path) -> None:
    """L448: an unplayed card may be given; the receiver accepts (default: decline); only the
    two players learn which card it was."""
    state = staged(tmp_path)
    put(state, 0, "percy", "A1")
    c = give_hand(state, 0, "earl_of_kent")
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "offer_card", ["earl_of_kent", "P2", "gift"])
    assert RULES.active(state) == ["P2"]
    assert RULES.view(state, "P2")["default"] == ["decline", None]
    assert "Earl of Kent" in RULES.view(state, "P2")["prompt"]
    assert "Earl of Kent" not in RULES.view(state, "P3")["prompt"]
    RULES.action(state, "P2", "accept")
    assert state["cz"][c] == Z_HAND and state["ch"][c] == 1
    assert not any("Earl of Kent" in line for line in RULES.log_for(state, "P3"))


def test_trade_asks_a_card_back(tmp_path: Path) -> None:
    state = staged(tmp_path)
    put(state, 0, "percy", "A1")
    kent = give_hand(state, 0, "earl_of_kent")
    marshal = give_hand(state, 1, "marshal")
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "offer_card", ["earl_of_kent", "P2", "trade"])
    RULES.action(state, "P2", "accept")
    assert RULES.legal_actions(state, "P2") == [("give_back", "earl_of_kent"), ("give_back", "marshal")]
    RULES.action(state, "P2", "give_back", "marshal")
    assert (state["ch"][kent], state["ch"][marshal]) == (1, 0)


def test_alliance_forbids_attack_and_ending_it_brings_a_round_of_peace(tmp_path: Path) -> None:
    state = staged(tmp_path)
    put(state, 0, "percy", "C2")
    put(state, 1, "grey", "C2")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    assert ("battle", ["C2", "P2"]) in RULES.legal_actions(state, "P1")
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "ally", "P2")
    RULES.action(state, "P2", "accept")
    assert ("battle", ["C2", "P2"]) not in RULES.legal_actions(state, "P1")  # L306
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "end_alliance", "P2")
    assert ("battle", ["C2", "P2"]) not in RULES.legal_actions(state, "P1")  # L311: peace
    state["tno"] += len(state["roles"]) + 1
    assert ("battle", ["C2", "P2"]) in RULES.legal_actions(state, "P1")


def test_lent_ship_moves_for_the_borrower_until_recalled(tmp_path: Path) -> None:
    state = staged(tmp_path)
    w = W(state)
    put(state, 0, "percy", "A1")
    card = award(state, "ship_mary", "percy")
    s = w.ship_of_card[card]
    state["spos"][s] = "H7"
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "lend_ship", ["ship_mary", "P2"])
    RULES.action(state, "P2", "accept")
    assert ship_controller(state, s) == 1
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "recall", "ship_mary")
    assert ship_controller(state, s) == 0


def test_transfer_and_heir_handover(tmp_path: Path) -> None:
    """L436: a transferable to a noble in the same square; L283: an heir to another faction."""
    state = staged(tmp_path)
    w = W(state)
    put(state, 0, "percy", "C2")
    grey = put(state, 1, "grey", "C2")
    town = award(state, "town_nottingham", "percy")
    h = w.heir_codec.id("margaret")
    state["hdead"][h] = False
    state["hesc"][h] = w.cid("percy")
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "transfer", ["town_nottingham", "grey"])
    RULES.action(state, "P2", "accept")
    assert state["cz"][town] == Z_AWARD and state["ch"][town] == grey
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "give_heir", ["margaret", "grey"])
    RULES.action(state, "P2", "decline")
    assert heir_controller(state, h) == 0
    RULES.action(state, "P1", "deal")  # ruling K90: a declined offer is not repeated in the same decision
    assert ("give_heir", ["margaret", "grey"]) not in RULES.legal_actions(state, "P1")
    RULES.action(state, "P1", "back")
    RULES.action(state, "P1", "end")  # the combat phase: a new decision
    RULES.action(state, "P1", "deal")
    # ruling K93: nor in another decision of the same turn, the position being the same
    assert ("give_heir", ["margaret", "grey"]) not in RULES.legal_actions(state, "P1")
    RULES.action(state, "P1", "ally", "P2")  # the position changes: an alliance
    RULES.action(state, "P2", "accept")
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "give_heir", ["margaret", "grey"])
    RULES.action(state, "P2", "accept")
    assert heir_controller(state, h) == 1


def test_allied_noble_under_a_commander_l308(tmp_path: Path) -> None:
    """L308-310: an ally's noble beside my commander may serve under him (the ally accepts);
    I then move and fight him in my turn; separated, he leaves the command."""
    state = staged(tmp_path)
    w = W(state)
    put(state, 0, "percy", "C2")
    grey = put(state, 1, "grey", "C2")
    put(state, 2, "mowbray", "C2")
    state["ally"][0][1] = state["ally"][1][0] = 1
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "deal")
    RULES.action(state, "P1", "command", ["grey", "percy"])
    RULES.action(state, "P2", "accept")
    assert ("select", "grey") in RULES.legal_actions(state, "P1")
    RULES.action(state, "P1", "end")
    assert sorted(attackers_at(state, 0, "C2")) == sorted([w.cid("percy"), grey])
    state["nsq"][grey] = "C3"  # separated: no longer under command
    assert grey not in attackers_at(state, 0, "C2")


def test_commanded_noble_free_move_provided_by_his_own_faction_l313(tmp_path: Path) -> None:
    """L313: a noble under a commander may use a Free Move card if the player controlling his
    faction provides it: the commander's player asks (once a turn), the owner accepts and his
    card is used; the commander's own Free Move cannot serve."""
    from tests.kingmaker.test_e1 import DECK, eid, to_hand

    state = staged(tmp_path, deck=DECK)
    put(state, 0, "percy", "A3")
    grey = put(state, 1, "grey", "A3")
    state["ally"][0][1] = state["ally"][1][0] = 1
    state["command"][str(grey)] = W(state).cid("percy")
    fm = eid(state, "fm")
    to_hand(state, fm, 1)
    turn_of(state, 0, dict(MOVE), stage=2)
    state["nmv"][grey] = state["tno"]  # he has moved this turn, beside his commander
    assert ("select", "grey") not in RULES.legal_actions(state, "P1")
    assert ("free_move", "grey") in RULES.legal_actions(state, "P1")
    RULES.action(state, "P1", "free_move", "grey")
    assert RULES.active(state) == ["P2"] and RULES.default_action(state, "P2") == ("decline", None)
    RULES.action(state, "P2", "decline")
    assert ("free_move", "grey") not in RULES.legal_actions(state, "P1")  # asked once a turn
    assert ("select", "grey") not in RULES.legal_actions(state, "P1")
    assert state["ez"][fm] == E_HAND

    turn_of(state, 0, dict(MOVE), stage=2)  # a later turn
    state["nmv"][grey] = state["tno"]
    RULES.action(state, "P1", "free_move", "grey")
    RULES.action(state, "P2", "accept")
    assert state["ez"][fm] != E_HAND  # P2's card is used
    assert ("select", "grey") in RULES.legal_actions(state, "P1")


def test_commander_cannot_lend_his_own_free_move_to_a_commanded_noble_l313(tmp_path: Path) -> None:
    from tests.kingmaker.test_e1 import DECK, eid, to_hand

    state = staged(tmp_path, deck=DECK)
    percy = put(state, 0, "percy", "A3")
    grey = put(state, 1, "grey", "A3")
    state["ally"][0][1] = state["ally"][1][0] = 1
    state["command"][str(grey)] = percy
    to_hand(state, eid(state, "fm"), 0)
    turn_of(state, 0, dict(MOVE), stage=2)
    state["nmv"][grey] = state["nmv"][percy] = state["tno"]
    legal = RULES.legal_actions(state, "P1")
    assert ("free_move", "percy") in legal and ("free_move", "grey") not in legal
