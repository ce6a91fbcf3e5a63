"""The Kingmaker bots' plans around a crowned King (ai.plan): the sole King's controller with
half the Commons votes plus one takes his King where Parliament may meet, his force with him
(§Victory Conditions, §Calling Parliament, ruling K31), and goes inside when it is his own
fortified town or city; a crowned King held by another is worth a double effort to take
(his capture opens the Parliament route, or makes one's own King the sole King)."""

from __future__ import annotations

from roses.engine.contract import State
from roses.engine.game import Game
from roses.games.kingmaker import RULES, ai, evaluation
from roses.games.kingmaker.common import E_DECK, E_DISC, E_HAND, W, faction_nobles
from roses.games.kingmaker.parliament import tally
from roses.games.kingmaker.play import event_deck
from roses.games.kingmaker.queries import parliament_places, writs
from tests.kingmaker.test_bots import _first_movement, _free_heirs, _noble_of
from tests.kingmaker.test_bots_plan import _only_heirs


def _kings_force() -> tuple[Game, int, int]:
    """The first movement of a 3-player E2 game: Henry VI crowned, the sole King, escorted by a
    noble of the player to move, who holds a Writ of Summons; every other heir dead but
    Richard of York, held by no one where he starts."""
    game = _first_movement()
    state = game.state
    w = W(state)
    p = state["stack"][-1]["p"]
    escort = _noble_of(state, p)
    _free_heirs(state)
    _only_heirs(state, {"henry_vi": escort, "richard_of_york": -1})
    state["hcrown"][w.heir_codec.id("henry_vi")] = True
    _writs_to(state, p, 1)
    return game, p, escort


def _writs_to(state: State, p: int, count: int) -> None:
    """``p`` holds exactly ``count`` Writs of Summons: those in his hand go to the Event discard,
    then ``count`` are taken from the Event deck into it."""
    deck = event_deck(state)
    for e in writs(state, p):
        state["ez"][e], state["eh"][e] = E_DISC, -1
        state["edisc"].append(e)
    for e, card in enumerate(deck.cards):
        if card.kind == "writ" and state["ez"][e] == E_DECK and count > 0:
            state["ez"][e], state["eh"][e] = E_HAND, p
            state["edeck"].remove(e)
            count -= 1
    assert count == 0 and len(writs(state, p)) == len(set(writs(state, p)))


def _gather(state: State, p: int, sq: str) -> None:
    """Every noble of ``p`` on the board in the open on ``sq``."""
    for n in faction_nobles(state, p):
        if state["nsq"][n] is not None:
            state["nsq"][n], state["nin"][n] = sq, None


def _towns_to(state: State, owner: int) -> None:
    b = W(state).board
    for pl in sorted(b.places):
        if b.places[pl].commons is not None:
            state["pown"][pl] = owner


def _majority(state: State, p: int) -> bool:
    votes = tally(state, {"sq": None})
    return votes[p][0] >= sum(c for c, _ in votes) // 2 + 1


def _open_square_without_parliament(state: State, near: str, steps: int) -> str:
    b = W(state).board
    dist = b.land_distances(b.places[near].square)
    return next(s for s in sorted(dist) if dist[s] == steps and s in b.squares
                and not any(b.places[pl].parliament for pl in b.places_at.get(s, ())))


def test_the_sole_kings_controller_with_a_commons_majority_takes_him_where_parliament_may_meet_k31() -> None:
    """§Victory Conditions and ruling K31: the controller of the sole King wins at a Parliament
    with half the Commons votes plus one (and more Lords votes for than against); §Calling
    Parliament: the King must stand in a town or city (not a castle), inside it when it is
    fortified. With every town and city his (a Commons majority) and his King in the open two
    steps from York (his own), his plan is York, entered; with the towns another's (no majority)
    it is not, and once the King stands where Parliament may meet, that is the plan."""
    game, p, escort = _kings_force()
    state = game.state
    b = W(state).board
    sq = _open_square_without_parliament(state, "york", 2)
    _gather(state, p, sq)
    _towns_to(state, p)
    assert _majority(state, p)
    seat = ai.parliament_seat(state, p, 10_000)
    dist = b.land_distances(sq)
    assert seat is not None and seat[1] is not None and b.places[seat[1]].parliament
    assert dist[seat[0]] <= 2  # York (or a nearer town or city of his): no farther than York
    assert ai.plan(state, p) == seat
    other = (p + 1) % 3
    _towns_to(state, other)
    assert not _majority(state, p)
    assert ai.plan(state, p) != seat
    # The King where Parliament may meet: he stays, and his force gathers there.
    _towns_to(state, p)
    state["nsq"][escort], state["nin"][escort] = b.places["york"].square, "york"
    assert parliament_places(state, b.places["york"].square, "york") == ["york"]
    assert ai.plan(state, p) == (b.places["york"].square, "york")


def test_the_kings_force_goes_into_his_own_fortified_town_where_parliament_may_meet_k31() -> None:
    """§Calling Parliament: Parliament meets inside a fortified town or city. The sole King's
    controller, with a Commons majority, his King and his force in the open before York, his
    own city: the bot's only moves are to go in (the King with his escort)."""
    game, p, escort = _kings_force()
    state = game.state
    b = W(state).board
    york = b.places["york"].square
    _gather(state, p, york)
    _towns_to(state, p)
    assert ai.plan(state, p) == (york, "york")
    role = f"P{p + 1}"
    legal = RULES.legal_actions(state, role)
    assert any(a[0] == "end" for a in legal)
    chosen = ai.search_choices(state, role, legal)
    assert chosen and all(a[0] == "enter" and a[1][1] == "york" for a in chosen)
    assert any(W(state).cid(str(a[1][0])) == escort for a in chosen)


def test_a_crowned_king_is_worth_a_double_effort_to_take_l404() -> None:
    """§Victory Conditions (L404): a crowned King under one's control opens the Parliament
    route. Henry VI (crowned) and Richard of York (uncrowned), both the senior heirs of their
    houses, both held by no one in the open: the faction, none of whose heirs is crowned, plans
    on Henry VI though York is nearer (four steps against six); with Henry uncrowned, on York."""
    game, p, _escort = _kings_force()
    state = game.state
    w = W(state)
    b = w.board
    henry, york = w.heir_codec.id("henry_vi"), w.heir_codec.id("richard_of_york")
    start = _open_square_without_parliament(state, "coventry", 3)
    dist = b.land_distances(start)
    empty = [s for s in sorted(dist) if s in b.squares and not b.places_at.get(s)]
    near = next(s for s in empty if dist[s] == 4)
    far = next(s for s in empty if dist[s] == 6)
    _gather(state, p, start)
    state["hesc"][henry] = -1
    state["hsq"][henry], state["hin"][henry] = far, None
    state["hsq"][york], state["hin"][york], state["hdead"][york] = near, None, False
    travel_far = evaluation._travel(state, far)[start]
    travel_near = evaluation._travel(state, near)[start]
    assert travel_near < travel_far
    assert ai.plan(state, p) == (far, None)
    state["hcrown"][henry] = False
    assert ai.plan(state, p) == (near, None)


def test_a_king_in_dublin_is_taken_by_sea_to_where_parliament_may_meet_k31() -> None:
    """§Calling Parliament: Parliament meets in a town or city excluding Calais and Dublin, and
    nobles cross the sea only by ship (§Sea Transportation). The sole King's controller with a
    Commons majority, his King and force inside Dublin (his own): no place in Ireland will do,
    so his plan is a town or city across the sea (the ships of ai_sea carry them), not none."""
    game, p, escort = _kings_force()
    state = game.state
    b = W(state).board
    dublin = b.places["dublin"].square
    _gather(state, p, dublin)
    state["pown"]["dublin"] = p
    state["nin"][escort] = "dublin"
    _towns_to(state, p)
    assert _majority(state, p)
    assert parliament_places(state, dublin, "dublin") == []
    seat = ai.parliament_seat(state, p, 10_000)
    assert seat is not None
    square, place = seat
    assert square not in b.land_distances(dublin)  # across the sea
    assert any(b.places[pl].parliament for pl in b.places_at.get(square, ()))
    assert place is None or b.places[place].parliament
    assert ai.plan(state, p) == seat


def test_the_sole_kings_controller_short_of_a_commons_majority_besieges_towns_and_cities_k31() -> None:
    """§Victory Conditions and ruling K31: the Parliament route needs half the Commons votes
    plus one; §Who Votes: each controlled city gives 4, each town 3; §Siege takes a place. The
    sole King's controller, his King and force inside York (his own, where Parliament may meet),
    every other town and city another faction's (no majority), the only other heir in
    Beaumaris (out of reach): he does not sit in York waiting for a majority that cannot come,
    his plan is the town or city of the other faction nearest his force, and there his nobles
    besiege it; once his towns give him the majority, the plan is York again."""
    game, p, escort = _kings_force()
    state = game.state
    w = W(state)
    b = w.board
    york = b.places["york"].square
    _gather(state, p, york)
    other = (p + 1) % 3
    _towns_to(state, other)
    state["pown"]["york"] = p
    for n in faction_nobles(state, p):
        if state["nsq"][n] is not None:
            state["nin"][n] = "york"
    for n in faction_nobles(state, other) + faction_nobles(state, (p + 2) % 3):
        state["nsq"][n], state["nin"][n] = None, None
    rich = w.heir_codec.id("richard_of_york")
    state["hsq"][rich], state["hin"][rich] = b.places["beaumaris"].square, "beaumaris"
    assert not _majority(state, p)
    assert parliament_places(state, york, "york") == ["york"]
    got = ai.plan(state, p)
    assert got is not None and got != (york, "york")
    sq, town = got
    assert town is not None and b.places[town].commons is not None and b.places[town].square == sq
    assert state["pown"][town] == other
    dist = b.land_distances(york)
    assert dist[sq] == min(dist[b.places[pl].square] for pl in sorted(b.places)
                           if b.places[pl].commons is not None and state["pown"].get(pl) == other
                           and b.places[pl].square in dist)
    # At the town, in the open, with the strength to besiege it: the siege.
    _gather(state, p, sq)
    state["stack"][-1] = {"step": "combat", "p": p}
    role = f"P{p + 1}"
    legal = RULES.legal_actions(state, role)
    chosen = ai.search_choices(state, role, legal)
    assert chosen and all(a[0] in ("siege", "storm") and a[1] == town for a in chosen)
    # With every town and city his, the majority is his: the King's seat is the plan again.
    _towns_to(state, p)
    assert _majority(state, p)
    assert ai._commons_targets(state, p, {n: 1 for n in faction_nobles(state, p)}) == []


def test_a_kings_controller_with_the_commons_majority_and_no_writ_goes_after_the_last_other_heir_calling_parliament() -> None:
    """§Calling Parliament, step 2: no Parliament is summoned without a Writ given to another
    player's noble; §Victory Conditions: the controller of the last royal heir alive,
    crowned, wins too. The sole King's controller with every town and city (a Commons majority)
    and no Writ in hand: his plan is Richard of York (the only other heir alive, held by no one)
    and not a seat for a Parliament he cannot call; his King's escort marches with the force
    (the bot may not end its movement before he has moved). With a Writ, the seat again."""
    game, p, escort = _kings_force()
    state = game.state
    w = W(state)
    sq = _open_square_without_parliament(state, "york", 2)
    _gather(state, p, sq)
    _towns_to(state, p)
    _writs_to(state, p, 0)
    assert _majority(state, p) and not writs(state, p)
    rich = w.heir_codec.id("richard_of_york")
    seat = ai.parliament_seat(state, p, 10_000)
    assert seat is not None and seat[0] != state["hsq"][rich]
    assert ai.plan(state, p) == (state["hsq"][rich], state["hin"][rich])
    role = f"P{p + 1}"
    chosen = ai.search_choices(state, role, RULES.legal_actions(state, role))
    assert chosen and not any(a[0] == "end" for a in chosen)
    assert ("select", w.cards[escort].id) in chosen
    _writs_to(state, p, 1)
    assert ai.plan(state, p) == seat
