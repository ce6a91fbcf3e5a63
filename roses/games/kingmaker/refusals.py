"""Why a Kingmaker order is refused, naming the rule (issue 20 item 9: "the exact reason for
refusal"). A player at the board, by e-mail or in the terminal may send an order that is not
one of his options now; the steps' ``refusal`` (play.py, setup.py, parliament.py) asks the
functions here for the reason, with the rulebook's line numbers (``kingmaker-campaign-rules.txt``,
``L``), and falls back to the engine's generic refusal when none applies.

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
    noble_strength,
    noble_title,
    place_name,
    place_owner,
    player_of_role,
    ship_controller,
    ship_passengers,
)
from roses.games.kingmaker.ops import place_active

#: A reason finder: (state, frame, role, verb, arg) -> the reason, or None.
Finder = Callable[[State, Frame, str, str, Any], "str | None"]

MOVE_SQUARES = 5

#: The rule each remaining step applies, named by the engine's generic refusal (Step.rule):
#: rulebook lines, or the Event Card Key's entry. Set on the steps by rules.py.
STEP_RULES = {
    "combat": "L195-249", "battle": "L197-249", "captive": "L283-285", "ransom": "L283-285",
    "ransom_pay": "L283-285", "pardon": "King's Pardon, L468", "spoils": "L313, L425", "scuttle": "E1 L269",
    "vac_port": "E1 L269", "storm_port": "Storms at Sea, L480", "treachery": "Treachery, L494",
    "hunt": "Royal Hunt, L509", "summons": "Raid and Revolt, L118, L481", "permit": "L35, L138, L191",
    "coronation": "L390-396", "crown": "L398-400", "parl_place": "L329-331", "offer": "Transfers, L421-431",
    "trade_back": "Transfers, L421-431", "deal": "Transfers, L421-431", "tabletop": "L203, L226",
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
    """Squares within 5 steps of ``start`` on land (L126), with or without the forest stop
    (L128) and the estuary bar (L130): used to tell which restriction keeps a noble out."""
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
    """Why noble ``n`` may not move to square ``sq`` this move (L126-154, L315, L325)."""
    from roses.games.kingmaker.play import blocked_areas, excommunicated_squares, land_moves

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
                "square (L162-164)")
    p = state["ch"][n]
    if p in state["excommunicated"] and sq in excommunicated_squares(state):
        return "an excommunicated faction may not enter the squares of Salisbury, Wells or St Davids (L325)"
    area = b.squares[sq].area
    if area in blocked_areas(state, p, n):
        return (f"{sq} is in {area.replace('_', ' ').title()}, a refuge: entering needs a Refuge card or the "
                "office that exempts (E1, L140-148), or a place to besiege, a force to attack or an heir "
                "to capture there (L150)")
    strict = _land_reach(state, start, forest_stops=True, estuaries=True)
    if sq in strict:
        return None
    if sq in _land_reach(state, start, forest_stops=False, estuaries=True):
        return (f"moving from an open square into a forest square ends the move (L128; ruling K9), so {sq} "
                f"cannot be reached from {start} this move")
    if sq in _land_reach(state, start, forest_stops=False, estuaries=False):
        if area == "anglesey" or b.squares[start].area == "anglesey":
            return ("Anglesey is crossed to only by nobles who start the move in the Caernarvon square "
                    "(L154)")
        return f"an estuary lies between {start} and {sq}: rivers may be crossed, estuaries not (L130)"
    road = " (a road is followed without limit only from a road square, until a neutral or unfriendly place, L129)"
    return f"{sq} is more than {MOVE_SQUARES} squares from {start} by land (L126){road}"


def _place_reason(state: State, n: int, pl: str) -> str | None:
    """Why noble ``n`` may not end his move inside place ``pl`` (L35, L191-193, L325)."""
    from roses.games.kingmaker.play import fits

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
                f"faction (L35, L191); move to square {place.square} and besiege it"
                + (", or ask its holder to let him enter (enter)" if o >= 0 else ""))
    if p in state["excommunicated"] and place.cathedral:
        return "an excommunicated faction may not enter a town or city with a cathedral (L325)"
    if not fits(state, pl, noble_strength(state, n)):
        return f"{place.name} holds at most {place.capacity} troops (L193; ruling K61)"
    return None


def _select_reason(state: State, frame: Frame, x: Any) -> str | None:
    """Why the noble named ``x`` may not be chosen to move (L126, L311, L315)."""
    from roses.games.kingmaker.play import besieged_inside, can_act, controlled_nobles, land_moves

    w = W(state)
    n = _noble(state, x)
    if n < 0:
        return f"{x!r} is not a noble"
    name = card_name(w, n)
    p = frame["p"]
    if state["cz"][n] != Z_NOBLE or n not in controlled_nobles(state, p):
        return f"{name} is not a noble of your faction in play nor under your command (L311)"
    if frame.get("sel") is not None or frame.get("ship") is not None:
        return "finish the move under way first: name where it goes, or go back"
    if state["ncap"][n] >= 0:
        return f"{name} is a captive"
    if state["nship"][n] >= 0:
        return f"{name} is aboard a ship: the ship sails him (L162)"
    if state["nmv"][n] == state["tno"] or state["nvac"][n] == state["tno"]:
        return f"{name} has already moved this turn"
    if not can_act(state, n):
        return f"{name} has moved or fought in another turn of this round: no counter moves or attacks in more than one turn of a round (L315)"
    if besieged_inside(state, n):
        return f"{name} is under siege in {place_name(w, state['nin'][n])}"
    if not land_moves(state, n):
        return f"{name} has no square he may move to"
    return None


# ============================================================================ movement
def move_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of the movement phase (play.Move, L122-193)."""
    from roses.games.kingmaker.play import fits, ship_can_act, ship_dests

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
            return f"{arg} is land: a ship never moves over land (L138)"
        if arg in b.places:
            pl = b.places[arg]
            if not pl.port:
                return f"{pl.name} is not a port"
            return (f"{pl.name} is out of reach this move, or a neutral or unfriendly fortified port: a ship "
                    "enters only a friendly or unfortified port, or one its passengers can besiege; a refuge "
                    "port only with the strength to besiege it (L138, L150, L168)")
        return f"{arg} is more than {MOVE_SQUARES} squares away by sea (L138)"
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
            return f"{place.name} is neutral: it may not be entered without conquering it first (L35)"
        if pl in state["siege"] and o != p:
            return f"{place.name} is under siege"
        if not fits(state, pl, noble_strength(state, n)):
            return f"{place.name} holds at most {place.capacity} troops (L193; ruling K61)"
        return None
    if verb == "embark" and isinstance(arg, list) and len(arg) == 2:
        n = _noble(state, arg[0])
        if n < 0 or arg[1] not in w.ship_codec:
            return None
        s = w.ship_codec.id(arg[1])
        piece = w.ships[s]
        pos = state["spos"][s]
        if pos not in b.places or b.places[pos].square != state["nsq"][n]:
            return f"the {piece.name} must be in a port of {card_name(w, n)}'s square to embark him (L164)"
        used = sum(noble_strength(state, m) for m in ship_passengers(state, s))
        if used + noble_strength(state, n) > piece.capacity:
            return (f"the {piece.name} carries at most {piece.capacity} troops; with {card_name(w, n)} it would "
                    f"carry {used + noble_strength(state, n)} (L164)")
        return _select_reason(state, {**frame, "sel": None, "ship": None}, arg[0])
    if verb == "sail" and isinstance(arg, str) and arg in w.ship_codec:
        s = w.ship_codec.id(arg)
        name = w.ships[s].name
        if state["spos"][s] is None or ship_controller(state, s) != p:
            return f"the {name} is not a ship your faction controls"
        if arg in state["sail_denied"]:
            return f"the {name} is in an unfriendly port whose holder refused to let her leave (L138)"
        if not ship_can_act(state, s):
            return f"the {name} has moved in another turn of this round (L315)"
        if not ship_dests(state, s):
            return f"the {name} has nowhere to go"
        return None
    if verb in ("assign", "play", "execute_heir"):
        return card_reason(state, p, verb, arg)
    return None


# ============================================================================ cards
def card_reason(state: State, p: int, verb: str, arg: Any, setup: bool = False) -> str | None:
    """Why a Crown card may not be placed so (L39, L60-66, L461-468)."""
    w = W(state)
    if verb in ("give", "assign") and isinstance(arg, list) and len(arg) == 2:
        c = _in_hand(state, p, arg[0])
        if c < 0:
            return f"you hold no Crown card {arg[0]!r} in hand"
        card = w.cards[c]
        if arg[1] == "faction":
            if card.kind in (K.TOWN, K.SHIP, K.ROYAL_CASTLE):
                return None
            return f"only town and ship cards are kept by the faction as a whole; {card.name} must go to a noble (L66)"
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
            return f"only town and ship cards are kept by the faction as a whole; {w.cards[c].name} must go to a noble (L66)"
    if verb == "play":
        c = _in_hand(state, p, arg)
        if c < 0:
            return f"you hold no Crown card {arg!r} in hand"
        if not w.cards[c].is_noble:
            return f"{w.cards[c].name} is not a noble: it is given to a noble or to the faction (assign)"
    return None


def award_reason(state: State, c: int, n: int, setup: bool = False) -> str | None:
    """Why card ``c`` may not go to noble ``n`` (L39, L60-66, L461-468)."""
    from roses.games.kingmaker.setup import _besieged

    w = W(state)
    card = w.cards[c]
    name = card_name(w, n)
    if state["ncap"][n] >= 0:
        return f"{name} is a captive"
    if not setup:
        if state["nship"][n] >= 0:
            return f"{name} is at sea: no card is assigned to a noble at sea (L39)"
        if _besieged(state, n):
            return f"{name} is under siege: no card is assigned to a noble under siege (L39)"
        if c in state["traded"] and (state["nfo"][n] == state["tno"] or n in state["defended"]):
            return f"{card.name} was traded this turn and {name} has fought in it (L448)"
    if card.kind == K.TITLE and noble_title(state, n):
        return f"{name} already has a title: each noble has one and only one title (L64)"
    if card.kind == K.OFFICE:
        if not noble_title(state, n):
            return f"{name} has no title: offices go to titled nobles only (L65)"
        if any(w.cards[a].kind == K.OFFICE for a in awards(state, n)):
            return f"{name} already holds an office: each titled noble has one and only one (L65)"
    if card.lies_in == "ireland" and card.kind in (K.MERCENARY, K.BISHOP, K.TOWN, K.ROYAL_CASTLE, K.SHIP):
        lt = w.codec.get("lieutenant_of_ireland")
        if not (lt >= 0 and lt in awards(state, n)):
            return f"{card.name} goes only to the Lieutenant of Ireland (E2, L49)"
    if card.kind == K.FRENCH_AID:
        sq = state["nsq"][n]
        if sq is None or w.board.squares[sq].area not in ("pale_of_calais", "continent"):
            return f"{card.name} may be given only to a noble in Calais or on the Continent (L467)"
    return None


def arrange_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of the arrangement of the dealt cards (setup.Arrange, L60-66)."""
    p = player_of_role(state, role)
    if verb == "done":
        return ("every title that can go to an untitled noble, every office that can go to a titled one, and "
                "every bishop, mercenary, town and ship card must be placed first (L60-66)")
    return card_reason(state, p, verb, arg, setup=True)


# ============================================================================ Parliament
def summon_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of the Parliament phase (L329-332; ruling K11)."""
    from roses.games.kingmaker import parliament

    if verb != "summon":
        return None
    w = W(state)
    p = frame["p"]
    fig = parliament.summoner_figure(state, p)
    if fig is None:
        return ("only the player controlling the sole King, or the Chancellor's player holding a Parliament "
                "card when there are two Kings or none, may summon Parliament (L329)")
    if not parliament.writs(state, p):
        return "a Writ of summons must be presented to another player's noble (L332)"
    if isinstance(arg, str) and arg in w.board.places and arg not in parliament.parliament_places(state, *fig):
        return (f"Parliament may not meet at {place_name(w, arg)}: it meets in a town or city (not a castle, "
                "Calais or Dublin, not under siege) where the King or Chancellor stands (L331; ruling K11)")
    return None


def writ_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of the summonses and the attendance (L332-334; ruling K41)."""
    from roses.games.kingmaker import parliament

    if verb == "open" and not frame.get("summoned"):
        return "Parliament opens once at least one noble of another player is summoned by a Writ (L332)"
    if verb not in ("writ", "attend"):
        return None
    w = W(state)
    n = _noble(state, arg)
    if n < 0 or state["cz"][n] != Z_NOBLE:
        return f"{arg!r} is not a noble in play"
    name = card_name(w, n)
    p = player_of_role(state, role)
    if verb == "writ" and state["ch"][n] == frame["p"]:
        return "a Writ summons another player's noble, not one's own (L332)"
    if verb == "writ" and not parliament.writs(state, frame["p"]):
        return "you hold no Writ of summons (L332)"
    if verb == "attend" and state["ch"][n] != p:
        return f"{name} is not of your faction"
    if state["nsq"][n] == frame["sq"]:
        return f"{name} is already in Parliament's square"
    if parliament.needs_ship(state, n):
        return (f"{name} is on an island or in Calais: he comes only if an empty ship of his faction, large "
                "enough for his troops, is there to carry him (L334)")
    return f"{name} cannot come: he is at sea, a captive, under siege, or outside England and Wales (L334; ruling K41)"


def vote_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of a vote (L366-368, L386)."""
    if verb != "vote":
        return None
    if frame["motion"] == "kings":
        return "the vote between the Kings names one of them, or abstains (L386): " + ", ".join(
            [*frame["choices"], "abstain"])
    return "a ballot is yes, no or abstain (L366)"


def propose_reason(state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
    """Refusals of a proposal for a Chancery card (L355-370)."""
    from roses.games.kingmaker import parliament

    if verb != "propose":
        return None
    w = W(state)
    n = _noble(state, arg)
    if n < 0 or state["cz"][n] != Z_NOBLE:
        return f"{arg!r} is not a noble in play"
    if n in frame.get("tried", ()):
        return f"{card_name(w, n)} has declined it (L370): propose another"
    if n in parliament.recipients(state, frame["card"]):
        return None
    if state["nsq"][n] is None and state["nship"][n] < 0:
        return f"{card_name(w, n)} is not on the board"
    return award_reason(state, frame["card"], n, setup=True)
