"""Kingmaker bots: the sole King carried off a land where Parliament may not meet (§Sea Transportation).

A King in Calais (or on an island, or in a land with no town or city where Parliament may
meet, §Calling Parliament) reaches his faction's plan on the mainland only aboard a ship, with
the noble escorting him; a ship carries a noble only if its capacity is at least his troop
strength (§Sea Transportation), and a noble's strength is his cards' (§Faction). So when his
escort is too strong for every ship of the faction, the faction

* hands the King to another of its nobles beside him whom a ship can carry
  (§Royal Heir Counters: a captured heir moves with the nobles accompanying him;
  §Sea Transportation: royal heirs may accompany nobles to sea; play.py's ``escort``);
* failing one, lightens a noble beside him: his mercenary cards go to another noble of the
  faction in the same square (§Transfers: mercenary cards are transferables), until a ship can
  carry him; the King is then handed to him;
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
    sole_king,
)
from roses.games.kingmaker.queries import parliament_places


def _spot(state: State, n: int) -> tuple[str | None, str | None, int]:
    return state["nsq"][n], state["nin"][n], state["nship"][n]


def king_ashore_off_parliament(state: State, p: int) -> tuple[int, int, int] | None:
    """``(king, escort, capacity)`` when ``p`` controls the sole King (an heir, not Beaufort),
    escorted and ashore where Parliament may not meet, and ``p`` has a ship (``capacity``: the
    largest one's); None otherwise. Cheap: asked before the faction's plan is worked out."""
    k = sole_king(state)
    if k is None or k < 0 or king_controller(state, k) != p:
        return None
    e = state["hesc"][k]
    sq, inside, ship = heir_loc(state, k)
    if e < 0 or sq is None or ship >= 0 or parliament_places(state, sq, inside):
        return None
    ships = ai_sea.ships_of(state, p)
    if not ships:
        return None
    w = W(state)
    return k, e, max(w.ships[s].capacity for s in ships)


def stranded_king(state: State, p: int, aim: str) -> tuple[int, int, int] | None:
    """:func:`king_ashore_off_parliament`, in a land from which ``aim`` (the square of the
    faction's plan) cannot be reached on foot; None otherwise."""
    got = king_ashore_off_parliament(state, p)
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
    got = stranded_king(state, p, aim)
    if got is None:
        return []
    k, e, cap = got
    w = W(state)
    eid = w.cards[e].id
    if noble_strength(state, e) <= cap:
        return [a for a in actions if a[0] == "embark" and a[1][0] == eid]
    hid = w.heirs[k].id
    fit = [m for m in _bearers(state, p, e) if m != e and 0 < noble_strength(state, m) <= cap]
    if fit:
        m = min(fit, key=lambda x: (-noble_strength(state, x), w.cards[x].id))
        return [a for a in actions if a[0] == "escort" and list(a[1]) == [hid, w.cards[m].id]]
    if _lightening(state, p, e, cap) is not None:
        return [a for a in actions if a[0] == "deal"]
    return []


def ferry_deals(state: State, p: int, aim: str, actions: list[Action]) -> list[Action]:
    """The dealing step of the ferry: the next mercenary card to give (:func:`_lightening`), or
    back to the movement once a noble beside the King fits a ship; [] when the ferry has
    nothing to deal."""
    got = stranded_king(state, p, aim)
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
    if any(m != e and 0 < noble_strength(state, m) <= cap for m in _bearers(state, p, e)):
        return [a for a in actions if a[0] == "back"]
    return []
