"""Kingmaker E1 sea battles (L263-271)."""

from __future__ import annotations

from pathlib import Path

from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import Z_AWARD, Z_DISC, W, ship_controller
from tests.kingmaker.helpers import award, combat, event_on_top, make_deck, put, staged, turn_of

DECK = make_deck({"id": "r32", **combat("storms", [3, 2], ("grey",))}, {"id": "r54", **combat("storms", [5, 4])})


def test_sea_battle_capacities_decide_and_winner_takes_ships(tmp_path: Path) -> None:
    """L263-267: ships entering a square with another faction's ships may attack; capacities
    (not passengers) decide; the killed list still counts; the winner takes the ships, the
    nobles and the Ship cards (to his passengers)."""
    state = staged(tmp_path, rules="e1", deck=DECK)
    w = W(state)
    put(state, 0, "percy", "A1")
    big = award(state, "ship_trinity", "percy")            # 150
    put(state, 1, "neville", "A2")
    small = award(state, "ship_mary", "neville")           # 100
    sb, ss = w.ship_of_card[big], w.ship_of_card[small]
    state["spos"][sb] = state["spos"][ss] = "H7"
    passenger = put(state, 1, "grey", "A1")
    state["nsq"][passenger], state["nship"][passenger] = None, ss
    mine = put(state, 0, "stanley", "A1")
    state["nsq"][mine], state["nship"][mine] = None, sb
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    state["smv"][sb] = state["tno"]                        # it entered the square this turn
    assert ("sea_battle", ["H7", "P2"]) in RULES.legal_actions(state, "P1")
    event_on_top(state, "r32")                             # 150:100 = 3-2: the attacker wins
    RULES.action(state, "P1", "sea_battle", ["H7", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["cz"][passenger] == Z_DISC               # named on the killed list
    assert state["cz"][small] == Z_AWARD and state["ch"][small] == mine
    assert ship_controller(state, ss) == 0


def test_blockade_stops_ships_leaving_the_port_l271(tmp_path: Path) -> None:
    """E1 L271-273: a ship next to a port may blockade it; a ship leaving that port must stop
    by the blockaders and fight them."""
    from roses.games.kingmaker.play import ship_dests

    state = staged(tmp_path, rules="e1", deck=DECK)
    w = W(state)
    put(state, 1, "neville", "A2")
    blockader = w.ship_of_card[award(state, "ship_trinity", "neville")]
    state["spos"][blockader] = "I6"
    turn_of(state, 1, {"step": "move", "p": 1, "sel": None, "ship": None}, stage=2)
    assert ("blockade", ["ship_trinity", "kings_lynn"]) in RULES.legal_actions(state, "P2")
    RULES.action(state, "P2", "blockade", ["ship_trinity", "kings_lynn"])
    put(state, 0, "percy", "A1")
    mine = w.ship_of_card[award(state, "ship_mary", "percy")]
    state["spos"][mine] = "kings_lynn"
    assert ship_dests(state, mine) == ["I6"]
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    RULES.action(state, "P1", "sail", "ship_mary")
    RULES.action(state, "P1", "to", "I6")
    RULES.action(state, "P1", "end")
    legal = RULES.legal_actions(state, "P1")
    assert ("sea_battle", ["I6", "P2"]) in legal and ("end", None) not in legal
