"""Kingmaker: the world tables (board + cards) and the state helpers every module uses.

The state is one JSON dict whose keys are explained, part by part, in ``state.py``
(``KingmakerState``): cards, heirs and ships are ints, squares and places the board's ids.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from roses.engine.codec import IdCodec
from roses.engine.contract import State
from roses.games.kingmaker import cards as K
from roses.games.kingmaker.board import Board, board_from_data, load_board
from roses.games.kingmaker.names import square_name

# ----- zones of Crown cards ------------------------------------------------------------------
Z_DECK, Z_DISC, Z_CHANC, Z_HAND, Z_NOBLE, Z_AWARD, Z_ASSET, Z_LYING, Z_REMOVED, Z_ASIDE = range(10)
ZONE_NAMES = ("deck", "discard", "chancery", "hand", "noble", "award", "asset", "lying", "removed", "aside")
# ----- zones of Event cards
E_DECK, E_DISC, E_HAND, E_USE, E_REMOVED = range(5)

HOUSES = ("lancaster", "york")
LEVEL_OF = {"basic": 0, "e1": 1, "e2": 2}


@dataclass(frozen=True)
class ShipPiece:
    id: str
    name: str
    capacity: int
    port: str
    card: int      # Crown card of a ship card, -1 for an office ship
    office: int    # office card of an office ship, -1 for a ship card


@dataclass(frozen=True)
class World:
    """The board and the card tables of one game, with derived lookups (built once)."""

    board: Board
    cards: tuple[K.CrownCard, ...]
    codec: IdCodec
    nobles: tuple[int, ...]
    heirs: tuple[K.Heir, ...]
    heir_codec: IdCodec
    ships: tuple[ShipPiece, ...]
    ship_codec: IdCodec
    ship_of_card: dict[int, int]
    office_ships: dict[int, tuple[int, ...]]
    place_cards: dict[str, tuple[int, ...]]
    places: tuple[str, ...]
    squares: tuple[str, ...]
    home: dict[int, tuple[str, ...]]
    beaufort: int
    chancellor: int
    bishops_senior: tuple[int, ...]
    refuge_areas: tuple[str, ...]
    card_places: tuple[tuple[str, ...], ...]
    cache: dict[Any, Any]

    def cid(self, name: str) -> int:
        return self.codec.id(name)

    def has_place(self, pid: str) -> bool:
        return pid in self.board.places

    def square_of(self, pid: str) -> str | None:
        """The square of a place or landmark, None if this board lacks it."""
        b = self.board
        pid = b.aliases.get(pid, pid)
        if pid in b.places:
            return b.places[pid].square
        if pid in b.landmarks:
            return b.landmarks[pid].square
        return None


@cache
def world(board_path: str | None) -> World:
    # A supplied board is checked for its format only; what the rulebook needs of a full
    # board is `roses kingmaker check-board`'s business (the engine tolerates a missing place).
    board = load_board(board_path, rulebook=False) if board_path else load_board()
    return make_world(board)


#: The worlds of boards given as data (the game option ``board`` as a JSON object), by key
#: (board.board_key). A state names its board by that key and carries the data
#: (``state["board_data"]``), so a state read back in a new process finds its board again.
_UPLOADED: dict[str, World] = {}


def uploaded_world(key: str, data: Any) -> World:
    """The world of an uploaded board, built (and checked) once per key."""
    w = _UPLOADED.get(key)
    if w is None:
        w = _UPLOADED[key] = make_world(board_from_data(data))
    return w


def make_world(board: Board) -> World:
    crown = K.crown_data()
    cards = crown.cards
    nobles = tuple(i for i, c in enumerate(cards) if c.is_noble)
    pieces: list[ShipPiece] = []
    ship_of_card: dict[int, int] = {}
    office_ships: dict[int, list[int]] = {}
    for i, c in enumerate(cards):
        if c.kind == K.SHIP:
            ship_of_card[i] = len(pieces)
            pieces.append(ShipPiece(c.id, c.name, c.capacity, c.port, i, -1))
    for s in crown.office_ships:
        o = crown.codec.id(s.office)
        office_ships.setdefault(o, []).append(len(pieces))
        pieces.append(ShipPiece(s.id, s.name, s.capacity, s.port, -1, o))
    place_cards: dict[str, list[int]] = {}
    for i, c in enumerate(cards):
        named = list(c.castles)
        if c.place:
            named.append(c.place)
        if c.cathedral:
            named.append(c.cathedral)
        for p in named:
            place_cards.setdefault(p, []).append(i)
    home = {n: tuple(p for p in cards[n].castles if p in board.places) for n in nobles}
    bishops_senior = tuple(crown.codec.id(b) for b in (
        "archbishop_of_canterbury", "archbishop_of_york", "bishop_of_durham", "bishop_of_carlisle",
        "bishop_of_lincoln", "bishop_of_norwich"))
    return World(
        board=board, cards=cards, codec=crown.codec, nobles=nobles, heirs=crown.heirs,
        heir_codec=crown.heir_codec, ships=tuple(pieces), ship_codec=IdCodec("ship", [p.id for p in pieces]),
        ship_of_card=ship_of_card, office_ships={k: tuple(v) for k, v in office_ships.items()},
        place_cards={k: tuple(v) for k, v in place_cards.items()}, places=tuple(board.places),
        squares=tuple(board.squares), home=home, beaufort=crown.codec.id("beaufort"),
        chancellor=crown.codec.id("chancellor"), bishops_senior=bishops_senior,
        refuge_areas=tuple(a.id for a in board.areas.values() if a.refuge),
        card_places=tuple(tuple(p for p, named in place_cards.items() if c in named) for c in range(len(cards))),
        cache={})


#: The optional umpire's role (umpire.py), a seat beside the players when the option is on.
UMPIRE = "umpire"


def has_umpire(state: State) -> bool:
    return bool(state["opts"].get("umpire"))


def tabletop_on(state: State) -> bool:
    """Whether the umpire decides, before each combat, if it is fought on a table (§Battle)."""
    return has_umpire(state) and bool(state["opts"].get("tabletop"))


def W(state: State) -> World:
    key = state["board"]
    if key is not None and key.startswith("upload:"):
        return _UPLOADED.get(key) or uploaded_world(key, state["board_data"])
    return world(key)


def level(state: State) -> int:
    lv: int = state["level"]
    return lv


# ----- names -----------------------------------------------------------------------------------
def card_name(w: World, c: int) -> str:
    card = w.cards[c]
    if card.kind == K.PLANTAGENET:
        return f"Plantagenet ({card.title})"
    return card.name


def place_name(w: World, p: str | None) -> str:
    if p is None:
        return "the open"
    pl = w.board.places.get(p)
    return pl.name if pl else square_name(w.board, p)  # a square in words, never its grid id


def role_of(state: State, p: int) -> str:
    r: str = state["roles"][p]
    return r


def player_of_role(state: State, role: str) -> int:
    try:
        i: int = state["roles"].index(role)
        return i
    except ValueError:
        return -1


# ----- cards and factions --------------------------------------------------------------------
def owner_of_card(state: State, c: int) -> int:
    """The player whose faction a Crown card belongs to (-1 if none): a noble in play, an award
    (through its noble), an asset or a hand card."""
    z = state["cz"][c]
    if z in (Z_NOBLE, Z_ASSET, Z_HAND):
        o: int = state["ch"][c]
        return o
    if z == Z_AWARD:
        n = state["ch"][c]
        if state["cz"][n] == Z_NOBLE:
            o2: int = state["ch"][n]
            return o2
    return -1


def faction_nobles(state: State, p: int) -> list[int]:
    """The nobles in play of player ``p`` (captives included: they belong to p until ransom
    or execution)."""
    cz, ch = state["cz"], state["ch"]
    return [n for n in W(state).nobles if cz[n] == Z_NOBLE and ch[n] == p]


def free_nobles(state: State, p: int) -> list[int]:
    ncap = state["ncap"]
    return [n for n in faction_nobles(state, p) if ncap[n] < 0]


def commander_of(state: State, n: int) -> int:
    """The allied commander noble ``n`` serves under (§Alliances), -1 if none: he must be in
    play, allied, free and beside him (nobles who separate leave his command)."""
    c = state["command"].get(str(n), -1)
    if c < 0 or state["cz"][c] != Z_NOBLE or state["ncap"][c] >= 0 or state["ncap"][n] >= 0:
        return -1
    if (state["nsq"][c], state["nin"][c], state["nship"][c]) != (state["nsq"][n], state["nin"][n], state["nship"][n]):
        return -1
    if not allied(state, state["ch"][c], state["ch"][n]):
        return -1
    return c


def controlled_nobles(state: State, p: int) -> list[int]:
    """The free nobles player ``p`` moves and fights: his own not under an ally's command, and
    allies' nobles under one of his commanders (§Alliances)."""
    cz, ch, ncap = state["cz"], state["ch"], state["ncap"]
    out = []
    for n in W(state).nobles:
        if cz[n] != Z_NOBLE or ncap[n] >= 0:
            continue
        c = commander_of(state, n) if state["command"] else -1
        who = ch[c] if c >= 0 else ch[n]
        if who == p:
            out.append(n)
    return out


def awards(state: State, n: int) -> list[int]:
    ch = state["ch"]
    return [c for c, z in enumerate(state["cz"]) if z == Z_AWARD and ch[c] == n]


def has_award_kind(state: State, n: int, kind: str) -> bool:
    cards = W(state).cards
    return any(cards[c].kind == kind for c in awards(state, n))


def noble_title(state: State, n: int) -> bool:
    """Whether noble ``n`` is titled (printed title or an awarded title card)."""
    w = W(state)
    return w.cards[n].titled or has_award_kind(state, n, K.TITLE)


def holder_of(state: State, c: int) -> int:
    """The noble an award card ``c`` is on, -1 if it is not an award."""
    if state["cz"][c] == Z_AWARD:
        h: int = state["ch"][c]
        return h
    return -1


def office_holder(state: State, office_id: str) -> int:
    """The noble holding an office (or any card) by id, -1 if none in play."""
    w = W(state)
    c = w.codec.get(office_id)
    if c < 0:
        return -1
    n = holder_of(state, c)
    if n >= 0 and state["cz"][n] == Z_NOBLE:
        return n
    return -1


# ----- positions ---------------------------------------------------------------------------------
def on_board(state: State, n: int) -> bool:
    return state["cz"][n] == Z_NOBLE and (state["nsq"][n] is not None or state["nship"][n] >= 0)


def at_sea(state: State, n: int) -> bool:
    return state["nship"][n] >= 0


def noble_loc(state: State, n: int) -> tuple[str | None, str | None]:
    """(square, place inside) of a noble on land; (None, None) at sea or off the board."""
    return state["nsq"][n], state["nin"][n]


def nobles_at(state: State, sq: str, inside: str | None = "any") -> list[int]:
    """Nobles in play on square ``sq``; ``inside``: "any", None (the open) or a place id."""
    nsq, nin, cz = state["nsq"], state["nin"], state["cz"]
    out = []
    for n in W(state).nobles:
        if cz[n] == Z_NOBLE and nsq[n] == sq and (inside == "any" or nin[n] == inside):
            out.append(n)
    return out


def heir_loc(state: State, h: int) -> tuple[str | None, str | None, int]:
    """(square, place, ship) of an heir (following the escort of a captured heir)."""
    e = state["hesc"][h]
    if e >= 0:
        return state["nsq"][e], state["nin"][e], state["nship"][e]
    return state["hsq"][h], state["hin"][h], state["hship"][h]


def heir_controller(state: State, h: int) -> int:
    e = state["hesc"][h]
    if e < 0 or state["hdead"][h]:
        return -1
    return owner_of_card(state, e)


def heirs_of(state: State, p: int) -> list[int]:
    return [h for h in range(len(state["hesc"])) if not state["hdead"][h] and heir_controller(state, h) == p]


def escorted_by(state: State, n: int) -> list[int]:
    hesc, hdead = state["hesc"], state["hdead"]
    return [h for h in range(len(hesc)) if hesc[h] == n and not hdead[h]]


def leave_heir_alone(state: State, h: int) -> None:
    """An heir loses its escort: it stays where the escort was (§Capture of Royal Heirs: no longer captured)."""
    sq, pl, sh = heir_loc(state, h)
    state["hsq"][h], state["hin"][h], state["hship"][h] = sq, pl, sh
    state["hesc"][h] = -1


# ----- ships ---------------------------------------------------------------------------------------
def ship_controller(state: State, s: int) -> int:
    """Who moves ship ``s``: a temporary controller (§Sea Transportation), else the holder of its card or office."""
    w = W(state)
    t = state["sctl"][s]
    if t >= 0:
        return int(t)
    piece = w.ships[s]
    c = piece.card if piece.card >= 0 else piece.office
    return owner_of_card(state, c)


def ship_passengers(state: State, s: int) -> list[int]:
    nship, cz = state["nship"], state["cz"]
    return [n for n in W(state).nobles if cz[n] == Z_NOBLE and nship[n] == s]


def is_port_pos(pos: str | None, w: World) -> bool:
    return pos is not None and pos in w.board.places


# ----- places --------------------------------------------------------------------------------------
def place_owner(state: State, p: str) -> int:
    """The player who controls place ``p``, -1 if neutral (§Faction, §Transfers): a captured place
    belongs to its captor; otherwise the faction holding a card naming it (a town card, or a
    castle/see printed on a noble, title, office or bishop card) controls it."""
    own = state["pown"].get(p)
    if own is not None:
        return int(own)
    for c in W(state).place_cards.get(p, ()):
        o = owner_of_card(state, c)
        if o >= 0 and state["cz"][c] != Z_HAND:
            return o
    return -1


def allied(state: State, a: int, b: int) -> bool:
    if a == b:
        return True
    return bool(state["ally"][a][b])


def friendly(state: State, p: str, player: int) -> bool:
    o = place_owner(state, p)
    return o >= 0 and o == player


# ----- strength ------------------------------------------------------------------------------------
def catastrophe(state: State) -> bool:
    return bool(state["catastrophe"])


def noble_strength(state: State, n: int, attack: bool = False, sq: str | None = None,
                   amap: dict[int, list[int]] | None = None) -> int:
    """Troops of noble ``n`` (§Faction, Crown Card Key): his card, his title, office, bishop
    and mercenary cards, regional bonuses where he stands; in attack (E1) +20 per town card
    awarded to him (Bristol +30) inside England. Catastrophe (E1) suspends the troops of
    titles, offices and bishoprics (not a titled noble's own troops)."""
    w = W(state)
    cards = w.cards
    total = cards[n].troops
    where = sq if sq is not None else state["nsq"][n]
    cat = catastrophe(state)
    board = w.board
    zones = board.squares[where].zones if where is not None else frozenset()
    in_england = where is not None and board.areas[board.squares[where].area].england
    lv = state["level"]
    fresh = state["fresh"]
    for c in (amap.get(n, ()) if amap is not None else awards(state, n)):
        if fresh and c in fresh:
            continue  # §Transfers: a transferred card is not used in the turn of transfer
        card = cards[c]
        k = card.kind
        if k in (K.TITLE, K.OFFICE, K.BISHOP):
            if cat:
                continue
            total += card.troops
            if card.bonus_zone and card.bonus_zone in zones:
                total += card.bonus_troops
        elif k == K.MERCENARY:
            if card.lies_in == "ireland":
                # Irish Kerns (E2, §Faction): 50 of the Lieutenant's 200, usable only outside
                # Ireland (ruling K4): in Ireland the office's +200 already counts them.
                if "ireland" not in zones:
                    total += card.troops
            else:
                total += card.troops
        elif k == K.FRENCH_AID:
            total += card.troops
        elif k == K.TOWN and attack and lv >= 1 and in_england:
            total += card.attack
    return total


def strength(state: State, nobles: Iterable[int], attack: bool = False) -> int:
    return sum(noble_strength(state, n, attack) for n in nobles)


# ----- heirs and kings ---------------------------------------------------------------------------
def live_heirs(state: State, house: str | None = None) -> list[int]:
    w = W(state)
    return [h for h, d in enumerate(w.heirs) if not state["hdead"][h] and (house is None or d.house == house)]


def senior_heir(state: State, house: str) -> int:
    w = W(state)
    alive = [h for h in live_heirs(state, house)]
    if not alive:
        return -1
    return min(alive, key=lambda h: w.heirs[h].rank)


def kings(state: State) -> list[int]:
    """Crowned heirs alive (and Beaufort, -2, when crowned and alive)."""
    out = [h for h in range(len(state["hdead"])) if state["hcrown"][h] and not state["hdead"][h]]
    if state["beaufort_crowned"] and on_board(state, W(state).beaufort):
        out.append(-2)
    return out


def sole_king(state: State) -> int | None:
    """The sole King (heir index, -2 for Beaufort), None if there are none or two (unless
    Parliament has supported one, §Voting on Cards Distributed)."""
    ks = kings(state)
    if len(ks) == 1:
        return ks[0]
    sup = state.get("supported")
    if len(ks) == 2 and sup is not None and sup in ks:
        return int(sup)
    return None


def may_hold(state: State, p: int, h: int) -> bool:
    """§Victory Conditions: once Beaufort is crowned his faction may not control a Yorkist heir."""
    if not state["beaufort_crowned"] or W(state).heirs[h].house != "york":
        return True
    return owner_of_card(state, W(state).beaufort) != p


def king_controller(state: State, k: int) -> int:
    if k == -2:
        return owner_of_card(state, W(state).beaufort)
    return heir_controller(state, k)


# ----- geometry helpers ----------------------------------------------------------------------------
def nearest(state: State, start: str, ok: Any) -> list[str]:
    """The places nearest to square ``start`` by land steps for which ``ok(place)`` holds
    (all of them at the smallest distance; empty when none is reachable)."""
    b = W(state).board
    dist = {start: 0}
    todo = deque([start])
    found: list[str] = []
    best = None
    while todo:
        s = todo.popleft()
        d = dist[s]
        if best is not None and d > best:
            break
        for p in b.places_at.get(s, ()):
            if ok(p):
                found.append(p)
                best = d
        for t, _ in b.land_steps[s]:
            if t not in dist:
                dist[t] = d + 1
                todo.append(t)
    return sorted(found)


def refuge_area(state: State, sq: str) -> str | None:
    """The refuge area of a square (E1 §Refuges), None outside refuges (E2: Ireland is none, §Refuges)."""
    b = W(state).board
    a = b.areas[b.squares[sq].area]
    if not a.refuge:
        return None
    if a.id == "ireland" and state["level"] >= 2:
        return None
    return a.id


def data_path(path: str | Path | None) -> str | None:
    return None if path is None else str(Path(path).resolve())
