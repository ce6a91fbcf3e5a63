"""Kingmaker dealings between players (Transfers §Transfers, Alliances §Alliances): offers that the
receiver accepts or declines (a step for him; the published default is to decline).

Offered in one's own turn (at each of one's decisions, ruling K47):
    ``offer_card`` [card, role, "gift"|"trade"]  give an unplayed hand card (§Transfers); a trade asks
                               one card back, which the receiver picks
    ``lend_ship`` [ship, role] lend a ship (§Transfers): the borrower moves it until it is recalled
    ``recall`` ship            take a lent ship back
    ``transfer`` [card, noble] give a town, ship or mercenary card of one's noble to a noble in
                               the same square (§Transfers); to another faction it is an offer
    ``give_heir`` [heir, noble] hand a captured heir to another faction's noble beside him
                               (§Capture of Noble Counters: the alternative to execution)
    ``give_place`` [place, role] give a captured place to a faction with a noble in its square
                               (§Transfers)
    ``ally`` role / ``end_alliance`` role   alliances are public; ending one brings one round
                               of peace (§Alliances)
The receiver (``offer`` step): ``accept`` / ``decline``; after a traded card, ``give_back`` card.
"""

from __future__ import annotations

from typing import Any

from roses.engine import log
from roses.engine.contract import Action, State, canonical_json
from roses.engine.steps import Frame, pop, push
from roses.games.kingmaker import cards as K
from roses.games.kingmaker import ops, stalling
from roses.games.kingmaker.common import (
    Z_AWARD,
    Z_HAND,
    Z_NOBLE,
    W,
    allied,
    awards,
    card_name,
    faction_nobles,
    heirs_of,
    may_hold,
    place_name,
    place_owner,
    player_of_role,
    role_of,
    ship_controller,
    ship_passengers,
)
from roses.games.kingmaker.queries import free_moves, hand, offered
from roses.games.kingmaker.wording import Labelled, arg_name

TRANSFERABLE = (K.TOWN, K.SHIP, K.MERCENARY, K.ROYAL_CASTLE)


def has_deals(state: State, p: int) -> bool:
    """Whether player ``p`` has a dealing verb (the ``deal`` menu is offered): always when there
    is another player, since an alliance may be proposed or ended at any time (§Alliances)
    (pinned to :func:`deal_options` by a test)."""
    return len(state["roles"]) > 1


def deal_options(state: State, p: int) -> list[Action]:  # noqa: C901 - each kind of deal the rules allow, in turn
    w = W(state)
    n_players = len(state["roles"])
    others = [q for q in range(n_players) if q != p]
    out: list[Action] = []
    for c in hand(state, p):
        for q in others:
            out.append(("offer_card", [w.cards[c].id, role_of(state, q), "gift"]))
            if hand(state, q):
                out.append(("offer_card", [w.cards[c].id, role_of(state, q), "trade"]))
    lent = state["lent"]
    for s, piece in enumerate(w.ships):
        if state["spos"][s] is None or piece.id in lent:
            continue
        if ship_controller(state, s) == p and not ship_passengers(state, s):
            out += [("lend_ship", [piece.id, role_of(state, q)]) for q in others]
    for sid, (lender, _) in sorted(lent.items()):
        if lender == p:
            out.append(("recall", sid))
    mine = [n for n in faction_nobles(state, p) if state["ncap"][n] < 0 and state["nsq"][n] is not None]
    for n in mine:
        sq = state["nsq"][n]
        mates = [m for m in W(state).nobles if m != n and state["cz"][m] == Z_NOBLE and state["ncap"][m] < 0
                 and state["nsq"][m] == sq and state["nship"][m] < 0]
        if not mates:
            continue
        for c in awards(state, n):
            if w.cards[c].kind in TRANSFERABLE:
                out += [("transfer", [w.cards[c].id, w.cards[m].id]) for m in mates]
    for h in heirs_of(state, p):
        e = state["hesc"][h]
        for m in W(state).nobles:
            if (state["cz"][m] == Z_NOBLE and state["ch"][m] != p and state["ncap"][m] < 0
                    and may_hold(state, state["ch"][m], h)
                    and state["nsq"][m] is not None and state["nsq"][m] == state["nsq"][e]):
                out.append(("give_heir", [w.heirs[h].id, w.cards[m].id]))
    mine_places = set(pl for pl, o in state["pown"].items() if o == p)
    for n in mine:
        for c in [n, *awards(state, n)]:
            mine_places.update(pl for pl in w.card_places[c] if pl in w.board.places)
    for pl in sorted(mine_places):
        if place_owner(state, pl) != p:
            continue
        sq = w.board.places[pl].square
        for q in others:
            if any(state["nsq"][m] == sq and state["ncap"][m] < 0 for m in faction_nobles(state, q)) and any(
                    state["nsq"][m] == sq for m in mine):
                out.append(("give_place", [pl, role_of(state, q)]))
    for q in others:
        if allied(state, p, q):
            out.append(("end_alliance", role_of(state, q)))
        else:
            out.append(("ally", role_of(state, q)))
    # §Alliances: an ally's noble beside one of mine may serve under him (the ally accepts).
    for c in mine:
        loc = (state["nsq"][c], state["nin"][c], state["nship"][c])
        for m in W(state).nobles:
            q = state["ch"][m]
            if (q != p and state["cz"][m] == Z_NOBLE and state["ncap"][m] < 0 and allied(state, p, q)
                    and (state["nsq"][m], state["nin"][m], state["nship"][m]) == loc
                    and state["command"].get(str(m)) != c):
                out.append(("command", [w.cards[m].id, w.cards[c].id]))
    for key, c in sorted(state["command"].items()):
        m = int(key)
        if state["cz"][c] == Z_NOBLE and state["ch"][c] == p or state["cz"][m] == Z_NOBLE and state["ch"][m] == p:
            out.append(("release", w.cards[m].id))
    return out


class Dealing:
    """Mixin for the steps of one's own turn: the dealing verbs (each pushes an offer)."""

    def on_offer_card(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        q = player_of_role(state, arg[1])
        w = W(state)
        log.public(state, f"{role} offers {arg[1]} a card" + (" in trade." if arg[2] == "trade" else "."), log.CARD)
        push(state, {"step": "offer", "from": player_of_role(state, role), "to": q, "kind": "card",
                     "card": w.cid(arg[0]), "trade": arg[2] == "trade"})

    def on_lend_ship(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        q = player_of_role(state, arg[1])
        log.public(state, f"{role} offers to lend the {ship_name(state, arg[0])} to {arg[1]}.", log.CARD)
        push(state, {"step": "offer", "from": player_of_role(state, role), "to": q, "kind": "ship", "ship": arg[0]})

    def on_recall(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        state["lent"].pop(arg)
        s = w.ship_codec.id(arg)
        if not ship_passengers(state, s):
            state["sctl"][s] = -1
        log.public(state, f"{role} takes back the {ship_name(state, arg)}.", log.CARD)

    def on_transfer(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        c, m = w.cid(arg[0]), w.cid(arg[1])
        p = player_of_role(state, role)
        if state["ch"][m] == p:
            give_card_to_noble(state, c, m)
            return
        log.public(state, f"{role} offers {w.cards[c].name} to {card_name(w, m)}.", log.CARD)
        push(state, {"step": "offer", "from": p, "to": state["ch"][m], "kind": "transfer", "card": c, "noble": m})

    def on_give_heir(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        h, m = w.heir_codec.id(arg[0]), w.cid(arg[1])
        log.public(state, f"{role} offers {w.heirs[h].name} to {role_of(state, state['ch'][m])}.", log.POLITICAL)
        push(state, {"step": "offer", "from": player_of_role(state, role), "to": state["ch"][m], "kind": "heir",
                     "heir": h, "noble": m})

    def on_give_place(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        q = player_of_role(state, arg[1])
        log.public(state, f"{role} offers {place_name(W(state), arg[0])} to {arg[1]}.", log.POLITICAL)
        push(state, {"step": "offer", "from": player_of_role(state, role), "to": q, "kind": "place", "place": arg[0]})

    def on_ally(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        q = player_of_role(state, arg)
        log.public(state, f"{role} proposes an alliance to {arg}.", log.POLITICAL)
        push(state, {"step": "offer", "from": player_of_role(state, role), "to": q, "kind": "alliance"})

    def on_command(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        m, c = w.cid(arg[0]), w.cid(arg[1])
        log.public(state, f"{role} asks that {card_name(w, m)} serve under {card_name(w, c)}.", log.POLITICAL)
        push(state, {"step": "offer", "from": player_of_role(state, role), "to": state["ch"][m], "kind": "command",
                     "noble": m, "commander": c})

    def on_release(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        state["command"].pop(str(w.cid(arg)), None)
        log.public(state, f"{card_name(w, w.cid(arg))} leaves his commander.", log.POLITICAL)

    def on_end_alliance(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        p, q = player_of_role(state, role), player_of_role(state, arg)
        state["ally"][p][q] = state["ally"][q][p] = 0
        for key, c in list(state["command"].items()):
            if {state["ch"][int(key)], state["ch"][c]} == {p, q}:
                del state["command"][key]
        # §Alliances: one round of peace between the former allies, from now.
        state["truce"].append([p, q, state["tno"] + len(state["roles"])])
        log.public(state, f"{role} ends the alliance with {arg}; one round of peace follows.", log.POLITICAL)


def ship_name(state: State, sid: str) -> str:
    w = W(state)
    return w.ships[w.ship_codec.id(sid)].name


def give_card_to_noble(state: State, c: int, m: int) -> None:
    w = W(state)
    state["cz"][c], state["ch"][c] = Z_AWARD, m
    state["fresh"].append(c)
    log.public(state, f"{w.cards[c].name} passes to {card_name(w, m)}.", log.CARD)


class Offer(Labelled):
    """The receiver of an offer accepts or declines (default: decline)."""

    name = "offer"
    phase = "deal"
    always_decides = True
    rule = "§Transfers"
    labels = {"accept": "accept", "decline": "decline"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The published default: decline (when it is an option)."""
        return offered(self.options(state, frame, role), ("decline", None))

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["to"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("accept", None), ("decline", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        w = W(state)
        giver = role_of(state, frame["from"])
        kind = frame["kind"]
        mine = role == role_of(state, frame["to"])
        if kind == "card":
            what = card_name(w, frame["card"]) if mine else "a card"
            return f"{giver} offers {role_of(state, frame['to'])} {what}" + (
                " in trade for a card of your choice" if frame["trade"] and mine else "") + ". Accept? (default: no)"
        if kind == "ship":
            return f"{giver} offers to lend the {ship_name(state, frame['ship'])}. Accept? (default: no)"
        if kind == "transfer":
            return f"{giver} offers {w.cards[frame['card']].name} to {card_name(w, frame['noble'])}. Accept? (default: no)"
        if kind == "heir":
            return f"{giver} offers {w.heirs[frame['heir']].name}. Accept? (default: no)"
        if kind == "command":
            return (f"{giver} asks that {card_name(w, frame['noble'])} serve under {card_name(w, frame['commander'])}. "
                    "Accept? (default: no)")
        if kind == "place":
            return f"{giver} offers {place_name(w, frame['place'])}. Accept? (default: no)"
        if kind == "free_move":
            return (f"{giver} asks you to provide a Free Move card for {card_name(w, frame['noble'])}, who serves "
                    "under his command. Accept? (default: no)")
        return f"{giver} proposes an alliance. Accept? (default: no)"

    def on_decline(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        log.public(state, f"{role} declines the offer.", log.CARD)
        if "req" in frame:
            stalling.refuse(state, frame["from"], frame["req"])  # ruling K93

    def on_accept(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        p, q = frame["from"], frame["to"]
        kind = frame["kind"]
        log.public(state, f"{role} accepts.", log.CARD)
        if kind == "card":
            c = frame["card"]
            state["cz"][c], state["ch"][c] = Z_HAND, q
            state["traded"].append(c)
            log.private(state, role_of(state, p), f"You give {card_name(w, c)} to {role}.", log.CARD)
            log.private(state, role, f"You receive {card_name(w, c)} from {role_of(state, p)}.", log.CARD)
            if frame["trade"] and hand(state, q):
                frame["step"] = "trade_back"
                return
        elif kind == "ship":
            s = w.ship_codec.id(frame["ship"])
            state["sctl"][s] = q
            state["lent"][frame["ship"]] = [p, q]
        elif kind == "transfer":
            give_card_to_noble(state, frame["card"], frame["noble"])
        elif kind == "heir":
            state["hesc"][frame["heir"]] = frame["noble"]
            ops.plantagenet_follow(state, w.heirs[frame["heir"]].house)
            if state["both_since"][q] < 0 and ops.controls_both_houses(state, q):
                state["both_since"][q] = state["round"]
        elif kind == "place":
            ops.set_place_owner(state, frame["place"], q)
        elif kind == "command":
            state["command"][str(frame["noble"])] = frame["commander"]
        elif kind == "free_move":
            n = frame["noble"]
            ops.discard_event(state, free_moves(state, q)[0])
            state["nmv"][n] = -1
            state["freed"].append(n)
            log.public(state, f"{role} provides a Free Move for {card_name(w, n)} (§Alliances).", log.MOVE)
        else:
            state["ally"][p][q] = state["ally"][q][p] = 1
            log.public(state, f"{role_of(state, p)} and {role} are allied.", log.POLITICAL)
        pop(state)



class TradeBack(Labelled):
    """After accepting a trade the receiver picks the card he gives back (default: the first)."""

    name = "trade_back"
    phase = "deal"
    always_decides = True
    rule = "§Transfers"
    labels = {"give_back": "give {} back"}

    def default_option(self, state: State, frame: Frame, role: str) -> Action | None:
        """The first option (the published default)."""
        opts = self.options(state, frame, role)
        return opts[0] if opts else None

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["to"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        w = W(state)
        return [("give_back", w.cards[c].id) for c in hand(state, frame["to"])]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return f"Choose the card you give {role_of(state, frame['from'])} in the trade (default: the first)."

    def on_give_back(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        w = W(state)
        c = w.cid(arg)
        state["cz"][c], state["ch"][c] = Z_HAND, frame["from"]
        state["traded"].append(c)
        log.private(state, role, f"You give {card_name(w, c)} in the trade.", log.CARD)
        log.private(state, role_of(state, frame["from"]), f"You receive {card_name(w, c)} in the trade.", log.CARD)
        pop(state)


class DealMenu(Dealing, Labelled):
    """The dealing menu opened with ``deal`` from one's own decisions (it keeps the phase's
    own list of choices short): one dealing verb, or ``back``."""

    name = "deal"
    phase = "deal"
    always_decides = True
    rule = "§Transfers"
    labels = {
        "ally": "propose an alliance to {}", "back": "back", "command": "ask that {} serve under {}",
        "end_alliance": "end the alliance with {}", "give_heir": "hand {} over to {}", "give_place": "give {} to {}",
        "lend_ship": "lend the {} to {}", "offer_card": "offer {}", "recall": "take back the {}",
        "release": "release {}", "transfer": "transfer {} to {}",
    }

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb == "offer_card" and isinstance(arg, list) and len(arg) == 3:
            card, to, _ = (arg_name(W(state), x, state["roles"]) for x in arg)
            return f"offer {card} to {to} in trade for a card" if arg[2] == "trade" else f"give {card} to {to}"
        return super().option_label(state, frame, role, verb, arg)

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [role_of(state, frame["p"])]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        """The dealing verbs but those already used in this decision since it last changed
        (ruling K90: an offer declined, or an alliance made and ended, is not made again)."""
        done = set(_parent(state).get("idle", ())) | stalling.blocked(state, frame["p"])  # and ruling K93
        return [a for a in deal_options(state, frame["p"]) if deal_key(*a) not in done] + [("back", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Deal with another player: an offer he accepts or declines, or back."

    def handle(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> None:
        pop(state)
        parent = _parent(state)
        parent.setdefault("idle", []).append("deal" if verb == "back" else deal_key(verb, arg))  # ruling K90
        if verb != "back":
            super().handle(state, frame, role, verb, arg)
            top = state["stack"][-1] if state["stack"] else None
            if top is not None and top["step"] == "offer":
                top["req"] = deal_key(verb, arg)  # remembered if declined (ruling K93)

    def on_back(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """Close the menu (the frame is popped by :meth:`handle`)."""


def deal_key(verb: str, arg: Any) -> str:
    """How a dealing action is remembered in its decision's ``idle`` list (ruling K90; as
    play.trip_key, which imports this module)."""
    return f"{verb}:{canonical_json(arg)}"


def _parent(state: State) -> Frame:
    """The decision the dealing menu was opened from (below the menu's frame, or the top once
    the menu's frame is popped)."""
    frames = state["stack"]
    return frames[-2] if frames and frames[-1]["step"] == "deal" else frames[-1]
