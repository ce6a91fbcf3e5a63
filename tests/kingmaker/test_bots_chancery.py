"""The Kingmaker bots and Chancery (§Calling Parliament, §Distributing Cards): a faction holding
the senior heir of an uncrowned house with no archbishop or two bishops among its nobles (L394)
can get bishops only from Chancery, which a Parliament hands out. With no sole King, the
Chancellor's player holding a Parliament card and a Writ may summon one to a town or city where
his Chancellor stands, and the summoner proposes first for every Chancery card (alone for a
bishop): the bot takes its Chancellor there, summons, and names its own nobles."""

from __future__ import annotations

from roses.engine.game import Game
from roses.games.kingmaker import RULES, ai
from roses.games.kingmaker import cards as K
from roses.games.kingmaker.common import E_HAND, Z_AWARD, Z_CHANC, W, faction_nobles, noble_strength
from roses.games.kingmaker.play import event_deck
from tests.kingmaker.test_bots import _first_movement
from tests.kingmaker.test_bots_plan import _only_heirs


def _chancellor_with_york() -> tuple[Game, int, int]:
    """The first movement of a 3-player E2 game: no King crowned; the player to move holds
    Richard of York (the senior heir of York) escorted by his strongest noble, who is
    Chancellor; no bishop is among his nobles; Henry VI is another player's. His nobles stand
    together in the open two land steps from St Asaph (a town where Parliament may meet,
    held by no one); he holds a Parliament card, and a Writ."""
    game = _first_movement()
    state = game.state
    w, p = W(state), state["stack"][-1]["p"]
    b, other = w.board, (p + 1) % 3
    mine = faction_nobles(state, p)
    escort = max(mine, key=lambda n: (noble_strength(state, n), -n))
    _only_heirs(state, {"richard_of_york": escort, "henry_vi": faction_nobles(state, other)[0]})
    for c, card in enumerate(w.cards):
        if card.kind == K.BISHOP and state["cz"][c] == Z_AWARD and state["ch"][c] in mine:
            state["cz"][c], state["ch"][c] = Z_CHANC, -1
    state["cz"][w.chancellor], state["ch"][w.chancellor] = Z_AWARD, escort
    town = b.places["st_asaph"].square
    start = next(s for s, d in sorted(b.land_distances(town).items()) if d == 2 and not b.places_at.get(s))
    for n in mine:
        state["nsq"][n], state["nin"][n] = start, None
    state["pown"]["st_asaph"] = -1
    deck = event_deck(state)
    for kind in ("parliament", "writ"):
        e = next(e for e, card in enumerate(deck.cards) if card.kind == kind)
        state["ez"][e], state["eh"][e] = E_HAND, p
    return game, p, escort


def test_the_chancellor_with_an_heir_to_crown_and_no_bishops_goes_where_parliament_may_meet_l394() -> None:
    """L394 (a coronation needs an archbishop or two bishops), §Calling Parliament and
    §Distributing Cards: the plan of the faction is a town or city where Parliament may meet,
    nearest to its Chancellor (St Asaph, unfortified: in the open of its square); without a
    Parliament card it may not summon, and the plan is something else."""
    game, p, _escort = _chancellor_with_york()
    state = game.state
    b = W(state).board
    got = ai.plan(state, p)
    assert got is not None and b.places["st_asaph"].square == got[0]
    assert b.places["st_asaph"].parliament and not b.places["st_asaph"].fortified and got[1] is None
    deck = event_deck(state)
    for e, card in enumerate(deck.cards):
        if card.kind == "parliament" and state["ez"][e] == E_HAND and state["eh"][e] == p:
            state["ez"][e] = 0
    assert ai.plan(state, p) != got


def test_the_summoner_proposes_his_own_strongest_noble_for_a_chancery_bishop() -> None:
    """§Distributing Cards: the summoner proposes first for a Chancery card. Asked to propose a
    recipient for a bishop, the bot names its own strongest noble, not another player's nor
    a pass (the bishop then goes to a vote of the Lords)."""
    game, p, escort = _chancellor_with_york()
    state = game.state
    w = W(state)
    role = f"P{p + 1}"
    bishop = next(c for c, card in enumerate(w.cards) if card.kind == K.BISHOP and state["cz"][c] == Z_CHANC)
    state["stack"].append({"step": "propose", "p": p, "card": bishop})
    legal = RULES.legal_actions(state, role)
    names = {str(a[1]) for a in legal if a[0] == "propose"}
    assert any(state["ch"][w.cid(x)] != p for x in names)  # other players' nobles may be named too
    strongest = max((n for n in faction_nobles(state, p) if w.cards[n].id in names),
                    key=lambda n: (noble_strength(state, n), -n))
    assert ai.search_choices(state, role, legal) == [("propose", w.cards[strongest].id)]
    assert strongest == escort
