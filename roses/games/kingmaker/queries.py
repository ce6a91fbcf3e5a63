"""Kingmaker: read-only questions about a position that several step modules ask (who may
move where, which cards a noble may hold, who may summon Parliament, the dealt hand).

The step modules (``play``, ``setup``, ``parliament``, ``combat``, ``deals``, ``events``) all
import from here, the reasons their steps give for refusing a card order too (:func:`card_reason`); this module imports only ``common``,
``ops`` and ``cards``, so the package has no import cycle (``tests/kingmaker/test_imports.py``).
The step modules import these names back, so ``play.land_moves`` and the like still work.
Rule references name sections of the campaign rules (``rulebook.SECTIONS``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec

from roses.engine.contract import Action, State
from roses.games.kingmaker import cards as K
from roses.games.kingmaker.common import (
    E_HAND,
    Z_AWARD,
    Z_HAND,
    Z_NOBLE,
    W,
    allied,
    awards,
    card_name,
    faction_nobles,
    heir_loc,
    king_controller,
    noble_strength,
    noble_title,
    owner_of_card,
    place_owner,
    refuge_area,
    ship_controller,
    ship_passengers,
    sole_king,
    strength,
)
from roses.games.kingmaker.ops import place_active


# ---------------------------------------------------------------------------- from setup
def hand(state: State, p: int) -> list[int]:
    cz, ch = state["cz"], state["ch"]
    return [c for c in range(len(cz)) if cz[c] == Z_HAND and ch[c] == p]


def award_targets(state: State, p: int, c: int, setup: bool = False) -> list[int]:
    """The nobles of player ``p`` that may receive card ``c`` (§Preparing to Play, §Crown Card Key)."""
    w = W(state)
    card = w.cards[c]
    nobles = [n for n in faction_nobles(state, p) if state["ncap"][n] < 0]
    if not setup:
        # §Faction: not to a noble under siege or at sea.
        nobles = [n for n in nobles if state["nship"][n] < 0 and not _besieged(state, n)]
        if c in state["traded"]:
            # §Transfers: a traded card is not given to a noble in combat in the turn of the trade.
            nobles = [n for n in nobles if state["nfo"][n] != state["tno"] and n not in state["defended"]]
    k = card.kind
    if k == K.TITLE:
        return [n for n in nobles if not noble_title(state, n)]
    if k == K.OFFICE:
        return [n for n in nobles if noble_title(state, n) and not _has(state, n, K.OFFICE)]
    if k in (K.BISHOP, K.MERCENARY, K.TOWN, K.ROYAL_CASTLE, K.SHIP):
        if card.lies_in == "ireland":
            return [n for n in nobles if _has_id(state, n, "lieutenant_of_ireland")]
        return nobles
    if k == K.FRENCH_AID:
        # §Crown Card Key: only to a noble in Calais or on the Continent.
        b = w.board
        out = []
        for n in nobles:
            sq = state["nsq"][n]
            if sq is not None and b.squares[sq].area in ("pale_of_calais", "continent"):
                out.append(n)
        return out
    return []


def _has(state: State, n: int, kind: str) -> bool:
    cards = W(state).cards
    cz, ch = state["cz"], state["ch"]
    return any(cz[c] == Z_AWARD and ch[c] == n and cards[c].kind == kind for c in range(len(cz)))


def _has_id(state: State, n: int, cid: str) -> bool:
    w = W(state)
    c = w.codec.get(cid)
    return c >= 0 and state["cz"][c] == Z_AWARD and state["ch"][c] == n


def _besieged(state: State, n: int) -> bool:
    pl = state["nin"][n]
    return pl is not None and pl in state["siege"] and state["siege"][pl] != state["ch"][n]


# ---------------------------------------------------------------------------- from play
MOVE_SQUARES = 5  # §Noble Counters: a noble moves up to 5 squares; §Sea Transportation: a ship too


def ship_can_act(state: State, s: int) -> bool:
    """§Important: one turn a round (§Transfers for lent ships): a ship moves in one turn of a round at most."""
    m = state["smv"][s]
    return m < state["rstart"] and m != state["tno"]


def can_act(state: State, n: int) -> bool:
    """§Important: one turn a round: no counter moves or attacks in more than one turn of a round."""
    a = state["nact"][n]
    return a < 0 or a == state["tno"] or a < state["rstart"]


def besieged_inside(state: State, n: int) -> bool:
    pl = state["nin"][n]
    if pl is None:
        return False
    b = state["siege"].get(pl)
    return b is not None and b != state["ch"][n]


def movable(state: State, n: int) -> bool:
    return (state["ncap"][n] < 0 and state["nsq"][n] is not None and state["nmv"][n] != state["tno"]
            and state["nvac"][n] != state["tno"] and can_act(state, n) and not besieged_inside(state, n))


def land_moves(state: State, n: int) -> list[str]:
    """Squares noble ``n`` may move to (§Noble Counters): up to 5 steps in 8 directions, rivers
    crossed, estuaries not; entering forest from open ends the move (ruling K9: forest to
    forest does not); from a road square, along the road without limit until a neutral or
    unfriendly place (ruling K8, literal reading). E1 refuges need a Refuge card or an
    exemption (§Refuges) and the Menai crossing needs a start in the Caernarvon square (§Refuges)."""
    w = W(state)
    b = w.board
    p = state["ch"][n]
    start = state["nsq"][n]
    blocked = blocked_areas(state, p, n)
    reached = set(normal_moves(w, start, blocked))
    squares = b.squares
    if blocked:
        # E1 §Refuges: into a refuge without a card only to besiege, attack or capture there.
        for t in normal_moves(w, start, ()) - reached:
            if squares[t].area in blocked and refuge_target(state, p, t):
                reached.add(t)
    if squares[start].road:
        todo = [start]
        seen = {start}
        while todo:
            s = todo.pop()
            for t, e in b.road_steps[s]:
                if t in seen or e.estuary is not None or not squares[t].land:
                    continue
                if squares[t].area in blocked:
                    continue
                seen.add(t)
                reached.add(t)
                if not _road_blocked(state, p, t):
                    todo.append(t)
    reached.discard(start)
    if p in state["excommunicated"]:
        reached -= excommunicated_squares(state)
    return sorted(reached)


def refuge_target(state: State, p: int, sq: str) -> bool:
    """Something in refuge square ``sq`` that noble of ``p`` may enter to fight or take (§Refuges):
    a place not his, a force in the open (not in Scotland or the Continent), an heir alone."""
    w = W(state)
    for pl in w.board.places_at.get(sq, ()):
        if place_active(state, pl) and place_owner(state, pl) != p:
            return True
    area = w.board.squares[sq].area
    if area not in ("scotland", "continent"):
        for m in w.nobles:
            if (state["cz"][m] == Z_NOBLE and state["nsq"][m] == sq and state["nin"][m] is None
                    and state["ch"][m] != p and state["ncap"][m] < 0 and not allied(state, p, state["ch"][m])):
                return True
    return any(not state["hdead"][h] and state["hesc"][h] < 0 and state["hsq"][h] == sq
               for h in range(len(w.heirs)))


def excommunicated_squares(state: State) -> set[str]:
    """E2 (§Excommunication Restrictions): squares an excommunicated faction may not enter."""
    w = W(state)
    return {sq for sq in (w.square_of(x) for x in ("salisbury", "wells", "st_davids")) if sq is not None}


def normal_moves(w: Any, start: str, blocked: tuple[str, ...]) -> frozenset[str]:
    """The squares within 5 steps by the terrain rules alone (cached per board, start and
    the areas the noble may not enter)."""
    key = ("moves", start, blocked)
    cache = w.cache
    got = cache.get(key)
    if got is not None:
        out: frozenset[str] = got
        return out
    b = w.board
    squares = b.squares
    reached: set[str] = set()
    frontier = [start]
    seen_go = {start}
    for step in range(MOVE_SQUARES):
        nxt: list[str] = []
        for s in frontier:
            steps = list(b.land_steps[s])
            if step == 0:
                steps += _crossings(b, s)
            forest_from = squares[s].forest
            for t, _e in steps:
                if squares[t].area in blocked:
                    continue
                reached.add(t)
                stop = squares[t].forest and not forest_from
                if not stop and t not in seen_go:
                    seen_go.add(t)
                    nxt.append(t)
        frontier = nxt
    reached.discard(start)
    res = frozenset(reached)
    cache[key] = res
    return res


def blocked_areas(state: State, p: int, n: int) -> tuple[str, ...]:
    """E1 (§Refuges): the refuge areas noble ``n`` may not enter now (none in basic; none
    when the faction holds a Refuge card, which is then used on entry)."""
    if state["level"] < 1:
        return ()
    w = W(state)
    cur = state["nsq"][n]
    here = w.board.squares[cur].area if cur is not None else None
    if holds_refuge(state, p):
        return ()
    out = []
    for area in w.refuge_areas:
        if area == here or (area == "ireland" and state["level"] >= 2):
            continue
        if not refuge_exempt(state, p, n, area):
            out.append(area)
    return tuple(out)


def _crossings(b: Any, s: str) -> list[tuple[str, Any]]:
    """Named crossings of a water barrier from ``s`` (§Refuges: Caernarvon to Anglesey)."""
    return [(t, b.edges[(s, t)]) for t in b.crossing_steps(s)]


def _road_blocked(state: State, p: int, sq: str) -> bool:
    for pl in W(state).board.places_at.get(sq, ()):
        if place_active(state, pl) and place_owner(state, pl) != p:
            return True
    return False


REFUGE_EXEMPT = {"ireland": "lieutenant_of_ireland", "continent": "captain_of_calais",
                 "anglesey": "treasurer", "man": "stanley"}


def refuge_exempt(state: State, p: int, n: int, area: str) -> bool:
    w = W(state)
    cid = REFUGE_EXEMPT.get(area)
    if cid == "stanley":
        return w.cards[n].id == "stanley"
    if cid is not None:
        c = w.codec.id(cid)
        if state["cz"][c] == Z_AWARD and state["ch"][c] == n:
            return True
    if area == "wight":
        c = w.codec.get("royal_castle_carisbrooke")
        if c >= 0 and state["cz"][c] == Z_AWARD and state["ch"][c] == n:
            return True
    if area == "continent" and state.get("treaty", -1) == p:
        return True  # E2 Treaty with France: the King's faction enters the Continent freely
    # §Refuges: a faction holding a captured refuge port has free refuge there.
    b = w.board
    return any(state["pown"].get(pl) == p for pl in b.places_in_area(area))


def holds_refuge(state: State, p: int) -> bool:
    deck = event_deck(state)
    return any(z == E_HAND and state["eh"][e] == p and deck.cards[e].kind == "refuge"
               for e, z in enumerate(state["ez"]))


def event_deck(state: State) -> K.EventDeck:
    return K.deck_for(state["deck_key"], state["deck_data"])


def move_dests(state: State, n: int) -> list[str]:
    """Squares, and friendly places in them (to end inside), noble ``n`` may move to."""
    w = W(state)
    p = state["ch"][n]
    out: list[str] = []
    banned = p in state["excommunicated"]
    own = noble_strength(state, n)
    for sq in land_moves(state, n):
        out.append(sq)
        for pl in w.board.places_at.get(sq, ()):
            if place_active(state, pl) and place_owner(state, pl) == p and not (
                    banned and w.board.places[pl].cathedral) and fits(state, pl, own):
                out.append(pl)
    return out


def fits(state: State, place: str, troops: int) -> bool:
    """§Town, Cities, and Castles: a place holds only so many troops (the board's capacity; ruling K61: the nobles'
    troops inside, counted when one enters voluntarily)."""
    inside = sum(noble_strength(state, m) for m in inside_nobles(state, place) if state["ncap"][m] < 0)
    return inside + troops <= W(state).board.places[place].capacity


def ship_dests(state: State, s: int) -> list[str]:
    """Sea squares and ports ship ``s`` may reach this move (§Sea Transportation): 5 squares, a port
    counting as one; a friendly or unfortified port, or (with passengers strong enough to
    besiege it) a neutral or unfriendly one (§Sea Transportation)."""
    w = W(state)
    b = w.board
    pos = state["spos"][s]
    p = ship_controller(state, s)
    held = blockaded_from(state, s)
    if held:
        return held  # E1 §Blockade: leaving a blockaded port, the ship stops by the blockaders
    dist = sea_reach(w, pos)
    out = [sq for sq in dist if sq != pos]
    passengers = ship_passengers(state, s)
    power = strength(state, passengers, attack=True)
    for sq, d in dist.items():
        if d + 1 > MOVE_SQUARES:
            continue
        for port in b.ports_at_sea.get(sq, ()):
            if port == pos or port in out or not place_active(state, port):
                continue
            pl = b.places[port]
            own = place_owner(state, port)
            refuge = state["level"] >= 1 and refuge_area(state, pl.square) is not None
            if (own == p or not pl.fortified) and not (refuge and own != p) or passengers and power >= siege_defence(state, port, p):
                out.append(port)
    return sorted(out)


def sea_reach(w: Any, pos: str) -> dict[str, int]:
    """Sea squares a ship at ``pos`` (a port or a sea square) reaches in 5 moves, with the
    moves used (cached per board)."""
    key = ("sea", pos)
    got = w.cache.get(key)
    if got is not None:
        out: dict[str, int] = got
        return out
    b = w.board
    dist: dict[str, int] = {}
    if pos in b.places:
        for sq in b.places[pos].port:
            dist[sq] = 1
    else:
        dist[pos] = 0
    todo = sorted(dist, key=lambda x: dist[x])
    i = 0
    while i < len(todo):
        sq = todo[i]
        i += 1
        d = dist[sq]
        if d >= MOVE_SQUARES:
            continue
        for t in b.sea_steps[sq]:
            if t not in dist:
                dist[t] = d + 1
                todo.append(t)
    w.cache[key] = dist
    return dist


def blockaded_from(state: State, s: int) -> list[str]:
    """E1 §Sea Battles: the sea squares where a ship leaving its port must stop to fight the ships
    blockading that port (empty when it is not blockaded)."""
    w = W(state)
    pos = state["spos"][s]
    if pos not in w.board.places:
        return []
    p = ship_controller(state, s)
    out = set()
    for sid, port in state["blockades"].items():
        if port != pos:
            continue
        t = w.ship_codec.id(sid)
        q = ship_controller(state, t)
        where = state["spos"][t]
        if q >= 0 and q != p and not allied(state, p, q) and where in w.board.places[pos].port:
            out.add(where)
    return sorted(out)


def siege_defence(state: State, place: str, attacker: int) -> int:
    """§Siege: the garrison plus the strongest single faction inside (defenders' choice,
    ruling K39: the strongest)."""
    w = W(state)
    pl = w.board.places[place]
    rogue = state["rogue"]
    if rogue and rogue["place"] == place:
        return 100  # E2 French Treachery: "a simple vs. 100 troop siege"
    by: dict[int, int] = {}
    for m in inside_nobles(state, place):
        o = state["ch"][m]
        if o != attacker and state["ncap"][m] < 0:
            by[o] = by.get(o, 0) + noble_strength(state, m)
    return pl.garrison + max(by.values(), default=0)


def inside_nobles(state: State, place: str) -> list[int]:
    nin, cz = state["nin"], state["cz"]
    return [n for n in W(state).nobles if cz[n] == Z_NOBLE and nin[n] == place]


def refuge_exempt_office(state: State, n: int, office: str) -> bool:
    c = W(state).codec.get(office)
    return c >= 0 and state["cz"][c] == Z_AWARD and state["ch"][c] == n


def free_moves(state: State, p: int) -> list[int]:
    deck = event_deck(state)
    return [e for e, z in enumerate(state["ez"]) if z == E_HAND and state["eh"][e] == p and deck.cards[e].kind == "free_move"]


# ---------------------------------------------------------------------------- from parliament
HENRY = "henry_vi"


def summoner_figure(state: State, p: int, cards: bool = True) -> tuple[str | None, str | None] | None:
    """Where the figure that lets ``p`` summon stands (the sole King he controls, or his
    Chancellor when there is no sole King), or None if ``p`` may not summon (§Calling Parliament).
    ``cards`` False: as far as the other players know, without looking at his hidden cards."""
    w = W(state)
    k = sole_king(state)
    if k is not None:
        if king_controller(state, k) != p:
            return None
        if k == -2:
            n = w.beaufort
            return state["nsq"][n], state["nin"][n]
        sq, inside, ship = heir_loc(state, k)
        return None if ship >= 0 else (sq, inside)
    c = w.chancellor
    n = state["ch"][c] if state["cz"][c] == Z_AWARD else -1
    if n < 0 or owner_of_card(state, c) != p or state["ncap"][n] >= 0 or (cards and not parliament_cards(state, p)):
        return None
    return state["nsq"][n], state["nin"][n]


def parliament_cards(state: State, p: int) -> list[int]:
    deck = event_deck(state)
    return [e for e, z in enumerate(state["ez"]) if z == E_HAND and state["eh"][e] == p and deck.cards[e].kind == "parliament"]


def event_cards_held(state: State, p: int) -> int:
    """How many Event cards ``p`` holds (a public count; which cards they are is hidden)."""
    return sum(1 for e, z in enumerate(state["ez"]) if z == E_HAND and state["eh"][e] == p)


def writs(state: State, p: int) -> list[int]:
    deck = event_deck(state)
    return [e for e, z in enumerate(state["ez"]) if z == E_HAND and state["eh"][e] == p and deck.cards[e].kind == "writ"]


def parliament_places(state: State, sq: str | None, inside: str | None) -> list[str]:
    """Places where Parliament may meet for a figure at (sq, inside) (§Calling Parliament, ruling K11)."""
    if sq is None:
        return []
    w = W(state)
    out = []
    for pl in w.board.places_at.get(sq, ()):
        place = w.board.places[pl]
        if not place_active(state, pl) or not place.parliament or pl in state["siege"]:
            continue
        if inside == pl or (inside is None and not place.fortified):
            out.append(pl)
    return out


#: The mainland a ship carrying nobles to Parliament lands on (§Calling Parliament).
MAINLAND = ("england", "wales", "scotland")


def parliament_ships(state: State, n: int) -> list[int]:
    """Parliament, step 4: the ship(s) that carry noble ``n``, on an island or in Calais, to
    Parliament: empty ships his faction controls (its own or lent to it), in port on his island
    or in Calais, together large enough for his troops (Sea Transportation: a noble's troops
    may be split between ships that travel together). The first ship large enough alone; else
    the largest ships first (ties by index) until they suffice; none if they cannot (ruling K41)."""
    w = W(state)
    b = w.board
    sq = state["nsq"][n]
    if sq is None:
        return []
    area = b.squares[sq].area
    need = noble_strength(state, n)
    empty = [s for s in range(len(w.ships)) if (pos := state["spos"][s]) in b.places and b.places[pos].area == area
             and ship_controller(state, s) == state["ch"][n] and not ship_passengers(state, s)]
    for s in empty:
        if w.ships[s].capacity >= need:
            return [s]
    chosen: list[int] = []
    room = 0
    for s in sorted(empty, key=lambda s: (-w.ships[s].capacity, s)):
        chosen.append(s)
        room += w.ships[s].capacity
        if room >= need:
            return sorted(chosen)
    return []


def parliament_ship(state: State, n: int) -> int:
    """The first of :func:`parliament_ships`, -1 if none."""
    ships = parliament_ships(state, n)
    return ships[0] if ships else -1


def landing_port(state: State, n: int, sq: str) -> str | None:
    """§Calling Parliament: where the ship carrying noble ``n`` to Parliament (in square ``sq``) ends its
    move: a friendly or unfortified port on the mainland, the nearest to the Parliament by
    land (ties by id; ruling K41)."""
    b = W(state).board
    dist = b.land_distances(sq)
    best: tuple[int, str] | None = None
    for pid in b.ports:
        pl = b.places[pid]
        if pl.area not in MAINLAND or not place_active(state, pid):
            continue
        if pl.fortified and place_owner(state, pid) != state["ch"][n]:
            continue
        d = dist.get(pl.square)
        if d is not None and (best is None or (d, pid) < best):
            best = (d, pid)
    return best[1] if best else None


def needs_ship(state: State, n: int) -> bool:
    """Whether noble ``n`` is on an island or in Calais (§Calling Parliament)."""
    b = W(state).board
    sq = state["nsq"][n]
    if sq is None:
        return False
    area = b.areas[b.squares[sq].area]
    return area.island or area.id == "pale_of_calais"


def recipients(state: State, c: int) -> list[int]:
    """Nobles (of any player) who may receive Chancery card ``c`` (§Preparing to Play limits)."""
    w = W(state)
    card = w.cards[c]
    out = []
    for n in w.nobles:
        if state["cz"][n] != Z_NOBLE or state["ncap"][n] >= 0 or (state["nsq"][n] is None and state["nship"][n] < 0):
            continue
        if card.kind == K.TITLE and noble_title(state, n):
            continue
        if card.kind == K.OFFICE and (not noble_title(state, n) or any(
                w.cards[a].kind == K.OFFICE for a in awards(state, n))):
            continue
        out.append(n)
    return out


# ---------------------------------------------------------------- why an order is refused
_P = ParamSpec("_P")


def tolerant(reason: Callable[_P, str | None]) -> Callable[_P, str | None]:
    """A step's ``why_not_<verb>`` that gives no reason (the engine's generic refusal then)
    for an argument it cannot read (a malformed order)."""
    @functools.wraps(reason)
    def checked(*args: _P.args, **kwargs: _P.kwargs) -> str | None:
        try:
            return reason(*args, **kwargs)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return None
    return checked


def noble_named(state: State, x: Any) -> int:
    """The noble card named ``x`` (in play or not), or -1."""
    w = W(state)
    if not isinstance(x, str):
        return -1
    c = w.codec.get(x)
    return c if c >= 0 and w.cards[c].is_noble else -1


def held_card(state: State, p: int, x: Any) -> int:
    """The card ``x`` if player ``p`` holds it in hand, else -1 (never says where it is)."""
    w = W(state)
    if not isinstance(x, str):
        return -1
    c = w.codec.get(x)
    return c if c >= 0 and state["cz"][c] == Z_HAND and state["ch"][c] == p else -1


def card_reason(state: State, p: int, verb: str, arg: Any, setup: bool = False) -> str | None:
    """Why a Crown card may not be placed so (§Faction, §Preparing to Play, §Crown Card Key)."""
    w = W(state)
    if verb in ("give", "assign") and isinstance(arg, list) and len(arg) == 2:
        c = held_card(state, p, arg[0])
        if c < 0:
            return f"you hold no Crown card {arg[0]!r} in hand"
        card = w.cards[c]
        if arg[1] == "faction":
            if card.kind in (K.TOWN, K.SHIP, K.ROYAL_CASTLE):
                return None
            return f"only town and ship cards are kept by the faction as a whole; {card.name} must go to a noble (§Preparing to Play)"
        n = noble_named(state, arg[1])
        if n < 0:
            return f"{arg[1]!r} is not a noble"
        if state["cz"][n] != Z_NOBLE or state["ch"][n] != p:
            return f"{card_name(w, n)} is not a noble of your faction in play"
        return award_reason(state, c, n, setup)
    if verb == "asset":
        c = held_card(state, p, arg)
        if c < 0:
            return f"you hold no Crown card {arg!r} in hand"
        if w.cards[c].kind not in (K.TOWN, K.SHIP, K.ROYAL_CASTLE):
            return f"only town and ship cards are kept by the faction as a whole; {w.cards[c].name} must go to a noble (§Preparing to Play)"
    if verb == "play":
        c = held_card(state, p, arg)
        if c < 0:
            return f"you hold no Crown card {arg!r} in hand"
        if not w.cards[c].is_noble:
            return f"{w.cards[c].name} is not a noble: it is given to a noble or to the faction (assign)"
    return None


def award_reason(state: State, c: int, n: int, setup: bool = False) -> str | None:
    """Why card ``c`` may not go to noble ``n`` (§Faction, §Preparing to Play, §Crown Card Key)."""
    w = W(state)
    card = w.cards[c]
    name = card_name(w, n)
    if state["ncap"][n] >= 0:
        return f"{name} is a captive"
    if not setup:
        if state["nship"][n] >= 0:
            return f"{name} is at sea: no card is assigned to a noble at sea (§Faction)"
        if _besieged(state, n):
            return f"{name} is under siege: no card is assigned to a noble under siege (§Faction)"
        if c in state["traded"] and (state["nfo"][n] == state["tno"] or n in state["defended"]):
            return f"{card.name} was traded this turn and {name} has fought in it (§Transfers)"
    if card.kind == K.TITLE and noble_title(state, n):
        return f"{name} already has a title: each noble has one and only one title (§Preparing to Play)"
    if card.kind == K.OFFICE:
        if not noble_title(state, n):
            return f"{name} has no title: offices go to titled nobles only (§Preparing to Play)"
        if any(w.cards[a].kind == K.OFFICE for a in awards(state, n)):
            return f"{name} already holds an office: each titled noble has one and only one (§Preparing to Play)"
    if card.lies_in == "ireland" and card.kind in (K.MERCENARY, K.BISHOP, K.TOWN, K.ROYAL_CASTLE, K.SHIP):
        lt = w.codec.get("lieutenant_of_ireland")
        if not (lt >= 0 and lt in awards(state, n)):
            return f"{card.name} goes only to the Lieutenant of Ireland (E2, §Faction)"
    if card.kind == K.FRENCH_AID:
        sq = state["nsq"][n]
        if sq is None or w.board.squares[sq].area not in ("pale_of_calais", "continent"):
            return f"{card.name} may be given only to a noble in Calais or on the Continent (§Crown Card Key)"
    return None


def offered(options: list[Action], action: Action) -> Action | None:
    """``action`` if it is one of ``options`` (a step's published default, which a lapsed
    deadline plays only when it may be played now), else None."""
    return action if action in options else None
