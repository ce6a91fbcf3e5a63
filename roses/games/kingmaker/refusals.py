"""Why a Kingmaker order is refused, naming the rule: the exact reason for a refusal. A player at the board, by e-mail or in the terminal may send an order that is not
one of his options now; the steps' ``refusal`` (play.py, setup.py, parliament.py) asks the
functions here for the reason, naming the section of the campaign rules (``§<heading>``,
rulebook.py), and falls back to the engine's generic refusal when none applies.

A reason names only what the refused role may know: the board, the public position, the
player's own hand. It never says where a card is that he does not hold (it may be in another
hand, a deck or Chancery) and never names a card by what is hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roses.engine.contract import State
from roses.engine.steps import Frame, Step, refusal
from roses.games.kingmaker import cards as K
from roses.games.kingmaker.common import (
    Z_HAND,
    Z_NOBLE,
    W,
    awards,
    card_name,
    controlled_nobles,
    noble_strength,
    noble_title,
    place_name,
    place_owner,
    player_of_role,
    ship_controller,
    ship_passengers,
)
from roses.games.kingmaker.ops import place_active
from roses.games.kingmaker.queries import (
    _besieged,
    besieged_inside,
    blocked_areas,
    can_act,
    excommunicated_squares,
    fits,
    land_moves,
    needs_ship,
    parliament_places,
    recipients,
    ship_can_act,
    ship_dests,
    summoner_figure,
    writs,
)

#: A reason finder: (state, frame, role, verb, arg) -> the reason, or None.
Finder = Callable[[State, Frame, str, str, Any], "str | None"]

MOVE_SQUARES = 5

#: The rule each remaining step applies, named by the engine's generic refusal (Step.rule):
#: rulebook lines, or the Event Card Key's entry. Set on the steps by rules.py.
STEP_RULES = {
    "combat": "§Combat Phase", "battle": "§Combat Phase", "captive": "§Capture of Noble Counters", "ransom": "§Capture of Noble Counters",
    "ransom_pay": "§Capture of Noble Counters", "pardon": "King's Pardon, §Crown Card Key", "spoils": "§Alliances, §Transfers", "scuttle": "E1 §Sea Battles",
    "vac_port": "E1 §Sea Battles", "storm_port": "Storms at Sea, §Event Card Key", "treachery": "Treachery, §Event Card Key",
    "hunt": "Royal Hunt, §Event Card Key", "summons": "Raid and Revolt, §Chance Phase, §Event Card Key", "permit": "§Faction, §Ship Counters, §Town, Cities, and Castles",
    "coronation": "§Coronation Phase", "crown": "§Crown Deck Phase", "parl_place": "§Calling Parliament", "offer": "§Transfers",
    "trade_back": "§Transfers", "deal": "§Transfers", "tabletop": "§Battle, §Siege",
}


def explain(step: Step, state: State, frame: Frame, role: str, verb: str, arg: Any, finder: Finder) -> str:
    """The refusal of ``(verb, arg)``: the reason ``finder`` gives (naming the rule), what is
    asked now and the kinds of action open; the engine's generic refusal without a reason.
    A finder that trips on a malformed argument gives no reason."""
    try:
        reason = finder(state, frame, role, verb, arg)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        reason = None
    if not reason:
        return Step.refusal(step, state, frame, role, verb, arg)
    head = refusal(role, verb, arg)[:-1]
    asked = step.prompt(state, frame, role).strip().rstrip(".")
    end = "" if asked.endswith(("?", "!")) else "."
    text = f"{head}: {reason}." + (f" Now: {asked}{end}" if asked else "")
    verbs = list(dict.fromkeys(v for v, _ in step.options(state, frame, role)))
    if verbs:
        text += " You may: " + ", ".join(v.replace("_", " ") for v in verbs) + "."
    return text


# ============================================================================ helpers
def _noble(state: State, x: Any) -> int:
    """The noble card named ``x`` (in play or not), or -1."""
    w = W(state)
    if not isinstance(x, str):
        return -1
    c = w.codec.get(x)
    return c if c >= 0 and w.cards[c].is_noble else -1


def _in_hand(state: State, p: int, x: Any) -> int:
    """The card ``x`` if player ``p`` holds it in hand, else -1 (never says where it is)."""
    w = W(state)
    if not isinstance(x, str):
        return -1
    c = w.codec.get(x)
    return c if c >= 0 and state["cz"][c] == Z_HAND and state["ch"][c] == p else -1


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
    n = _noble(state, x)
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


# ============================================================================ movement
def move_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:  # noqa: C901 - each reason a move is refused, in the rules' order
    """Refusals of the movement phase (play.Move, §Movement Phase)."""
    w = W(state)
    b = w.board
    p = frame["p"]
    if verb == "to":
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
    if verb == "select":
        return _select_reason(state, frame, arg)
    if verb == "enter" and isinstance(arg, list) and len(arg) == 2:
        n = _noble(state, arg[0])
        pl = arg[1]
        if n < 0 or pl not in b.places:
            return None
        place = b.places[pl]
        if state["nsq"][n] != place.square:
            return f"{card_name(w, n)} is not in the square of {place.name} ({place.square})"
        o = place_owner(state, pl)
        if o < 0:
            return f"{place.name} is neutral: it may not be entered without conquering it first (§Faction)"
        if pl in state["siege"] and o != p:
            return f"{place.name} is under siege"
        if not fits(state, pl, noble_strength(state, n)):
            return f"{place.name} holds at most {place.capacity} troops (§Town, Cities, and Castles; ruling K61)"
        return None
    if verb == "embark" and isinstance(arg, list) and len(arg) == 2:
        n = _noble(state, arg[0])
        if n < 0 or arg[1] not in w.ship_codec:
            return None
        s = w.ship_codec.id(arg[1])
        piece = w.ships[s]
        pos = state["spos"][s]
        if pos not in b.places or b.places[pos].square != state["nsq"][n]:
            return f"the {piece.name} must be in a port of {card_name(w, n)}'s square to embark him (§Sea Transportation)"
        if place_owner(state, pos) != p and b.places[pos].fortified:
            return f"the {piece.name} embarks nobles only in a friendly or unfortified port (§Sea Transportation)"
        used = sum(noble_strength(state, m) for m in ship_passengers(state, s))
        if used + noble_strength(state, n) > piece.capacity:
            return (f"the {piece.name} carries at most {piece.capacity} troops; with {card_name(w, n)} it would "
                    f"carry {used + noble_strength(state, n)} (§Sea Transportation)")
        return _select_reason(state, {**frame, "sel": None, "ship": None}, arg[0])
    if verb == "sail" and isinstance(arg, str) and arg in w.ship_codec:
        s = w.ship_codec.id(arg)
        name = w.ships[s].name
        if state["spos"][s] is None or ship_controller(state, s) != p:
            return f"the {name} is not a ship your faction controls"
        if arg in state["sail_denied"]:
            return f"the {name} is in an unfriendly port whose holder refused to let her leave (§Ship Counters)"
        if not ship_can_act(state, s):
            return f"the {name} has moved in another turn of this round (§Important: one turn a round)"
        if not ship_dests(state, s):
            return f"the {name} has nowhere to go"
        return None
    if verb in ("assign", "play", "execute_heir"):
        return card_reason(state, p, verb, arg)
    return None


# ============================================================================ cards
def card_reason(state: State, p: int, verb: str, arg: Any, setup: bool = False) -> str | None:
    """Why a Crown card may not be placed so (§Faction, §Preparing to Play, §Crown Card Key)."""
    w = W(state)
    if verb in ("give", "assign") and isinstance(arg, list) and len(arg) == 2:
        c = _in_hand(state, p, arg[0])
        if c < 0:
            return f"you hold no Crown card {arg[0]!r} in hand"
        card = w.cards[c]
        if arg[1] == "faction":
            if card.kind in (K.TOWN, K.SHIP, K.ROYAL_CASTLE):
                return None
            return f"only town and ship cards are kept by the faction as a whole; {card.name} must go to a noble (§Preparing to Play)"
        n = _noble(state, arg[1])
        if n < 0:
            return f"{arg[1]!r} is not a noble"
        if state["cz"][n] != Z_NOBLE or state["ch"][n] != p:
            return f"{card_name(w, n)} is not a noble of your faction in play"
        return award_reason(state, c, n, setup)
    if verb == "asset":
        c = _in_hand(state, p, arg)
        if c < 0:
            return f"you hold no Crown card {arg!r} in hand"
        if w.cards[c].kind not in (K.TOWN, K.SHIP, K.ROYAL_CASTLE):
            return f"only town and ship cards are kept by the faction as a whole; {w.cards[c].name} must go to a noble (§Preparing to Play)"
    if verb == "play":
        c = _in_hand(state, p, arg)
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


def arrange_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of the arrangement of the dealt cards (setup.Arrange, §Preparing to Play)."""
    p = player_of_role(state, role)
    if verb == "done":
        return ("every title that can go to an untitled noble, every office that can go to a titled one, and "
                "every bishop, mercenary, town and ship card must be placed first (§Preparing to Play)")
    return card_reason(state, p, verb, arg, setup=True)


# ============================================================================ Parliament
def summon_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of the Parliament phase (§Calling Parliament; ruling K11)."""
    if verb != "summon":
        return None
    w = W(state)
    p = frame["p"]
    fig = summoner_figure(state, p)
    if fig is None:
        return ("only the player controlling the sole King, or the Chancellor's player holding a Parliament "
                "card when there are two Kings or none, may summon Parliament (§Calling Parliament)")
    if not writs(state, p):
        return "a Writ of summons must be presented to another player's noble (§Calling Parliament)"
    if isinstance(arg, str) and arg in w.board.places and arg not in parliament_places(state, *fig):
        return (f"Parliament may not meet at {place_name(w, arg)}: it meets in a town or city (not a castle, "
                "Calais or Dublin, not under siege) where the King or Chancellor stands (§Calling Parliament; ruling K11)")
    return None


def writ_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of the summonses and the attendance (§Calling Parliament; ruling K41)."""
    if verb == "open" and not frame.get("summoned"):
        return "Parliament opens once at least one noble of another player is summoned by a Writ (§Calling Parliament)"
    if verb not in ("writ", "attend"):
        return None
    w = W(state)
    n = _noble(state, arg)
    if n < 0 or state["cz"][n] != Z_NOBLE:
        return f"{arg!r} is not a noble in play"
    name = card_name(w, n)
    p = player_of_role(state, role)
    if verb == "writ" and state["ch"][n] == frame["p"]:
        return "a Writ summons another player's noble, not one's own (§Calling Parliament)"
    if verb == "writ" and not writs(state, frame["p"]):
        return "you hold no Writ of summons (§Calling Parliament)"
    if verb == "attend" and state["ch"][n] != p:
        return f"{name} is not of your faction"
    if state["nsq"][n] == frame["sq"]:
        return f"{name} is already in Parliament's square"
    if needs_ship(state, n):
        return (f"{name} is on an island or in Calais: he comes only if an empty ship of his faction, large "
                "enough for his troops, is there to carry him (§Calling Parliament)")
    return f"{name} cannot come: he is at sea, a captive, under siege, or outside England and Wales (§Calling Parliament; ruling K41)"


def vote_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of a vote (§Voting on Cards Distributed)."""
    if verb != "vote":
        return None
    if frame["motion"] == "kings":
        return "the vote between the Kings names one of them, or abstains (§Voting on Cards Distributed): " + ", ".join(
            [*frame["choices"], "abstain"])
    return "a ballot is yes, no or abstain (§Voting on Cards Distributed)"


def propose_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of a proposal for a Chancery card (§Distributing Cards, §Voting on Cards Distributed)."""
    if verb != "propose":
        return None
    w = W(state)
    n = _noble(state, arg)
    if n < 0 or state["cz"][n] != Z_NOBLE:
        return f"{arg!r} is not a noble in play"
    if n in frame.get("tried", ()):
        return f"{card_name(w, n)} has declined it (§Voting on Cards Distributed): propose another"
    if n in recipients(state, frame["card"]):
        return None
    if state["nsq"][n] is None and state["nship"][n] < 0:
        return f"{card_name(w, n)} is not on the board"
    return award_reason(state, frame["card"], n, setup=True)
