"""The Kingmaker bots' King at sea and Beaufort: a King aboard a ship is sailed to where
Parliament may meet (§Calling Parliament, ruling K31), a ship whose passengers are too weak to
land fetches the nobles waiting for it (§Sea Transportation), and the controller of the last
Yorkist King marches on Beaufort and executes him (§Victory Conditions, ruling K79)."""

from __future__ import annotations

from roses.engine.contract import Action, State
from roses.games.kingmaker import RULES, ai, ai_sea
from roses.games.kingmaker.common import E_DECK, E_HAND, W, faction_nobles, noble_strength
from roses.games.kingmaker.parliament import tally
from roses.games.kingmaker.play import event_deck
from tests.kingmaker.test_bots import _first_movement, _free_heirs, _noble_of
from tests.kingmaker.test_bots_king import _towns_to
from tests.kingmaker.test_bots_sea import _setup

PARLIAMENT: list[Action] = [("summon", "london"), ("pass", None)]


def _writs(state: State, p: int, k: int) -> None:
    """``p`` holds exactly ``k`` Writs; the others are in the Event deck."""
    writ = [e for e, c in enumerate(event_deck(state).cards) if c.kind == "writ"]
    for i, e in enumerate(writ):
        state["ez"][e], state["eh"][e] = (E_HAND, p) if i < k else (E_DECK, -1)


def _sole_king(state: State, p: int) -> None:
    """Henry VI crowned, the sole King, escorted by a noble of ``p``; every other heir alive,
    uncrowned, held by no one."""
    w = W(state)
    _free_heirs(state)
    henry = w.heir_codec.id("henry_vi")
    state["hcrown"][henry], state["hesc"][henry] = True, _noble_of(state, p)


def _majority(state: State, p: int) -> bool:
    votes = tally(state, {"sq": None})
    return votes[p][0] >= sum(c for c, _ in votes) // 2 + 1


def test_a_king_at_sea_is_sailed_to_where_parliament_may_meet_k31() -> None:
    """§Sea Transportation: nobles (and the heir they escort) land only when their ship enters a
    port; §Calling Parliament: Parliament meets in a town or city of the mainland. Henry VI, the
    sole King, aboard the faction's ship off Dover with his escort (the faction's other nobles
    in Dover), his controller holding a Commons majority: his plan is a place where Parliament may meet (there was
    none while he was at sea), and the bot sails the ship, which enters a mainland port."""
    game, p, s, mine = _setup("dover", "dover")
    state = game.state
    w = W(state)
    b = w.board
    role = f"P{p + 1}"
    henry = w.heir_codec.id("henry_vi")
    escort = min(mine, key=lambda n: noble_strength(state, n))
    state["hcrown"][henry], state["hesc"][henry] = True, escort
    york = w.heir_codec.id("richard_of_york")  # alive, held by another player (no last heir yet)
    state["hdead"][york], state["hesc"][york] = False, _noble_of(state, (p + 1) % 3)
    _towns_to(state, p)  # his Commons majority: his King goes where Parliament may meet
    assert _majority(state, p)
    state["nship"][escort], state["nsq"][escort], state["nin"][escort] = s, None, None
    state["spos"][s] = b.places["dover"].port[0]
    seat = ai.plan(state, p)
    assert seat is not None
    sq, place = seat
    assert b.squares[sq].area in ("england", "wales", "scotland")
    assert place is None or b.places[place].parliament
    choices = ai.search_choices(state, role, RULES.legal_actions(state, role))
    assert choices == [("sail", w.ships[s].id)]
    game.apply(role, "sail", w.ships[s].id)
    tos = ai.search_choices(game.state, role, RULES.legal_actions(game.state, role))
    assert tos and all(v == "to" for v, _ in tos)
    assert all(str(d) in b.places and b.places[str(d)].area == "england" for _, d in tos)


def test_a_ship_too_weak_to_land_fetches_the_nobles_waiting_for_it_sea_transportation() -> None:
    """§Sea Transportation: a ship enters a fortified port it does not own only with passengers
    strong enough to besiege it. Carisbrooke (garrison 200) is the only port of the Isle of
    Wight: the faction's weakest noble aboard its ship off Dover cannot land there, and its other
    nobles wait in Dover; the ship heads for Dover to fetch them (it had no goal and stayed at
    sea)."""
    game, p, s, mine = _setup("dover", "dover")
    state = game.state
    b = W(state).board
    aim = b.places["carisbrooke"].square
    weak = min(mine, key=lambda n: noble_strength(state, n))
    state["nship"][weak], state["nsq"][weak], state["nin"][weak] = s, None, None
    state["spos"][s] = b.places["dover"].port[0]
    assert not ai_sea.landings(state, p, aim, noble_strength(state, weak))
    assert ai_sea.waiting(state, p, aim)
    assert ai_sea.ship_goals(state, p, s, aim) == {"dover": 0}


def _last_yorkist_king(state: State, p: int) -> int:
    """Richard of York the last royal heir alive, crowned, escorted by a noble of ``p``."""
    w = W(state)
    york = w.heir_codec.id("richard_of_york")
    for h in range(len(w.heirs)):
        state["hdead"][h], state["hcrown"][h], state["hesc"][h] = h != york, h == york, -1
    state["hesc"][york] = _noble_of(state, p)
    return york


def test_with_the_last_yorkist_king_a_faction_marches_on_beaufort_and_executes_him_k79() -> None:
    """§Victory Conditions, ruling K79: the controller of the last royal heir, a crowned Yorkist,
    wins only once Beaufort is out of play. Richard of York is that King, Beaufort (another
    player's noble) stands in the open with no one beside him, and every noble of the King's
    faction (1.5 times his strength, short of the Commons majority) stands two steps away in
    the open: its plan is Beaufort's square (before, it had
    none), and its captor's choice for Beaufort captive is his execution. With Richard
    uncrowned, Beaufort is no plan."""
    state = _first_movement().state
    w = W(state)
    b = w.board
    p = state["stack"][-1]["p"]
    role = f"P{p + 1}"
    bf = w.beaufort
    q = next(o for o in range(3) if o != p and any(state["ch"][n] == o for n in faction_nobles(state, o)))
    state["ch"][bf] = q
    york = _last_yorkist_king(state, p)
    sq = b.places["coventry"].square
    dist = b.land_distances(sq)
    near = next(s for s in sorted(dist) if dist[s] == 2 and s in b.squares
                and not any(state["nsq"][n] == s for n in w.nobles))
    others = [n for n in w.nobles if state["nsq"][n] == sq and n != bf]
    for n in others:
        state["nsq"][n], state["nin"][n] = near if state["ch"][n] == p else b.places["london"].square, None
    state["nsq"][bf], state["nin"][bf], state["nship"][bf], state["ncap"][bf] = sq, None, -1, -1
    third = 3 - p - q
    for n in faction_nobles(state, third):  # the third player's nobles join the King's faction
        state["ch"][n] = p
    for n in faction_nobles(state, p):
        if state["nsq"][n] is not None:
            state["nsq"][n], state["nin"][n] = near, None
    mine = sum(noble_strength(state, n) for n in faction_nobles(state, p) if state["nsq"][n] == near)
    assert mine >= 1.5 * noble_strength(state, bf)
    _towns_to(state, q)  # short of the Commons majority (with it, Parliament comes first)
    assert not _majority(state, p)
    assert ai.beaufort_stands_in_the_way(state, p)
    assert ai.plan(state, p) == (sq, None)
    state["stack"].append({"step": "captive", "cap": p, "queue": [bf]})
    captive: list[Action] = [("execute", w.cards[bf].id), ("release", w.cards[bf].id),
                             ("ransom", [w.cards[bf].id, 1])]
    assert ai.search_choices(state, role, captive) == [("execute", w.cards[bf].id)]
    state["stack"].pop()
    state["hcrown"][york] = False
    assert not ai.beaufort_stands_in_the_way(state, p)
    assert ai.plan(state, p) != (sq, None)
