"""Kingmaker state changes shared by setup, the turn, events and combat: putting counters on
the board, drawing cards, deaths, captures, heirs and place control. Rule references name sections of
the campaign rules (``§<heading>``, rulebook.py) and rulings of RULINGS.md (K<n>)."""

from __future__ import annotations

from roses.engine import log, rng
from roses.engine.contract import State, mark_reveal
from roses.games.kingmaker import cards as K
from roses.games.kingmaker.common import (
    E_DECK,
    E_DISC,
    E_HAND,
    LEVEL_OF,
    Z_ASIDE,
    Z_ASSET,
    Z_AWARD,
    Z_CHANC,
    Z_DECK,
    Z_DISC,
    Z_NOBLE,
    Z_REMOVED,
    W,
    awards,
    card_name,
    escorted_by,
    faction_nobles,
    heir_controller,
    heir_loc,
    leave_heir_alone,
    may_hold,
    nearest,
    owner_of_card,
    place_name,
    place_owner,
    role_of,
    senior_heir,
    ship_passengers,
)


def place_active(state: State, pid: str) -> bool:
    """Whether a board place exists in this game (Dublin only with E2, §Refuges)."""
    pl = W(state).board.places.get(pid)
    return pl is not None and LEVEL_OF[pl.level] <= state["level"]


# ----- counters ---------------------------------------------------------------------------------
def put_noble(state: State, n: int, sq: str | None, inside: str | None) -> None:
    state["nsq"][n] = sq
    state["nin"][n] = inside
    state["nship"][n] = -1


def lift_off(state: State, n: int) -> None:
    state["nsq"][n] = None
    state["nin"][n] = None
    state["nship"][n] = -1


def enter_play(state: State, n: int) -> None:
    """A noble card played from the hand (§Crown Deck Phase): his counter enters at one of his castles if
    friendly, else at the nearest friendly town, city or castle; with none, in the open of
    his first castle's square (ruling K37)."""
    w = W(state)
    p = state["ch"][n]
    homes = [c for c in w.home.get(n, ()) if place_active(state, c)]
    for c in homes:
        if place_owner(state, c) == p:
            put_noble(state, n, w.board.places[c].square, c)
            return
    start = w.board.places[homes[0]].square if homes else next(iter(w.board.squares))
    near = nearest(state, start, lambda pl: place_active(state, pl) and place_owner(state, pl) == p)
    if near:
        put_noble(state, n, w.board.places[near[0]].square, near[0])
    elif homes:
        put_noble(state, n, start, None)
    else:
        put_noble(state, n, start, None)


def ship_to_port(state: State, s: int) -> None:
    """A ship counter is placed in its home port (§Setting out Counters; an office's ships with the office)."""
    w = W(state)
    port = w.ships[s].port
    if place_active(state, port):
        state["spos"][s] = port
    state["sctl"][s] = -1
    state["lent"].pop(w.ships[s].id, None)


def touch_port(state: State, s: int) -> None:
    """A ship touching port goes back to its owner's control (§Sea Transportation), or stays with the player
    it is lent to (§Transfers)."""
    lent = state["lent"].get(W(state).ships[s].id)
    state["sctl"][s] = lent[1] if lent else -1


def ship_off(state: State, s: int) -> None:
    state["blockades"].pop(W(state).ships[s].id, None)
    state["spos"][s] = None
    state["sctl"][s] = -1
    state["lent"].pop(W(state).ships[s].id, None)


# ----- decks -------------------------------------------------------------------------------------
def draw_crown(state: State) -> int:
    """The top Crown card (-1 if the deck and its discard are both empty). An empty deck is
    made again from the shuffled discard (ruling K38)."""
    if not state["cdeck"]:
        if not state["cdisc"]:
            return -1
        state["cdeck"] = state["cdisc"]
        state["cdisc"] = []
        for x in state["cdeck"]:
            state["cz"][x] = Z_DECK
        state["tdisc"] = []
        rng.shuffle(state, state["cdeck"])
        log.public(state, "The Crown deck is made again from its shuffled discard pile.", log.CARD)
    c: int = state["cdeck"].pop()
    mark_reveal(state)
    return c


def discard_crown(state: State, c: int) -> None:
    state["cz"][c], state["ch"][c] = Z_DISC, -1
    state["cdisc"].append(c)


def remove_crown(state: State, c: int) -> None:
    """A Crown card leaves play for good, from whatever pile or holder it was in."""
    for pile in ("cdeck", "cdisc", "chancery", "tdisc"):
        if c in state[pile]:
            state[pile].remove(c)
    state["cz"][c], state["ch"][c] = Z_REMOVED, -1


def to_chancery(state: State, c: int) -> None:
    state["cz"][c], state["ch"][c] = Z_CHANC, -1
    state["chancery"].append(c)


def draw_event(state: State) -> int:
    """The top Event card; the discard is reshuffled when the deck is empty (§Preparing to Play)."""
    if not state["edeck"]:
        state["edeck"] = state["edisc"]
        state["edisc"] = []
        for x in state["edeck"]:
            state["ez"][x] = E_DECK
        rng.shuffle(state, state["edeck"])
        log.public(state, "The Event deck is reshuffled.", log.CARD)
    e: int = state["edeck"].pop()
    mark_reveal(state)
    return e


def discard_event(state: State, e: int) -> None:
    state["ez"][e], state["eh"][e] = E_DISC, -1
    state["edisc"].append(e)


def event_to_hand(state: State, e: int, p: int) -> None:
    state["ez"][e], state["eh"][e] = E_HAND, p


def reshuffle_crown_with_discard(state: State) -> None:
    """E1 (§Chance Phase): on an Embassy card the whole Crown deck is reshuffled with its discard."""
    for c in state["cdisc"]:
        state["cz"][c] = Z_DECK
    state["tdisc"] = []
    state["cdeck"].extend(state["cdisc"])
    state["cdisc"] = []
    rng.shuffle(state, state["cdeck"])


# ----- deaths -----------------------------------------------------------------------------------
def release_awards(state: State, n: int) -> None:
    """A dead or executed noble's awards (§Nobles Killed, §Transfers, ruling K20): titles, offices and
    bishoprics to Chancery; town, ship and mercenary cards to the Crown discard."""
    w = W(state)
    for c in awards(state, n):
        kind = w.cards[c].kind
        if kind in (K.TITLE, K.OFFICE, K.BISHOP):
            to_chancery(state, c)
        else:
            discard_crown(state, c)
        card_leaves(state, c)


def card_leaves(state: State, c: int) -> None:
    """Side effects of a card leaving its faction: its ship counters leave the board (office
    ships with the office), carried passengers excepted (§Sea Transportation: the ship stays under its
    controller until it next touches port)."""
    w = W(state)
    ships = []
    if c in w.ship_of_card:
        ships.append(w.ship_of_card[c])
    ships.extend(w.office_ships.get(c, ()))
    for s in ships:
        pos = state["spos"][s]
        if pos is not None and pos not in w.board.places and ship_passengers(state, s):
            # at sea with passengers: the old controller keeps it until port (§Sea Transportation)
            old = owner_of_card(state, ship_passengers(state, s)[0])
            state["sctl"][s] = old
        else:
            ship_off(state, s)


def kill_noble(state: State, n: int, why: str) -> None:
    """A noble dies (§Nobles Killed) or is executed (§Transfers): counter off, card to the Crown discard,
    awards to their piles; heirs he escorted pass to a fellow noble beside him or are left
    alone; the Chancellor's death discards the Parliament cards (Event Card Key)."""
    w = W(state)
    p = state["ch"][n]
    log.public(state, f"{card_name(w, n)} {why}.", log.BATTLE)
    chancellor_dies = state["cz"][w.chancellor] == Z_AWARD and state["ch"][w.chancellor] == n
    sq, inside, ship = state["nsq"][n], state["nin"][n], state["nship"][n]
    for h in escorted_by(state, n):
        mates = [m for m in faction_nobles(state, p) if m != n and state["ncap"][m] < 0
                 and state["nsq"][m] == sq and state["nin"][m] == inside and state["nship"][m] == ship]
        if mates:
            state["hesc"][h] = mates[0]
        else:
            leave_heir_alone(state, h)
    release_awards(state, n)
    lift_off(state, n)
    state["ncap"][n] = -1
    discard_crown(state, n)
    if n == w.beaufort:
        if state["beaufort_crowned"]:
            # E2 Breaking a Treaty (a): "the king dies", a crowned Beaufort as any King.
            state["treaty"] = -1
            if state.get("supported") == -2:
                state["supported"] = None
        state["beaufort_crowned"] = False
    if chancellor_dies:
        for e, z in enumerate(state["ez"]):
            if z == E_HAND and _event_kind(state, e) == "parliament":
                discard_event(state, e)
    del p


def _event_kind(state: State, e: int) -> str:
    return K.deck_for(state["deck_key"], state["deck_data"]).cards[e].kind


def kill_heir(state: State, h: int, why: str) -> None:
    """An heir dies (plague, Royal Death, execution...). The Plantagenet card of his house
    follows the succession (§Crown Card Key, ruling K5); a King's death ends the Treaty (E2, §Breaking a Treaty)."""
    w = W(state)
    if state["hdead"][h]:
        return
    was_king = state["hcrown"][h]
    state["hdead"][h] = True
    state["hesc"][h] = -1
    state["hsq"][h] = state["hin"][h] = None
    state["hship"][h] = -1
    log.public(state, f"{w.heirs[h].name} {why}.", log.POLITICAL)
    if was_king:
        state["hcrown"][h] = False
        state["treaty"] = -1
        if state.get("supported") == h:
            state["supported"] = None
    plantagenet_follow(state, w.heirs[h].house)


def plantagenet_follow(state: State, house: str) -> None:
    """§Crown Card Key (ruling K5): the Plantagenet card of ``house`` belongs to the faction controlling
    that house's senior living heir; it comes into play (at the heir's place) when a faction
    first controls him and passes, with its awards, to the controller of the next heir when
    the senior heir dies. With no controlled senior heir it stays where it is."""
    w = W(state)
    c = w.cid("plantagenet_" + house)
    h = senior_heir(state, house)
    if h < 0:
        return
    ctl = heir_controller(state, h)
    if ctl < 0:
        return
    z = state["cz"][c]
    if z == Z_ASIDE or (z == Z_NOBLE and state["ch"][c] != ctl):
        sq, inside, ship = heir_loc(state, h)
        if z == Z_NOBLE:
            for hh in escorted_by(state, c):
                leave_heir_alone(state, hh)
        state["cz"][c], state["ch"][c] = Z_NOBLE, ctl
        state["ncap"][c] = -1
        if ship >= 0:
            state["nsq"][c], state["nin"][c], state["nship"][c] = None, None, ship
        else:
            put_noble(state, c, sq, inside)
        log.public(state, f"{card_name(w, c)} joins {role_of(state, ctl)}, who controls "
                   f"{w.heirs[h].name}.", log.POLITICAL)


# ----- capture -------------------------------------------------------------------------------------
def capture_heirs(state: State, p: int, sq: str | None, inside: str | None, ship: int = -1) -> None:
    """§Capture of Royal Heirs: a faction captures an uncontrolled heir where one of its nobles stands (same open
    area or same place) at the end of a move."""
    w = W(state)
    mates = [n for n in faction_nobles(state, p) if state["ncap"][n] < 0 and state["nsq"][n] == sq
             and state["nin"][n] == inside and state["nship"][n] == ship]
    if not mates:
        return
    for h in range(len(w.heirs)):
        if state["hdead"][h] or state["hesc"][h] >= 0:
            continue
        if ((state["hsq"][h], state["hin"][h], state["hship"][h]) == (sq, inside, ship) and (sq is not None or ship >= 0)
                and may_hold(state, p, h)):
            state["hesc"][h] = mates[0]
            log.public(state, f"{role_of(state, p)} captures {w.heirs[h].name} "
                       f"({card_name(w, mates[0])}, {place_name(w, inside) if sq else 'at sea'}).",
                       log.POLITICAL)
            if state["both_since"][p] < 0 and controls_both_houses(state, p):
                state["both_since"][p] = state["round"]
            plantagenet_follow(state, w.heirs[h].house)


def controls_both_houses(state: State, p: int) -> bool:
    w = W(state)
    houses = {w.heirs[h].house for h in range(len(w.heirs)) if heir_controller(state, h) == p}
    return len(houses) == 2


def set_place_owner(state: State, place: str, p: int) -> None:
    rogue = state.get("rogue")
    if rogue and rogue["place"] == place:
        state["rogue"] = None  # E2 French Treachery: the sacked town is retaken
    state["pown"][place] = p
    state["siege"].pop(place, None)
    state["guests"].pop(place, None)
    # §Transfers: a town card goes to the faction that captures its town. A town lost to nobody (the
    # Scots of Scots Invasion, a sacked town) is no faction's capture: the card stays where it
    # is (ruling K75).
    if p < 0:
        return
    w = W(state)
    for c in w.place_cards.get(place, ()):
        card = w.cards[c]
        if (card.kind == K.TOWN and card.place == place and state["cz"][c] in (Z_ASSET, Z_AWARD)
                and owner_of_card(state, c) != p):
            state["cz"][c], state["ch"][c] = Z_ASSET, p
            log.public(state, f"The {card.name} town card passes to {role_of(state, p)}.", log.POLITICAL)


def nearest_land(state: State, sea_sq: str) -> str:
    """The land square nearest sea square ``sea_sq`` (breadth first over the 8 neighbours,
    ties by square id), where nobles from a ship that leaves play are put ashore."""
    b = W(state).board
    seen = {sea_sq}
    todo = [sea_sq]
    while todo:
        nxt = []
        for s in todo:
            for t in b.neighbours[s]:
                if b.squares[t].land:
                    return t
                if t not in seen:
                    seen.add(t)
                    nxt.append(t)
        todo = sorted(nxt)
    return sea_sq


def free_captive(state: State, n: int, why: str) -> None:
    """A ransomed, released or pardoned noble returns to his owner with his titles and offices
    (§Capture of Noble Counters), in the open of the square where he was taken (ruling K26)."""
    state["ncap"][n] = -1
    state["nin"][n] = None
    state["nact"][n] = state["tno"]
    if state["nship"][n] >= 0:
        # E1 (§Capture of Noble Counters): freed at sea, they keep the ship they are on until it touches port.
        state["sctl"][state["nship"][n]] = state["ch"][n]
    log.public(state, why + ".", log.BATTLE)
