"""Kingmaker events (§Event Card Key; the Chance phase §Chance Phase).

:func:`chance` draws the top Event card for the current player and resolves it. Events that
ask a player something push a step: the port of a storm-driven ship when two are equally
close (``port`` place, default: the first), the destination of a noble called to two places
(``go`` place, default: the first), the Treachery picks of the player on the drawer's left
(``pick`` slot, face down, default: the first slot).
"""

from __future__ import annotations

from typing import Any

from roses.engine import log, rng
from roses.engine.contract import Action, State
from roses.engine.steps import Frame, Step, pop, push, push_all
from roses.games.kingmaker import cards as K
from roses.games.kingmaker import ops, parliament
from roses.games.kingmaker.common import (
    E_HAND,
    E_REMOVED,
    E_USE,
    Z_ASSET,
    Z_AWARD,
    Z_DISC,
    Z_LYING,
    Z_NOBLE,
    W,
    awards,
    card_name,
    escorted_by,
    faction_nobles,
    free_nobles,
    heir_loc,
    heirs_of,
    king_controller,
    nearest,
    noble_strength,
    owner_of_card,
    place_name,
    place_owner,
    refuge_area,
    role_of,
    senior_heir,
    ship_controller,
    ship_passengers,
    sole_king,
)
from roses.games.kingmaker.ops import place_active
from roses.games.kingmaker.queries import besieged_inside, event_deck, hand, offered
from roses.games.kingmaker.wording import Labelled

#: Areas whose nobles cannot answer a summons (Raid and Revolt, Embassy notes).
FAR_AREAS = ("pale_of_calais", "ireland", "scotland", "continent")

#: Royal Death table (§Royal Death Table): 2d6 -> heir id.
ROYAL_DEATH = {2: "edmund_of_rutland", 3: "richard_of_gloucester", 4: "edmund_of_rutland", 5: "margaret",
               6: "richard_of_york", 7: "henry_vi", 8: "edward_of_march", 9: "george_of_clarence",
               10: "edward_of_lancaster", 11: "richard_of_gloucester", 12: "edward_of_lancaster"}



class Chance(Step):
    """§Chance Phase: the top Event card is drawn and its event resolved."""

    name = "chance"
    phase = "chance"

    def run(self, state: State, frame: Frame) -> None:
        pop(state)
        chance(state, frame["p"])


def title(card: K.EventCard) -> str:
    names = {"storms": "Storms at Sea", "raid": "Raid and Revolt", "mercs_home": "Mercenaries Go Home",
             "parliament_summoned": "Parliament Must Be Summoned", "writ": "Writ of Summons to Parliament",
             "gales": "Gales at Sea", "vacillating": "Vacillating Allegiance", "royal_death": "Royal Death"}
    base = names.get(card.kind, card.kind.replace("_", " ").title())
    return f"{base}: {card.name}" if card.name else base


def chance(state: State, p: int) -> None:
    """§Chance Phase: draw and resolve (played cards go to the discard, §Preparing to Play)."""
    e = ops.draw_event(state)
    card = event_deck(state).cards[e]
    role = role_of(state, p)
    kind = card.kind
    if kind in ("writ", "free_move", "refuge"):
        ops.event_to_hand(state, e, p)
        log.public(state, f"{role} draws an Event card and keeps it.", log.EVENT)
        log.private(state, role, f"You keep {title(card)}"
                    + (f" ({card.turns} turns)" if kind == "refuge" else "") + ".", log.EVENT)
        return
    log.public(state, f"{role} draws {title(card)}" + (f" ({place_name(W(state), card.place)})" if card.place else "")
               + ".", log.EVENT)
    HANDLERS[kind](state, p, e, card)  # every kind of cards.EVENT_KINDS has a handler (test)


# ----------------------------------------------------------------------------- the events
def plague(state: State, p: int, e: int, card: K.EventCard) -> None:
    """Everyone inside the named town or city dies; ships in port are spared; never in
    Ireland, Scotland or a castle (Event Card Key)."""
    w = W(state)
    ops.discard_event(state, e)
    pl = card.place
    if not place_active(state, pl):
        return
    place = w.board.places[pl]
    if place.type == "castle" or place.area in ("ireland", "scotland") and not card.dublin:
        return
    for n in list(w.nobles):
        if state["cz"][n] == Z_NOBLE and state["nin"][n] == pl:
            ops.kill_noble(state, n, f"dies of the plague in {place.name}")
    for h in range(len(w.heirs)):
        if not state["hdead"][h]:
            sq, inside, ship = heir_loc(state, h)
            if inside == pl and ship < 0:
                ops.kill_heir(state, h, f"dies of the plague in {place.name}")
    rogue = state.get("rogue")
    if rogue and rogue["place"] == pl:
        state["rogue"] = None
        log.public(state, "The rogue French mercenaries die of the plague.", log.EVENT)


def storms(state: State, p: int, e: int, card: K.EventCard) -> None:
    """Every ship at sea goes to its closest port (ties: its controller chooses; E1: a refuge
    port only when it is the only closest, §Refuges)."""
    ops.discard_event(state, e)
    w = W(state)
    frames = []
    for s in range(len(w.ships)):
        pos = state["spos"][s]
        if pos is None or pos in w.board.places:
            continue
        ports = closest_ports(state, pos)
        if not ports:
            continue
        if len(ports) == 1 or ship_controller(state, s) < 0:
            driven_to_port(state, s, ports[0])
        else:
            frames.append({"step": "storm_port", "s": s, "ports": ports})
    if frames:
        push_all(state, frames)


def closest_ports(state: State, sea_sq: str) -> list[str]:
    w = W(state)
    dist = {pt: d for pt, d in w.board.port_distances(sea_sq).items() if place_active(state, pt)}
    if not dist:
        return []
    best = min(dist.values())
    ports = sorted(pt for pt, d in dist.items() if d == best)
    if state["level"] >= 1 and len(ports) > 1:
        plain = [pt for pt in ports if refuge_area(state, w.board.places[pt].square) is None]
        if plain:
            ports = plain
    return ports


def driven_to_port(state: State, s: int, port: str) -> None:
    """A ship driven into port by an event; its passengers land in the open and must besiege
    a neutral or unfriendly port if they can (§Sea Transportation)."""
    w = W(state)
    state["spos"][s] = port
    state["blockades"].pop(w.ships[s].id, None)
    ops.touch_port(state, s)
    log.public(state, f"The {w.ships[s].name} is driven into {place_name(w, port)}.", log.EVENT)
    sq = w.board.places[port].square
    area = refuge_area(state, sq) if state["level"] >= 1 else None
    for n in ship_passengers(state, s):
        ops.put_noble(state, n, sq, None)
        if area is not None:
            # E1 §Town Acquisition (ruling K63): trapped there by a storm, no penalty, but out at the first
            # opportunity: by the end of his player's next turn.
            state["raiders"].append([n, area, state["tno"]])


class StormPort(Labelled):
    """A storm-driven ship's controller picks among equally close ports (default: the first)."""

    name = "storm_port"
    phase = "chance"
    always_decides = True
    rule = "Storms at Sea, §Event Card Key"
    labels = {"port": "driven into port at {}"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The first option (the published default)."""
        opts = self.options(state, frame, role)
        return opts[0] if opts else None

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, ship_controller(state, frame["s"]))]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("port", pt) for pt in frame["ports"]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        return f"Storm: into which port is the {w.ships[frame['s']].name} driven? (default: the first)"

    def on_port(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        driven_to_port(state, frame["s"], arg)


def can_answer(state: State, n: int) -> bool:
    """Raid and Revolt notes: not at sea, on an island, under siege, captive, or in Calais,
    Ireland, Scotland or the Continent."""
    if state["cz"][n] != Z_NOBLE or state["ncap"][n] >= 0 or state["nship"][n] >= 0:
        return False
    sq = state["nsq"][n]
    if sq is None or besieged_inside(state, n):
        return False
    b = W(state).board
    area = b.areas[b.squares[sq].area]
    return not (area.island or area.id in FAR_AREAS)


def called_noble(state: State, cid: str) -> int:
    """The noble a called card means: the noble himself, or the holder of a title, office or
    bishopric (§Event Card Key)."""
    w = W(state)
    c = w.codec.get(cid)
    if c < 0:
        return -1
    if w.cards[c].is_noble:
        return c if state["cz"][c] == Z_NOBLE else -1
    if state["cz"][c] == Z_AWARD:
        n: int = state["ch"][c]
        return n
    return -1


def send_to(state: State, n: int, place: str) -> None:
    """A summoned noble goes to ``place``: inside if friendly, else in the open (ruling K24);
    heirs he escorts go with him."""
    w = W(state)
    if not place_active(state, place):
        sq = w.square_of(place)
        if sq is None:
            return
        ops.put_noble(state, n, sq, None)
    else:
        pl = w.board.places[place]
        inside = place if place_owner(state, place) == state["ch"][n] else None
        ops.put_noble(state, n, pl.square, inside)
    log.public(state, f"{card_name(w, n)} answers the summons to {place_name(w, place)}.", log.EVENT)
    ops.capture_heirs(state, state["ch"][n], state["nsq"][n], state["nin"][n])


def raid(state: State, p: int, e: int, card: K.EventCard) -> None:
    """Raid and Revolt: the named nobles and holders of named cards go to the place at once."""
    ops.discard_event(state, e)
    w = W(state)
    if card.ireland:
        kerns = w.codec.get("irish_kerns")
        if kerns >= 0 and state["cz"][kerns] in (Z_AWARD, Z_LYING):
            ops.discard_crown(state, kerns)  # E2 §Faction: the Kerns go
    seen: list[int] = []
    for cid in card.called:
        n = called_noble(state, cid)
        if n >= 0 and n not in seen:
            seen.append(n)
    if card.french:
        state["treaty"] = -1  # E2 §Breaking a Treaty: a French Raid ends the Treaty
    if seen:
        push(state, {"step": "summons", "place": card.place, "queue": seen, "asking": -1, "min": 0})


def writs_of(state: State, q: int) -> list[int]:
    deck = event_deck(state)
    return [x for x, z in enumerate(state["ez"]) if z == E_HAND and state["eh"][x] == q and deck.cards[x].kind == "writ"]


def substitutes(state: State, n: int, least: int, place: str) -> list[int]:
    """§Chance Phase: nobles of the summoned noble's player, free to answer, at least as strong
    as he is (French Siege: at least 50), who may be commissioned with a Writ."""
    q = state["ch"][n]
    need = max(least, noble_strength(state, n)) if least == 0 else least
    return [m for m in free_nobles(state, q) if m != n and can_answer(state, m) and noble_strength(state, m) >= need]


class Summons(Labelled):
    """Raid and Revolt (and French Siege): each summoned noble answers in turn; his player
    may instead commission substitutes with a Writ (§Chance Phase; ruling K60: one noble at least
    as strong, one Writ per summoned noble). Default: the noble himself answers; one who
    cannot answer (at sea, besieged...) is asked only whether a substitute goes, and by
    default none does: the Writ "can be used" (ruling K73)."""

    name = "summons"
    phase = "chance"
    rule = "Raid and Revolt, §Chance Phase, §Event Card Key"
    labels = {"answer": "answer", "decline": "send no one", "send": "commission {} with a Writ"}

    def actors(self, state: State, frame: Frame) -> list[str]:
        n = frame["asking"]
        return [role_of(state, state["ch"][n])] if n >= 0 else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        n = frame["asking"]
        out: list[Action] = [("send", w.cards[m].id) for m in substitutes(state, n, frame["min"], frame["place"])]
        out.append(("answer", None) if can_answer(state, n) else ("decline", None))
        return out

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        n = frame["asking"]
        if not can_answer(state, n):
            return (f"{card_name(w, n)} is summoned to {place_name(w, frame['place'])} and cannot answer: commission "
                    "another noble with a Writ, or send no one (default: no one).")
        return (f"{card_name(w, n)} is summoned to {place_name(w, frame['place'])}: he answers, "
                "or you commission another noble with a Writ (default: he answers).")

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The summoned noble answers if he can, else no one is sent (ruling K73)."""
        return offered(self.options(state, frame, role),
                       ("answer", None) if can_answer(state, frame["asking"]) else ("decline", None))

    def run(self, state: State, frame: Frame) -> None:
        w = W(state)
        while frame["queue"]:
            n = frame["queue"].pop(0)
            if state["cz"][n] != Z_NOBLE:
                continue
            if state["nsq"][n] is not None and state["nsq"][n] == w.square_of(frame["place"]):
                frame["answered"] = True  # already there
                continue
            q = state["ch"][n]
            subs = substitutes(state, n, frame["min"], frame["place"]) if writs_of(state, q) else []
            if subs:
                frame["asking"] = n
                return
            if can_answer(state, n):
                send_to(state, n, frame["place"])
                frame["answered"] = True
            else:
                log.public(state, f"{card_name(w, n)} cannot answer the summons.", log.EVENT)
        pop(state)
        if frame.get("calais") and not frame.get("answered"):
            lose_calais(state)

    def on_answer(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        n = frame["asking"]
        frame["asking"] = -1
        send_to(state, n, frame["place"])
        frame["answered"] = True

    def on_decline(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        n = frame["asking"]
        frame["asking"] = -1
        log.public(state, f"{card_name(W(state), n)} cannot answer the summons.", log.EVENT)

    def on_send(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = frame["asking"]
        frame["asking"] = -1
        ops.discard_event(state, writs_of(state, state["ch"][n])[0])
        m = w.cid(arg)
        log.public(state, f"{role} commissions {card_name(w, m)} with a Writ in place of {card_name(w, n)}.",
                   log.EVENT)
        send_to(state, m, frame["place"])
        frame["answered"] = True


def embassy(state: State, p: int, e: int, card: K.EventCard) -> None:
    """The sole King goes to the place on the card (ignored with none or two Kings), with the
    noble escorting him (ruling K24); not from the sea, an island, Calais, the Continent,
    Ireland or Scotland. E1 (§Chance Phase): the Crown deck is reshuffled with its discard."""
    ops.discard_event(state, e)
    w = W(state)
    if state["level"] >= 1:
        ops.reshuffle_crown_with_discard(state)
        log.public(state, "The Crown deck is reshuffled with its discard (E1).", log.CARD)
    k = sole_king(state)
    if k is None:
        return
    if k == -2:
        n = w.beaufort
        if can_answer(state, n):
            send_to(state, n, card.place)
        return
    esc = state["hesc"][k]
    if esc >= 0:
        if can_answer(state, esc):
            send_to(state, esc, card.place)
        return
    sq, inside, ship = heir_loc(state, k)
    if ship >= 0 or sq is None:
        return
    b = w.board
    area = b.areas[b.squares[sq].area]
    if area.island or area.id in FAR_AREAS:
        return
    dest = w.square_of(card.place)
    if dest is None:
        return
    state["hsq"][k] = dest
    state["hin"][k] = card.place if place_active(state, card.place) else None
    log.public(state, f"{w.heirs[k].name} travels to {place_name(w, card.place)}.", log.EVENT)


def parliament_card(state: State, p: int, e: int, card: K.EventCard) -> None:
    """Only the Chancellor's player may keep a Parliament card (Event Card Key)."""
    w = W(state)
    c = w.chancellor
    if state["cz"][c] == Z_AWARD and state["cz"][state["ch"][c]] == Z_NOBLE and state["ch"][state["ch"][c]] == p:
        ops.event_to_hand(state, e, p)
        log.public(state, f"{role_of(state, p)} holds the Chancellor and keeps the card.", log.EVENT)
    else:
        ops.discard_event(state, e)


def mercs_home(state: State, p: int, e: int, card: K.EventCard) -> None:
    ops.discard_event(state, e)
    w = W(state)
    for c, cd in enumerate(w.cards):
        if cd.group == card.group and state["cz"][c] in (Z_AWARD, Z_LYING):
            ops.discard_crown(state, c)
            log.public(state, f"{cd.name} go home.", log.EVENT)


def french_siege(state: State, p: int, e: int, card: K.EventCard) -> None:
    """If neither the Captain of Calais nor substitutes of 50 troops or more commissioned with a
    Writ can come, Calais is lost to the Continent for good and the office leaves play."""
    ops.discard_event(state, e)
    if state.get("calais_lost") or not place_active(state, "calais"):
        return
    n = called_noble(state, "captain_of_calais")
    if n >= 0 and state["ncap"][n] < 0:
        push(state, {"step": "summons", "place": "calais", "queue": [n], "asking": -1, "min": 50, "calais": True})
        return
    lose_calais(state)


def lose_calais(state: State) -> None:
    w = W(state)
    state["calais_lost"] = True
    state["pown"]["calais"] = -1
    cap = w.cid("captain_of_calais")
    ops.card_leaves(state, cap)
    ops.remove_crown(state, cap)
    log.public(state, "Calais is lost to the Continent; the Captain of Calais leaves play.", log.EVENT)


def treachery(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E1: the drawer loses 1-3 hand cards, picked face down by the player on his left (the
    next in turn order, ruling K40); excess ignored."""
    ops.discard_event(state, e)
    cards = hand(state, p)
    k = min(card.count, len(cards))
    if k <= 0:
        return
    slots = list(cards)
    rng.shuffle(state, slots)
    order = state["order"]
    left = order[(order.index(p) + 1) % len(order)]
    push(state, {"step": "treachery", "p": p, "by": left, "slots": slots, "k": k})


class Treachery(Labelled):
    """The player on the left picks the drawer's cards face down (by slot)."""

    name = "treachery"
    phase = "chance"
    always_decides = True
    rule = "Treachery, §Event Card Key"
    labels = {"pick": "pick {}"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The first option (the published default)."""
        opts = self.options(state, frame, role)
        return opts[0] if opts else None

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["by"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("pick", i + 1) for i, c in enumerate(frame["slots"]) if c >= 0]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return (f"Treachery: pick {frame['k']} of {role_of(state, frame['p'])}'s face-down cards "
                "to discard (default: the first).")

    def on_pick(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        c = frame["slots"][int(arg) - 1]
        frame["slots"][int(arg) - 1] = -1
        ops.discard_crown(state, c)
        state["tdisc"].append(c)  # face down: nobody learns which card it was
        frame["k"] -= 1
        if frame["k"] <= 0:
            pop(state)
            log.public(state, f"{role} has picked the cards {role_of(state, frame['p'])} loses to Treachery.",
                       log.EVENT)


def gales(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E1: every ship at sea sinks with all aboard; ship cards to the discard; the Admiral's
    and Warden's ships are lost but the offices stay (§Sea Transportation)."""
    ops.discard_event(state, e)
    w = W(state)
    for s in range(len(w.ships)):
        pos = state["spos"][s]
        if pos is None or pos in w.board.places:
            continue
        log.public(state, f"The {w.ships[s].name} sinks in the gale.", log.EVENT)
        for n in ship_passengers(state, s):
            for h in escorted_by(state, n):
                ops.kill_heir(state, h, "is lost at sea")
            ops.kill_noble(state, n, "is lost at sea")
        piece = w.ships[s]
        if piece.card >= 0:
            if state["cz"][piece.card] != Z_DISC:
                ops.discard_crown(state, piece.card)
        else:
            state.setdefault("lost_ships", []).append(s)
        ops.ship_off(state, s)


def vacillating(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E1 (§Vacillating Allegiance, ruling K18): a random noble of the drawer loses this turn (no move, no
    attack; his ship is becalmed); ignored with one noble or none."""
    ops.discard_event(state, e)
    mine = [n for n in free_nobles(state, p) if state["nsq"][n] is not None or state["nship"][n] >= 0]
    if len(mine) < 2:
        log.public(state, "The card is ignored (one noble or none).", log.EVENT)
        return
    n = mine[rng.randbelow(state, len(mine))]
    state["nvac"][n] = state["tno"]
    ship = state["nship"][n]
    if ship >= 0:
        state["smv"][ship] = state["tno"]
    log.public(state, f"{card_name(W(state), n)} wavers and does nothing this turn.", log.EVENT)


def catastrophe(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E1: titles, offices and bishoprics give no troops for the card's rounds (ruling K23:
    counted in turns from the drawer's, rounds x players)."""
    ops.discard_event(state, e)
    state["catastrophe"] = max(1, card.rounds) * len(state["roles"])
    log.public(state, f"Catastrophe: for {max(1, card.rounds)} round(s) titles, offices and bishoprics give no troops.",
               log.EVENT)


def royal_death(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E1: 2d6 on the Royal Death table; an heir already gone: nothing; the card leaves play."""
    w = W(state)
    state["ez"][e], state["eh"][e] = E_REMOVED, -1
    r = rng.roll(state, 6) + rng.roll(state, 6)
    h = w.heir_codec.id(ROYAL_DEATH[r])
    log.public(state, f"Royal Death: {r} - {w.heirs[h].name}.", log.EVENT)
    if not state["hdead"][h]:
        ops.kill_heir(state, h, "dies")


def mutiny(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: the named ship leaves play, its card to the discard; passengers at sea are put on
    the nearest land (ruling: the nearest land square of the ship's position)."""
    ops.discard_event(state, e)
    w = W(state)
    c = w.codec.get(card.ship)
    if c < 0 or c not in w.ship_of_card:
        return
    s = w.ship_of_card[c]
    pos = state["spos"][s]
    if pos is None:
        return
    b = w.board
    for n in ship_passengers(state, s):
        if pos in b.places:
            ops.put_noble(state, n, b.places[pos].square, None)
        else:
            land = ops.nearest_land(state, pos)
            ops.put_noble(state, n, land, None)
    if state["cz"][c] != Z_DISC:
        ops.card_leaves(state, c)
        ops.discard_crown(state, c)
    ops.ship_off(state, s)
    log.public(state, f"Mutiny: the {w.ships[s].name} leaves play.", log.EVENT)


def parliament_summoned(state: State, p: int, e: int, card: K.EventCard) -> None:
    ops.discard_event(state, e)
    parliament.parliament_summoned(state, p)


# ----------------------------------------------------------------------------- E2 events
def clergy(state: State) -> list[int]:
    """Nobles holding a bishopric (E2 clergy events)."""
    w = W(state)
    out = []
    for n in w.nobles:
        if state["cz"][n] == Z_NOBLE and state["ncap"][n] < 0 and any(
                w.cards[c].kind == K.BISHOP for c in awards(state, n)):
            out.append(n)
    return out


def move_to_square(state: State, n: int, sq: str, place: str | None = None) -> None:
    """An event moves noble ``n`` (with his heirs): inside ``place`` if it is friendly to him,
    else in the open of ``sq``; a ship he was aboard sails on without him."""
    inside = place if place is not None and place_active(state, place) and place_owner(state, place) == state["ch"][n] \
        else None
    ops.put_noble(state, n, sq, inside)
    ops.capture_heirs(state, state["ch"][n], sq, inside)


def religious_diet(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: the clergy meet at Salisbury (d6 1-2), Wells (3-4) or St Davids (5-6); a King's
    peace holds in that square for one round (until the drawer's next turn)."""
    ops.discard_event(state, e)
    w = W(state)
    r = rng.roll(state, 6)
    place = ("salisbury", "wells", "st_davids")[(r - 1) // 2]
    sq = w.square_of(place)
    log.public(state, f"d6 {r}: the clergy meet at {place_name(w, place)}.", log.EVENT)
    if sq is None:
        return
    for n in clergy(state):
        move_to_square(state, n, sq, place)
    state["peace"].append([sq, p])


def heresy(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: every bishop returns to his see (the senior see for a noble holding several)."""
    ops.discard_event(state, e)
    w = W(state)
    for n in clergy(state):
        sees = [w.cards[c].cathedral for c in sorted(awards(state, n), key=lambda c: w.bishops_senior.index(c)
                if c in w.bishops_senior else 99) if w.cards[c].kind == K.BISHOP]
        sq = w.square_of(sees[0]) if sees else None
        if sq is not None:
            move_to_square(state, n, sq, sees[0])
            log.public(state, f"{card_name(w, n)} returns to {place_name(w, sees[0])}.", log.EVENT)


def papal_diet(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: every bishop goes to the Continent, even from a siege, with no ship or Refuge card;
    a King's peace holds there for one round; coming back needs a ship."""
    ops.discard_event(state, e)
    w = W(state)
    sq = w.square_of("france") or w.square_of("calais")
    if sq is None:
        return
    for n in clergy(state):
        if state["nship"][n] >= 0:
            continue
        move_to_square(state, n, sq)
        log.public(state, f"{card_name(w, n)} travels to meet the Pope.", log.EVENT)
    state["peace"].append([sq, p])


def excommunication(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2 (§Excommunication Restrictions, ruling K21): the drawer's faction loses its bishoprics (to Chancery) and
    town cards (to the discard); its nobles inside those towns go into the open; until it
    draws a town card or a bishopric it may not enter a cathedral place or the squares of
    Salisbury, Wells and St Davids, and may not crown."""
    ops.discard_event(state, e)
    w = W(state)
    lost_places = []
    for c, cd in enumerate(w.cards):
        if owner_of_card(state, c) != p:
            continue
        if cd.kind == K.BISHOP and state["cz"][c] == Z_AWARD:
            ops.to_chancery(state, c)
        elif cd.kind == K.TOWN and state["cz"][c] in (Z_AWARD, Z_ASSET):
            ops.discard_crown(state, c)
            lost_places.append(cd.place)
    for n in faction_nobles(state, p):
        if state["nin"][n] in lost_places and place_owner(state, state["nin"][n]) != p:
            state["nin"][n] = None
    if p not in state["excommunicated"]:
        state["excommunicated"].append(p)
    log.public(state, f"{role_of(state, p)}'s faction is excommunicated.", log.EVENT)


def king_to(state: State, sq: str, place: str | None, why: str) -> None:
    """Move the sole King (with his escorting noble) to ``sq``."""
    w = W(state)
    k = sole_king(state)
    if k is None:
        return
    if k == -2:
        move_to_square(state, w.beaufort, sq, place)
        return
    esc = state["hesc"][k]
    if esc >= 0:
        if state["nship"][esc] < 0:
            move_to_square(state, esc, sq, place)
    else:
        state["hsq"][k], state["hin"][k], state["hship"][k] = sq, place if place and place_active(state, place) else None, -1
    log.public(state, f"{w.heirs[k].name if k >= 0 else 'Beaufort'} {why}.", log.EVENT)


def royal_visit(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: the sole King goes to Ireland, to Dublin if there and unoccupied; no ship back."""
    ops.discard_event(state, e)
    w = W(state)
    sq = w.square_of("dublin")
    if sq is None:
        return
    occupied = any(state["nin"][n] == "dublin" for n in w.nobles if state["cz"][n] == Z_NOBLE)
    king_to(state, sq, None if occupied else "dublin", "visits Ireland")


def royal_hunt(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: the King goes to the forest square of Rotherham, where fighting is allowed; with
    two Kings a d6 decides (1-2 Lancaster, 3-4 York, 5 both, 6 rain: nobody). Volunteers
    join (a step for every player, default: no)."""
    ops.discard_event(state, e)
    w = W(state)
    sq = w.square_of("rotherham_forest") or w.square_of("rotherham")
    if sq is None:
        return
    kings_now = [h for h in range(len(w.heirs)) if state["hcrown"][h] and not state["hdead"][h]]
    if len(kings_now) == 2:
        r = rng.roll(state, 6)
        houses = {1: ["lancaster"], 2: ["lancaster"], 3: ["york"], 4: ["york"], 5: ["lancaster", "york"], 6: []}[r]
        log.public(state, f"d6 {r}: " + (" and ".join(houses) or "it rains; nobody") + " hunts.", log.EVENT)
        going = [h for h in kings_now if w.heirs[h].house in houses]
    else:
        k = sole_king(state)
        going = [k] if k is not None and k >= 0 else []
    for h in going:
        esc = state["hesc"][h]
        if esc >= 0 and state["nship"][esc] < 0:
            move_to_square(state, esc, sq)
        elif esc < 0:
            state["hsq"][h], state["hin"][h] = sq, None
    if going:
        push(state, {"step": "hunt", "sq": sq, "done": [False] * len(state["roles"])})


class Hunt(Labelled):
    """Royal Hunt volunteers: every player at once sends nobles or is done (default: done)."""

    name = "hunt"
    phase = "chance"
    rule = "Royal Hunt, §Event Card Key"
    labels = {"done": "done", "join": "{} joins the hunt"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The published default: done (when it is an option)."""
        return offered(self.options(state, frame, role), ("done", None))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, q) for q, d in enumerate(frame["done"]) if not d]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        q = state["roles"].index(role)
        out: list[Action] = [("join", w.cards[n].id) for n in free_nobles(state, q)
                             if state["nsq"][n] not in (None, frame["sq"]) and can_answer(state, n)]
        return out + [("done", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Royal Hunt: send nobles to join the King's hunt (default: none)."

    def on_join(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg)
        move_to_square(state, n, frame["sq"])
        log.public(state, f"{card_name(w, n)} joins the hunt.", log.EVENT)

    def on_done(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["done"][state["roles"].index(role)] = True
        if all(frame["done"]):
            pop(state)


def heir_escapes(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2 (ruling K30): the drawer's most junior heir who is neither crowned nor his house's
    senior escapes to the nearest neutral place (ties by the generator)."""
    ops.discard_event(state, e)
    w = W(state)
    mine = [h for h in heirs_of(state, p) if not state["hcrown"][h] and senior_heir(state, w.heirs[h].house) != h]
    if not mine:
        return
    h = max(mine, key=lambda x: (w.heirs[x].rank, x))
    sq, _, ship = heir_loc(state, h)
    if sq is None:
        return
    found = nearest(state, sq, lambda pl: place_active(state, pl) and place_owner(state, pl) < 0)
    if not found:
        return
    dest = found[rng.randbelow(state, len(found))] if len(found) > 1 else found[0]
    state["hesc"][h] = -1
    state["hsq"][h], state["hin"][h], state["hship"][h] = w.board.places[dest].square, dest, -1
    log.public(state, f"{w.heirs[h].name} escapes to {place_name(w, dest)}.", log.EVENT)


def treaty(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2 (§Breaking a Treaty): the sole King goes to France and signs the Treaty: Calais returns to English
    control, his faction's; that faction may enter the Continent freely."""
    ops.discard_event(state, e)
    w = W(state)
    k = sole_king(state)
    if k is None:
        return
    ctl = king_controller(state, k)
    sq = w.square_of("france") or w.square_of("calais")
    if sq is not None:
        king_to(state, sq, None, "goes to France and signs a treaty")
    if ctl >= 0:
        state["treaty"] = ctl
        if place_active(state, "calais"):
            state["calais_lost"] = False
            ops.set_place_owner(state, "calais", ctl)


def merc_strife(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: in every square where one faction's stack holds more than one mercenary card, its
    smallest band goes home (to the discard); the Irish Kerns are exempt."""
    ops.discard_event(state, e)
    w = W(state)
    stacks: dict[tuple[Any, int], list[int]] = {}
    for n in w.nobles:
        if state["cz"][n] != Z_NOBLE or (state["nsq"][n] is None and state["nship"][n] < 0):
            continue
        key = (state["nsq"][n] or f"ship{state['nship'][n]}", state["ch"][n])
        for c in awards(state, n):
            cd = w.cards[c]
            if cd.kind in (K.MERCENARY, K.FRENCH_AID) and cd.lies_in != "ireland":
                stacks.setdefault(key, []).append(c)
    for key in sorted(stacks, key=str):
        mercs = stacks[key]
        if len(mercs) < 2:
            continue
        bands: dict[str, int] = {}
        for c in mercs:
            bands[w.cards[c].group] = bands.get(w.cards[c].group, 0) + w.cards[c].troops
        smallest = min(bands, key=lambda g: (bands[g], g))
        for c in mercs:
            if w.cards[c].group == smallest:
                ops.discard_crown(state, c)
        log.public(state, f"Mercenary strife: the {smallest.replace('_', ' ')} go home.", log.EVENT)


def defeatism(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: for d6 1-2: 1, 3-4: 2, 5-6: 3 of its turns the drawer's faction may only move: no
    attack, ambush or siege (its sieges are lifted), no Parliament, no coronation."""
    ops.discard_event(state, e)
    r = rng.roll(state, 6)
    turns = (r + 1) // 2
    state["defeatism"][str(p)] = turns
    for pl in [pl for pl, b in state["siege"].items() if b == p]:
        del state["siege"][pl]
    log.public(state, f"d6 {r}: {role_of(state, p)}'s faction is defeatist for {turns} turn(s).", log.EVENT)


def french_treachery(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: French Aid in play goes rogue and sacks the nearest unoccupied town or city of its
    employer; until the place is retaken (a siege against 100) or plague strikes it, the
    employer may not call or attend Parliament nor crown."""
    ops.discard_event(state, e)
    w = W(state)
    c = w.cid("french_aid")
    if state["cz"][c] != Z_AWARD:
        return
    n = state["ch"][c]
    employer = state["ch"][n]
    sq = state["nsq"][n]
    ops.discard_crown(state, c)
    if sq is None:
        return

    def ok(pl: str) -> bool:
        place = w.board.places[pl]
        return (place_active(state, pl) and place.type in ("town", "city") and place_owner(state, pl) == employer
                and not any(state["nin"][m] == pl for m in w.nobles if state["cz"][m] == Z_NOBLE))

    found = nearest(state, sq, ok)
    if not found:
        log.public(state, "The French mercenaries go home.", log.EVENT)
        return
    pl = found[0]
    state["pown"][pl] = -1
    state["rogue"] = {"place": pl, "employer": employer}
    log.public(state, f"The French mercenaries turn on {role_of(state, employer)} and sack {place_name(w, pl)}.",
               log.EVENT)


def war_in_europe(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: the Marshal, the Captain of Calais and the Admiral (with his ships) go to the
    Continent; all mercenaries in play go to fight there (to the discard; the rogue French and
    the Irish Kerns excepted); the Treaty ends."""
    ops.discard_event(state, e)
    w = W(state)
    state["treaty"] = -1
    sq = w.square_of("france") or w.square_of("calais")
    for cid in ("marshal", "captain_of_calais", "admiral"):
        n = called_noble(state, cid)
        if n >= 0 and state["ncap"][n] < 0 and state["nship"][n] < 0 and sq is not None:
            move_to_square(state, n, sq)
            log.public(state, f"{card_name(w, n)} goes to the war in Europe.", log.EVENT)
    adm = w.cid("admiral")
    port = "calais" if place_active(state, "calais") else None
    for s in w.office_ships.get(adm, ()):
        if state["spos"][s] is not None and port and not ship_passengers(state, s):
            state["spos"][s] = port
    for c, cd in enumerate(w.cards):
        if cd.kind == K.MERCENARY and cd.lies_in != "ireland" and state["cz"][c] == Z_AWARD:
            ops.discard_crown(state, c)
    log.public(state, "The mercenaries leave for the war in Europe.", log.EVENT)


#: Scots Invasion (Event Card Key): who is called, and the places each covers.
SCOTS_CALLS = (("percy", ("cockermouth", "alnwick")), ("grey", ("chillingham",)), ("neville", ("raby",)),
               ("warden_of_the_marches", ("bamburgh", "berwick")), ("bishop_of_carlisle", ("carlisle",)),
               ("bishop_of_durham", ("durham",)), ("marshal", ("cheviots",)), ("town_newcastle", ("newcastle",)))


def scots_invasion(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2 (ruling K29): the called nobles go north; a noble called to several places covers
    them all (he goes to the first); a place already occupied is covered; an uncovered place is
    lost to the Scots (neutral, to be retaken by siege). The Event deck is shuffled (with its
    discard); the Treaty ends. A place already neutral is not lost (ruling K77); if the Scots
    fail on the first try (nothing lost the first time the card is drawn) the card leaves play,
    and failing later it is discarded as usual."""
    w = W(state)
    state["treaty"] = -1
    first = not state.get("scots_tried", False)
    state["scots_tried"] = True
    failed = True
    for cid, named in SCOTS_CALLS:
        places = tuple(pl for pl in named if w.square_of(pl) is not None)
        if not places:
            continue
        if cid.startswith("town_"):
            c = w.codec.get(cid)
            owner = owner_of_card(state, c) if c >= 0 else -1
            cands = [n for n in free_nobles(state, owner) if can_answer(state, n)] if owner >= 0 else []
            n = cands[0] if cands else -1
        else:
            n = called_noble(state, cid)
        covered = [pl for pl in places if pl in w.board.places and any(
            state["nin"][m] == pl for m in w.nobles if state["cz"][m] == Z_NOBLE)]
        if n >= 0 and can_answer(state, n):
            send_to(state, n, places[0])
            continue
        for pl in places:
            if pl in covered or pl not in w.board.places or not place_active(state, pl):
                continue
            if place_owner(state, pl) < 0:
                continue  # already neutral: the Scots take nothing from anyone
            failed = False
            ops.set_place_owner(state, pl, -1)
            log.public(state, f"The Scots take {place_name(w, pl)}.", log.EVENT)
    if failed and first:
        state["ez"][e], state["eh"][e] = E_REMOVED, -1
        log.public(state, "The Scots fail; the card leaves play.", log.EVENT)
    elif failed:
        log.public(state, "The Scots fail.", log.EVENT)
        ops.discard_event(state, e)
    else:
        ops.discard_event(state, e)
    for x in state["edisc"]:
        state["ez"][x] = 0
    state["edeck"].extend(state["edisc"])
    state["edisc"] = []
    rng.shuffle(state, state["edeck"])
    log.public(state, "The Event deck is shuffled.", log.EVENT)


def assassination(state: State, p: int, e: int, card: K.EventCard) -> None:
    """E2: Event cards are drawn until one has a killed list; the last noble on it, if in
    play, is assassinated. The cards drawn are discarded."""
    ops.discard_event(state, e)
    w = W(state)
    deck = event_deck(state)
    for _ in range(len(deck.cards) * 2):
        x = ops.draw_event(state)
        ops.discard_event(state, x)
        killed = deck.cards[x].killed
        if killed:
            n = w.codec.get(killed[-1])
            log.public(state, f"The killed list ends with {killed[-1]}.", log.EVENT)
            if n >= 0 and state["cz"][n] == Z_NOBLE:
                ops.kill_noble(state, n, "is murdered by his butler")
            return


HANDLERS: dict[str, Any] = {
    "religious_diet": religious_diet, "heresy": heresy, "papal_diet": papal_diet,
    "excommunication": excommunication, "royal_visit": royal_visit, "royal_hunt": royal_hunt,
    "heir_escapes": heir_escapes, "treaty": treaty, "merc_strife": merc_strife, "defeatism": defeatism,
    "french_treachery": french_treachery, "war_in_europe": war_in_europe, "scots_invasion": scots_invasion,
    "assassination": assassination,
    "parliament_summoned": parliament_summoned,
    "plague": plague, "storms": storms, "raid": raid, "embassy": embassy, "parliament": parliament_card,
    "mercs_home": mercs_home, "french_siege": french_siege, "treachery": treachery, "gales": gales,
    "vacillating": vacillating, "catastrophe": catastrophe, "royal_death": royal_death, "mutiny": mutiny,
}

__all__ = ["chance", "StormPort", "Treachery", "E_USE", "awards", "faction_nobles"]
