"""Kingmaker views, secrets, invariants and the terminal description (the labels of the options:
wording.py and each step's ``labels``).

What a role sees (research §5 item 6): the whole board, every faction's nobles, awards and
assets (public), the piles' sizes, the Event discard; its own hand (Crown and Event cards,
each with a tag); the use of a Refuge card by anyone, never its number of turns. Nobody sees
the order of a deck, the Chancery's cards, another player's hand, or the cards picked face
down by Treachery.

Secrets (scanned by the fuzzer in every payload): the tag of every card in another player's
hand, in a deck, in Chancery or discarded face down by Treachery, and the tag of a Refuge card
in use by another player. Tags are shown only in the holder's hand (``c#012``, ``e#034``).
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from roses.engine.contract import DRAW, State, View, canonical_json
from roses.engine.steps import StepRules
from roses.games.kingmaker import cards as K
from roses.games.kingmaker import corrections, memo, parliament
from roses.games.kingmaker.combat import (
    AMBUSH,
    ATTACKER,
    BATTLE,
    DEFENDER,
    INDECISIVE,
    SEA,
    SIEGE,
    STORM,
    TOWN,
    TOWN_ATTACK,
    attack_power,
    defence,
    survivor_needed,
)
from roses.games.kingmaker.common import (
    E_DECK,
    E_DISC,
    E_HAND,
    E_USE,
    UMPIRE,
    Z_ASIDE,
    Z_ASSET,
    Z_AWARD,
    Z_CHANC,
    Z_DECK,
    Z_DISC,
    Z_HAND,
    Z_LYING,
    Z_NOBLE,
    Z_REMOVED,
    ZONE_NAMES,
    W,
    World,
    card_name,
    has_umpire,
    heir_controller,
    heir_loc,
    noble_strength,
    place_name,
    place_owner,
    player_of_role,
    role_of,
    ship_controller,
    ship_passengers,
)
from roses.games.kingmaker.events import title
from roses.games.kingmaker.play import event_deck

#: The longest umpire's ruling accepted (umpire.py).
MAX_RULING = 2000

CTAGS = tuple(f"c#{c:03d}" for c in range(1000))
ETAGS = tuple(f"e#{e:03d}" for e in range(1000))


def ctag(c: int) -> str:
    return CTAGS[c]


def etag(e: int) -> str:
    return ETAGS[e]


def event_title(card: K.EventCard) -> str:
    return title(card)


def view(rules: StepRules, state: State, role: str) -> View:
    p = player_of_role(state, role)
    parts = dict(memo.memoised(state, "public", lambda: public_parts(state)))
    if p >= 0:
        hands, event_hands = memo.memoised(state, "hands", lambda: _hands(state))
        parts["hand"] = hands[p]
        parts["event_hand"] = event_hands[p]
        ballot = parliament.own_ballot(state, p) if parts.get("parliament") else None
        if ballot is not None:
            parts["parliament"] = {**parts["parliament"], "ballot": ballot}
    elif role == UMPIRE and has_umpire(state):
        parts.update(umpire_parts(state))
    top = state["stack"][-1] if state["stack"] else None
    if top is not None and top["step"] == "tabletop":
        parts["tabletop"] = tabletop_view(state, top, role)
    out = rules.step_view(state, role, **parts)
    if role in out.get("active", ()) and state["stack"]:
        default = rules.default_action(state, role)
        out["default"] = list(default) if default is not None else None
        if default is not None:  # what a lapse plays, in words (the server adds the deadline)
            out["default_label"] = rules.label(state, role, default[0], default[1])
    return out


def _hands(state: State) -> tuple[list[list[dict[str, Any]]], list[list[dict[str, Any]]]]:
    """Each player's hand of Crown cards and of Event cards, as his view shows them (with
    their tags), found for all players in one pass (memoised per position; each view shows
    only its own player's)."""
    w = W(state)
    cards = w.cards
    deck = event_deck(state)
    n_players = len(state["roles"])
    hands: list[list[dict[str, Any]]] = [[] for _ in range(n_players)]
    event_hands: list[list[dict[str, Any]]] = [[] for _ in range(n_players)]
    ch, eh = state["ch"], state["eh"]
    for c, z in enumerate(state["cz"]):
        if z == Z_HAND:
            hands[ch[c]].append({"tag": ctag(c), "id": cards[c].id, "name": card_name(w, c), "kind": cards[c].kind,
                                 "text": card_text(w, c)})
    for e, z in enumerate(state["ez"]):
        if z == E_HAND:
            card = deck.cards[e]
            event_hands[eh[e]].append({"tag": etag(e), "id": card.id, "title": event_title(card), "text": event_text(card),
                                       **({"turns": card.turns} if card.kind == "refuge" else {})})
    return hands, event_hands


def _castles(w: World, ids: tuple[str, ...]) -> str:
    names = [w.board.places[c].name for c in ids if c in w.board.places]
    return ", ".join(names)


def card_text(w: World, c: int) -> str:
    """What a Crown card does, in a sentence or two (§Appendix - Crown Card Key; §Preparing to Play;
    §Transfers): shown on the card in its holder's hand."""
    card = w.cards[c]
    k = card.kind
    seats = _castles(w, card.castles)
    seat = f" Its counter starts at {seats}." if seats else ""
    held = f" Its holder may start at {seats}." if seats else ""
    votes = []
    if card.lords:
        votes.append(f"{card.lords} vote{'s' if card.lords != 1 else ''} in the Lords")
    if card.commons:
        votes.append(f"{card.commons} vote{'s' if card.commons != 1 else ''} in the Commons")
    vote = f" {' and '.join(votes)}." if votes else ""
    # a zone this board lacks (a board given as an option, ruling K92) is named in words all the same
    zone = w.board.zone_names.get(card.bonus_zone) or (card.bonus_zone or "").replace("_", " ")
    zone = "the " + zone[4:] if zone.startswith("The ") else zone
    bonus = (f" +{card.bonus_troops} troops in {zone}."
             if card.bonus_troops else "")
    if k == K.NOBLE:
        titled = f" Titled ({card.title}): may take an office, not a title." if card.title \
            else " Untitled: may take one title."
        return f"A noble: play him to put his counter on the board. {card.troops} troops.{vote}{titled}{seat}"
    if k == K.PLANTAGENET:
        return (f"The {card.title}: goes to the faction holding the senior {card.house.title()} heir; a titled "
                f"noble of {card.troops} troops.{seat}")
    if k == K.TITLE:
        return f"A title for an untitled noble: +{card.troops} troops.{vote}{held}"
    if k == K.OFFICE:
        ships = f" Brings {card.ships} ship{'s' if card.ships != 1 else ''}." if card.ships else ""
        return f"An office for a titled noble (one each): +{card.troops} troops.{vote}{bonus}{ships}{held}"
    if k == K.BISHOP:
        see = w.board.places[card.cathedral].name if card.cathedral in w.board.places else card.cathedral
        crown = "an archbishop crowns a King" if card.archbishop else "two bishops together crown a King"
        return f"{'Archbishop' if card.archbishop else 'Bishop'} for any noble: {card.lords} votes in the Lords; " \
               f"{crown} in a cathedral. Cathedral: {see}.{bonus}"
    if k == K.SHIP:
        port = w.board.places[card.port].name if card.port in w.board.places else card.port
        return f"A ship carrying {card.capacity} troops by sea; starts in {port}. A faction asset or a noble's."
    if k == K.TOWN:
        name = w.board.places[card.place].name if card.place in w.board.places else card.name
        attack = f" E1: +{card.attack} troops in attack in England." if card.attack else ""
        return f"{name} is yours: your nobles may enter it; {card.commons} votes in the Commons.{attack}"
    if k == K.ROYAL_CASTLE:
        name = w.board.places[card.place].name if card.place in w.board.places else card.name
        return f"The royal castle of {name} is yours: your nobles may enter it."
    if k == K.MERCENARY:
        return f"Mercenaries for any noble: +{card.troops} troops (they go home on a Mercenaries Go Home card)."
    if k == K.FRENCH_AID:
        return (f"+{card.troops} troops for one attack or siege, then discarded; only for a noble in Calais or "
                "on the Continent.")
    if k == K.PARDON:
        return "Saves a captured noble of yours from execution; then goes to Chancery."
    return f"{card.troops} troops." if card.troops else ""


#: What an Event card in hand does (§Appendix - Event Card Key).
EVENT_TEXTS = {
    "writ": "Give to a noble to summon Parliament, or to commission a noble in place of one summoned by a "
            "raid. Discarded when used.",
    "free_move": "One extra move for one counter this turn (a ship with its passengers counts as one). "
                 "Discarded when used.",
    "refuge": "Lets a force stay in a Refuge (Ireland, Scotland, the Continent, Anglesey, Wight, Man) for the "
              "turns shown; the others see you use it, not the number.",
    "parliament": "The Chancellor plays it to summon Parliament. Discarded when played.",
}


def event_text(card: K.EventCard) -> str:
    return EVENT_TEXTS.get(card.kind, "")


def umpire_parts(state: State) -> dict[str, Any]:
    """What only the umpire sees (research §5 item 6): every hand with its cards, the Chancery's
    cards, the cards Treachery discarded face down, the turns left on Refuge cards in use; and
    his standing verbs (umpire.py). Never the order of a deck."""
    w = W(state)
    deck = event_deck(state)
    cards = w.cards
    cz, ch, ez, eh = state["cz"], state["ch"], state["ez"], state["eh"]
    hands: dict[str, list[str]] = {r: [] for r in state["roles"]}
    events: dict[str, list[str]] = {r: [] for r in state["roles"]}
    for c, z in enumerate(cz):
        if z == Z_HAND:
            hands[role_of(state, ch[c])].append(cards[c].id)
    for e, z in enumerate(ez):
        if z in (E_HAND, E_USE):
            events[role_of(state, eh[e])].append(deck.cards[e].id)
    names = {cards[c].id: card_name(w, c) for c, z in enumerate(cz) if z in (Z_HAND, Z_CHANC)}
    names.update((cards[c].id, card_name(w, c)) for c in state["tdisc"])
    names.update((deck.cards[e].id, event_title(deck.cards[e])) for e, z in enumerate(ez) if z in (E_HAND, E_USE))
    return {"hands": hands, "event_hands": events, "card_names": dict(sorted(names.items())),
            "chancery_cards": sorted(cards[c].id for c in state["chancery"]),
            "treachery_discards": [cards[c].id for c in state["tdisc"]],
            "refuge_turns": [{"role": role_of(state, r["p"]), "area": r["area"], **{k: v for k, v in r.items()
                                                                                 if k not in ("p", "area")}}
                             for r in state["refuges"]],
            "umpire": {"standing": standing_options(state)}}


#: What each outcome of a combat fought on a table does, by kind of combat (the effects of
#: combat.apply_outcome: §Combat Phase).
OUTCOME_WORDS: dict[str, dict[str, str]] = {
    SIEGE: {ATTACKER: "the attacker won: the place is taken", DEFENDER: "the defender held: it stays under siege",
            INDECISIVE: "indecisive: it stays under siege"},
    STORM: {ATTACKER: "the attacker won: the place is taken", DEFENDER: "the defender held: the storm fails",
            INDECISIVE: "indecisive: the storm fails"},
    TOWN: {ATTACKER: "the attacker won: the place is taken", DEFENDER: "the defender held: the attackers are expelled into the open",
           INDECISIVE: "indecisive: the attackers are expelled into the open"},
    TOWN_ATTACK: {ATTACKER: "the attacker won: the nobles inside are captured",
                  DEFENDER: "the defender held: the nobles inside are expelled into the open",
                  INDECISIVE: "indecisive: the nobles inside are expelled into the open"},
}
PLAIN_OUTCOMES = {ATTACKER: "the attacker won", DEFENDER: "the defender won", INDECISIVE: "indecisive: nobody won"}
for _kind in (BATTLE, AMBUSH, SEA):
    OUTCOME_WORDS[_kind] = PLAIN_OUTCOMES


def tabletop_view(state: State, frame: dict[str, Any], role: str) -> dict[str, Any]:
    """The combat put to the umpire (umpire.Tabletop, §Battle, §Siege, §Sea Battles), for every seat: its
    kind and place, each side's player, strength and nobles (public on the board), the stage
    (``mark``: the umpire chooses the Event card or a table; ``killed``, ``outcome``: it is
    fought on a table and he enters the result), what each outcome does and which outcomes
    need a noble of their side left alive (ruling K74). The umpire's own
    view adds the nobles he has named killed so far (public once he enters the outcome)."""
    w = W(state)
    c = frame["combat"]
    cz, ch = state["cz"], state["ch"]

    def side(nobles: list[int]) -> list[dict[str, Any]]:
        return [{"id": w.cards[n].id, "name": card_name(w, n), "role": role_of(state, ch[n]),
                 "troops": noble_strength(state, n)} for n in nobles if cz[n] == Z_NOBLE]

    out: dict[str, Any] = {
        "kind": c["kind"], "place": c["place"], "square": c["sq"],
        "where": place_name(w, c["place"] or c["sq"]),
        "attacker": role_of(state, c["att"]), "defender": role_of(state, c["def"]) if c["def"] >= 0 else None,
        "attack": attack_power(state, c), "defence": defence(state, c),
        "attackers": side(c["a"]), "defenders": side(c["d"]), "stage": frame["stage"],
        "outcomes": OUTCOME_WORDS.get(c["kind"], PLAIN_OUTCOMES),
        # ruling K74: the results open only while one of these nobles is left alive
        "needs_survivor": {o: [w.cards[n].id for n in ns] for o, ns in survivor_needed(c).items()},
    }
    if role == UMPIRE:
        out["killed"] = list(frame["killed"])
    return out


def standing_options(state: State) -> dict[str, Any]:
    """What the umpire's standing verbs take (umpire.py)."""
    return {"rule": f"a ruling: a text of 1 to {MAX_RULING} characters",
            "adjudicate": [*state["roles"], DRAW], "correct": corrections.options(state)}


def public_parts(state: State) -> dict[str, Any]:
    """What every role's view shows alike (research §5 item 6): the factions, heirs, ships,
    places, piles' sizes and refuges in use. Memoised per position and shared by the views
    (callers must not change it)."""
    w = W(state)
    deck = event_deck(state)
    cards = w.cards
    cz, ch = state["cz"], state["ch"]
    n_players = len(state["roles"])
    amap: dict[int, list[int]] = {}
    assets: list[list[str]] = [[] for _ in range(n_players)]
    hands = [0] * n_players
    for c, z in enumerate(cz):
        if z == Z_AWARD:
            amap.setdefault(ch[c], []).append(c)
        elif z == Z_ASSET:
            assets[ch[c]].append(cards[c].id)
        elif z == Z_HAND:
            hands[ch[c]] += 1
    events = [0] * n_players
    for q in compress(state["eh"], map(E_HAND.__eq__, state["ez"])):  # the holders of Event cards in hand
        events[q] += 1
    players: list[dict[str, Any]] = [{"role": role_of(state, q), "nobles": [], "assets": assets[q],
                                      "asset_names": [card_name(w, w.codec.id(a)) for a in assets[q]],
                                      "hand": hands[q], "events": events[q]} for q in range(n_players)]
    # each noble's entry is kept while what it shows is the same: his place, ship and captor,
    # and his troops (noble_strength: his awards, those transferred this turn, the square's
    # zones, Catastrophe); most moves change one noble's square
    nsq, nin, nship, ncap = state["nsq"], state["nin"], state["nship"], state["ncap"]
    fresh = state["fresh"]
    cat = state["catastrophe"]
    kept: dict[int, tuple[tuple[Any, ...], dict[str, Any]]] = memo.kept("nobles", w, tuple(state["roles"]), dict)
    for n in w.nobles:
        if cz[n] != Z_NOBLE:
            continue
        aw = amap.get(n, ())
        key = (nsq[n], nin[n], nship[n], ncap[n], tuple(aw), [c for c in aw if c in fresh] if fresh else (), cat)
        hit = kept.get(n)
        if hit is not None and hit[0] == key:
            entry = hit[1]
        else:
            entry = {
                "id": cards[n].id, "name": card_name(w, n), "square": nsq[n], "inside": nin[n],
                "where": _where(w, nin[n] or nsq[n], nship[n]),
                "ship": w.ships[nship[n]].id if nship[n] >= 0 else None,
                "captive_of": role_of(state, ncap[n]) if ncap[n] >= 0 else None,
                "troops": noble_strength(state, n, amap=amap),
                "awards": [cards[c].id for c in aw],
                "award_names": [card_name(w, c) for c in aw],
            }
            kept[n] = (key, entry)
        players[ch[n]]["nobles"].append(entry)
    heirs = []
    for h, heir in enumerate(w.heirs):
        sq, inside, ship = heir_loc(state, h)
        ctl = heir_controller(state, h)
        heirs.append({"id": heir.id, "name": heir.name, "house": heir.house, "dead": state["hdead"][h],
                      "crowned": state["hcrown"][h], "square": sq, "inside": inside,
                      "where": "dead" if state["hdead"][h] else _where(w, inside or sq, ship),
                      "ship": w.ships[ship].id if ship >= 0 else None,
                      "controller": role_of(state, ctl) if ctl >= 0 else None})
    # the ships and the places change with fewer actions than the rest: each is kept while
    # what it is made from is the same (cards' zones and holders, captures, sieges; ships'
    # positions, controllers and passengers)
    cards_key = (tuple(state["roles"]), tuple(cz), tuple(ch))
    ships = memo.kept("ships", w, (cards_key, tuple(state["spos"]), tuple(state["sctl"]), tuple(state["nship"])),
                  lambda: _ships_part(state))
    places = memo.kept("places", w, (cards_key, tuple(state["pown"].items()), tuple(state["siege"].items())),
                   lambda: _places_part(state))
    lying = [cards[c].id for c in compress(range(len(cz)), map(Z_LYING.__eq__, cz))]
    lying_names = [card_name(w, w.codec.id(c)) for c in lying]
    edisc = state["edisc"]
    parts: dict[str, Any] = {
        "round": state["round"], "turn_of": role_of(state, state["order"][state["turn"]]) if state["round"] else None,
        "order": [role_of(state, q) for q in state["order"]], "rules": state["opts"]["rules"],
        # the board the campaign is played on (its drawing: board.board_of_option of the
        # game's option ``board``)
        "board": {"id": w.board.id, "name": w.board.name, "columns": w.board.columns, "rows": w.board.rows},
        "players": players, "heirs": heirs, "ships": ships, "places": places, "lying": lying, "lying_names": lying_names,
        "crown_deck": len(state["cdeck"]), "crown_discard": len(state["cdisc"]), "chancery": len(state["chancery"]),
        "event_deck": len(state["edeck"]), "event_discard": len(edisc),
        "last_event": deck.cards[edisc[-1]].id if edisc else None,
        "last_event_title": event_title(deck.cards[edisc[-1]]) if edisc else None,
        "refuges": [{"role": role_of(state, r["p"]), "area": r["area"]} for r in state["refuges"]],
        "catastrophe": state["catastrophe"] > 0,
        "rulings": [list(r) for r in state.get("rulings", ())],
        "corrections": [{k: c[k] for k in ("round", "kind", "text", "reason", "undone")}
                        for c in state.get("corrections", ())],
        "parliament": parliament.session_view(state),
        "end": state.get("end"),
        "end_text": END_TEXTS.get(state.get("end") or ""),
        # the cause the generic client shows over the board when the game is over
        "result_reason": END_TEXTS.get(state.get("end") or ""),
    }
    return parts


#: How the campaign ended, by ``state["end"]``, in words with the rule (§Victory Conditions):
#: what a page says under "who won".
END_TEXTS = {
    "last_heir_crowned": "controls the last royal heir, crowned King (Victory Conditions: the last royal heir)",
    "beaufort_crowned": "controls Beaufort crowned King, the last of the royal line (Victory Conditions: Beaufort)",
    "parliament": "Parliament supported his King as the one and only King of England: a majority of the Commons "
                  "and the most votes in the Lords (Victory Conditions: Parliament)",
    "round_limit": "the campaign reached the round limit set for this game undecided: a draw",
    "umpire": "the umpire adjudicated the campaign",
}


def _where(w: World, at: str | None, ship: int) -> str:
    """Where a counter is, in words: a place by name, a square in words, aboard a ship."""
    if ship >= 0:
        return f"aboard the {w.ships[ship].name}"
    return place_name(w, at) if at else "off the board"


def _ships_part(state: State) -> list[dict[str, Any]]:
    """The ships on the board, their controllers and passengers (public_parts)."""
    w = W(state)
    cards = w.cards
    ships = []
    for s, piece in enumerate(w.ships):
        if state["spos"][s] is None:
            continue
        ctl = ship_controller(state, s)
        ships.append({"id": piece.id, "name": piece.name, "capacity": piece.capacity, "at": state["spos"][s],
                      "controller": role_of(state, ctl) if ctl >= 0 else None,
                      "passengers": [cards[n].id for n in ship_passengers(state, s)]})
    return ships


def _places_part(state: State) -> dict[str, dict[str, str | None]]:
    """The places someone controls or besieges, by id, in order (public_parts)."""
    w = W(state)
    cz = state["cz"]
    siege = state["siege"]
    places = {}
    candidates = set(state["pown"]) | set(siege)
    card_places = w.card_places
    for c, z in enumerate(cz):
        if z in (Z_NOBLE, Z_AWARD, Z_ASSET):
            candidates.update(card_places[c])
    for pl in sorted(candidates):
        if pl not in w.board.places:
            continue
        o = place_owner(state, pl)
        if o >= 0 or pl in siege:
            places[pl] = {"name": w.board.places[pl].name, "owner": role_of(state, o) if o >= 0 else None,
                          "besieged_by": role_of(state, siege[pl]) if pl in siege else None}
    return places


def secrets(state: State, role: str) -> set[str]:
    """The tags ``role`` must not see. The umpire (umpire.py) sees every hand, the Chancery and
    the cards discarded face down: only the decks' cards are hidden from him."""
    p = player_of_role(state, role)
    if role == UMPIRE and has_umpire(state):
        cz, ez = state["cz"], state["ez"]
        return {CTAGS[c] for c, z in enumerate(cz) if z == Z_DECK} | {ETAGS[e] for e, z in enumerate(ez) if z == E_DECK}
    hidden, held = memo.memoised(state, "secrets", lambda: secret_tags(state))
    out = set(hidden)
    for q, tags in enumerate(held):
        if q != p:
            out.update(tags)
    return out


def secret_tags(state: State) -> tuple[list[str], list[list[str]]]:
    """The tags hidden from everyone (decks, Chancery, Treachery's face-down cards) and those
    of each player's hand and Refuge cards in use (hidden from the others)."""
    cz, ch = state["cz"], state["ch"]
    held: list[list[str]] = [[] for _ in state["roles"]]
    hidden = [CTAGS[c] for c in state["tdisc"]]
    for c, z in enumerate(cz):
        if z in (Z_DECK, Z_CHANC):
            hidden.append(CTAGS[c])
        elif z == Z_HAND:
            held[ch[c]].append(CTAGS[c])
    eh = state["eh"]
    for e, z in enumerate(state["ez"]):
        if z == E_DECK:
            hidden.append(ETAGS[e])
        elif z in (E_HAND, E_USE):
            held[eh[e]].append(ETAGS[e])
    return hidden, held


# ======================================================================= invariants
def check_invariants(state: State) -> list[str]:  # noqa: C901 - a flat list of independent checks
    w = W(state)
    problems: list[str] = []
    cz, ch = state["cz"], state["ch"]
    nc = len(w.cards)
    if len(cz) != nc or len(ch) != nc:
        return ["card zone arrays have the wrong length"]
    for name, zone in (("cdeck", Z_DECK), ("cdisc", Z_DISC), ("chancery", Z_CHANC)):
        pile = state[name]
        if len(set(pile)) != len(pile):
            problems.append(f"{name} holds a card twice")
        if sorted(pile) != [c for c in range(nc) if cz[c] == zone]:
            problems.append(f"{name} disagrees with the card zones")
    n_players = len(state["roles"])
    for c in range(nc):
        z = cz[c]
        if z in (Z_HAND, Z_NOBLE, Z_ASSET) and not 0 <= ch[c] < n_players:
            problems.append(f"{w.cards[c].id} in {ZONE_NAMES[z]} has holder {ch[c]}")
        if z == Z_AWARD and (not 0 <= ch[c] < nc or cz[ch[c]] != Z_NOBLE):
            problems.append(f"{w.cards[c].id} is awarded to a noble not in play")
        if z == Z_NOBLE and not w.cards[c].is_noble:
            problems.append(f"{w.cards[c].id} is in play as a noble")
        if z not in (Z_NOBLE,) and (state["nsq"][c] is not None or state["nship"][c] >= 0):
            problems.append(f"{w.cards[c].id} has a counter but is in {ZONE_NAMES[z]}")
        if z in (Z_DECK, Z_DISC, Z_CHANC, Z_LYING, Z_REMOVED, Z_ASIDE) and ch[c] != -1:
            problems.append(f"{w.cards[c].id} in {ZONE_NAMES[z]} has a holder")
    for n in w.nobles:
        if cz[n] == Z_NOBLE:
            on_land, at_sea = state["nsq"][n] is not None, state["nship"][n] >= 0
            if on_land == at_sea and not (state["round"] == 0 and not on_land):
                problems.append(f"{w.cards[n].id} is in play but {'both on land and at sea' if on_land else 'nowhere'}")
            if state["nin"][n] is not None and state["nin"][n] not in w.board.places:
                problems.append(f"{w.cards[n].id} is inside unknown place {state['nin'][n]}")
            if on_land and state["nin"][n] is not None and w.board.places[state["nin"][n]].square != state["nsq"][n]:
                problems.append(f"{w.cards[n].id} is inside a place of another square")
            if at_sea and state["spos"][state["nship"][n]] is None:
                problems.append(f"{w.cards[n].id} is aboard a ship off the board")
    for h in range(len(w.heirs)):
        e = state["hesc"][h]
        if state["hdead"][h]:
            if e >= 0 or state["hsq"][h] is not None:
                problems.append(f"dead heir {w.heirs[h].id} is on the board")
        elif e >= 0 and cz[e] != Z_NOBLE:
            problems.append(f"heir {w.heirs[h].id} escorted by a noble not in play")
    for s, piece in enumerate(w.ships):
        pos = state["spos"][s]
        if pos is None:
            continue
        if pos not in w.board.places and (pos not in w.board.squares or w.board.squares[pos].land):
            problems.append(f"ship {piece.id} at {pos}")
        c = piece.card if piece.card >= 0 else piece.office
        if cz[c] not in (Z_ASSET, Z_AWARD) and state["sctl"][s] < 0:
            problems.append(f"ship {piece.id} on the board without its card in play")
    deck = event_deck(state)
    ez = state["ez"]
    ne = len(deck.cards)
    for name, zone in (("edeck", E_DECK), ("edisc", E_DISC)):
        pile = state[name]
        if len(set(pile)) != len(pile) or sorted(pile) != [e for e in range(ne) if ez[e] == zone]:
            problems.append(f"{name} disagrees with the event zones")
    for e in range(ne):
        if ez[e] in (E_HAND, E_USE) and not 0 <= state["eh"][e] < n_players:
            problems.append(f"event {deck.cards[e].id} held by {state['eh'][e]}")
        if ez[e] not in (E_HAND, E_USE) and state["eh"][e] != -1:
            problems.append(f"event {deck.cards[e].id} has a holder in a pile")
    return problems


# ======================================================================= description


def _at(piece: dict[str, Any]) -> str:
    where = piece.get("where") or piece["inside"] or piece["square"] or piece["ship"]
    if where is None or where == "off the board":
        return "off the board"
    return where if str(where).startswith("aboard ") else f"at {where}"


def describe(view: View) -> str:
    """The view in words for a person at a terminal: the round and whose turn, each faction
    (nobles with troops, place, awards; hand and Event cards as counts; assets), the heirs, the
    places held and besieged, the alliances, the pending offers the role may see, who is asked
    now and the default if he does not answer, and the role's own hand."""
    lines = [f"Board: {view['board']['name']}."] if view.get("board") else []
    lines += [f"Round {view.get('round')}, {view.get('turn_of')}'s turn; phase {view.get('phase')}."
             if view.get("round") else "Setup: the factions are arranged and placed."]
    for pl in view.get("players", []):
        nobles = "; ".join(f"{n['name']} {n['troops']} {_at(n)}"
                           + (f" (captive of {n['captive_of']})" if n["captive_of"] else "")
                           + (f" [{', '.join(n.get('award_names') or n['awards'])}]" if n["awards"] else "")
                           for n in pl["nobles"])
        lines.append(f"{pl['role']}: {nobles or 'no nobles'}; hand {pl['hand']} card(s), "
                     f"{pl['events']} Event card(s)"
                     + (f"; assets {', '.join(pl.get('asset_names') or pl['assets'])}" if pl["assets"] else ""))
    heirs = "; ".join(f"{h['name']}{' (King)' if h['crowned'] else ''} {_at(h)}"
                      + (f" held by {h['controller']}" if h["controller"] else "")
                      for h in view.get("heirs", []) if not h["dead"])
    if view.get("round"):
        lines.append(f"Heirs: {heirs or 'none alive'}")
    else:
        lines.append("Heirs: placed by dice when the factions are arranged (§Setting out Counters).")
    places = view.get("places") or {}
    held: dict[str, list[str]] = {}
    for pl_ in places.values():
        if pl_.get("owner"):
            held.setdefault(pl_["owner"], []).append(pl_["name"])
    if held:
        lines.append("Places held: " + "; ".join(f"{r}: {', '.join(names)}" for r, names in sorted(held.items())))
    sieges = [f"{p['name']} ({p['owner'] or 'neutral'}) besieged by {p['besieged_by']}"
              for p in places.values() if p.get("besieged_by")]
    if sieges:
        lines.append("Sieges: " + "; ".join(sieges))
    neg = view.get("negotiation") or {}
    alliances = [" and ".join(pair) for pair in neg.get("alliances", ())]
    lines.append("Alliances: " + ("; ".join(alliances) if alliances else "none"))
    for o in neg.get("offers", ()):
        lines.append(f"Pending offer {o['id']} from {o['from']} to {o['to']}: {o['text']}.")
    active = view.get("active") or []
    if active and view.get("role") not in active:
        lines.append(f"Waiting for {', '.join(active)}: {view.get('prompt', '')}")
    if view.get("hand") is not None:
        lines.append("Your hand: " + (", ".join(c["name"] for c in view["hand"]) or "empty")
                     + "; your Event cards: " + (", ".join(e["title"] for e in view.get("event_hand", [])) or "none"))
    if view.get("default_label"):
        lines.append(f"If you do not answer in time: {view['default_label']} (the published default).")
    return "\n".join(lines)


def json_size(view: View) -> int:
    return len(canonical_json(view))
