"""Kingmaker bots at sea: a plan of ships for an objective across the sea (§Sea Transportation).

Nobles cross the sea only aboard a ship: they embark in a friendly or unfortified port where a
ship of their faction lies, the ship sails (five sea squares a move, a port counting as one) and
they land when it enters a port, a neutral or unfriendly fortified one only with passengers
strong enough to besiege it (§Sea Transportation). So a faction whose objective (ai.objective)
lies in another land than some of its nobles

* sends those nobles to a *pickup port*: the port of their own land nearest to them where a
  ship may take them aboard (friendly or unfortified);
* sends an empty ship of its own to the nearest pickup port where nobles wait;
* embarks the nobles waiting in the port where its ship lies;
* sails a ship with passengers towards a *landing*: a port of the objective's land the ship may
  enter, nearest by land to the objective.

Everything here is a choice among legal actions; the rules are those of play.py and queries.py.
"""

from __future__ import annotations

from roses.engine.contract import Action, State
from roses.games.kingmaker import evaluation as E
from roses.games.kingmaker.common import (
    Z_NOBLE,
    W,
    place_owner,
    ship_controller,
    ship_passengers,
    strength,
)
from roses.games.kingmaker.ops import place_active
from roses.games.kingmaker.queries import siege_defence

#: A cost beyond any route.
FAR = 999


def ships_of(state: State, p: int) -> list[int]:
    """The ships on the board that ``p`` moves."""
    w = W(state)
    return [s for s in range(len(w.ships)) if state["spos"][s] is not None and ship_controller(state, s) == p]


def landings(state: State, p: int, aim: str, power: int) -> dict[str, int]:
    """Ports of the objective's land a ship of ``p`` carrying ``power`` attacking troops may
    enter (friendly or unfortified, or besieged on landing, §Sea Transportation), with the land
    steps from each to the objective."""
    b = W(state).board
    land = E.walk_distances(state, aim)
    out: dict[str, int] = {}
    for port in b.ports:
        sq = b.places[port].square
        if sq not in land or not place_active(state, port):
            continue
        if place_owner(state, port) == p or not b.places[port].fortified or (
                power > 0 and power >= siege_defence(state, port, p)):
            out[port] = land[sq]
    return out


def can_land(state: State, p: int, aim: str) -> bool:
    """Whether a ship of ``p`` could put nobles ashore in the objective's land: a port there it
    may enter, or one its largest ship could carry a force to besiege."""
    w = W(state)
    ships = ships_of(state, p)
    if not ships:
        return False
    most = max(w.ships[s].capacity for s in ships)
    return bool(landings(state, p, aim, most))


def waiting(state: State, p: int, aim: str) -> list[int]:
    """Nobles of ``p`` on the board, ashore, in another land than the objective."""
    land = E.walk_distances(state, aim)
    w = W(state)
    return [n for n in w.nobles if state["cz"][n] == Z_NOBLE and state["ch"][n] == p and state["ncap"][n] < 0
            and state["nship"][n] < 0 and state["nsq"][n] is not None and state["nsq"][n] not in land]


def pickup_port(state: State, p: int, sq: str) -> str | None:
    """The port of the land of ``sq`` nearest to it where a ship may take nobles of ``p``
    aboard (friendly or unfortified, §Sea Transportation)."""
    b = W(state).board
    land = E.walk_distances(state, sq)
    best: tuple[int, str] | None = None
    for port in b.ports:
        psq = b.places[port].square
        if psq in land and place_active(state, port) and (
                place_owner(state, port) == p or not b.places[port].fortified):
            key = (land[psq], port)
            if best is None or key < best:
                best = key
    return best[1] if best else None


def _sea_cost(state: State, dest: str, goals: dict[str, int]) -> int:
    """Moves from ``dest`` (a sea square or a port) to the best of ``goals`` (port -> its own
    further cost)."""
    b = W(state).board
    if dest in b.places:
        return goals.get(dest, FAR)
    dist = b.port_distances(dest)
    return min((dist[g] + c for g, c in goals.items() if g in dist), default=FAR)


def ship_goals(state: State, p: int, s: int, aim: str) -> dict[str, int]:
    """Where ship ``s`` heads for the objective: with passengers, the landings (their land steps
    to the objective); empty, or with passengers too weak to enter any landing, the pickup ports
    of the nobles waiting for it."""
    passengers = ship_passengers(state, s)
    if passengers:
        goals = landings(state, p, aim, strength(state, passengers, attack=True))
        if goals:
            return goals
        # Too weak to enter any port of the objective's land (a fortified one is entered only to
        # besiege it): the ship fetches the nobles waiting in a port for it, and they sail together.
    out: dict[str, int] = {}
    for n in waiting(state, p, aim):
        port = pickup_port(state, p, state["nsq"][n])
        if port is not None:
            out[port] = 0
    return out


def rank_ship_destinations(state: State, p: int, s: int, aim: str, tos: list[Action]) -> list[Action]:
    """The ``to`` actions of ship ``s`` that bring it nearest to its goals (:func:`ship_goals`);
    all of them when it has none."""
    goals = ship_goals(state, p, s, aim)
    if not goals:
        return tos
    costs = {str(a[1]): _sea_cost(state, str(a[1]), goals) for a in tos}
    least = min(costs.values())
    if least >= FAR:
        return tos
    return [a for a in tos if costs[str(a[1])] == least]


def noble_goal(state: State, p: int, n: int, aim: str) -> str | None:
    """The square a noble of ``p`` cut off from the objective by sea walks to: his pickup port's."""
    port = pickup_port(state, p, state["nsq"][n])
    return W(state).board.places[port].square if port is not None else None


def sea_moves(state: State, p: int, aim: str, actions: list[Action]) -> list[Action]:
    """The movement phase's moves of the sea plan, most urgent first, or [] when there is none
    to make: nobles waiting in a port where a ship of ``p`` lies embark; a ship with passengers
    sails (towards a landing); an empty ship sails to the nobles waiting in another port."""
    w = W(state)
    ships = ships_of(state, p)
    if not ships or not (waiting(state, p, aim) or any(ship_passengers(state, s) for s in ships)):
        return []
    if not can_land(state, p, aim):
        return []
    b = w.board
    land = E.walk_distances(state, aim)
    embark = [a for a in actions if a[0] == "embark" and state["nsq"][w.cid(str(a[1][0]))] not in land]
    if embark:
        return embark
    sails = {str(a[1]) for a in actions if a[0] == "sail"}
    ports_waiting = {state["nsq"][n] for n in waiting(state, p, aim)}
    for s in ships_of(state, p):
        piece = w.ships[s]
        if piece.id not in sails:
            continue
        if ship_passengers(state, s) and ship_goals(state, p, s, aim):
            return [("sail", piece.id)]
    for s in ships_of(state, p):
        piece = w.ships[s]
        pos = state["spos"][s]
        if piece.id not in sails or ship_passengers(state, s):
            continue
        here = b.places[pos].square if pos in b.places else None
        if here in ports_waiting:
            continue  # the nobles here embark (next move)
        goals = ship_goals(state, p, s, aim)
        if goals and pos not in goals:
            return [("sail", piece.id)]
    return []
