"""The Kingmaker bots' plan (ai.objective): a faction marches on one objective with all its
nobles, the heir it can take at the least cost or the cathedral where its senior heir may be
crowned, so that its force gathers there instead of spreading over every goal."""

from __future__ import annotations

from roses.ai.bot import Determinizer
from roses.ai.factory import make_bot
from roses.engine.contract import Action, State
from roses.games.kingmaker import RULES, ai, evaluation
from roses.games.kingmaker import cards as K
from roses.games.kingmaker.common import Z_AWARD, W, faction_nobles, heir_loc, noble_strength
from tests.kingmaker.test_bots import _first_movement


def _only_heirs(state: State, keep: dict[str, int]) -> None:
    """Every royal heir dead but those of ``keep`` (heir id -> escorting noble), uncrowned."""
    w = W(state)
    for h in range(len(w.heirs)):
        state["hcrown"][h] = False
        name = w.heirs[h].id
        if name in keep:
            state["hdead"][h], state["hesc"][h] = False, keep[name]
        else:
            state["hdead"][h], state["hesc"][h] = True, -1


def _bot_choice(state: State, role: str) -> Action:
    bot = make_bot("heuristic", seed=3)
    return bot.decide(RULES, RULES.view(state, role), role, Determinizer.bind(RULES, state, role)).action


def _steps(state: State, sq: str, goal: str) -> int:
    return W(state).board.land_distances(goal)[sq]


def _square_of(state: State, dest: str) -> str:
    b = W(state).board
    return b.places[dest].square if dest in b.places else dest


def test_a_faction_marches_all_its_nobles_on_an_enemy_heir_it_outnumbers_l277() -> None:
    """L277 (§Capture of Royal Heirs) and §Combat: an heir escorted by an enemy stack is taken
    by defeating that stack. With a faction stronger than the escort (by the margin a battle
    wants), the heir's square is its objective: the bot may not end its movement while a noble
    of it is elsewhere, and the noble it moves steps as near to the heir as it can."""
    game = _first_movement()
    state = game.state
    w = W(state)
    p = state["stack"][-1]["p"]
    role = f"P{p + 1}"
    enemy = (p + 1) % 3
    escort = min(faction_nobles(state, enemy), key=lambda n: (noble_strength(state, n), n))
    mine = faction_nobles(state, p)
    start = state["nsq"][mine[0]]
    dist = w.board.land_distances(start)
    target = next(s for s in sorted(dist) if dist[s] == 8 and s in w.board.squares and not w.board.places_at.get(s))
    for n in faction_nobles(state, enemy):
        if n != escort and state["nsq"][n] == target:
            state["nsq"][n] = start
    state["nsq"][escort], state["nin"][escort] = target, None
    _only_heirs(state, {"henry_vi": escort, "margaret": escort})
    assert sum(noble_strength(state, n) for n in mine) >= ai.BATTLE_MARGIN * noble_strength(state, escort)
    assert ai.objective(state, p) == target
    legal = RULES.legal_actions(state, role)
    assert ("end", None) in legal
    assert ("end", None) not in ai.search_choices(state, role, legal)
    verb, arg = _bot_choice(state, role)
    assert verb == "select"
    n = w.cid(str(arg))
    before = _steps(state, state["nsq"][n], target)
    game.apply(role, verb, arg)
    verb, arg = _bot_choice(game.state, role)
    assert verb == "to"
    after = _steps(game.state, _square_of(game.state, str(arg)), target)
    nearest = min(_steps(game.state, _square_of(game.state, str(a)), target)
                  for v, a in RULES.legal_actions(game.state, role) if v == "to")
    assert after == nearest < before


def test_no_objective_beyond_the_factions_strength_l222() -> None:
    """L222 (§Siege): a siege needs at least the strength of the place's garrison (and of any
    nobles inside). An heir alone in a castle whose garrison is stronger than the whole faction
    is no objective, and the bot may end its movement."""
    game = _first_movement()
    state = game.state
    w = W(state)
    p = state["stack"][-1]["p"]
    _only_heirs(state, {"henry_vi": -1})
    henry = w.heir_codec.id("henry_vi")
    total = sum(noble_strength(state, n) for n in faction_nobles(state, p))
    castle = next(pl for pl in sorted(w.board.places) if w.board.places[pl].garrison > total
                  and w.board.places[pl].square not in {state["nsq"][n] for n in faction_nobles(state, p)})
    state["hsq"][henry], state["hin"][henry] = w.board.places[castle].square, castle
    assert heir_loc(state, henry)[1] == castle
    assert ai.objective(state, p) is None
    role = f"P{p + 1}"
    assert ("end", None) in ai.search_choices(state, role, RULES.legal_actions(state, role))


def test_with_its_senior_heir_and_an_archbishop_a_faction_marches_to_a_cathedral_l394() -> None:
    """L392-396 (§Coronation Phase): the senior heir of a house is crowned inside a cathedral
    with a noble holding an archbishop (or two bishops). A faction escorting Richard of York
    (senior of the uncrowned house of York) with an archbishop among its nobles makes the
    nearest cathedral its objective; the escort steps as near to it as he can. Once inside it,
    the bot crowns him."""
    game = _first_movement()
    state = game.state
    w = W(state)
    b = w.board
    p = state["stack"][-1]["p"]
    role = f"P{p + 1}"
    escort = max(faction_nobles(state, p), key=lambda n: (noble_strength(state, n), -n))
    _only_heirs(state, {"richard_of_york": escort, "henry_vi": -1})
    henry = w.heir_codec.id("henry_vi")
    state["hcrown"][henry] = True
    state["hsq"][henry], state["hin"][henry] = b.places["london"].square, "london"
    arch = next(c for c in range(len(w.cards)) if w.cards[c].kind == K.BISHOP and w.cards[c].archbishop)
    state["cz"][arch], state["ch"][arch] = Z_AWARD, escort
    for pl in evaluation._cathedrals(state):  # all his: the nearest is chosen by distance alone
        state["pown"][pl] = p
    sq = state["nsq"][escort]
    dist = evaluation._travel(state, sq)
    nearest = min((dist.get(b.places[pl].square, 999), b.places[pl].square) for pl in evaluation._cathedrals(state))
    assert nearest[0] > 0
    assert ai.objective(state, p) == nearest[1]
    game.apply(role, "select", w.cards[escort].id)
    verb, arg = _bot_choice(game.state, role)
    assert verb == "to"
    goal = nearest[1]
    after = _steps(game.state, _square_of(game.state, str(arg)), goal)
    assert after < _steps(game.state, sq, goal)
    # Inside the cathedral with the archbishop: the coronation phase crowns him.
    state = game.state
    cathedral = next(pl for pl in sorted(b.places) if b.places[pl].cathedral and b.places[pl].square == goal)
    state["nsq"][escort], state["nin"][escort] = goal, cathedral
    state["stack"].append({"step": "coronation", "p": p})
    options = RULES.legal_actions(state, role)
    assert ("crown", "richard_of_york") in options
    assert _bot_choice(state, role) == ("crown", "richard_of_york")


def test_an_heir_across_the_sea_is_no_objective_for_nobles_on_the_mainland_l138() -> None:
    """L138 (§Sea Transportation): nobles cross the sea only by ship. An heir alone in the open
    on the Isle of Wight is no objective for a faction whose nobles all stand on the mainland (they
    would walk about the coast for ever); one in the open on the mainland is. (Anglesey is
    reached on foot by the Menai crossing, §Refuges: test_bots_reach.py.)"""
    game = _first_movement()
    state = game.state
    w = W(state)
    p = state["stack"][-1]["p"]
    _only_heirs(state, {"henry_vi": -1})
    henry = w.heir_codec.id("henry_vi")
    island = "Z38"  # the open ground of the Isle of Wight, by Carisbrooke (its only port, garrison 200)
    assert w.board.squares[island].area == "wight"
    assert all(state["nsq"][n] not in evaluation.walk_distances(state, island) for n in faction_nobles(state, p))
    state["hsq"][henry], state["hin"][henry] = island, None
    assert ai.objective(state, p) is None
    mainland = "Y20"
    state["hsq"][henry] = mainland
    assert ai.objective(state, p) == mainland


def test_guests_come_out_of_another_factions_place_holding_a_loose_heir_to_besiege_it_l228_l277() -> None:
    """L228 (§Siege: the place and every heir inside are captured) and L277 (§Capture of Royal
    Heirs). A noble let into another faction's place as a guest takes no heir there, and his
    troops inside are missing from the siege. With Henry VI held by no one inside a castle of
    another faction, the plan is that castle: the faction's nobles inside it come out first,
    none of its nobles asks to go in, and the siege from the open then captures Henry."""
    game = _first_movement()
    state = game.state
    w = W(state)
    b = w.board
    p = state["stack"][-1]["p"]
    q = (p + 1) % 3
    role = f"P{p + 1}"
    mine = sorted(faction_nobles(state, p), key=lambda n: (noble_strength(state, n), n))
    total = sum(noble_strength(state, n) for n in mine)
    castle = next(pl for pl in sorted(b.places) if not b.places[pl].cathedral and not b.places[pl].parliament
                  and 0 < b.places[pl].garrison <= total - noble_strength(state, mine[0])
                  and len(b.places_at[b.places[pl].square]) == 1)
    sq = b.places[castle].square
    for n in faction_nobles(state, q) + faction_nobles(state, (p + 2) % 3):
        if state["nsq"][n] == sq:
            state["nsq"][n], state["nin"][n] = None, None
    state["pown"][castle] = q
    _only_heirs(state, {"henry_vi": -1})
    henry = w.heir_codec.id("henry_vi")
    state["hsq"][henry], state["hin"][henry] = sq, castle
    guest = mine[0]
    state["nsq"][guest], state["nin"][guest] = sq, castle
    state["guests"][castle] = [p]
    for n in mine[1:]:
        state["nsq"][n], state["nin"][n] = sq, None
    assert ai.plan(state, p) == (sq, castle)
    legal = RULES.legal_actions(state, role)
    assert ("leave", w.cards[guest].id) in legal
    assert ai.search_choices(state, role, legal) == [("leave", w.cards[guest].id)]
    game.apply(role, "leave", w.cards[guest].id)
    state = game.state
    assert state["nin"][guest] is None and state["hesc"][henry] < 0
    legal = RULES.legal_actions(state, role)
    assert all(not (v == "enter" and a[1] == castle) for v, a in ai.search_choices(state, role, legal))
    while state["stack"][-1]["step"] == "move":
        verb, arg = _bot_choice(state, role)
        assert not (verb == "enter" and arg[1] == castle)
        game.apply(role, verb, arg)
        state = game.state
    for _ in range(20):
        if state["hesc"][henry] >= 0 or state["stack"][-1]["step"] not in ("combat", "battle"):
            break
        game.apply(role, *_bot_choice(state, role))
        state = game.state
    assert heir_loc(state, henry)[:2] == (sq, castle)
    assert state["ch"][state["hesc"][henry]] == p
