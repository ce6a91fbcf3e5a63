"""The Kingmaker bots at Parliament (ai._attendance): a bot sends its nobles to vote down
another's King as the one and only King only when that King's controller could carry the
motion on the Commons alone (§Victory Conditions, ruling K31: half the total Commons votes
plus one, and more Lords votes for than against); otherwise its nobles keep to their plan."""

from __future__ import annotations

from roses.engine.contract import Action
from roses.games.kingmaker import ai
from roses.games.kingmaker.common import W
from roses.games.kingmaker.parliament import tally
from tests.kingmaker.test_bots import _first_movement, _free_heirs, _noble_of

CHOICES: list[Action] = [("attend", "x"), ("done", None)]


def test_a_bot_votes_down_another_king_only_when_his_commons_could_carry_the_motion_k31() -> None:
    """Ruling K31: with Henry VI crowned, the sole King, held by one player: another player's
    bot is done with attendance while the holder's Commons votes fall short of half the total
    plus one (the towns and cities are the others': the motion fails without it), and attends once every town and city is the
    holder's (then only the Lords can stop it). The holder's own bot attends in both cases."""
    state = _first_movement().state
    w = W(state)
    b = w.board
    q = state["stack"][-1]["p"]
    other_p = (q + 1) % 3
    other = f"P{other_p + 1}"
    _free_heirs(state)
    henry = w.heir_codec.id("henry_vi")
    n = _noble_of(state, q)
    state["hcrown"][henry], state["hesc"][henry] = True, n
    for pl in sorted(b.places):  # the towns and cities are the other players'
        if b.places[pl].commons is not None:
            state["pown"][pl] = other_p
    votes = tally(state, {"sq": None})
    assert votes[q][0] < sum(c for c, _ in votes) // 2 + 1
    assert not ai.commons_majority(state, q)
    assert ai._attendance(state, other, CHOICES) == [("done", None)]
    assert ai._attendance(state, f"P{q + 1}", CHOICES) == [("attend", "x")]
    for pl in sorted(b.places):  # a Commons majority: the towns and cities are his
        if b.places[pl].commons is not None:
            state["pown"][pl] = q
    assert ai.commons_majority(state, q)
    assert ai._attendance(state, other, CHOICES) == [("attend", "x")]
    assert ai._attendance(state, f"P{q + 1}", CHOICES) == [("attend", "x")]
