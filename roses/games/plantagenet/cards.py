"""The Arts of War cards' effects (1.9.1, 3.1.3, 3.4.6): every Event and Capability.

Where each card half acts
-------------------------
* **Now Events** (3.1.3) act when drawn: :data:`arts.EVENT_EFFECTS` holds their effect; those
  that ask a player something push a ``card_pick`` frame (:class:`CardPick`).
* **This Levy / This Campaign Events** stay in their side's ``in_effect`` zone; the rules they
  change ask :mod:`effects` whether they are in force (ratings in :func:`services.modified_rating`,
  Levy actions in :mod:`levy` and :mod:`card_rules`, Campaign actions in :mod:`cards_campaign`).
* **Held Events** are played in reaction windows (:mod:`reactions`: Battle, Death checks,
  Approach, Intercept, a March or Sail to a Port) or during the holder's own decisions (Muster,
  Command actions: :data:`reactions.OWN_TIME`).
* **Capabilities** act while at a mat: ratings (data ``mods``), Tides of War (data ``tides`` and
  :func:`services.card_dominates`), Levy (:mod:`card_rules`), Battle (:mod:`cards_battle`),
  Campaign (:mod:`cards_campaign`); :data:`arts.CAPABILITY_EFFECTS` holds what happens when one
  is deployed (Hastings' Men-at-Arms, Burgundians at a Port).

The rulings on card questions the rulebook leaves open are RULINGS R50-R59.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from roses.engine.contract import Action, State, mark_reveal
from roses.engine.log import CARD, EVENT, private, public
from roses.engine.steps import Frame, Step, pop, push, replace
from roses.games.plantagenet import arts, battle, campaign, levy, reactions, setup
from roses.games.plantagenet import card_rules as cr
from roses.games.plantagenet import effects as fx
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.common import LEVY
from roses.games.plantagenet.components import TROOP_TYPES, load
from roses.games.plantagenet.records import VassalWhere, Where
from roses.games.plantagenet.setup import other

#: Extra Influence points a check may add (1.4.2), and their argument suffixes.
EXTRAS: Final = (0, 1, 3)


def name(lord: str) -> str:
    return str(load().lords[lord]["name"])


def title(card: str) -> str:
    return f"{arts.event_title(card)} ({card})"


def with_extra(target: str, extra: int) -> str:
    return target if extra == 0 else f"{target}+{extra}"


def split_extra(arg: Any) -> tuple[str, int]:
    text = str(arg)
    if "+" in text:
        target, extra = text.rsplit("+", 1)
        return target, int(extra)
    return text, 0


def check_text(res: dict[str, Any]) -> str:
    if res["roll"] is None:
        return f"{res['cost']} Influence, sure"
    return f"{res['cost']} Influence, roll {res['roll']} against {res['target']}"


def on_map(state: State, side: str) -> list[str]:
    return sorted(sv.on_map(state, side), key=load().lord_ids.id)


# ----- the generic decision a card asks for ---------------------------------------------------
@dataclass(frozen=True)
class Pick:
    """A decision an Event or Capability asks for (frame ``{"step": "card_pick", "kind": K,
    "side": S, "card": C, ...}``): its options, what a choice does (it pops the frame, or
    changes it for the next choice), its prompt and labels. No option: the frame pops."""

    options: Callable[[State, Frame], list[Action]]
    choose: Callable[[State, Frame, str, Any], None]
    ask: str
    label: Callable[[State, Frame, str, Any], str] | None = None


PICKS: Final[dict[str, Pick]] = {}


def push_pick(state: State, kind: str, side: str, card: str, **data: Any) -> None:
    """Push a card decision for ``side``."""
    push(state, {"step": "card_pick", "kind": kind, "side": side, "card": card, **data})


class CardPick(Step):
    name = "card_pick"
    phase = LEVY
    rule = "1.9.1"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]] if PICKS[frame["kind"]].options(state, frame) else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return PICKS[frame["kind"]].options(state, frame)

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        card = frame["card"]
        what = f"{arts.event_title(card)} ({card})" if frame.get("half") != "capability" \
            else f"{arts.capability_title(card)} ({card})"
        if role != frame["side"]:
            return f"{what}: waiting for {frame['side']}."
        return f"{what}: {PICKS[frame['kind']].ask}"

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        fn = PICKS[frame["kind"]].label
        if fn is not None:
            return fn(state, frame, verb, arg)
        if verb == "done":
            return "Done"
        if verb == "lord":
            return name(arg)
        return None

    def handle(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> None:
        PICKS[frame["kind"]].choose(state, frame, verb, arg)

    def run(self, state: State, frame: Frame) -> None:
        pop(state)


def _once_per_lord(frame: Frame, lord: str) -> None:
    frame["done"] = [*frame.get("done", []), lord]


# ----- Now Events (3.1.3) ---------------------------------------------------------------------
def now_tax_collectors(state: State, side: str, card: str, lord: str | None) -> None:
    """Y10 Tax Collectors: each Yorkist Lord may Tax at once (4.6.3 procedure) for double Coin."""
    push_pick(state, "tax_collectors", "York", card, done=[])


def _tax_collectors_options(state: State, frame: Frame) -> list[Action]:
    out: list[Action] = []
    for lid in on_map(state, "York"):
        if lid in frame["done"]:
            continue
        for t in sv.tax_targets(state, lid):
            if state["seats"].get(lid) == t:
                out.append(("tax", f"{lid}>{t}"))
            else:
                out += [("tax", f"{lid}>{with_extra(t, x)}") for x in EXTRAS]
    return out + [("done", None)] if out else []


def _tax_collectors_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    if verb == "done":
        pop(state)
        return
    lid, rest = str(arg).split(">")
    target, extra = split_extra(rest)
    _once_per_lord(frame, lid)
    how = "his Seat: no check"
    if state["seats"].get(lid) != target:
        res = sv.influence_check(state, "York", lid, extra=extra)
        how = check_text(res)
        if not res["success"]:
            bonus = 1 if cr.so_wise(state, lid) else 0
            state["lords"][lid]["mat"]["assets"]["coin"] += bonus
            public(state, f"Tax Collectors (Y10): {name(lid)} Taxes {target} ({how}): fails"
                          + (" (So wise, so young: 1 Coin all the same)" if bonus else "") + " (4.6.3).", EVENT)
            return
    coin = 2 * cr.tax_coin(state, lid, target)
    state["lords"][lid]["mat"]["assets"]["coin"] += coin
    sv.deplete(state, target)
    public(state, f"Tax Collectors (Y10): {name(lid)} Taxes {target} ({how}): +{coin} Coin, twice the usual; "
                  f"{target} {state['exhaustion'][target].capitalize()} (4.6.3).", EVENT)


def _tax_label(state: State, frame: Frame, verb: str, arg: Any) -> str:
    if verb == "done":
        return "Done: no more Taxes"
    lid, rest = str(arg).split(">")
    target, extra = split_extra(rest)
    bonus = "" if extra == 0 else f", +{extra} Influence for +{1 if extra == 1 else 2}"
    return f"{name(lid)} Taxes {target}{bonus}"


PICKS["tax_collectors"] = Pick(_tax_collectors_options, _tax_collectors_choose,
                               "each of your Lords may Tax once for twice the usual Coin (4.6.3).", _tax_label)


def now_london_for_york(state: State, side: str, card: str, lord: str | None) -> None:
    """Y15 London for York: with Yorkist Favour at London, a second Yorkist marker goes there;
    London's Favour then changes only by Event or Pillage (1.3.1)."""
    if sv.favour(state, "London") != "York":
        public(state, "London for York (Y15): London is not Yorkist: no effect.", EVENT)
        return
    state["london_for_york"] = True
    public(state, "London for York (Y15): a second Yorkist Favour at London; from now only Events or Pillage "
                  "change its Favour.", EVENT)


def _yorkist_vassals(state: State) -> list[str]:
    """Vassals on Yorkist mats, regular ones (their Calendar markers, 1.5.4)."""
    return sorted(vid for vid, v in state["vassals"].items()
                  if v["where"] == VassalWhere.MAT and sv.side_of(v["lord"]) == "York")


def now_she_wolf(state: State, side: str, card: str, lord: str | None) -> None:
    """Y17 She-Wolf of France: each Yorkist Vassal's Calendar marker shifts one box right (2.2.3)."""
    moved = _yorkist_vassals(state)
    for vid in moved:
        v = state["vassals"][vid]
        v["box"] = sv.calendar_shift(v["box"], 1)
    public(state, "She-Wolf of France (Y17): " + (", ".join(load().vassals[v]["name"] for v in moved) or "no Vassal")
           + " shift one box right.", EVENT)


def now_richard_leigh(state: State, side: str, card: str, lord: str | None) -> None:
    """Y21 Sir Richard Leigh: Lancastrian Favour leaves London; a Neutral London turns Yorkist."""
    fav = sv.favour(state, "London")
    if fav == "Lancaster":
        sv.set_favour(state, "London", None)
        public(state, "Sir Richard Leigh (Y21): London's Lancastrian Favour is removed.", EVENT)
    elif fav is None:
        sv.set_favour(state, "London", "York")
        public(state, "Sir Richard Leigh (Y21): London becomes Yorkist.", EVENT)
    else:
        public(state, "Sir Richard Leigh (Y21): London is already Yorkist: no effect.", EVENT)


def now_assets(state: State, side: str, card: str, lord: str | None) -> None:
    """Y23 Charles the Bold / L30 French War Loans: each of the side's Lords on the map (Exile
    boxes too) gains 1 Coin and 1 Provender."""
    lords = on_map(state, side)
    for lid in lords:
        assets = state["lords"][lid]["mat"]["assets"]
        assets["coin"] += 1
        assets["provender"] += 1
    public(state, f"{title(card)}: " + (", ".join(name(x) for x in lords) or "no Lord")
           + " gain 1 Coin and 1 Provender.", EVENT)


def now_dubious_clarence(state: State, side: str, card: str, lord: str | None) -> None:
    """Y26 Dubious Clarence: with Edward IV and Clarence on the map, Edward IV may check
    Influence; success Disbands Clarence (no Influence penalty)."""
    e, cl = state["lords"].get("edward_iv"), state["lords"].get("clarence")
    if not (e and cl and e["where"] == Where.MAP and cl["where"] == Where.MAP):
        public(state, "Dubious Clarence (Y26): Edward IV and Clarence are not both on the map: no effect.", EVENT)
        return
    push_pick(state, "dubious_clarence", "York", card)


def _clarence_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    pop(state)
    if verb == "decline":
        public(state, "Dubious Clarence (Y26): Edward IV makes no check.", EVENT)
        return
    res = sv.influence_check(state, "York", "edward_iv", extra=int(arg))
    if res["success"]:
        sv.disband_lord(state, "clarence")
        public(state, f"Dubious Clarence (Y26): Edward IV checks Influence ({check_text(res)}): Clarence "
                      "Disbands (3.2.4).", EVENT)
    else:
        public(state, f"Dubious Clarence (Y26): Edward IV checks Influence ({check_text(res)}): fails.", EVENT)


PICKS["dubious_clarence"] = Pick(
    lambda s, f: [("check", x) for x in EXTRAS] + [("decline", None)], _clarence_choose,
    "Edward IV may check Influence: success Disbands Clarence.",
    lambda s, f, v, a: "No check" if v == "decline" else
    {0: "Check Influence", 1: "Check, 1 more point: +1", 3: "Check, 3 more points: +2"}[a])


def now_yorkist_north(state: State, side: str, card: str, lord: str | None) -> None:
    """Y27 Yorkist North: 1 Influence point per Yorkist Stronghold in the North and per Yorkist
    Lord at a Stronghold there."""
    north = set(load().area("North"))
    forts = sum(1 for loc in north if sv.favour(state, loc) == "York")
    lords = sum(1 for lid in sv.on_map(state, "York") if state["lords"][lid]["locale"] in north)
    sv.gain_influence(state, "York", forts + lords)
    public(state, f"Yorkist North (Y27): York gains {forts + lords} Influence ({forts} Strongholds, {lords} Lords).",
           EVENT)


def _militia_options(state: State, frame: Frame) -> list[Action]:
    pool = load().tables["troop_pool"]["militia"] - cr.troops_in_use(state)["militia"]
    if pool <= 0:
        return []
    out: list[Action] = [("add", f"{lid}:{n}") for lid in on_map(state, frame["side"]) if lid not in frame["done"]
                         for n in (1, 2) if n <= pool]
    return out + [("done", None)] if out else []


def _troops_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    if verb == "done":
        pop(state)
        return
    lid, what = str(arg).split(":")
    _once_per_lord(frame, lid)
    if what.isdigit():
        got = cr.add_troops(state, lid, {"militia": int(what)})
    elif what == "both":
        got = cr.add_troops(state, lid, {"men_at_arms": 1, "militia": 1})
    else:
        got = cr.add_troops(state, lid, {what: 1})
    public(state, f"{title(frame['card'])}: {name(lid)} adds {cr.troops_text(got)}.", EVENT)


def now_earl_rivers(state: State, side: str, card: str, lord: str | None) -> None:
    """Y31 Earl Rivers: each Yorkist Lord on the map may add up to 2 Militia (pool, 1.6)."""
    push_pick(state, "earl_rivers", "York", card, done=[])


PICKS["earl_rivers"] = Pick(_militia_options, _troops_choose, "each Lord may add up to 2 Militia.",
                            lambda s, f, v, a: "Done" if v == "done" else
                            f"{name(a.split(':')[0])} adds {a.split(':')[1]} Militia")


def now_scots(state: State, side: str, card: str, lord: str | None) -> None:
    """L14 Scots: each Lancastrian Lord on the map may add up to 1 Men-at-Arms and 1 Militia."""
    push_pick(state, "scots", "Lancaster", card, done=[])


def _scots_options(state: State, frame: Frame) -> list[Action]:
    used = cr.troops_in_use(state)
    pool = load().tables["troop_pool"]
    maa, mil = used["men_at_arms"] < pool["men_at_arms"], used["militia"] < pool["militia"]
    kinds = (["both"] if maa and mil else []) + (["men_at_arms"] if maa else []) + (["militia"] if mil else [])
    out: list[Action] = [("add", f"{lid}:{k}") for lid in on_map(state, "Lancaster") if lid not in frame["done"]
                         for k in kinds]
    return out + [("done", None)] if out else []


PICKS["scots"] = Pick(_scots_options, _troops_choose, "each Lord may add 1 Men-at-Arms and 1 Militia.",
                      lambda s, f, v, a: "Done" if v == "done" else
                      f"{name(a.split(':')[0])} adds " + {"both": "1 Men-at-Arms and 1 Militia",
                                                          "men_at_arms": "1 Men-at-Arms",
                                                          "militia": "1 Militia"}[a.split(":")[1]])


def now_henry_pressures(state: State, side: str, card: str, lord: str | None) -> None:
    """L15 Henry Pressures Parliament: Yorkists lose 1 Influence point per Vassal they have
    Mustered (Special Vassals included)."""
    n = sum(len(d["mat"]["vassals"]) + len(d["mat"]["special_vassals"])
            for lid, d in state["lords"].items() if d["mat"] and sv.side_of(lid) == "York")
    sv.lose_influence(state, "York", n)
    public(state, f"Henry Pressures Parliament (L15): York loses {n} Influence, one per Mustered Vassal.", EVENT)


def now_henrys_proclamation(state: State, side: str, card: str, lord: str | None) -> None:
    """L19 Henry's Proclamation: every Yorkist Vassal's Calendar marker moves to this Turn's box
    (so Pay Vassals, 3.2.3, reaches it this Levy)."""
    moved = _yorkist_vassals(state)
    for vid in moved:
        state["vassals"][vid]["box"] = state["box"]
    public(state, "Henry's Proclamation (L19): " + (", ".join(load().vassals[v]["name"] for v in moved) or "no Vassal")
           + f" to box {state['box']}.", EVENT)


def now_french_troops(state: State, side: str, card: str, lord: str | None) -> None:
    """L22 French Troops: one Lancastrian Lord at a Port Stronghold adds up to 2 Men-at-Arms and
    up to 2 Militia."""
    push_pick(state, "french_troops", "Lancaster", card)


def _french_troops_options(state: State, frame: Frame) -> list[Action]:
    c = load()
    out: list[Action] = []
    for lid in on_map(state, "Lancaster"):
        loc = c.locales[state["lords"][lid]["locale"]]
        if loc["kind"] == "stronghold" and loc["port"]:
            out += [("add", f"{lid}:{m}:{n}") for m in (0, 1, 2) for n in (0, 1, 2) if m or n]
    return out + [("done", None)] if out else []


def _french_troops_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    pop(state)
    if verb == "done":
        return
    lid, m, n = str(arg).split(":")
    got = cr.add_troops(state, lid, {"men_at_arms": int(m), "militia": int(n)})
    public(state, f"French Troops (L22): {name(lid)} adds {cr.troops_text(got)}.", EVENT)


PICKS["french_troops"] = Pick(_french_troops_options, _french_troops_choose,
                              "one Lord at a Port adds up to 2 Men-at-Arms and 2 Militia.",
                              lambda s, f, v, a: "No Troops" if v == "done" else
                              f"{name(a.split(':')[0])}: {a.split(':')[1]} Men-at-Arms, {a.split(':')[2]} Militia")


def now_propaganda(state: State, side: str, card: str, lord: str | None) -> None:
    """L23/L24 Warwick's Propaganda: the Lancastrians name 3 Yorkist Strongholds (all if fewer);
    for each the Yorkists pay 2 Influence points or lose the Favour there."""
    push_pick(state, "propaganda", "Lancaster", card, chosen=[])


def _propaganda_options(state: State, frame: Frame) -> list[Action]:
    if len(frame["chosen"]) >= 3:
        return []
    c = load()
    return [("name", loc) for loc in c.strongholds() if sv.favour(state, loc) == "York" and loc not in frame["chosen"]]


def _propaganda_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    frame["chosen"].append(arg)
    if len(frame["chosen"]) >= 3 or not _propaganda_options(state, frame):
        replace(state, {"step": "card_pick", "kind": "propaganda_answer", "side": "York", "card": frame["card"],
                        "todo": list(frame["chosen"])})
        public(state, f"{title(frame['card'])}: Lancaster names {', '.join(frame['chosen'])}.", EVENT)


def _propaganda_answer(state: State, frame: Frame, verb: str, arg: Any) -> None:
    loc = frame["todo"].pop(0)
    if verb == "pay":
        sv.lose_influence(state, "York", 2)
        public(state, f"{title(frame['card'])}: York pays 2 Influence to keep {loc}.", EVENT)
    else:
        sv.set_favour(state, loc, None)
        public(state, f"{title(frame['card'])}: York gives up its Favour at {loc}.", EVENT)
    if not frame["todo"]:
        pop(state)


PICKS["propaganda"] = Pick(_propaganda_options, _propaganda_choose, "name a Yorkist Stronghold (3 in all).",
                           lambda s, f, v, a: f"Name {a}")
PICKS["propaganda_answer"] = Pick(lambda s, f: [("pay", f["todo"][0]), ("remove", f["todo"][0])] if f["todo"] else [],
                                  _propaganda_answer, "pay 2 Influence points or lose the Favour there.",
                                  lambda s, f, v, a: f"Pay 2 Influence for {a}" if v == "pay" else f"Lose {a}")


def _wales() -> set[str]:
    return set(load().area("Wales"))


def now_welsh_rebellion(state: State, side: str, card: str, lord: str | None) -> None:
    """L25 Welsh Rebellion: each Yorkist Lord in Wales loses 2 Troops (the Lancastrians choose
    which; a Lord left with none Disbands, 1.6); with none there, 2 Yorkist Favour in Wales are
    removed instead."""
    wales = _wales()
    lords = [lid for lid in on_map(state, "York") if state["lords"][lid]["locale"] in wales]
    if lords:
        push_pick(state, "welsh_troops", "Lancaster", card, todo={lid: 2 for lid in lords})
    else:
        push_pick(state, "welsh_favour", "Lancaster", card, left=2)


def _welsh_troops_options(state: State, frame: Frame) -> list[Action]:
    out: list[Action] = []
    for lid, n in frame["todo"].items():
        d = state["lords"][lid]
        if n <= 0 or d["where"] != Where.MAP:
            continue
        out += [("remove", f"{lid}:{t}") for t in TROOP_TYPES if d["mat"]["troops"][t] > 0]
    return out


def _welsh_troops_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    lid, t = str(arg).split(":")
    state["lords"][lid]["mat"]["troops"][t] -= 1
    frame["todo"][lid] -= 1
    public(state, f"Welsh Rebellion (L25): {name(lid)} loses 1 {t.replace('_', ' ')}.", EVENT)
    if not any(state["lords"][lid]["mat"]["troops"][x] for x in TROOP_TYPES):
        sv.disband_lord(state, lid)
        frame["todo"][lid] = 0
        public(state, f"{name(lid)} has no Troops left and Disbands (1.6).", EVENT)
    if not _welsh_troops_options(state, frame):
        pop(state)


def _welsh_favour_options(state: State, frame: Frame) -> list[Action]:
    if frame["left"] <= 0:
        return []
    return [("remove", loc) for loc in sorted(_wales(), key=load().locale_ids.id) if sv.favour(state, loc) == "York"]


def _welsh_favour_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    sv.set_favour(state, arg, None)
    frame["left"] -= 1
    public(state, f"Welsh Rebellion (L25): Yorkist Favour removed at {arg}.", EVENT)


PICKS["welsh_troops"] = Pick(_welsh_troops_options, _welsh_troops_choose,
                             "remove 2 Troops from each Yorkist Lord in Wales.",
                             lambda s, f, v, a: f"{name(a.split(':')[0])} loses 1 {a.split(':')[1].replace('_', ' ')}")
PICKS["welsh_favour"] = Pick(_welsh_favour_options, _welsh_favour_choose, "remove 2 Yorkist Favour in Wales.",
                             lambda s, f, v, a: f"Remove the Yorkist Favour at {a}")


def now_henry_released(state: State, side: str, card: str, lord: str | None) -> None:
    """L26 Henry Released: with Lancastrian Favour at London, Lancaster gains 5 Influence."""
    if sv.favour(state, "London") == "Lancaster":
        sv.gain_influence(state, "Lancaster", 5)
        public(state, "Henry Released (L26): London is Lancastrian: Lancaster gains 5 Influence.", EVENT)
    else:
        public(state, "Henry Released (L26): London is not Lancastrian: no effect.", EVENT)


def _yorkist_mat_vassals(state: State) -> list[str]:
    """Vassals (Special ones too) on Yorkist mats, as ``vassal@lord``."""
    out = []
    for lid, d in state["lords"].items():
        if d["mat"] and sv.side_of(lid) == "York":
            out += [f"{v}@{lid}" for v in [*d["mat"]["vassals"], *d["mat"]["special_vassals"]]]
    return sorted(out)


def now_aragne(state: State, side: str, card: str, lord: str | None) -> None:
    """L27 L'Universelle Aragne: the Lancastrians name 2 Vassals on Yorkist mats (all if fewer);
    each one's Lord checks Influence and the Vassal Disbands on a failure (3.2.4; a Special
    Vassal's Capability is then discarded, 1.5.4)."""
    push_pick(state, "aragne", "Lancaster", card, chosen=[])


def _aragne_options(state: State, frame: Frame) -> list[Action]:
    if len(frame["chosen"]) >= 2:
        return []
    return [("name", x) for x in _yorkist_mat_vassals(state) if x not in frame["chosen"]]


def _aragne_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    frame["chosen"].append(arg)
    if len(frame["chosen"]) >= 2 or not _aragne_options(state, frame):
        replace(state, {"step": "card_pick", "kind": "aragne_check", "side": "York", "card": frame["card"],
                        "todo": list(frame["chosen"])})


def _vassal_name(v: str) -> str:
    c = load()
    return str(c.vassals[v]["name"] if v in c.vassals else c.special_vassals[v]["name"])


def _aragne_check(state: State, frame: Frame, verb: str, arg: Any) -> None:
    v, lid = frame["todo"].pop(0).split("@")
    res = sv.influence_check(state, "York", lid, extra=int(arg))
    if res["success"]:
        public(state, f"L'Universelle Aragne (L27): {name(lid)} keeps {_vassal_name(v)} ({check_text(res)}).", EVENT)
    else:
        if v in load().vassals:
            sv.disband_vassal(state, v)
        else:
            sv.disband_special_vassal(state, lid, v)
        public(state, f"L'Universelle Aragne (L27): {name(lid)} fails ({check_text(res)}): {_vassal_name(v)} "
                      "Disbands (3.2.4).", EVENT)
    if not frame["todo"]:
        pop(state)


PICKS["aragne"] = Pick(_aragne_options, _aragne_choose, "name a Vassal on a Yorkist mat (2 in all).",
                       lambda s, f, v, a: f"{_vassal_name(a.split('@')[0])} of {name(a.split('@')[1])}")
PICKS["aragne_check"] = Pick(lambda s, f: [("check", x) for x in EXTRAS] if f["todo"] else [], _aragne_check,
                             "your Lord checks Influence to keep his Vassal: extra points?",
                             lambda s, f, v, a: {0: "No extra points", 1: "1 more point: +1",
                                                 3: "3 more points: +2"}[a])


def wilful_targets(state: State) -> list[str]:
    """L29: Yorkist Strongholds at or next to (by Way) a Lancastrian Lord and neither at nor
    next to a Yorkist Lord."""
    c = load()

    def near(side: str) -> set[str]:
        out: set[str] = set()
        for lid in sv.on_map(state, side):
            here = state["lords"][lid]["locale"]
            out.add(here)
            out.update(c.adjacency[here])
        return out

    lan, york = near("Lancaster"), near("York")
    return [loc for loc in c.strongholds() if sv.favour(state, loc) == "York" and loc in lan and loc not in york]


def now_wilful_disobedience(state: State, side: str, card: str, lord: str | None) -> None:
    """L29 To wilful disobedience: remove Yorkist Favour from 2 such Strongholds (1 if only one)."""
    push_pick(state, "wilful", "Lancaster", card, left=2)


def _wilful_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    sv.set_favour(state, arg, None)
    frame["left"] -= 1
    public(state, f"To wilful disobedience (L29): Yorkist Favour removed at {arg}.", EVENT)


PICKS["wilful"] = Pick(lambda s, f: [("remove", x) for x in wilful_targets(s)] if f["left"] > 0 else [],
                       _wilful_choose, "remove Yorkist Favour near your Lords (2 Strongholds).",
                       lambda s, f, v, a: f"Remove the Yorkist Favour at {a}")


def now_robins_rebellion(state: State, side: str, card: str, lord: str | None) -> None:
    """L31 Robin's Rebellion: place or remove up to 3 Favour markers in all in the North
    (remove Yorkist Favour, place Lancastrian Favour on a Neutral Stronghold)."""
    push_pick(state, "robins", "Lancaster", card, left=3)


def _robins_options(state: State, frame: Frame) -> list[Action]:
    if frame["left"] <= 0:
        return []
    out: list[Action] = []
    for loc in load().area("North"):
        fav = sv.favour(state, loc)
        if fav == "York":
            out.append(("remove", loc))
        elif fav is None:
            out.append(("place", loc))
    return out + [("done", None)]


def _robins_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    if verb == "done":
        pop(state)
        return
    frame["left"] -= 1
    sv.set_favour(state, arg, None if verb == "remove" else "Lancaster")
    public(state, f"Robin's Rebellion (L31): {'Yorkist Favour removed at' if verb == 'remove' else 'Lancastrian Favour placed at'} "
                  f"{arg}.", EVENT)


PICKS["robins"] = Pick(_robins_options, _robins_choose, "place or remove Favour in the North (3 in all).",
                       lambda s, f, v, a: "Done" if v == "done" else
                       (f"Remove the Yorkist Favour at {a}" if v == "remove" else f"Lancastrian Favour at {a}"))


def now_tudor_banners(state: State, side: str, card: str, lord: str | None) -> None:
    """L32 Tudor Banners: with Henry Tudor at a Lancastrian Stronghold, every Stronghold next to
    it (by Way) free of Yorkist Lords becomes Lancastrian."""
    d = state["lords"].get("henry_tudor")
    c = load()
    if not (d and d["where"] == Where.MAP and c.locales[d["locale"]]["kind"] == "stronghold"
            and sv.favour(state, d["locale"]) == "Lancaster"):
        public(state, "Tudor Banners (L32): Henry Tudor is not at a Lancastrian Stronghold: no effect.", EVENT)
        return
    done = []
    for n in sorted(c.adjacency[d["locale"]], key=c.locale_ids.id):
        if c.locales[n]["kind"] == "stronghold" and not sv.lords_at(state, n, "York"):
            sv.set_favour(state, n, "Lancaster")
            done.append(n)
    public(state, f"Tudor Banners (L32): {', '.join(done) or 'no Stronghold'} now Lancastrian.", EVENT)


# ----- This Levy / This Campaign Events that ask something when drawn ---------------------------
def levy_loyalty_and_trust(state: State, side: str, card: str, lord: str | None) -> None:
    """Y22 Loyalty and Trust: one Yorkist Lord of the Yorkists' choice (among those on the map)
    has +3 Lordship this Levy (services.modified_rating; RULINGS R54)."""
    fx.book(state).pop("loyalty_and_trust", None)
    push_pick(state, "loyalty_and_trust", "York", card)


def _loyalty_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    pop(state)
    fx.book(state)["loyalty_and_trust"] = arg
    public(state, f"Loyalty and Trust (Y22): {name(arg)} has +3 Lordship this Levy.", EVENT)


PICKS["loyalty_and_trust"] = Pick(lambda s, f: [("lord", x) for x in on_map(s, "York")], _loyalty_choose,
                                  "choose the Lord who has +3 Lordship this Levy.",
                                  lambda s, f, v, a: f"{name(a)}: +3 Lordship")


def _kings_name_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    """Y32 The King's Name: pay 1 Influence to cancel the Lancastrian Levy action just taken:
    its result is undone (Depletion too); what the Lancastrians spent stays spent."""
    pop(state)
    if verb == "pass":
        return
    for k, v in frame["snap"].items():
        state[k] = v
    sv.lose_influence(state, "York", 1)
    mark_reveal(state)
    public(state, f"The King's Name (Y32): York pays 1 Influence and cancels {frame['what']}.", EVENT)


PICKS["kings_name"] = Pick(lambda s, f: [("cancel", None), ("pass", None)], _kings_name_choose,
                           "pay 1 Influence point to cancel that Lancastrian Levy action?",
                           lambda s, f, v, a: "Pay 1 Influence: cancel it" if v == "cancel" else "Let it stand")


def end_levy_cards(state: State) -> None:
    """At the end of the Levy (before This Levy Events end): per-Levy uses are over; L22
    Stafford Estates (Buckingham gains 1 Coin and 1 Provender as the Campaign begins); the
    War II rule "Gloucester" sets Y28 aside once resolved (6.3 IIY, IIL)."""
    book = fx.book(state)
    book.pop("sure_parley", None)
    book.pop("loyalty_and_trust", None)
    for cid in fx.capability_cards("stafford_estates"):
        for lid in ("buckingham",):
            d = state["lords"].get(lid)
            if d and d["where"] == Where.MAP and cid in d["mat"]["capabilities"]:
                d["mat"]["assets"]["coin"] += 1
                d["mat"]["assets"]["provender"] += 1
                public(state, "Stafford Estates (L22): Buckingham gains 1 Coin and 1 Provender as the Campaign "
                              "begins.", EVENT)
    if "gloucester_as_heir_aside" in state["special_rules"] and "Y28" in state["aow"]["York"]["in_effect"]:
        state["aow"]["York"]["in_effect"].remove("Y28")
        state["aow"]["York"]["set_aside"].append("Y28")
        public(state, "Gloucester (6.3): Gloucester as Heir (Y28) is set aside for the next War.", EVENT)


reactions.HOOKS["end_of_levy"].append(end_levy_cards)


# ----- Held Events played during the holder's own decisions ---------------------------------------
def _sun_condition(state: State, side: str, card: str) -> bool:
    """Y24 Sun in Splendour: in a Levy, with Edward IV's cylinder on the Calendar (Exile or not)
    and a place to Muster him."""
    e = state["lords"].get("edward_iv")
    return bool(e and e["where"] == Where.CALENDAR and fx.in_levy(state) and _sun_places(state))


def _sun_places(state: State) -> list[str]:
    c = load()
    out = [loc for loc in c.strongholds() if sv.favour(state, loc) == "York" and not sv.lords_at(state, loc, "Lancaster")]
    return out + [b for b in sv.exile_boxes_for(state, "edward_iv") if not sv.lords_at(state, b, "Lancaster")]


def _sun_play(state: State, side: str, card: str) -> None:
    arts.play_held(state, side, card)
    push_pick(state, "sun_in_splendour", "York", card)


def _sun_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    """Edward IV Musters at the chosen Locale with a fresh mat (3.4.2); played before any Lord
    of the Muster has acted, he may act in it (RULINGS R51)."""
    pop(state)
    levy.muster_lord(state, "edward_iv", arg)
    public(state, f"Sun in Splendour (Y24): Edward IV Musters at {arg}.", EVENT)
    mf = state["stack"][-1] if state["stack"] else None
    if mf is not None and mf["step"] == "muster" and mf.get("lords") is not None and not mf.get("acted"):
        mf["lords"] = sorted({*mf["lords"], "edward_iv"})


PICKS["sun_in_splendour"] = Pick(lambda s, f: [("muster", x) for x in _sun_places(s)], _sun_choose,
                                 "choose where Edward IV Musters.", lambda s, f, v, a: f"Edward IV Musters at {a}")
reactions.OWN_TIME["sun_in_splendour"] = reactions.OwnTime(frozenset({"muster"}), _sun_condition, _sun_play)


def _parade_condition(state: State, side: str, card: str) -> bool:
    """Y20 Yorkist Parade: London is Yorkist and York or Warwick is there."""
    return sv.favour(state, "London") == "York" and any(
        state["lords"].get(x, {}).get("where") == Where.MAP and state["lords"][x]["locale"] == "London"
        for x in ("york", "warwick_y"))


def _parade_play(state: State, side: str, card: str) -> None:
    """In effect (+2 Yorkist Influence ratings) during this Levy or, played in a Campaign, the
    next one (RULINGS R52)."""
    arts.play_held(state, side, card)
    when = "this Levy" if fx.in_levy(state) else "the next Levy"
    public(state, f"Yorkist Parade (Y20): Yorkist Influence ratings are +2 during {when}.", EVENT)


reactions.OWN_TIME["yorkist_parade"] = reactions.OwnTime(frozenset({"muster", "actions"}), _parade_condition,
                                                         _parade_play)


def _aspielles_play(state: State, side: str, card: str) -> None:
    """Y13/L13 Aspielles: the player sees every Held Event of the other side and, with Hidden
    Mats, one hidden mat of the other side (his choice)."""
    arts.play_held(state, side, card)
    foe = other(side)
    held = state["aow"][foe]["held"]
    private(state, side, f"Aspielles: {foe} holds " + (", ".join(title(c) for c in held) or "no Event") + ".", CARD)
    if state["options"].get("hidden_mats"):
        lords = [lid for lid in on_map(state, foe) if state["lords"][lid]["mat"]]
        if lords:
            push_pick(state, "aspielles", side, card, lords=lords)


def _aspielles_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    pop(state)
    mark_reveal(state)  # the chosen hidden mat is shown to the player (1.5.3)
    mat = state["lords"][arg]["mat"]
    troops = ", ".join(f"{n} {t.replace('_', ' ')}" for t, n in mat["troops"].items() if n) or "no Troops"
    assets = ", ".join(f"{n} {a}" for a, n in mat["assets"].items() if n) or "no Assets"
    caps = ", ".join(f"{arts.capability_title(c)} ({c})" for c in mat["capabilities"]) or "no Capability"
    vassals = ", ".join(_vassal_name(v) for v in [*mat["vassals"], *mat["special_vassals"]]) or "no Vassal"
    private(state, frame["side"], f"Aspielles: {name(arg)}'s mat: {troops}; {assets}; {vassals}; {caps}.", CARD)
    public(state, f"Aspielles: {frame['side']} inspects {name(arg)}'s mat.", CARD)


PICKS["aspielles"] = Pick(lambda s, f: [("lord", x) for x in f["lords"]], _aspielles_choose,
                          "choose an enemy Lord whose mat you inspect.", lambda s, f, v, a: f"Inspect {name(a)}")
reactions.OWN_TIME["aspielles"] = reactions.OwnTime(frozenset({"muster", "actions"}), lambda s, side, c: True,
                                                    _aspielles_play)


# ----- Capabilities when deployed (3.1.2, 3.4.6) -----------------------------------------------
def deploy_hastings(state: State, lord: str, card: str) -> None:
    """Y24 Hastings: the Special Vassal comes free (arts.deploy_capability) with 2 Men-at-Arms."""
    got = cr.add_troops(state, lord, {"men_at_arms": 2})
    public(state, f"Hastings (Y24): {name(lord)} adds {cr.troops_text(got)}.", EVENT)


def deploy_burgundians(state: State, lord: str, card: str) -> None:
    """Y14/Y23 Burgundians: ready again on a new deployment; at a Port now, they come at once."""
    used = fx.book(state).get("burgundians", [])
    if card in used:
        fx.book(state)["burgundians"] = [c for c in used if c != card]
    burgundians_arrive(state, [lord])


def burgundians_arrive(state: State, lords: list[str]) -> None:
    """Y14/Y23 Burgundians: the first time the Lord is at a Port Stronghold he adds 2
    Handgunners (pool, 1.6), once only."""
    c = load()
    for lid in lords:
        d = state["lords"][lid]
        if d["where"] != Where.MAP or not d["mat"]:
            continue
        cid = fx.capability(state, lid, "burgundians")
        if cid is None or cid in fx.book(state).get("burgundians", []):
            continue
        loc = c.locales[d["locale"]]
        if loc["kind"] == "stronghold" and loc["port"]:
            got = cr.add_troops(state, lid, {"handgunners": 2})
            fx.book(state)["burgundians"] = sorted({*fx.book(state).get("burgundians", []), cid})
            public(state, f"Burgundians ({cid}): {name(lid)} at {d['locale']} adds {cr.troops_text(got)}.", EVENT)


reactions.HOOKS["moved"].append(burgundians_arrive)


# ----- Battle (4.4): the Event windows and the decisions of Battle cards -----------------------------
def _b(state: State) -> dict[str, Any]:
    out: dict[str, Any] = state["battle"]
    return out


def _suspicion_pairs(state: State, side: str) -> list[tuple[str, str]]:
    """Y5/L5 Suspicion (with the errata): a Friendly Lord in the Battle and an Enemy Lord there
    whose printed Influence is lower."""
    b = _b(state)
    c = load()
    mine = [lid for lid in battle.battle_lords(b, side)]
    theirs = [lid for lid in battle.battle_lords(b, other(side))]
    return [(f, e) for f in mine for e in theirs if c.lords[e]["influence"] < c.lords[f]["influence"]]


def _trust_pairs(state: State, side: str) -> list[tuple[str, str]]:
    """L7 For trust not him: a Lancastrian Lord in the Battle and a regular Yorkist Vassal there
    (not one of Salisbury's with Y17 Alice Montagu)."""
    b = _b(state)
    mine = battle.battle_lords(b, side)
    out = []
    for e in battle.battle_lords(b, other(side)):
        if fx.capability(state, e, "alice_montagu"):
            continue
        for v in state["lords"][e]["mat"]["vassals"]:
            out += [(f, f"{v}@{e}") for f in mine]
    return out


def _array_card_ok(state: State, frame: Frame, cid: str) -> bool:
    key = fx.EVENT_KEYS[cid]
    side = frame["side"]
    if key == "suspicion":
        return bool(_suspicion_pairs(state, side))
    if key == "for_trust_not_him":
        return bool(_trust_pairs(state, side))
    if key == "ravine":
        return bool(battle.battle_lords(_b(state), other(side)))
    return True


def _array_play(state: State, frame: Frame, cid: str) -> None:
    """A Held Event played in Battle (4.4.1): revealed, back to its deck, in effect for the
    Battle; some ask for a choice at once."""
    side = frame["side"]
    b = _b(state)
    key = fx.EVENT_KEYS[cid]
    b["events"].append(cid)
    if key == "aspielles":
        _aspielles_play(state, side, cid)
        return
    arts.play_held(state, side, cid)
    if key == "suspicion":
        push_pick(state, "suspicion", side, cid)
    elif key == "for_trust_not_him":
        push_pick(state, "for_trust", side, cid)
    elif key == "ravine":
        push_pick(state, "ravine", side, cid)
    elif key == "regroup":
        b["regroup"] = sorted({*b["regroup"], side})


reactions.register("array", reactions.Window(
    moment="in this Battle (after the Array, 4.4.1)",
    events=frozenset({"leeward", "suspicion", "for_trust_not_him", "ravine", "caltrops", "regroup",
                      "swift_maneuver", "patrick_de_la_mote", "aspielles"}),
    card_ok=_array_card_ok, on_play=_array_play, several=True))


def _death_public(state: State, frame: Frame) -> bool:
    """Death-check Events matter while the side has Routed Lords to check (4.4.3)."""
    b = _b(state)
    return any(d["routed"] and d["side"] == frame["side"] and lid not in b["checked"]
               and state["lords"][lid]["where"] == Where.MAP for lid, d in b["lords"].items())


def _death_card_ok(state: State, frame: Frame, cid: str) -> bool:
    key = fx.EVENT_KEYS[cid]
    if key == "escape_ship":
        return cr.escape_route(state, frame["side"])
    if key == "warden":
        return bool(cr.warden_places(state))
    return True


def _death_play(state: State, frame: Frame, cid: str) -> None:
    _b(state)["events"].append(cid)
    arts.play_held(state, frame["side"], cid)


reactions.register("death", reactions.Window(
    moment="upon the Death checks (4.4.3)", events=frozenset({"escape_ship", "talbot", "warden"}),
    public=_death_public, card_ok=_death_card_ok, on_play=_death_play, several=True))


def _suspicion_options(state: State, frame: Frame) -> list[Action]:
    return [("check", f"{f}>{with_extra(e, x)}") for f, e in _suspicion_pairs(state, frame["side"]) for x in EXTRAS]


def _suspicion_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    """The Friendly Lord checks Influence; on success the Enemy Lord Disbands (3.2.4, no
    Influence penalty) and leaves the Battle (Reposition fills his place)."""
    pop(state)
    friend, rest = str(arg).split(">")
    enemy, extra = split_extra(rest)
    res = sv.influence_check(state, frame["side"], friend, extra=extra)
    if not res["success"]:
        public(state, f"Suspicion: {name(friend)} checks Influence ({check_text(res)}): fails.", EVENT)
        return
    battle.remove_from_battle(state, enemy)
    sv.disband_lord(state, enemy)
    public(state, f"Suspicion: {name(friend)} checks Influence ({check_text(res)}): {name(enemy)} Disbands and "
                  "leaves the Battle (3.2.4).", EVENT)


def _suspicion_label(state: State, frame: Frame, verb: str, arg: Any) -> str:
    friend, rest = str(arg).split(">")
    enemy, extra = split_extra(rest)
    bonus = "" if extra == 0 else f", +{extra} Influence for +{1 if extra == 1 else 2}"
    return f"{name(friend)} checks Influence against {name(enemy)}{bonus}"


PICKS["suspicion"] = Pick(_suspicion_options, _suspicion_choose,
                          "choose your Lord who checks Influence and the Enemy Lord (lower printed Influence).",
                          _suspicion_label)


def _trust_options(state: State, frame: Frame) -> list[Action]:
    return [("levy", f"{f}>{with_extra(v, x)}") for f, v in _trust_pairs(state, frame["side"]) for x in EXTRAS]


def _trust_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    """L7: the Lord tries to Levy the Vassal (3.4.3: Influence check with its Loyalty; no Route,
    no Seat condition); success moves it to his mat with a new Service marker."""
    pop(state)
    lord, rest = str(arg).split(">")
    target, extra = split_extra(rest)
    vid, holder = target.split("@")
    res = sv.influence_check(state, frame["side"], lord, extra=extra, vassal=vid)
    if not res["success"]:
        public(state, f"For trust not him: {name(lord)} fails to win over {_vassal_name(vid)} ({check_text(res)}).",
               EVENT)
        return
    state["lords"][holder]["mat"]["vassals"].remove(vid)
    b = _b(state)
    if vid in b["lords"][holder]["vassals_routed"]:
        b["lords"][holder]["vassals_routed"].remove(vid)
    state["lords"][lord]["mat"]["vassals"].append(vid)
    state["vassals"][vid].update(lord=lord, box=sv.calendar_place(state["box"] + load().vassals[vid]["service"]))
    public(state, f"For trust not him: {_vassal_name(vid)} leaves {name(holder)} for {name(lord)} "
                  f"({check_text(res)}).", EVENT)


PICKS["for_trust"] = Pick(_trust_options, _trust_choose, "choose your Lord and the Enemy Vassal he tries to Levy.",
                          lambda s, f, v, a: f"{name(a.split('>')[0])} Levies {_vassal_name(a.split('>')[1].split('@')[0])}"
                          + ("" if "+" not in a else f", +{a.rsplit('+', 1)[1]} Influence"))


def _ravine_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    """L12 Ravine: the Enemy Lord neither Engages nor Strikes in Round 1; the card sits under
    his mat until then."""
    pop(state)
    side = frame["side"]
    cid = frame["card"]
    state["aow"][side]["deck"].remove(cid)
    state["lords"][arg]["mat"]["events"].append(cid)
    _b(state)["ravine"] = arg
    public(state, f"Ravine: {name(arg)} neither Engages nor Strikes in Round 1.", EVENT)


PICKS["ravine"] = Pick(lambda s, f: [("lord", x) for x in battle.battle_lords(_b(s), other(f["side"]))],
                       _ravine_choose, "choose the Enemy Lord caught in the Ravine.",
                       lambda s, f, v, a: f"{name(a)} is caught in the Ravine")


def _culverins_options(state: State, frame: Frame) -> list[Action]:
    b = _b(state)
    out: list[Action] = []
    for lid in battle.battle_lords(b, frame["side"]):
        if lid in b["culverins"]:
            continue
        cid = fx.capability(state, lid, "culverins")
        if cid:
            out.append(("fire", f"{cid}:{lid}"))
    return out + [("done", None)] if out else []


def _culverins_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    """Y1/Y2/L1/L2 Culverins & Falconets: discard the card for one die of Missile Hits (two with
    Y37 Patrick de la Mote) at the Lord's first Missile Strike of Round 1."""
    if verb == "done":
        pop(state)
        return
    cid, lid = str(arg).split(":")
    state["lords"][lid]["mat"]["capabilities"].remove(cid)
    sv._discard_capability_card(state, cid)
    _b(state)["culverins"].append(lid)
    public(state, f"Culverins & Falconets ({cid}): {name(lid)} fires them this Round (the card is discarded).", EVENT)


PICKS["culverins"] = Pick(_culverins_options, _culverins_choose,
                          "discard Culverins & Falconets for a die of Missile Hits in Round 1?",
                          lambda s, f, v, a: "Keep the others" if v == "done" else f"{name(a.split(':')[1])} fires")


def _vanguard_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    pop(state)
    if verb == "vanguard":
        _b(state)["vanguard"] = True
        public(state, "Vanguard (Y36): Norfolk's Engagement alone is fought in Round 1.", EVENT)


PICKS["vanguard"] = Pick(lambda s, f: [("vanguard", None), ("decline", None)], _vanguard_choose,
                         "make Norfolk's Engagement the only one of Round 1?",
                         lambda s, f, v, a: "Yes: Norfolk's Engagement only" if v == "vanguard" else "No")


def _caltrops_options(state: State, frame: Frame) -> list[Action]:
    b = _b(state)
    if frame["left"] <= 0:
        return []
    return [("engagement", i) for i, eng in enumerate(b["engagements"])
            if any(b["lords"][x]["side"] == "Lancaster" for x in eng)]


def _caltrops_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    """Y19 Caltrops: 2 more Melee Hits on the Lancastrians this Round, the Yorkists choosing the
    Engagements (one Hit at a time)."""
    b = _b(state)
    b["caltrops"][str(arg)] = b["caltrops"].get(str(arg), 0) + 1
    frame["left"] -= 1


PICKS["caltrops"] = Pick(_caltrops_options, _caltrops_choose,
                         "put a Caltrops Hit on an Engagement (2 each Round).",
                         lambda s, f, v, a: "Engagement of " + " and ".join(name(x) for x in _b(s)["engagements"][a]))


def _final_charge_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    pop(state)
    if verb == "charge":
        _b(state)["final_charge"] = frame["index"]


PICKS["final_charge"] = Pick(lambda s, f: [("charge", None), ("decline", None)], _final_charge_choose,
                             "Richard III's Retinue may take 1 Hit to deal 3 more Hits in this Melee.",
                             lambda s, f, v, a: "Final Charge" if v == "charge" else "No")


def _swift_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    """Y36 Swift Maneuver: a Lancastrian Retinue has just Routed: the Yorkists may end the Round
    at once (straight to Lord Rout; the Hits and Engagements left are not fought)."""
    pop(state)
    if verb != "end":
        return
    stack = state["stack"]
    at = max(i for i, f in enumerate(stack) if f["step"] == "battle")
    del stack[at + 1:]
    stack[at]["stage"] = "lord_rout"
    _b(state)["strike"] = None
    public(state, "Swift Maneuver: York ends the Round at once.", EVENT)


PICKS["swift"] = Pick(lambda s, f: [("end", None), ("continue", None)], _swift_choose,
                      "a Lancastrian Retinue Routs: end the Round now?",
                      lambda s, f, v, a: "End the Round now" if v == "end" else "Fight on")


def _regroup_options(state: State, frame: Frame) -> list[Action]:
    b = _b(state)
    out: list[Action] = [("regroup", lid) for lid in battle.battle_lords(b, frame["side"])
                         if state["lords"][lid]["where"] == Where.MAP and any(state["lords"][lid]["mat"]["routed"].values())]
    return out + [("later", None)] if out else []


def _regroup_choose(state: State, frame: Frame, verb: str, arg: Any) -> None:
    """Y30 Regroup, once in the Battle: each Routed Troop of the Lord rolls against its (modified)
    Protection; each success comes back (RULINGS R59: the Melee Protection)."""
    pop(state)
    if verb == "later":
        return
    b = _b(state)
    b["regroup"] = [x for x in b["regroup"] if x != frame["side"]]
    mat = state["lords"][arg]["mat"]
    back = 0
    for t in TROOP_TYPES:
        for _ in range(mat["routed"][t]):
            if battle.roll(state) <= battle.protection(state, arg, t):
                mat["routed"][t] -= 1
                mat["troops"][t] += 1
                back += 1
    public(state, f"Regroup: {back} of {name(arg)}'s Routed Troops come back.", EVENT)


PICKS["regroup"] = Pick(_regroup_options, _regroup_choose, "use Regroup now on one of your Lords?",
                        lambda s, f, v, a: "Not now" if v == "later" else f"Regroup {name(a)}")


# ----- Approach (4.3.5) ------------------------------------------------------------------------
def _blocked_ford(state: State, frame: Frame, cid: str) -> None:
    """Y11/L11 Blocked Ford: at this Approach no Lord there may choose Exile; all of them fight."""
    arts.play_held(state, frame["side"], cid)
    pop(state)
    approach = next(f for f in reversed(state["stack"]) if f["step"] == "approach")
    approach["no_exile"] = True
    public(state, f"Blocked Ford: no Lord at {approach['locale']} may go into Exile (4.3.5).", EVENT)


def _approach_frame(state: State) -> Frame | None:
    return next((f for f in reversed(state["stack"]) if f["step"] == "approach"), None)


def cancel_approach(state: State, why: str, *, card_goes_on: bool = False) -> None:
    """The Approach is cancelled (Y12/L20 Parliament's Truce, L15 King's Parley): the frames of
    the Approach go and the Approaching Lords go back where they came from (still Moved). L15
    ends their Command card ("and end their Command card", RULINGS R81); after the Truce, which
    says only "No Approach", the card goes on with its remaining actions, since 4.3.5 RECOVERY
    follows an Exile or a Battle and there is neither (``card_goes_on``, RULINGS R79)."""
    stack = state["stack"]
    at = max(i for i, f in enumerate(stack) if f["step"] == "approach")
    frame = stack[at]
    del stack[at:]
    campaign.send_back(state, frame["attackers"], frame["locale"], frame["from"])
    public(state, f"{why}: {', '.join(name(lid) for lid in frame['attackers'])} do not Approach "
                  f"{frame['locale']} and go back to {frame['from']} (4.3.5).", EVENT)
    card = frame.get("card")
    if card_goes_on and card is not None:
        push(state, {**card, "highway": None})


def _approach_play(state: State, frame: Frame, cid: str) -> None:
    if fx.EVENT_KEYS[cid] == "truce":
        arts.play_held(state, frame["side"], cid)
        cancel_approach(state, f"Parliament's Truce ({cid})", card_goes_on=True)
        return
    _blocked_ford(state, frame, cid)


def _approach_card_ok(state: State, frame: Frame, cid: str) -> bool:
    """Parliament's Truce cancels only an Approach that knows where its Lords came from."""
    if fx.EVENT_KEYS[cid] != "truce":
        return True
    ap = _approach_frame(state)
    return ap is not None and ap.get("from") is not None


def _kings_parley_lords(state: State, frame: Frame) -> list[str]:
    """L15 King's Parley: Henry VI, Approached by Yorkists (not in a Battle yet)."""
    ap = _approach_frame(state)
    if ap is None or frame["side"] != "Lancaster" or ap["attacker"] != "York" or ap.get("from") is None:
        return []
    return [lid for lid in sv.lords_at(state, ap["locale"], "Lancaster") if lid == "henry_vi"]


def _kings_parley(state: State, frame: Frame, cid: str) -> None:
    """L15 King's Parley: Henry VI discards the card; the Yorkist Approach is cancelled and their
    Command card ends (RULINGS R81)."""
    lord = next(lid for lid in _kings_parley_lords(state, frame) if cid in state["lords"][lid]["mat"]["capabilities"])
    state["lords"][lord]["mat"]["capabilities"].remove(cid)
    sv._discard_capability_card(state, cid)
    mark_reveal(state)
    cancel_approach(state, f"King's Parley ({cid}): {name(lord)} discards the card")


reactions.register("approach", reactions.Window(
    moment="at this Approach (4.3.5)", events=frozenset({"blocked_ford", "truce"}), card_ok=_approach_card_ok,
    on_play=_approach_play, capabilities=frozenset({"kings_parley"}), cap_lords=_kings_parley_lords,
    on_use=_kings_parley))


# ----- Y4 We done deeds of charity (4.8.1) ---------------------------------------------------------------
def _charity_lords(state: State, frame: Frame) -> list[str]:
    """The Yorkist Lords on the map or at Sea who may hold the Capability; with open mats only
    those with Provender to spend (Sharing counts; RULINGS R83)."""
    lords = [lid for lid, d in state["lords"].items()
             if d["where"] in (Where.MAP, Where.SEA) and sv.side_of(lid) == "York"]
    if state["options"].get("hidden_mats"):
        return lords  # Provender is hidden: the window may not depend on it (RULINGS R50)
    return [lid for lid in lords if sv.shared_assets(state, lid, "provender") > 0]


def _charity_use(state: State, frame: Frame, cid: str) -> None:
    pop(state)
    lord = next(lid for lid, d in state["lords"].items() if d["mat"] and cid in d["mat"]["capabilities"])
    push_pick(state, "charity", "York", cid, lord=lord, half="capability")


def _charity_options(state: State, frame: Frame) -> list[Action]:
    """1 or 2 Provender, as many as the Lord has with Sharing; with Hidden Mats also nothing, so
    that the Yorkists are asked whatever the hidden mat holds (RULINGS R83, R50)."""
    have = sv.shared_assets(state, frame["lord"], "provender")
    spend: list[Action] = [("spend", 0)] if state["options"].get("hidden_mats") else []
    return spend + [("spend", n) for n in (1, 2) if n <= have]


def _charity_choose(state: State, frame: Frame, verb: str, n: Any) -> None:
    """Spend 1 or 2 Provender, the Lord's own first, then Shared from Friendly Lords with him in
    map order (1.5.3); each buys 1 Influence point at this Tides of War (RULINGS R83)."""
    pop(state)
    lord = frame["lord"]
    d = state["lords"][lord]
    givers = [lord] + [lid for lid in sorted(sv.lords_at(state, d["locale"], "York"), key=load().lord_ids.id)
                       if lid != lord]
    left = int(n)
    for lid in givers:
        assets = state["lords"][lid]["mat"]["assets"]
        take = min(left, assets["provender"])
        assets["provender"] -= take
        left -= take
    tides = next((f for f in reversed(state["stack"]) if f["step"] == "tides_of_war"), None)
    if tides is not None:
        tides["charity"] = tides.get("charity", 0) + int(n)
    if not n:
        public(state, f"We done deeds of charity ({frame['card']}): {name(lord)} spends no Provender (4.8.1).",
               EVENT)
        return
    public(state, f"We done deeds of charity ({frame['card']}): {name(lord)} spends {n} Provender for {n} "
                  "Influence (4.8.1).", EVENT)


PICKS["charity"] = Pick(_charity_options, _charity_choose, "spend 1 or 2 Provender for as many Influence points?",
                        lambda s, f, v, a: f"Spend {a} Provender: +{a} Influence" if a else "Spend nothing")
reactions.register("tides", reactions.Window(
    moment="at Tides of War (4.8.1)", capabilities=frozenset({"deeds_of_charity"}), cap_lords=_charity_lords,
    on_use=_charity_use))


# ----- Y12/L20 Parliament's Truce (4.3.4, 4.3.5) -------------------------------------------------------
def _truce_at_intercept(state: State, frame: Frame, cid: str) -> None:
    """Played by the Marching side when an Intercept is made: no Intercept (nor Approach) for the
    rest of this Campaign; this Intercept does not happen (RULINGS R79)."""
    arts.play_held(state, frame["side"], cid)
    pop(state)
    public(state, f"Parliament's Truce ({cid}): no Intercept and no Approach for the rest of this Campaign.", EVENT)


reactions.register("intercept", reactions.Window(
    moment="at this Intercept (4.3.4)", events=frozenset({"truce"}), on_play=_truce_at_intercept))


def _truce_play(state: State, side: str, cid: str) -> None:
    arts.play_held(state, side, cid)
    public(state, f"Parliament's Truce ({cid}): no Intercept and no Approach for the rest of this Campaign.", EVENT)


reactions.OWN_TIME["truce"] = reactions.OwnTime(frozenset({"actions"}), lambda s, side, c: True, _truce_play)


#: Now Events and Events that ask something as they come into effect (3.1.3).
NOW_EFFECTS: Final[dict[str, arts.EventEffect]] = {
    "tax_collectors": now_tax_collectors, "london_for_york": now_london_for_york, "she_wolf": now_she_wolf,
    "richard_leigh": now_richard_leigh, "charles_the_bold": now_assets, "french_war_loans": now_assets,
    "dubious_clarence": now_dubious_clarence, "yorkist_north": now_yorkist_north, "earl_rivers": now_earl_rivers,
    "scots": now_scots, "henry_pressures": now_henry_pressures, "henrys_proclamation": now_henrys_proclamation,
    "french_troops": now_french_troops, "propaganda": now_propaganda, "welsh_rebellion": now_welsh_rebellion,
    "henry_released": now_henry_released, "aragne": now_aragne, "wilful_disobedience": now_wilful_disobedience,
    "robins_rebellion": now_robins_rebellion, "tudor_banners": now_tudor_banners,
    "loyalty_and_trust": levy_loyalty_and_trust,
}

for _cid, _key in fx.EVENT_KEYS.items():
    if _key in NOW_EFFECTS:
        arts.EVENT_EFFECTS[_cid] = NOW_EFFECTS[_key]

CAPABILITY_DEPLOY: Final[dict[str, arts.CapabilityEffect]] = {"hastings": deploy_hastings, "burgundians": deploy_burgundians}
for _cid, _key in fx.CAPABILITY_KEYS.items():
    if _key in CAPABILITY_DEPLOY:
        arts.CAPABILITY_EFFECTS[_cid] = CAPABILITY_DEPLOY[_key]


# ----- L28 Rebel Supply Depot (after a March or Sail to a Port) --------------------------------------
def _supply_depot(state: State, frame: Frame, cid: str) -> None:
    """L28 Rebel Supply Depot: the Lords who just Marched or Sailed to the Port gain 4 Provender
    (on the first, Active Lord's mat; Sharing lets the others use it) and skip their next Feed
    (RULINGS R74)."""
    lords = list(frame["lords"])
    arts.play_held(state, frame["side"], cid)
    pop(state)
    state["lords"][lords[0]]["mat"]["assets"]["provender"] += 4
    skip = fx.book(state).setdefault("skip_feed", [])
    skip[:] = sorted({*skip, *lords})
    public(state, f"Rebel Supply Depot ({cid}) at {frame['locale']}: {name(lords[0])} gains 4 Provender; "
                  f"{', '.join(name(lid) for lid in lords)} skip their next Feed (4.7).", EVENT)


reactions.register("supply_depot", reactions.Window(
    moment="after this March or Sail to a Port (Rebel Supply Depot)", events=frozenset({"supply_depot"}),
    on_play=_supply_depot))


# ----- L33 Surprise Landing (after a Sail to a Port) ------------------------------------------------
def _surprise_landing(state: State, frame: Frame, cid: str) -> None:
    """L33 Surprise Landing: after the Sail that spent the card, the Active Lord (with his Group
    if he forms one again) takes one free March action (RULINGS R75)."""
    arts.play_held(state, frame["side"], cid)
    pop(state)
    af = next((f for f in reversed(state["stack"]) if f["step"] == "actions"), None)
    if af is None:  # pragma: no cover - the window is pushed only inside a Command card
        return
    af["left"] += 1
    af["march_only"] = True
    public(state, f"Surprise Landing ({cid}) at {frame['locale']}: {name(af['lord'])} may March once "
                  "for free (4.3).", EVENT)


def _surprise_landing_can_march(state: State, frame: Frame) -> bool:
    """The free March of L33 would have somewhere to go (public: the Ways of the Port, Lords,
    Parliament's Truce...). After a Sail no Path may be Marched (4.3), so at Harlech and
    Pembroke, Path-only Ports, the card could do nothing and is not offered (RULINGS R75)."""
    af = next((f for f in reversed(state["stack"]) if f["step"] == "actions"), None)
    if af is None:  # pragma: no cover - the window is pushed only inside a Command card
        return False
    return bool(campaign.march_options(state, {**af, "left": af["left"] + 1, "highway": None}))


reactions.register("surprise_landing", reactions.Window(
    moment="after this Sail to a Port (Surprise Landing)", events=frozenset({"surprise_landing"}),
    public=_surprise_landing_can_march, on_play=_surprise_landing))


# ----- 6.2.2 REPLACE: Gloucester becomes Richard III -----------------------------------------
#: Capabilities that hold only "as Gloucester" and are discarded when he becomes Richard III.
GLOUCESTER_ONLY: Final = ("so_wise", "kingdom_united")  # Y34 So wise, so young; Y35 Kingdom United


def on_replace(state: State, old: str, new: str) -> None:
    """Y34 So wise, so young and Y35 Kingdom United: "discard when he becomes Richard III" —
    by 6.2.2 REPLACE in the Wars (IIY) or by Scenario III's King Richard at setup or Muster.
    The card goes where a discarded Capability goes (its deck)."""
    if new != "richard_iii" or old not in sv.GLOUCESTERS:
        return
    mat = state["lords"][new]["mat"]
    if not mat:
        return
    for key in GLOUCESTER_ONLY:
        cid = fx.capability(state, new, key)
        if cid is not None:
            mat["capabilities"].remove(cid)
            sv._discard_capability_card(state, cid)
            public(state, f"{arts.capability_title(cid)} ({cid}) is discarded: Gloucester is now Richard III.", EVENT)


setup.REPLACE_HOOKS.append(on_replace)


#: The card steps, for the game's step table.
CARD_STEPS: Final[list[Step]] = [CardPick()]
