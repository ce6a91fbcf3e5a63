"""Kingmaker negotiation: exchanges proposed and answered at any time.

Besides the dealing verbs of one's own turn (deals.py), a player may put an **exchange** to
another player at any moment while the campaign runs: what he gives and what he asks in
return, binding only when the receiver accepts. These are the players' *standing verbs*: like
the umpire's (umpire.py) they are not among the legal actions a random or bot player picks,
and the rules accept them from a player at any time (``KingmakerRules.check_turn``/``action``).
Each is an action of the action log, so a replay reproduces every exchange.

Verbs (``role`` a player's seat):

``propose_exchange`` {"to": role, "give": {...}, "ask": {...}, "ally": bool}
    ``give``/``ask`` hold ``cards`` (Crown cards of the giver's hand, Transfers: "A player may
    give or trade any unplayed card (in his hand)"), ``ships`` (ships lent, Transfers: "A ship
    may be loaned to another faction"), ``free`` (captives the giver holds, set free: the
    ransom, "Capture of Noble Counters": "may be ransomed back ... for some consideration
    (either by transfer or trade and gifts)"); ``ask`` may also hold ``any``, a number of cards
    of the receiver's choice. ``ally`` proposes an alliance (Alliances 1: "at *any* time").
``accept_exchange`` id, or [id, [card, ...]]   the receiver agrees; with ``any`` he names the cards
``decline_exchange`` id                        the receiver refuses
``withdraw_exchange`` id                       the proposer takes it back

What the players see: a pending offer only in the two parties' views (and the umpire's, who
sees everything); its proposal and refusal only in their private logs. Once accepted, what can
be public is published (the number of cards, the ships lent, the captives freed, the alliance:
"no secret alliances are allowed", Alliances 1); which cards passed stays with the two.

Rulings (RULINGS.md K66-K69): when an exchange may take effect (K66), what an exchange may hold
(K67), ransom by exchange (K68), offers that become impossible (K69).
"""

from __future__ import annotations

from typing import Any

from roses.engine import log
from roses.engine.contract import State, canonical_json
from roses.engine.errors import IllegalAction
from roses.games.kingmaker import memo, stalling
from roses.games.kingmaker.common import (
    UMPIRE,
    Z_HAND,
    Z_NOBLE,
    W,
    allied,
    card_name,
    player_of_role,
    role_of,
    ship_controller,
    ship_passengers,
)
from roses.games.kingmaker.ops import free_captive
from roses.games.kingmaker.queries import hand

#: The players' standing verbs (this module).
VERBS = ("propose_exchange", "accept_exchange", "decline_exchange", "withdraw_exchange")
#: Pending offers one player may have made at once.
MAX_PENDING = 12
#: Items of one kind in one offer.
MAX_ITEMS = 10
#: Decisions at which an exchange may take effect (ruling K66): a player's own-turn decisions
#: (movement, his combat choices, the Crown phase, his dealing menu) and the captor's disposal
#: of his captives (the moment a ransom is agreed, Capture of Noble Counters).
QUIET_STEPS = frozenset(("move", "combat", "crown", "deal", "captive"))
KINDS = ("cards", "ships", "free")


def offers(state: State) -> list[dict[str, Any]]:
    """The pending offers (a list kept in the state only once one was made)."""
    out: list[dict[str, Any]] = state.get("offers", [])
    return out


def is_player(state: State, role: str) -> bool:
    return role != UMPIRE and role in state["roles"]


def standing_action(state: State, role: str, verb: str, arg: Any) -> None:
    """Apply a player's standing verb; IllegalAction (nothing changed) for bad input."""
    if state["result"] is not None:
        raise IllegalAction("The game is over.")
    if not is_player(state, role):
        raise IllegalAction("Only a player may make or answer offers.")
    if verb == "propose_exchange":
        propose(state, role, arg)
    elif verb == "accept_exchange":
        accept(state, role, arg)
    elif verb in ("decline_exchange", "withdraw_exchange"):
        close(state, role, verb.split("_")[0], arg)
    else:
        raise IllegalAction(f"No offer verb {verb!r}.")
    # Offers reveal what a player holds to another: none of them may be undone.
    state["reveals"] = state.get("reveals", 0) + 1


# ----- reading an offer --------------------------------------------------------------------------
def _ids(part: Any, kind: str) -> list[str]:
    if part is None:
        return []
    if not isinstance(part, dict):
        raise IllegalAction("'give' and 'ask' are objects of cards, ships and free.")
    extra = set(part) - set(KINDS) - {"any"}
    if extra:
        raise IllegalAction(f"An offer holds only cards, ships, free and any (not {', '.join(sorted(extra))}).")
    ids = part.get(kind, [])
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
        raise IllegalAction(f"'{kind}' is a list of ids.")
    if len(ids) > MAX_ITEMS:
        raise IllegalAction(f"At most {MAX_ITEMS} {kind} in one offer.")
    if len(set(ids)) != len(ids):
        raise IllegalAction(f"The same id twice in '{kind}'.")
    return ids


def _normalise(state: State, role: str, arg: Any) -> dict[str, Any]:
    w = W(state)
    if not isinstance(arg, dict):
        raise IllegalAction('An offer is {"to": role, "give": {...}, "ask": {...}, "ally": true|false}.')
    extra = set(arg) - {"to", "give", "ask", "ally"}
    if extra:
        raise IllegalAction(f"Unknown part of an offer: {', '.join(sorted(extra))}.")
    to = arg.get("to")
    if not isinstance(to, str) or to not in state["roles"] or to == role:
        raise IllegalAction("Name another player's role as 'to'.")
    ally = arg.get("ally", False)
    if not isinstance(ally, bool):
        raise IllegalAction("'ally' is true or false.")
    give = {k: _ids(arg.get("give"), k) for k in KINDS}
    ask = {k: _ids(arg.get("ask"), k) for k in KINDS}
    any_n = (arg.get("ask") or {}).get("any", 0)
    if isinstance(any_n, bool) or not isinstance(any_n, int) or not 0 <= any_n <= MAX_ITEMS:
        raise IllegalAction(f"'any' is a number of cards from 0 to {MAX_ITEMS}.")
    if (arg.get("give") or {}).get("any"):
        raise IllegalAction("'any' is asked, never given: name the cards you give.")
    for side in (give, ask):
        for c in side["cards"]:
            if w.codec.get(c) < 0:
                raise IllegalAction(f"There is no Crown card {c!r}.")
        for n in side["free"]:
            if w.codec.get(n) < 0 or w.codec.id(n) not in w.nobles:
                raise IllegalAction(f"There is no noble {n!r}.")
        for s in side["ships"]:
            if w.ship_codec.get(s) < 0:
                raise IllegalAction(f"There is no ship {s!r}.")
    ask["any"] = any_n  # type: ignore[assignment]
    if not (ally or any(give[k] for k in KINDS) or any(ask[k] for k in KINDS) or any_n):
        raise IllegalAction("An offer gives or asks something, or proposes an alliance.")
    return {"to": to, "give": give, "ask": ask, "ally": ally}


def _find(state: State, arg: Any) -> dict[str, Any]:
    if isinstance(arg, bool) or not isinstance(arg, int):
        raise IllegalAction("Name the offer by its number.")
    for o in offers(state):
        if o["id"] == arg:
            return o
    raise IllegalAction(f"There is no pending offer {arg}.")


# ----- what may change hands ------------------------------------------------------------------
def captive_waiting(state: State, n: int, captor: int) -> bool:
    """Whether noble ``n`` is ``captor``'s captive still waiting to be disposed of (queued in
    his ``captive`` step, Capture of Noble Counters: ransomed "in the turn of capture")."""
    if state["cz"][n] != Z_NOBLE or state["ncap"][n] != captor:
        return False
    return any(f["step"] == "captive" and f.get("cap") == captor and n in f.get("queue", ())
               for f in state["stack"])


def lendable(state: State, s: int, p: int) -> bool:
    """A ship ``p`` may lend (Transfers: "A ship may be loaned"): in play, moved by ``p``, not
    already lent, with nobody aboard (as the dealing verb ``lend_ship``)."""
    w = W(state)
    return (state["spos"][s] is not None and w.ships[s].id not in state["lent"]
            and ship_controller(state, s) == p and not ship_passengers(state, s))


def _check_side(state: State, side: dict[str, Any], giver: int, receiver: int, own: bool) -> None:
    """Raise unless ``giver`` may hand over ``side`` to ``receiver``. ``own``: the giver is the
    one asking the check (he may be told about his own hand); else only public facts are named."""
    w = W(state)
    who = role_of(state, giver)
    held = hand(state, giver)
    for cid in side["cards"]:
        c = w.cid(cid)
        if c not in held:
            raise IllegalAction(f"{card_name(w, c)} is not in your hand." if own
                                else f"{who} does not hold every card named in the offer.")
        if any(f["step"] == "offer" and f.get("card") == c for f in state["stack"]):
            raise IllegalAction(f"{card_name(w, c)} is already on offer." if own
                                else f"{who} does not hold every card named in the offer.")
    for sid in side["ships"]:
        s = w.ship_codec.id(sid)
        if not lendable(state, s, giver):
            raise IllegalAction(f"{who} may not lend the {w.ships[s].name} now (it must be his, in play, "
                                "not lent and with nobody aboard).")
    for nid in side["free"]:
        n = w.cid(nid)
        if not captive_waiting(state, n, giver) or state["ch"][n] != receiver:
            raise IllegalAction(f"{card_name(w, n)} is not a captive of {who} awaiting ransom by "
                                f"{role_of(state, receiver)} (a ransom is agreed in the turn of capture).")


def _check_public(state: State, offer: dict[str, Any], p: int, q: int) -> None:
    """The checks on public facts, at proposal and at acceptance."""
    if offer["ally"] and allied(state, p, q):
        raise IllegalAction(f"{role_of(state, p)} and {role_of(state, q)} are already allied.")
    n_asked = len(offer["ask"]["cards"]) + offer["ask"]["any"]
    if n_asked > len(hand(state, q)):
        raise IllegalAction(f"{role_of(state, q)} holds only {len(hand(state, q))} card(s).")


def quiet(state: State) -> bool:
    """Ruling K66: an exchange takes effect only at a player's own-turn decision or the
    captor's disposal of captives, never in the middle of a combat, a Parliament session or
    another answer."""
    return bool(state["stack"]) and state["stack"][-1]["step"] in QUIET_STEPS


# ----- the verbs ------------------------------------------------------------------------------
def propose(state: State, role: str, arg: Any) -> None:
    w = W(state)
    offer = _normalise(state, role, arg)
    p, q = player_of_role(state, role), player_of_role(state, offer["to"])
    pending = offers(state)
    if sum(1 for o in pending if o["from"] == p) >= MAX_PENDING:
        raise IllegalAction(f"At most {MAX_PENDING} pending offers at once: withdraw one first.")
    _check_side(state, offer["give"], p, q, own=True)
    for sid in offer["ask"]["ships"]:
        s = w.ship_codec.id(sid)
        if not lendable(state, s, q):
            raise IllegalAction(f"{offer['to']} may not lend the {w.ships[s].name} now.")
    for nid in offer["ask"]["free"]:
        n = w.cid(nid)
        if not captive_waiting(state, n, q) or state["ch"][n] != p:
            raise IllegalAction(f"{card_name(w, n)} is not your noble held captive by {offer['to']} awaiting ransom.")
    own = set(hand(state, p))
    for cid in offer["ask"]["cards"]:
        if w.cid(cid) in own or cid in offer["give"]["cards"]:
            raise IllegalAction(f"{card_name(w, w.cid(cid))} is in your own hand.")
    _check_public(state, offer, p, q)
    if exchange_key(q, offer) in stalling.blocked(state, p):
        raise IllegalAction(f"{offer['to']} declined this offer in this turn: it may be made again once the "
                            "position changes (ruling K93).")
    seq = int(state.get("offer_seq", 0)) + 1
    state["offer_seq"] = seq
    record = {"id": seq, "from": p, "to": q, "round": state["round"], **{k: offer[k] for k in ("give", "ask", "ally")}}
    state.setdefault("offers", []).append(record)
    text = describe(state, record)
    log.private(state, role, f"You propose to {offer['to']} (offer {seq}): {text}.", log.POLITICAL)
    log.private(state, offer["to"], f"{role} proposes (offer {seq}): {text}.", log.POLITICAL)
    mine = state.get("standing", {}).get(offer["to"], {})
    if mine.get(f"exchange:{role}", mine.get("exchange")) == "decline":  # a standing order (ruling K94)
        state["offers"].remove(record)
        stalling.refuse(state, p, exchange_key(q, record))
        for r in (role, offer["to"]):
            log.private(state, r, f"{offer['to']} declines offer {seq} by standing order.", log.POLITICAL)


def accept(state: State, role: str, arg: Any) -> None:
    w = W(state)
    chosen: list[str] = []
    if isinstance(arg, list):
        if len(arg) != 2 or not isinstance(arg[1], list) or not all(isinstance(x, str) for x in arg[1]):
            raise IllegalAction("Accept with the offer's number, or [number, [the cards you give]].")
        arg, chosen = arg[0], arg[1]
    offer = _find(state, arg)
    p, q = offer["from"], offer["to"]
    if player_of_role(state, role) != q:
        raise IllegalAction(f"Offer {offer['id']} is not put to you.")
    if not quiet(state):
        raise IllegalAction("An exchange takes effect only at a player's own-turn decision or while a captor "
                            "disposes of his captives (ruling K66): accept it then.")
    _check_public(state, offer, p, q)
    any_n = offer["ask"]["any"]
    if len(chosen) != any_n or len(set(chosen)) != len(chosen):
        raise IllegalAction(f"Name {any_n} different card(s) of your hand that you give." if any_n
                            else "This offer asks no cards of your choice.")
    for cid in chosen:
        if w.codec.get(cid) < 0:
            raise IllegalAction(f"There is no Crown card {cid!r}.")
        if cid in offer["ask"]["cards"]:
            raise IllegalAction(f"{card_name(w, w.cid(cid))} is asked already: choose other cards.")
    back = {"cards": offer["ask"]["cards"] + chosen, "ships": offer["ask"]["ships"], "free": offer["ask"]["free"]}
    try:
        _check_side(state, back, q, p, own=True)
        _check_side(state, offer["give"], p, q, own=False)
    except IllegalAction as exc:
        raise IllegalAction(f"Offer {offer['id']} cannot be carried out now: {exc}") from None
    offers(state).remove(offer)
    pr, qr = role_of(state, p), role
    lines = [_apply(state, offer["give"], p, q), _apply(state, back, q, p)]
    if offer["ally"]:
        state["ally"][p][q] = state["ally"][q][p] = 1
        lines.append(f"{pr} and {qr} are allied")
    done = "; ".join(x for x in lines if x)
    log.public(state, f"{qr} accepts an offer of {pr}: {done}.", log.POLITICAL)
    for a, b, items in ((p, q, offer["give"]["cards"]), (q, p, back["cards"])):
        if items:
            names = ", ".join(card_name(w, w.cid(c)) for c in items)
            log.private(state, role_of(state, a), f"You give {names} to {role_of(state, b)} (offer {offer['id']}).",
                        log.CARD)
            log.private(state, role_of(state, b), f"You receive {names} from {role_of(state, a)} "
                        f"(offer {offer['id']}).", log.CARD)
    _drop_captives(state)


def _apply(state: State, side: dict[str, Any], giver: int, receiver: int) -> str:
    """Carry out one side of an accepted exchange; the public words for it."""
    w = W(state)
    gr, rr = role_of(state, giver), role_of(state, receiver)
    parts = []
    for cid in side["cards"]:
        c = w.cid(cid)
        state["cz"][c], state["ch"][c] = Z_HAND, receiver
        # Transfers: "The recipient may not allocate a traded card to a Noble who is involved
        # in combat in the turn of the trade" (as the dealing verbs, deals.py).
        state["traded"].append(c)
    if side["cards"]:
        parts.append(f"{gr} gives {rr} {len(side['cards'])} card(s)")
    for sid in side["ships"]:
        s = w.ship_codec.id(sid)
        state["sctl"][s] = receiver
        state["lent"][sid] = [giver, receiver]
        parts.append(f"{gr} lends {rr} the {w.ships[s].name}")
    for nid in side["free"]:
        n = w.cid(nid)
        free_captive(state, n, f"{gr} frees {card_name(w, n)} for a ransom agreed with {rr}")
    return "; ".join(parts)


def _drop_captives(state: State) -> None:
    """Captives freed by an exchange leave their captor's queue (a queue left empty ends the
    ``captive`` step; the rules settle after every standing verb)."""
    stack = state["stack"]
    for i in range(len(stack) - 1, -1, -1):
        f = stack[i]
        if f["step"] != "captive":
            continue
        f["queue"] = [n for n in f["queue"] if state["cz"][n] == Z_NOBLE and state["ncap"][n] >= 0]
        if not f["queue"]:
            del stack[i]


def close(state: State, role: str, verb: str, arg: Any) -> None:
    offer = _find(state, arg)
    p = player_of_role(state, role)
    if verb == "decline" and p != offer["to"]:
        raise IllegalAction(f"Offer {offer['id']} is not put to you: only {role_of(state, offer['to'])} declines it.")
    if verb == "withdraw" and p != offer["from"]:
        raise IllegalAction(f"Offer {offer['id']} is not yours to withdraw.")
    offers(state).remove(offer)
    if verb == "decline":
        stalling.refuse(state, offer["from"], exchange_key(offer["to"], offer))  # ruling K93
    pr, qr = role_of(state, offer["from"]), role_of(state, offer["to"])
    what = "declines" if verb == "decline" else "withdraws"
    for r in (pr, qr):
        log.private(state, r, f"{role} {what} offer {offer['id']}.", log.POLITICAL)


def exchange_key(to: int, offer: dict[str, Any]) -> str:
    """How a declined exchange is remembered (ruling K93): to whom, what is given and asked."""
    return "exchange:" + canonical_json([to, offer["give"], offer["ask"], offer["ally"]])


# ----- what is shown ---------------------------------------------------------------------------
def describe(state: State, offer: dict[str, Any]) -> str:
    """The offer in words (for its two parties: it names the cards)."""
    w = W(state)
    pr, qr = role_of(state, offer["from"]), role_of(state, offer["to"])

    def side(s: dict[str, Any], giver: str) -> list[str]:
        out = []
        if s["cards"]:
            out.append(", ".join(card_name(w, w.cid(c)) for c in s["cards"]))
        if s.get("any"):
            out.append(f"{s['any']} card(s) of {giver}'s choice")
        out += [f"the loan of the {w.ships[w.ship_codec.id(x)].name}" for x in s["ships"]]
        out += [f"the release of {card_name(w, w.cid(n))}" for n in s["free"]]
        return out

    gives, asks = side(offer["give"], pr), side(offer["ask"], qr)
    text = f"{pr} gives " + ("; ".join(gives) if gives else "nothing")
    text += f"; {qr} gives " + ("; ".join(asks) if asks else "nothing")
    if offer["ally"]:
        text += "; alliance between them"
    return text


def view_offers(state: State, role: str) -> list[dict[str, Any]]:
    """The pending offers ``role`` may see: his own and those put to him; all for the umpire."""
    p = player_of_role(state, role)
    umpire = role == UMPIRE
    out = []
    for o in offers(state):
        if not umpire and p not in (o["from"], o["to"]):
            continue
        out.append({"id": o["id"], "from": role_of(state, o["from"]), "to": role_of(state, o["to"]),
                    "give": dict(o["give"]), "ask": dict(o["ask"]), "ally": o["ally"], "round": o["round"],
                    "text": describe(state, o)})
    return out


def alliances(state: State) -> list[list[str]]:
    """The alliances in force (public, Alliances 1: "no secret alliances are allowed")."""
    roles = state["roles"]
    return [[role_of(state, a), role_of(state, b)] for a in range(len(roles)) for b in range(a + 1, len(roles))
            if state["ally"][a][b]]


def standing(state: State, role: str) -> dict[str, Any]:
    """What a player's standing verbs take (shown in his view; ``role`` is a player,
    :func:`is_player`): found for every player at once and memoised per position (read only)."""
    p = player_of_role(state, role)
    if p < 0:  # never another player's (index -1 would be the last player's)
        raise ValueError(f"{role} is not a player")
    return memo.memoised(state, "standing", lambda: _standing_all(state))[p]


def _standing_all(state: State) -> list[dict[str, Any]]:
    """:func:`standing` of each player, by player: the others, his hand, the ships he may
    lend (:func:`lendable`) and his captives still waiting (:func:`captive_waiting`)."""
    w = W(state)
    roles = state["roles"]
    cz, ch, ncap = state["cz"], state["ch"], state["ncap"]
    cards: list[list[str]] = [[] for _ in roles]
    for c, z in enumerate(cz):
        if z == Z_HAND:
            cards[ch[c]].append(w.cards[c].id)
    ships: list[list[str]] = [[] for _ in roles]
    for s in range(len(w.ships)):
        ctl = ship_controller(state, s)
        if ctl >= 0 and lendable(state, s, ctl):
            ships[ctl].append(w.ships[s].id)
    free: list[list[str]] = [[] for _ in roles]
    for n in w.nobles:
        captor = ncap[n]
        if cz[n] == Z_NOBLE and captor >= 0 and captive_waiting(state, n, captor):
            free[captor].append(w.cards[n].id)
    now = quiet(state)
    return [{"propose_exchange": {"to": [r for r in roles if r != role], "cards": cards[p], "ships": ships[p],
                                  "free": free[p]},
             "accept_now": now} for p, role in enumerate(roles)]
