"""Scenario setups and the turn sequence (1.0-1.4, 4.x, p.9, p.10; C1-C3, C10-C15, C45-C50, C136-C139)."""

from __future__ import annotations

import pytest

from roses.engine.errors import UnknownScenario
from roses.games.richard3 import common as C
from roses.games.richard3.data import BLOCKS_OF, DEAD, LANCASTER, MINOR, N_AREAS, OFF, POOL, YORK
from tests.richard3.helpers import (
    RULES,
    A,
    B,
    L,
    Y,
    act,
    keep_hands,
    move,
    new,
    phase,
    play,
    put,
    step_name,
    to_battle_or_supply,
)


def _count(s: dict, side: int, where: str) -> int:
    loc = s["loc"]
    pred = {"map": lambda x: x < N_AREAS, "pool": lambda x: x == POOL, "minor": lambda x: x == MINOR,
            "off": lambda x: x == OFF}[where]
    blocks = BLOCKS_OF[side] + ((B("Rebel/R"),) if side == YORK else ())
    return sum(1 for b in blocks if pred(loc[b]))


def test_c47_c48_c136_wars_of_the_roses_setup() -> None:
    """C47, C48 (4.3, 4.4), C3, C45, C49, C50: 1460: Lancaster 11 on map, 13 pool, 2 minors, 5
    enemy versions; York 9 on map, 13 pool with the Rebel, 2 minors, 8 enemy versions; Henry VI King."""
    s = new()
    assert (_count(s, LANCASTER, "map"), _count(s, LANCASTER, "pool"), _count(s, LANCASTER, "minor")) == (11, 13, 2)
    assert (_count(s, YORK, "map"), _count(s, YORK, "pool"), _count(s, YORK, "minor")) == (9, 13, 2)
    assert _count(s, LANCASTER, "off") == 5 and _count(s, YORK, "off") == 8
    assert s["king"] == LANCASTER and C.king_block(s) == B("Henry VI/L")
    assert C.pretender_block(s) == B("Duke of York/Y")
    assert s["campaign"] == 1 and s["last_campaign"] == 3
    assert all(s["steps"][b] == 0 or s["steps"][b] >= 2 for b in range(63))
    assert s["loc"][B("Henry VI/L")] == A("Middlesex") and s["loc"][B("Warwick/Y")] == A("Calais")


def test_c137_c138_kingmaker_setup() -> None:
    """C137, C138 (p.9): King Edward IV (March) in Middlesex; Warwick and Clarence Lancastrian in
    France; unlisted blocks permanently eliminated; Henry VI a prisoner."""
    s = new("kingmaker")
    assert s["king"] == YORK and C.king_block(s) == B("March/Y")
    assert s["loc"][B("Warwick/L")] == A("France") and s["loc"][B("Warwick/Y")] == OFF
    assert s["loc"][B("Clarence/L")] == A("France") and s["loc"][B("Clarence/Y")] == OFF
    for k in ("Duke of York/Y", "Rutland/Y", "Somerset/L", "Kent/Y", "Kent/L", "Clifford/L", "Herbert/Y"):
        assert s["loc"][B(k)] == DEAD
    assert s["loc"][B("Richmond/L")] == MINOR


def test_c139_richard_iii_setup() -> None:
    """C139 (p.10): Richard III (Gloucester) King in Middlesex; Richmond the sole Lancaster heir."""
    s = new("richard-iii")
    assert C.king_block(s) == B("Gloucester/Y") and C.pretender_block(s) == B("Richmond/L")
    assert C.heirs_alive(s, YORK) == [B("Gloucester/Y")] and C.heirs_alive(s, LANCASTER) == [B("Richmond/L")]
    assert s["loc"][B("Buckingham/L")] == A("Glamorgan") and s["loc"][B("Rivers/L")] == A("Leicester")
    assert s["campaign"] == 3 and s["last_campaign"] == 3


def test_unknown_scenario() -> None:
    with pytest.raises(UnknownScenario):
        RULES.setup(1, "bosworth")


def test_c2_c10_c13_c14_turn_sequence() -> None:
    """C2, C10, C13, C14: Card → Action (P1 then P2) → Battle (P1 picks) → Supply → next turn."""
    s = keep_hands(new())
    put(s, "Norfolk/Y", "Sussex")
    put(s, "Suffolk/Y", "Oxford")
    put(s, "Clifford/L", "Dorset")
    play(s, "AP4", "AP2")
    assert phase(s) == "action" and RULES.active(s) == [Y]
    move(s, Y, "Sussex", [("Norfolk/Y", ["Wilts"])])
    move(s, Y, "Oxford", [("Suffolk/Y", ["Wilts"])])
    act(s, Y, "end")
    if step_name(s) == "declare":
        act(s, Y, "main", "Sussex")
    assert RULES.active(s) == [L]
    act(s, L, "end")
    assert phase(s) == "battle"
    # one battle only: it starts by itself (battle.py takes over)
    assert s["battle"] is not None or phase(s) != "battle"


def test_c11_ap_mix_moves_and_recruits() -> None:
    """C11 (1.2): each AP buys one Move or one Recruit, in any mix."""
    s = keep_hands(new())
    play(s, "AP3", "AP2")
    act(s, Y, "recruit", "Norfolk/Y")
    act(s, Y, "place", "East Anglia")
    act(s, Y, "sea", "Warwick/Y")
    act(s, Y, "sea_to", "Kent")
    assert s["stack"][0]["ap"] == 1
    act(s, Y, "recruit", "Suffolk/Y")
    act(s, Y, "place", "East Anglia")
    assert s["stack"][0]["ap"] == 0
    # C71: the open Calais→Kent port pair still allows one free sea move
    assert RULES.active(s) == [Y] and ("sea", "Salisbury/Y") in RULES.legal_actions(s, Y)
    assert ("recruit", "Arundel/Y") not in RULES.legal_actions(s, Y)


def test_c1_campaign_ends_after_seven_turns() -> None:
    """C1, C115: after turn 7 the Political Turn runs, then campaign 2 starts at turn 1."""
    s = keep_hands(new())
    s["turn"] = 7
    s["hands"] = [s["hands"][0][:1], s["hands"][1][:1]]
    s["deck"] = [c for c in range(25) if c not in s["hands"][0] + s["hands"][1]]
    act(s, Y, "play", s["hands"][0][0])
    act(s, L, "play", s["hands"][1][0])
    to_battle_or_supply(s)
    while phase(s) in ("supply", "political"):
        role = RULES.active(s)[0]
        v, a = RULES.legal_actions(s, role)[0]
        act(s, role, v, a)
    assert s["campaign"] == 2 and s["turn"] == 1 and phase(s) == "mulligan"


def test_c15_control_is_immediate() -> None:
    """C15 (2.1): control changes at once when blocks move."""
    s = keep_hands(new())
    put(s, "Norfolk/Y", "Kent")
    play(s, "AP4", "AP2")
    assert C.control(s, A("Sussex"), YORK) == C.VACANT
    move(s, Y, "Kent", [("Norfolk/Y", ["Sussex"])])
    assert C.control(s, A("Sussex"), YORK) == C.FRIENDLY
    assert C.control(s, A("Sussex"), LANCASTER) == C.ENEMY


def test_labels_and_describe_for_every_legal_action() -> None:
    """label() gives readable text for every action offered; describe() renders every view."""
    import random

    from roses.engine.game import Game
    pick = random.Random(9)
    game = Game.new(RULES, 9, "wars-of-the-roses")
    for _ in range(250):
        if game.result() is not None:
            break
        for role in ("York", "Lancaster", "Observer"):
            assert RULES.describe(RULES.view(game.state, role))
        role = pick.choice(game.active())
        legal = RULES.legal_actions(game.state, role)
        for verb, arg in legal:
            text = RULES.label(game.state, role, verb, arg)
            assert text and "[" not in text[:1]
        verb, arg = pick.choice(legal)
        game.apply(role, verb, arg)
