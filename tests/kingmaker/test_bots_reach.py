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

