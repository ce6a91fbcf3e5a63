"""Research §7.2 test situations with rigged Event decks and staged positions (campaign rules
lines cited as L<n>). Situations 1-3 are in test_setup.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from roses.engine.errors import IllegalAction
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import E_HAND, Z_NOBLE, W
from roses.games.kingmaker.play import land_moves, move_dests
from tests.kingmaker.boards import rules_board
from tests.kingmaker.helpers import (
    award,
    combat,
    event_on_top,
    make_deck,
    put,
    staged,
    turn_of,
)

DECK = make_deck(
    {"id": "r32", **combat("storms", [3, 2], ("stanley",))},
    {"id": "r21", **combat("storms", [2, 1], ("stanley",))},
    {"id": "bw", **combat("storms", None)},
    {"id": "r54", **combat("storms", [5, 4])},
    {"id": "r41", **combat("storms", [4, 1], ("grey",))},
    {"id": "fm", "kind": "free_move", "level": "basic"},
    {"id": "writ", "kind": "writ", "level": "basic"},
)


def _battle_150_100(tmp_path: Path):
    state = staged(tmp_path, deck=DECK)
    a = [put(state, 0, "percy", "C2"), put(state, 0, "stanley", "C2")]    # 100 + 50
    d = [put(state, 1, "neville", "C2"), put(state, 1, "mowbray", "C2")]  # 50 + 50
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    return state, a, d


@pytest.mark.parametrize(("card", "decisive"), [("r32", True), ("r21", False)])
def test_battle_situation_4(tmp_path: Path, card: str, decisive: bool) -> None:
    """§7.2 situation 4 (L205-214): 150 against 100; "3-2" gives the attacker the victory
    and the defenders as captives, "2-1" is indecisive; in both the named participant dies."""
    state, a, d = _battle_150_100(tmp_path)
    w = W(state)
    event_on_top(state, card)
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["cz"][w.cid("stanley")] != Z_NOBLE  # on the killed list: dead either way
    if decisive:
        assert all(state["ncap"][n] == 0 for n in d)
        assert RULES.active(state) == ["P1"]  # the captor disposes of the captives
        assert state["stack"][-1]["step"] == "captive"
    else:
        assert all(state["ncap"][n] < 0 for n in d)
        assert state["stack"][-1]["step"] == "combat"


def test_battle_bad_weather_situation_4(tmp_path: Path) -> None:
    """§7.2 situation 4: Bad Weather: nothing happens, nobody dies, the card is discarded."""
    state, a, d = _battle_150_100(tmp_path)
    e = event_on_top(state, "bw")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert all(state["cz"][n] == Z_NOBLE and state["ncap"][n] < 0 for n in a + d)
    assert state["edisc"][-1] == e


def test_call_off_before_the_draw_l243(tmp_path: Path) -> None:
    state, a, d = _battle_150_100(tmp_path)
    before = len(state["edeck"])
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "call_off")
    assert len(state["edeck"]) == before
    assert state["stack"][-1]["step"] == "combat"


def _siege(tmp_path: Path, attackers: list[str]):
    state = staged(tmp_path, deck=DECK)
    state["pown"]["nottingham"] = 1
    put(state, 1, "grey", "C4", "nottingham")   # 20
    put(state, 1, "roos", "C4", "nottingham")   # 20: 100 + 40 inside
    for cid in attackers:
        put(state, 0, cid, "C4")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    return state


def test_siege_threshold_situation_5(tmp_path: Path) -> None:
    """§7.2 situation 5 (L220-224): garrison 100 plus 40 inside; 130 may not besiege, 140 may."""
    state = _siege(tmp_path, ["percy", "hastings", "herbert", "howard"])  # 130
    assert ("siege", "nottingham") not in RULES.legal_actions(state, "P1")
    with pytest.raises(IllegalAction):
        RULES.action(state, "P1", "siege", "nottingham")
    state = _siege(tmp_path, ["percy", "hastings", "herbert", "howard", "scrope"])  # 140
    assert ("siege", "nottingham") in RULES.legal_actions(state, "P1")


def test_siege_captures_the_place_situation_5(tmp_path: Path) -> None:
    """§7.2 situation 5 (L228-247): any card but Bad Weather takes the place with the nobles
    inside; the victors end inside it."""
    state = _siege(tmp_path, ["percy", "hastings", "herbert", "howard", "scrope"])
    w = W(state)
    event_on_top(state, "r54")
    RULES.action(state, "P1", "siege", "nottingham")
    RULES.action(state, "P1", "fight")
    assert state["pown"]["nottingham"] == 0
    assert state["ncap"][w.cid("grey")] == 0 and state["ncap"][w.cid("roos")] == 0
    assert state["nin"][w.cid("percy")] == "nottingham"


def test_siege_bad_weather_leaves_it_under_siege_situation_5(tmp_path: Path) -> None:
    """§7.2 situation 5 (L230-232): Bad Weather: "under siege"; a third faction must first
    beat the besieger."""
    state = _siege(tmp_path, ["percy", "hastings", "herbert", "howard", "scrope"])
    event_on_top(state, "bw")
    RULES.action(state, "P1", "siege", "nottingham")
    RULES.action(state, "P1", "fight")
    assert state["siege"]["nottingham"] == 0
    put(state, 2, "stafford", "C4")
    put(state, 2, "talbot", "C4")
    put(state, 2, "mowbray", "C4")
    turn_of(state, 2, {"step": "combat", "p": 2}, stage=3)
    legal = RULES.legal_actions(state, "P3")
    assert ("siege", "nottingham") not in legal
    assert any(v in ("battle", "ambush") and a[1] == "P1" for v, a in legal)


def test_free_move_in_combat_situation_6(tmp_path: Path) -> None:
    """§7.2 situation 6 (L243): the attacker draws Free Move, keeps it and draws again; the
    second card decides."""
    state, a, d = _battle_150_100(tmp_path)
    event_on_top(state, "r32")
    fm = event_on_top(state, "fm")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["ez"][fm] == E_HAND and state["eh"][fm] == 0
    assert all(state["ncap"][n] == 0 for n in d)  # decided by 3-2


def test_movement_forest_road_estuary_situation_7(tmp_path: Path) -> None:
    """§7.2 situation 7 (L124-136): entering forest from open ends the move; a noble starting
    on a road follows it until a neutral castle stops him (9 squares here, ruling K8); a
    path across an estuary is refused."""
    state = staged(tmp_path)
    n = put(state, 0, "percy", "E4")
    dests = land_moves(state, n)
    assert "G4" in dests and "F4" in dests       # into the forest wall...
    assert not any(d.startswith(("H", "I")) for d in dests)  # ...and no further
    n2 = put(state, 0, "neville", "G4")  # starting in the forest: forest to forest goes on (K9)
    assert "H4" in land_moves(state, n2) and "G1" in land_moves(state, n2)
    road = put(state, 0, "stanley", "A1")
    dests = land_moves(state, road)
    assert "J1" in dests and "K1" not in dests   # 9 road squares, stopped at neutral Richmond
    river = put(state, 0, "grey", "D6")
    dests = land_moves(state, river)
    assert "E6" not in dests and "E5" not in dests  # the estuary between D and E
    assert "A3" in land_moves(state, put(state, 0, "roos", "A1"))  # rivers are crossed


def test_move_ends_inside_a_friendly_place_only(tmp_path: Path) -> None:
    """L189-191: a noble may end inside a friendly place; a neutral one needs a siege."""
    state = staged(tmp_path)
    n = put(state, 0, "percy", "C3")
    assert "nottingham" not in move_dests(state, n)
    state["pown"]["nottingham"] = 0
    assert "nottingham" in move_dests(state, n)


STORM_DECK = make_deck({"id": "storm", **combat("storms", [4, 1])}, {"id": "r54", **combat("storms", [5, 4])})


def _storm_at_h7(tmp_path: Path, **kw: Any) -> tuple[dict, int]:
    """E1, P1's Trinity at sea on H7 (2 from Hull and King's Lynn, 1 from Carisbrooke), a
    Storms at Sea card on top of the Event deck: (the state, the ship)."""
    state = staged(tmp_path, rules="e1", deck=STORM_DECK, **kw)
    w = W(state)
    ship = w.ship_codec.id("ship_trinity")
    put(state, 0, "percy", "A1")
    award(state, "ship_trinity", "percy")
    state["spos"][ship] = "H7"
    event_on_top(state, "storm")
    return state, ship


def test_storm_refuge_port_only_closest_situation_10(tmp_path: Path) -> None:
    """§7.2 situation 10 (E1 L154, Storms at Sea): a ship 2 from Hull and King's Lynn and 1
    from the refuge port Carisbrooke goes to Carisbrooke, its only closest port."""
    state, ship = _storm_at_h7(tmp_path)
    turn_of(state, 0, {"step": "chance", "p": 0}, stage=1)
    RULES.steps.settle(state)
    assert state["spos"][ship] == "carisbrooke"


def test_storm_two_equal_ports_owner_chooses_situation_10(tmp_path: Path) -> None:
    """§7.2 situation 10: without the refuge port the owner chooses Hull or King's Lynn."""
    state, ship = _storm_at_h7(tmp_path, board=rules_board(without_refuge=True))
    turn_of(state, 1, {"step": "chance", "p": 1}, stage=1)
    RULES.steps.settle(state)
    assert RULES.active(state) == ["P1"]
    assert sorted(RULES.legal_actions(state, "P1")) == [("port", "hull"), ("port", "kings_lynn")]
    RULES.action(state, "P1", "port", "kings_lynn")
    assert state["spos"][ship] == "kings_lynn"


def test_menai_crossing_only_from_the_caernarvon_square_l156() -> None:
    """L156: the Menai Strait is crossed between Caernarvon and Anglesey only by a force that
    starts its move in Caernarvon's square (open board: M21 to the Anglesey squares M20, N20)."""
    from roses.games.kingmaker.common import Z_NOBLE
    from tests.kingmaker.helpers import new_game, play_out_setup

    state = play_out_setup(new_game(2, "basic", seed=3, board=None))
    w = W(state)
    assert w.board.place("caernarvon").square == "M21"
    n = next(c for c in w.nobles if state["cz"][c] != Z_NOBLE)
    put(state, 0, w.cards[n].id, "M21")
    assert {"M20", "N20"} <= set(land_moves(state, n))
    state["nsq"][n] = "M22"  # next to Caernarvon: it can reach M21, not cross
    moves = set(land_moves(state, n))
    assert "M21" in moves and not moves & {"M20", "N20"}


def test_storm_drives_passengers_into_a_refuge_without_a_card_k63_k64(tmp_path: Path) -> None:
    """E1 L240, L174 (rulings K63, K64): passengers of a ship a storm drives into a refuge's
    port land in the open there, use no Refuge card, and are recorded to leave by the end of
    their player's next turn."""
    state, ship = _storm_at_h7(tmp_path)
    grey = put(state, 0, "grey", "A1")
    state["nsq"][grey], state["nship"][grey] = None, ship
    turn_of(state, 1, {"step": "chance", "p": 1}, stage=1)
    RULES.steps.settle(state)
    assert state["spos"][ship] == "carisbrooke"
    assert (state["nsq"][grey], state["nin"][grey], state["nship"][grey]) == ("H6", None, -1)
    assert [grey, "wight", state["tno"]] in state["raiders"]
    assert state["refuges"] == []  # no Refuge card used
