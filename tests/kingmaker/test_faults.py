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


# ---------------------------------------------------------------------------- narrowed readings
def test_island_noble_comes_to_parliament_on_two_ships_together_parliament_step_4(tmp_path: Path) -> None:
    """Parliament, step 4 ("ship(s) ... large enough") with Sea Transportation ("troop strength
    ... can be split between two or more ships as long as they travel together"): Mowbray with
    mercenaries, 150 strong on the Isle of Wight, has two empty ships of 100; neither alone
    carries him, both together do and both sail to the mainland port (ruling K41)."""
    from roses.games.kingmaker import parliament
    from roses.games.kingmaker.common import E_HAND, Z_ASSET, noble_strength

    deck = make_deck({"id": "parl", "kind": "parliament", "level": "basic", "combat": {"ratio": [3, 2], "killed": []}},
                     {"id": "writ", "kind": "writ", "level": "basic"})
    state = staged(tmp_path, deck=deck)
    w = W(state)
    state["pown"]["london"] = 0
    put(state, 0, "neville", "B5", "london")
    from tests.kingmaker.helpers import award, eid

    award(state, "chancellor", "neville")
    mowbray = put(state, 1, "mowbray", "H6")
    for merc in ("burgundians_1", "burgundians_2", "flemish_1", "flemish_2", "saxons_1", "saxons_2"):
        award(state, merc, "mowbray")
    assert noble_strength(state, mowbray) == 170
    for e in (eid(state, "parl"), eid(state, "writ")):
        if e in state["edeck"]:
            state["edeck"].remove(e)
        state["ez"][e], state["eh"][e] = E_HAND, 0
    small = [s for s, piece in enumerate(w.ships) if piece.card >= 0 and piece.capacity == 100]
    assert len(small) == 2
    for s in small:
        state["cz"][w.ships[s].card], state["ch"][w.ships[s].card] = Z_ASSET, 1
        state["spos"][s] = "carisbrooke"
    state["pown"]["hull"] = 1
    turn_of(state, 0, {"step": "parliament", "p": 0}, stage=4)
    assert parliament.parliament_ships(state, mowbray) == small
    assert mowbray in parliament.summonable(state, 0, "B5")
    RULES.action(state, "P1", "summon", "london")
    RULES.action(state, "P1", "writ", "mowbray")
    assert state["nsq"][mowbray] == "B5"
    assert [state["spos"][s] for s in small] == ["hull", "hull"]


ALNWICK = {"id": "alnwick", "name": "Alnwick", "square": "L3", "type": "castle", "fortified": True,
           "garrison": 100, "capacity": 200}


def test_every_noble_may_go_home_free_after_parliament_to_a_castle_or_his_town_ending_parliament(tmp_path: Path) -> None:
    """Ending Parliament (and the note: "All nobles in play may return to their home
    castles"; "home castles or towns/cities"): Percy, far from Parliament at A1, may go to
    Alnwick (his castle) or Nottingham (his town card's town); he goes once; a captive may
    not (ruling K77)."""
    board = rules_board()
    board["places"].append(ALNWICK)
    state = staged(tmp_path, board=board)
    from tests.kingmaker.helpers import award

    percy = put(state, 0, "percy", "A1")
    award(state, "town_nottingham", "percy")
    grey = put(state, 1, "grey", "A2")
    state["ncap"][grey] = 0
    state["stack"] = [{"step": "turn", "stage": 5}, {"step": "disperse", "sq": "B5", "done": [False] * 3}]
    legal = RULES.legal_actions(state, "P1")
    assert ("home", ["percy", "alnwick"]) in legal and ("home", ["percy", "nottingham"]) in legal
    RULES.action(state, "P1", "home", ["percy", "nottingham"])
    assert (state["nsq"][percy], state["nin"][percy]) == ("C4", "nottingham")  # his town: inside
    assert RULES.legal_actions(state, "P1") == [("done", None)]     # one free move home each
    assert RULES.legal_actions(state, "P2") == [("done", None)]     # Grey is a captive


SCOTS_PLACES = [{"id": pid, "name": pid.title(), "square": sq, "type": "castle", "fortified": True,
                 "garrison": 100, "capacity": 200} for pid, sq in (("cockermouth", "K1"), ("raby", "M1"))]


def _scots(tmp_path: Path, tried: bool, raby_owner: int, grey_in_raby: bool = False):
    from roses.games.kingmaker.common import E_DISC, E_REMOVED

    board = rules_board()
    board["places"].extend(SCOTS_PLACES)
    deck = make_deck({"id": "scots", "kind": "scots_invasion", "level": "e2"}, {"id": "k", **combat("storms", [2, 1])})
    state = staged(tmp_path, rules="e2", deck=deck, board=board)
    put(state, 0, "percy", "A1")
    put(state, 1, "grey", *(("M1", "raby") if grey_in_raby else ("A2",)))
    if raby_owner >= 0:
        state["pown"]["raby"] = raby_owner
    state["scots_tried"] = tried
    e = event_on_top(state, "scots")
    turn_of(state, 0, {"step": "chance", "p": 0}, stage=1)
    RULES.steps.settle(state)
    return state, e, E_DISC, E_REMOVED


def test_scots_invasion_failing_on_the_first_try_removes_the_card_scots_invasion(tmp_path: Path) -> None:
    """Scots Invasion: "If the Scots fail on the first try this card is removed from play";
    Raby, called to Neville (not in play), is neutral already: nothing is lost (ruling K77),
    so the Scots fail."""
    state, e, _, removed = _scots(tmp_path, tried=False, raby_owner=-1)
    assert state["ez"][e] == removed
    assert "The Scots take Raby" not in "\n".join(RULES.log_for(state, "P3"))


def test_scots_invasion_failing_on_a_later_try_keeps_the_card_scots_invasion(tmp_path: Path) -> None:
    """Scots Invasion drawn again after an earlier draw: Raby is held and occupied (covered), so
    the Scots fail, but not on the first try: the card stays in the Event deck (shuffled back in
    with the discard)."""
    state, e, _, removed = _scots(tmp_path, tried=True, raby_owner=1, grey_in_raby=True)
    assert state["ez"][e] != removed and e in state["edeck"]


def test_scots_invasion_takes_a_held_place_nobody_covers_scots_invasion(tmp_path: Path) -> None:
    """A place a faction holds, called to a noble not in play, is lost to the Scots; the card is
    shuffled back, not removed."""
    state, e, _, removed = _scots(tmp_path, tried=False, raby_owner=1)
    assert state["pown"].get("raby", -1) == -1
    assert "The Scots take Raby" in "\n".join(RULES.log_for(state, "P3"))
    assert state["ez"][e] != removed


def test_a_noble_played_from_the_hand_cannot_move_that_turn_k78(tmp_path: Path) -> None:
    """Ruling K78 (Crown Deck Phase: cards "may be played at anytime"): Percy, brought into
    play from the hand in the movement phase, enters at his castle and may not move in that
    turn; in the next round he may."""
    from roses.games.kingmaker.play import movable
    from tests.kingmaker.helpers import give_hand

    board = rules_board()
    board["places"].append(ALNWICK)
    state = staged(tmp_path, board=board)
    percy = give_hand(state, 0, "percy")
    put(state, 1, "grey", "A1")
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    RULES.action(state, "P1", "play", "percy")
    assert state["nsq"][percy] == "L3"
    assert not movable(state, percy)
    assert ("select", "percy") not in RULES.legal_actions(state, "P1")
    state["rstart"] = state["tno"] + 1  # the next round
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    assert movable(state, percy)


def test_beaufort_in_play_means_his_counter_on_the_board_k79(tmp_path: Path) -> None:
    """Ruling K79 (Victory; Beaufort): "Beaufort in play" is his counter on the board (or at
    sea). Richard of York, the last heir, crowned: his controller wins while Beaufort's card is
    only in a hand, and does not while Beaufort's counter is on the board."""
    from roses.games.kingmaker.play import check_victory
    from tests.kingmaker.helpers import give_hand

    for on_board, wins in ((False, True), (True, False)):
        state = staged(tmp_path)
        put(state, 0, "percy", "A1")
        revive(state, "richard_of_york", "A1", escort="percy", crowned=True)
        if on_board:
            put(state, 1, "beaufort", "C2")
        else:
            give_hand(state, 1, "beaufort")
        check_victory(state)
        assert (state["result"] == "P1") is wins, on_board
