"""Kingmaker second expansion (E2) events (Event Card Key, L476-518; excommunication L321-325)."""

from __future__ import annotations

from pathlib import Path

from roses.engine import rng
from roses.games.kingmaker import RULES
from roses.games.kingmaker.common import Z_AWARD, Z_CHANC, Z_DISC, Z_NOBLE, W, heir_controller
from roses.games.kingmaker.play import coronation_options, land_moves, move_dests
from tests.kingmaker.boards import rules_board
from tests.kingmaker.helpers import award, combat, event_on_top, make_deck, put, staged, turn_of


def board_with(*places: dict) -> dict:
    board = rules_board()
    board["places"].extend(places)
    return board


SALISBURY = {"id": "salisbury", "name": "Salisbury", "square": "K3", "type": "city", "fortified": False,
             "garrison": 0, "capacity": 300, "cathedral": True}
LINCOLN = {"id": "lincoln", "name": "Lincoln", "square": "L2", "type": "city", "fortified": True,
           "garrison": 100, "capacity": 300, "cathedral": True}

DECK = make_deck(
    {"id": "diet", **combat("religious_diet", [3, 2]), "level": "e2"},
    {"id": "heresy", **combat("heresy", [3, 2]), "level": "e2"},
    {"id": "excom", **combat("excommunication", [3, 2]), "level": "e2"},
    {"id": "defeat", "kind": "defeatism", "level": "e2"},
    {"id": "escape", **combat("heir_escapes", [3, 2]), "level": "e2"},
    {"id": "assassin", "kind": "assassination", "level": "e2"},
    {"id": "strife", **combat("merc_strife", [2, 1]), "level": "e2"},
    {"id": "k", **combat("storms", [4, 1], ("grey", "roos"))},
)


def chance(state, p: int) -> None:
    turn_of(state, p, {"step": "chance", "p": p}, stage=1)
    RULES.steps.settle(state)


def test_religious_diet_and_kings_peace(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e2", deck=DECK, board=board_with(SALISBURY))
    n = put(state, 0, "percy", "A1")
    award(state, "bishop_of_lincoln", "percy")
    event_on_top(state, "diet")
    rng.rig(state, [1])
    chance(state, 1)
    assert state["nsq"][n] == "K3"
    assert ["K3", 1] in state["peace"]


def test_heresy_sends_bishops_home(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e2", deck=DECK, board=board_with(LINCOLN))
    n = put(state, 0, "percy", "A1")
    award(state, "bishop_of_lincoln", "percy")
    event_on_top(state, "heresy")
    chance(state, 1)
    assert (state["nsq"][n], state["nin"][n]) == ("L2", "lincoln")  # his see: friendly


def test_excommunication_l321(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e2", deck=DECK, board=board_with(SALISBURY, LINCOLN))
    n = put(state, 0, "percy", "J3")
    bishop = award(state, "bishop_of_lincoln", "percy")
    town = award(state, "town_nottingham", "percy")
    event_on_top(state, "excom")
    chance(state, 0)
    assert state["cz"][bishop] == Z_CHANC and state["cz"][town] == Z_DISC
    assert "K3" not in land_moves(state, n)          # Salisbury's square is barred
    state["pown"]["lincoln"] = 0
    state["nsq"][n] = "L3"
    assert "lincoln" not in move_dests(state, n)     # a cathedral city is barred


def test_defeatism_forbids_attack(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e2", deck=DECK)
    put(state, 0, "percy", "C2")
    put(state, 1, "grey", "C2")
    event_on_top(state, "defeat")
    rng.rig(state, [6])
    chance(state, 0)
    assert state["defeatism"] == {"0": 3}
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    legal = RULES.legal_actions(state, "P1")
    assert ("end", None) in legal
    assert not [a for a in legal if a[0] in ("battle", "ambush", "siege", "storm", "announce")]


def test_heir_escapes_to_nearest_neutral_place(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e2", deck=DECK)
    w = W(state)
    put(state, 0, "percy", "C3")
    h1 = w.heir_codec.id("richard_of_york")
    h2 = w.heir_codec.id("george_of_clarence")
    for h in (h1, h2):
        state["hdead"][h] = False
        state["hesc"][h] = w.cid("percy")
    event_on_top(state, "escape")
    chance(state, 0)
    assert heir_controller(state, h1) == 0            # the senior stays
    assert heir_controller(state, h2) == -1 and state["hin"][h2] == "nottingham"


def test_assassination_kills_the_last_named(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e2", deck=DECK)
    w = W(state)
    put(state, 0, "grey", "C3")
    roos = put(state, 1, "roos", "A1")
    event_on_top(state, "k")
    event_on_top(state, "assassin")
    chance(state, 0)
    assert state["cz"][roos] == Z_DISC and state["cz"][w.cid("grey")] == Z_NOBLE


def test_merc_strife_smallest_band_goes(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e2", deck=DECK)
    put(state, 0, "percy", "C3")
    big = award(state, "burgundians_1", "percy")
    small = award(state, "saxons_1", "percy")
    event_on_top(state, "strife")
    chance(state, 1)
    assert state["cz"][small] == Z_DISC and state["cz"][big] != Z_DISC


def test_excommunicated_faction_cannot_crown(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e2", deck=DECK)
    w = W(state)
    h = w.heir_codec.id("richard_of_york")
    state["hdead"][h] = False
    state["hesc"][h] = put(state, 0, "percy", "B5", "london")
    state["pown"]["london"] = 0
    award(state, "archbishop_of_canterbury", "percy")
    assert coronation_options(state, 0)
    state["excommunicated"].append(0)
    assert coronation_options(state, 0) == []


def test_war_in_europe_sends_the_mercenaries_away_k51(tmp_path: Path) -> None:
    """E2 War in Europe (ruling K51): the mercenary cards in play go to the Crown discard; the
    Irish Kerns stay; the Treaty with France ends."""
    deck = make_deck({"id": "war", "kind": "war_in_europe", "level": "e2"}, {"id": "k", **combat("storms", [2, 1])})
    state = staged(tmp_path, rules="e2", deck=deck)
    w = W(state)
    put(state, 0, "percy", "A1")
    flemish = award(state, "flemish_1", "percy")
    kerns = award(state, "irish_kerns", "percy")
    state["treaty"] = 0
    event_on_top(state, "war")
    chance(state, 0)
    assert state["cz"][flemish] == Z_DISC
    assert state["cz"][kerns] != Z_DISC and state["ch"][kerns] == w.cid("percy")
    assert state["treaty"] == -1


DUBLIN = {"id": "dublin", "name": "Dublin", "square": "M6", "type": "city", "fortified": True,
          "garrison": 200, "capacity": 400}


def test_royal_visit_to_an_occupied_dublin_stays_in_the_open_k53(tmp_path: Path) -> None:
    """E2 Royal Visit (ruling K53): the sole King goes to Dublin "if available and not
    occupied"; Dublin occupied, he goes to the open of its square."""
    from roses.games.kingmaker.common import heir_loc
    from tests.kingmaker.test_rulings import revive

    deck = make_deck({"id": "visit", "kind": "royal_visit", "level": "e2"}, {"id": "k", **combat("storms", [2, 1])})
    state = staged(tmp_path, rules="e2", deck=deck, board=board_with(DUBLIN))
    h = revive(state, "henry_vi", "A1", escort="percy", crowned=True)
    revive(state, "richard_of_york", "B5")  # not the last heir: no victory
    put(state, 0, "percy", "A1")
    put(state, 1, "grey", "M6", "dublin")
    event_on_top(state, "visit")
    chance(state, 0)
    assert heir_loc(state, h)[:2] == ("M6", None)


def test_scots_invasion_noble_called_to_two_places_covers_both_k54(tmp_path: Path) -> None:
    """E2 Scots Invasion (rulings K29, K54): Percy, called to Cockermouth and Alnwick, goes to
    the first and covers both; a place nobody covers falls to the Scots (neutral)."""
    places = [{"id": pid, "name": pid.title(), "square": sq, "type": "castle", "fortified": True,
               "garrison": 100, "capacity": 200} for pid, sq in
              (("cockermouth", "K1"), ("alnwick", "L1"), ("raby", "M1"))]
    deck = make_deck({"id": "scots", "kind": "scots_invasion", "level": "e2"}, {"id": "k", **combat("storms", [2, 1])})
    state = staged(tmp_path, rules="e2", deck=deck, board=board_with(*places))
    percy = put(state, 0, "percy", "A1")
    put(state, 1, "grey", "A2")
    state["pown"]["raby"] = 1  # Raby held by P2; Neville (called to it) is not in play
    event_on_top(state, "scots")
    chance(state, 0)
    assert state["nsq"][percy] == "K1"
    log = "\n".join(RULES.log_for(state, "P3"))
    assert "The Scots take Alnwick" not in log and "The Scots take Cockermouth" not in log
    assert "The Scots take Raby" in log


def test_a_town_lost_to_the_scots_leaves_its_town_card_with_its_holder_l427_k75(tmp_path: Path) -> None:
    """Ruling K75 (L427, L518): Newcastle, called to its town card's owner who cannot answer
    (his only noble is a captive), falls to the Scots; the Scots are no faction, so the card
    is not transferred: it stays awarded to its noble, and every invariant holds. (Random play
    once gave the card to no one, "passes to P8" in the log, holder -1.)"""
    newcastle = {"id": "newcastle", "name": "Newcastle upon Tyne", "square": "M2", "type": "town",
                 "fortified": True, "garrison": 200, "capacity": 300}
    deck = make_deck({"id": "scots", "kind": "scots_invasion", "level": "e2"}, {"id": "k", **combat("storms", [2, 1])})
    state = staged(tmp_path, rules="e2", deck=deck, board=board_with(newcastle))
    percy = put(state, 0, "percy", "A1")
    put(state, 1, "grey", "A2")
    card = award(state, "town_newcastle", "percy")
    state["pown"]["newcastle"] = 0
    state["ncap"][percy] = 1  # a captive cannot answer the call
    event_on_top(state, "scots")
    chance(state, 0)
    log = "\n".join(RULES.log_for(state, "P3"))
    assert "The Scots take Newcastle upon Tyne" in log and "town card passes" not in log
    assert state["pown"]["newcastle"] == -1
    assert (state["cz"][card], state["ch"][card]) == (Z_AWARD, percy)
    assert RULES.check_invariants(state) == []


def test_french_treachery_sacks_the_employers_nearest_town_k57(tmp_path: Path) -> None:
    """E2 French Treachery (ruling K57): the French Aid card goes to the discard, the nearest
    unoccupied town or city of its employer becomes neutral and held against a siege of 100;
    meanwhile the employer may not summon or attend Parliament nor crown."""
    from roses.games.kingmaker import parliament
    from roses.games.kingmaker.common import place_owner
    from roses.games.kingmaker.play import siege_defence

    deck = make_deck({"id": "ft", "kind": "french_treachery", "level": "e2"}, {"id": "k", **combat("storms", [2, 1])})
    state = staged(tmp_path, rules="e2", deck=deck)
    w = W(state)
    put(state, 0, "percy", "C3")
    aid = award(state, "french_aid", "percy")
    state["pown"]["nottingham"] = 0  # P1's town at C4, next to Percy
    put(state, 1, "grey", "A1")
    event_on_top(state, "ft")
    chance(state, 0)
    assert state["cz"][aid] == Z_DISC
    assert place_owner(state, "nottingham") == -1
    assert state["rogue"] == {"place": "nottingham", "employer": 0}
    assert siege_defence(state, "nottingham", 1) == 100
    assert w.cid("percy") not in parliament.summonable(state, 1, "B5")  # his faction may not attend
    assert w.cid("grey") in parliament.summonable(state, 0, "B5")
