"""Levy (3.0): Arts of War (3.1), Pay (3.2, :mod:`upkeep`), Muster Exiles and Ready Vassals
(3.3), Muster (3.4).

Frames (one per side, Rebel then King's side, 2.2.4):

``{"step": "arts_of_war", "side": S, "drawn": bool}``
    3.1.2 (first Levy): two random cards, each deployed as a Capability on an eligible Lord of
    the owner's choice (automatic with one candidate, discarded with none). 3.1.3 (later
    Levies): two random Events implemented in the order drawn (:mod:`arts`).
``{"step": "exiles", "side": S}``
    3.3.1: the side may Muster each Exile-marked cylinder now Ready into an Exile box it may use.
``{"step": "muster", "side": S, "lords": None | [ids], "lord": None | id, "left": n}``
    3.4: the side's Lords on the map when the segment begins act one at a time (the owner's
    order), each up to his Lordship; ``lords`` are those still to act, ``lord`` the one acting
    and ``left`` his remaining Levy actions. Lords Mustered during the segment do not act.
``{"step": "place_lord", "side": S, "lord": id, "at": [locales]}``
    3.4.2 MUSTERING: the owner chooses among several Friendly Seats for a Lord whose own Seat
    holds Enemy Lords.
``{"step": "end_levy"}``
    3.4.6 NOTE: This Levy Events end.

An Influence check's extra points (1.4.2: none, one for +1, three for +2) are part of the
action's argument: ``"London"``, ``"London+1"``, ``"London+3"``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from roses.engine.contract import Action, State, mark_reveal
from roses.engine.log import CARD, RECRUIT, private, public
from roses.engine.steps import Frame, Step, pop, push
from roses.games.plantagenet import arts, reactions, wars
from roses.games.plantagenet import card_rules as cr
from roses.games.plantagenet import effects as fx
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.common import (
    BOARD_PART,
    CARDS_AND_LORDS,
    LEVY,
    LORDS_AND_BOARD,
    LORDS_PART,
    NOT_CARDS,
    TRACKS_PART,
    changed,
    side_frames,
)
from roses.games.plantagenet.components import SIDES
from roses.games.plantagenet.records import SideFrame, StepFrame, VassalWhere, Where, put_lord
from roses.games.plantagenet.services import load
from roses.games.plantagenet.setup import new_mat, replace_in_place
from roses.games.plantagenet.upkeep import hidden_mats, lord_name, mat_log, vassal_name

#: The extra Influence points a check may add (1.4.2) and their argument suffixes.
EXTRAS: Final = (0, 1, 3)


def with_extra(target: str, extra: int) -> str:
    return target if extra == 0 else f"{target}+{extra}"


def split_extra(arg: Any) -> tuple[str, int]:
    """``"London+3"`` -> ``("London", 3)``."""
    text = str(arg)
    if "+" in text:
        target, extra = text.rsplit("+", 1)
        return target, int(extra)
    return text, 0


def _check_args(targets: list[str]) -> list[str]:
    """Each target with each choice of extra Influence points (:data:`EXTRAS`)."""
    out: list[str] = []
    for t in targets:
        args = _CHECK_ARGS.get(t)
        if args is None:
            args = _CHECK_ARGS[t] = tuple(with_extra(t, x) for x in EXTRAS)
        out += args
    return out


#: :func:`_check_args` of one target, made once per name (the names are the game's components).
_CHECK_ARGS: Final[dict[str, tuple[str, ...]]] = {}


def _check_log(state: State, lord: str, what: str, res: dict[str, Any]) -> None:
    public(state, f"{lord_name(lord)} {what}: {res['cost']} Influence spent, roll {res['roll']} "
                  f"against {res['target']}: {'success' if res['success'] else 'failure'} (1.4.2).", RECRUIT)


# ----- 3.1 Arts of War -------------------------------------------------------------------------
class ArtsOfWar(Step):
    name = "arts_of_war"
    phase = LEVY
    rule = "3.1.2"
    # the Capability goes from the drawn cards to the Lord's mat (a Special Vassal with it, and
    # the Troops of Y24 Hastings or Y14/Y23 Burgundians: arts.deploy_capability)
    changes = {"assign": CARDS_AND_LORDS}
    # drawing, deploying or discarding a Capability (3.1.1, 3.1.2); an Event drawn after the
    # first Levy counts its own changes (any part: its effect)
    run_changes = CARDS_AND_LORDS

    def _candidates(self, state: State, frame: Frame) -> list[str] | None:
        """First Levy: the eligible Lords for the next drawn card, else None."""
        drawn = state["aow"][frame["side"]]["drawn"]
        if not (frame.get("drawn") and drawn and state["first_turn"]):
            return None
        return arts.eligible_lords(state, frame["side"], drawn[0])

    def actors(self, state: State, frame: Frame) -> list[str]:
        """The side decides when the card has more than one eligible Lord (:meth:`_candidates`);
        under Hidden Mats whenever it has one, so that the wait does not tell the other side
        how many Lords the hidden card could go to (RULINGS R88)."""
        side = frame["side"]
        drawn = state["aow"][side]["drawn"]
        if not (frame.get("drawn") and drawn and state["first_turn"]):
            return []
        if arts.several_eligible(state, side, drawn[0]):
            return [side]
        return [side] if hidden_mats(state) and arts.eligible_lords(state, side, drawn[0]) else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("assign", lid) for lid in self._candidates(state, frame) or []]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        side = frame["side"]
        if role != side:
            return f"Arts of War (3.1.2): {side} deploys Capabilities."
        card = state["aow"][side]["drawn"][0]
        return (f"Arts of War (3.1.2): deploy the Capability {arts.capability_title(card)} ({card}) "
                "on one of your Lords.")

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        return f"Deploy it on {lord_name(arg)}"

    def on_assign(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        self._deploy(state, frame["side"], arg, state["aow"][frame["side"]]["drawn"][0])

    def _deploy(self, state: State, side: str, lord: str, card: str) -> None:
        arts.deploy_capability(state, lord, card)
        title = arts.capability_title(card)
        if hidden_mats(state):
            private(state, side, f"{lord_name(lord)} takes the Capability {title} ({card}) (3.1.2).", CARD)
            public(state, f"{side} deploys a Capability (3.1.2).", CARD)
        else:
            public(state, f"{lord_name(lord)} takes the Capability {title} ({card}) (3.1.2).", CARD)
            mark_reveal(state)

    def run(self, state: State, frame: Frame) -> None:
        side = frame["side"]
        if not frame.get("drawn"):
            frame["drawn"] = True
            arts.draw(state, side, 2)
            return
        drawn = state["aow"][side]["drawn"]
        if not drawn:
            pop(state)
            return
        card = drawn[0]
        if not state["first_turn"]:
            if card in arts.EVENT_EFFECTS:  # (otherwise only the cards' zones change: 3.1.3)
                changed()  # its effect may change any part
            arts.implement_event(state, side, card)
            return
        cands = arts.eligible_lords(state, side, card)
        if cands:
            self._deploy(state, side, cands[0], card)
            return
        drawn.remove(card)
        arts.to_deck(state, side, card)
        public(state, f"{side} discards the Capability {arts.capability_title(card)} ({card}): "
                      "no Lord can take it (3.1.2).", CARD)
        mark_reveal(state)


# ----- 3.3 Exiles and Vassals -----------------------------------------------------------------
def ready_exiles(state: State, side: str) -> list[str]:
    """3.3.1: the side's Exile-marked cylinders in the current or an earlier box."""
    box = state["box"]
    if side == "Lancaster" and state["aow"]["Lancaster"]["in_effect"] and fx.event_on(state, "be_sent_for", "Lancaster"):
        box = sv.OFF_RIGHT  # L4 Be Sent For: Exiles from anywhere on the Calendar this Levy
    lrec, on_calendar = state["lords"], Where.CALENDAR
    out = []
    for lid in sv.sides_in(lrec)[side]:
        d = lrec[lid]
        if d["where"] == on_calendar and d["exile"] and d["box"] <= box:
            out.append(lid)
    return sorted(out)


def muster_lord(state: State, lord: str, locale: str) -> None:
    """Put a Mustered Lord on the map with a fresh mat (1.5.3, 3.3.1, 3.4.2), and apply the
    scenario rules that watch where Lords are placed."""
    put_lord(state["lords"][lord], Where.MAP, locale=locale, mat=new_mat(lord))
    clarence = state["lords"].get("clarence")
    if (lord == "margaret" and locale == "France" and "shaky_allies" in state["special_rules"]
            and clarence is not None and clarence["where"] not in (Where.REMOVED, Where.UNUSED)):
        sv.remove_lord(state, "clarence")
        public(state, "Shaky Allies (6.0 II): Margaret is placed in France; Clarence leaves the game.", RECRUIT)
    wars.on_muster(state, lord)  # Wars of the Roses: Margaret takes L26 Edward (6.3 War I)


class MusterExiles(Step):
    name = "exiles"
    phase = LEVY
    rule = "3.3.1"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]] if self.options(state, frame, frame["side"]) else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        out: list[Action] = [("muster_exile", f"{lid}@{box}")
                             for lid in ready_exiles(state, frame["side"])
                             for box in sv.exile_boxes_for(state, lid)]
        return out + [("done", None)] if out else []

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role != frame["side"]:
            return f"Muster Exiles (3.3.1): waiting for {frame['side']}."
        return "Muster Exiles (3.3.1): Muster any Ready Exiles into an Exile box (free), then Done."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "done":
            return "Done"
        lid, box = str(arg).split("@")
        return f"Muster {lord_name(lid)} in {box}"

    changes = {"done": frozenset()}  # the frame popped (a Muster from Exile: any part)
    run_changes = frozenset()  # the frame popped

    def on_muster_exile(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        lid, box = str(arg).split("@")
        muster_lord(state, lid, box)
        public(state, f"{lord_name(lid)} Musters from Exile in {box} (3.3.1).", RECRUIT)

    def on_done(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)

    def run(self, state: State, frame: Frame) -> None:
        pop(state)


class ReadyVassals(Step):
    """3.3.2: face-down Vassals in the current box return to their Seats face up."""

    name = "ready_vassals"
    phase = LEVY
    rule = "3.3.2"
    run_changes = BOARD_PART  # the Vassals' markers

    def run(self, state: State, frame: Frame) -> None:
        for vid, v in state["vassals"].items():
            if v["where"] == VassalWhere.CALENDAR and not v["face_up"] and v["box"] is not None \
                    and v["box"] <= state["box"]:
                v.update(where=VassalWhere.SEAT, box=None, face_up=True, lord=None)
                public(state, f"Vassal {load().vassals[vid]['name']} is Ready at its Seat.")
        pop(state)


class SkipPay(Step):
    name = "skip_pay"
    phase = LEVY
    rule = "3.2"
    run_changes = frozenset()  # a log line, the frame popped

    def run(self, state: State, frame: Frame) -> None:
        public(state, "Pay is skipped in the scenario's first Levy (3.2).")
        pop(state)


# ----- 3.4 Muster ------------------------------------------------------------------------------
def troops_in_use(state: State) -> dict[str, int]:
    """Troop pieces on mats (Routed included): the pool holds the rest (1.2, 1.6)."""
    return cr.troops_in_use(state)


def ship_holders(state: State) -> int:
    """Lords (both sides) with at least one Ship (1.7.3)."""
    return sum(1 for d in state["lords"].values() if d["mat"] and d["mat"]["assets"]["ships"] > 0)


def levy_lord_places(state: State, lord: str) -> list[str]:
    """3.4.2 MUSTERING: where a Levied Lord would be placed: his own Seat if no Enemy Lord is
    there, else any Friendly Seat of another Lord of his side free of Enemy Lords. Scenario II
    Shaky Allies: Margaret and Warwick never share a Stronghold (RULINGS R22)."""
    return _levy_lord_places(state, lord, sv.enemy_locales(state, sv.side_of(lord)))


def _levy_lord_places(state: State, lord: str, enemy: set[str]) -> list[str]:
    """:func:`levy_lord_places`, given the Locales where Enemy Lords are (:func:`services.enemy_locales`)."""
    side = sv.side_of(lord)
    partner = _SHAKY_PARTNERS.get(lord) if "shaky_allies" in state["special_rules"] else None

    def allowed(loc: str) -> bool:
        if loc in enemy:
            return False
        return not (partner and partner in sv.lords_at(state, loc))

    seats = state["seats"]
    seat = seats.get(lord)
    if seat is not None and allowed(seat):
        return [seat]
    sides = sv.lord_sides()
    return sorted({loc for lid, loc in seats.items()
                   if lid != lord and sides[lid] == side and sv.is_friendly(state, loc, side) and allowed(loc)})


#: Scenario II Shaky Allies: the Lords who never share a Stronghold (RULINGS R22).
_SHAKY_PARTNERS: Final = {"margaret": "warwick_l", "warwick_l": "margaret"}


def ready_lords(state: State, side: str) -> list[str]:
    """3.4.2: the side's cylinders on the Calendar in the current or a lower box, not marked
    Exile (those Muster only by 3.3.1, RULINGS R22), with a place to Muster to."""
    box, lrec, on_calendar = state["box"], state["lords"], Where.CALENDAR
    ready = []
    for lid in sv.sides_in(lrec)[side]:
        d = lrec[lid]
        if d["where"] == on_calendar and not d["exile"] and d["box"] <= box:
            ready.append(lid)
    if not ready:
        return ready
    enemy = sv.enemy_locales(state, side)
    return sorted(lid for lid in ready if _levy_lord_places(state, lid, enemy))


def levy_vassals(state: State, side: str) -> list[str]:
    """3.4.3: regular Vassals at their Seats whose Seat is Friendly and free of Enemy Lords."""
    at_seat, vassals, by_seat = VassalWhere.SEAT, state["vassals"], _vassals_by_seat()
    blocked: set[str] | None = None
    out = []
    for seat, s in state["favour"].items():  # Seats are Strongholds: Friendly is the side's Favour (1.3.1)
        if s != side or seat not in by_seat:
            continue
        here = [vid for vid in by_seat[seat] if vid in vassals and vassals[vid]["where"] == at_seat]
        if here:
            if blocked is None:
                blocked = sv.enemy_locales(state, side)
            if seat not in blocked:
                out += here
    return sorted(out)


@cache
def _vassals_by_seat() -> dict[str, tuple[str, ...]]:
    """The Vassals of each Seat (1.5.4)."""
    out: dict[str, list[str]] = {}
    for vid, d in load().vassals.items():
        out.setdefault(str(d["seat"]), []).append(vid)
    return {seat: tuple(v) for seat, v in out.items()}


def king_richard_possible(state: State, side: str) -> bool:
    """Scenario III King Richard: in any Yorkist Muster with Gloucester (2) at London."""
    if side != "York" or "king_richard" not in state["special_rules"]:
        return False
    g, r = state["lords"].get("gloucester_2"), state["lords"].get("richard_iii")
    return bool(g and r and g["where"] == Where.MAP and g["locale"] == "London" and r["where"] == Where.UNUSED)


def lord_actions(state: State, lord: str, frame: Frame | None = None, only: str | None = None) -> list[Action]:
    """The Levy actions open to ``lord`` now (3.4-3.4.6), with the Muster frame's Lordship left
    and free actions (cards: :func:`card_rules.free_levy_actions`). With ``only`` just the
    actions of that verb (the same list filtered, computed faster: :meth:`Muster.is_legal`)."""
    side = sv.lord_sides()[lord]
    d = state["lords"][lord]
    here = d["locale"]
    loc = load().locales[here]
    left = 1 if frame is None else frame["left"]
    free = {} if frame is None else frame.get("free") or {}
    out: list[Action] = []
    every = only is None
    parleys = every or only in _PARLEY_VERBS
    card_parleys = every or only in _CARD_PARLEY_VERBS
    if loc["kind"] == "stronghold" and state["favour"].get(here) != side and state["exile_boxes"].get(here) != side:
        # 3.4 REQUIREMENTS: at an Enemy or Neutral Stronghold only Parley there; sv.parley_targets
        # gives just this Stronghold, or nothing at a London held by Y15 London for York.
        there = list(sv.parley_targets(state, lord)) if parleys else []
        if left > 0:
            out += [("parley", a) for a in _check_args(there)]
            if lord == "henry_tudor" and (every or only == "levy_vassal") \
                    and fx.event_on(state, "margaret_beaufort", "Lancaster"):
                out += _vassal_options(state, lord)  # L35: need not be at a Friendly Stronghold
        return out + _card_parleys(state, lord, left, free, there) if card_parleys else out
    targets = sorted(sv.parley_targets(state, lord)) if parleys else []
    if left > 0:
        if targets:
            out += [("parley", a) for a in _check_args(targets)]
        if every or only == "levy_lord":
            ready = ready_lords(state, side)
            if ready:
                out += [("levy_lord", a) for a in _check_args(ready)]
        if every or only == "levy_vassal":
            out += _vassal_options(state, lord)
        if every or only == "levy_troops" or only == "levy_troops_by":
            # the plain action keeps no argument; a card's variant is "levy_troops_by" (card_rules docs)
            out += [("levy_troops", None) if t is None else ("levy_troops_by", t) for t in cr.troops_options(state, lord)]
        if every or only == "levy_transport":
            out.append(("levy_transport", "carts"))
            ships = d["mat"]["assets"]["ships"]
            port_or_box = loc["kind"] == "exile" or loc.get("port") is not None
            if port_or_box and ships < 2 and (ships > 0 or ship_holders(state) < 9):
                out.append(("levy_transport", "ship"))
        if every or only == "levy_capability":
            choices = arts.capability_choices(state, lord, state["aow"][side]["deck"])
            if choices and cr.vassal_levy_blocked(state, lord):
                # Y7 Yorkists Block Parliament: not a Capability that brings a Special Vassal (R53)
                choices = [cid for cid in choices if not cr.capability_blocked(state, lord, cid)]
            out += [("levy_capability", cid) for cid in choices]
    if free.get("troops") and (every or only == "free_troops"):
        out += [("free_troops", a or "here") for a in cr.troops_options(state, lord)]
    return out + _card_parleys(state, lord, left, free, targets) if card_parleys else out


#: The verbs of :func:`_card_parleys`, and those that need the Parley targets.
_CARD_PARLEY_VERBS: Final = ("parley_sure", "free_parley", "cade_parley")
_PARLEY_VERBS: Final = ("parley", *_CARD_PARLEY_VERBS)


def _vassal_options(state: State, lord: str) -> list[Action]:
    """3.4.3 Levy Vassal, with the cards that change it (Y7, L35; L37 and L32 make it sure:
    only the plain check is offered, extra points would buy nothing)."""
    vassals = cr.vassal_targets(state, lord, levy_vassals(state, sv.lord_sides()[lord]))
    if cr.vassal_levy_sure(state, lord):
        return [("levy_vassal", v) for v in vassals]
    return [("levy_vassal", a) for a in _check_args(vassals)]


def _card_parleys(state: State, lord: str, left: int, free: dict[str, int], targets: list[str]) -> list[Action]:
    """Parleys by cards (3.4.1): Y18/L18 one sure Parley at one point less (``parley_sure``),
    Y28/L17 Parleys without Lordship (``free_parley``), Y4 Jack Cade's free sure Parleys
    (``cade_parley``). L17 and L18 may Parley a London held by Y15 London for York."""
    out: list[Action] = []
    if state["london_for_york"] and sv.side_of(lord) == "Lancaster":
        aided = sorted(sv.parley_targets(state, lord, london=True))
    else:
        aided = targets
    if left > 0 and cr.sure_parley_card(state, lord):
        out += [("parley_sure", t) for t in aided]
    if free.get("parley"):
        out += [("free_parley", a) for a in _check_args(aided if lord == "henry_vi" else targets)]
    if free.get("cade"):
        out += [("cade_parley", t) for t in targets]
    return out


#: Muster verbs that are Levy actions (3.4.1-3.4.6), for Y32 The King's Name.
LEVY_VERBS: Final = frozenset({"parley", "parley_sure", "free_parley", "levy_lord", "levy_vassal", "levy_troops",
                        "levy_troops_by", "free_troops", "levy_transport", "levy_capability"})
#: What Y32 The King's Name restores when it cancels a Lancastrian Levy action.
KINGS_NAME_KEYS: Final = ("favour", "exhaustion", "lords", "vassals", "special_vassals", "aow", "seats",
                   "london_for_york", "cards")


def kings_name_on(state: State) -> bool:
    """Y32 The King's Name in effect, with Gloucester (not as Richard III) on the map."""
    if not state["aow"]["York"]["in_effect"] or not fx.event_on(state, "kings_name", "York"):
        return False
    return any(state["lords"].get(g, {}).get("where") == Where.MAP for g in sv.GLOUCESTERS)


def kings_name_snapshot(state: State) -> dict[str, Any]:
    return {k: copy.deepcopy(state[k]) for k in KINGS_NAME_KEYS}


def kings_name_offer(state: State, snap: dict[str, Any], what: str) -> None:
    """After a Lancastrian Levy action: if it changed anything (it succeeded), the Yorkists may
    pay 1 Influence point to cancel it (Y32)."""
    if all(state[k] == v for k, v in snap.items()):
        return
    push(state, {"step": "card_pick", "kind": "kings_name", "side": "York", "card": "Y32", "snap": snap,
                 "what": what})


def _acting(state: State, frame: Frame, lord: str) -> bool:
    """The acting Lord still has Lordship or free Levy actions, and is on the map."""
    if state["lords"][lord]["where"] != Where.MAP:
        return False
    return frame["left"] > 0 or any((frame.get("free") or {}).values())


def _troops_label(arg: Any) -> str:
    parts = cr.decode(arg)
    out = []
    if "at" in parts:
        out.append(f"at {parts['at']} (Commission of Array, L12)")
    if parts.get("mode") == "militia5":
        out.append("as 5 Militia (Beloved Warwick, Y16)")
    if parts.get("mode") == "irish":
        out.append("as 5 Militia, no Depletion (Irishmen, Y18)")
    if parts.get("commons"):
        out.append(f"with {parts['commons']} more Militia (The Commons, Y16)")
    if parts.get("merc"):
        out.append("with 2 Mercenaries for 1 Coin (Soldiers of Fortune, Y12)")
    if parts.get("pay"):
        out.append(f"{lord_name(parts['pay'])} Shares the Coin")
    return (" " + ", ".join(out)) if out else ""


class Muster(Step):
    name = "muster"
    phase = LEVY
    rule = "3.4"
    # choosing the Lord who acts, being done with him and ending the Muster change only the
    # frames; a Parley (3.4.1) the Favour and the Influence track (a Y32 window it opens is a
    # frame, and its cancel is the card_pick step's); Levy Troops a mat (another Lord's Coin with
    # L9 Rising Wages) and a Stronghold's Depletion (3.4.4); Levy Transport a mat (3.4.5); Levy
    # Capability the card to the mat (3.4.6); Levy Vassal the Influence check, the Vassal's
    # marker and the mat (3.4.3). Not declared (any part): Levy Lord, Events, King Richard.
    changes = {"lord": frozenset(), "done": frozenset(), "end": frozenset(), "parley": TRACKS_PART,
               "parley_sure": TRACKS_PART, "free_parley": TRACKS_PART, "cade_parley": TRACKS_PART,
               "levy_troops": LORDS_AND_BOARD, "levy_troops_by": LORDS_AND_BOARD, "free_troops": LORDS_AND_BOARD,
               "levy_transport": LORDS_PART, "levy_capability": CARDS_AND_LORDS, "levy_vassal": NOT_CARDS}
    run_changes = frozenset()  # the Lords listed, the acting Lord's turn over, or the frame popped

    def _options(self, state: State, frame: Frame) -> list[Action]:
        if frame.get("lords") is None:
            return []
        side = frame["side"]
        lord = frame.get("lord")
        if lord is not None:
            if not _acting(state, frame, lord):
                return []
            return lord_actions(state, lord, frame) + [("done", None)]
        out: list[Action] = [("lord", lid) for lid in frame["lords"]
                             if state["lords"][lid]["where"] == Where.MAP]
        if king_richard_possible(state, side):
            out.append(("king_richard", None))
        out += reactions.own_time_options(state, side, "muster")  # Y24, Y20, Y13 (RULINGS R51)
        if out or reactions.could_play_own_time(state, side, "muster"):  # the same wait whatever is held
            out.append(("end", None))
        return out

    def actors(self, state: State, frame: Frame) -> list[str]:
        if frame.get("lords") is None:
            return []
        lord = frame.get("lord")
        lrec = state["lords"]
        if lord is not None:  # an acting Lord may always say he is done (_acting, inline)
            if lrec[lord]["where"] != Where.MAP:
                return []
            if frame["left"] > 0 or any((frame.get("free") or {}).values()):
                return [frame["side"]]
            return []
        for lid in frame["lords"]:
            if lrec[lid]["where"] == Where.MAP:
                return [frame["side"]]
        # No Lord left: open for King Richard or Held Events, judged on what the other side can
        # know, so that the wait does not tell which Events the side holds (RULINGS R50, R51)
        decides = king_richard_possible(state, frame["side"]) \
            or reactions.could_play_own_time(state, frame["side"], "muster")
        return [frame["side"]] if decides else []

    def handle(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> None:
        """Every handler, then Y32 The King's Name's chance to cancel a Lancastrian Levy action."""
        snap = None
        if verb in LEVY_VERBS and frame["side"] == "Lancaster" and kings_name_on(state):
            snap = kings_name_snapshot(state)
        super().handle(state, frame, role, verb, arg)
        if snap is not None:
            top = state["stack"][-1] if state["stack"] else None
            if top is not None and top["step"] == "place_lord":
                top["snap"] = snap  # the Levy Lord is over when he is placed
            else:
                kings_name_offer(state, snap, self.option_label(state, frame, role, verb, arg) or verb)

    # ----- why a Levy action is refused (the side's own Lords: all public but Hidden Mats) -----
    def why_not_lord(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        lord = frame.get("lord")
        if lord is not None:
            return f"{lord_name(lord)} is taking his Levy actions: complete them before the next Lord (3.4)."
        return ("that is not one of your Lords who began this Muster on the map and has not yet taken "
                "his Levy actions (3.4).")

    def _levy_reason(self, state: State, frame: Frame, verb: str) -> str | None:
        """Why a Levy action of the acting Lord is refused: no Lord chosen, no Lordship left, or
        an Enemy or Neutral Stronghold, or Troops in an Exile box (3.4 REQUIREMENTS); else None
        (the generic reason)."""
        lord = frame.get("lord")
        if frame.get("lords") is None or lord is None:
            return "first choose the Lord who takes Levy actions (3.4)."
        if frame["left"] <= 0:
            return f"{lord_name(lord)} has no Lordship left (3.4)."
        side = frame["side"]
        here = state["lords"][lord]["locale"]
        kind = load().locales[here]["kind"]
        if kind == "stronghold" and state["favour"].get(here) != side and state["exile_boxes"].get(here) != side:
            if verb != "parley":
                return (f"{lord_name(lord)} is at {here}, an Enemy or Neutral Stronghold: there he may only Parley "
                        "for it (3.4).")
        elif kind == "exile" and verb == "levy_troops":
            return f"{lord_name(lord)} is in an Exile box: Lords there may not Levy Troops (3.4, 3.4.4)."
        return None

    def why_not_parley(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return self._levy_reason(state, frame, "parley")

    def why_not_levy_lord(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return self._levy_reason(state, frame, "levy_lord")

    def why_not_levy_vassal(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return self._levy_reason(state, frame, "levy_vassal")

    def why_not_levy_troops(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return self._levy_reason(state, frame, "levy_troops")

    def why_not_levy_transport(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return self._levy_reason(state, frame, "levy_transport")

    def why_not_levy_capability(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return self._levy_reason(state, frame, "levy_capability")

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return self._options(state, frame)

    def is_legal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> bool:
        """The same answer as membership in :meth:`options`; an acting Lord's actions are listed
        for ``verb`` only (:func:`lord_actions` with ``only``)."""
        try:
            lord = frame.get("lord")
            if frame.get("lords") is None or lord is None:
                return (verb, arg) in self._options(state, frame)
            if not _acting(state, frame, lord):
                return False
            if verb == "done":
                return arg is None
            return (verb, arg) in lord_actions(state, lord, frame, only=verb)
        except TypeError:  # an unhashable or odd argument
            return False

    def run(self, state: State, frame: Frame) -> None:
        if frame.get("lords") is None:
            # 3.4 REQUIREMENTS: the Lords on the map as the segment begins.
            frame.update(lords=sorted(sv.on_map(state, frame["side"])), lord=None, left=0)
            return
        if frame.get("lord") is not None:
            frame.update(lord=None, left=0)
            return
        pop(state)

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        side = frame["side"]
        if role != side:
            return f"Muster (3.4): waiting for {side}."
        lord = frame.get("lord")
        if lord is None:
            return "Muster (3.4): choose the next Lord to take Levy actions, or end your Muster."
        return (f"Muster (3.4): {lord_name(lord)} at {state['lords'][lord]['locale']} has "
                f"{frame['left']} Levy action{'s' if frame['left'] != 1 else ''} left.")

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        if verb == "lord":
            return f"{lord_name(arg)} takes Levy actions (Lordship {sv.modified_rating(state, arg, 'lordship')})"
        if verb == "event":
            return f"Play the Held Event {arts.event_title(arg)} ({arg})"
        if verb in ("levy_troops", "levy_troops_by", "free_troops"):
            free = " without spending Lordship (Thomas Stanley, L35)" if verb == "free_troops" else ""
            return f"Levy Troops{_troops_label(arg)}{free} (3.4.4)"
        if verb == "parley_sure":
            return f"Parley {arg}: sure, 1 Influence less ({arts.event_title(str(cr.sure_parley_card(state, frame['lord'])))}, 3.4.1)"
        if verb == "cade_parley":
            return f"Parley {arg}: free and sure (Jack Cade, Y4)"
        if verb == "free_parley":
            target, extra = split_extra(arg)
            bonus = "" if extra == 0 else f", +{extra} Influence for +{1 if extra == 1 else 2}"
            return f"Parley {target}{bonus} without spending Lordship (3.4.1)"
        if verb == "end":
            return "End Muster"
        if verb == "done":
            return f"{lord_name(frame['lord'])} is done"
        if verb == "king_richard":
            return "King Richard: Richard III replaces Gloucester (6.0 III)"
        if verb == "levy_transport":
            return "Levy Transport: 2 Carts (3.4.5)" if arg == "carts" else "Levy Transport: 1 Ship (3.4.5)"
        if verb == "levy_capability":
            return f"Levy Capability {arts.capability_title(arg)} ({arg}) (3.4.6)"
        target, extra = split_extra(arg)
        bonus = "" if extra == 0 else f", +{extra} Influence for +{1 if extra == 1 else 2}"
        if verb == "parley":
            return f"Parley {target}{bonus} (3.4.1)"
        if verb == "levy_lord":
            return f"Levy Lord {lord_name(target)}{bonus} (3.4.2)"
        return f"Levy Vassal {vassal_name(target)}{bonus} (3.4.3)"

    # ----- choosing the Lord -------------------------------------------------------------
    def on_lord(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["lords"].remove(arg)
        frame.update(lord=arg, left=sv.modified_rating(state, arg, "lordship"), acted=True,
                     free=cr.free_levy_actions(state, arg))

    def on_event(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """A Held Event its holder plays between his Lords' Levy actions (RULINGS R51)."""
        reactions.play_own_time(state, frame["side"], arg)

    def on_end(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)

    def on_done(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame.update(lord=None, left=0, free={})

    def on_king_richard(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        replace_in_place(state, "gloucester_2", "richard_iii")
        frame["lords"] = sorted("richard_iii" if lid == "gloucester_2" else lid for lid in frame["lords"])
        public(state, "King Richard (6.0 III): Richard III takes Gloucester's place at London.", RECRUIT)

    # ----- Levy actions (each spends one Lordship point) -----------------------------------
    def _spend(self, frame: Frame) -> tuple[str, str]:
        frame["left"] -= 1
        lord = str(frame["lord"])
        return lord, sv.side_of(lord)

    def on_parley(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """3.4.1: check Influence paying one more per Way; success shifts the target one step."""
        target, extra = split_extra(arg)
        lord, _side = self._spend(frame)
        self._parley(state, lord, target, extra=extra)

    def _parley(self, state: State, lord: str, target: str, **how: Any) -> None:
        if cr.blockade_check(state, lord, cr.sea_hop_seas(state, lord, target), f"Parley of {target}"):
            return  # Y15 Naval Blockade (Lordship spent all the same)
        res = sv.parley(state, lord, target, **how)
        _check_log(state, lord, f"Parleys {target}", res)
        if res["success"]:
            public(state, f"{target} is now {sv.favour(state, target) or 'Neutral'} (3.4.1).", RECRUIT)

    def on_parley_sure(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """Y18 Succession / L18 Parliament Votes: one Parley per Lord, 1 point cheaper, sure."""
        lord, side = self._spend(frame)
        book = fx.book(state)
        book["sure_parley"] = sorted({*book.get("sure_parley", []), lord})
        self._parley(state, lord, str(arg), surcharge=-1, sure=True, london=side == "Lancaster")

    def on_free_parley(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """Y28 Gloucester as Heir / L17 My crown is in my heart: a Parley without Lordship."""
        target, extra = split_extra(arg)
        frame["free"]["parley"] -= 1
        lord = str(frame["lord"])
        self._parley(state, lord, target, extra=extra, london=lord == "henry_vi")

    def on_cade_parley(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """Y4 Jack Cade: a Parley without Lordship or Influence that succeeds without a roll."""
        frame["free"]["cade"] -= 1
        self._parley(state, str(frame["lord"]), str(arg), sure=True, free=True)

    def on_levy_lord(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """3.4.2: check Influence (no Ways); success Musters the Ready Lord."""
        target, extra = split_extra(arg)
        lord, side = self._spend(frame)
        res = sv.influence_check(state, side, lord, extra=extra)
        _check_log(state, lord, f"Levies {lord_name(target)}", res)
        if not res["success"]:
            return
        places = levy_lord_places(state, target)
        if len(places) == 1:
            place_levied_lord(state, target, places[0])
        else:
            push(state, {"step": "place_lord", "side": side, "lord": target, "at": places})

    def on_levy_vassal(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """3.4.3: check Influence with the Vassal's Loyalty; success Musters him to the mat and
        puts his other marker face up Service boxes to the right."""
        vid, extra = split_extra(arg)
        lord, side = self._spend(frame)
        res = sv.influence_check(state, side, lord, extra=extra, vassal=vid,
                                 surcharge=cr.vassal_levy_surcharge(state, side), sure=cr.vassal_levy_sure(state, lord))
        _check_log(state, lord, f"Levies Vassal {vassal_name(vid)}", res)
        if not res["success"]:
            return
        v = state["vassals"][vid]
        service = load().vassals[vid]["service"] + cr.vassal_service_bonus(state, lord)  # Y17 Alice Montagu
        v.update(where=VassalWhere.MAT, lord=lord, face_up=True, box=sv.calendar_place(state["box"] + service))
        state["lords"][lord]["mat"]["vassals"].append(vid)
        public(state, f"Vassal {vassal_name(vid)} joins {lord_name(lord)}; Service to box {v['box']} (3.4.3).",
               RECRUIT)

    def on_levy_troops(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """3.4.4: the Strongholds table's Troops, as the pool allows, then Deplete/Exhaust (with
        the cards of :mod:`card_rules`)."""
        lord, _side = self._spend(frame)
        public(state, cr.levy_troops(state, lord, arg), RECRUIT)

    def on_levy_troops_by(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """Levy Troops changed by cards (card_rules module docs)."""
        self.on_levy_troops(state, frame, role, arg)

    def on_free_troops(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """L35 Thomas Stanley: once each Levy, a Levy Troops without spending Lordship."""
        frame["free"]["troops"] -= 1
        public(state, cr.levy_troops(state, str(frame["lord"]), arg), RECRUIT)

    def on_levy_transport(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """3.4.5: two Carts, or one Ship."""
        lord, side = self._spend(frame)
        assets = state["lords"][lord]["mat"]["assets"]
        if arg == "ship" and cr.blockade_check(state, lord, cr.port_sea(state["lords"][lord]["locale"]), "Ship Levy"):
            return  # Y15 Naval Blockade
        if arg == "carts":
            assets["carts"] += 2
            mat_log(state, side, f"{lord_name(lord)} Levies 2 Carts (3.4.5).")
        else:
            assets["ships"] += 1
            public(state, f"{lord_name(lord)} Levies a Ship (3.4.5).", RECRUIT)  # Ships are counted publicly (1.7.3)

    def on_levy_capability(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """3.4.6: a Capability from the side's unused cards."""
        lord, side = self._spend(frame)
        arts.deploy_capability(state, lord, arg)
        text = f"{lord_name(lord)} Levies the Capability {arts.capability_title(arg)} ({arg}) (3.4.6)."
        if hidden_mats(state):
            private(state, side, text, CARD)
            public(state, f"{lord_name(lord)} Levies a Capability (3.4.6).", CARD)
        else:
            public(state, text, CARD)


def place_levied_lord(state: State, lord: str, locale: str) -> None:
    """3.4.2 MUSTERING: at his own Seat it becomes Friendly; elsewhere Favour stays."""
    side = sv.side_of(lord)
    at_seat = state["seats"].get(lord) == locale
    muster_lord(state, lord, locale)
    if at_seat and not (locale == "London" and state["london_for_york"]):  # Y15: only Events or Pillage
        sv.set_favour(state, locale, side)
    public(state, f"{lord_name(lord)} Musters at {locale}{' (his Seat, now Friendly)' if at_seat else ''} (3.4.2).",
           RECRUIT)


class PlaceLord(Step):
    """3.4.2: the owner picks the Friendly Seat where a Levied Lord Musters."""

    name = "place_lord"
    phase = LEVY
    always_decides = True
    rule = "3.4.2"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("place", loc) for loc in frame["at"]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role != frame["side"]:
            return f"Levy Lord (3.4.2): {frame['side']} places {lord_name(frame['lord'])}."
        return f"Levy Lord (3.4.2): his Seat holds Enemy Lords; choose a Friendly Seat for {lord_name(frame['lord'])}."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in self.verbs:
            return None
        return f"Muster at {arg}"

    def on_place(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        place_levied_lord(state, frame["lord"], arg)
        if frame.get("snap") is not None:  # Y32 The King's Name may cancel this Levy Lord
            kings_name_offer(state, frame["snap"], f"Levy Lord {lord_name(frame['lord'])}")


class EndLevy(Step):
    """3.4.6 NOTE: after Muster, This Levy Events end."""

    name = "end_levy"
    phase = LEVY
    rule = "3.4.6"
    # This Levy Events back to their decks; L22 Stafford Estates' Coin and Provender, Y28 set
    # aside (cards.end_levy_cards)
    run_changes = CARDS_AND_LORDS

    def run(self, state: State, frame: Frame) -> None:
        reactions.end_of_levy(state)
        arts.discard_in_effect(state, "this_levy")
        pop(state)


def levy_frames(state: State) -> list[Mapping[str, Any]]:
    """The frames of one Turn's Levy, in order (3.0; player order 2.2.4)."""
    frames: list[SideFrame | StepFrame] = [*side_frames(state, "arts_of_war")]
    if state["first_turn"]:
        frames.append({"step": "skip_pay"})
    else:
        frames += side_frames(state, "pay_troops") + side_frames(state, "pay_lords") \
            + side_frames(state, "pay_vassals")
    frames.append({"step": "ready_vassals"})
    frames += side_frames(state, "exiles") + side_frames(state, "muster")
    frames.append({"step": "end_levy"})
    return list(frames)


#: The Levy's steps, for the game's step table.
LEVY_STEPS: Final[list[Step]] = [ArtsOfWar(), MusterExiles(), Muster(), PlaceLord(), SkipPay(), ReadyVassals(),
                          EndLevy(), *arts.ARTS_STEPS]


# ----- what this part adds to views, secrets and invariants (joined in rules.py) -------------
def view_part(state: State, role: str) -> dict[str, Any]:
    """The Muster in progress (public: which Lord acts and his Levy actions left)."""
    for frame in reversed(state["stack"]):
        if frame["step"] == "muster" and frame.get("lords") is not None:
            return {"muster": muster_view(frame)}
    return {}


def muster_view(frame: Frame) -> dict[str, Any]:
    """The ``muster`` entry of :func:`view_part` for the topmost Muster frame with Lords to act."""
    return {"side": frame["side"], "lord": frame.get("lord"), "left": frame.get("left", 0), "to_act": list(frame["lords"])}


def secrets_part(state: State, role: str) -> set[str]:
    """The other side's drawn, unresolved cards (3.1.2-3.1.3)."""
    return {f'"{cid}"' for side in SIDES if side != role for cid in state["aow"][side]["drawn"]}


def invariants_part(state: State) -> list[str]:
    """Drawn cards only while their side's Arts of War step runs; Vassal records agree with
    mats; a Special Vassal is on the mat of the Lord holding his card (1.5.4)."""
    bad: list[str] = []
    c = load()
    for side in SIDES:
        if state["aow"][side]["drawn"] and not any(f["step"] == "arts_of_war" and f.get("side") == side
                                                   for f in state["stack"]):
            bad.append(f"{side} has drawn cards outside the Arts of War step (3.1)")
    for vid, v in state["vassals"].items():
        if v["where"] == VassalWhere.MAT:
            lord = v["lord"]
            mat = state["lords"][lord]["mat"] if lord in state["lords"] else None
            if mat is None or vid not in mat["vassals"]:
                bad.append(f"vassal {vid} recorded on {lord}'s mat but not there (1.5.4)")
        elif v["lord"] is not None:
            bad.append(f"vassal {vid} off the mats but recorded with {v['lord']}")
    for spv, lord in state["special_vassals"].items():
        if lord is None:
            continue
        mat = state["lords"][lord]["mat"]
        card = c.special_vassals[spv]["card"]
        if mat is None or spv not in mat["special_vassals"] or card not in mat["capabilities"]:
            bad.append(f"special vassal {spv} with {lord} without its card {card} (1.5.4)")
    return bad
