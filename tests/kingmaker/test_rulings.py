"""One test per ruling of roses/games/kingmaker/RULINGS.md that is not pinned elsewhere."""

from __future__ import annotations

from pathlib import Path

from roses.games.kingmaker import RULES, ops, parliament
from roses.games.kingmaker.common import (
    E_HAND,
    Z_ASIDE,
    Z_AWARD,
    Z_CHANC,
    Z_DECK,
    Z_DISC,
    Z_HAND,
    Z_NOBLE,
    W,
    noble_strength,
    refuge_area,
)
from roses.games.kingmaker.play import blocked_areas, check_victory
from tests.kingmaker.helpers import (
    award,
    combat,
    eid,
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

DECK = make_deck(
    {"id": "r32", **combat("storms", [3, 2])},
    {"id": "r54", **combat("storms", [5, 4], ("neville",))},
    {"id": "bw", **combat("storms", None)},
    {"id": "writ", "kind": "writ", "level": "basic"},
    {"id": "refuge", "kind": "refuge", "level": "e1", "turns": 2},
    {"id": "vac", "kind": "vacillating", "level": "e1"},
    {"id": "gales", **combat("gales", [2, 1]), "level": "e1"},
    {"id": "pms", **combat("parliament_summoned", [3, 1])},
    {"id": "raid", **combat("raid", [4, 1]), "place": "nottingham", "called": ["percy", "earl_of_kent"],
     "name": "Test rising"},
)


def heir(state, hid: str) -> int:
    return W(state).heir_codec.id(hid)


def revive(state, hid: str, sq: str, inside: str | None = None, escort: str | None = None, crowned=False) -> int:
    w = W(state)
    h = heir(state, hid)
    state["hdead"][h] = False
    state["hcrown"][h] = crowned
    state["hsq"][h], state["hin"][h], state["hship"][h] = sq, inside, -1
    state["hesc"][h] = w.cid(escort) if escort else -1
    if escort:
        state["hsq"][h] = state["hin"][h] = None
    return h


def test_irish_kerns_k4(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e2")
    n = put(state, 0, "percy", "A1")
    award(state, "lieutenant_of_ireland", "percy")
    base = noble_strength(state, n)
    award(state, "irish_kerns", "percy")
    assert noble_strength(state, n) == base + 50  # outside Ireland: the Kerns' 50


def test_plantagenet_follows_the_senior_heir_k5(tmp_path: Path) -> None:
    state = staged(tmp_path)
    w = W(state)
    pl = w.cid("plantagenet_york")
    assert state["cz"][pl] == Z_ASIDE
    revive(state, "richard_of_york", "C3")
    revive(state, "edward_of_march", "D3")
    put(state, 0, "percy", "C3")
    ops.capture_heirs(state, 0, "C3", None)
    assert state["cz"][pl] == Z_NOBLE and state["ch"][pl] == 0 and state["nsq"][pl] == "C3"
    put(state, 1, "mowbray", "D3")
    ops.capture_heirs(state, 1, "D3", None)
    ops.kill_heir(state, heir(state, "richard_of_york"), "dies")
    assert state["ch"][pl] == 1 and state["nsq"][pl] == "D3"  # to the next heir's controller


def test_ireland_no_refuge_with_e2_k6(tmp_path: Path) -> None:
    from tests.kingmaker.boards import rules_board

    board = rules_board()
    board["areas"].append({"id": "ireland", "code": "I", "name": "Ireland", "kind": "land", "refuge": True})
    board["area_map"][0] = "IIEEEEEEEEEEEc"
    for level, blocked in (("e1", True), ("e2", False)):
        state = staged(tmp_path, rules=level, board=board)
        n = put(state, 0, "percy", "D1")
        assert ("ireland" in blocked_areas(state, 0, n)) is blocked
        assert (refuge_area(state, "A1") is None) is (not blocked)


def test_parliament_must_be_summoned_with_henry_k14(tmp_path: Path) -> None:
    state = staged(tmp_path, deck=DECK)
    revive(state, "henry_vi", "B5", "london", crowned=True)
    put(state, 0, "percy", "C2")
    event_on_top(state, "pms")
    turn_of(state, 1, {"step": "chance", "p": 1}, stage=1)
    RULES.steps.settle(state)
    assert state["stack"][-1]["step"] == "parl_place"  # Henry sole King: it meets
    RULES.action(state, "P2", "meet", "london")
    session = next(f for f in state["stack"] if f["step"] == "session")
    assert session["henry_out"]
    votes = parliament.tally(state, session)
    assert votes[0][0] == 2 + 20  # Percy's 2 and the incapacitated King's 20 (most other votes)
    # Another sole King: the card is ignored.
    (tmp_path / "b").mkdir()
    state2 = staged(tmp_path / "b", deck=DECK)
    revive(state2, "edward_of_march", "B5", "london", crowned=True)
    event_on_top(state2, "pms")
    turn_of(state2, 1, {"step": "chance", "p": 1}, stage=1)
    RULES.steps.settle(state2)
    assert not any(f["step"] in ("parl_place", "session") for f in state2["stack"])


def test_ambush_captures_the_ambushers_k15(tmp_path: Path) -> None:
    state = staged(tmp_path, deck=DECK)
    W(state)
    a = put(state, 0, "grey", "C2")                # 20 against 50: ambush only (L247)
    d = put(state, 1, "neville", "C2")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    assert ("ambush", ["C2", "P2"]) in RULES.legal_actions(state, "P1")
    assert ("battle", ["C2", "P2"]) not in RULES.legal_actions(state, "P1")
    event_on_top(state, "r54")                     # killed list: Neville (the bottom name)
    RULES.action(state, "P1", "ambush", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["cz"][d] == Z_DISC                # the bottom name dies
    assert state["ncap"][a] == 1                   # and the ambusher is captured


def test_owner_attacks_unfriendly_nobles_inside_k16(tmp_path: Path) -> None:
    state = staged(tmp_path, deck=DECK)
    state["pown"]["nottingham"] = 0
    put(state, 0, "percy", "C4", "nottingham")
    put(state, 1, "grey", "C4", "nottingham")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    assert ("town_attack", "nottingham") in RULES.legal_actions(state, "P1")
    # The intruder's duty to fight (situation 1) in his own turn:
    turn_of(state, 1, {"step": "combat", "p": 1}, stage=3)
    legal = RULES.legal_actions(state, "P2")
    assert ("town_fight", "nottingham") in legal and ("end", None) not in legal


def test_siege_continues_next_turn_k17(tmp_path: Path) -> None:
    state = staged(tmp_path, deck=DECK)
    for cid in ("percy", "mowbray"):
        put(state, 0, cid, "C4")
    state["siege"]["nottingham"] = 0
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    assert ("siege", "nottingham") in RULES.legal_actions(state, "P1")
    event_on_top(state, "r32")
    RULES.action(state, "P1", "siege", "nottingham")
    RULES.action(state, "P1", "fight")
    assert state["pown"]["nottingham"] == 0 and "nottingham" not in state["siege"]


def test_vacillating_in_the_chance_phase_k18(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e1", deck=DECK)
    a = put(state, 0, "percy", "A1")
    b = put(state, 0, "grey", "A3")
    event_on_top(state, "vac")
    turn_of(state, 0, {"step": "chance", "p": 0}, stage=1)
    RULES.steps.settle(state)
    idle = [n for n in (a, b) if state["nvac"][n] == state["tno"]]
    assert len(idle) == 1
    assert ("select", W(state).cards[idle[0]].id) not in RULES.legal_actions(state, "P1")


def test_dead_nobles_cards_k20(tmp_path: Path) -> None:
    state = staged(tmp_path)
    w = W(state)
    n = put(state, 0, "percy", "A1")
    office = award(state, "marshal", "percy")
    town = award(state, "town_nottingham", "percy")
    ship = award(state, "ship_mary", "percy")
    merc = award(state, "flemish_1", "percy")
    ops.ship_to_port(state, w.ship_of_card[ship])
    ops.kill_noble(state, n, "dies")
    assert state["cz"][office] == Z_CHANC
    for c in (n, town, ship, merc):
        assert state["cz"][c] == Z_DISC
    assert state["spos"][w.ship_of_card[ship]] is None


def test_gales_sink_ships_k22(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e1", deck=DECK)
    w = W(state)
    n = put(state, 0, "percy", "A1")
    card = award(state, "ship_mary", "percy")
    s = w.ship_of_card[card]
    state["spos"][s] = "H7"
    passenger = put(state, 0, "grey", "A1")
    state["nsq"][passenger], state["nship"][passenger] = None, s
    event_on_top(state, "gales")
    turn_of(state, 1, {"step": "chance", "p": 1}, stage=1)
    RULES.steps.settle(state)
    assert state["spos"][s] is None and state["cz"][card] == Z_DISC
    assert state["cz"][passenger] == Z_DISC and state["cz"][n] == Z_NOBLE


def test_raid_places_inside_if_friendly_k24(tmp_path: Path) -> None:
    state = staged(tmp_path, deck=DECK)
    W(state)
    p1 = put(state, 0, "percy", "A1")
    p2 = put(state, 1, "audley", "M1")
    award(state, "earl_of_kent", "audley")
    state["pown"]["nottingham"] = 0
    event_on_top(state, "raid")
    turn_of(state, 2, {"step": "chance", "p": 2}, stage=1)
    RULES.steps.settle(state)
    assert (state["nsq"][p1], state["nin"][p1]) == ("C4", "nottingham")  # friendly: inside
    assert (state["nsq"][p2], state["nin"][p2]) == ("C4", None)           # unfriendly: the open


def test_non_combat_card_in_combat_k25(tmp_path: Path) -> None:
    state = staged(tmp_path, deck=DECK)
    put(state, 0, "percy", "C2")
    d = put(state, 1, "grey", "C2")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "r32")
    ref = event_on_top(state, "refuge")         # no combat half: discarded, not kept
    writ = event_on_top(state, "writ")          # kept by the drawer (L243)
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["ez"][writ] == E_HAND and state["eh"][writ] == 0
    assert ref in state["edisc"]
    assert state["ncap"][d] == 0


def _captive(tmp_path: Path):
    state = staged(tmp_path, deck=DECK)
    put(state, 0, "percy", "C2")
    d = put(state, 1, "grey", "C2")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "r32")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    return state, d


def test_kings_pardon_k26(tmp_path: Path) -> None:
    state, d = _captive(tmp_path)
    pardon = give_hand(state, 1, "kings_pardon_1")
    RULES.action(state, "P1", "execute", "grey")
    assert RULES.active(state) == ["P2"]
    assert RULES.view(state, "P2")["default"] == ["pardon", None]
    RULES.action(state, "P2", "pardon")
    assert state["cz"][d] == Z_NOBLE and state["ncap"][d] < 0 and state["nin"][d] is None
    assert state["cz"][pardon] == Z_CHANC


def test_ransom_default_refuse_k27(tmp_path: Path) -> None:
    state, d = _captive(tmp_path)
    give_hand(state, 1, "earl_of_kent")
    RULES.action(state, "P1", "ransom", ["grey", 1])
    assert RULES.active(state) == ["P2"]
    assert RULES.view(state, "P2")["default"] == ["refuse", None]
    RULES.action(state, "P2", "refuse")
    assert state["cz"][d] == Z_DISC  # executed


def test_ransom_paid_with_hand_cards_k49(tmp_path: Path) -> None:
    state, d = _captive(tmp_path)
    kent = give_hand(state, 1, "earl_of_kent")
    RULES.action(state, "P1", "ransom", ["grey", 1])
    RULES.action(state, "P2", "pay")
    RULES.action(state, "P2", "give_card", "earl_of_kent")
    assert state["cz"][kent] == Z_HAND and state["ch"][kent] == 0
    assert state["cz"][d] == Z_NOBLE and state["ncap"][d] < 0


def test_booty_k28(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e1", deck=DECK)
    for cid in ("percy", "stanley", "mowbray"):
        put(state, 0, cid, "C2")                  # 200
    put(state, 1, "neville", "C2")
    put(state, 1, "grey", "C2")
    put(state, 1, "roos", "C2")                   # 90: below 100, no booty
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "r32")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["booty"] == {}
    (tmp_path / "x").mkdir()
    state = staged(tmp_path / "x", rules="e1", deck=DECK)
    for cid in ("percy", "stanley", "mowbray"):
        put(state, 0, cid, "C2")
    put(state, 1, "neville", "C2")
    put(state, 1, "talbot", "C2")
    put(state, 1, "roos", "C2")                   # 100
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "r32")
    RULES.action(state, "P1", "battle", ["C2", "P2"])
    RULES.action(state, "P1", "fight")
    assert state["booty"] == {"1": [0]}


def test_parliament_victory_motion_k31(tmp_path: Path) -> None:
    state = staged(tmp_path)
    revive(state, "henry_vi", "B5", escort="percy", crowned=True)
    revive(state, "richard_of_york", "M2")  # another heir lives: no victory (a) yet
    put(state, 0, "percy", "B5", "london")
    state["pown"]["london"] = 0
    put(state, 1, "grey", "C2")
    turn_of(state, 0, {"step": "turn", "stage": 4}, stage=4)
    state["stack"] = [{"step": "turn", "stage": 4}]
    parliament.open_session(state, 0, "london", writs_needed=False)
    RULES.steps.settle(state)
    for role in ("P1", "P2", "P3"):
        RULES.action(state, role, "done")
    top = state["stack"][-1]
    assert top["step"] == "vote" and top["motion"] == "victory"
    for role in RULES.active(state):
        RULES.action(state, role, "vote", "yes" if role == "P1" else "no")
    assert RULES.result(state) == "P1"  # 20 + 2 + 4 of 22 + 4 + 0 Commons; Lords 3 v 0
    assert "end_parliament" in RULES.milestones(state)


def test_coronation_needs_cathedral_and_bishops_k32(tmp_path: Path) -> None:
    from roses.games.kingmaker.play import coronation_options

    state = staged(tmp_path)
    revive(state, "richard_of_york", "B5", escort="percy")
    state["pown"]["london"] = 0
    put(state, 0, "percy", "B5", "london")
    assert coronation_options(state, 0) == []
    award(state, "bishop_of_lincoln", "percy")
    assert coronation_options(state, 0) == []       # one bishop is not enough
    award(state, "bishop_of_norwich", "percy")
    assert coronation_options(state, 0) == [("crown", "richard_of_york")]


def test_turn_order_k33() -> None:
    state = play_out_setup(new_game(4, seed=9))
    first = state["order"][0]
    assert state["order"] == [(first + i) % 4 for i in range(4)]


def test_town_bonus_in_attack_inside_england_k34(tmp_path: Path) -> None:
    state = staged(tmp_path, rules="e1")
    n = put(state, 0, "percy", "A1")
    award(state, "town_bristol", "percy")
    assert noble_strength(state, n, attack=True) == 130   # Bristol +30 (L45)
    assert noble_strength(state, n) == 100                # attack only
    state["nsq"][n] = "H6"                                # the Isle of Wight: not England here
    assert noble_strength(state, n, attack=True) == 100


def test_heir_in_a_neutral_place_falls_with_it_k35(tmp_path: Path) -> None:
    state = staged(tmp_path, deck=DECK)
    h = revive(state, "margaret", "C4", "nottingham")
    for cid in ("percy", "mowbray"):
        put(state, 0, cid, "C4")
    turn_of(state, 0, {"step": "combat", "p": 0}, stage=3)
    event_on_top(state, "r32")
    RULES.action(state, "P1", "siege", "nottingham")
    RULES.action(state, "P1", "fight")
    from roses.games.kingmaker.common import heir_controller

    assert heir_controller(state, h) == 0


def test_a_noble_let_into_another_factions_place_does_not_take_the_loose_heir_inside_k96(tmp_path: Path) -> None:
    """§Capture of Royal Heirs with K35: an uncontrolled heir inside a place falls to whoever takes
    the place; a noble its owner lets in (§Towns, Cities and Castles: permission) takes neither
    the place nor the heir (K96)."""
    from roses.games.kingmaker.common import heir_controller

    state = staged(tmp_path, deck=DECK)
    h = revive(state, "margaret", "C4", "nottingham")
    percy = put(state, 0, "percy", "C4")
    put(state, 1, "mowbray", "A1")
    state["pown"]["nottingham"] = 1
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    RULES.action(state, "P1", "enter", ["percy", "nottingham"])
    RULES.action(state, "P2", "allow")
    assert state["nin"][percy] == "nottingham" and 0 in state["guests"]["nottingham"]
    assert heir_controller(state, h) == -1 and state["hin"][h] == "nottingham"


def test_event_deck_reshuffles_k36(tmp_path: Path) -> None:
    state = staged(tmp_path, deck=DECK)
    state["edisc"].extend(state["edeck"])
    state["edeck"] = []
    for e in state["edisc"]:
        state["ez"][e] = 1
    e = ops.draw_event(state)
    assert e >= 0 and len(state["edeck"]) > 0
    assert e not in state["edeck"] and not state["edisc"]


def test_noble_enters_play_k37(tmp_path: Path) -> None:
    state = staged(tmp_path)
    n = give_hand(state, 0, "percy")
    state["cz"][n] = Z_NOBLE
    ops.enter_play(state, n)
    assert state["nsq"][n] is not None and state["nin"][n] is None
    state["pown"]["nottingham"] = 0
    ops.enter_play(state, n)
    assert state["nin"][n] == "nottingham"  # the nearest friendly place


def test_crown_deck_reshuffles_k38(tmp_path: Path) -> None:
    state = staged(tmp_path)
    for c in list(state["cdeck"]):
        state["cz"][c] = Z_DISC
    state["cdisc"].extend(state["cdeck"])
    state["cdeck"] = []
    c = ops.draw_crown(state)
    assert c >= 0 and state["cdeck"] and not state["cdisc"]


def test_assign_in_own_turn_k47(tmp_path: Path) -> None:
    state = staged(tmp_path)
    put(state, 0, "audley", "A1")
    give_hand(state, 0, "earl_of_kent")
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    assert ("assign", ["earl_of_kent", "audley"]) in RULES.legal_actions(state, "P1")
    RULES.action(state, "P1", "assign", ["earl_of_kent", "audley"])
    assert state["cz"][W(state).cid("earl_of_kent")] == Z_AWARD
    assert RULES.legal_actions(state, "P2") == []


def test_round_limit_k50() -> None:
    state = new_game(2, seed=4, rounds=1)
    play_out_setup(state)
    steps = 0
    while RULES.result(state) is None and steps < 5000:
        role = RULES.active(state)[0]
        legal = RULES.legal_actions(state, role)
        verb, arg = ("end", None) if ("end", None) in legal else legal[-1]
        RULES.action(state, role, verb, arg)
        steps += 1
    assert RULES.result(state) == "Draw"
    assert state["round"] == 2
    assert RULES.milestones(state) == ["end_round_limit"]  # the fuzzer's results by kind


def test_victory_last_heir_crowned(tmp_path: Path) -> None:
    """L404 (a): the controller of the last royal heir, crowned, wins."""
    state = staged(tmp_path)
    revive(state, "edward_of_march", "C2", escort="percy", crowned=True)
    put(state, 0, "percy", "C2")
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    check_victory(state)
    assert RULES.result(state) == "P1"
    assert RULES.milestones(state) == ["end_last_heir_crowned"]


def test_french_siege_without_captain_loses_calais(tmp_path: Path) -> None:
    """French Siege (Event Card Key): with no Captain of Calais able to come, Calais is lost
    and the office leaves play, from whatever pile holds it."""
    from tests.kingmaker.boards import rules_board

    board = rules_board()
    board["places"].append({"id": "calais", "name": "Calais", "square": "M4", "type": "town",
                            "fortified": True, "garrison": 300, "capacity": 300})
    deck = make_deck({"id": "fs", **combat("french_siege", [3, 2])})
    state = staged(tmp_path, deck=deck, board=board)
    w = W(state)
    cap = w.cid("captain_of_calais")
    assert cap in state["cdeck"]
    event_on_top(state, "fs")
    turn_of(state, 0, {"step": "chance", "p": 0}, stage=1)
    RULES.steps.settle(state)
    assert state["calais_lost"] and cap not in state["cdeck"]
    assert RULES.check_invariants(state) == []


def test_writ_commissions_a_substitute_k60(tmp_path: Path) -> None:
    """L116-118 (ruling K60): a noble summoned by Raid/Revolt may be replaced, with a Writ, by
    another of his player's nobles at least as strong; default: he answers himself."""
    state = staged(tmp_path, deck=DECK)
    percy = put(state, 0, "percy", "A1")
    mowbray = put(state, 0, "mowbray", "A3")      # 50: too weak to replace Percy (100)
    stafford = put(state, 0, "stafford", "A2")
    award(state, "marshal", "stafford")           # 130: strong enough
    writ = eid(state, "writ")
    state["edeck"].remove(writ)
    state["ez"][writ], state["eh"][writ] = E_HAND, 0
    event_on_top(state, "raid")
    turn_of(state, 2, {"step": "chance", "p": 2}, stage=1)
    RULES.steps.settle(state)
    assert RULES.active(state) == ["P1"]
    assert RULES.view(state, "P1")["default"] == ["answer", None]
    assert sorted(RULES.legal_actions(state, "P1")) == [("answer", None), ("send", "stafford")]
    RULES.action(state, "P1", "send", "stafford")
    assert state["nsq"][stafford] == "C4" and state["nsq"][percy] == "A1"
    assert writ in state["edisc"] and state["nsq"][mowbray] == "A3"


def test_place_capacity_k61(tmp_path: Path) -> None:
    """L193 (ruling K61): a noble may not end inside a place already full of troops."""
    from roses.games.kingmaker.play import move_dests

    state = staged(tmp_path)
    state["pown"]["nottingham"] = 0                  # capacity 300
    put(state, 0, "neville", "C4", "nottingham")
    put(state, 0, "mowbray", "C4", "nottingham")
    put(state, 0, "stanley", "C4", "nottingham")     # 150 inside
    n = put(state, 0, "percy", "C3")                 # 100 more: 250 fits
    assert "nottingham" in move_dests(state, n)
    award(state, "marshal", "percy")                 # 200: 350 does not
    assert "nottingham" not in move_dests(state, n)


def test_leaving_an_unfriendly_port_needs_leave_l170(tmp_path: Path) -> None:
    state = staged(tmp_path)
    w = W(state)
    put(state, 0, "percy", "A1")
    card = award(state, "ship_mary", "percy")
    s = w.ship_of_card[card]
    state["spos"][s] = "hull"
    state["pown"]["hull"] = 1
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    RULES.action(state, "P1", "sail", "ship_mary")
    assert RULES.active(state) == ["P2"] and RULES.view(state, "P2")["default"] == ["deny", None]
    RULES.action(state, "P2", "deny")
    assert ("sail", "ship_mary") not in RULES.legal_actions(state, "P1")


def test_scottish_foot_taken_by_the_first_noble_in_berwick_l47(tmp_path: Path) -> None:
    from roses.games.kingmaker.common import Z_LYING
    from tests.kingmaker.boards import rules_board

    board = rules_board()
    board["places"].append({"id": "berwick", "name": "Berwick", "square": "E2", "type": "town",
                            "fortified": True, "garrison": 100, "capacity": 200})
    state = staged(tmp_path, rules="e1", board=board)
    w = W(state)
    foot = w.cid("scottish_foot")
    state["cdeck"].remove(foot)
    state["cz"][foot] = Z_LYING
    n = put(state, 0, "percy", "E4")
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    RULES.action(state, "P1", "select", "percy")
    RULES.action(state, "P1", "to", "E2")
    assert state["cz"][foot] == Z_AWARD and state["ch"][foot] == n


def test_beaufort_crowned_may_not_hold_a_yorkist_l432(tmp_path: Path) -> None:
    state = staged(tmp_path)
    w = W(state)
    put(state, 0, "beaufort", "C3")
    state["beaufort_crowned"] = True
    h = revive(state, "george_of_clarence", "C3")
    ops.capture_heirs(state, 0, "C3", None)
    assert state["hesc"][h] == -1
    put(state, 1, "grey", "C3")
    ops.capture_heirs(state, 1, "C3", None)
    assert state["hesc"][h] == w.cid("grey")


def test_both_houses_count_once_in_parliament_l380(tmp_path: Path) -> None:
    state = staged(tmp_path)
    revive(state, "henry_vi", "B5", escort="percy")
    revive(state, "richard_of_york", "B5", escort="percy")
    put(state, 0, "percy", "B5")
    session = {"sq": "B5", "henry_out": False}
    votes = parliament.tally(state, session)
    assert votes[0] == (2 + 10, 3 + 10)  # Percy 2/3 and one house's 10/10, not two


def test_sally_and_siege_lifted_l232(tmp_path: Path) -> None:
    """L232: nobles inside a besieged place may sally out against the besiegers; a siege whose
    besiegers no longer match the defence is lifted."""
    from roses.games.kingmaker.play import lift_sieges

    state = staged(tmp_path, deck=DECK)
    state["pown"]["nottingham"] = 1
    inside = put(state, 1, "percy", "C4", "nottingham")        # 100 + garrison 100
    besieger = put(state, 0, "stafford", "C4")
    award(state, "marshal", "stafford")                        # 130
    put(state, 0, "neville", "C4")
    put(state, 0, "mowbray", "C4")                             # 230 against 200
    state["siege"]["nottingham"] = 0
    turn_of(state, 1, {"step": "combat", "p": 1}, stage=3)
    assert ("sally", "nottingham") in RULES.legal_actions(state, "P2")
    lift_sieges(state)
    assert state["siege"] == {"nottingham": 0}
    state["cz"][W(state).cid("marshal")] = Z_DECK               # the besiegers weaken to 130
    state["ch"][W(state).cid("marshal")] = -1
    state["cdeck"].append(W(state).cid("marshal"))
    lift_sieges(state)
    assert state["siege"] == {} and state["nin"][inside] == "nottingham" and state["nsq"][besieger] == "C4"


def test_refuge_entered_only_to_fight_and_left_next_turn_l146(tmp_path: Path) -> None:
    """E1 L146-148 (ruling K62): without a Refuge card a noble may enter a refuge only where
    there is something to besiege, attack or take, and must be out by the end of his next turn."""
    from roses.games.kingmaker.play import blocked_areas, land_moves, raiders_leave
    from tests.kingmaker.boards import rules_board

    board = rules_board()
    board["areas"].append({"id": "scotland", "code": "S", "name": "Scotland", "kind": "land", "refuge": True})
    board["area_map"][0] = "SSSSEEEEEEEEEc"
    state = staged(tmp_path, rules="e1", board=board)
    n = put(state, 0, "percy", "E2")
    assert "scotland" in blocked_areas(state, 0, n)
    assert "B1" not in land_moves(state, n)
    revive(state, "margaret", "B1")                            # an heir alone: something to take
    assert "B1" in land_moves(state, n)
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    RULES.action(state, "P1", "select", "percy")
    RULES.action(state, "P1", "to", "B1")
    assert state["raiders"] and state["cz"][n] == Z_NOBLE
    raiders_leave(state, 0)                                    # this turn: may stay
    assert state["cz"][n] == Z_NOBLE
    state["tno"] += 3
    raiders_leave(state, 0)                                    # his next turn ends: still there
    assert state["cz"][n] == Z_DISC


def test_future_draws_as_ransom_k65(tmp_path: Path) -> None:
    """E1 L317 (ruling K65): the owner may give his next Crown draws for a captive, who is
    freed at once; the captor then takes those draws."""
    from roses.games.kingmaker.play import receive_crown

    state, d = _captive(tmp_path)
    state["level"] = 1
    RULES.action(state, "P1", "ransom_draws", ["grey", 1])
    RULES.action(state, "P2", "pay")
    assert state["cz"][d] == Z_NOBLE and state["ncap"][d] < 0
    assert state["booty"] == {"1": [0]}
    c = take(state, "earl_of_kent")
    receive_crown(state, 1, c)
    assert state["ch"][c] == 0 and state["booty"] == {}


def test_noble_held_until_the_ransom_draws_are_taken_l317(tmp_path: Path) -> None:
    """E1 L317 (ruling K65): the captor may keep the noble until all the agreed Crown draws are
    taken; he is then freed at once, and may not be executed meanwhile."""
    from roses.games.kingmaker.play import receive_crown

    state, d = _captive(tmp_path)
    state["level"] = 1
    RULES.action(state, "P1", "ransom_draws_held", ["grey", 2])
    RULES.action(state, "P2", "pay")
    assert state["ncap"][d] == 0  # still P1's prisoner
    assert not any(f["step"] == "captive" and d in f.get("queue", ()) for f in state["stack"])
    kent, marshal = take(state, "earl_of_kent"), take(state, "marshal")
    receive_crown(state, 1, kent)
    assert state["ch"][kent] == 0 and state["ncap"][d] == 0  # one draw of two
    receive_crown(state, 1, marshal)
    assert state["ch"][marshal] == 0 and state["ncap"][d] < 0  # paid: freed at once
    assert state["booty"] == {}


def test_ransom_claim_for_a_dead_prisoner_is_void_l317(tmp_path: Path) -> None:
    """E1 L317, ruling K65: a noble held for ransom who dies is no longer owed for: his
    owner's next draw is his own again."""
    from roses.games.kingmaker import ops
    from roses.games.kingmaker.play import receive_crown

    state, d = _captive(tmp_path)
    state["level"] = 1
    RULES.action(state, "P1", "ransom_draws_held", ["grey", 1])
    RULES.action(state, "P2", "pay")
    ops.kill_noble(state, d, "dies of the plague")
    kent = take(state, "earl_of_kent")
    receive_crown(state, 1, kent)
    assert state["ch"][kent] == 1 and state["booty"] == {}


def test_ship_moves_in_one_turn_a_round_l313(tmp_path: Path) -> None:
    from roses.games.kingmaker.play import ship_can_act

    state = staged(tmp_path)
    w = W(state)
    put(state, 0, "percy", "A1")
    s = w.ship_of_card[award(state, "ship_mary", "percy")]
    state["spos"][s] = "H7"
    state["rstart"] = 10
    state["tno"] = 12
    state["smv"][s] = 11          # moved in another turn of this round (a lent ship, say)
    assert not ship_can_act(state, s)
    state["smv"][s] = 9
    assert ship_can_act(state, s)


def test_margaret_crowned_queen_regent_after_henry_l417(tmp_path: Path) -> None:
    """L417: after Henry's death Margaret may be crowned Queen Regent and has every privilege
    of a King (she is then the sole King, who summons Parliament, L329)."""
    from roses.games.kingmaker.common import sole_king
    from roses.games.kingmaker.play import coronation_options

    state = staged(tmp_path)
    h = revive(state, "margaret", "B5", escort="percy")
    state["pown"]["london"] = 0
    put(state, 0, "percy", "B5", "london")
    award(state, "bishop_of_lincoln", "percy")
    award(state, "bishop_of_norwich", "percy")
    assert coronation_options(state, 0) == [("crown", "margaret")]
    turn_of(state, 0, {"step": "coronation", "p": 0}, stage=5)
    RULES.action(state, "P1", "crown", "margaret")
    assert state["hcrown"][h] and sole_king(state) == h
    assert any("crowns Margaret of Anjou Queen Regent" in line for line in RULES.log_for(state, "P2"))


def test_french_aid_only_in_calais_or_the_continent_and_used_once_l463(tmp_path: Path) -> None:
    """L463: French Aid is given only to a noble in Calais or on the Continent, and goes home
    after one attack."""
    from roses.games.kingmaker.combat import _use_french_aid
    from roses.games.kingmaker.setup import award_targets

    state = staged(tmp_path)
    w = W(state)
    n = put(state, 0, "percy", "A1")  # in England
    aid = w.cid("french_aid")
    assert n not in award_targets(state, 0, aid)
    award(state, "french_aid", "percy")
    with_aid = noble_strength(state, n)
    _use_french_aid(state, [n])
    assert state["cz"][aid] == Z_DISC
    assert noble_strength(state, n) == with_aid - w.cards[aid].troops
