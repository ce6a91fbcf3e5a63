"""Kingmaker first expansion (E1) rules: Vacillating Allegiance in combat (research §7.2
situation 9, L291-302), Refuge cards (L140-148, Event Card Key), Free Move, Treachery."""

from __future__ import annotations

from pathlib import Path

from roses.engine import rng
from roses.games.kingmaker import RULES
from roses.games.kingmaker.combat import odds_column
from roses.games.kingmaker.common import E_DISC, E_HAND, E_USE, Z_DISC, Z_NOBLE, W
from roses.games.kingmaker.play import blocked_areas, enter_refuge, land_moves, refuge_upkeep
from tests.kingmaker.helpers import (
    combat,
    eid,
    event_on_top,
    give_hand,
    make_deck,
    put,
    staged,
    turn_of,
)

DECK = make_deck(
    {"id": "vac", "kind": "vacillating", "level": "e1"},
    {"id": "r32", **combat("storms", [3, 2])},
    {"id": "r54", **combat("storms", [5, 4])},
    {"id": "refuge3", "kind": "refuge", "level": "e1", "turns": 2},
    {"id": "fm", "kind": "free_move", "level": "basic"},
    {"id": "treach2", **combat("treachery", [2, 1]), "level": "e1", "count": 2},
)


def to_hand(state, e: int, p: int) -> None:
    if e in state["edeck"]:
        state["edeck"].remove(e)
    state["ez"][e], state["eh"][e] = E_HAND, p


def test_odds_columns_l295() -> None:
    assert odds_column(100, 100) == "Majority"
    assert odds_column(125, 100) == "5-4"
    assert odds_column(150, 100) == "3-2"
    assert odds_column(100, 200) == "2-1"
    assert odds_column(300, 100) == "3-1"
    assert odds_column(400, 90) == "4-1"


def test_vacillating_ignored_with_one_noble_situation_9(tmp_path: Path) -> None:
    """§7.2 situation 9 (L300): the affected side has one noble in the combat: the card is
    ignored and the next card decides."""
    state = staged(tmp_path, rules="e1", deck=DECK)
    put(state, 0, "percy", "C2")                      # 100, alone: the stronger
    d = [put(state, 1, "neville", "C2")]              # 50, alone
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "r32")
    vac = event_on_top(state, "vac")
    rng.rig(state, [2])                               # 1-4: the weaker force, one noble
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["ez"][vac] == E_DISC
    assert state["ncap"][d[0]] == 0                   # 100 v 50 with 3-2: captured


def test_vacillating_equal_sides_is_bad_weather_situation_9(tmp_path: Path) -> None:
    """§7.2 situation 9 (L302): equal sides: Bad Weather, no further card is drawn."""
    state = staged(tmp_path, rules="e1", deck=DECK)
    put(state, 0, "neville", "C2")
    put(state, 0, "grey", "C2")                       # 50 + 20
    put(state, 1, "stanley", "C2")
    put(state, 1, "roos", "C2")                       # 50 + 20
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    top = event_on_top(state, "r32")
    event_on_top(state, "vac")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["edeck"][-1] == top                  # no further card drawn
    assert all(state["ncap"][n] < 0 for n in W(state).nobles if state["cz"][n] == Z_NOBLE)


def test_vacillating_noble_changes_sides(tmp_path: Path) -> None:
    """L291-299: d6 5-6 picks the stronger force; a random noble of it; at 3-2 odds a 5-6
    makes him change sides and he fights for the other faction."""
    state = staged(tmp_path, rules="e1", deck=DECK)
    w = W(state)
    put(state, 0, "percy", "C2")
    put(state, 0, "stanley", "C2")                    # 150: the stronger
    put(state, 1, "neville", "C2")
    put(state, 1, "mowbray", "C2")                    # 100
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "r54")
    event_on_top(state, "vac")
    rng.rig(state, [6])                               # the stronger force
    state["rigged"].append(6)                         # the switch roll
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    # the noble is chosen by the generator: whichever it is, he now belongs to P2
    switched = [n for n in (w.cid("percy"), w.cid("stanley")) if state["cz"][n] == Z_NOBLE and state["ch"][n] == 1]
    assert len(switched) == 1


def test_refuge_card_is_used_on_entering_and_runs_out(tmp_path: Path) -> None:
    """E1 (L142, Refuge card): entering a refuge area needs a Refuge card; its use is shown,
    its turns are not; a force still there after its turns is killed."""
    state = staged(tmp_path, rules="e1", deck=DECK)
    # The island H6 is reached only by sea on the rules board: check the rule directly.
    n = put(state, 0, "percy", "A1")
    assert "wight" in blocked_areas(state, 0, n)
    ref = eid(state, "refuge3")
    to_hand(state, ref, 0)
    assert blocked_areas(state, 0, n) == ()
    state["nsq"][n] = "H6"
    enter_refuge(state, 0, n, "H6")
    assert state["ez"][ref] == E_USE
    view = RULES.view(state, "P2")
    assert view["refuges"] == [{"role": "P1", "area": "wight"}]
    assert "refuge3" not in str(view) and "turns" not in str(view["refuges"])
    refuge_upkeep(state, 0)   # second turn there
    assert state["cz"][n] == Z_NOBLE
    refuge_upkeep(state, 0)   # third turn: the card gave two
    assert state["cz"][n] == Z_DISC
    assert state["ez"][ref] == E_DISC


def test_free_move_gives_a_second_move(tmp_path: Path) -> None:
    """Free Move (Event Card Key): a counter that has moved may move once more this turn."""
    state = staged(tmp_path, deck=DECK)
    n = put(state, 0, "percy", "A3")
    to_hand(state, eid(state, "fm"), 0)
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    RULES.action(state, "P1", "select", "percy")
    RULES.action(state, "P1", "to", "C3")
    assert ("select", "percy") not in RULES.legal_actions(state, "P1")
    RULES.action(state, "P1", "free_move", "percy")
    assert ("select", "percy") in RULES.legal_actions(state, "P1")
    assert ("free_move", "percy") not in RULES.legal_actions(state, "P1")  # one per turn
    assert land_moves(state, n)


def test_treachery_left_player_picks_face_down(tmp_path: Path) -> None:
    """E1 Treachery (Event Card Key): the player on the left picks 2 of the drawer's cards
    face down; they go to the discard unseen."""
    state = staged(tmp_path, rules="e1", deck=DECK)
    put(state, 0, "percy", "A1")
    hand = [give_hand(state, 0, c) for c in ("earl_of_kent", "marshal", "ship_mary")]
    event_on_top(state, "treach2")
    turn_of(state, 0, {"step": "chance", "p": 0}, stage=1)
    RULES.steps.settle(state)
    left = state["order"][(state["order"].index(0) + 1) % 3]
    assert RULES.active(state) == [state["roles"][left]]
    legal = RULES.legal_actions(state, state["roles"][left])
    assert legal == [("pick", 1), ("pick", 2), ("pick", 3)]
    view = RULES.view(state, state["roles"][left])
    for c in hand:
        assert f"c#{c:03d}" not in str(view)
    RULES.action(state, state["roles"][left], "pick", 2)
    RULES.action(state, state["roles"][left], "pick", 1)
    assert sum(1 for c in hand if state["cz"][c] == Z_DISC) == 2
    assert set(state["tdisc"]) <= set(hand)
    for role in state["roles"]:
        secrets = RULES.secrets(state, role)
        assert all(f"c#{c:03d}" in secrets for c in state["tdisc"])


def test_captured_refuge_port_gives_free_refuge_l152(tmp_path: Path) -> None:
    """E1 L152: a faction that has captured a refuge's port may enter that refuge without a
    Refuge card."""
    state = staged(tmp_path, rules="e1", deck=DECK)
    n = put(state, 0, "percy", "G5")
    assert "wight" in blocked_areas(state, 0, n)
    state["pown"]["carisbrooke"] = 0  # P1 took Carisbrooke, the Isle of Wight's port
    assert "wight" not in blocked_areas(state, 0, n)
    assert "wight" in blocked_areas(state, 1, put(state, 1, "grey", "G5"))  # not for the others


def test_refuge_port_taken_before_a_force_in_the_open_there_l150(tmp_path: Path) -> None:
    """E1 L150: in a refuge with a port, the port must be taken before a force in the open of
    the refuge may be attacked."""
    from roses.games.kingmaker.combat import combat_options

    state = staged(tmp_path, rules="e1", deck=DECK)
    put(state, 0, "percy", "H6")
    put(state, 1, "grey", "H6")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    assert ("battle", ["H6", "P2"]) not in combat_options(state, 0)
    state["pown"]["carisbrooke"] = 0
    assert ("battle", ["H6", "P2"]) in combat_options(state, 0)
