"""Faults found by a rules review, each pinned by its effect: the Treaty with France ends when a
crowned Beaufort dies (E2 "Breaking a Treaty" a), Ireland under E2 is fought in like any area
(E2 Ireland; ruling K6), and a captured heir stays where the fight was when every victor dies
(Capture of Royal Heirs; ruling K76)."""

from __future__ import annotations

from pathlib import Path

from roses.games.kingmaker import RULES
from roses.games.kingmaker.combat import combat_options
from roses.games.kingmaker.common import Z_DISC, Z_NOBLE, W, heir_controller, heir_loc, sole_king
from roses.games.kingmaker.play import refuge_exempt
from tests.kingmaker.boards import rules_board
from tests.kingmaker.helpers import combat, event_on_top, make_deck, put, staged, turn_of
from tests.kingmaker.test_rulings import revive


def _plague_deck() -> dict:
    return make_deck({"id": "plague_n", "kind": "plague", "place": "nottingham", "level": "basic"},
                     {"id": "k", **combat("storms", [2, 1])})


def test_treaty_with_france_ends_when_a_crowned_beaufort_dies_of_plague_e2_breaking_a_treaty(tmp_path: Path) -> None:
    """E2 Breaking a Treaty (a) "The king dies": Beaufort, crowned and sole King, the Treaty
    signed for his faction P1, dies of Plague in Nottingham; the Treaty ends and P1 loses the
    free entry to the Continent it gave."""
    state = staged(tmp_path, rules="e2", deck=_plague_deck())
    b = put(state, 0, "beaufort", "C4", "nottingham")
    state["pown"]["nottingham"] = 0
    state["beaufort_crowned"] = True
    revive(state, "richard_of_york", "B5")  # not the last of the royal line: no victory
    put(state, 1, "grey", "A1")
    assert sole_king(state) == -2
    state["treaty"] = 0
    assert refuge_exempt(state, 0, W(state).cid("grey"), "continent")  # the Treaty's free access
    event_on_top(state, "plague_n")
    turn_of(state, 1, {"step": "chance", "p": 1}, stage=1)
    RULES.steps.settle(state)
    assert state["cz"][b] == Z_DISC
    assert state["beaufort_crowned"] is False and sole_king(state) is None
    assert state["treaty"] == -1
    assert not refuge_exempt(state, 0, W(state).cid("grey"), "continent")


def test_treaty_survives_the_death_of_an_uncrowned_beaufort_e2_breaking_a_treaty(tmp_path: Path) -> None:
    """Only "the king" dying breaks the Treaty: an uncrowned Beaufort's death leaves it with
    the faction of Henry VI, the sole King."""
    state = staged(tmp_path, rules="e2", deck=_plague_deck())
    put(state, 0, "beaufort", "C4", "nottingham")
    state["pown"]["nottingham"] = 0
    revive(state, "henry_vi", "A1", escort="grey", crowned=True)
    put(state, 0, "grey", "A1")
    state["treaty"] = 0
    event_on_top(state, "plague_n")
    turn_of(state, 1, {"step": "chance", "p": 1}, stage=1)
    RULES.steps.settle(state)
    assert state["treaty"] == 0


def _ireland_board() -> dict:
    board = rules_board()
    board["areas"].append({"id": "ireland", "code": "I", "name": "Ireland", "kind": "land", "refuge": True})
    board["area_map"][5] = "IIEEEEcwcEEEEc"
    board["places"].append({"id": "waterford", "name": "Waterford", "square": "A6", "type": "town", "fortified": True,
                            "garrison": 100, "capacity": 200, "port": ["A7"]})
    return board


def test_e2_battle_in_the_open_of_ireland_needs_no_port_taken_first_k6(tmp_path: Path) -> None:
    """E2 (ruling K6): Ireland is no refuge, so two enemy forces in the open of an Irish square
    may fight although Waterford, its port, is not the attacker's; under E1 the refuge rule L150
    (the port first) still holds there."""
    for level, battle in (("e2", True), ("e1", False)):
        state = staged(tmp_path, rules=level, board=_ireland_board())
        put(state, 0, "percy", "B6")
        put(state, 1, "grey", "B6")
        turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
        legal = combat_options(state, 0)
        assert (("battle", ["B6", "P2"]) in legal) is battle, level
        if level == "e2":
            assert ("battle", ["B6", "P2"]) in RULES.legal_actions(state, "P1")


def test_heir_of_a_captured_noble_stays_on_the_field_when_every_victor_dies_k76(tmp_path: Path) -> None:
    """Capture of Royal Heirs (ruling K76): Percy beats Mowbray, who escorts Margaret, but the
    card's killed list names Percy; Mowbray is still captured, and Margaret, with no noble of
    P1 on that field, is left alone in the open of C2, not handed to Stanley far away at L1."""
    deck = make_deck({"id": "kp", **combat("storms", [3, 2], ("percy",))})
    state = staged(tmp_path, deck=deck)
    w = W(state)
    percy = put(state, 0, "percy", "C2")
    stanley = put(state, 0, "stanley", "L1")
    mowbray = put(state, 1, "mowbray", "C2")
    h = revive(state, "margaret", "C2", escort="mowbray")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "kp")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["cz"][percy] == Z_DISC
    assert state["ncap"][mowbray] == 0
    assert state["hesc"][h] != stanley and heir_controller(state, h) == -1
    assert heir_loc(state, h) == ("C2", None, -1)
    assert state["cz"][stanley] == Z_NOBLE and w.cards[stanley].id == "stanley"


def test_heir_goes_to_a_victors_fellow_noble_on_the_same_field_k76(tmp_path: Path) -> None:
    """Ruling K76: with every victor dead but another noble of the victor's faction in the open
    of the same square (not attacking), the heir passes to him."""
    deck = make_deck({"id": "kp", **combat("storms", [3, 2], ("percy",))})
    state = staged(tmp_path, deck=deck)
    put(state, 0, "percy", "C2")
    stanley = put(state, 0, "stanley", "C2")
    state["nact"][stanley] = state["tno"] + 1  # he has acted in another turn of this round: not attacking
    put(state, 1, "mowbray", "C2")
    h = revive(state, "margaret", "C2", escort="mowbray")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    state["nact"][stanley] = state["tno"] - 1 if state["tno"] > state["rstart"] else state["nact"][stanley]
    event_on_top(state, "kp")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    frame = next(f for f in state["stack"] if f.get("step") == "battle")
    if stanley in frame.get("a", []):
        frame["a"].remove(stanley)
    RULES.action(state, "P1", "fight")
    assert state["hesc"][h] == stanley and heir_controller(state, h) == 0
