"""The Kingmaker bots at Parliament (ai._attendance): a bot sends its nobles to vote down
another's King as the one and only King only when that King's controller could carry the
motion on the Commons alone (§Victory Conditions, ruling K31: half the total Commons votes
plus one, and more Lords votes for than against); otherwise its nobles keep to their plan."""

from __future__ import annotations

from roses.engine.contract import Action
from roses.games.kingmaker import RULES, ai
from roses.games.kingmaker import cards as K
from roses.games.kingmaker.common import E_HAND, Z_AWARD, W
from roses.games.kingmaker.parliament import open_session, tally
from roses.games.kingmaker.play import event_deck
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


def test_the_kings_controller_summons_one_noble_with_the_fewest_lords_votes_then_opens_k31() -> None:
    """§Calling Parliament and ruling K31: a Writ summons another player's noble, who then
    votes in the Lords, where the motion of victory needs more votes for than against. The
    bot controlling the sole King, having summoned Parliament to London with Writs in hand,
    summons one noble with the fewest Lords votes, then opens the session (it summons no more)."""
    game = _first_movement()
    state = game.state
    w = W(state)
    b = w.board
    p = state["stack"][-1]["p"]
    role = f"P{p + 1}"
    _free_heirs(state)
    henry = w.heir_codec.id("henry_vi")
    n = _noble_of(state, p)
    state["hcrown"][henry], state["hesc"][henry] = True, n
    state["nsq"][n], state["nin"][n] = b.places["london"].square, "london"
    writ = [e for e, c in enumerate(event_deck(state).cards) if c.kind == "writ"]
    for e in writ:
        state["ez"][e], state["eh"][e] = E_HAND, p
    open_session(state, p, "london", writs_needed=True)
    legal = RULES.legal_actions(state, role)
    summons = [a for a in legal if a[0] == "writ"]
    assert len(summons) >= 2 and ("open", None) not in legal
    bishops: dict[int, int] = {}
    for c, card in enumerate(w.cards):
        if card.kind == K.BISHOP and state["cz"][c] == Z_AWARD:
            bishops[state["ch"][c]] = bishops.get(state["ch"][c], 0) + card.lords
    lords = {str(a[1]): w.cards[w.cid(str(a[1]))].lords + bishops.get(w.cid(str(a[1])), 0) for a in summons}
    assert len(set(lords.values())) > 1
    chosen = ai.search_choices(state, role, legal)
    assert len(chosen) == 1 and chosen[0][0] == "writ"
    assert lords[str(chosen[0][1])] == min(lords.values())
    game.apply(role, *chosen[0])
    legal = RULES.legal_actions(game.state, role)
    assert any(a[0] == "writ" for a in legal)  # Writs left, but one summoned is enough
    state = game.state
    assert ("open", None) in legal
    assert ai.search_choices(state, role, legal) == [("open", None)]
