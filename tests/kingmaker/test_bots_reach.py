"""The Kingmaker bots' reach on foot (evaluation.walk_distances): the Menai crossing (§Refuges:
"Crossing from the mainland to Anglesey (Beaumaris) is permitted if the Noble(s) start in the
square adjacent to Anglesey", queries.land_moves) puts Beaumaris within a walk of Wales, so an
heir there is a plan for a faction with no ship able to carry a besieging force to the island."""

from __future__ import annotations

from roses.engine.game import Game
from roses.games.kingmaker import RULES, ai, ai_sea, evaluation
from roses.games.kingmaker.common import W, faction_nobles, noble_strength
from roses.games.kingmaker.queries import siege_defence
from tests.kingmaker.test_bots import _first_movement
from tests.kingmaker.test_bots_plan import _bot_choice, _only_heirs


def _edmund_in_beaumaris() -> tuple[Game, int]:
    """The first movement of a 3-player E2 game: Edmund of Rutland the only heir alive, held by
    no one inside Beaumaris (garrison 200, on Anglesey); the player to move has his nobles and
    Courtenay's (370 troops) in the open of the Caernarvon square, across the Menai Strait,
    and no ship that could carry 200 troops."""
    game = _first_movement()
    state = game.state
    w = W(state)
    b = w.board
    p = state["stack"][-1]["p"]
    _only_heirs(state, {"edmund_of_rutland": -1})
    edmund = w.heir_codec.id("edmund_of_rutland")
    state["hsq"][edmund], state["hin"][edmund] = b.places["beaumaris"].square, "beaumaris"
    courtenay = w.cid("courtenay")
    state["ch"][courtenay] = p
    for n in faction_nobles(state, p):
        state["nsq"][n], state["nin"][n] = b.places["caernarvon"].square, None
    return game, p


def test_an_heir_in_beaumaris_is_the_plan_of_a_force_in_wales_across_the_menai_crossing() -> None:
    """§Refuges (the Menai crossing) and §Siege (L222): the faction's 370 troops in the
    Caernarvon square match Beaumaris's garrison of 200; with no ship able to land them
    there, the heir inside is still its plan, reached on foot, and the bot's noble crosses
    to Anglesey (the square of Beaumaris) at once."""
    game, p = _edmund_in_beaumaris()
    state = game.state
    w = W(state)
    b = w.board
    role = f"P{p + 1}"
    beaumaris = b.places["beaumaris"].square
    assert sum(noble_strength(state, n) for n in faction_nobles(state, p)) >= siege_defence(state, "beaumaris", p)
    assert all(w.ships[s].capacity < 200 for s in ai_sea.ships_of(state, p))  # none may carry a besieging force
    assert beaumaris not in b.land_distances(b.places["caernarvon"].square)
    assert evaluation.walk_distances(state, b.places["caernarvon"].square)[beaumaris] == 1
    assert ai.plan(state, p) == (beaumaris, "beaumaris")
    verb, arg = _bot_choice(state, role)
    assert verb == "select"
    game.apply(role, verb, arg)
    assert ("to", beaumaris) in RULES.legal_actions(game.state, role)  # the crossing, at the start of a move
    verb, arg = _bot_choice(game.state, role)
    assert (verb, b.places[str(arg)].square if str(arg) in b.places else str(arg)) == ("to", beaumaris)


def _king_in_plymouth() -> tuple[Game, int]:
    """The first movement of a 3-player E2 game: two Kings crowned, Henry VI escorted by
    FitzAlan of the player to move, Richard of York by Courtenay (210 troops, far beyond the
    mover's 160); Richard of Gloucester alone in the open on the Continent by Calais. The
    mover's three nobles stand in Plymouth, his own port, where his ship (the Grace) lies."""
    game = _first_movement()
    state = game.state
    w = W(state)
    b = w.board
    p = state["stack"][-1]["p"]
    fitzalan, courtenay = w.cid("fitzalan"), w.cid("courtenay")
    assert state["ch"][fitzalan] == p and state["ch"][courtenay] != p
    _only_heirs(state, {"henry_vi": fitzalan, "richard_of_york": courtenay, "richard_of_gloucester": -1})
    for h in ("henry_vi", "richard_of_york"):
        state["hcrown"][w.heir_codec.id(h)] = True
    gloucester = w.heir_codec.id("richard_of_gloucester")
    state["hsq"][gloucester], state["hin"][gloucester] = "AM37", None
    plymouth = b.places["plymouth"].square
    state["pown"]["plymouth"] = p
    for n in faction_nobles(state, p):
        state["nsq"][n], state["nin"][n] = plymouth, None
    grace = w.ship_codec.id("ship_grace")
    assert state["spos"][grace] == "plymouth" and grace in ai_sea.ships_of(state, p)
    return game, p


def test_a_kings_escort_stays_at_home_when_the_force_takes_ship_for_the_continent() -> None:
    """§Sea Transportation and §Calling Parliament (Parliament meets in a town or city, not in
    Calais or Dublin): the mover's plan is Gloucester on the Continent, reached by ship from
    Plymouth. His nobles embark for it, but not FitzAlan, who escorts his crowned King: a King
    carried abroad stays there once no ship of his is left to bring him back. The other
    nobles' embarking is what the bot's movement offers, and FitzAlan's is not among it."""
    game, p = _king_in_plymouth()
    state = game.state
    w = W(state)
    role = f"P{p + 1}"
    assert ai.plan(state, p) == ("AM37", None)
    legal = RULES.legal_actions(state, role)
    embark = {a[1][0] for a in legal if a[0] == "embark"}
    assert "fitzalan" in embark and len(embark) >= 2
    assert ai_sea.stays_home(state, w.cid("fitzalan"), "AM37")
    assert not ai_sea.stays_home(state, w.cid("fitzalan"), W(state).board.places["london"].square)
    chosen = ai.search_choices(state, role, legal)
    assert chosen and all(a[0] == "embark" for a in chosen)
    assert {a[1][0] for a in chosen} == embark - {"fitzalan"}
