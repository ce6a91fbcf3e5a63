"""The Kingmaker bots' plan of ships (ai_sea): an heir across the sea is an objective for a
faction with a ship; its nobles embark where the ship lies, the ship sails them to a port of
the heir's land, and an empty ship fetches the nobles waiting in another port
(§Sea Transportation, L138)."""

from __future__ import annotations

from roses.engine.contract import State
from roses.engine.game import Game
from roses.games.kingmaker import RULES, ai, ai_sea
from roses.games.kingmaker.common import Z_ASSET, W, faction_nobles, ship_passengers
from tests.kingmaker.test_bots import _first_movement
from tests.kingmaker.test_bots_plan import _bot_choice, _only_heirs

#: Henry VI alone in the open on the Continent, one step from Calais (its land: Calais, Boulogne).
ABROAD = "AO37"


def _setup(ship_at: str, nobles_at: str) -> tuple[Game, int, int, list[int]]:
    """The first movement phase of a 3-player E2 game, with Henry VI the only heir (alone in the
    open at :data:`ABROAD`), every noble of the player to move standing in the open at
    ``nobles_at`` (England), Dover his (a fortified port: a ship takes nobles aboard only in a
    friendly or unfortified one) and the Ship Mary, his faction's, in port at ``ship_at``."""
    game = _first_movement()
    state = game.state
    w = W(state)
    p = state["stack"][-1]["p"]
    _only_heirs(state, {"henry_vi": -1})
    henry = w.heir_codec.id("henry_vi")
    state["hsq"][henry], state["hin"][henry] = ABROAD, None
    mine = [n for n in faction_nobles(state, p) if state["nsq"][n] is not None]
    sq = w.board.places[nobles_at].square if nobles_at in w.board.places else nobles_at
    for n in mine:
        state["nsq"][n], state["nin"][n] = sq, None
    s = next(i for i, piece in enumerate(w.ships) if piece.id == "ship_mary")
    state["cz"][w.ships[s].card], state["ch"][w.ships[s].card] = Z_ASSET, p
    state["spos"][s], state["sctl"][s] = ship_at, -1
    state["pown"]["dover"] = p
    return game, p, s, mine


def _land(state: State) -> set[str]:
    return set(W(state).board.land_distances(ABROAD))


def test_nobles_embark_where_their_ship_lies_for_an_heir_across_the_sea_l138() -> None:
    """L138 (§Sea Transportation): nobles cross the sea only aboard a ship, embarking in a
    friendly or unfortified port. Henry VI alone on the Continent is the objective of a faction
    whose nobles stand in Dover with its ship (without a ship he is none: they could not get
    there); the bot embarks its nobles, then sails the ship to a port of Henry's land (Calais or
    Boulogne, whichever it may enter), where they land; then they march on him."""
    game, p, s, mine = _setup("dover", "dover")
    state = game.state
    w = W(state)
    role = f"P{p + 1}"
    assert ai.objective(state, p) == ABROAD
    verb, arg = _bot_choice(state, role)
    assert verb == "embark" and arg[1] == "ship_mary"
    game.apply(role, verb, arg)
    # Embark until the ship is full, then sail it.
    for _ in range(len(mine)):
        verb, arg = _bot_choice(game.state, role)
        if verb != "embark":
            break
        game.apply(role, verb, arg)
    aboard = ship_passengers(game.state, s)
    assert aboard
    assert (verb, arg) == ("sail", "ship_mary")
    game.apply(role, verb, arg)
    verb, dest = _bot_choice(game.state, role)
    assert verb == "to"
    landings = ai_sea.landings(game.state, p, ABROAD, 1)
    assert dest in landings  # Dover to Calais's land is within one move of a ship (5 squares)
    game.apply(role, verb, dest)
    state = game.state
    assert all(state["nship"][n] < 0 and state["nsq"][n] in _land(state) for n in aboard)
    assert w.board.places[str(dest)].square in _land(state)


def test_without_a_ship_an_heir_across_the_sea_is_no_objective_l138() -> None:
    """L138: the same position with no ship of the faction on the board: no objective (its
    nobles cannot cross)."""
    game, p, _s, _mine = _setup("dover", "dover")
    state = game.state
    for s in ai_sea.ships_of(state, p):
        state["spos"][s] = None
    assert ai.objective(state, p) is None


def test_an_empty_ship_sails_to_the_nobles_waiting_in_a_port_l138() -> None:
    """L138: the faction's nobles wait in Dover, its empty ship lies in another port (Hull).
    The bot sails the ship, towards Dover (the nearest sea move to it), and its nobles in the
    port are not marched away from it."""
    game, p, _s, mine = _setup("hull", "dover")
    state = game.state
    w = W(state)
    b = w.board
    role = f"P{p + 1}"
    assert ai.objective(state, p) == ABROAD
    assert ai_sea.pickup_port(state, p, state["nsq"][mine[0]]) == "dover"
    choices = ai.search_choices(state, role, RULES.legal_actions(state, role))
    assert choices == [("sail", "ship_mary")]
    game.apply(role, "sail", "ship_mary")
    verb, dest = _bot_choice(game.state, role)
    assert verb == "to"
    before = min(b.port_distances(sq)["dover"] for sq in b.places["hull"].port)
    after = 0 if dest == "dover" else b.port_distances(str(dest))["dover"]
    assert after < before
    reachable = [str(a) for v, a in RULES.legal_actions(game.state, role) if v == "to"]
    best = min(0 if d == "dover" else b.port_distances(d).get("dover", 99) for d in reachable if d not in b.places
               or d == "dover")
    assert after == best
