"""Approach and Exile (4.3.5), Battle (4.4) and the Bosworth battle mini-scenario (6.0 III(B)).

Every decision the rules give a player is a frame on the decision stack
(:mod:`roses.engine.steps`); nothing is resolved for a player who has a choice. A decision with
one legal option only (one Lord left to place, one unit left to take a Hit) makes itself.

Frames
------
``{"step": "approach", "locale": L, "attacker": SIDE, "attackers": [lords]}`` (with ``"from"``, where
the Approaching Lords came from, and ``"battle_attacker"`` after a Flank Attack)
    pushed by the Campaign when a March (or Intercept) enters a Stronghold holding Enemy Lords
    (4.3.5). The Defending side chooses Exile or Battle for each of its Lords there, one at a
    time (``exile`` / ``fight``); an Exile is resolved at once (Influence, Spoils, Disband with
    an Exile marker). If any Lord stands, the frame becomes the Battle's driver. The frame (or
    the Battle that replaced it) pops when everything is over, Aftermath included.
``{"step": "battle", "stage": ...}``
    the automatic driver of one Battle: Array (4.4.1), Rounds (4.4.2: Flee, Reposition, Engage,
    Strike, Lord Rout), the end (4.4.3) and Aftermath (4.4.4). It pushes the decisions below
    and resumes when they pop. The Battle itself is ``state["battle"]`` (public: everything is
    visible in Battle, 1.5.3).
Decisions pushed by the driver (``side`` decides): ``array`` (place a Lord), ``battle_event``
(Held Event windows, "in Battle" and Death checks), ``flee``, ``advance``, ``center``,
``flank``, ``order`` (the Attacker orders the Engagements), ``hits`` (assign one Hit at a
time), ``valour`` (reroll a failed Protection roll), ``spoils``, ``capture`` (Capture of the
King, Ia), ``death`` (the order of Death checks).
``{"step": "bosworth", ...}``
    On Bosworth Field: both sides at once, in secret, choose four Capabilities and Array their
    three Lords, then lock in; when both have locked in, everything is revealed and the Battle
    begins with Round 1 (RULINGS R40-R41).

Array positions are kept in one frame of reference: index 0, 1, 2 are the Defender's left,
center and right, and the Attacker's right, center and left, so index ``i`` of one side faces
index ``i`` of the other. Actions and the log name each side's positions from its own side.
"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar, Final

from roses.engine.contract import DRAW, Action, State, mark_reveal
from roses.engine.log import BATTLE as LOG_BATTLE
from roses.engine.log import private, public
from roses.engine.rng import roll
from roses.engine.steps import Choice, Frame, Step, find, pop, push, push_all, replace
from roses.games.plantagenet import arts, reactions, wars
from roses.games.plantagenet import card_rules as cr
from roses.games.plantagenet import effects as fx
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.campaign import shaky_allies
from roses.games.plantagenet.common import BATTLE, CAMPAIGN, end_game
from roses.games.plantagenet.components import TROOP_TYPES, load
from roses.games.plantagenet.records import Where
from roses.games.plantagenet.setup import other

#: Names of the three Front positions by index, from the Defender's side and the Attacker's.
DEFENDER_SLOTS: Final = ("left", "center", "right")
ATTACKER_SLOTS: Final = ("right", "center", "left")
CENTER: Final = 1
#: Units other than Troops that may take Hits: the Retinue (one per Lord) and each Vassal.
RETINUE: Final = "retinue"
#: Bosworth: each side chooses this many Capabilities (On Bosworth Field), at most two per Lord
#: (3.4.6, 1.5.3).
BOSWORTH_CAPABILITIES: Final = 4
MAX_CAPABILITIES: Final = 2
#: A Routed Lord dies on a modified roll of 3 or more; Fled Lords subtract 2 (4.4.3).
DEATH_ROLL: Final = 3
FLED_MODIFIER: Final = -2
#: Held Events that may be played at each Battle window (4.4.1 "in Battle", 4.4.3 Death
#: checks); the windows themselves are described in :mod:`cards` (:data:`reactions.WINDOWS`).
ARRAY_EVENTS: Final = ("leeward", "suspicion", "for_trust_not_him", "ravine", "caltrops", "regroup", "swift_maneuver",
                "patrick_de_la_mote", "aspielles")
DEATH_EVENTS: Final = ("escape_ship", "talbot", "warden")
BATTLE_EVENTS: Final[dict[str, frozenset[str]]] = {
    "array": frozenset(c for k in ARRAY_EVENTS for c in fx.event_cards(k)),
    "death": frozenset(c for k in DEATH_EVENTS for c in fx.event_cards(k)),
}


@cache
def forces() -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """The Forces table (1.6, 4.4.2): Missile and Melee Hits doubled (so ½ is an integer) and
    Protection (the top of the 1-n range), by unit kind: retinue, vassal and each Troop type."""
    table = load().tables["forces"]
    missile = {k: int(round(2 * v["missile"])) for k, v in table.items()}
    melee = {k: int(round(2 * v["melee"])) for k, v in table.items()}
    prot = {k: int(v["protection"]) for k, v in table.items()}
    return missile, melee, prot


def _name(lord: str) -> str:
    return str(load().lords[lord]["name"])


TROOP_NAMES: Final = {"men_at_arms": "Men-at-Arms", "longbowmen": "Longbowmen", "militia": "Militia",
               "mercenaries": "Mercenaries", "handgunners": "Handgunners"}


def _unit_name(unit: str) -> str:
    c = load()
    if unit == RETINUE:
        return "Retinue"
    if unit in TROOP_NAMES:
        return TROOP_NAMES[unit]
    if unit in c.vassals:
        return f"Vassal {c.vassals[unit]['name']}"
    return f"Vassal {c.special_vassals[unit]['name']}"


def _range(top: int) -> str:
    """A die-roll range 1-n as printed ("1" for 1-1)."""
    return "1" if top == 1 else f"1-{top}"


def slot_name(battle: dict[str, Any], side: str, index: int) -> str:
    """The name of Front position ``index`` seen from ``side``."""
    return (DEFENDER_SLOTS if side == battle["defender"] else ATTACKER_SLOTS)[index]


def slot_index(battle: dict[str, Any], side: str, name: str) -> int:
    return (DEFENDER_SLOTS if side == battle["defender"] else ATTACKER_SLOTS).index(name)


# ----- the Battle record ---------------------------------------------------------------------
def in_battle(state: State, lord: str) -> bool:
    """Whether ``lord`` takes part in the Battle being fought (his mat is then visible, 1.5.3)."""
    b = state.get("battle")
    return b is not None and lord in b["lords"]


def battle_lords(battle: dict[str, Any], side: str) -> list[str]:
    return [lid for lid, d in battle["lords"].items() if d["side"] == side]


def unrouted(battle: dict[str, Any], side: str) -> list[str]:
    return [lid for lid, d in battle["lords"].items() if d["side"] == side and not d["routed"]]


def vassals_of(state: State, lord: str) -> list[str]:
    """The Vassals on a Lord's mat, regular then Special (1.5.4: both fight as units)."""
    mat = state["lords"][lord]["mat"]
    return [*mat["vassals"], *mat["special_vassals"]]


def units(state: State, lord: str, b: dict[str, Any]) -> list[str]:
    """A Lord's Unrouted units that may take a Hit: Retinue, Vassals, each Troop type."""
    mat = state["lords"][lord]["mat"]
    out = [] if b["retinue_routed"] else [RETINUE]
    routed = b["vassals_routed"]
    out += [v for v in mat["vassals"] if v not in routed]
    out += [v for v in mat["special_vassals"] if v not in routed]
    troops = mat["troops"]
    out += [t for t in TROOP_TYPES if troops[t] > 0]
    return out


def protection(state: State, lord: str, unit: str, kind: str = "melee") -> int:
    """The top of a unit's Protection range against ``kind`` Hits (4.4.2 PROTECTION), with the
    Lord's Capabilities (:func:`card_rules.protection`)."""
    prot = forces()[2]
    base = prot[unit] if unit in prot else prot["vassal"]
    return cr.protection(state, lord, unit, kind, base)


def side_hits(state: State, battle: dict[str, Any], lords: list[str], kind: str) -> int:
    """The Hits the Unrouted units of ``lords`` Strike with, ``kind`` "missile" or "melee",
    totalled and rounded up (4.4.2 TOTAL HITS)."""
    missile, melee, _ = forces()
    table = missile if kind == "missile" else melee
    total = 0
    for lid in lords:
        b = battle["lords"][lid]
        if not b["retinue_routed"]:
            total += table[RETINUE]
        total += (len(vassals_of(state, lid)) - len(b["vassals_routed"])) * table["vassal"]
        troops = state["lords"][lid]["mat"]["troops"]
        for t in TROOP_TYPES:
            total += troops[t] * table[t]
        if kind == "melee" and troops["men_at_arms"] and cr.melee_doubles_men_at_arms(state, lid):
            total += troops["men_at_arms"] * table["men_at_arms"]  # L36 Chevaliers
    return (total + 1) // 2


def rout_unit(state: State, lord: str, unit: str) -> None:
    """4.4.2 FORCES ROUT: the unit slides to the Routed section of its Lord's mat. Cards that
    watch Routs: L34 Piquiers counts them; Y36 Swift Maneuver may end the Round when a
    Lancastrian Retinue Routs."""
    battle = state["battle"]
    b = battle["lords"][lord]
    if unit == RETINUE:
        b["retinue_routed"] = True
        if sv.side_of(lord) == "Lancaster" and fx.battle_event(state, "swift_maneuver", "York") \
                and find(state, "battle") is not None:
            push(state, {"step": "card_pick", "kind": "swift", "side": "York", "card": "Y36"})
    elif unit in TROOP_TYPES:
        mat = state["lords"][lord]["mat"]
        mat["troops"][unit] -= 1
        mat["routed"][unit] += 1
        if unit in ("men_at_arms", "militia") and fx.capability(state, lord, "piquiers"):
            battle["piquiers"][lord] = battle["piquiers"].get(lord, 0) + 1
    else:
        b["vassals_routed"].append(unit)


def start_battle(state: State, locale: str | None, attacker: str, lords: dict[str, list[str]]) -> dict[str, Any]:
    """Set up ``state["battle"]``: the Lords of each side, their Valour markers (4.4.1 VALOUR:
    the Lord's Valour rating, modified by his Capabilities, 1.5.2), empty Arrays, and the Lord
    who is Late (Ib, Norfolk is Late). Reveals Hidden Mats (1.5.3)."""
    defender = other(attacker)
    blords: dict[str, Any] = {}
    for side in (defender, attacker):
        for lid in lords[side]:
            blords[lid] = {"side": side, "valour": max(0, sv.modified_rating(state, lid, "valour")),
                           "routed": False, "fled": False, "retinue_routed": False, "vassals_routed": []}
    # by Lord id, the order a reloaded state has: the stages go through the Lords in this order
    blords = {lid: blords[lid] for lid in sorted(blords)}
    late = None
    if "norfolk_is_late" in state["special_rules"] and not state.get("norfolk_late_used") \
            and "norfolk" in blords and len(battle_lords({"lords": blords}, "York")) > 1:
        late = "norfolk"
        state["norfolk_late_used"] = True
    battle: dict[str, Any] = {
        "locale": locale, "attacker": attacker, "defender": defender, "round": 0,
        "front": {defender: [None, None, None], attacker: [None, None, None]},
        "reserve": {defender: [], attacker: []},
        "lords": blords, "late": late, "links": {}, "engagements": [], "order": [], "struck": 0,
        "strike": None, "winner": None, "checked": [], "dead": [], "events": [],
        "bosworth": locale is None,
        # Arts of War in this Battle (cards.py): Troops added for it, Piquiers' Routs, Culverins
        # fired, Caltrops' Hits by Engagement, sides with Regroup to use, the Lord hit by Ravine,
        # Vanguard, Final Charge, Bloody thou art.
        "temp": {}, "piquiers": {}, "culverins": [], "caltrops": {}, "regroup": [], "ravine": None,
        "vanguard": False, "final_charge": None, "fc_asked": None, "bloody": False,
    }
    state["battle"] = battle
    for side in (defender, attacker):
        for lid in lords[side]:
            extra = cr.battle_troops(state, lid, locale)
            if extra:
                got = cr.add_troops(state, lid, extra)
                if got:
                    battle["temp"][lid] = got
                    public(state, f"{_name(lid)} adds {cr.troops_text(got)} for this Battle (Capability).", LOG_BATTLE)
    if state["options"].get("hidden_mats"):
        mark_reveal(state)  # 1.5.3: mats are shown in Battle
    where = f" at {locale}" if locale else ""
    names = {s: ", ".join(_name(lid) for lid in lords[s]) for s in (attacker, defender)}
    public(state, f"Battle{where} (4.4): {attacker} Attacks with {names[attacker]}; "
                  f"{defender} Defends with {names[defender]}.", LOG_BATTLE)
    if late:
        public(state, "Norfolk is Late: he Arrays in Reserve and stays there until Round 2 (Ib).", LOG_BATTLE)
    return battle


# ----- shared step shapes ----------------------------------------------------------------------
class SideDecision(Choice):
    """A Battle decision of ``frame["side"]`` (the engine's :class:`~roses.engine.steps.Choice`):
    with one option it makes itself, with none it is over (:meth:`finish`); the side is asked
    only when it has a real choice. A subclass gives the options (:meth:`choices`), its
    :attr:`title` (what the other side is told it waits for) and what the side is asked
    (:meth:`ask`)."""

    phase = BATTLE
    title: ClassVar[str] = ""

    def chooser(self, state: State, frame: Frame) -> str:
        side: str = frame["side"]
        return side

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role == frame["side"]:
            return self.ask(state, frame)
        return f"{self.title}: waiting for {frame['side']}."

    def ask(self, state: State, frame: Frame) -> str:
        return self.title


# ----- 4.3.5 Approach and Exile -----------------------------------------------------------------
class Approach(Step):
    """4.3.5: each Enemy Lord at the Approached Stronghold chooses Exile or Battle."""

    name = "approach"
    phase = CAMPAIGN
    rule = "4.3.5"

    def undecided(self, state: State, frame: Frame) -> list[str]:
        stand = frame.get("stand", ())
        return [lid for lid in sv.lords_at(state, frame["locale"], other(frame["attacker"])) if lid not in stand]

    def actors(self, state: State, frame: Frame) -> list[str]:
        if not frame.get("windows"):
            return []  # the Event windows of the Approach come first (run)
        return [other(frame["attacker"])] if self.undecided(state, frame) else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        out: list[Action] = []
        for lid in self.undecided(state, frame):
            out += [("fight", lid)] if frame.get("no_exile") else [("fight", lid), ("exile", lid)]
        return out

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        who = ", ".join(_name(lid) for lid in frame["attackers"])
        if role in self.actors(state, frame):
            return f"{who} Approach {frame['locale']}: choose Battle or Exile for each of your Lords there (4.3.5)."
        return f"{who} Approach {frame['locale']}: waiting for {other(frame['attacker'])} to choose Battle or Exile."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb not in ("fight", "exile"):
            return None
        return f"{_name(arg)}: {'stand and fight' if verb == 'fight' else 'go into Exile'}"

    def on_fight(self, state: State, frame: Frame, role: str, lord: str) -> None:
        frame["stand"] = [*frame.get("stand", ()), lord]
        public(state, f"{_name(lord)} stands to fight at {frame['locale']} (4.3.5).", LOG_BATTLE)

    def on_exile(self, state: State, frame: Frame, role: str, lord: str) -> None:
        exile_on_approach(state, frame, lord)

    def run(self, state: State, frame: Frame) -> None:
        locale, attacker = frame["locale"], frame["attacker"]
        if not frame.get("windows"):  # Y11/L11 Blocked Ford: the Defender's window, then the Attacker's
            frame["windows"] = True
            for side in (attacker, other(attacker)):
                reactions.push_window(state, side, "approach")
            return
        defenders = sv.lords_at(state, locale, other(attacker))
        attackers = sv.lords_at(state, locale, attacker)
        if not defenders or not attackers:
            pop(state)  # everyone went into Exile: no Battle (4.3.5 BATTLE)
            return
        # Y2/L2 Flank Attack: the Intercepting side is the Attacker in this Battle (RULINGS R80)
        start_battle(state, locale, frame.get("battle_attacker") or attacker,
                     {attacker: attackers, other(attacker): defenders})
        replace(state, {"step": "battle", "stage": "array"})


def spoils_share(state: State, locale: str | None, winner: str, amount: int) -> int:
    """4.4.3 SPOILS: all at a Stronghold Friendly to the winner, half (rounded up) at a Neutral
    one, nothing at one Friendly to the losers."""
    if locale is None:
        return 0
    fav = sv.favour(state, locale)
    if fav == winner:
        return amount
    if fav is None:
        return (amount + 1) // 2
    return 0


def exile_on_approach(state: State, frame: Frame, lord: str) -> None:
    """4.3.5 EXILE: the side loses the Lord's printed Influence plus one per Vassal; he gives up
    Carts and Provender to the Approaching Lords as if Spoils (each Exiling Lord in turn,
    RULINGS R42); then he and his Vassals Disband with an Exile marker."""
    side, attacker, locale = sv.side_of(lord), frame["attacker"], frame["locale"]
    if england_my_home(state, lord):
        return
    penalty = sv.unpaid_disband_penalty(state, [lord])
    sv.lose_influence(state, side, penalty)
    assets = state["lords"][lord]["mat"]["assets"]
    have = {a: assets[a] for a in ("carts", "provender")}
    give = {a: spoils_share(state, locale, attacker, n) for a, n in have.items()}
    for a, n in give.items():
        assets[a] -= n
    public(state, f"{_name(lord)} goes into Exile (4.3.5): {side} loses {penalty} Influence; he had "
                  f"{have['carts']} Carts and {have['provender']} Provender and gives up {give['carts']} Carts "
                  f"and {give['provender']} Provender.", LOG_BATTLE)
    if state["options"].get("hidden_mats"):
        mark_reveal(state)  # the Exile Spoils are declared (1.5.3)
    sv.disband_lord(state, lord, exile=True)
    if lord == "warwick_l" and attacker == "York":
        foreign_haven(state)
    if give["carts"] or give["provender"]:
        push(state, {"step": "spoils", "side": attacker, "to": list(frame["attackers"]),
                     "carts": give["carts"], "provender": give["provender"]})


def england_my_home(state: State, lord: str) -> bool:
    """Y8 England is my home: a Lord with the Capability who would go into Exile Disbands to
    the next Calendar box instead, without the Influence penalty (RULINGS R58). Returns whether
    it applied."""
    if not fx.capability(state, lord, "england_my_home"):
        return False
    sv.disband_lord(state, lord)
    state["lords"][lord]["box"] = sv.calendar_place(state["box"] + 1)
    public(state, f"England is my home (Y8): {_name(lord)} Disbands to box {state['lords'][lord]['box']} instead "
                  "of going into Exile.", LOG_BATTLE)
    return True


def go_into_exile(state: State, lord: str) -> None:
    """Exile (4.3.5) away from an Approach (Y3/Y9/L3 Escape Ship, Foreign Haven): the side loses
    the Lord's printed Influence plus one per Vassal and he Disbands with an Exile marker."""
    if england_my_home(state, lord):
        return
    side = sv.side_of(lord)
    penalty = sv.unpaid_disband_penalty(state, [lord])
    sv.lose_influence(state, side, penalty)
    sv.disband_lord(state, lord, exile=True)
    public(state, f"{_name(lord)} goes into Exile (4.3.5); {side} loses {penalty} Influence.", LOG_BATTLE)


def foreign_haven(state: State) -> None:
    """Foreign Haven (6.0 II, with the errata): when Warwick goes into Exile upon a Yorkist
    Approach or Dies as a Defender, every Lancastrian on the Calendar shifts left (only) to the
    current Turn, then every Yorkist there left (only) to the next Turn."""
    if "foreign_haven" not in state["special_rules"]:
        return
    for side, box in (("Lancaster", state["box"]), ("York", state["box"] + 1)):
        for lid, d in state["lords"].items():
            if d["where"] == Where.CALENDAR and sv.side_of(lid) == side and d["box"] > box:
                d["box"] = sv.calendar_place(box)
    public(state, "Foreign Haven (II): the Lancastrians on the Calendar shift to this Turn, the Yorkists to "
                  "the next.", LOG_BATTLE)


def may_exile_instead_of_death(state: State, lord: str) -> bool:
    """Foreign Haven (6.0 II): Edward IV, Routed while Margaret is not on the map, may go into
    Exile instead of checking for Death."""
    m = state["lords"].get("margaret")
    return ("foreign_haven" in state["special_rules"] and lord == "edward_iv"
            and (m is None or m["where"] != Where.MAP))


# ----- the Battle's driver ----------------------------------------------------------------------
class BattleDriver(Step):
    """The automatic driver of a Battle: each stage pushes the decisions it needs and moves on
    (4.4.1-4.4.4)."""

    name = "battle"
    phase = BATTLE
    rule = "4.4"

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        return "Battle."

    def run(self, state: State, frame: Frame) -> None:
        getattr(self, "stage_" + frame["stage"])(state, frame, state["battle"])

    # 4.4.1 Array
    def stage_array(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        frame["stage"] = "array_events"
        push_all(state, [{"step": "array", "side": b["defender"]}, {"step": "array", "side": b["attacker"]}])

    def stage_array_events(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        for side in (b["defender"], b["attacker"]):
            front = ", ".join(f"{slot_name(b, side, i)} {_name(lid)}" for i, lid in enumerate(b["front"][side]) if lid)
            reserve = ", ".join(_name(lid) for lid in b["reserve"][side])
            public(state, f"{side} Array: Front {front}" + (f"; Reserve {reserve}" if reserve else "") + ".",
                   LOG_BATTLE)
        valour = ", ".join(f"{_name(lid)} {d['valour']}" for lid, d in b["lords"].items())
        public(state, f"Valour markers (4.4.1): {valour}.", LOG_BATTLE)
        frame["stage"] = "card_decisions"
        push_all(state, [{"step": "battle_event", "side": b["defender"], "window": "array"},
                         {"step": "battle_event", "side": b["attacker"], "window": "array"}])

    def stage_card_decisions(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        """After the Events: Defender then Attacker decide on Culverins & Falconets (Y1/Y2/L1/L2),
        then the Yorkists on Vanguard (Y36)."""
        frame["stage"] = "round"
        picks: list[Frame] = []
        for side in (b["defender"], b["attacker"]):
            guns = [cid for lid in battle_lords(b, side) if (cid := fx.capability(state, lid, "culverins"))]
            if guns:
                picks.append({"step": "card_pick", "kind": "culverins", "side": side, "card": guns[0],
                              "half": "capability"})
        if "norfolk" in b["lords"] and fx.capability(state, "norfolk", "vanguard"):
            picks.append({"step": "card_pick", "kind": "vanguard", "side": "York", "card": "Y36", "half": "capability"})
        push_all(state, picks)

    # 4.4.2 Rounds
    def stage_round(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        b["round"] += 1
        if b["round"] == 2:
            end_ravine(state, b)
        public(state, f"Battle Round {b['round']}.", LOG_BATTLE)
        frame["stage"] = "flee_attacker"
        push(state, {"step": "flee", "side": b["defender"]})
        if b["round"] >= 2:  # Y30 Regroup: at the start of a later Round (RULINGS R59)
            push_all(state, regroup_picks(b))

    def stage_flee_attacker(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        if not unrouted(b, b["defender"]):
            frame["stage"] = "end"  # 4.4.2 FLEE NOTE: a whole side Fled
            return
        frame["stage"] = "reposition"
        push(state, {"step": "flee", "side": b["attacker"]})

    def stage_reposition(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        if not unrouted(b, b["attacker"]):
            frame["stage"] = "end"
            return
        lords = b["lords"]
        for side in (b["defender"], b["attacker"]):  # Rout: Routed Lords leave the Array
            b["front"][side] = [None if lid is None or lords[lid]["routed"] else lid for lid in b["front"][side]]
            b["reserve"][side] = [lid for lid in b["reserve"][side] if not lords[lid]["routed"]]
        d, a = b["defender"], b["attacker"]
        frame["stage"] = "engage"
        push_all(state, [{"step": "advance", "side": d}, {"step": "advance", "side": a},
                         {"step": "center", "side": d}, {"step": "center", "side": a}])

    def stage_engage(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        """ENGAGE: a Front Lord fights the Lord opposite, or Flanks the closest Front Enemy (a
        center Lord with Enemies left and right only chooses)."""
        b["links"] = {}
        choices: list[Frame] = []
        ravine = b["ravine"] if b["round"] == 1 else None  # L12: as if his position were empty
        fronts = {s: [None if lid == ravine else lid for lid in b["front"][s]] for s in (b["defender"], b["attacker"])}
        for side in (b["defender"], b["attacker"]):
            mine, theirs = fronts[side], fronts[other(side)]
            for i, lid in enumerate(mine):
                if lid is None:
                    continue
                if theirs[i] is not None:
                    b["links"][lid] = theirs[i]
                    continue
                dist = [(abs(i - j), j) for j in range(3) if theirs[j] is not None]
                if not dist:
                    continue
                near = min(dd for dd, _ in dist)
                targets = [theirs[j] for dd, j in dist if dd == near]
                if len(targets) == 1:
                    b["links"][lid] = targets[0]
                else:
                    choices.append({"step": "flank", "side": side, "lord": lid, "targets": targets})
        frame["stage"] = "engagements"
        push_all(state, choices)

    def stage_engagements(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        engagements = _components(b)
        if b["round"] == 1 and b["vanguard"]:  # Y36 Vanguard: Norfolk's Engagement only
            mine = [eng for eng in engagements if "norfolk" in eng]
            if mine and len(engagements) > 1:
                engagements = mine
                public(state, "Vanguard (Y36): only Norfolk's Engagement is fought in Round 1.", LOG_BATTLE)
        b["engagements"], b["order"], b["struck"], b["strike"] = engagements, [], 0, None
        b["caltrops"] = {}
        if not engagements:
            public(state, "No Lords Engage this Round.", LOG_BATTLE)
            frame["stage"] = "lord_rout"
            return
        for eng in engagements:
            public(state, "Engagement: " + " and ".join(_name(lid) for lid in eng) + ".", LOG_BATTLE)
        frame["stage"] = "strike"
        push(state, {"step": "order", "side": b["attacker"]})
        if fx.battle_event(state, "caltrops", "York"):  # Y19: 2 more Melee Hits this Round
            push(state, {"step": "card_pick", "kind": "caltrops", "side": "York", "card": "Y19", "left": 2})

    def stage_strike(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        if b["struck"] >= len(b["order"]):
            b["strike"] = None
            frame["stage"] = "lord_rout"
            return
        frame["stage"] = "melee"
        self.strike(state, b, b["order"][b["struck"]], "missile")

    def stage_melee(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        index = b["order"][b["struck"]]
        if final_charge_possible(state, b, index):  # Y32 Final Charge: asked before this Strike
            b["fc_asked"] = [b["round"], index]
            push(state, {"step": "card_pick", "kind": "final_charge", "side": "York", "card": "Y32",
                         "half": "capability", "index": index})
            return
        frame["stage"] = "strike"
        b["struck"] += 1
        self.strike(state, b, index, "melee")

    def strike(self, state: State, b: dict[str, Any], index: int, kind: str) -> None:
        """STRIKE: both sides' Hits are totalled at once; Defenders then Attackers apply the Hits
        they take (4.4.2 Missiles, Melee)."""
        eng = b["engagements"][index]
        d, a = b["defender"], b["attacker"]
        lords = {s: [lid for lid in eng if b["lords"][lid]["side"] == s] for s in (d, a)}
        hits = {d: side_hits(state, b, lords[a], kind), a: side_hits(state, b, lords[d], kind)}
        forced: list[Frame] = []
        for side in (d, a):  # hits[side]: the Hits side takes
            foe = other(side)
            if kind == "missile" and b["round"] == 1:  # Y1/Y2/L1/L2 Culverins & Falconets
                for lid in lords[foe]:
                    if lid in b["culverins"]:
                        dice = [roll(state) for _ in range(cr.culverin_dice(state, foe))]
                        hits[side] += sum(dice)
                        public(state, f"Culverins & Falconets of {_name(lid)}: {' + '.join(map(str, dice))} more "
                                      "Missile Hits.", LOG_BATTLE)
            if kind == "missile" and hits[side] and cr.leeward(state, side):  # Y1/L1 Leeward Battle Line
                hits[side] = (hits[side] + 1) // 2
                public(state, f"Leeward Battle Line: the Missile Hits on {side} are halved.", LOG_BATTLE)
            if kind == "melee" and side == "Lancaster" and b["caltrops"].get(str(index)):  # Y19 Caltrops
                hits[side] += b["caltrops"][str(index)]
                public(state, f"Caltrops: {b['caltrops'][str(index)]} more Melee Hits on Lancaster.", LOG_BATTLE)
        if kind == "melee" and b["final_charge"] == index:  # Y32 Final Charge
            b["final_charge"] = None
            hits["Lancaster"] += 3
            forced.append({"step": "hits", "side": "York", "lords": ["richard_iii"], "left": 1, "kind": kind,
                           "only": RETINUE})
            public(state, "Final Charge (Y32): Richard III's Retinue takes a Hit to deal 3 more.", LOG_BATTLE)
        b["strike"] = {"engagement": index, "kind": kind, "hits": dict(hits)}
        public(state, f"{kind.title()} (Engagement of {_name(eng[0])}): {a} Strikes {hits[d]} Hits, "
                      f"{d} Strikes {hits[a]} Hits.", LOG_BATTLE)
        frames = [{"step": "hits", "side": s, "lords": lords[s], "left": hits[s], "kind": kind}
                  for s in (d, a) if hits[s] > 0]
        if forced:  # Richard III's extra Hit goes with York's Hits (York applies its Hits after or before)
            at = next((i for i, f in enumerate(frames) if f["side"] == "York"), len(frames))
            frames[at:at] = forced
        push_all(state, frames)

    def stage_lord_rout(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        """LORD ROUT: a Lord Routs if his Retinue Routed or all his Troops Routed."""
        for lid, d in b["lords"].items():
            if d["routed"]:
                continue
            troops = state["lords"][lid]["mat"]["troops"]
            if d["retinue_routed"] or not any(troops[t] for t in TROOP_TYPES):
                d["routed"] = True
                why = "his Retinue Routed" if d["retinue_routed"] else "all his Troops Routed"
                public(state, f"{_name(lid)} Routs: {why} (4.4.2 Lord Rout).", LOG_BATTLE)
        if unrouted(b, b["defender"]) and unrouted(b, b["attacker"]):
            frame["stage"] = "round"
        else:
            frame["stage"] = "end"

    # 4.4.3 Ending the Battle
    def stage_end(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        d, a = b["defender"], b["attacker"]
        ud, ua = unrouted(b, d), unrouted(b, a)
        winner = d if ud and not ua else a if ua and not ud else None
        b["winner"] = winner
        b["strike"] = None
        if b["bosworth"]:  # On Bosworth Field: the Battle's winner wins; all Routed is a draw
            end_game(state, winner or DRAW, "The Battle of Bosworth is over: "
                     + (f"{winner} wins the Battle." if winner else "every Lord on both sides Routed."))
            return
        if winner is None:
            public(state, "Every Lord of both sides Routed: both sides lose the Battle (4.4.3).", LOG_BATTLE)
            frame["stage"] = "losses"
            return
        loser = other(winner)
        public(state, f"{winner} wins the Battle (4.4.3).", LOG_BATTLE)
        if winner == "York" and "richard_iii" in b["lords"] and fx.capability(state, "richard_iii", "bloody"):
            b["bloody"] = True  # Y33 Bloody thou art: no Death checks; Routed Lancastrians Die
        losers = battle_lords(b, loser)
        c = load()
        gain = sum(c.lords[lid]["influence"] + len(vassals_of(state, lid)) for lid in losers)
        sv.gain_influence(state, winner, gain)
        public(state, f"{winner} gains {gain} Influence: the printed Influence of the defeated Lords plus one "
                      "per Vassal (4.4.3).", LOG_BATTLE)
        if capture_applies(state, b):
            sv.gain_influence(state, "York", 10)
            public(state, "Capture of the King (Ia): the Yorkists defeated Henry VI and gain 10 more Influence.",
                   LOG_BATTLE)
        if "test_of_arms" in state["special_rules"] and b["locale"] == "York":
            sv.set_favour(state, "York", winner)
            public(state, f"Test of Arms (Ib): York now Favours {winner}.", LOG_BATTLE)
        frame["stage"] = "losses"
        total = {a_: sum(state["lords"][lid]["mat"]["assets"][a_] for lid in losers) for a_ in ("carts", "provender")}
        give = {a_: spoils_share(state, b["locale"], winner, n) for a_, n in total.items()}
        for lid in losers:  # the losers' mats are cleared by Death or Disband below anyway
            state["lords"][lid]["mat"]["assets"]["carts"] = 0
            state["lords"][lid]["mat"]["assets"]["provender"] = 0
        public(state, f"Spoils (4.4.3): the defeated Lords had {total['carts']} Carts and {total['provender']} "
                      f"Provender; {winner} takes {give['carts']} Carts and {give['provender']} Provender.",
               LOG_BATTLE)
        if give["carts"] or give["provender"]:
            push(state, {"step": "spoils", "side": winner, "to": unrouted(b, winner),
                         "carts": give["carts"], "provender": give["provender"]})

    def stage_losses(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        """LOSSES: each Unrouted Lord rolls for each Routed Troop against its inherent Protection;
        a Lord who loses all his Troops Disbands at once. Y30 Regroup may still be used first."""
        if not frame.get("regrouped"):
            frame["regrouped"] = True
            push_all(state, regroup_picks(b))
            return
        prot = forces()[2]
        for lid, d in b["lords"].items():
            if d["routed"] or state["lords"][lid]["where"] not in (Where.MAP, Where.BATTLE):
                continue
            mat = state["lords"][lid]["mat"]
            back = lost = 0
            for t in TROOP_TYPES:
                for _ in range(mat["routed"][t]):
                    if roll(state) <= prot[t]:
                        mat["troops"][t] += 1
                        back += 1
                    else:
                        lost += 1
                mat["routed"][t] = 0
            if back or lost:
                public(state, f"Losses (4.4.3): {_name(lid)} recovers {back} Routed Troops and loses {lost}.",
                       LOG_BATTLE)
            if not any(mat["troops"][t] for t in TROOP_TYPES):
                public(state, f"{_name(lid)} has lost all his Troops and Disbands (4.4.3).", LOG_BATTLE)
                sv.disband_lord(state, lid)
        frame["stage"] = "capture"
        if b["bloody"]:  # Y33 skips the Death checks and the cards played upon them
            return
        push_all(state, [{"step": "battle_event", "side": b["defender"], "window": "death"},
                         {"step": "battle_event", "side": b["attacker"], "window": "death"}])

    def stage_capture(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        frame["stage"] = "death"
        if capture_applies(state, b) and state["lords"]["henry_vi"]["where"] == Where.MAP:
            b["checked"].append("henry_vi")  # no Death check for him (Capture of the King)
            push(state, {"step": "capture", "side": "York", "king": "henry_vi"})

    def stage_death(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        frame["stage"] = "disband"
        if b["bloody"]:
            for lid in battle_lords(b, "Lancaster"):
                if b["lords"][lid]["routed"] and lid not in b["checked"] and state["lords"][lid]["where"] == Where.MAP:
                    b["checked"].append(lid)
                    public(state, f"Bloody thou art (Y33): {_name(lid)} Dies.", LOG_BATTLE)
                    die(state, b, lid)
            return
        push_all(state, [{"step": "death", "side": b["defender"]}, {"step": "death", "side": b["attacker"]}])

    def stage_disband(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        """DISBAND: Routed Lords who did not Die, and Routed Vassals of Unrouted Lords."""
        c = load()
        for lid, d in b["lords"].items():
            if state["lords"][lid]["where"] != Where.MAP:
                continue
            if d["routed"]:
                sv.disband_lord(state, lid)
                public(state, f"{_name(lid)} Disbands (4.4.3).", LOG_BATTLE)
                continue
            for v in d["vassals_routed"]:
                if v in c.vassals:
                    sv.disband_vassal(state, v)
                else:
                    sv.disband_special_vassal(state, lid, v)
                public(state, f"{_unit_name(v)} of {_name(lid)} Routed and Disbands (4.4.3).", LOG_BATTLE)
            d["vassals_routed"] = []
        frame["stage"] = "aftermath"

    # 4.4.4 Aftermath
    def stage_aftermath(self, state: State, frame: Frame, b: dict[str, Any]) -> None:
        remove_battle_troops(state, b)
        end_ravine(state, b)
        survivors = [lid for lid in b["lords"] if state["lords"][lid]["where"] == Where.MAP]
        state["moved"] = sorted(set(state["moved"]) | set(survivors))
        # Events: the Held Events used in this Battle went back to their decks when played
        # (arts.play_held); b["events"] only kept them in effect until now.
        if survivors:
            public(state, "Aftermath (4.4.4): " + ", ".join(_name(lid) for lid in survivors) + " marked Fought.",
                   LOG_BATTLE)
        state["battle"] = None
        pop(state)


def remove_battle_troops(state: State, b: dict[str, Any]) -> None:
    """Aftermath: the Troops a Capability added for this Battle go back to the pool (those left
    of them); a Lord left without Troops Disbands (1.6)."""
    for lid, troops in b["temp"].items():
        d = state["lords"][lid]
        if d["where"] != Where.MAP or not d["mat"]:
            continue
        mat = d["mat"]
        for t, n in troops.items():
            mat["troops"][t] -= min(n, mat["troops"][t])
        if not any(mat["troops"][t] for t in TROOP_TYPES):
            sv.disband_lord(state, lid)
            public(state, f"{_name(lid)} has no Troops left once the Battle's extra Troops go, and Disbands (1.6).",
                   LOG_BATTLE)
    b["temp"] = {}


def end_ravine(state: State, b: dict[str, Any]) -> None:
    """L12 Ravine lasts Round 1: its card leaves the Lord's mat for its deck."""
    lord = b["ravine"]
    if lord is None:
        return
    b["ravine"] = None
    mat = state["lords"][lord]["mat"]
    if mat:
        for cid in [c for c in mat["events"] if fx.EVENT_KEYS[c] == "ravine"]:
            mat["events"].remove(cid)
            arts.to_deck(state, fx.card_side(cid), cid)


def regroup_picks(b: dict[str, Any]) -> list[Frame]:
    """Y30 Regroup played in this Battle and not used yet: its side may use it now."""
    return [{"step": "card_pick", "kind": "regroup", "side": side, "card": "Y30"} for side in
            (b["defender"], b["attacker"]) if side in b["regroup"]]


def final_charge_possible(state: State, b: dict[str, Any], index: int) -> bool:
    """Y32 Final Charge: Richard III, with the Capability and his Retinue Unrouted, in this
    Engagement, not yet asked for this Strike."""
    if "richard_iii" not in b["engagements"][index] or b["fc_asked"] == [b["round"], index]:
        return False
    d = b["lords"]["richard_iii"]
    return not d["routed"] and not d["retinue_routed"] and fx.capability(state, "richard_iii", "final_charge") is not None


def remove_from_battle(state: State, lord: str) -> None:
    """A Lord leaves the Battle before its end (Y5/L5 Suspicion Disbands him, L16 Warden of the
    Marches moves him): out of the Array and the Battle's records."""
    b = state["battle"]
    side = b["lords"][lord]["side"]
    b["front"][side] = [None if x == lord else x for x in b["front"][side]]
    b["reserve"][side] = [x for x in b["reserve"][side] if x != lord]
    del b["lords"][lord]
    b["temp"].pop(lord, None)
    if b["late"] == lord:
        b["late"] = None


def die(state: State, b: dict[str, Any], lord: str) -> None:
    """A Routed Lord Dies (4.4.3): removed from the game; Foreign Haven if he was the Defending
    Warwick (II)."""
    b["dead"].append(lord)
    sv.remove_lord(state, lord)
    if lord == "warwick_l" and b["defender"] == "Lancaster":
        foreign_haven(state)


def _components(b: dict[str, Any]) -> list[list[str]]:
    """The Engagements: Lords joined by facing or Flanking each other, in Array order."""
    links: dict[str, str] = b["links"]
    adj: dict[str, set[str]] = {}
    for x, y in links.items():
        adj.setdefault(x, set()).add(y)
        adj.setdefault(y, set()).add(x)
    order = [lid for side in (b["defender"], b["attacker"]) for lid in b["front"][side] if lid is not None]
    seen: set[str] = set()
    out: list[list[str]] = []
    for lid in order:
        if lid in seen or lid not in adj:
            continue
        group = {lid}
        todo = [lid]
        while todo:
            x = todo.pop()
            for y in adj[x]:
                if y not in group:
                    group.add(y)
                    todo.append(y)
        seen |= group
        out.append([x for x in order if x in group])
    return out


def capture_applies(state: State, b: dict[str, Any]) -> bool:
    """Capture of the King (Ia): the Yorkists won a Battle against Henry VI."""
    return ("capture_of_the_king" in state["special_rules"] and b["winner"] == "York"
            and "henry_vi" in b["lords"])


# ----- 4.4.1 Array -----------------------------------------------------------------------------
class Array(SideDecision):
    """4.4.1: the Defenders fill Front center, then left and/or right, the rest in Reserve; the
    Attacker places one Lord opposite each Front Defender, center first, then any other empty
    Front position; Lords left over start in Reserve (RULINGS R43)."""

    name = "array"
    title = "Battle Array (4.4.1)"
    rule = "4.4.1"

    def choices(self, state: State, frame: Frame) -> list[Action]:
        b = state["battle"]
        side = frame["side"]
        front = b["front"][side]
        placed = set(front) | set(b["reserve"][side])
        free = [lid for lid in battle_lords(b, side) if lid not in placed and lid != b["late"]]
        if not free:
            return []
        if front[CENTER] is None:
            slots = [CENTER]
        else:
            empty = [i for i in (0, 2) if front[i] is None]
            if side == b["attacker"]:
                facing = [i for i in empty if b["front"][b["defender"]][i] is not None]
                slots = facing or empty
            else:
                slots = empty
        return [("place", f"{slot_name(b, side, i)}:{lid}") for i in slots for lid in free]

    def ask(self, state: State, frame: Frame) -> str:
        return "Battle Array (4.4.1): place a Lord in the Front."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb != "place":
            return None
        slot, lid = arg.split(":")
        return f"{_name(lid)} to Front {slot}"

    def why_not_place(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        """Why the Lord may not go to that Front position (the Array is public, 1.5.3)."""
        if not isinstance(arg, str) or arg.count(":") != 1:
            return "name a Front position and a Lord as position:lord."
        slot, lid = arg.split(":")
        b = state["battle"]
        side = frame["side"]
        front = b["front"][side]
        if slot not in DEFENDER_SLOTS:
            return f"{slot} is not a Front position: left, center or right (4.4.1)."
        placed = set(front) | set(b["reserve"][side])
        if lid not in battle_lords(b, side) or lid in placed or lid == b["late"]:
            return f"{lid} is not one of your Lords in this Battle still to place (4.4.1)."
        i = slot_index(b, side, slot)
        if front[i] is not None:
            return f"Front {slot} has {_name(front[i])} already (4.4.1)."
        if front[CENTER] is None:
            return "the Front center is filled first (4.4.1)."
        return "the Attacker places a Lord opposite each Front Defender first (4.4.1)."

    def on_place(self, state: State, frame: Frame, role: str, arg: str) -> None:
        b = state["battle"]
        slot, lid = arg.split(":")
        b["front"][frame["side"]][slot_index(b, frame["side"], slot)] = lid

    def finish(self, state: State, frame: Frame) -> None:
        b = state["battle"]
        side = frame["side"]
        placed = set(b["front"][side])
        b["reserve"][side] = [lid for lid in battle_lords(b, side) if lid not in placed]
        pop(state)


# ----- Held Event windows (3.1.3, 4.4.1 EVENTS, 4.4.3 Death check Events) -----------------------
class BattleEvent(reactions.React):
    """A window in which ``side`` may play Held Events "in Battle" (after the Array, 4.4.1) or
    upon the Death checks (4.4.3): a reaction window (:mod:`reactions`, described in
    :mod:`cards` as ``array`` and ``death``). Events played stay in effect for this Battle
    (``battle["events"]``, 4.4.4)."""

    name = "battle_event"
    phase = BATTLE
    rule = "4.4.1, 4.4.3"


# ----- 4.4.2 Flee, Reposition, Engage ----------------------------------------------------------
class Flee(Step):
    """FLEE: the side declares which of its Lords Flee; they Rout at once (Retinue "Fled")."""

    name = "flee"
    phase = BATTLE
    rule = "4.4.2"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]] if unrouted(state["battle"], frame["side"]) else []

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return [("done", None)] + [("flee", lid) for lid in unrouted(state["battle"], frame["side"])]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role == frame["side"]:
            return f"Round {state['battle']['round']}: declare which of your Lords Flee, if any (4.4.2 Flee)."
        return f"Round {state['battle']['round']}: waiting for {frame['side']} to declare Flight."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb == "done":
            return "No (more) Lords Flee"
        return f"{_name(arg)} Flees" if verb == "flee" else None

    def run(self, state: State, frame: Frame) -> None:
        pop(state)

    def on_done(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)

    def on_flee(self, state: State, frame: Frame, role: str, lord: str) -> None:
        d = state["battle"]["lords"][lord]
        d["routed"] = d["fled"] = True
        public(state, f"{_name(lord)} Flees and Routs (4.4.2).", LOG_BATTLE)


class Advance(SideDecision):
    """REPOSITION, Advance: Unrouted Lords in Reserve slide into empty Front positions, one per
    position (RULINGS R43: while both exist). Norfolk, if Late, waits for Round 2 (Ib)."""

    name = "advance"
    title = "Reposition: Advance (4.4.2)"
    rule = "4.4.2"

    def choices(self, state: State, frame: Frame) -> list[Action]:
        b = state["battle"]
        side = frame["side"]
        lords = [lid for lid in b["reserve"][side] if not (lid == b["late"] and b["round"] < 2)]
        if not lords:
            return []
        empty = [i for i in range(3) if b["front"][side][i] is None]
        return [("advance", f"{slot_name(b, side, i)}:{lid}") for i in empty for lid in lords]

    def ask(self, state: State, frame: Frame) -> str:
        return "Reposition (4.4.2 Advance): move a Lord from Reserve into an empty Front position."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb != "advance":
            return None
        slot, lid = arg.split(":")
        return f"{_name(lid)} advances to Front {slot}"

    def on_advance(self, state: State, frame: Frame, role: str, arg: str) -> None:
        b = state["battle"]
        slot, lid = arg.split(":")
        side = frame["side"]
        b["reserve"][side].remove(lid)
        b["front"][side][slot_index(b, side, slot)] = lid
        public(state, f"{_name(lid)} advances to Front {slot} (4.4.2).", LOG_BATTLE)


class Center(SideDecision):
    """REPOSITION, Center: an empty Front center is filled from the left or right Front."""

    name = "center"
    title = "Reposition: Center (4.4.2)"
    rule = "4.4.2"

    def choices(self, state: State, frame: Frame) -> list[Action]:
        front = state["battle"]["front"][frame["side"]]
        if front[CENTER] is not None:
            return []
        return [("center", lid) for lid in (front[0], front[2]) if lid is not None]

    def ask(self, state: State, frame: Frame) -> str:
        return "Reposition (4.4.2 Center): slide a Lord into the empty Front center."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        return f"{_name(arg)} slides to the center" if verb == "center" else None

    def on_center(self, state: State, frame: Frame, role: str, lord: str) -> None:
        front = state["battle"]["front"][frame["side"]]
        front[front.index(lord)] = None
        front[CENTER] = lord
        public(state, f"{_name(lord)} slides to the Front center (4.4.2).", LOG_BATTLE)


class Flank(SideDecision):
    """ENGAGE, Flanking: a center Lord with no Enemy opposite and Enemies both left and right
    chooses which to Flank."""

    name = "flank"
    title = "Engage: Flanking (4.4.2)"
    rule = "4.4.2"

    def choices(self, state: State, frame: Frame) -> list[Action]:
        if frame["lord"] in state["battle"]["links"]:
            return []
        return [("flank", t) for t in frame["targets"]]

    def ask(self, state: State, frame: Frame) -> str:
        return f"{_name(frame['lord'])} has no Enemy opposite: choose which Enemy Lord he Flanks (4.4.2)."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        return f"Flank {_name(arg)}" if verb == "flank" else None

    def on_flank(self, state: State, frame: Frame, role: str, target: str) -> None:
        state["battle"]["links"][frame["lord"]] = target
        public(state, f"{_name(frame['lord'])} Flanks {_name(target)} (4.4.2).", LOG_BATTLE)


class Order(SideDecision):
    """STRIKE: the Attacker declares the order of the Engagements."""

    name = "order"
    title = "Strike: order of the Engagements (4.4.2)"
    rule = "4.4.2"

    def choices(self, state: State, frame: Frame) -> list[Action]:
        b = state["battle"]
        return [("engagement", i) for i in range(len(b["engagements"])) if i not in b["order"]]

    def ask(self, state: State, frame: Frame) -> str:
        return "Declare which Engagement Strikes next (4.4.2 Strike)."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb != "engagement":
            return None
        return "Engagement of " + " and ".join(_name(lid) for lid in state["battle"]["engagements"][arg])

    def on_engagement(self, state: State, frame: Frame, role: str, index: int) -> None:
        state["battle"]["order"].append(index)


# ----- 4.4.2 Strike: Hits, Protection, Valour ------------------------------------------------
class Hits(SideDecision):
    """APPLY HITS: the side assigns the Hits it takes one at a time to any Unrouted unit of its
    Lords in the Engagement; each Hit rolls against the unit's Protection (a failed roll may be
    rerolled with a Valour marker of the unit's Lord, :class:`Valour`). Hits left when no unit
    can take them are lost."""

    name = "hits"
    title = "Strike: apply Hits (4.4.2)"
    rule = "4.4.2"

    def choices(self, state: State, frame: Frame) -> list[Action]:
        if frame["left"] <= 0:
            return []
        lords = state["battle"]["lords"]
        only = frame.get("only")  # Y32 Final Charge: the Hit goes to Richard III's Retinue
        return [("hit", f"{lid}:{u}") for lid in frame["lords"] for u in units(state, lid, lords[lid])
                if only is None or u == only]

    def why_not_hit(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        """Why a Hit may not go to the unit ``arg`` ("lord:unit"; everything in Battle is public,
        1.5.3)."""
        if not isinstance(arg, str) or arg.count(":") != 1:
            return "name a unit as Lord:unit."
        lid, unit = arg.split(":")
        if lid not in frame["lords"]:
            who = " and ".join(_name(x) for x in frame["lords"])
            return f"the Hits go to the units of {who}, the side's Lords in this Engagement (4.4.2)."
        only = frame.get("only")
        if only is not None and unit != only:
            return f"Final Charge: the Hit goes to {_name(lid)}'s {_unit_name(only)} (Y32)."
        mat = state["lords"][lid]["mat"]
        if unit != RETINUE and unit not in mat["troops"] and unit not in mat["vassals"] \
                and unit not in mat["special_vassals"]:
            return f"{_name(lid)} has no such unit."
        return f"{_name(lid)}'s {_unit_name(unit)} is Routed or gone: only Unrouted units take Hits (4.4.2)."

    def is_legal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> bool:
        """The same answer as membership of :meth:`options`, without listing them."""
        if verb != "hit" or not isinstance(arg, str) or arg.count(":") != 1 or frame["left"] <= 0:
            return False
        lid, unit = arg.split(":")
        if lid not in frame["lords"] or frame.get("only") not in (None, unit):
            return False
        b = state["battle"]["lords"][lid]
        mat = state["lords"][lid]["mat"]
        if unit == RETINUE:
            return not b["retinue_routed"]
        if unit in mat["troops"]:
            return bool(mat["troops"][unit] > 0)
        return (unit in mat["vassals"] or unit in mat["special_vassals"]) and unit not in b["vassals_routed"]

    def finish(self, state: State, frame: Frame) -> None:
        if frame["left"] > 0:
            public(state, f"{frame['left']} Hits on {frame['side']} find no unit to take them.", LOG_BATTLE)
        pop(state)

    def ask(self, state: State, frame: Frame) -> str:
        return (f"{frame['kind'].title()}: {frame['left']} Hits left to take: choose the unit that takes the next "
                "Hit (4.4.2).")

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb != "hit":
            return None
        lid, unit = arg.split(":")
        return f"{_name(lid)}: {_unit_name(unit)} (Protection {_range(protection(state, lid, unit, frame['kind']))})"

    def on_hit(self, state: State, frame: Frame, role: str, arg: str) -> None:
        lid, unit = arg.split(":")
        frame["left"] -= 1
        prot = protection(state, lid, unit, frame["kind"])
        r = roll(state)
        who = f"{_name(lid)}'s {_unit_name(unit)}"
        if r <= prot:
            public(state, f"Hit on {who}: rolls {r}, Protected ({_range(prot)}).", LOG_BATTLE)
        elif state["battle"]["lords"][lid]["valour"] > 0 or yeomen_possible(state, lid, unit):
            public(state, f"Hit on {who}: rolls {r}, fails its Protection ({_range(prot)}).", LOG_BATTLE)
            push(state, {"step": "valour", "side": frame["side"], "lord": lid, "unit": unit, "kind": frame["kind"]})
        else:
            public(state, f"Hit on {who}: rolls {r} and Routs.", LOG_BATTLE)
            rout_unit(state, lid, unit)


class Valour(Step):
    """VALOUR REROLLS: the unit's own Lord may spend one Valour marker to reroll its failed
    Protection roll, once; the reroll stands."""

    name = "valour"
    phase = BATTLE
    always_decides = True
    rule = "4.4.2"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [frame["side"]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        out: list[Action] = []
        if state["battle"]["lords"][frame["lord"]]["valour"] > 0 and not frame.get("rerolled"):
            out.append(("reroll", None))
        if yeomen_possible(state, frame["lord"], frame["unit"]):
            out.append(("yeomen", None))
        return out + [("rout", None)]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        left = state["battle"]["lords"][frame["lord"]]["valour"]
        if frame.get("rerolled") or left <= 0:
            return (f"{_name(frame['lord'])}'s Retinue failed its Protection roll: Rout one of her Men-at-Arms "
                    "instead (Yeomen of the Crown, L31), or let it Rout?" if role == frame["side"]
                    else f"Waiting for {frame['side']} to decide on Yeomen of the Crown.")
        if role == frame["side"]:
            return (f"{_name(frame['lord'])}'s {_unit_name(frame['unit'])} failed its Protection roll: spend one of his "
                    f"{left} Valour markers to reroll it, or let it Rout (4.4.2)?")
        return f"Waiting for {frame['side']} to decide on a Valour reroll."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb == "yeomen":
            return "Rout one of her Men-at-Arms instead (Yeomen of the Crown, L31)"
        if verb == "reroll":
            return "Reroll (spend a Valour marker)"
        return "Let the unit Rout" if verb == "rout" else None

    def on_rout(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        pop(state)
        public(state, f"{_name(frame['lord'])}'s {_unit_name(frame['unit'])} Routs.", LOG_BATTLE)
        rout_unit(state, frame["lord"], frame["unit"])

    def on_yeomen(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """L31 Yeomen of the Crown: one of her Unrouted Men-at-Arms Routs instead of the Retinue."""
        pop(state)
        public(state, f"Yeomen of the Crown (L31): {_name(frame['lord'])} Routs one Men-at-Arms instead of her "
                      "Retinue.", LOG_BATTLE)
        rout_unit(state, frame["lord"], "men_at_arms")

    def on_reroll(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        lid, unit = frame["lord"], frame["unit"]
        state["battle"]["lords"][lid]["valour"] -= 1
        prot = protection(state, lid, unit, frame.get("kind", "melee"))
        r = roll(state)
        if r <= prot:
            public(state, f"{_name(lid)} spends Valour: the reroll is {r}, Protected.", LOG_BATTLE)
            pop(state)
        elif yeomen_possible(state, lid, unit):
            public(state, f"{_name(lid)} spends Valour: the reroll is {r}, failed again.", LOG_BATTLE)
            frame["rerolled"] = True
        else:
            pop(state)
            public(state, f"{_name(lid)} spends Valour: the reroll is {r}; {_unit_name(unit)} Routs.", LOG_BATTLE)
            rout_unit(state, lid, unit)


def yeomen_possible(state: State, lord: str, unit: str) -> bool:
    """L31 Yeomen of the Crown: Margaret's failed Retinue roll may Rout one of her Unrouted
    Men-at-Arms instead."""
    return (unit == RETINUE and state["lords"][lord]["mat"]["troops"]["men_at_arms"] > 0
            and fx.capability(state, lord, "yeomen") is not None)


# ----- 4.4.3 Spoils, Capture, Death ------------------------------------------------------------
class Spoils(SideDecision):
    """SPOILS (4.4.3; Exile 4.3.5): the winners share out the Carts and Provender taken among
    their Unrouted (Approaching) Lords as they wish."""

    name = "spoils"
    title = "Spoils (4.4.3)"
    rule = "4.4.3"

    def recipients(self, state: State, frame: Frame) -> list[str]:
        return [lid for lid in frame["to"] if state["lords"][lid]["where"] == Where.MAP]

    def choices(self, state: State, frame: Frame) -> list[Action]:
        if not (frame["carts"] or frame["provender"]):
            return []
        to = self.recipients(state, frame)
        if len(to) == 1:
            return [("give_all", to[0])]
        out: list[Action] = []
        for lid in to:
            out.append(("give_all", lid))
            out += [("give", f"{lid}:{a}") for a in ("carts", "provender") if frame[a]]
        return out

    def finish(self, state: State, frame: Frame) -> None:
        if frame["carts"] or frame["provender"]:
            public(state, "No Lord is left to take the Spoils.", LOG_BATTLE)
        pop(state)

    def ask(self, state: State, frame: Frame) -> str:
        return (f"Spoils: {frame['carts']} Carts and {frame['provender']} Provender to share out among your "
                "Lords (4.4.3).")

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb == "give_all":
            return f"All that is left to {_name(arg)}"
        if verb != "give":
            return None
        lid, asset = arg.split(":")
        return f"1 {'Cart' if asset == 'carts' else 'Provender'} to {_name(lid)}"

    def on_give_all(self, state: State, frame: Frame, role: str, lord: str) -> None:
        assets = state["lords"][lord]["mat"]["assets"]
        assets["carts"] += frame["carts"]
        assets["provender"] += frame["provender"]
        public(state, f"{_name(lord)} takes {frame['carts']} Carts and {frame['provender']} Provender as Spoils.",
               LOG_BATTLE)
        frame["carts"] = frame["provender"] = 0

    def on_give(self, state: State, frame: Frame, role: str, arg: str) -> None:
        lid, asset = arg.split(":")
        state["lords"][lid]["mat"]["assets"][asset] += 1
        frame[asset] -= 1
        public(state, f"{_name(lid)} takes 1 {asset} as Spoils.", LOG_BATTLE)


class Capture(SideDecision):
    """Capture of the King (Ia): instead of a Death check Henry VI Disbands and the Yorkists put
    his cylinder on the mat of an Unrouted Yorkist Lord at the Battle (RULINGS R44)."""

    name = "capture"
    title = "Capture of the King (Ia)"
    rule = "6.0 Ia"

    def choices(self, state: State, frame: Frame) -> list[Action]:
        if state["lords"][frame["king"]]["where"] != Where.MAP:
            return []
        b = state["battle"]
        return [("hold", lid) for lid in unrouted(b, "York") if state["lords"][lid]["where"] == Where.MAP]

    def ask(self, state: State, frame: Frame) -> str:
        return "Capture of the King: choose the Unrouted Yorkist Lord who holds Henry VI."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        return f"{_name(arg)} holds Henry VI" if verb == "hold" else None

    def on_hold(self, state: State, frame: Frame, role: str, holder: str) -> None:
        sv.hold_captive(state, frame["king"], holder)
        public(state, f"Henry VI Disbands and is held on {_name(holder)}'s mat (Capture of the King).", LOG_BATTLE)

    def finish(self, state: State, frame: Frame) -> None:
        king = frame["king"]
        if state["lords"][king]["where"] == Where.MAP:  # no Unrouted Yorkist Lord is left (RULINGS R44)
            sv.disband_lord(state, king)
            sv.gain_influence(state, "Lancaster", 10)
            public(state, "No Unrouted Yorkist Lord is left to hold Henry VI: he Disbands to the Calendar and "
                          "the Lancastrians gain 10 Influence (Capture of the King).", LOG_BATTLE)
        pop(state)


class Death(SideDecision):
    """DEATH CHECK: the side rolls for each of its Routed Lords, one by one in the order it
    chooses; 3-6 Dies, 2 less for a Lord who Fled. Wars of the Roses, Surrender (6.1.1): in the
    first or second War, while the side's last Heir of the War still has to roll, the side may
    concede the War instead (``surrender``, the Heir's id as argument)."""

    name = "death"
    title = "Death checks (4.4.3)"
    rule = "4.4.3"

    def choices(self, state: State, frame: Frame) -> list[Action]:
        b = state["battle"]
        out: list[Action] = []
        side = frame["side"]
        for lid in battle_lords(b, side):
            if b["lords"][lid]["routed"] and lid not in b["checked"] and state["lords"][lid]["where"] == Where.MAP:
                out.append(("check", lid))
                if may_exile_instead_of_death(state, lid):
                    out.append(("exile", lid))
                if fx.battle_event(state, "escape_ship", side):  # Y3/Y9/L3: Exile instead
                    out.append(("escape", lid))
                if fx.battle_event(state, "talbot", side):  # L36: Disband instead
                    out.append(("talbot", lid))
                if fx.battle_event(state, "warden", side):  # L16: to a Friendly Stronghold in the North
                    out += [("warden", f"{lid}:{loc}") for loc in cr.warden_places(state)
                            if not shaky_allies(state, [lid], loc)]  # R87
                if wars.surrender_possible(state, side, lid):
                    out.append(("surrender", lid))
        return out

    def ask(self, state: State, frame: Frame) -> str:
        return "Choose the Routed Lord who checks for Death next (4.4.3)."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb == "exile":
            return f"{_name(arg)} goes into Exile instead (Foreign Haven)"
        if verb == "escape":
            return f"{_name(arg)} goes into Exile instead (Escape Ship)"
        if verb == "talbot":
            return f"{_name(arg)} Disbands instead (Talbot to the Rescue)"
        if verb == "warden":
            lid, loc = arg.split(":")
            return f"{_name(lid)} goes to {loc} instead (Warden of the Marches)"
        if verb == "surrender":
            return f"Surrender: concede War {wars.number(state)} before {_name(arg)}, your last Heir, rolls (6.1.1)"
        if verb != "check":
            return None
        fled = " (Fled: -2)" if state["battle"]["lords"][arg]["fled"] else ""
        return f"Death check for {_name(arg)}{fled}"

    def why_not_check(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        """Why that Lord does not check for Death now (everything in Battle is public)."""
        b = state["battle"]
        if not isinstance(arg, str) or arg not in battle_lords(b, frame["side"]):
            return f"{arg} is not one of your Lords in this Battle (4.4.3)."
        if not b["lords"][arg]["routed"]:
            return f"{_name(arg)} is not Routed: only Routed Lords check for Death (4.4.3)."
        if arg in b["checked"]:
            return f"{_name(arg)} has checked for Death already (4.4.3)."
        return None

    def on_surrender(self, state: State, frame: Frame, role: str, lord: str) -> None:
        """6.1.1: the side concedes the War as its loser; its last Heir does not roll. The War
        ends at once (the rest of the Battle is not played) and the next War is set up."""
        wars.surrender(state, role, lord)

    def on_exile(self, state: State, frame: Frame, role: str, lord: str) -> None:
        """Foreign Haven: Exile (4.3.5) instead of the Death check. His Carts and Provender are
        already gone as Spoils if his side lost, and no Enemy is left to take them if it won."""
        state["battle"]["checked"].append(lord)
        public(state, f"Foreign Haven: {_name(lord)} does not check for Death.", LOG_BATTLE)
        go_into_exile(state, lord)

    def on_escape(self, state: State, frame: Frame, role: str, lord: str) -> None:
        """Y3/Y9/L3 Escape Ship: Exile (4.3.5) instead of the Death check: the Influence
        penalty, Disband with an Exile marker (Y8 England is my home: Disband to the next box)."""
        state["battle"]["checked"].append(lord)
        public(state, f"Escape Ship: {_name(lord)} does not check for Death.", LOG_BATTLE)
        go_into_exile(state, lord)

    def on_talbot(self, state: State, frame: Frame, role: str, lord: str) -> None:
        """L36 Talbot to the Rescue: the Routed Lord Disbands (3.2.4) instead of the Death check."""
        state["battle"]["checked"].append(lord)
        sv.disband_lord(state, lord)
        public(state, f"Talbot to the Rescue: {_name(lord)} Disbands instead of checking for Death.", LOG_BATTLE)

    def on_warden(self, state: State, frame: Frame, role: str, arg: str) -> None:
        """L16 Warden of the Marches: the Routed Lord goes to a Friendly Stronghold in the North
        (not the Battle's) instead of Death or Disband, keeping his Assets, Capabilities and
        Unrouted Troops; his Routed Troops and Vassals are lost; with no Troops he Disbands (1.6)."""
        lord, loc = arg.split(":")
        b = state["battle"]
        d = state["lords"][lord]
        mat = d["mat"]
        for v in b["lords"][lord]["vassals_routed"]:
            if v in load().vassals:
                sv.disband_vassal(state, v)
            else:
                sv.disband_special_vassal(state, lord, v)
        for t in TROOP_TYPES:
            mat["routed"][t] = 0
        remove_from_battle(state, lord)
        d["locale"] = loc
        public(state, f"Warden of the Marches: {_name(lord)} goes to {loc} instead of checking for Death.", LOG_BATTLE)
        if not any(mat["troops"][t] for t in TROOP_TYPES):
            sv.disband_lord(state, lord)
            public(state, f"{_name(lord)} has no Troops and Disbands (1.6).", LOG_BATTLE)
        else:
            reactions.moved(state, [lord])

    def on_check(self, state: State, frame: Frame, role: str, lord: str) -> None:
        b = state["battle"]
        b["checked"].append(lord)
        r = roll(state)
        fled = b["lords"][lord]["fled"]
        total = r + (FLED_MODIFIER if fled else 0)
        shown = f"{r}{FLED_MODIFIER} = {total}" if fled else str(r)
        if total >= DEATH_ROLL:
            public(state, f"Death check for {_name(lord)}: {shown}: he Dies (4.4.3).", LOG_BATTLE)
            die(state, b, lord)
        else:
            public(state, f"Death check for {_name(lord)}: {shown}: he survives.", LOG_BATTLE)


# ----- On Bosworth Field ---------------------------------------------------------------------
#: The Bosworth Attacker (RULINGS R41): the Lancastrian Rebels, who came to Richard.
BOSWORTH_ATTACKER: Final = "Lancaster"


def bosworth_frames(state: State) -> list[Frame]:
    """The stack that starts the Bosworth battle mini-scenario (bottom first)."""
    return [{"step": "bosworth", "picks": {s: [] for s in (state["rebel"], state["king"])},
             "front": {s: {} for s in (state["rebel"], state["king"])}, "locked": []}]


@cache
def _cards_for(lord: str) -> frozenset[str]:
    """The Capability cards whose badges allow ``lord`` (1.9.1, 3.4.6)."""
    c = load()
    badge = c.lords[lord]["badge"]
    return frozenset(cid for cid in c.cards if (b := arts.eligible_badges(cid)) is None or badge in b)


@cache
def _titles() -> dict[str, str]:
    """Each card's Capability name (two cards may share one, 1.9.1)."""
    return {cid: arts.capability_title(cid) for cid in load().cards}


def _eligible(cid: str, lord: str, picks: list[list[str]]) -> bool:
    """3.4.6 as for a Levied Capability: an eligible badge, at most two per Lord and none with
    the same name, counting the Lord's Capabilities chosen so far."""
    if cid not in _cards_for(lord) or any(x == cid for x, _ in picks):
        return False
    mine = [x for x, at in picks if at == lord]
    if len(mine) >= MAX_CAPABILITIES:
        return False
    title = arts.capability_title(cid)
    return all(arts.capability_title(x) != title for x in mine)


class Bosworth(Step):
    """On Bosworth Field: both sides at once, behind their screens, choose four Capabilities
    (each for an eligible Lord, at most two per Lord), place one Lord at each Front position,
    and lock in. Nothing is shown to the other side until both have locked in; then the
    choices are revealed and the Battle begins with Round 1."""

    name = "bosworth"
    phase = BATTLE
    rule = "6.0 III(B)"

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [s for s in (state["rebel"], state["king"]) if s not in frame["locked"]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        picks = frame["picks"][role]
        lords = [lid for lid, d in state["lords"].items() if d["where"] == Where.BATTLE and sv.side_of(lid) == role]
        if len(picks) < BOSWORTH_CAPABILITIES:
            taken = {cid for cid, _ in picks}
            titles = _titles()
            open_to = [(lid, _cards_for(lid), {titles[x] for x, at in picks if at == lid}) for lid in lords
                       if sum(1 for _, at in picks if at == lid) < MAX_CAPABILITIES]
            return [("capability", f"{cid}:{lid}") for cid in state["aow"][role]["deck"] if cid not in taken
                    for lid, cards, used in open_to if cid in cards and titles[cid] not in used]
        front = frame["front"][role]
        if len(front) < len(DEFENDER_SLOTS):
            free = [lid for lid in lords if lid not in front.values()]
            return [("front", f"{slot}:{lid}") for slot in DEFENDER_SLOTS if slot not in front for lid in free]
        return [("lock", None)]

    def is_legal(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> bool:
        """The same answer as membership of :meth:`options`, without listing them."""
        picks = frame["picks"][role]
        front = frame["front"][role]
        if verb == "capability":
            if len(picks) >= BOSWORTH_CAPABILITIES or not isinstance(arg, str) or arg.count(":") != 1:
                return False
            cid, lid = arg.split(":")
            rec = state["lords"].get(lid)
            return (rec is not None and rec["where"] == Where.BATTLE and sv.side_of(lid) == role
                    and cid in state["aow"][role]["deck"] and _eligible(cid, lid, picks))
        if len(picks) < BOSWORTH_CAPABILITIES:
            return False
        if verb == "front":
            if len(front) >= len(DEFENDER_SLOTS) or not isinstance(arg, str) or arg.count(":") != 1:
                return False
            slot, lid = arg.split(":")
            rec = state["lords"].get(lid)
            return (slot in DEFENDER_SLOTS and slot not in front and rec is not None
                    and rec["where"] == Where.BATTLE and sv.side_of(lid) == role and lid not in front.values())
        return verb == "lock" and arg is None and len(front) == len(DEFENDER_SLOTS)

    def why_not_capability(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        """Why ``role``'s Capability pick ``arg`` ("card:lord") is refused: only its own picks,
        deck and Lords are spoken of (the other side's are secret until the reveal)."""
        picks = frame["picks"][role]
        if len(picks) >= BOSWORTH_CAPABILITIES:
            return f"your {BOSWORTH_CAPABILITIES} Capabilities are chosen (On Bosworth Field)."
        if not isinstance(arg, str) or arg.count(":") != 1:
            return "name a Capability and its Lord as card:lord."
        cid, lid = arg.split(":")
        rec = state["lords"].get(lid)
        if rec is None or rec["where"] != Where.BATTLE or sv.side_of(lid) != role:
            return f"{lid} is not one of your Lords on Bosworth Field."
        if cid not in state["aow"][role]["deck"] or any(x == cid for x, _ in picks):
            return f"{cid} is not one of your Arts of War cards left to choose."
        if cid not in _cards_for(lid):
            return f"{_name(lid)}'s Livery Badge may not hold {cid} {_titles()[cid]} (1.9.1, 3.4.6)."
        if sum(1 for _, at in picks if at == lid) >= MAX_CAPABILITIES:
            return f"{_name(lid)} has two Capabilities already: a Lord holds at most two (3.4.6)."
        return f"{_name(lid)} has a Capability named {_titles()[cid]} already: a Lord's two differ (3.4.6)."

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role not in self.actors(state, frame):
            if role in frame["locked"]:
                return "On Bosworth Field: your choices are locked in; waiting for the other side."
            return "On Bosworth Field: both sides choose Capabilities and Array in secret."
        picks = frame["picks"][role]
        if len(picks) < BOSWORTH_CAPABILITIES:
            return (f"On Bosworth Field: choose Capability {len(picks) + 1} of {BOSWORTH_CAPABILITIES} and the Lord "
                    "who takes it (at most two per Lord).")
        if len(frame["front"][role]) < len(DEFENDER_SLOTS):
            return "On Bosworth Field: place one Lord at each Front position (left, center, right)."
        return "On Bosworth Field: lock in your Capabilities and Array (they are revealed when both sides have)."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb == "lock":
            return "Lock in"
        if verb not in ("capability", "front"):
            return None
        a, lid = arg.split(":")
        if verb == "capability":
            return f"{a} {load().cards[a]['capability']['title']} for {_name(lid)}"
        return f"{_name(lid)} at Front {a}"

    def on_capability(self, state: State, frame: Frame, role: str, arg: str) -> None:
        cid, lid = arg.split(":")
        frame["picks"][role].append([cid, lid])
        private(state, role, f"You choose {cid} {load().cards[cid]['capability']['title']} for {_name(lid)}.",
                LOG_BATTLE)

    def on_front(self, state: State, frame: Frame, role: str, arg: str) -> None:
        slot, lid = arg.split(":")
        front = frame["front"][role]
        front[slot] = lid
        left = [s for s in DEFENDER_SLOTS if s not in front]
        if len(left) == 1:  # the last Lord goes to the last position
            lords = [x for x, d in state["lords"].items() if d["where"] == Where.BATTLE and sv.side_of(x) == role]
            front[left[0]] = next(x for x in lords if x not in front.values())
        private(state, role, "Your Array: " + ", ".join(f"{s} {_name(x)}" for s, x in front.items()) + ".", LOG_BATTLE)

    def on_lock(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        frame["locked"].append(role)
        public(state, f"{role} has locked in its Capabilities and Array.", LOG_BATTLE)
        if len(frame["locked"]) == 2:
            self.reveal(state, frame)

    def reveal(self, state: State, frame: Frame) -> None:
        c = load()
        for side in (state["rebel"], state["king"]):
            for cid, lid in frame["picks"][side]:
                arts.deploy_capability(state, lid, cid)
            public(state, f"{side} reveals its Capabilities: " + ", ".join(
                f"{cid} {c.cards[cid]['capability']['title']} ({_name(lid)})" for cid, lid in frame["picks"][side])
                + ".", LOG_BATTLE)
        mark_reveal(state)
        lords = {s: [lid for lid, d in state["lords"].items() if d["where"] == Where.BATTLE and sv.side_of(lid) == s]
                 for s in (state["rebel"], state["king"])}
        b = start_battle(state, None, BOSWORTH_ATTACKER, lords)
        for side in (b["defender"], b["attacker"]):
            for slot, lid in frame["front"][side].items():
                b["front"][side][slot_index(b, side, slot)] = lid
        replace(state, {"step": "battle", "stage": "array_events"})


#: The Battle's steps, for the game's step table.
BATTLE_STEPS: Final[list[Step]] = [Approach(), BattleDriver(), Array(), BattleEvent(), Flee(), Advance(), Center(),
                            Flank(), Order(), Hits(), Valour(), Spoils(), Capture(), Death(), Bosworth()]


# ----- what this part adds to views, secrets and invariants (joined in rules.py) -------------
def view_part(state: State, role: str) -> dict[str, Any]:
    """Entries this part adds to ``role``'s view (already redacted for ``role``): the Battle
    (all public, 1.5.3) and, before the Bosworth reveal, the role's own secret choices."""
    return {**public_view_part(state), **own_view_part(state, role)}


def public_view_part(state: State) -> dict[str, Any]:
    """The Battle (all public, 1.5.3): the entry of :func:`view_part` the same for every role."""
    b = state.get("battle")
    if b is None:
        return {}
    return {"battle": {
        "locale": b["locale"], "attacker": b["attacker"], "defender": b["defender"], "round": b["round"],
        "front": {s: {slot_name(b, s, i): lid for i, lid in enumerate(b["front"][s]) if lid}
                  for s in (b["defender"], b["attacker"])},
        "reserve": {s: list(b["reserve"][s]) for s in (b["defender"], b["attacker"])},
        "lords": {lid: dict(d, vassals_routed=list(d["vassals_routed"])) for lid, d in b["lords"].items()},
        "late": b["late"], "engagements": [list(e) for e in b["engagements"]],
        "strike": None if b["strike"] is None else dict(b["strike"], hits=dict(b["strike"]["hits"])),
        "winner": b["winner"],
    }}


def own_view_part(state: State, role: str, frame: Frame | None = None) -> dict[str, Any]:
    """Before the Bosworth reveal, ``role``'s own secret choices (and who has locked in).
    ``frame``: the Bosworth frame if the caller has it (else it is looked for)."""
    if frame is None:
        frame = find(state, "bosworth")
    if frame is None:
        return {}
    mine: dict[str, Any] = {"locked": list(frame["locked"])}
    if role in frame["picks"]:
        mine["capabilities"] = [list(p) for p in frame["picks"][role]]
        mine["front"] = dict(frame["front"][role])
    return {"bosworth": mine}


def describe_battle(view: dict[str, Any]) -> list[str]:
    """Terminal lines for the Battle in a view: each side's Array and each Lord's Forces."""
    b = view["battle"]
    where = f" at {b['locale']}" if b["locale"] else ""
    lines = [f"Battle{where}, Round {b['round']}: {b['attacker']} Attacks, {b['defender']} Defends."]
    for side in (b["defender"], b["attacker"]):
        front = ", ".join(f"{slot} {_name(lid)}" for slot, lid in b["front"][side].items())
        reserve = ", ".join(_name(lid) for lid in b["reserve"][side])
        lines.append(f"  {side} Front: {front or '-'}" + (f"; Reserve: {reserve}" if reserve else ""))
    for lid, d in b["lords"].items():
        mat = view["lords"][lid].get("mat")
        state = "Fled" if d["fled"] else "Routed" if d["routed"] else f"Valour {d['valour']}"
        forces = ""
        if isinstance(mat, dict):
            up = [f"{n} {TROOP_NAMES[t]}" for t in TROOP_TYPES if (n := mat["troops"].get(t))]
            down = sum(mat["routed"].values())
            vassals = [v for v in [*mat["vassals"], *mat["special_vassals"]] if v not in d["vassals_routed"]]
            forces = ": " + ", ".join(["Retinue" if not d["retinue_routed"] else "Retinue Routed", *up,
                                       *(_unit_name(v) for v in vassals)]) + (f"; {down} Troops Routed" if down else "")
        lines.append(f"  {_name(lid)} ({d['side']}, {state}){forces}")
    if b["strike"]:
        lines.append(f"  {b['strike']['kind'].title()}: Hits " + ", ".join(
            f"{side} takes {n}" for side, n in b["strike"]["hits"].items()))
    return lines


def secrets_part(state: State, role: str) -> set[str]:
    """Before the Bosworth reveal: the other side's chosen Capabilities and Array."""
    out: set[str] = set()
    frame = find(state, "bosworth")
    if frame is not None:
        for side, picks in frame["picks"].items():
            if side == role:
                continue
            out |= {f'"{cid}"' for cid, _ in picks}
            out |= {f'"{slot}":"{lid}"' for slot, lid in frame["front"][side].items()}
    return out


def invariants_part(state: State) -> list[str]:
    """Faults of the Battle record: its Lords are at its Locale (or in the Bosworth Battle),
    each Array position holds a Lord of its side, and the held King's holder is on the map."""
    bad: list[str] = []
    b = state.get("battle")
    if b is not None:
        if state["result"] is None and find(state, "battle") is None:
            bad.append("a Battle is recorded but none is being fought")
        for lid, d in b["lords"].items():
            rec = state["lords"][lid]
            if rec["where"] == Where.MAP and rec["locale"] != b["locale"]:
                bad.append(f"{lid} is in the Battle but not at {b['locale']}")
            if d["valour"] < 0:
                bad.append(f"{lid}: negative Valour")
        for side in (b["defender"], b["attacker"]):
            placed = [lid for lid in b["front"][side] if lid] + b["reserve"][side]
            if len(placed) != len(set(placed)):
                bad.append(f"a {side} Lord holds two Array positions")
            if any(b["lords"].get(lid, {}).get("side") != side for lid in placed):
                bad.append(f"a Lord in the {side} Array is not a {side} Lord of the Battle")
    for lord, holder in state.get("captured", {}).items():
        if state["lords"][lord]["where"] != Where.HELD:
            bad.append(f"{lord} is recorded as held but is not")
        if state["lords"][holder]["where"] not in (Where.MAP, Where.SEA):
            bad.append(f"{lord} is held by {holder}, who is not on the map")
    for lid, d in state["lords"].items():
        if d["where"] == Where.HELD and lid not in state.get("captured", {}):
            bad.append(f"{lid} is held by nobody")
    return bad
