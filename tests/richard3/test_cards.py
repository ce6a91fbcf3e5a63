"""Card Phase and mulligan (1.1, 5.1)."""

from __future__ import annotations

import pytest

from roses.engine.errors import IllegalAction
from tests.richard3.helpers import (
    RULES,
    L,
    Y,
    act,
    args,
    card,
    keep_hands,
    new,
    phase,
    play,
    set_hands,
)


@pytest.mark.parametrize(("york", "lanc", "p1"), [
    ("AP3", "AP3", Y),            # C6: tie -> Pretender (York in 1460)
    ("AP4", "Muster", L),         # C7: an event beats AP4 even at AP0
    ("Surprise", "Piracy", L),    # C8: both events -> higher AP
    ("Force March", "Treason", Y),  # C8: events tied at AP1 -> Pretender
    ("AP4", "AP2", Y),
    ("AP2", "AP3", L),
])
def test_situation1_player_one(york: str, lanc: str, p1: str) -> None:
    """Situation 1, C6, C7, C8 (1.1): Player 1 is the higher card; events first; ties to the Pretender."""
    s = keep_hands(new())
    play(s, york, lanc)
    assert s["p1"] == (0 if p1 == Y else 1)
    assert RULES.active(s) == [p1]


def test_c5_cards_secret_until_both_played() -> None:
    """C5 (1.1): the first card played stays hidden from the other player until both are in."""
    s = keep_hands(new())
    c = s["hands"][0][0]
    act(s, Y, "play", c)
    v = RULES.view(s, L)
    assert v["played"][Y] == "hidden"
    assert RULES.view(s, Y)["played"][Y]["id"] == c
    assert RULES.active(s) == [L]
    assert all(t not in str(v) for t in RULES.secrets(s, L))


@pytest.mark.parametrize("resigns", [Y, L])
def test_a_card_face_down_when_the_game_ends_stays_hidden(resigns: str) -> None:
    """1.1: cards are revealed together. A game that ends (here a resignation) while one card
    lies face down leaves it face down: the other side's and an observer's views of the end
    name no hidden card (the server would withhold such a view, and the board go blank)."""
    import json

    from roses.server import guard

    s = keep_hands(new())
    c = s["hands"][1][0]
    act(s, L, "play", c)
    s = RULES.resign(s, resigns)
    assert s["result"] == (L if resigns == Y else Y)
    for role in (Y, "Observer"):
        v = RULES.view(s, role)
        assert v["phase"] == "over"
        assert v["played"][L] == "hidden"
        text = json.dumps(v)
        assert guard.leaks(text, RULES.secrets(s, role), ("richard3", role)) == []
    assert RULES.view(s, L)["played"][L]["id"] == c
    # the end view says why the game ended, to every role
    assert {RULES.view(s, r)["result_reason"] for r in (Y, L, "Observer")} == {f"{resigns} resigned."}


def test_the_end_view_gives_the_rule_that_ended_the_game() -> None:
    """9.0: a side whose heirs are all dead loses at once; every view of the end gives that
    cause (with its section), not only who won."""
    from roses.games.richard3 import common, data

    s = keep_hands(new())
    for b in range(data.N_BLOCKS):
        if data._BL[b]["type"] == "heir" and data.BLOCK_KEY[b].endswith("/L"):
            s["loc"][b] = data.DEAD
    common.check_victory(s)
    assert s["result"] == Y
    for role in (Y, L, "Observer"):
        v = RULES.view(s, role)
        assert v["phase"] == "over"
        assert v["result_reason"] == "All heirs of Lancaster are dead: York wins (9.0)."


def test_c4_deal_seven_each_eleven_hidden() -> None:
    """C4 (8.5): 7 cards each, the other 11 undealt and hidden from both."""
    s = new()
    assert len(s["hands"][0]) == len(s["hands"][1]) == 7 and len(s["deck"]) == 11
    for role in (Y, L):
        text = str(RULES.view(s, role))
        for c in s["deck"]:
            assert f"card#{c:02d}" not in text


def _weak_hand_state() -> dict:
    s = new()
    weak = [card("AP2"), 1, 2, 3, card("Muster"), card("Plague"), card("Treason")]  # 2+2+2+2+0+0+1 = 9
    strong = [13, 14, 15, 16, 17, 18, 6]
    set_hands(s, weak, strong)
    return s


def test_situation1_mulligan_once_per_campaign() -> None:
    """C53 (5.1): a 9-AP hand may ask for a redeal once per campaign; a 14+ AP hand may not."""
    s = _weak_hand_state()
    assert ("redeal", None) in RULES.legal_actions(s, Y)
    assert RULES.legal_actions(s, L) == [("keep", None)]
    act(s, L, "keep")
    before = s["reveals"]
    act(s, Y, "redeal")
    assert s["reveals"] == before + 1  # the hand is shown
    assert any("mulligan hand" in line for line in RULES.view(s, L)["log"])
    assert RULES.active(s) == [L]  # the opponent chooses keep or redeal
    lanc_hand = list(s["hands"][1])
    act(s, L, "keep")
    assert s["hands"][1] == lanc_hand and len(s["hands"][0]) == 7
    assert s["mulligan_used"][0] == 1
    if phase(s) == "mulligan":  # Lancaster had not used his: asked again, York may only keep
        assert RULES.legal_actions(s, Y) == [("keep", None)]


def test_mulligan_opponent_may_redeal_too() -> None:
    """C53: the opponent of the requester may also take a new hand; all available cards reshuffled."""
    s = _weak_hand_state()
    act(s, Y, "redeal")
    act(s, L, "keep")
    act(s, L, "redeal")
    assert len(s["hands"][0]) == 7 and len(s["hands"][1]) == 7
    assert sorted(s["hands"][0] + s["hands"][1] + s["deck"]) == list(range(25))


def test_c9_card_compulsory_but_no_action_needed() -> None:
    """C9: a card must be played, but its player may end the Action Phase at once."""
    s = keep_hands(new())
    assert all(v == "play" for v, _ in RULES.legal_actions(s, Y))
    play(s, "AP4", "AP2")
    act(s, Y, "end")
    assert RULES.active(s) == [L]


def test_card_not_in_hand_refused() -> None:
    s = keep_hands(new())
    other = s["hands"][1][0]
    with pytest.raises(IllegalAction):
        act(s, Y, "play", other)
    assert args(s, Y, "play") == s["hands"][0]
