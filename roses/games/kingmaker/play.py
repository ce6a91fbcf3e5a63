"""Kingmaker: the sequence of play (§Sequence of Play) and the phases of a turn other than combat
resolution (combat.py) and the events (events.py).

Verbs (arguments are ids: cards, nobles and ships by card/ship id, squares by square id,
places by place id, heirs by heir id, players by role):

Movement phase (§Movement Phase)
    ``select`` noble        pick a noble to move; then ``to`` square|place (a place: end the
                            move inside that friendly place) or ``back``
    ``sail`` ship           pick a ship to sail; then ``to`` sea square|port or ``back``
    ``embark`` [noble, ship]   put a noble aboard a ship in port (§Sea Transportation)
    ``enter`` [noble, place]   go inside a place of the square: free if friendly, with the
                               owner's permission if unfriendly (a step for him, default: no)
    ``leave`` noble         step out of a place into the open of its square
    ``escort`` [heir, noble]   hand a captured heir to another noble beside him (§Capture of Royal Heirs)
    ``end``                 end the phase
Any time in one's own turn (movement, combat choice, crown phase)
    ``assign`` [card, noble|"faction"]   award a hand card (§Faction, §Preparing to Play)
    ``play`` noble          put a noble card of the hand into play (§Crown Deck Phase)
    ``execute_heir`` heir   execute a captured heir (§Capture of Royal Heirs)
Combat phase (§Combat Phase): ``battle`` / ``ambush`` [square, role], ``siege`` / ``storm`` /
    ``announce`` / ``town_fight`` / ``town_attack`` place, ``end``; then combat.py's verbs.
Coronation phase (§Coronation Phase): ``crown`` heir (or "beaufort"), ``pass``.
Crown deck phase (§Crown Deck Phase): the card is drawn, then ``assign``/``play`` or ``end``.
"""

from __future__ import annotations

from typing import Any

from roses.engine import log
from roses.engine.contract import Action, State, canonical_json
from roses.engine.steps import Frame, Step, pop, push, replace
from roses.games.kingmaker import cards as K
from roses.games.kingmaker import ops, stalling
from roses.games.kingmaker.common import (
    E_HAND,
    E_USE,
    Z_ASIDE,
    Z_ASSET,
    Z_AWARD,
    Z_HAND,
    Z_LYING,
    Z_NOBLE,
    W,
    allied,
    awards,
    card_name,
    commander_of,
    controlled_nobles,
    escorted_by,
    faction_nobles,
    free_nobles,
    heir_controller,
    heir_loc,
    heirs_of,
    live_heirs,
    noble_strength,
    owner_of_card,
    place_name,
    place_owner,
    player_of_role,
    refuge_area,
    role_of,
    senior_heir,
    ship_controller,
    ship_passengers,
    strength,
)
from roses.games.kingmaker.deals import has_deals
from roses.games.kingmaker.ops import free_captive, place_active
from roses.games.kingmaker.queries import (
    MOVE_SQUARES,
    award_targets,
    besieged_inside,
    blockaded_from,
    card_reason,
    event_deck,
    excommunicated_squares,
    fits,
    free_moves,
    hand,
    land_moves,
    movable,
    move_dests,
    noble_named,
    offered,
    refuge_exempt,
    refuge_exempt_office,
    ship_can_act,
    ship_dests,
    siege_defence,
    tolerant,
)
from roses.games.kingmaker.queries import blocked_areas as blocked_areas
from roses.games.kingmaker.queries import can_act as can_act
from roses.games.kingmaker.queries import inside_nobles as inside_nobles
from roses.games.kingmaker.wording import Labelled, arg_name


def current(state: State) -> int:
    p: int = state["order"][state["turn"]]
    return p


# ============================================================================ the turn
class Turn(Step):
    """The automatic step that runs the six phases of the current player's turn (§Sequence of Play)
    and passes the turn on; a new round starts after the last player (§Sequence of Play)."""

    name = "turn"
    phase = "turn"

    def run(self, state: State, frame: Frame) -> None:
        p = current(state)
        stage = frame["stage"]
        frame["stage"] = stage + 1
        has_nobles = any(ops_on_land_or_sea(state, n) for n in free_nobles(state, p))
        if stage == 0:
            start_turn(state, p)
            push(state, {"step": "chance", "p": p})
        elif stage == 1:
            purge = purge_frame(state, p)
            if purge:
                push(state, purge)
            elif has_nobles:  # §Faction: a player with no noble plays only Chance and Crown
                push(state, {"step": "move", "p": p, "sel": None, "ship": None})
        elif stage == 2:
            if has_nobles:
                push(state, {"step": "combat", "p": p})
        elif stage == 3:
            if has_nobles:
                push(state, {"step": "parliament", "p": p})
        elif stage == 4:
            if has_nobles and coronation_options(state, p):
                push(state, {"step": "coronation", "p": p})
        elif stage == 5:
            push(state, {"step": "crown", "p": p, "drawn": False})
        else:
            end_turn(state, p)
            replace(state, {"step": "turn", "stage": 0})


def ops_on_land_or_sea(state: State, n: int) -> bool:
    return state["nsq"][n] is not None or state["nship"][n] >= 0


def start_turn(state: State, p: int) -> None:
    state["tno"] += 1
    state["defended"] = []
    state["obliged"] = []
    state["freed"] = []
    state["sfought"] = []
    state["fresh"] = []
    state["traded"] = []
    for key in [k for k in state["command"] if commander_of(state, int(k)) < 0]:
        del state["command"][key]  # §Alliances: nobles who separated left their commander
    state["sail_leave"] = []
    state["sail_denied"] = []
    stalling.new_turn(state)  # ruling K93: the refusals of the last turn are forgotten
    state["truce"] = [x for x in state["truce"] if x[2] >= state["tno"]]
    # King's peace after Parliament lasts until the summoner's next turn (§King's peace).
    state["peace"] = [x for x in state["peace"] if x[1] != p]
    log.public(state, f"Round {state['round']}: {role_of(state, p)}'s turn.", log.TURN)
    refuge_upkeep(state, p)
    lift_sieges(state)


def refuge_upkeep(state: State, p: int) -> None:
    """E1 Refuge (Event Card Key, ruling K23): the turns of a Refuge card count the owner's
    turns from the one in which his force entered; a force still there after the last turn
    is killed, its heirs and awards discarded; a card whose force has left is discarded."""
    w = W(state)
    b = w.board
    deck = event_deck(state)
    keep = []
    for rec in state["refuges"]:
        if rec["p"] != p:
            keep.append(rec)
            continue
        there = [n for n in free_nobles(state, p) if state["nsq"][n] is not None
                 and b.squares[state["nsq"][n]].area == rec["area"]]
        rec["used"] += 1
        if not there:
            ops.discard_event(state, rec["e"])
            log.public(state, f"{role_of(state, p)}'s Refuge in {rec['area'].title()} ends.", log.EVENT)
            continue
        if rec["used"] > deck.cards[rec["e"]].turns:
            log.public(state, f"{role_of(state, p)}'s Refuge in {rec['area'].title()} has run out.", log.EVENT)
            for n in there:
                for h in escorted_by(state, n):
                    ops.kill_heir(state, h, "is lost with the refugees")
                ops.kill_noble(state, n, "is killed: his refuge ran out")
            ops.discard_event(state, rec["e"])
            continue
        keep.append(rec)
    state["refuges"] = keep


def enter_refuge(state: State, p: int, n: int, sq: str) -> None:
    """E1 (§Refuges): a noble entering a refuge area without an exemption uses a Refuge card of
    his player (ruling K43: the one with the most turns); its use is public, its turns not."""
    if state["level"] < 1:
        return
    area = refuge_area(state, sq)
    if area is None or refuge_exempt(state, p, n, area):
        return
    if any(r["p"] == p and r["area"] == area for r in state["refuges"]):
        return
    deck = event_deck(state)
    held = [e for e, z in enumerate(state["ez"]) if z == E_HAND and state["eh"][e] == p and deck.cards[e].kind == "refuge"]
    if not held:
        # §Refuges: in without a card to fight or take there; he must leave the turn after.
        state["raiders"].append([n, area, state["tno"]])
        return
    e = max(held, key=lambda x: (deck.cards[x].turns, -x))
    state["ez"][e] = E_USE
    state["refuges"].append({"e": e, "p": p, "area": area, "used": 1})
    log.public(state, f"{role_of(state, p)} plays a Refuge card for {area.title()}.", log.EVENT)
    log.private(state, role_of(state, p), f"Your Refuge card gives {deck.cards[e].turns} turns.", log.EVENT)


def lift_sieges(state: State) -> None:
    """§Siege: a siege ends when the besiegers left in the open of its square no longer match
    the defence (checked at every turn's start and after every combat)."""
    w = W(state)
    for pl, q in sorted(state["siege"].items()):
        sq = w.board.places[pl].square
        near = [n for n in free_nobles(state, q) if state["nsq"][n] == sq and state["nin"][n] is None
                and state["nship"][n] < 0]
        if strength(state, near, attack=True) < siege_defence(state, pl, q):
            del state["siege"][pl]
            log.public(state, f"The siege of {place_name(w, pl)} is lifted.", log.BATTLE)


def _raider_fate(state: State, p: int, n: int, area: str, tno: int) -> str:
    """What the end of ``p``'s turn does to one raider entry (E1 §Refuges, ruling K62): "keep"
    it (another player's noble, or one who entered this turn), "drop" it (he left the refuge,
    or has leave: a Refuge card, an exemption, a captured refuge port) or "kill" him."""
    w = W(state)
    if state["cz"][n] != Z_NOBLE or state["ch"][n] != p:
        return "keep" if state["cz"][n] == Z_NOBLE else "drop"
    sq = state["nsq"][n]
    if sq is None or w.board.squares[sq].area != area:
        return "drop"
    if any(r["p"] == p and r["area"] == area for r in state["refuges"]) or refuge_exempt(state, p, n, area):
        return "drop"
    return "keep" if tno == state["tno"] else "kill"


def doomed_raiders(state: State, p: int) -> list[int]:
    """``p``'s nobles who are killed (with the heirs they escort) at the end of this turn
    unless they leave the refuge they entered without a card (E1 §Refuges, ruling K62)."""
    return [n for n, area, tno in state["raiders"] if _raider_fate(state, p, n, area, tno) == "kill"]


def raiders_leave(state: State, p: int) -> None:
    """E1 §Refuges (ruling K62): nobles who entered a refuge without a card must be out of it by
    the end of their player's next turn; one still there is killed, as when a Refuge runs out."""
    keep = []
    for n, area, tno in state["raiders"]:
        fate = _raider_fate(state, p, n, area, tno)
        if fate == "keep":
            keep.append([n, area, tno])
        elif fate == "kill":
            for h in escorted_by(state, n):
                ops.kill_heir(state, h, "is lost in the refuge")
            ops.kill_noble(state, n, "is killed: he stayed in a refuge without leave")
    state["raiders"] = keep


def end_turn(state: State, p: int) -> None:
    raiders_leave(state, p)
    key = str(p)
    if state["defeatism"].get(key):
        state["defeatism"][key] -= 1
        if not state["defeatism"][key]:
            del state["defeatism"][key]
    # §Sea Transportation: nobles may not stay aboard a ship in port: they land.
    w = W(state)
    for s, pos in enumerate(state["spos"]):
        if pos is not None and pos in w.board.places:
            for n in ship_passengers(state, s):
                land_passenger(state, n, pos)
    if state["catastrophe"] > 0:
        state["catastrophe"] -= 1
        if state["catastrophe"] == 0:
            log.public(state, "The Catastrophe is over: award troops count again.", log.EVENT)
    state["turn"] += 1
    if state["turn"] >= len(state["order"]):
        state["turn"] = 0
        state["round"] += 1
        state["rstart"] = state["tno"] + 1
        limit = state["opts"]["rounds"]
        if limit and state["round"] > limit:
            state["result"] = "Draw"
            state["end"] = "round_limit"
            log.public(state, f"The campaign ends undecided after {limit} rounds (the round limit).", log.RESULT)


def purge_frame(state: State, p: int) -> Frame | None:
    """§Capture of Noble Counters: a faction may not control heirs of both houses for more than two rounds."""
    since = state["both_since"][p]
    if since < 0:
        return None
    if not ops.controls_both_houses(state, p):
        state["both_since"][p] = -1
        return None
    if state["round"] - since >= 2:
        return {"step": "purge", "p": p}
    return None


class Purge(Labelled):
    """The player executes the heirs of one house (§Capture of Noble Counters; transfers are offers, see deals)."""

    name = "purge"
    phase = "movement"
    always_decides = True
    labels = {"execute_house": "execute house {}"}

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["p"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("execute_house", h) for h in ("lancaster", "york")]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "You have held heirs of both houses for two rounds: execute the heirs of one house."

    def on_execute_house(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        p = frame["p"]
        for h in heirs_of(state, p):
            if w.heirs[h].house == arg:
                ops.kill_heir(state, h, f"is executed by {role}")
        state["both_since"][p] = -1
        pop(state)
        push(state, {"step": "move", "p": p, "sel": None, "ship": None})


# ============================================================================ movement


def blockade_options(state: State, p: int) -> list[Action]:
    """E1 §Blockade: a ship on a sea square next to a port may name that port as blockaded."""
    w = W(state)
    out: list[Action] = []
    for s, piece in enumerate(w.ships):
        pos = state["spos"][s]
        if pos is None or pos in w.board.places or ship_controller(state, s) != p:
            continue
        for port in w.board.ports_at_sea.get(pos, ()):
            if place_active(state, port) and state["blockades"].get(piece.id) != port and place_owner(state, port) != p:
                out.append(("blockade", [piece.id, port]))
    return out


def land_passenger(state: State, n: int, port: str) -> None:
    w = W(state)
    ops.put_noble(state, n, w.board.places[port].square, None)


#: Verbs that open or close a choice without changing the position (ruling K90): what they
#: backed out of is remembered in the decision's frame (``idle``) and not offered again until
#: another action of that decision changes something.
ROUND_TRIP = frozenset(("select", "sail", "back", "deal"))


def idle(frame: Frame | None) -> list[str]:
    """The round trips already made (and backed out of) in ``frame`` since its last change (ruling K90)."""
    return frame.get("idle", []) if frame is not None else []


def mark_idle(frame: Frame, key: str) -> None:
    frame.setdefault("idle", []).append(key)


def trip_key(verb: str, arg: Any) -> str:
    """How an action backed out of is remembered in its decision's ``idle`` list (ruling K90)."""
    return f"{verb}:{canonical_json(arg)}"


def move_options(state: State, frame: Frame) -> list[Action]:  # noqa: C901 - each kind of move of a stack, in turn
    w = W(state)
    p = frame["p"]
    done = idle(frame)
    inout = frame.get("inout", ())
    if frame["sel"] is not None:
        n = w.cid(frame["sel"])
        return [("to", d) for d in move_dests(state, n)] + [("back", None)]
    if frame["ship"] is not None:
        s = w.ship_codec.id(frame["ship"])
        return [("to", d) for d in ship_dests(state, s)] + [("back", None)]
    refused = stalling.blocked(state, p)  # ruling K93: an entry refused in this turn
    out: list[Action] = []
    b = w.board
    mine = controlled_nobles(state, p)
    for n in mine:
        if movable(state, n) and land_moves(state, n) and w.cards[n].id not in done:
            out.append(("select", w.cards[n].id))
    for n in mine:
        sq, inside = state["nsq"][n], state["nin"][n]
        if sq is None or state["nvac"][n] == state["tno"]:
            continue
        if inside is None:
            for pl in b.places_at.get(sq, ()):
                if not place_active(state, pl):
                    continue
                o = place_owner(state, pl)
                if ((o == p or (o >= 0 and pl not in state["siege"])) and fits(state, pl, noble_strength(state, n))
                        and f"{w.cards[n].id}@{pl}" not in inout  # ruling K90: not back where he left
                        and (o == p or f"enter:{pl}" not in refused)):
                    out.append(("enter", [w.cards[n].id, pl]))
        elif not besieged_inside(state, n) and f"{w.cards[n].id}@{inside}" not in inout:
            out.append(("leave", w.cards[n].id))
    for s, piece in enumerate(w.ships):
        pos = state["spos"][s]
        if pos is None or ship_controller(state, s) != p or not ship_can_act(state, s):
            continue
        # Sea Transportation: a ship embarks nobles only in a friendly or unfortified port.
        if pos in b.places and (place_owner(state, pos) == p or not b.places[pos].fortified):
            port_sq = b.places[pos].square
            used = sum(noble_strength(state, m) for m in ship_passengers(state, s))
            for n in mine:
                if (state["nsq"][n] == port_sq and movable(state, n)
                        and used + noble_strength(state, n) <= piece.capacity):
                    out.append(("embark", [w.cards[n].id, piece.id]))
        if piece.id not in state["sail_denied"] and piece.id not in done and ship_dests(state, s):
            out.append(("sail", piece.id))
    for h in heirs_of(state, p):
        e = state["hesc"][h]
        for m in mine:
            if m != e and (state["nsq"][m], state["nin"][m], state["nship"][m]) == (
                    state["nsq"][e], state["nin"][e], state["nship"][e]) and (
                    f"{w.heirs[h].id}@{w.cards[m].id}" not in inout):  # ruling K90: not back to his escort
                out.append(("escort", [w.heirs[h].id, w.cards[m].id]))
    if state["level"] >= 1:  # ruling K90: a ship names a port blockaded once a movement phase
        out += [a for a in blockade_options(state, p) if f"{a[1][0]}@{a[1][1]}" not in inout]
    freed = state["freed"]
    holders = {q for q in {state["ch"][n] for n in mine} if free_moves(state, q)}
    for n in mine:
        # §Alliances: a noble under an ally's commander uses a Free Move his own faction provides
        # (asked once a turn: an offer to that player, default no).
        q = state["ch"][n]
        if (q in holders and state["nmv"][n] == state["tno"] and n not in freed and state["nsq"][n] is not None
                and state["nvac"][n] != state["tno"] and (q == p or n not in frame.get("asked", ()))):
            out.append(("free_move", w.cards[n].id))
    if p in holders:
        for s, piece in enumerate(w.ships):
            if (state["spos"][s] is not None and ship_controller(state, s) == p and state["smv"][s] == state["tno"]
                    and piece.id not in freed):
                out.append(("free_move", piece.id))
    out += card_options(state, p, frame)
    out.append(("end", None))
    return out


def pick_up_mercenaries(state: State, n: int) -> None:
    """E1 §Faction: the first noble to enter Scotland or Berwick takes the Scottish Foot lying
    there; E2 §Faction: only the Lieutenant of Ireland, in Ireland, takes the Irish Kerns."""
    w = W(state)
    sq = state["nsq"][n]
    if sq is None:
        return
    area = w.board.squares[sq].area
    for c, card in enumerate(w.cards):
        if state["cz"][c] != Z_LYING:
            continue
        if card.lies_in == "scotland" and (area == "scotland" or sq == w.square_of("berwick")) or card.lies_in == "ireland" and area == "ireland" and refuge_exempt_office(state, n, "lieutenant_of_ireland"):
            pass
        else:
            continue
        state["cz"][c], state["ch"][c] = Z_AWARD, n
        log.public(state, f"{card_name(w, n)} takes the {card.name} into his pay.", log.RECRUIT)


def card_options(state: State, p: int, frame: Frame | None = None) -> list[Action]:
    """Hand cards the player may play now (§Faction, §Preparing to Play, §Crown Deck Phase) and
    heirs he may execute; the dealing menu unless ``frame`` (the decision offering it) has just
    backed out of it (K90)."""
    w = W(state)
    out: list[Action] = []
    for c in hand(state, p):
        card = w.cards[c]
        if card.is_noble:
            out.append(("play", card.id))
            continue
        for n in award_targets(state, p, c):
            out.append(("assign", [card.id, w.cards[n].id]))
        if card.kind in (K.TOWN, K.SHIP, K.ROYAL_CASTLE):
            out.append(("assign", [card.id, "faction"]))
    for h in heirs_of(state, p):
        out.append(("execute_heir", w.heirs[h].id))
    if has_deals(state, p) and "deal" not in idle(frame):
        out.append(("deal", None))
    return out


def _land_reach(state: State, start: str, forest_stops: bool, estuaries: bool) -> dict[str, int]:
    """Squares within 5 steps of ``start`` on land (§Noble Counters), with or without the forest stop
    (§Noble Counters) and the estuary bar (§Noble Counters): used to tell which restriction keeps a noble out."""
    b = W(state).board
    squares = b.squares
    dist = {start: 0}
    frontier = [start]
    for step in range(MOVE_SQUARES):
        nxt = []
        for s in frontier:
            if estuaries:
                steps = [t for t, _ in b.land_steps[s]]
            else:
                steps = [t for t in b.neighbours[s] if squares[t].land]
            for t in steps:
                if t in dist:
                    continue
                dist[t] = step + 1
                if not (forest_stops and squares[t].forest and not squares[s].forest):
                    nxt.append(t)
        frontier = nxt
    return dist


def _square_reason(state: State, n: int, sq: str) -> str | None:
    """Why noble ``n`` may not move to square ``sq`` this move (§Noble Counters, §Important: one turn a round, §Excommunication Restrictions)."""
    w = W(state)
    b = w.board
    start = state["nsq"][n]
    name = card_name(w, n)
    if start is None:
        return f"{name} is not on land"
    if sq == start:
        return f"{name} is already in square {sq}"
    if sq in land_moves(state, n):
        return None
    if not b.squares[sq].land:
        return (f"{sq} is a sea square: a noble goes to sea only aboard a ship, embarking in a port of his "
                "square (§Sea Transportation)")
    p = state["ch"][n]
    if p in state["excommunicated"] and sq in excommunicated_squares(state):
        return "an excommunicated faction may not enter the squares of Salisbury, Wells or St Davids (§Excommunication Restrictions)"
    area = b.squares[sq].area
    if area in blocked_areas(state, p, n):
        return (f"{sq} is in {area.replace('_', ' ').title()}, a refuge: entering needs a Refuge card or the "
                "office that exempts (E1, §Refuges), or a place to besiege, a force to attack or an heir "
                "to capture there (§Refuges)")
    strict = _land_reach(state, start, forest_stops=True, estuaries=True)
    if sq in strict:
        return None
    if sq in _land_reach(state, start, forest_stops=False, estuaries=True):
        return (f"moving from an open square into a forest square ends the move (§Noble Counters; ruling K9), so {sq} "
                f"cannot be reached from {start} this move")
    if sq in _land_reach(state, start, forest_stops=False, estuaries=False):
        if area == "anglesey" or b.squares[start].area == "anglesey":
            return ("Anglesey is crossed to only by nobles who start the move in the Caernarvon square "
                    "(§Refuges)")
        return f"an estuary lies between {start} and {sq}: rivers may be crossed, estuaries not (§Noble Counters)"
    road = " (a road is followed without limit only from a road square, until a neutral or unfriendly place, §Noble Counters)"
    return f"{sq} is more than {MOVE_SQUARES} squares from {start} by land (§Noble Counters){road}"


def _place_reason(state: State, n: int, pl: str) -> str | None:
    """Why noble ``n`` may not end his move inside place ``pl`` (§Faction, §Town, Cities, and Castles, §Excommunication Restrictions)."""
    w = W(state)
    place = w.board.places[pl]
    if not place_active(state, pl):
        return f"{place.name} is not in play with these rules"
    why = _square_reason(state, n, place.square)
    if why:
        return f"{place.name} is in square {place.square}: {why}"
    p = state["ch"][n]
    o = place_owner(state, pl)
    if o != p:
        kind = "neutral" if o < 0 else "unfriendly"
        return (f"{place.name} is {kind}: a noble ends his move inside only a town, city or castle of his "
                f"faction (§Faction, §Town, Cities, and Castles); move to square {place.square} and besiege it"
                + (", or ask its holder to let him enter (enter)" if o >= 0 else ""))
    if p in state["excommunicated"] and place.cathedral:
        return "an excommunicated faction may not enter a town or city with a cathedral (§Excommunication Restrictions)"
    if not fits(state, pl, noble_strength(state, n)):
        return f"{place.name} holds at most {place.capacity} troops (§Town, Cities, and Castles; ruling K61)"
    return None


def _select_reason(state: State, frame: Frame, x: Any) -> str | None:
    """Why the noble named ``x`` may not be chosen to move (§Noble Counters, §Alliances, §Important: one turn a round)."""
    w = W(state)
    n = noble_named(state, x)
    if n < 0:
        return f"{x!r} is not a noble"
    name = card_name(w, n)
    p = frame["p"]
    if state["cz"][n] != Z_NOBLE or n not in controlled_nobles(state, p):
        return f"{name} is not a noble of your faction in play nor under your command (§Alliances)"
    if frame.get("sel") is not None or frame.get("ship") is not None:
        return "finish the move under way first: name where it goes, or go back"
    if state["ncap"][n] >= 0:
        return f"{name} is a captive"
    if state["nship"][n] >= 0:
        return f"{name} is aboard a ship: the ship sails him (§Sea Transportation)"
    if state["nmv"][n] == state["tno"] or state["nvac"][n] == state["tno"]:
        return f"{name} has already moved this turn"
    if not can_act(state, n):
        return f"{name} has moved or fought in another turn of this round: no counter moves or attacks in more than one turn of a round (§Important: one turn a round)"
    if besieged_inside(state, n):
        return f"{name} is under siege in {place_name(w, state['nin'][n])}"
    if not land_moves(state, n):
        return f"{name} has no square he may move to"
    return None


class CardPlay(Labelled):
    """Mixin: the verbs of playing hand cards, executing heirs and opening the dealing menu,
    in one's own turn (ruling K47)."""

    labels = {
        "assign": "award {} to {}", "play": "bring {} into play", "execute_heir": "execute {}",
        "deal": "deal with another player (cards, ships, places, alliances)",
    }

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb == "assign" and isinstance(arg, list) and len(arg) == 2 and arg[1] == "faction":
            return f"keep {arg_name(W(state), arg[0], state['roles'])} as a faction asset"
        return super().option_label(state, frame, role, verb, arg)
    #: Verbs that open a choice which may be backed out of (a combat that may be called off):
    #: they keep the round trips remembered (ruling K90).
    opens: frozenset[str] = frozenset()

    @tolerant
    def why_not_assign(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return card_reason(state, player_of_role(state, role), "assign", arg)

    @tolerant
    def why_not_play(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return card_reason(state, player_of_role(state, role), "play", arg)

    def handle(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> None:
        """As :meth:`Step.handle`; an action that is no round trip forgets the round trips made
        (ruling K90); entering or leaving a place is remembered for the phase."""
        if verb not in ROUND_TRIP and verb not in self.opens:
            frame.pop("idle", None)
        if verb in ("enter", "blockade") and isinstance(arg, list) and len(arg) == 2:
            frame.setdefault("inout", []).append(f"{arg[0]}@{arg[1]}")
        elif verb == "leave" and isinstance(arg, str):
            n = W(state).codec.get(arg)
            if n >= 0 and state["nin"][n] is not None:
                frame.setdefault("inout", []).append(f"{arg}@{state['nin'][n]}")
        super().handle(state, frame, role, verb, arg)
        top = state["stack"][-1] if state["stack"] else None
        if verb in self.opens and top is not None and top is not frame:
            top["via"] = trip_key(verb, arg)  # what a call-off backs out of (Battle.on_call_off)

    def on_deal(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        push(state, {"step": "deal", "p": player_of_role(state, role)})

    def on_assign(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        assign(state, player_of_role(state, role), arg[0], arg[1])

    def on_play(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg)
        p = player_of_role(state, role)
        state["cz"][n], state["ch"][n] = Z_NOBLE, p
        ops.enter_play(state, n)
        state["nmv"][n] = state["nact"][n] = state["tno"]  # he enters; he moves next turn
        log.public(state, f"{role} brings {card_name(w, n)} into play at "
                   f"{place_name(w, state['nin'][n]) if state['nin'][n] else state['nsq'][n]}.", log.RECRUIT)
        ops.capture_heirs(state, p, state["nsq"][n], state["nin"][n])

    def on_execute_heir(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        ops.kill_heir(state, w.heir_codec.id(arg), f"is executed by {role}")


def assign(state: State, p: int, cid: str, target: str) -> None:
    w = W(state)
    c = w.cid(cid)
    card = w.cards[c]
    role = role_of(state, p)
    if target == "faction":
        state["cz"][c], state["ch"][c] = Z_ASSET, p
        log.public(state, f"{role} plays {card.name} as a faction asset.", log.CARD)
    else:
        n = w.cid(target)
        state["cz"][c], state["ch"][c] = Z_AWARD, n
        log.public(state, f"{role} awards {card.name} to {card_name(w, n)}.", log.CARD)
    if card.kind == K.SHIP:
        ops.ship_to_port(state, w.ship_of_card[c])
    for s in w.office_ships.get(c, ()):
        if state["spos"][s] is None and not state.get("scuttled", {}).get(str(s)):
            ops.ship_to_port(state, s)


class Move(CardPlay):
    """The movement phase of the current player (§Movement Phase)."""

    name = "move"
    phase = "movement"
    always_decides = True
    rule = "§Movement Phase"
    labels = {
        **CardPlay.labels,
        "select": "move {}", "sail": "sail the {}", "to": "move to {}", "back": "back", "blockade": "blockade {}",
        "embark": "{} boards the {}", "enter": "{} goes into {}", "escort": "hand {} to {}",
        "free_move": "Free Move for {}", "leave": "leave {}", "end": "end",
    }

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        w = W(state)
        if verb == "to" and frame.get("ship") is not None:
            return f"sail to {arg_name(w, arg)}"
        if verb == "to" and isinstance(arg, str) and arg in w.board.places:
            return f"move into {place_name(w, arg)}"
        if verb == "leave" and isinstance(arg, str) and arg in w.codec:
            n = w.codec.id(arg)
            inside = state["nin"][n]
            return f"{card_name(w, n)} steps out of {place_name(w, inside)} into the open" if inside \
                else f"{card_name(w, n)} steps out into the open"
        return super().option_label(state, frame, role, verb, arg)

    # ----- why an order is refused (§Movement Phase)
    @tolerant
    def why_not_to(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        w = W(state)
        b = w.board
        if frame["sel"] is None and frame["ship"] is None:
            return "first choose the noble (select) or the ship (sail) that moves, then where it goes"
        if not isinstance(arg, str) or (arg not in b.squares and arg not in b.places):
            return f"{arg!r} is neither a square nor a place of this board"
        if frame["sel"] is not None:
            n = w.cid(frame["sel"])
            if arg in b.places:
                return _place_reason(state, n, arg)
            return _square_reason(state, n, arg)
        s = w.ship_codec.id(frame["ship"])
        if arg in ship_dests(state, s):
            return None
        if arg in b.squares and b.squares[arg].land:
            return f"{arg} is land: a ship never moves over land (§Ship Counters)"
        if arg in b.places:
            pl = b.places[arg]
            if not pl.port:
                return f"{pl.name} is not a port"
            return (f"{pl.name} is out of reach this move, or a neutral or unfriendly fortified port: a ship "
                    "enters only a friendly or unfortified port, or one its passengers can besiege; a refuge "
                    "port only with the strength to besiege it (§Ship Counters, §Refuges, §Sea Transportation)")
        return f"{arg} is more than {MOVE_SQUARES} squares away by sea (§Ship Counters)"

    @tolerant
    def why_not_select(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return _select_reason(state, frame, arg)

    @tolerant
    def why_not_enter(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        w = W(state)
        b = w.board
        if not (isinstance(arg, list) and len(arg) == 2):
            return None
        n = noble_named(state, arg[0])
        pl = arg[1]
        if n < 0 or pl not in b.places:
            return None
        place = b.places[pl]
        if state["nsq"][n] != place.square:
            return f"{card_name(w, n)} is not in the square of {place.name} ({place.square})"
        o = place_owner(state, pl)
        if o < 0:
            return f"{place.name} is neutral: it may not be entered without conquering it first (§Faction)"
        if pl in state["siege"] and o != frame["p"]:
            return f"{place.name} is under siege"
        if not fits(state, pl, noble_strength(state, n)):
            return f"{place.name} holds at most {place.capacity} troops (§Town, Cities, and Castles; ruling K61)"
        return None

    @tolerant
    def why_not_embark(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        w = W(state)
        b = w.board
        if not (isinstance(arg, list) and len(arg) == 2):
            return None
        n = noble_named(state, arg[0])
        if n < 0 or arg[1] not in w.ship_codec:
            return None
        s = w.ship_codec.id(arg[1])
        piece = w.ships[s]
        pos = state["spos"][s]
        if pos not in b.places or b.places[pos].square != state["nsq"][n]:
            return f"the {piece.name} must be in a port of {card_name(w, n)}'s square to embark him (§Sea Transportation)"
        if place_owner(state, pos) != frame["p"] and b.places[pos].fortified:
            return f"the {piece.name} embarks nobles only in a friendly or unfortified port (§Sea Transportation)"
        used = sum(noble_strength(state, m) for m in ship_passengers(state, s))
        if used + noble_strength(state, n) > piece.capacity:
            return (f"the {piece.name} carries at most {piece.capacity} troops; with {card_name(w, n)} it would "
                    f"carry {used + noble_strength(state, n)} (§Sea Transportation)")
        return _select_reason(state, {**frame, "sel": None, "ship": None}, arg[0])

    @tolerant
    def why_not_sail(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        w = W(state)
        if not (isinstance(arg, str) and arg in w.ship_codec):
            return None
        s = w.ship_codec.id(arg)
        name = w.ships[s].name
        if state["spos"][s] is None or ship_controller(state, s) != frame["p"]:
            return f"the {name} is not a ship your faction controls"
        if arg in state["sail_denied"]:
            return f"the {name} is in an unfriendly port whose holder refused to let her leave (§Ship Counters)"
        if not ship_can_act(state, s):
            return f"the {name} has moved in another turn of this round (§Important: one turn a round)"
        if not ship_dests(state, s):
            return f"the {name} has nowhere to go"
        return None

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["p"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return move_options(state, frame)

    def is_legal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> bool:
        """Fast check for the commonest verbs (pinned to :meth:`options` by a test)."""
        w = W(state)
        if verb in ("to", "back"):
            if frame["sel"] is not None:
                if verb == "back":
                    return arg is None
                return isinstance(arg, str) and arg in move_dests(state, w.cid(frame["sel"]))
            if frame["ship"] is not None:
                if verb == "back":
                    return arg is None
                return isinstance(arg, str) and arg in ship_dests(state, w.ship_codec.id(frame["ship"]))
            return False
        if frame["sel"] is not None or frame["ship"] is not None:
            return False
        if verb == "select":
            n = w.codec.get(arg)
            return (n >= 0 and w.cards[n].is_noble and state["cz"][n] == Z_NOBLE
                    and n in controlled_nobles(state, frame["p"])
                    and movable(state, n) and bool(land_moves(state, n)) and arg not in idle(frame))
        if verb == "end":
            return arg is None
        return super().is_legal(state, frame, role, verb, arg)

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        if role != role_of(state, frame["p"]):
            return f"{role_of(state, frame['p'])} is moving."
        if frame["sel"] is not None:
            return f"Where does {card_name(w, w.cid(frame['sel']))} move?"
        if frame["ship"] is not None:
            return f"Where does the {w.ships[w.ship_codec.id(frame['ship'])].name} sail?"
        return "Movement: move nobles and ships, or end the phase."

    def on_select(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["sel"] = arg

    def on_sail(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        s = w.ship_codec.id(arg)
        pos = state["spos"][s]
        if pos in w.board.places:
            o = place_owner(state, pos)
            if o >= 0 and o != frame["p"] and not allied(state, o, frame["p"]) and arg not in state["sail_leave"]:
                # §Sea Transportation: a ship in an unfriendly port leaves only with its owner's permission.
                push(state, {"step": "permit", "p": o, "asker": frame["p"], "ship": arg, "place": pos})
                return
        frame["ship"] = arg

    def on_back(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        mark_idle(frame, frame["sel"] if frame["sel"] is not None else frame["ship"])  # ruling K90
        frame["sel"] = frame["ship"] = None

    def on_to(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        p = frame["p"]
        if frame["sel"] is not None:
            n = w.cid(frame["sel"])
            frame["sel"] = None
            if arg in w.board.places:
                sq, inside = w.board.places[arg].square, arg
            else:
                sq, inside = arg, None
            before = state["nsq"][n]
            ops.put_noble(state, n, sq, inside)
            state["nmv"][n] = state["nact"][n] = state["tno"]
            log.public(state, f"{card_name(w, n)} moves to {place_name(w, inside or sq)}.", log.MOVE)
            owner = state["ch"][n]  # an ally's noble under this player's command stays his
            if before is None or refuge_area(state, before) != refuge_area(state, sq):
                enter_refuge(state, owner, n, sq)
            pick_up_mercenaries(state, n)
            ops.capture_heirs(state, owner, sq, inside)
            return
        s = w.ship_codec.id(frame["ship"])
        frame["ship"] = None
        sail(state, p, s, arg)

    def on_blockade(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        state["blockades"][arg[0]] = arg[1]
        log.public(state, f"The {w.ships[w.ship_codec.id(arg[0])].name} blockades {place_name(w, arg[1])}.", log.MOVE)

    def on_free_move(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """Free Move (Event Card Key): one more move for one counter this turn (a ship with
        its passengers counts as one); at most one per counter per turn."""
        w = W(state)
        if arg not in w.ship_codec and state["ch"][w.cid(arg)] != frame["p"]:
            n = w.cid(arg)
            frame.setdefault("asked", []).append(n)
            push(state, {"step": "offer", "kind": "free_move", "from": frame["p"], "to": state["ch"][n], "noble": n})
            log.public(state, f"{role} asks {role_of(state, state['ch'][n])} for a Free Move for {card_name(w, n)}, "
                       "who serves under his command.", log.MOVE)
            return
        ops.discard_event(state, free_moves(state, frame["p"])[0])
        if arg in w.ship_codec:
            state["smv"][w.ship_codec.id(arg)] = -1
            state["freed"].append(arg)
            log.public(state, f"{role} plays Free Move for the {w.ships[w.ship_codec.id(arg)].name}.", log.MOVE)
        else:
            n = w.cid(arg)
            state["nmv"][n] = -1
            state["freed"].append(n)
            log.public(state, f"{role} plays Free Move for {card_name(w, n)}.", log.MOVE)

    def on_embark(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n, s = w.cid(arg[0]), w.ship_codec.id(arg[1])
        state["nsq"][n], state["nin"][n], state["nship"][n] = None, None, s
        state["nmv"][n] = state["nact"][n] = state["tno"]
        log.public(state, f"{card_name(w, n)} boards the {w.ships[s].name}.", log.MOVE)

    def on_enter(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n, pl = w.cid(arg[0]), arg[1]
        o = place_owner(state, pl)
        if o == frame["p"]:
            state["nin"][n] = pl
            ops.capture_heirs(state, frame["p"], state["nsq"][n], pl)
            return
        push(state, {"step": "permit", "p": o, "asker": frame["p"], "n": arg[0], "place": pl})

    def on_leave(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        n = w.cid(arg)
        state["nin"][n] = None
        ops.capture_heirs(state, frame["p"], state["nsq"][n], None)

    def on_escort(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        h = w.heir_codec.id(arg[0])
        if state["hesc"][h] >= 0:  # ruling K90: the heir is not handed back to him this phase
            frame.setdefault("inout", []).append(f"{arg[0]}@{w.cards[state['hesc'][h]].id}")
        state["hesc"][h] = w.cid(arg[1])

    def on_end(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)


def sail(state: State, p: int, s: int, dest: str) -> None:
    """Move a ship (§Sea Transportation); entering a port ends its move and lands its passengers in the
    open of the port's square; in a neutral or unfriendly port they must besiege it (§Sea Transportation)."""
    w = W(state)
    b = w.board
    held = blockaded_from(state, s)
    state["blockades"].pop(w.ships[s].id, None)
    state["spos"][s] = dest
    state["smv"][s] = state["tno"]
    if dest in held:
        state["obliged"].append(["sea", dest])
    name = w.ships[s].name
    passengers = ship_passengers(state, s)
    if dest in b.places:
        log.public(state, f"The {name} sails into {b.places[dest].name}.", log.MOVE)
        ops.touch_port(state, s)
        for n in passengers:
            land_passenger(state, n, dest)
            state["nmv"][n] = state["nact"][n] = state["tno"]
            enter_refuge(state, p, n, b.places[dest].square)
            pick_up_mercenaries(state, n)
        if passengers:
            o = place_owner(state, dest)
            if o != p and b.places[dest].fortified:
                state["obliged"].append(["siege", dest])
            ops.capture_heirs(state, p, b.places[dest].square, None)
    else:
        log.public(state, f"The {name} sails to {place_name(w, dest)}.", log.MOVE)


class Permit(Labelled):
    """The owner of a place answers a request to enter it (§Faction, §Town, Cities, and Castles); default: no."""

    name = "permit"
    phase = "movement"
    always_decides = True
    rule = "§Faction, §Ship Counters, §Town, Cities, and Castles"
    labels = {"allow": "allow", "deny": "deny"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The published default: deny (when it is an option)."""
        return offered(self.options(state, frame, role), ("deny", None))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["p"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("allow", None), ("deny", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        if "ship" in frame:
            return (f"{role_of(state, frame['asker'])} asks that the {w.ships[w.ship_codec.id(frame['ship'])].name} "
                    f"may leave {place_name(w, frame['place'])}. Allow? (default: no)")
        return (f"{role_of(state, frame['asker'])} asks that {card_name(w, w.cid(frame['n']))} may enter "
                f"{place_name(w, frame['place'])}. Allow? (default: no)")

    def on_allow(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        if "ship" in frame:
            state["sail_leave"].append(frame["ship"])
            log.public(state, f"{role} lets the ship leave {place_name(w, frame['place'])}.", log.MOVE)
            pop(state)
            mv = state["stack"][-1]
            if mv["step"] == "move":
                mv["ship"] = frame["ship"]
            return
        n = w.cid(frame["n"])
        state["nin"][n] = frame["place"]
        # a guest takes no heir inside: the heir falls with the place (ruling K96, as K35)
        state["guests"].setdefault(frame["place"], []).append(frame["asker"])
        log.public(state, f"{role} lets {card_name(w, n)} into {place_name(w, frame['place'])}.", log.MOVE)
        pop(state)

    def on_deny(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        if "ship" in frame:
            state["sail_denied"].append(frame["ship"])
            log.public(state, f"{role} keeps the ship in {place_name(w, frame['place'])}.", log.MOVE)
            pop(state)
            return
        log.public(state, f"{role} refuses {card_name(w, w.cid(frame['n']))} entry to "
                   f"{place_name(w, frame['place'])}.", log.MOVE)
        stalling.refuse(state, frame["asker"], f"enter:{frame['place']}")  # ruling K93
        pop(state)


# ============================================================================ coronation
def coronation_options(state: State, p: int) -> list[Action]:
    """§Coronation Phase: the senior surviving member of a house, controlled by ``p``, inside a
    cathedral with nobles of ``p`` holding an archbishop or two bishops there (ruling K32:
    Richard of York too). One King per house (§Victory Conditions); Beaufort when every Lancastrian heir is
    dead (§Victory Conditions)."""
    w = W(state)
    out: list[Action] = []
    if (state["defeatism"].get(str(p), 0) > 0 or p in state["excommunicated"]
            or (state["rogue"] and state["rogue"]["employer"] == p)):
        return out
    crowned_houses = {w.heirs[h].house for h in range(len(w.heirs)) if state["hcrown"][h] and not state["hdead"][h]}
    if state["beaufort_crowned"]:
        crowned_houses.add("lancaster")
    for house in ("lancaster", "york"):
        if house in crowned_houses:
            continue
        h = senior_heir(state, house)
        if h >= 0:
            if heir_controller(state, h) != p:
                continue
            sq, inside, ship = heir_loc(state, h)
            if _can_crown_at(state, p, sq, inside, ship):
                out.append(("crown", w.heirs[h].id))
        elif house == "lancaster":
            bf = w.beaufort
            holds_york = any(w.heirs[h2].house == "york" for h2 in heirs_of(state, p))
            if (state["cz"][bf] == Z_NOBLE and state["ch"][bf] == p and state["ncap"][bf] < 0 and not holds_york
                    and _can_crown_at(state, p, state["nsq"][bf], state["nin"][bf], state["nship"][bf])):
                out.append(("crown", "beaufort"))
    return out


def _can_crown_at(state: State, p: int, sq: str | None, inside: str | None, ship: int) -> bool:
    w = W(state)
    if ship >= 0 or inside is None or not w.board.places[inside].cathedral:
        return False
    arch = bishops = 0
    for n in faction_nobles(state, p):
        if state["ncap"][n] < 0 and state["nsq"][n] == sq and state["nin"][n] == inside:
            for c in awards(state, n):
                card = w.cards[c]
                if card.kind == K.BISHOP:
                    if card.archbishop:
                        arch += 1
                    else:
                        bishops += 1
    return arch >= 1 or bishops >= 2


class Coronation(Labelled):
    name = "coronation"
    phase = "coronation"
    always_decides = True
    rule = "§Coronation Phase"
    labels = {"crown": "crown {}", "pass": "pass"}

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["p"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return coronation_options(state, frame["p"]) + [("pass", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Coronation: crown your heir, or pass."

    def on_crown(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        if arg == "beaufort":
            state["beaufort_crowned"] = True
            log.public(state, f"{role} crowns Beaufort King of England.", log.POLITICAL)
        else:
            h = w.heir_codec.id(arg)
            state["hcrown"][h] = True
            log.public(state, f"{role} crowns {w.heirs[h].name}"
                       + (" Queen Regent" if arg == "margaret" else " King of England") + ".", log.POLITICAL)
        # §Voting on Cards Distributed: a Parliament-supported King keeps his support only until another is crowned.
        state["supported"] = None
        pop(state)

    def on_pass(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)


# ============================================================================ crown deck phase
class CrownPhase(CardPlay):
    """§Crown Deck Phase: draw the top Crown card into the hand; then play cards or end the turn."""

    name = "crown"
    phase = "crown"
    rule = "§Crown Deck Phase"
    labels = {**CardPlay.labels, "end": "end"}

    def actors(self, state: State, frame: Frame) -> list[str]:
        if not frame["drawn"]:
            return []
        return [role_of(state, frame["p"])]

    def run(self, state: State, frame: Frame) -> None:
        frame["drawn"] = True
        p = frame["p"]
        c = ops.draw_crown(state)
        if c < 0:
            log.public(state, "The Crown deck and its discard are empty: no card is drawn.", log.CARD)
            return
        receive_crown(state, p, c)

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return card_options(state, frame["p"], frame) + [("end", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Crown deck phase: play cards from your hand, or end your turn."

    def on_end(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)


def _claim(state: State, p: int) -> int | None:
    """Who takes player ``p``'s Crown draw now (E1 §Booty): the first claim on it, booty (a
    player) or a ransom for a noble held until it is paid ([captor, noble]); a ransom claim
    for a noble no longer held (dead) is void and skipped. The last claim for a held noble
    frees him at once."""
    claims = state["booty"].get(str(p))
    taker: int | None = None
    while claims and taker is None:
        entry = claims.pop(0)
        if isinstance(entry, int):
            taker = entry
            break
        cap, n = entry
        if state["cz"][n] != Z_NOBLE or state["ncap"][n] != cap:
            continue
        taker = cap
        if not any(isinstance(e, list) and e[1] == n for e in claims):
            free_captive(state, n, f"The ransom is paid: {card_name(W(state), n)} is freed")
    if claims == []:
        state["booty"].pop(str(p))
    return taker


def receive_crown(state: State, p: int, c: int) -> None:
    """A drawn Crown card goes to the hand, except: Scottish Foot (E1) and Irish Kerns (E2)
    are placed in Scotland / Ireland (§Faction); a Plantagenet goes to the controller of his
    house's senior heir, or is set aside again (ruling K5); E1 Booty may redirect it."""
    w = W(state)
    card = w.cards[c]
    role = role_of(state, p)
    taker = _claim(state, p)
    if taker is not None and taker != p:
        log.public(state, f"{role_of(state, taker)} takes {role}'s Crown draw as booty.", log.CARD)
        p = taker
        role = role_of(state, p)
    if card.lies_in:
        state["cz"][c], state["ch"][c] = Z_LYING, -1
        log.public(state, f"{role} draws {card.name}: placed in {card.lies_in.title()}.", log.CARD)
        return
    if card.kind == K.PLANTAGENET:
        state["cz"][c], state["ch"][c] = Z_ASIDE, -1
        log.public(state, f"{role} draws {card_name(w, c)}, who goes to his house's senior heir.", log.CARD)
        ops.plantagenet_follow(state, card.house)
        return
    state["cz"][c], state["ch"][c] = Z_HAND, p
    log.public(state, f"{role} draws a Crown card.", log.CARD)
    if p in state["excommunicated"] and card.kind in (K.TOWN, K.BISHOP):
        state["excommunicated"].remove(p)  # E2 §Excommunication Restrictions: until a town or religious office is drawn
        log.public(state, f"{role}'s excommunication is lifted.", log.EVENT)
    log.private(state, role, f"You draw {card_name(w, c)}.", log.CARD)


# ============================================================================ victory
def check_victory(state: State) -> None:
    """§Victory Conditions: a player wins who controls the last royal heir, crowned (Beaufort counts
    once crowned; a last Yorkist wins only if Beaufort is not in play)."""
    if state["result"] is not None or not state["stack"]:
        return
    w = W(state)
    alive = live_heirs(state)
    bf = w.beaufort
    beaufort_in_play = state["cz"][bf] == Z_NOBLE and state["nsq"][bf] is not None or (
        state["cz"][bf] == Z_NOBLE and state["nship"][bf] >= 0)
    if len(alive) == 1 and not state["beaufort_crowned"]:
        h = alive[0]
        ctl = heir_controller(state, h)
        if ctl >= 0 and state["hcrown"][h] and (w.heirs[h].house == "lancaster" or not beaufort_in_play):
            win(state, ctl, f"controls {w.heirs[h].name}, the last royal heir, crowned", "last_heir_crowned")
    elif not alive and state["beaufort_crowned"] and beaufort_in_play:
        ctl = owner_of_card(state, bf)
        if ctl >= 0:
            win(state, ctl, "controls Beaufort, crowned King, the last of the royal line", "beaufort_crowned")


def win(state: State, p: int, why: str, end: str) -> None:
    """Player ``p`` wins; ``end`` names the rule that ended the campaign (``state["end"]``)."""
    state["result"] = role_of(state, p)
    state["end"] = end
    log.public(state, f"{role_of(state, p)} wins: {why}.", log.RESULT)

