"""Scenario setup (6.0): build the initial state of every scenario from ``data/scenarios.json``.

State layout (a JSON-serialisable dict; see docs/plantagenet/state.md):

``influence``
    The single net Influence track (1.4.1): positive = Yorkist lead, negative = Lancastrian.
``favour``
    ``{stronghold: side}``; a Stronghold not listed is Neutral (1.3.1).
``exhaustion``
    ``{locale: "depleted" | "exhausted"}`` (1.3.1).
``lords``
    ``{lord id: {"where", "locale", "box", "exile", "mat"}}`` for every Lord card of the
    scenario. ``where`` is ``"map"`` (at a Stronghold or in an Exile box, 1.3.1), ``"calendar"``,
    ``"battle"`` (Bosworth only), ``"unused"`` (not yet in play), ``"removed"`` (Death,
    Shipwreck or special rule), ``"sea"`` or ``"held"`` (see ``records.Where``).
``vassals``
    ``{vassal id: {"where": "seat" | "mat" | "calendar" | "out", "lord", "box", "face_up"}}``.
``aow``
    per side: ``deck`` (unused cards, kept sorted; shuffled when drawn, 3.1.1), ``held``,
    ``in_effect``, ``set_aside``.
``command``
    per side: ``deck`` (the Command cards of the Lords in play and the Pass cards, 1.9.2, 6.2.2;
    RULINGS R17), ``plan`` (the stack), ``revealed``.
``stack``
    the decision stack of :mod:`roses.engine.steps` (set by ``PlantagenetRules.setup``): where
    play is in the sequence of play, and who decides now.
``battle``
    None, or the Battle being fought (4.4; public, see :mod:`battle`): its Locale, Attacker and
    Defender, Round, each side's Front (positions 0-2 facing each other) and Reserve, and per
    Lord his Valour markers left, Routed/Fled, Retinue and Vassals Routed (Routed Troops are in
    the mat's ``routed``).
``captured``
    Capture of the King (Ia): ``{held Lord: holder}``; the held Lord is ``"held"``.
``war`` and ``wars``
    The Wars of the Roses (6.1-6.3): the War being played (``"I"``, ``"IIY"``, ``"IIL"``,
    ``"IIIY"``, ``"IIIL"``; None in the other scenarios) and the record that runs through the
    three Wars (winners, Heirs removed, the Heirs of this War, cards their Succession brought;
    see :mod:`wars`). A new War rebuilds everything else from its setup.

The records are typed in :mod:`records`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from typing import Any, Final

from roses.engine import rng
from roses.engine.contract import copy_json, keys_sorted
from roses.engine.errors import BadOptions
from roses.engine.log import public
from roses.games.plantagenet.components import DATA_DIR, SIDES, TROOP_TYPES, Components, load
from roses.games.plantagenet.decks import cards_in_game, replace_command_cards
from roses.games.plantagenet.records import (
    AowZones,
    CommandZones,
    LordRecord,
    Mat,
    VassalRecord,
    VassalWhere,
    Where,
    new_lord_record,
    put_lord,
)

State = dict[str, Any]

SCENARIOS = (
    "ia-henry-vi",
    "ib-towton",
    "ic-somersets-return",
    "ii-warwicks-rebellion",
    "iii-my-kingdom-for-a-horse",
    "bosworth",
    "wars-of-the-roses",
)

OPTIONS_SCHEMA: dict[str, Any] = {
    "hidden_mats": {"type": "bool", "default": False,
                    "label": "Hidden Mats (1.5.3): hide Lord mats and Capabilities from the opponent"},
    "king_richard_at_setup": {"type": "bool", "default": False,
                              "label": "Scenario III: set up Richard III in place of Gloucester (2)"},
    # Reaction cards (cards.py, RULINGS R50): ask a side only when it holds a card it may play.
    "quick_reactions_york": {"type": "bool", "default": False, "label": "York is asked about reaction cards only when holding one (faster, but Lancaster then knows York holds one whenever York is asked)"},
    "quick_reactions_lancaster": {"type": "bool", "default": False, "label": "Lancaster is asked about reaction cards only when holding one (faster, but York then knows Lancaster holds one whenever Lancaster is asked)"},
}


def other(side: str) -> str:
    return "Lancaster" if side == "York" else "York"


#: :func:`scenario_data`, read at its first call (a module table rather than ``functools.cache``:
#: the threshold in force is read from it at every view, and a cached function is a Python call
#: even compiled).
_SCENARIO_DATA: Final[dict[str, Any]] = {}


def scenario_data() -> dict[str, Any]:
    """The scenarios' set-up data (``scenarios.json``), checked, read once (read only)."""
    if not _SCENARIO_DATA:
        _SCENARIO_DATA.update(_read_scenario_data())
    return _SCENARIO_DATA


def _read_scenario_data() -> dict[str, Any]:
    with open(DATA_DIR / "scenarios.json", encoding="utf-8") as fh:
        raw: dict[str, Any] = json.load(fh)
    out: dict[str, Any] = {}
    for sid, d in raw.items():
        if "setup_as" in d:
            base = json.loads(json.dumps(raw[d["setup_as"]]))
            base.update({k: v for k, v in d.items() if k != "setup_as"})
            for side, extra in d.get("lords_extra", {}).items():
                base["lords"][side] = base["lords"][side] + extra
            d = base
        out[sid] = d
    check_scenarios(out, load())
    return out


def check_scenarios(scen: dict[str, Any], c: Components) -> None:
    """Every reference in the scenario table exists (raises ValueError)."""
    if tuple(scen) != SCENARIOS:
        raise ValueError("scenario ids differ from SCENARIOS")
    for sid, d in scen.items():
        everyone = [lid for side in SIDES for lid in d["lords"][side]]
        for side in SIDES:
            for lid in d["lords"][side]:
                if c.lords[lid]["side"] != side:
                    raise ValueError(f"{sid}: {lid} is not {side}")
        for lid, loc in d["mustered"].items():
            if lid not in everyone or (loc is not None and loc not in c.locales):
                raise ValueError(f"{sid}: bad mustered entry {lid}")
        for lid, (box, _exile) in d["calendar"].items():
            if lid not in everyone or not 1 <= box <= 15:
                raise ValueError(f"{sid}: bad calendar entry {lid}")
        for box, side in d["exile_boxes"].items():
            if c.locales[box]["kind"] != "exile" or side not in SIDES:
                raise ValueError(f"{sid}: bad exile box {box}")
        for side in SIDES:
            for loc in d["favour"][side]:
                if not loc.startswith("@") and c.locales[loc]["kind"] != "stronghold":
                    raise ValueError(f"{sid}: favour at {loc}")
        for v in d["vassals_excluded"] + list(d["vassals_mustered"]):
            if v not in c.vassals:
                raise ValueError(f"{sid}: unknown vassal {v}")
        for lid, cards in d["capabilities"].items():
            if lid not in d["mustered"] or any(cid not in c.cards for cid in cards):
                raise ValueError(f"{sid}: bad capability entry")
        for rule in d["special_rules"]:
            if rule not in special_rules():
                raise ValueError(f"{sid}: special rule {rule} is not described in special_rules.json")


@cache
def special_rules() -> dict[str, Any]:
    """Each scenario special rule in our words, with its section and the stage that builds it."""
    with open(DATA_DIR / "special_rules.json", encoding="utf-8") as fh:
        out: dict[str, Any] = json.load(fh)
    return out


def expand_locales(names: list[str]) -> list[str]:
    """``@North`` etc. stand for every Stronghold of that Area (1.3.1)."""
    c = load()
    out: list[str] = []
    for n in names:
        out.extend(sorted(c.area(n[1:])) if n.startswith("@") else [n])
    return out


def aow_cards(scenario: str, side: str) -> list[str]:
    """The Arts of War deck of a side for a scenario (6.0 DECKS, 1.9.1 roses)."""
    return deck_cards(scenario_data()[scenario]["aow"][side], side)


def deck_cards(spec: dict[str, Any], side: str) -> list[str]:
    """The cards of ``side`` with the numbers of roses in ``spec["roses"]`` (1.9.1), less
    ``spec["remove"]``, plus ``spec["add"]`` (6.0 DECKS, 6.3), in card order."""
    c = load()
    cards = [cid for cid, d in c.cards.items() if d["side"] == side and d["roses"] in spec["roses"]]
    cards = [cid for cid in cards if cid not in spec["remove"]] + list(spec["add"])
    return sorted(cards, key=c.card_ids.ids.__getitem__)  # card_order


def card_order(cid: str) -> int:
    """Sort key of Arts of War cards: the card codec's order (side letter, then number)."""
    return load().card_ids.id(cid)


def new_mat(lord_id: str) -> Mat:
    """A freshly Mustered mat: Retinue plus the card's starting Troops and Assets (1.5.3, 3.4.2)."""
    lord = load().lords[lord_id]
    troops = dict.fromkeys(TROOP_TYPES, 0)
    troops.update(lord["troops"])
    return {
        "troops": troops,
        "routed": {t: 0 for t in troops},
        "assets": dict(lord["assets"]),
        "vassals": [],
        "special_vassals": [],
        "capabilities": [],
        "events": [],
    }


@cache
def war_data() -> dict[str, Any]:
    """The setups of the Wars of the Roses after the first (6.3 IIY, IIL, IIIY, IIIL): what
    does not depend on the previous Wars (``data/wars.json``); :mod:`wars` adds the rest."""
    with open(DATA_DIR / "wars.json", encoding="utf-8") as fh:
        out: dict[str, Any] = json.load(fh)
    return out


def scenario_of(state: State) -> dict[str, Any]:
    """The data of what is being played: the scenario, or in the Wars of the Roses the War
    (its thresholds, victory and special rules differ from War to War, 6.3)."""
    war = state.get("war")
    if war is None or war == "I":
        return dict(scenario_data()[state["scenario"]])  # the War I entry is the scenario's
    return dict(war_data()[war])


def threshold(state: State, box: int | None = None) -> int | None:
    """The Victory threshold in force for a Calendar box (5.2), or None."""
    box = state["box"] if box is None else box
    war = state.get("war")
    spec = war_data()[war] if war is not None and war != "I" else scenario_data()[state["scenario"]]
    for first, last, value in spec["thresholds"]:
        if first <= box <= last:
            return int(value)
    return None


def check_options(options: dict[str, Any] | None) -> dict[str, Any]:
    opts = {k: v["default"] for k, v in OPTIONS_SCHEMA.items()}
    for k, v in (options or {}).items():
        if k not in OPTIONS_SCHEMA:
            raise BadOptions(f"Plantagenet has no option {k!r}.")
        if not isinstance(v, bool):
            raise BadOptions(f"Option {k!r} must be true or false.")
        opts[k] = v
    return opts


def setup_state(seed: int, scenario: str, options: dict[str, Any] | None = None,
                data: dict[str, Any] | None = None) -> State:
    """The state at the start of the scenario's first Levy (6.0 BEGIN PLAY). ``data`` replaces
    the scenario's entry of ``scenarios.json``: :mod:`wars` sets up each later War of the Wars
    of the Roses this way, from a description built from the previous Wars (6.1.2, 6.3)."""
    opts = check_options(options)
    if data is not None:
        return _new_state(seed, scenario, opts, data)
    # A scenario's setup is the same whatever the seed but for the generator: it is built once
    # (per scenario, options and REPLACE_HOOKS) and copied.
    key = (scenario, tuple(sorted(opts.items())), tuple(REPLACE_HOOKS))
    kept = _SETUPS.get(key)
    if kept is None:
        kept = _SETUPS[key] = _new_state(0, scenario, opts, scenario_data()[scenario])
    state = copy_setup(kept)
    rng.seed_state(state, seed)
    return state


#: :func:`setup_state` of each scenario and options met so far, with the seed 0. Never changed:
#: only copies (:func:`copy_setup`) are handed out.
_SETUPS: dict[tuple[Any, ...], State] = {}

def _copy_lords(lords: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for lid, d in lords.items():
        d = dict(d)
        mat = d["mat"]
        if mat is not None:  # a mat holds dicts and lists of scalars (new_mat)
            d["mat"] = {k: v.copy() for k, v in mat.items()}
        out[lid] = d
    return out


def _copy_zones(sides: dict[str, dict[str, list[str]]]) -> dict[str, dict[str, list[str]]]:
    return {side: {zone: list(cards) for zone, cards in zones.items()} for side, zones in sides.items()}


#: How :func:`copy_setup` copies each part of a new state: the Lords' records and mats, the
#: Vassals' records, the card zones; the other dicts and lists hold only strings, numbers or
#: booleans at setup (the Wars' record, nested, is copied in full).
_SETUP_PARTS: dict[str, Callable[[Any], Any]] = {
    "lords": _copy_lords,
    "vassals": lambda vassals: {vid: dict(v) for vid, v in vassals.items()},
    "aow": _copy_zones,
    "command": _copy_zones,
    "wars": copy_json,
}


def copy_setup(state: State) -> State:
    """A copy of a state just set up, sharing no dict or list with it, and the same strings
    (a copy through pickle or JSON would make new strings, which every dict look-up of the
    game then has to hash and compare again). Faster than building it."""
    out = dict(state)
    parts = _SETUP_PARTS
    for key, value in state.items():
        if type(value) is dict or type(value) is list:
            how = parts.get(key)
            out[key] = value.copy() if how is None else how(value)
    return out


def _new_state(seed: int, scenario: str, opts: dict[str, Any], d: dict[str, Any]) -> State:
    """:func:`setup_state` built from the scenario's data ``d`` and checked options ``opts``."""
    c = load()
    king = d["king"]
    state: State = {
        "game": "plantagenet",
        "scenario": scenario,
        "options": opts,
        "roles": ["York", "Lancaster"],
        "king": king,
        "rebel": other(king),
        "first_box": d["first_box"],
        "last_box": d["last_box"],
        "box": d["first_box"],
        "first_turn": True,
        "influence": int(d["influence"]),
        "favour": {},
        "london_for_york": False,
        "cards": {},  # Arts of War effects' bookkeeping (once-only uses, choices by Events; cards.py)
        "exhaustion": {},
        "exile_boxes": dict(d["exile_boxes"]),
        "allied_networks": d["allied_networks"],
        "seats": {},
        "lords": {},
        "vassals": {},
        "special_vassals": {v: None for v in c.special_vassals},
        "aow": {},
        "command": {},
        "special_rules": list(d["special_rules"]),
        "war": d.get("war"),
        "wars": new_war_record(d),  # Wars of the Roses only (6.1-6.3), see wars.py
        "heirs_removed": [],
        "moved": [],  # Lords marked Moved/Fought (4.3, 4.4.4), cleared after Feed (4.7)
        "battle": None,  # the Battle being fought (4.4), public; see battle.py
        "captured": {},  # Capture of the King (Ia): {held Lord: the Enemy Lord whose mat holds him}
        "norfolk_late_used": False,  # Norfolk is Late (Ib): only in the first Battle with him
        "result": None,
        "log": [],
    }
    rng.seed_state(state, seed)
    # Favour (1.3.1, 6.0 MAP).
    for side in SIDES:
        for loc in expand_locales(d["favour"][side]):
            state["favour"][loc] = side
    # Lords: cards of the scenario, mats, cylinders, Seats (6.0 MUSTERED LORDS, MAP, CALENDAR).
    battle_only = d["victory"] == "battle"
    for side in SIDES:
        for lid in d["lords"][side]:
            entry = new_lord_record()
            if lid in d["mustered"]:
                put_lord(entry, Where.BATTLE if battle_only else Where.MAP, locale=d["mustered"][lid],
                         mat=new_mat(lid))
            elif lid in d["calendar"]:
                box, exile = d["calendar"][lid]
                put_lord(entry, Where.CALENDAR, box=box, exile=bool(exile))
            state["lords"][lid] = entry
            if not battle_only and entry["where"] != Where.UNUSED:
                state["seats"][lid] = c.lords[lid]["seat"]
    # Command decks: the cards of the Lords in play and the Pass cards (1.9.2, 6.0 DECKS, 6.2.2
    # ADD; RULINGS R17).
    for side in SIDES:
        command: CommandZones = {"deck": cards_in_game(state, side), "plan": [], "revealed": []}
        state["command"][side] = command
    # Scenario III "King Richard": the Yorkist may put Richard III in Gloucester's place at setup.
    if scenario == "iii-my-kingdom-for-a-horse" and opts["king_richard_at_setup"]:
        replace_in_place(state, "gloucester_2", "richard_iii")
    # Vassals (1.5.4, 6.0).
    for vid in c.vassals:
        out = d["vassals_at_seats"] == "none" or vid in d["vassals_excluded"]
        vassal: VassalRecord = {"where": VassalWhere.OUT if out else VassalWhere.SEAT, "lord": None,
                                "box": None, "face_up": True}
        state["vassals"][vid] = vassal
    for vid, spec in d["vassals_mustered"].items():
        state["vassals"][vid] = {"where": VassalWhere.MAT, "lord": spec["lord"], "box": spec["box"], "face_up": True}
        state["lords"][spec["lord"]]["mat"]["vassals"].append(vid)
    # Arts of War decks (2.1.1, 6.0 DECKS; 6.3 the cards the Wars' Heirs bring).
    for side in SIDES:
        deck = sorted(deck_cards(d["aow"][side], side) + list(d.get("heir_cards", {}).get(side, [])),
                      key=c.card_ids.ids.__getitem__)  # card_order
        aow: AowZones = {"deck": deck, "drawn": [], "held": [], "in_effect": [], "set_aside": [],
                         "in_game": list(deck)}
        state["aow"][side] = aow
    for lid, cards in d["capabilities"].items():
        for cid in cards:
            owner = c.cards[cid]["side"]
            if cid in state["aow"][owner]["deck"]:
                state["aow"][owner]["deck"].remove(cid)
            else:
                state["aow"][owner]["in_game"].append(cid)
            state["lords"][lid]["mat"]["capabilities"].append(cid)
            sv = c.cards[cid]["capability"].get("special_vassal")
            if sv:
                state["special_vassals"][sv] = lid
                state["lords"][lid]["mat"]["special_vassals"].append(sv)
    public(state, f"Scenario {d['name']}: {king} is the King's side, {other(king)} the Rebels.")
    # Every dict in the order a reloaded state has (sorted keys): the rules iterate the Lords,
    # Vassals and card zones, and must meet them in the same order after a restart.
    result: State = keys_sorted(state)
    return result


def new_war_record(d: dict[str, Any]) -> dict[str, Any] | None:
    """The record of the Wars of the Roses for a War's setup data (None outside the Wars):
    the Heirs of this War by rank (6.2.1; ``heirs`` lists their Lord cards), the ranks whose
    removal loses this War (``war_heirs``, else the Automatic War Victory lists of War I) and
    the cards the present Heirs brought (6.2.2). :mod:`wars` keeps the rest (winners, Heirs
    removed) from War to War."""
    if d.get("war") is None:
        return None
    c = load()
    ranks = {lid: int(d.get("heir_ranks", {}).get(lid) or c.lords[lid]["heir"])
             for side in SIDES for lid in d["heirs"][side]}
    war_heirs = d.get("war_heirs")
    if war_heirs is None:  # War I: the Automatic War Victory lists name the losers' Heirs
        war_heirs = {other(winner): sorted({ranks[lid] for lid in lids})
                     for winner, lids in d["automatic_war_victory"].items()}
    return {
        "winners": {},  # {"I": side, "II": side, "III": side} (6.1.2)
        "removed": [],  # Heirs removed: {"side", "rank", "lord", "war", "by"} (6.2.2 REMOVE)
        "heir_lords": ranks,  # the Heirs of this War not removed (in play or still to arrive) and their ranks
        "war_heirs": {side: list(war_heirs[side]) for side in SIDES},
        "designated": list(d.get("designated", [])),  # sides whose Warwick is an Heir (6.2.1, War III)
        "pending": [],  # Heirs removed whose Succession waits for the end of the Battle or Disembark
        "cards": {side: list(d.get("heir_cards", {}).get(side, [])) for side in SIDES},
        "y28": False,  # 6.3 IIY/IIL Gloucester: Event Y28 resolved in the second War
    }


#: Functions called as ``fn(state, old, new)`` after every :func:`replace_in_place` (6.2.2
#: REPLACE, Scenario III King Richard): the cards register what a replacement does to them
#: (Y34/Y35 are discarded when Gloucester becomes Richard III, :func:`cards.on_replace`).
REPLACE_HOOKS: list[Callable[[State, str, str], None]] = []


def replace_in_place(state: State, old: str, new: str) -> None:
    """6.2.2 REPLACE: the new Lord takes the old one's place, mat contents, Seat and the places
    of his Command cards; then every :data:`REPLACE_HOOKS` function runs (wars.replace_heir and
    levy's King Richard both come through here)."""
    c = load()
    o: LordRecord = state["lords"][old]
    n: LordRecord = state["lords"].setdefault(new, new_lord_record())
    n.update(o)
    put_lord(o, Where.UNUSED)
    replace_command_cards(state, old, new)
    if old in state["seats"]:
        del state["seats"][old]
        state["seats"][new] = c.lords[new]["seat"]
    # The Vassals and Special Vassals on the mat, and his Moved/Fought marker, are now the new Lord's.
    for v in state["vassals"].values():
        if v["lord"] == old:
            v["lord"] = new
    for spv, holder in state["special_vassals"].items():
        if holder == old:
            state["special_vassals"][spv] = new
    if old in state.get("moved", ()):
        state["moved"] = sorted(new if lid == old else lid for lid in state["moved"])
    for hook in REPLACE_HOOKS:
        hook(state, old, new)
