"""Checklist items of docs/kingmaker/coverage.md that the fuzzer alone used to exercise, each
now pinned by its effect: a staged position, an action or an event, and the exact outcome the
campaign rules give. Rule references name the rulebook's sections (docs/kingmaker/rulebook.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from roses.engine import rng
from roses.games.kingmaker import RULES, parliament
from roses.games.kingmaker.common import (
    E_REMOVED,
    Z_ASSET,
    Z_AWARD,
    Z_CHANC,
    Z_DECK,
    Z_DISC,
    Z_NOBLE,
    W,
    heir_loc,
    noble_strength,
)
from tests.kingmaker.boards import rules_board
from tests.kingmaker.helpers import (
    award,
    combat,
    event_on_top,
    give_hand,
    make_deck,
    new_game,
    play_out_setup,
    put,
    staged,
    take,
    turn_of,
)
from tests.kingmaker.test_rulings import revive

FILLER = {"id": "k", **combat("storms", [2, 1])}
MOVE = {"step": "move", "p": 0, "sel": None, "ship": None}


def place(pid: str, sq: str, kind: str = "castle", **extra: Any) -> dict[str, Any]:
    return {"id": pid, "name": pid.replace("_", " ").title(), "square": sq, "type": kind, "fortified": True,
            "garrison": 100, "capacity": 200, **extra}


def board_with(*places: dict[str, Any]) -> dict[str, Any]:
    board = rules_board()
    board["places"].extend(places)
    return board


def chance(state: dict[str, Any], p: int) -> None:
    turn_of(state, p, {"step": "chance", "p": p}, stage=1)
    RULES.steps.settle(state)


def log_text(state: dict[str, Any]) -> str:
    return "\n".join(RULES.log_for(state, "P3"))


def ship_of(state: dict[str, Any], card_id: str) -> int:
    w = W(state)
    return w.ship_of_card[w.cid(card_id)]


# ---------------------------------------------------------------------------- 1.2, 1.3, 1.4
def test_player_without_nobles_plays_only_chance_and_crown_item_8(tmp_path: Path) -> None:
    """Item 8 (Sequence of Play; L37): P2 has no noble in play: after his Chance phase his turn
    goes straight to the Crown deck phase, with no movement, combat or Parliament step."""
    state = staged(tmp_path, deck=make_deck(FILLER, {"id": "k2", **combat("storms", [2, 1])}))
    put(state, 0, "percy", "A1")
    chance(state, 1)
    assert state["stack"][-1]["step"] == "crown" and state["stack"][-1]["p"] == 1
    chance(state, 0)
    assert state["stack"][-1]["step"] == "move" and state["stack"][-1]["p"] == 0


def test_ships_start_in_their_home_ports_item_24(tmp_path: Path) -> None:
    """Item 24 (Setup): every ship whose card was dealt and arranged, and the office ships of a
    dealt Admiral or Warden, start in their home ports (the shipped board); the rest are off
    the board."""
    from roses.games.kingmaker.board import DATA_DIR

    state = play_out_setup(new_game(players=4, seed=3, board=str(DATA_DIR / "board.json")))
    w = W(state)
    placed = 0
    for s, piece in enumerate(w.ships):
        c = piece.card if piece.card >= 0 else piece.office
        if state["cz"][c] in (Z_AWARD, Z_ASSET) and piece.port in w.board.places:
            assert state["spos"][s] == piece.port, piece.id
            placed += 1
        else:
            assert state["spos"][s] is None, piece.id
    assert placed >= 1


# ---------------------------------------------------------------------------- 1.5, 1.22 events
def test_embassy_reshuffles_the_crown_deck_and_sends_the_king_item_30_item_120(tmp_path: Path) -> None:
    """Items 30 and 120 (Event Card Key, Embassy; E1 L120): the sole King, Henry VI escorted by
    Percy, travels to London with his escort; with E1 the Crown discard goes back into the
    Crown deck."""
    deck = make_deck({"id": "emb", "kind": "embassy", "place": "london", "level": "basic"}, FILLER)
    state = staged(tmp_path, rules="e1", deck=deck)
    percy = put(state, 0, "percy", "A1")
    h = revive(state, "henry_vi", "A1", escort="percy", crowned=True)
    revive(state, "richard_of_york", "J6")
    gone = take(state, "earl_of_kent")
    state["cz"][gone] = Z_DISC
    state["cdisc"].append(gone)
    before = len(state["cdeck"])
    event_on_top(state, "emb")
    chance(state, 0)  # P1 then moves: no Crown card is drawn yet
    assert state["cdisc"] == [] and len(state["cdeck"]) == before + 1 and state["cz"][gone] == Z_DECK
    assert state["nsq"][percy] == "B5" and heir_loc(state, h)[0] == "B5"


def test_plague_kills_everyone_inside_but_spares_ships_in_port_and_castles_item_117(tmp_path: Path) -> None:
    """Item 117 (Plague): every noble and heir inside Hull dies; a noble aboard a ship in Hull's
    port and one in the open of Hull's square live. Plague in a castle does nothing."""
    deck = make_deck({"id": "ph", "kind": "plague", "place": "hull", "level": "basic"},
                     {"id": "pr", "kind": "plague", "place": "richmond", "level": "basic"}, FILLER)
    state = staged(tmp_path, deck=deck)
    state["pown"]["hull"] = 0
    inside = put(state, 0, "percy", "F6", "hull")
    h = revive(state, "margaret", "F6", escort="percy")
    outside = put(state, 0, "stanley", "F6")
    aboard = put(state, 1, "grey", "F6")
    s = ship_of(state, "ship_mary")
    award(state, "ship_mary", "grey")
    state["spos"][s] = "hull"
    state["nship"][aboard], state["nsq"][aboard] = s, None
    event_on_top(state, "ph")
    chance(state, 2)
    assert state["cz"][inside] == Z_DISC and state["hdead"][h]
    assert state["cz"][outside] == Z_NOBLE and state["cz"][aboard] == Z_NOBLE
    castle = put(state, 2, "mowbray", "J1", "richmond")
    state["pown"]["richmond"] = 2
    event_on_top(state, "pr")
    chance(state, 1)
    assert state["cz"][castle] == Z_NOBLE


DUBLIN = place("dublin", "A6", "city", garrison=200, capacity=400, level="e2")


def _ireland(*places: dict[str, Any]) -> dict[str, Any]:
    board = board_with(*places)
    board["areas"].append({"id": "ireland", "code": "I", "name": "Ireland", "kind": "land", "refuge": True})
    board["area_map"][5] = "IIEEEEcwcEEEEc"
    return board


def test_plague_in_dublin_only_from_its_own_card_item_134(tmp_path: Path) -> None:
    """Item 134 (E2 Plague in Dublin): a Plague card naming Dublin kills the nobles inside it,
    though Ireland is otherwise spared plague."""
    deck = make_deck({"id": "pd", "kind": "plague", "place": "dublin", "level": "e2", "dublin": True}, FILLER)
    state = staged(tmp_path, rules="e2", deck=deck, board=_ireland(DUBLIN))
    state["pown"]["dublin"] = 0
    n = put(state, 0, "percy", "A6", "dublin")
    event_on_top(state, "pd")
    chance(state, 1)
    assert state["cz"][n] == Z_DISC
    assert "dies of the plague in Dublin" in log_text(state)


def test_mercenaries_go_home_item_124_item_135(tmp_path: Path) -> None:
    """Items 124 and 135 (Mercenaries go home; E2 Saxons go home): the card's band leaves for
    the Crown discard from every noble; other bands stay."""
    deck = make_deck({"id": "bh", "kind": "mercs_home", "group": "burgundians", "level": "basic"},
                     {"id": "sh", "kind": "mercs_home", "group": "saxons", "level": "e2"}, FILLER)
    state = staged(tmp_path, rules="e2", deck=deck)
    put(state, 0, "percy", "A1")
    put(state, 1, "grey", "A2")
    b1, b2 = award(state, "burgundians_1", "percy"), award(state, "burgundians_2", "grey")
    s1, f1 = award(state, "saxons_1", "grey"), award(state, "flemish_1", "percy")
    event_on_top(state, "bh")
    chance(state, 2)
    assert state["cz"][b1] == state["cz"][b2] == Z_DISC
    assert state["cz"][s1] == state["cz"][f1] == Z_AWARD
    event_on_top(state, "sh")
    chance(state, 2)
    assert state["cz"][s1] == Z_DISC and state["cz"][f1] == Z_AWARD


def test_catastrophe_takes_the_troops_of_titles_offices_and_bishoprics_for_its_rounds_item_132(tmp_path: Path) -> None:
    """Item 132 (E1 Catastrophe; ruling K23): for one round (three turns with three players)
    a title's troops do not count; afterwards they do again."""
    deck = make_deck({"id": "cat", "kind": "catastrophe", "level": "e1", "rounds": 1}, FILLER)
    state = staged(tmp_path, rules="e1", deck=deck)
    n = put(state, 0, "percy", "A1")
    base = noble_strength(state, n)
    award(state, "earl_of_kent", "percy")
    titled = noble_strength(state, n)
    assert titled > base
    event_on_top(state, "cat")
    chance(state, 0)
    assert state["catastrophe"] == 3
    assert noble_strength(state, n) == base
    from roses.games.kingmaker.play import end_turn

    for _ in range(3):
        end_turn(state, 0)
    assert state["catastrophe"] == 0 and noble_strength(state, n) == titled


def test_royal_death_kills_the_rolled_heir_and_ends_the_treaty_item_133_item_90(tmp_path: Path) -> None:
    """Items 133 and 90 (E1 Royal Death; E2 Breaking a Treaty a): 2d6 = 3 + 4 = 7 is Henry VI,
    crowned sole King: he dies, the Treaty with France signed for his faction ends, and the
    card leaves play."""
    deck = make_deck({"id": "rd", "kind": "royal_death", "level": "e1"}, FILLER)
    state = staged(tmp_path, rules="e2", deck=deck)
    put(state, 0, "percy", "A1")
    h = revive(state, "henry_vi", "A1", escort="percy", crowned=True)
    revive(state, "richard_of_york", "J6")
    state["treaty"] = 0
    e = event_on_top(state, "rd")
    rng.rig(state, [3, 4])
    chance(state, 1)
    assert state["hdead"][h] and state["treaty"] == -1
    assert state["ez"][e] == E_REMOVED
    assert "Royal Death: 7 - Henry VI." in log_text(state)


def test_royal_death_of_an_heir_already_dead_does_nothing_item_133(tmp_path: Path) -> None:
    deck = make_deck({"id": "rd", "kind": "royal_death", "level": "e1"}, FILLER)
    state = staged(tmp_path, rules="e1", deck=deck)
    alive = revive(state, "henry_vi", "A1")
    event_on_top(state, "rd")
    rng.rig(state, [1, 1])  # 2: Edmund of Rutland, already dead in this position
    chance(state, 1)
    assert not state["hdead"][alive]


def test_papal_diet_sends_every_bishop_to_the_continent_with_a_kings_peace_item_138(tmp_path: Path) -> None:
    """Item 138 (E2 Papal Diet; ruling K55): every noble holding a bishopric goes to the
    Continent (France's square), even from inside a place; a King's peace holds there until the
    drawer's next turn. A noble without a bishopric stays."""
    deck = make_deck({"id": "pope", "kind": "papal_diet", "level": "e2"}, FILLER)
    state = staged(tmp_path, rules="e2", deck=deck, board=board_with(place("calais", "M5", "town")))
    state["pown"]["nottingham"] = 0
    bishop = put(state, 0, "percy", "C4", "nottingham")
    award(state, "bishop_of_lincoln", "percy")
    lay = put(state, 1, "grey", "A1")
    event_on_top(state, "pope")
    chance(state, 1)
    assert (state["nsq"][bishop], state["nin"][bishop]) == ("M5", None)
    assert state["nsq"][lay] == "A1"
    assert ["M5", 1] in state["peace"]


def test_royal_visit_to_an_unoccupied_dublin_goes_inside_item_140(tmp_path: Path) -> None:
    """Item 140 (E2 Royal Visit; ruling K53): the sole King goes to Dublin, inside it when no
    noble occupies it."""
    deck = make_deck({"id": "visit", "kind": "royal_visit", "level": "e2"}, FILLER)
    state = staged(tmp_path, rules="e2", deck=deck, board=_ireland(DUBLIN))
    h = revive(state, "henry_vi", "C2", crowned=True)
    revive(state, "richard_of_york", "J6")
    put(state, 0, "percy", "A1")
    event_on_top(state, "visit")
    chance(state, 0)
    assert heir_loc(state, h)[:2] == ("A6", "dublin")


def test_royal_hunt_takes_the_king_to_rotherham_and_volunteers_join_item_141(tmp_path: Path) -> None:
    """Item 141 (E2 Royal Hunt): the sole King and his escort go to the forest of Rotherham;
    every player may send nobles to join (default none); two Kings: a d6 picks who hunts."""
    deck = make_deck({"id": "hunt", "kind": "royal_hunt", "level": "e2"}, FILLER)
    state = staged(tmp_path, rules="e2", deck=deck, board=board_with(place("rotherham", "H2")))
    percy = put(state, 0, "percy", "A1")
    h = revive(state, "henry_vi", "A1", escort="percy", crowned=True)
    revive(state, "richard_of_york", "J6")
    grey = put(state, 1, "grey", "C2")
    event_on_top(state, "hunt")
    chance(state, 2)
    assert state["nsq"][percy] == "H2" and heir_loc(state, h)[0] == "H2"
    assert sorted(RULES.active(state)) == ["P1", "P2", "P3"]
    assert ("join", "grey") in RULES.legal_actions(state, "P2")
    RULES.action(state, "P2", "join", "grey")
    assert state["nsq"][grey] == "H2"
    for role in ("P1", "P2", "P3"):
        RULES.action(state, role, "done")
    assert state["stack"][-1]["step"] != "hunt"


def test_royal_hunt_with_two_kings_rain_means_nobody_hunts_item_141(tmp_path: Path) -> None:
    deck = make_deck({"id": "hunt", "kind": "royal_hunt", "level": "e2"}, FILLER)
    state = staged(tmp_path, rules="e2", deck=deck, board=board_with(place("rotherham", "H2")))
    percy = put(state, 0, "percy", "A1")
    revive(state, "henry_vi", "A1", escort="percy", crowned=True)
    revive(state, "edward_of_march", "J6", crowned=True)
    event_on_top(state, "hunt")
    rng.rig(state, [6])
    chance(state, 2)
    assert state["nsq"][percy] == "A1"
    assert "d6 6: it rains; nobody hunts." in log_text(state)


def test_treaty_with_france_takes_the_king_to_france_and_gives_calais_item_143(tmp_path: Path) -> None:
    """Item 143 (E2 Treaty with France): the sole King (with Percy, his escort) goes to France;
    Calais is restored and becomes his faction's; that faction enters the Continent freely."""
    from roses.games.kingmaker.queries import refuge_exempt

    deck = make_deck({"id": "tr", "kind": "treaty", "level": "e2"}, FILLER)
    board = board_with(place("calais", "M5", "town"))
    state = staged(tmp_path, rules="e2", deck=deck, board=board)
    percy = put(state, 0, "percy", "A1")
    revive(state, "henry_vi", "A1", escort="percy", crowned=True)
    revive(state, "richard_of_york", "J6")
    state["calais_lost"] = True
    event_on_top(state, "tr")
    chance(state, 1)
    assert state["treaty"] == 0 and state["nsq"][percy] == "M5"
    assert state["pown"]["calais"] == 0 and state["calais_lost"] is False
    assert refuge_exempt(state, 0, percy, "continent") and not refuge_exempt(state, 1, percy, "continent")


def test_mutiny_takes_the_named_ship_out_of_play_and_lands_its_passengers_item_145(tmp_path: Path) -> None:
    """Item 145 (E2 Mutiny): the named ship leaves play, its card to the Crown discard; its
    passenger at sea is put on the nearest land."""
    deck = make_deck({"id": "mut", "kind": "mutiny", "ship": "ship_mary", "level": "e2"}, FILLER)
    state = staged(tmp_path, rules="e2", deck=deck)
    grey = put(state, 1, "grey", "A1")
    c = award(state, "ship_mary", "grey")
    s = ship_of(state, "ship_mary")
    state["spos"][s] = "G5"
    state["nship"][grey], state["nsq"][grey] = s, None
    event_on_top(state, "mut")
    chance(state, 0)
    assert state["cz"][c] == Z_DISC and state["spos"][s] is None
    assert state["nship"][grey] == -1 and state["nsq"][grey] in ("F4", "F5", "F6", "G4", "H4", "H6", "I4", "J5", "J6")


# ---------------------------------------------------------------------------- 1.8 sea transport
def _port_position(tmp_path: Path) -> tuple[dict[str, Any], int, int]:
    state = staged(tmp_path)
    state["pown"]["hull"] = 0
    s = ship_of(state, "ship_mary")  # capacity 100
    c = take(state, "ship_mary")
    state["cz"][c], state["ch"][c] = Z_ASSET, 0
    state["spos"][s] = "hull"
    return state, s, c


def test_embark_only_from_the_ports_square_within_capacity_item_48_item_49(tmp_path: Path) -> None:
    """Items 48 and 49 (Sea Transportation): a ship in a friendly port embarks nobles of the
    port's square at the start of its move, up to its capacity: Stanley (50) may board the Mary
    (100) in Hull; Percy (100) may too but not both; Grey, elsewhere, may not."""
    state, s, _ = _port_position(tmp_path)
    put(state, 0, "stanley", "F6")
    put(state, 0, "percy", "F6")
    put(state, 0, "grey", "C2")
    turn_of(state, 0, dict(MOVE), stage=2)
    legal = RULES.legal_actions(state, "P1")
    assert ("embark", ["stanley", "ship_mary"]) in legal and ("embark", ["percy", "ship_mary"]) in legal
    assert ("embark", ["grey", "ship_mary"]) not in legal
    RULES.action(state, "P1", "embark", ["percy", "ship_mary"])
    assert ("embark", ["stanley", "ship_mary"]) not in RULES.legal_actions(state, "P1")  # 150 > 100


def test_heir_sails_with_his_escort_item_49(tmp_path: Path) -> None:
    """Item 49: "Royal heirs may accompany nobles to sea": Margaret, escorted by Stanley, is
    aboard when he embarks."""
    state, s, _ = _port_position(tmp_path)
    put(state, 0, "stanley", "F6")
    h = revive(state, "margaret", "F6", escort="stanley")
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "embark", ["stanley", "ship_mary"])
    assert heir_loc(state, h)[2] == s


def test_landing_ends_the_ships_move_and_passengers_may_fight_in_the_square_item_50(tmp_path: Path) -> None:
    """Item 50: the Mary carries Percy from Hull to King's Lynn (friendly): landing ends the
    ship's move and Percy, landed in the open of J6, may attack Grey there in the combat
    phase."""
    from roses.games.kingmaker.combat import combat_options

    state, s, _ = _port_position(tmp_path)
    state["pown"]["kings_lynn"] = 0
    percy = put(state, 0, "percy", "F6")
    put(state, 1, "grey", "J6")
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "embark", ["percy", "ship_mary"])
    RULES.action(state, "P1", "sail", "ship_mary")
    RULES.action(state, "P1", "to", "kings_lynn")
    assert state["spos"][s] == "kings_lynn"
    assert ("sail", "ship_mary") not in RULES.legal_actions(state, "P1")
    state["nship"][percy], state["nsq"][percy] = -1, "J6"  # landed in the square (L166)
    assert ("battle", ["J6", "P2"]) in combat_options(state, 0)


def test_nobles_do_not_stay_aboard_in_port_item_52(tmp_path: Path) -> None:
    """Item 52 ("Noble counter(s) cannot stay aboard a ship at port"): at the end of the turn
    a passenger of a ship in port lands in the port's square."""
    from roses.games.kingmaker.play import end_turn

    state, s, _ = _port_position(tmp_path)
    percy = put(state, 0, "percy", "F6")
    state["nship"][percy], state["nsq"][percy] = s, None
    end_turn(state, 0)
    assert state["nship"][percy] == -1 and state["nsq"][percy] == "F6"


# ---------------------------------------------------------------------------- 1.10 combat
def test_attack_once_a_round_defend_once_a_turn_item_58(tmp_path: Path) -> None:
    """Item 58 (Combat: once a round in one's turn; a force defends once a turn): after
    Percy's battle with Grey at C2 is fought (indecisive), Percy may not attack again this
    turn, and Grey, having defended, is attacked by nobody else in it."""
    deck = make_deck({"id": "r21", **combat("storms", [2, 1])}, {"id": "r21b", **combat("storms", [2, 1])})
    state = staged(tmp_path, deck=deck)
    percy = put(state, 0, "percy", "C2")
    grey = put(state, 1, "grey", "C2")
    put(state, 0, "stanley", "C2")
    state["nact"][W(state).cid("stanley")] = -1
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    from roses.games.kingmaker.combat import attackers_at

    event_on_top(state, "r21")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert grey in state["defended"]
    assert percy not in attackers_at(state, 0, "C2")
    assert ("battle", ["C2", "P2"]) not in RULES.legal_actions(state, "P1")


# ---------------------------------------------------------------------------- 1.19 Parliament
def _session(tmp_path: Path, level: str = "basic", board: dict[str, Any] | None = None) -> dict[str, Any]:
    """P1 Neville and Audley, P2 Mowbray and Grey attend at London; P3 summons."""
    state = staged(tmp_path, rules=level, board=board)
    put(state, 0, "neville", "B5")
    put(state, 0, "audley", "B5")
    award(state, "chancellor", "neville")
    put(state, 1, "mowbray", "B5")
    put(state, 1, "grey", "B5")
    put(state, 2, "stafford", "A1")
    state["chancery"] = []
    return state


def _open(state: dict[str, Any]) -> None:
    turn_of(state, 2, {"step": "turn", "stage": 4}, stage=4)
    state["stack"] = [{"step": "turn", "stage": 4}]
    parliament.open_session(state, 2, "london", writs_needed=False)
    RULES.steps.settle(state)
    for role in ("P1", "P2", "P3"):
        RULES.action(state, role, "done")


def test_vote_between_two_kings_supports_one_as_sole_king_item_96(tmp_path: Path) -> None:
    """Item 96 (Parliament; L386): with Henry VI (P1's) and Edward of March (P2's) both
    crowned, Parliament votes between them: P1's Commons and Lords carry Henry, who becomes the
    sole King (then the victory motion follows)."""
    from roses.games.kingmaker.common import sole_king

    state = _session(tmp_path)
    h = revive(state, "henry_vi", "B5", escort="neville", crowned=True)
    e = revive(state, "edward_of_march", "B5", escort="mowbray", crowned=True)
    revive(state, "richard_of_york", "J6")
    assert sole_king(state) is None
    _open(state)
    vote = state["stack"][-1]
    assert vote["step"] == "vote" and vote["motion"] == "kings" and vote["choices"] == ["henry_vi", "edward_of_march"]
    RULES.action(state, "P1", "vote", "henry_vi")   # Commons 23, Lords 5
    RULES.action(state, "P2", "vote", "abstain")
    RULES.action(state, "P3", "vote", "abstain")
    assert state["supported"] == h and sole_king(state) == h
    assert "Parliament supports Henry VI as sole King." in log_text(state)
    assert e != h


def test_kings_pardon_in_chancery_is_voted_to_the_discard_item_99(tmp_path: Path) -> None:
    """Item 99 (Parliament: the King's Pardon): drawn from Chancery it is put to a vote; carried,
    it goes to the Crown discard; refused, back to Chancery."""
    for ballot, zone in (("yes", Z_DISC), ("no", Z_CHANC)):
        state = _session(tmp_path)
        w = W(state)
        pardon = next(c for c, card in enumerate(w.cards) if card.kind == "pardon")
        take(state, w.cards[pardon].id)
        state["cz"][pardon], state["chancery"] = Z_CHANC, [pardon]
        _open(state)
        assert state["stack"][-1]["motion"] == "pardon"
        RULES.action(state, "P1", "vote", ballot)
        RULES.action(state, "P2", "vote", "abstain")
        RULES.action(state, "P3", "vote", "abstain")
        assert state["cz"][pardon] == zone, ballot


def test_parliament_restores_the_admirals_lost_ships_item_100(tmp_path: Path) -> None:
    """Item 100 (E1 Gales at Sea b): with the Admiral's ships lost to Gales, Parliament votes;
    a Commons majority returns them to their home ports under the office."""
    state = _session(tmp_path, level="e1", board=board_with(place("southampton", "L6", "town", port=["L7"])))
    w = W(state)
    award(state, "admiral", "audley")
    lost = [s for s, piece in enumerate(w.ships) if piece.card < 0 and w.cards[piece.office].id == "admiral"]
    state["lost_ships"] = list(lost)
    _open(state)
    assert state["stack"][-1]["motion"] == "ships"
    RULES.action(state, "P1", "vote", "yes")
    RULES.action(state, "P2", "vote", "no")
    RULES.action(state, "P3", "vote", "abstain")
    assert [state["spos"][s] for s in lost] == [w.ships[s].port for s in lost]
    assert not state.get("lost_ships")


def test_kings_peace_in_the_parliament_square_until_the_summoners_next_turn_item_101(tmp_path: Path) -> None:
    """Item 101 (Parliament note, L380): after the session a King's peace holds in London's
    square: no battle there until P3, the summoner, starts his next turn."""
    from roses.games.kingmaker.combat import combat_options
    from roses.games.kingmaker.play import start_turn

    state = _session(tmp_path)
    _open(state)
    assert ["B5", 2] in state["peace"]
    assert state["stack"][-1]["step"] == "disperse"
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    assert ("battle", ["B5", "P2"]) not in combat_options(state, 0)
    start_turn(state, 2)
    assert ["B5", 2] not in state["peace"]
    assert ("battle", ["B5", "P2"]) in combat_options(state, 0)


# ---------------------------------------------------------------------------- 1.21 transfers
def test_giving_a_captured_place_is_an_offer_item_111(tmp_path: Path) -> None:
    """Item 111 (Transfers): P1, holding Nottingham with Percy in its square beside P2's Grey,
    may give it to P2; accepted, Nottingham is P2's."""
    from roses.games.kingmaker.common import place_owner

    state = staged(tmp_path)
    state["pown"]["nottingham"] = 0
    put(state, 0, "percy", "C4", "nottingham")
    put(state, 1, "grey", "C4")
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "deal")
    assert ("give_place", ["nottingham", "P2"]) in RULES.legal_actions(state, "P1")
    assert ("give_place", ["nottingham", "P3"]) not in RULES.legal_actions(state, "P1")
    RULES.action(state, "P1", "give_place", ["nottingham", "P2"])
    RULES.action(state, "P2", "accept")
    assert place_owner(state, "nottingham") == 1


def test_defeatism_lasts_the_factions_own_turns_k23(tmp_path: Path) -> None:
    """Ruling K23 (E2 Defeatism Rife): a d6 of 3 gives two of the drawer's own turns; other
    players' turns do not count them down."""
    from roses.games.kingmaker.play import end_turn

    deck = make_deck({"id": "def", "kind": "defeatism", "level": "e2"}, FILLER)
    state = staged(tmp_path, rules="e2", deck=deck)
    put(state, 0, "percy", "A1")
    event_on_top(state, "def")
    rng.rig(state, [3])
    chance(state, 0)
    assert state["defeatism"] == {"0": 2}
    end_turn(state, 1)
    end_turn(state, 2)
    assert state["defeatism"] == {"0": 2}
    end_turn(state, 0)
    assert state["defeatism"] == {"0": 1}
    end_turn(state, 0)
    assert state["defeatism"] == {}



def test_no_embarking_in_an_unfriendly_fortified_port_item_48(tmp_path: Path) -> None:
    """Item 48 (Sea Transportation: "To embark ... a ship must occupy a friendly or unfortified
    port"): the Mary, driven into Hull held by P2, may not take Percy aboard there; the refusal
    names the rule."""
    state, s, _ = _port_position(tmp_path)
    state["pown"]["hull"] = 1
    put(state, 0, "percy", "F6")
    turn_of(state, 0, dict(MOVE), stage=2)
    assert ("embark", ["percy", "ship_mary"]) not in RULES.legal_actions(state, "P1")
    from roses.engine.errors import IllegalAction

    try:
        RULES.action(state, "P1", "embark", ["percy", "ship_mary"])
    except IllegalAction as exc:
        assert "friendly or unfortified port" in str(exc)
    else:
        raise AssertionError("embarking in an unfriendly port was accepted")


# ---------------------------------------------------------------------------- principles, zones
def test_only_published_orders_change_the_state_item_2_item_10(tmp_path: Path) -> None:
    """Items 2 and 10 (Campaign principles: only published orders count, and they take effect
    when published): an order applied is in effect at once and in the public log; an order
    refused changes nothing, not even the log."""
    import copy

    from roses.engine.errors import IllegalAction

    state = staged(tmp_path)
    percy = put(state, 0, "percy", "A1")
    turn_of(state, 0, dict(MOVE), stage=2)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        RULES.action(state, "P1", "select", "grey")  # not his noble
    assert state == before
    RULES.action(state, "P1", "select", "percy")
    RULES.action(state, "P1", "to", "C1")
    assert state["nsq"][percy] == "C1"
    assert any("Percy" in line for line in RULES.log_for(state, "P3"))


def test_every_card_in_exactly_one_zone_item_6(tmp_path: Path) -> None:
    """Item 6 (Definitions: the Crown cards are in one pile or with one holder): the invariant
    check passes on a staged position and names a card put in two piles."""
    state = staged(tmp_path)
    put(state, 0, "percy", "A1")
    assert RULES.check_invariants(state) == []
    c = W(state).cid("earl_of_kent")
    state["cdisc"].append(c)  # also still in the deck
    assert "cdisc disagrees with the card zones" in RULES.check_invariants(state)


def test_awarded_cards_never_return_to_the_hand_item_20(tmp_path: Path) -> None:
    """Item 20 (Setup: awards are never returned to the hand): once the Bishop of Lincoln is
    awarded to Percy, no order of his player's turn puts it back in the hand."""
    from roses.games.kingmaker.common import Z_HAND

    state = staged(tmp_path)
    put(state, 0, "percy", "A1")
    put(state, 0, "stanley", "A1")
    kent = give_hand(state, 0, "bishop_of_lincoln")
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "assign", ["bishop_of_lincoln", "percy"])
    assert state["cz"][kent] == Z_AWARD
    legal = RULES.legal_actions(state, "P1")
    assert not [a for a in legal if a[0] == "assign" and a[1][0] == "bishop_of_lincoln"]
    RULES.action(state, "P1", "deal")
    for verb, arg in RULES.legal_actions(state, "P1"):
        assert not (isinstance(arg, list) and "bishop_of_lincoln" in arg), (verb, arg)
    assert state["cz"][kent] != Z_HAND


def test_non_transferable_cards_are_never_offered_for_transfer_item_110(tmp_path: Path) -> None:
    """Item 110 (Transfers: titles, offices and bishoprics are non-transferable): Percy holds a
    title, an office, a bishopric and a town card beside Grey; only the town card may be
    transferred."""
    state = staged(tmp_path)
    put(state, 0, "percy", "A1")
    put(state, 1, "grey", "A1")
    for cid in ("earl_of_kent", "marshal", "bishop_of_lincoln", "town_nottingham"):
        award(state, cid, "percy")
    turn_of(state, 0, dict(MOVE), stage=2)
    RULES.action(state, "P1", "deal")
    moved = sorted({arg[0] for verb, arg in RULES.legal_actions(state, "P1") if verb == "transfer"})
    assert moved == ["town_nottingham"]


def test_dublin_is_a_port_city_without_parliament_or_commons_item_46(tmp_path: Path) -> None:
    """Item 46 (E2 Dublin): Parliament may not meet in Dublin, and holding it gives no Commons
    votes; the shipped board marks it a major city and a port."""
    from roses.games.kingmaker.board import DATA_DIR, load_board

    b = load_board(str(DATA_DIR / "board.json"))
    dublin = b.places["dublin"]
    assert dublin.type == "city" and dublin.port and not dublin.parliament
    state = staged(tmp_path, rules="e2", board=_ireland(DUBLIN))
    state["pown"]["dublin"] = 0
    put(state, 0, "percy", "A6", "dublin")
    assert parliament.parliament_places(state, "A6", "dublin") == []
    state["stack"] = [{"step": "turn", "stage": 4}]
    parliament.open_session(state, 0, "london", writs_needed=False)
    session = next(f for f in state["stack"] if f["step"] == "session")
    assert parliament.tally(state, session)[0][0] == 2  # Percy's own Commons votes only


def test_the_six_phases_come_in_order_item_27(tmp_path: Path) -> None:
    """Item 27 (Sequence of Play): a turn runs Chance, Movement, Combat, Parliament (skipped
    by a player who may not summon), Coronation (skipped without a coronation) and the Crown
    deck phase, then the next player's turn."""
    state = staged(tmp_path, deck=make_deck(FILLER, {"id": "k2", **combat("storms", [2, 1])}))
    put(state, 0, "percy", "A1")
    put(state, 1, "grey", "L1")
    chance(state, 0)
    seen = [state["stack"][-1]["step"]]
    for _ in range(2):
        RULES.action(state, "P1", "end")
        seen.append(state["stack"][-1]["step"])
    assert seen == ["move", "combat", "crown"] and state["stack"][-1]["p"] == 0
    RULES.action(state, "P1", "end")
    assert state["stack"][-1]["p"] == 1  # P2's turn: his Chance phase has run, he moves
    assert state["stack"][-1]["step"] == "move"


def test_parliament_card_is_kept_only_by_the_chancellors_player_item_121(tmp_path: Path) -> None:
    """Item 121 (Event Card Key, Parliament cards): the Chancellor's player keeps a Parliament
    card drawn; another player discards it; when the Chancellor dies, the Parliament cards held
    are discarded."""
    from roses.games.kingmaker import ops
    from roses.games.kingmaker.common import E_DISC, E_HAND

    deck = make_deck({"id": "parl", "kind": "parliament", "level": "basic", "combat": {"ratio": [3, 2], "killed": []}},
                     {"id": "parl2", "kind": "parliament", "level": "basic", "combat": {"ratio": [3, 2], "killed": []}},
                     FILLER)
    state = staged(tmp_path, deck=deck)
    neville = put(state, 0, "neville", "A1")
    award(state, "chancellor", "neville")
    put(state, 1, "grey", "C2")
    e1 = event_on_top(state, "parl")
    chance(state, 0)
    assert state["ez"][e1] == E_HAND and state["eh"][e1] == 0
    e2 = event_on_top(state, "parl2")
    chance(state, 1)
    assert state["ez"][e2] == E_DISC
    ops.kill_noble(state, neville, "dies")
    assert state["ez"][e1] == E_DISC
