"""Kingmaker bots: the sole King carried off a land where Parliament may not meet, and a held
heir off the mainland (§Sea Transportation).

A King in Calais (or on an island, or in a land with no town or city where Parliament may
meet, §Calling Parliament), or another heir a faction holds in Calais, on the Continent, in
Ireland or on an island, reaches his faction's plan on the mainland only aboard a ship, with
the noble escorting him (below, "the King" stands for either); a ship carries a noble only if its capacity is at least his troop
strength (§Sea Transportation), and a noble's strength is his cards' (§Faction). So when his
escort is too strong for every ship of the faction, the faction

* hands the King to another of its nobles beside him whom a ship can carry
  (§Royal Heir Counters: a captured heir moves with the nobles accompanying him;
  §Sea Transportation: royal heirs may accompany nobles to sea; play.py's ``escort``);
* failing one, lightens a noble beside him: his mercenary cards go to another noble of the
  faction in the same square (§Transfers: mercenary cards are transferables), until a ship can
  carry him; the King is then handed to him;
* failing both, fetches a noble a ship can carry (:func:`fetch_plan`): he walks to the
  nearest port of his land where a ship may take him aboard, the nearest empty ship of the
  faction large enough sails there, he embarks, the ship sails for a port of the King's land,
  and once ashore he walks to the King's side, where the King is handed to him;
* embarks the King's escort first when a ship of the faction lies in his port (ai_sea then
  sails it towards the plan's landing).

Everything here is a choice among legal actions; the rules are those of play.py and deals.py.
"""

from __future__ import annotations

from roses.engine.contract import Action, State
from roses.games.kingmaker import ai_sea
from roses.games.kingmaker import cards as K
from roses.games.kingmaker import evaluation as E
from roses.games.kingmaker.common import (
    Z_NOBLE,
    W,
    awards,
    heir_loc,
    king_controller,
    noble_strength,
    owner_of_card,
    ship_passengers,
    sole_king,
    strength,
)
from roses.games.kingmaker.queries import MAINLAND, parliament_places


def _spot(state: State, n: int) -> tuple[str | None, str | None, int]:
    return state["nsq"][n], state["nin"][n], state["nship"][n]


def heir_to_ferry(state: State, p: int) -> tuple[int, int, int] | None:
    """``(heir, escort, capacity)`` when ``p`` has a ship (``capacity``: the largest one's) and
    controls the sole King (an heir, not Beaufort), escorted and ashore where Parliament may not
    meet, or else another heir, escorted and ashore off the mainland (:data:`MAINLAND`: in
    Calais, on the Continent, in Ireland, on an island), the first by the heirs' order; None
    otherwise. Cheap: asked before the faction's plan is worked out."""
    ships = ai_sea.ships_of(state, p)
    if not ships:
        return None
    w = W(state)
    k = sole_king(state)
    found = None
    if k is not None and k >= 0 and king_controller(state, k) == p:
        e = state["hesc"][k]
        sq, inside, ship = heir_loc(state, k)
        if e >= 0 and sq is not None and ship < 0 and not parliament_places(state, sq, inside):
            found = k, e
    if found is None:
        for h in range(len(state["hesc"])):
            e = state["hesc"][h]
            if h == k or e < 0 or state["hdead"][h] or owner_of_card(state, e) != p:
                continue
            sq, _, ship = heir_loc(state, h)
            if sq is not None and ship < 0 and w.board.squares[sq].area not in MAINLAND:
                found = h, e
                break
    if found is None:
        return None
    return found[0], found[1], max(w.ships[s].capacity for s in ships)


def stranded_heir(state: State, p: int, aim: str) -> tuple[int, int, int] | None:
    """:func:`heir_to_ferry`, in a land from which ``aim`` (the square of the faction's plan)
    cannot be reached on foot; None otherwise."""
    got = heir_to_ferry(state, p)
    if got is None:
        return None
    sq = heir_loc(state, got[0])[0]
    return None if sq is None or aim in E.walk_distances(state, sq) else got


def _faction_mates(state: State, p: int, n: int) -> list[int]:
    """Nobles of ``p`` (not captive, ashore) in the same square as ``n``, ``n`` excepted."""
    w = W(state)
    sq = state["nsq"][n]
    return [m for m in w.nobles if m != n and state["cz"][m] == Z_NOBLE and state["ch"][m] == p
            and state["ncap"][m] < 0 and state["nship"][m] < 0 and state["nsq"][m] == sq]


def _bearers(state: State, p: int, e: int) -> list[int]:
    """Nobles of ``p`` beside escort ``e`` (same square, place and ship), ``e`` included."""
    return [e] + [m for m in _faction_mates(state, p, e) if _spot(state, m) == _spot(state, e)]


def _fit_beside(state: State, p: int, e: int, cap: int) -> list[int]:
    """Nobles of ``p`` beside escort ``e``, ``e`` excepted, whom a ship of ``cap`` can carry."""
    return [m for m in _bearers(state, p, e) if m != e and 0 < noble_strength(state, m) <= cap]


def _lightening(state: State, p: int, e: int, cap: int) -> tuple[int, list[int], int] | None:
    """The noble beside escort ``e`` a ship of ``cap`` could carry once his mercenary cards go to
    another noble of ``p`` in the square (§Transfers), the strongest after it (ties by id):
    ``(noble, cards to give, receiver)``, the cards the fewest that suffice, largest first."""
    w = W(state)
    best: tuple[int, str, int, list[int], int] | None = None
    for m in _bearers(state, p, e):
        mates = _faction_mates(state, p, m)
        if not mates:
            continue
        have = noble_strength(state, m)
        mercs = sorted((c for c in awards(state, m) if w.cards[c].kind == K.MERCENARY and c not in state["fresh"]),
                       key=lambda c: (-w.cards[c].troops, w.cards[c].id))
        give: list[int] = []
        for c in mercs:
            if have <= cap:
                break
            give.append(c)
            have -= w.cards[c].troops
        if not give or have > cap or have <= 0:
            continue
        receiver = e if e != m else min(mates, key=lambda x: (-noble_strength(state, x), w.cards[x].id))
        key = (-have, w.cards[m].id)
        if best is None or key < best[:2]:
            best = (-have, w.cards[m].id, m, give, receiver)
    if best is None:
        return None
    return best[2], best[3], best[4]


def ferry_moves(state: State, p: int, aim: str, actions: list[Action]) -> list[Action]:
    """The movement phase's moves of the ferry (module docstring), most urgent first, or []
    when there is none to make: the escort embarks; the King is handed to a noble a ship can
    carry; the dealing menu is opened to lighten one."""
    got = stranded_heir(state, p, aim)
    if got is None:
        return []
    k, e, cap = got
    w = W(state)
    eid = w.cards[e].id
    if noble_strength(state, e) <= cap:
        return [a for a in actions if a[0] == "embark" and a[1][0] == eid]
    hid = w.heirs[k].id
    fit = _fit_beside(state, p, e, cap)
    if fit:
        m = min(fit, key=lambda x: (-noble_strength(state, x), w.cards[x].id))
        return [a for a in actions if a[0] == "escort" and list(a[1]) == [hid, w.cards[m].id]]
    if _lightening(state, p, e, cap) is not None:
        return [a for a in actions if a[0] == "deal"]
    b = _bearer(state, p, k, e, cap)
    return _fetch_moves(state, p, k, e, b, actions) if b is not None else []


def ferry_deals(state: State, p: int, aim: str, actions: list[Action]) -> list[Action]:
    """The dealing step of the ferry: the next mercenary card to give (:func:`_lightening`), or
    back to the movement once a noble beside the King fits a ship; [] when the ferry has
    nothing to deal."""
    got = stranded_heir(state, p, aim)
    if got is None:
        return []
    _, e, cap = got
    if noble_strength(state, e) <= cap:
        return []
    w = W(state)
    light = _lightening(state, p, e, cap)
    if light is not None:
        _, give, receiver = light
        want = [w.cards[give[0]].id, w.cards[receiver].id]
        return [a for a in actions if a[0] == "transfer" and list(a[1]) == want]
    if _fit_beside(state, p, e, cap):
        return [a for a in actions if a[0] == "back"]
    return []


def _bearer(state: State, p: int, k: int, e: int, cap: int) -> int | None:
    """The noble of ``p`` to fetch to the King's side: not beside him, free and ready (not
    captive, nor escorting an heir), whom a ship of ``p`` can carry (strength at most ``cap``,
    §Sea Transportation); the nearest (aboard a ship of ``p`` first, then ashore in the King's
    land by land steps, then by land steps to his pickup port), the strongest, by id."""
    w = W(state)
    ksq = heir_loc(state, k)[0]
    if ksq is None:
        return None
    beside = set(_bearers(state, p, e))
    own_ships = set(ai_sea.ships_of(state, p))
    home = E.walk_distances(state, ksq)
    escorts = {state["hesc"][h] for h in range(len(state["hesc"])) if not state["hdead"][h]}
    best: tuple[int, int, str, int] | None = None
    for m in w.nobles:
        if (state["cz"][m] != Z_NOBLE or state["ch"][m] != p or state["ncap"][m] >= 0 or m in beside
                or m in escorts):
            continue
        have = noble_strength(state, m)
        if not 0 < have <= cap:
            continue
        ship, sq = state["nship"][m], state["nsq"][m]
        if ship >= 0:
            if ship not in own_ships:
                continue
            cost = 0
        elif sq is None:
            continue
        elif sq in home:
            cost = 1 + home[sq]
        else:
            port = ai_sea.pickup_port(state, p, sq)
            if port is None:
                continue
            cost = 100 + E.walk_distances(state, w.board.places[port].square).get(sq, 99)
        key = (cost, -have, w.cards[m].id, m)
        if best is None or key < best:
            best = key
    return best[3] if best is not None else None


def fetch_plan(state: State, p: int, aim: str) -> tuple[int, int, int] | None:
    """``(heir, escort, bearer)`` when ``p``'s heir to ferry (:func:`heir_to_ferry`: the sole
    King, or another heir off the mainland) stands in a land from which ``aim`` (the square of
    the faction's plan) cannot be reached on foot, and neither his escort nor a noble beside him
    fits a ship of ``p``, even lightened (§Transfers): the bearer (:func:`_bearer`) is fetched
    to his side. None otherwise."""
    got = stranded_heir(state, p, aim)
    if got is None:
        return None
    k, e, cap = got
    if noble_strength(state, e) <= cap or _fit_beside(state, p, e, cap) or _lightening(state, p, e, cap) is not None:
        return None
    b = _bearer(state, p, k, e, cap)
    return (k, e, b) if b is not None else None


def _empty_ship_for(state: State, p: int, b: int, port: str) -> int | None:
    """The empty ship of ``p`` large enough for noble ``b`` nearest by sea to ``port`` (ties by id)."""
    w = W(state)
    need = noble_strength(state, b)
    best: tuple[int, str, int] | None = None
    for s in ai_sea.ships_of(state, p):
        if w.ships[s].capacity < need or ship_passengers(state, s):
            continue
        pos = state["spos"][s]
        cost = 0 if pos == port else ai_sea._sea_cost(state, pos, {port: 0})
        key = (cost, w.ships[s].id, s)
        if best is None or key < best:
            best = key
    return best[2] if best is not None else None


def _fetch_moves(state: State, p: int, k: int, e: int, b: int, actions: list[Action]) -> list[Action]:
    """The movement phase's moves that fetch bearer ``b`` (:func:`fetch_plan`) to King ``k``
    escorted by ``e``."""
    w = W(state)
    bid = w.cards[b].id
    ksq, kin, _ = heir_loc(state, k)
    if state["nship"][b] >= 0:  # aboard: his ship sails for a port of the King's land
        return [a for a in actions if a == ("sail", w.ships[state["nship"][b]].id)]
    sq = state["nsq"][b]
    if sq in E.walk_distances(state, str(ksq)):  # ashore in the King's land: to his side
        if sq != ksq:
            return [a for a in actions if a == ("select", bid)]
        eid, bin_ = w.cards[e].id, state["nin"][b]
        # the same square: the bearer goes into the King's place or out to him, else the escort to the bearer
        for who, where in ((bid, kin), (eid, bin_)):
            move = [a for a in actions if (where is not None and a[0] == "enter" and list(a[1]) == [who, where])
                    or (where is None and a == ("leave", who))]
            if move:
                return move
        return []
    embark = [a for a in actions if a[0] == "embark" and a[1][0] == bid]
    if embark:
        return embark
    port = ai_sea.pickup_port(state, p, sq)
    if port is None:
        return []
    out = [a for a in actions if a == ("select", bid)] if sq != w.board.places[port].square else []
    s = _empty_ship_for(state, p, b, port)
    if s is not None and state["spos"][s] != port:
        out += [a for a in actions if a == ("sail", w.ships[s].id)]
    return out


def fetch_destinations(state: State, p: int, aim: str, frame: dict[str, object],
                       tos: list[Action]) -> list[Action] | None:
    """The ``to`` actions of the bearer or of a ship of the fetch (:func:`fetch_plan`) that bring
    it nearest to its goal: the bearer to the King's square (in the King's land) or to his
    pickup port; his ship to a port of the King's land; the empty ship to the bearer's pickup
    port. None when the piece moving has no part in a fetch."""
    got = fetch_plan(state, p, aim)
    if got is None:
        return None
    k, _, b = got
    w = W(state)
    board = w.board
    ksq = str(heir_loc(state, k)[0])
    goals: dict[str, int] = {}
    if frame.get("ship") is not None:
        s = w.ship_codec.id(str(frame["ship"]))
        if state["nship"][b] == s:
            goals = ai_sea.landings(state, p, ksq, strength(state, ship_passengers(state, s), attack=True))
        elif state["nship"][b] < 0 and state["nsq"][b] is not None:
            port = ai_sea.pickup_port(state, p, str(state["nsq"][b]))
            if port is not None and _empty_ship_for(state, p, b, port) == s:
                goals = {port: 0}
        if not goals:
            return None
        costs = {str(a[1]): ai_sea._sea_cost(state, str(a[1]), goals) for a in tos}
    elif frame.get("sel") == w.cards[b].id:
        sq = str(state["nsq"][b])
        home = E.walk_distances(state, ksq)
        if sq in home:
            dist = home
        else:
            port = ai_sea.pickup_port(state, p, sq)
            if port is None:
                return None
            dist = E.walk_distances(state, board.places[port].square)
        costs = {str(a[1]): dist.get(board.places[str(a[1])].square if str(a[1]) in board.places else str(a[1]), 99)
                 for a in tos}
    else:
        return None
    least = min(costs.values(), default=ai_sea.FAR)
    if least >= ai_sea.FAR:
        return None
    return [a for a in tos if costs[str(a[1])] == least]
