"""The Kingmaker bots' King in Calais: the sole King, escorted by a noble too strong for every
ship of his faction (§Sea Transportation: the troop strength of the nobles aboard never exceeds
the ship's capacity), is handed to a noble beside him a ship can carry
(§Royal Heir Counters), or his escort gives his mercenary cards to a noble beside him (§Transfers) until a
ship can carry him; then the escort embarks with the King towards the mainland, where
Parliament may meet (§Calling Parliament: not in Calais)."""

from __future__ import annotations

from roses.engine.contract import State
from roses.engine.game import Game
from roses.games.kingmaker import RULES, ai
from roses.games.kingmaker.common import Z_AWARD, Z_DECK, W, heir_loc, noble_strength
from roses.games.kingmaker.queries import parliament_places
from tests.kingmaker.test_bots import _noble_of
from tests.kingmaker.test_bots_king import _towns_to
from tests.kingmaker.test_bots_landing import _majority, _writs
from tests.kingmaker.test_bots_sea import _setup


def _award(state: State, card: str, noble: str) -> None:
    w = W(state)
    c = w.cid(card)
    state["cz"][c], state["ch"][c] = Z_AWARD, w.cid(noble)


def _king_in_calais(escort: str, beside: list[str]) -> tuple[Game, int, str]:
    """A 3-player E2 game's first movement phase: Henry VI crowned, the sole King, inside
    Calais (the faction's) escorted by ``escort``, with ``beside`` inside Calais too and the
    faction's other nobles in Dover; the Ship Mary (capacity 100), the faction's only ship, in Calais;
    Richard of York alive, held by another player; his controller with half the Commons votes
    plus one and a Writ (his plan: a place on the mainland where Parliament may meet)."""
    game, p, _, mine = _setup("calais", "dover")
    state = game.state
    w = W(state)
    state["pown"]["calais"] = p
    grace = w.ship_codec.id("ship_grace")  # Fitzalan's (150): out of play, the Ship Mary the faction's only ship
    state["spos"][grace] = None
    state["cz"][w.ships[grace].card], state["ch"][w.ships[grace].card] = Z_DECK, -1
    for n in [w.cid(escort), *(w.cid(x) for x in beside)]:
        assert n in mine
        state["nsq"][n], state["nin"][n] = w.board.places["calais"].square, "calais"
    henry = w.heir_codec.id("henry_vi")
    state["hcrown"][henry], state["hesc"][henry] = True, w.cid(escort)
    york = w.heir_codec.id("richard_of_york")
    state["hdead"][york], state["hesc"][york] = False, _noble_of(state, (p + 1) % 3)
    _towns_to(state, p)
    _writs(state, p, 1)
    assert _majority(state, p)
    return game, p, f"P{p + 1}"


def _choices(game: Game, role: str) -> list[tuple[str, object]]:
    return [(v, a) for v, a in ai.search_choices(game.state, role, RULES.legal_actions(game.state, role))]


def test_the_king_in_calais_is_handed_to_a_noble_a_ship_can_carry_sea_transportation() -> None:
    """§Sea Transportation: the Ship Mary (100) cannot carry Fitzalan (130 with the Burgundians),
    who escorts Henry VI, the sole King, in Calais, where Parliament may not meet (§Calling
    Parliament); Hastings (30) stands beside him. The bot hands the King to Hastings, then
    Hastings boards the ship with him (the King was left in Calais: the ship could take no one
    who held him)."""
    game, p, role = _king_in_calais("fitzalan", ["hastings"])
    state = game.state
    w = W(state)
    _award(state, "burgundians_1", "fitzalan")
    assert noble_strength(state, w.cid("fitzalan")) == 130 > w.ships[w.ship_codec.id("ship_mary")].capacity
    assert noble_strength(state, w.cid("hastings")) == 30
    seat = ai.plan(state, p)
    assert seat is not None and not parliament_places(state, "AN36", "calais")
    assert _choices(game, role) == [("escort", ["henry_vi", "hastings"])]
    game.apply(role, "escort", ["henry_vi", "hastings"])
    assert _choices(game, role) == [("embark", ["hastings", "ship_mary"])]
    game.apply(role, "embark", ["hastings", "ship_mary"])
    henry = w.heir_codec.id("henry_vi")
    assert heir_loc(game.state, henry)[2] == w.ship_codec.id("ship_mary")


def test_the_escort_gives_his_mercenaries_to_a_noble_beside_him_to_fit_the_ship_transfers() -> None:
    """§Transfers: mercenary cards of a noble may be given to another noble in the same square;
    §Sea Transportation: a ship carries nobles only up to its capacity. Fitzalan (130: his 100
    and the Burgundians' 30) escorts Henry VI, the sole King, in Calais; Hastings beside him has
    130 too (the Scottish Foot and the Irish Kerns), so neither fits the Ship Mary (100). The bot
    opens its dealings, gives the Burgundians to Hastings (the dealing ends with it), and Fitzalan (100) boards the ship
    with the King."""
    game, _, role = _king_in_calais("fitzalan", ["hastings"])
    state = game.state
    w = W(state)
    _award(state, "burgundians_1", "fitzalan")
    _award(state, "scottish_foot", "hastings")
    _award(state, "irish_kerns", "hastings")
    assert noble_strength(state, w.cid("fitzalan")) == 130
    assert noble_strength(state, w.cid("hastings")) == 130
    assert _choices(game, role) == [("deal", None)]
    game.apply(role, "deal", None)
    assert _choices(game, role) == [("transfer", ["burgundians_1", "hastings"])]
    game.apply(role, "transfer", ["burgundians_1", "hastings"])
    assert noble_strength(game.state, w.cid("fitzalan")) == 100
    assert _choices(game, role) == [("embark", ["fitzalan", "ship_mary"])]
    game.apply(role, "embark", ["fitzalan", "ship_mary"])
    henry = w.heir_codec.id("henry_vi")
    assert heir_loc(game.state, henry)[2] == w.ship_codec.id("ship_mary")


def _king_alone_in_calais() -> tuple[Game, int, str]:
    """:func:`_king_in_calais` with Fitzalan (130 with the Burgundians) alone beside Henry VI:
    no noble in Calais fits the Ship Mary (100), and Fitzalan has no mercenary card to give to
    anyone there (§Transfers: only to a noble in the same square). The faction's other nobles
    stand in Dover, its own port."""
    game, p, role = _king_in_calais("fitzalan", [])
    _award(game.state, "burgundians_1", "fitzalan")
    return game, p, role


def test_with_no_noble_beside_the_king_a_ship_fits_one_is_fetched_to_him_sea_transportation() -> None:
    """§Sea Transportation (a ship carries nobles only up to its capacity, and takes them aboard
    only in a friendly or unfortified port), §Royal Heir Counters (the King is handed to a noble
    beside him): Henry VI, the sole King, stands in Calais with Fitzalan (130), whom the Ship
    Mary (100) cannot carry, and no one else. The bot fetches the strongest noble of Dover the
    ship can carry: the empty ship sails from Calais to Dover, he boards it there, the ship sails
    back to Calais, where he lands, and the King is handed to him; then he boards the ship with
    the King."""
    game, p, role = _king_alone_in_calais()
    state = game.state
    w = W(state)
    mary = w.ship_codec.id("ship_mary")
    dover = [n for n in w.nobles if state["ch"][n] == p and state["nsq"][n] == w.board.places["dover"].square]
    fit = [n for n in dover if 0 < noble_strength(state, n) <= 100]
    assert fit and noble_strength(state, w.cid("fitzalan")) == 130
    bearer = min(fit, key=lambda n: (-noble_strength(state, n), w.cards[n].id))
    bid = w.cards[bearer].id
    # the empty ship sails for Dover (the nearest port where the bearer may board it)
    assert _choices(game, role) == [("sail", "ship_mary")]
    game.apply(role, "sail", "ship_mary")
    assert [a for a in _choices(game, role) if a[0] == "to"] == [("to", "dover")]
    # the ship in Dover: the bearer boards it
    game, p, role = _king_alone_in_calais()
    state = game.state
    state["spos"][mary] = "dover"
    assert _choices(game, role) == [("embark", [bid, "ship_mary"])]
    game.apply(role, "embark", [bid, "ship_mary"])
    # aboard: the ship sails for a port of the King's land (Calais, the faction's)
    assert _choices(game, role) == [("sail", "ship_mary")]
    game.apply(role, "sail", "ship_mary")
    assert [a for a in _choices(game, role) if a[0] == "to"] == [("to", "calais")]
    game.apply(role, "to", "calais")
    state = game.state
    assert state["nsq"][bearer] == "AN36" and state["nship"][bearer] < 0
    # ashore in Calais, beside Fitzalan: Fitzalan's Burgundians go to him (§Transfers) or the
    # King is handed to him, until the King's escort fits the ship, which lies in Calais (it
    # has moved this phase: he boards it in the next)
    henry = w.heir_codec.id("henry_vi")
    taken = []
    while noble_strength(game.state, game.state["hesc"][henry]) > 100 and len(taken) < 6:
        choice = _choices(game, role)
        assert len(choice) == 1, choice
        taken.append(choice[0])
        game.apply(role, *choice[0])
    assert taken in ([("escort", ["henry_vi", bid])], [("deal", None), ("transfer", ["burgundians_1", bid])]), taken
    assert noble_strength(game.state, game.state["hesc"][henry]) <= 100 and game.state["spos"][mary] == "calais"


def test_the_kings_escort_who_fits_no_ship_and_none_to_fetch_leaves_the_bot_to_its_plan() -> None:
    """With no noble of the faction a ship could carry anywhere (each made stronger than the Ship
    Mary's 100), nothing is fetched: the bot goes on with its usual moves."""
    game, p, role = _king_alone_in_calais()
    state = game.state
    w = W(state)
    for n in w.nobles:
        if state["ch"][n] == p and n != w.cid("fitzalan"):
            state["nsq"][n], state["nin"][n] = None, None
            state["cz"][n], state["ch"][n] = Z_DECK, -1
    aim = ai.objective(state, p)
    assert aim is not None and ai.ai_ferry.stranded_heir(state, p, aim) is not None
    assert ai.ai_ferry.fetch_plan(state, p, aim) is None
    assert ai.ai_ferry.ferry_moves(state, p, aim, RULES.legal_actions(state, role)) == []


def test_an_heir_not_crowned_held_in_calais_is_ferried_to_the_plan_too_sea_transportation() -> None:
    """§Sea Transportation, §Royal Heir Counters: an heir the faction holds off the mainland
    (Calais) goes with its force across the sea as a King does: Henry VI, not crowned, escorted in
    Calais by Fitzalan (130), whom the Ship Mary (100) cannot carry, is handed to Hastings (30)
    beside him, who then boards the ship with him."""
    game, p, role = _king_in_calais("fitzalan", ["hastings"])
    state = game.state
    w = W(state)
    henry = w.heir_codec.id("henry_vi")
    state["hcrown"][henry] = False
    _award(state, "burgundians_1", "fitzalan")
    aim = ai.objective(state, p)
    assert aim is not None and aim not in ai.E.walk_distances(state, "AN36")
    assert _choices(game, role) == [("escort", ["henry_vi", "hastings"])]
    game.apply(role, "escort", ["henry_vi", "hastings"])
    assert _choices(game, role) == [("embark", ["hastings", "ship_mary"])]
