"""Kingmaker E1 sea battles (L263-271)."""

from __future__ import annotations

from pathlib import Path

import pytest

from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import Z_AWARD, Z_DISC, W, ship_controller
from tests.kingmaker.helpers import award, combat, event_on_top, make_deck, put, staged, turn_of

DECK = make_deck({"id": "r32", **combat("storms", [3, 2], ("grey",))}, {"id": "r54", **combat("storms", [5, 4])})


def fleet(state: dict, p: int, noble: str, ship_card: str, pos: str, sq: str = "A1") -> tuple[int, int]:
    """Noble ``noble`` of player ``p`` in play at ``sq`` holding ``ship_card``, whose ship is
    at ``pos``: (the card, the ship)."""
    w = W(state)
    put(state, p, noble, sq)
    c = award(state, ship_card, noble)
    s = w.ship_of_card[c]
    state["spos"][s] = pos
    return c, s


def aboard(state: dict, p: int, noble: str, s: int) -> int:
    """Noble ``noble`` of player ``p`` in play aboard ship ``s``."""
    n = put(state, p, noble, "A1")
    state["nsq"][n], state["nin"][n], state["nship"][n] = None, None, s
    return n


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


VAC_DECK = make_deck({"id": "vac", "kind": "vacillating", "level": "e1"},
                     {"id": "r54", **combat("storms", [5, 4])})


def _vacillating_sea_battle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rolls: list[int],
                            pick: str) -> tuple[dict, dict[str, int]]:
    """P1's Trinity (150) carries Percy (100) and Stanley (50) against P2's Mary (100) with
    Grey; Vacillating Allegiance is drawn first (E1 L269, L293-302)."""
    from roses.engine import rng

    state = staged(tmp_path, rules="e1", deck=VAC_DECK)
    w = W(state)
    put(state, 0, "percy", "A1")
    trinity = award(state, "ship_trinity", "percy")
    put(state, 1, "neville", "A2")
    mary = award(state, "ship_mary", "neville")
    st, sm = w.ship_of_card[trinity], w.ship_of_card[mary]
    state["spos"][st] = state["spos"][sm] = "H7"
    ids = {"percy": w.cid("percy"), "stanley": put(state, 0, "stanley", "A1"), "grey": put(state, 1, "grey", "A1"),
           "trinity": st, "mary": sm}
    for name, s in (("percy", st), ("stanley", st), ("grey", sm)):
        state["nsq"][ids[name]], state["nin"][ids[name]], state["nship"][ids[name]] = None, None, s
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    state["smv"][st] = state["tno"]
    event_on_top(state, "r54")
    event_on_top(state, "vac")
    dice = iter(rolls)
    monkeypatch.setattr(rng, "roll", lambda state, sides: next(dice))
    monkeypatch.setattr(rng, "randbelow", lambda state, n: sorted([ids["percy"], ids["stanley"]]).index(ids[pick]))
    RULES.action(state, "P1", "sea_battle", ["H7", "P2"])
    RULES.action(state, "P1", "fight")
    return state, ids


def test_vacillating_at_sea_noble_of_the_ships_majority_changes_sides_l269(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """E1 L269 (ruling K58): d6 5 hits the stronger fleet; Percy makes up most of the Trinity's
    150; 6 at 3-2 is a change of sides: the Trinity joins P2's fleet with him, Stanley aboard is
    captured by P2, and a new card decides the battle."""
    state, ids = _vacillating_sea_battle(tmp_path, monkeypatch, [5, 6], "percy")
    assert state["ch"][ids["percy"]] == 1
    assert ship_controller(state, ids["trinity"]) == 1
    assert state["ncap"][ids["stanley"]] == 1


def test_vacillating_at_sea_noble_goes_home_and_his_ship_to_a_port_l269(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """E1 L269: 1 at 3-2 sends Percy home; the Trinity leaves the battle for a port the
    opposing player chooses (default: the nearest); Stanley aboard is captured by P2."""
    state, ids = _vacillating_sea_battle(tmp_path, monkeypatch, [5, 1], "percy")
    assert state["ch"][ids["percy"]] == 0 and state["nship"][ids["percy"]] < 0
    assert state["nsq"][ids["percy"]] is not None
    assert state["ncap"][ids["stanley"]] == 1
    steps = [f["step"] for f in state["stack"]]
    assert "vac_port" in steps
    while state["stack"][-1]["step"] != "vac_port":
        role = RULES.active(state)[0]
        RULES.action(state, role, *(RULES.default_action(state, role) or RULES.legal_actions(state, role)[0]))
    assert RULES.active(state) == ["P2"]
    verb, port = RULES.default_action(state, "P2")
    RULES.action(state, "P2", verb, port)
    assert state["spos"][ids["trinity"]] == port
    assert RULES.check_invariants(state) == []


def test_vacillating_at_sea_ignored_unless_the_ships_majority_l269(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """E1 L269: Stanley (50) is not the majority of the Trinity's 150: the card is ignored and
    the next card decides (5-4: 150 against 100 wins, P1 takes the Mary and Grey)."""
    state, ids = _vacillating_sea_battle(tmp_path, monkeypatch, [5], "stanley")
    assert state["ch"][ids["percy"]] == 0 and state["ch"][ids["stanley"]] == 0
    assert ship_controller(state, ids["trinity"]) == 0
    assert state["ncap"][ids["stanley"]] < 0
    assert ship_controller(state, ids["mary"]) == 0 and state["ncap"][ids["grey"]] == 0


def test_ship_changing_owner_at_sea_stays_with_its_controller_until_port_l181(tmp_path: Path) -> None:
    """L181: a ship whose card leaves its faction while it carries passengers at sea stays
    under its controller until it touches port; an empty one leaves the board at once."""
    from roses.games.kingmaker import ops

    state = staged(tmp_path, rules="e1", deck=DECK)
    trinity, s = fleet(state, 0, "percy", "ship_trinity", "H7")
    grey = aboard(state, 0, "grey", s)
    ops.card_leaves(state, trinity)
    assert state["spos"][s] == "H7" and ship_controller(state, s) == 0
    ops.touch_port(state, s)
    assert state["sctl"][s] == -1
    state["nship"][grey], state["nsq"][grey] = -1, "A1"  # ashore: the ship is empty
    ops.card_leaves(state, trinity)
    assert state["spos"][s] is None


def test_noble_freed_at_sea_keeps_his_ship_until_port_l289(tmp_path: Path) -> None:
    """E1 L289 (ruling K59): a noble captured at sea and ransomed keeps the ship he is on
    until it touches port."""
    from roses.games.kingmaker.combat import free_captive

    state = staged(tmp_path, rules="e1", deck=DECK)
    _, s = fleet(state, 1, "neville", "ship_mary", "H7", sq="A2")
    grey = aboard(state, 0, "grey", s)
    state["ncap"][grey] = 1
    free_captive(state, grey, "Grey is ransomed")
    assert state["ncap"][grey] < 0 and ship_controller(state, s) == 0


def test_passengers_sailing_into_a_neutral_port_must_besiege_it_l172(tmp_path: Path) -> None:
    """L172-174: nobles carried by choice into a neutral or unfriendly fortified port land in
    the open of its square and must besiege it in the combat phase (no ``end`` before)."""
    from roses.games.kingmaker.combat import combat_options
    from roses.games.kingmaker.play import sail

    state = staged(tmp_path, rules="e1", deck=DECK)
    _, s = fleet(state, 0, "percy", "ship_trinity", "G6")
    stanley = aboard(state, 0, "stanley", s)  # 50 + 50 against Hull's garrison of 100
    aboard(state, 0, "mowbray", s)
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    sail(state, 0, s, "hull")
    assert (state["nsq"][stanley], state["nin"][stanley], state["nship"][stanley]) == ("F6", None, -1)
    assert ["siege", "hull"] in state["obliged"]
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    state["tno"] -= 1  # the same turn
    options = combat_options(state, 0)
    assert ("siege", "hull") in options and ("end", None) not in options
