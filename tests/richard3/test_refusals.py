"""Refused actions say which rule stops them and why (1.1, 1.2, 5.1-5.4, 6.2), name only what
the player sent or may see, and change nothing."""

from __future__ import annotations

import pytest

from roses.engine.errors import IllegalAction
from roses.engine.game import digest
from roses.games.richard3 import RULES
from roses.games.richard3.data import CARD_AP, N_CARDS
from tests.richard3.helpers import L, Y, keep_hands, new, play, put


def _refused(state: dict, role: str, verb: str, arg: object) -> str:
    before = digest(state)
    with pytest.raises(IllegalAction) as err:
        RULES.action(state, role, verb, arg)
    assert digest(state) == before
    return str(err.value)


def test_1_1_a_card_outside_the_card_phase_names_the_phase_and_what_may_be_done() -> None:
    state = keep_hands(new())
    state = play(state, "AP4", "AP2")
    active = RULES.active(state)[0]
    held = state["hands"][0 if active == Y else 1][0]
    text = _refused(state, active, "play", held)
    assert "cards are played only in the Card Phase" in text and "(1.1)" in text
    assert "Action Phase" in text and "(1.2)" in text
    assert "You may " in text and text.endswith("end.")


def test_1_1_a_card_not_in_hand() -> None:
    state = keep_hands(new())
    theirs = state["hands"][1][0]
    text = _refused(state, Y, "play", theirs)
    assert "not in your hand" in text and "(1.1)" in text


def test_5_1_redeal_refused_names_the_13_ap_limit() -> None:
    state = new()
    strong = sorted(range(N_CARDS), key=lambda c: -CARD_AP[c])[:7]
    state["hands"][0] = sorted(strong)
    assert ("redeal", None) not in RULES.legal_actions(state, Y)
    text = _refused(state, Y, "redeal", None)
    assert "13 action points or less" in text and "(5.1)" in text


def test_5_2_move_from_an_area_without_a_movable_block() -> None:
    state = keep_hands(new())
    state = play(state, "AP4", "AP2")
    active = RULES.active(state)[0]
    text = _refused(state, active, "move", "Cornwall" if active == Y else "Kent")
    assert "may still move" in text or "pinned" in text or "no border" in text
    assert "5.2" in text


def test_5_4_recruit_refusals_say_why() -> None:
    state = keep_hands(new())
    state = play(state, "AP4", "AP2")
    active = RULES.active(state)[0]
    mine, theirs = ("Rivers/L", "Warwick/Y") if active == L else ("Warwick/Y", "Rivers/L")
    put(state, mine, "Kent" if active == Y else "Cornwall")
    assert "is on the map already" in _refused(state, active, "recruit", mine)
    assert "is not one of your blocks" in _refused(state, active, "recruit", theirs)


def test_6_2_a_battle_refusal_cites_the_battle_turn_order() -> None:
    from roses.games.richard3 import battle
    state = keep_hands(new())
    # every battle step's refusal text cites its rule
    for step in ("turn", "hits", "regroup", "treason"):
        state["battle"] = {"round": 1}
        state["stack"].append({"step": step, "side": 0})
        try:
            text = battle._why(state, Y, "fire")
        finally:
            state["stack"].pop()
            state["battle"] = None
        assert "(6." in text, (step, text)
