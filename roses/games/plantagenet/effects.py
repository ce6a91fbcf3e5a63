"""Which Arts of War card effects are in force: cheap look-ups every part of the rules may use.

Each card half has a *key* naming its effect (two cards printed with the same text share one:
Y1 and L1 are both ``leeward``); the rules test keys, never titles. The tables are built once.
Nothing here changes the state or asks anyone anything: the effects themselves are in
:mod:`cards` (and the hooks each part calls).

Where an Event is in force (3.1.3):

* a This Levy / This Campaign Event, and a Held Event whose effect lasts (Parliament's Truce,
  Yorkist Parade), is in its side's ``in_effect`` zone;
* a Held Event played in a Battle is in ``state["battle"]["events"]`` until the Battle ends;
* a Held Event played on a Lord is under his mat (``mat["events"]``).

A Capability is in force while its card is at a Lord's mat (``mat["capabilities"]``, 3.4.6).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from roses.games.plantagenet.components import SIDES, load

State = dict[str, Any]

#: The effect of each card's Event half (1.9.1, 3.1.3).
EVENT_KEYS: Final[dict[str, str]] = {
    "Y1": "leeward", "Y2": "flank_attack", "Y3": "escape_ship", "Y4": "jack_cade", "Y5": "suspicion",
    "Y6": "seamanship", "Y7": "block_parliament", "Y8": "exile_pact", "Y9": "escape_ship",
    "Y10": "tax_collectors", "Y11": "blocked_ford", "Y12": "truce", "Y13": "aspielles",
    "Y14": "richard_of_york", "Y15": "london_for_york", "Y16": "the_commons", "Y17": "she_wolf",
    "Y18": "succession", "Y19": "caltrops", "Y20": "yorkist_parade", "Y21": "richard_leigh",
    "Y22": "loyalty_and_trust", "Y23": "charles_the_bold", "Y24": "sun_in_splendour", "Y25": "owain_glyndwr",
    "Y26": "dubious_clarence", "Y27": "yorkist_north", "Y28": "gloucester_as_heir", "Y29": "dorset",
    "Y30": "regroup", "Y31": "earl_rivers", "Y32": "kings_name", "Y33": "edward_v", "Y34": "honest_tale",
    "Y35": "privy_council", "Y36": "swift_maneuver", "Y37": "patrick_de_la_mote",
    "L1": "leeward", "L2": "flank_attack", "L3": "escape_ship", "L4": "be_sent_for", "L5": "suspicion",
    "L6": "seamanship", "L7": "for_trust_not_him", "L8": "forced_marches", "L9": "rising_wages",
    "L10": "new_act", "L11": "blocked_ford", "L12": "ravine", "L13": "aspielles", "L14": "scots",
    "L15": "henry_pressures", "L16": "warden", "L17": "my_crown", "L18": "parliament_votes",
    "L19": "henrys_proclamation", "L20": "truce", "L21": "french_fleet", "L22": "french_troops",
    "L23": "propaganda", "L24": "propaganda", "L25": "welsh_rebellion", "L26": "henry_released",
    "L27": "aragne", "L28": "supply_depot", "L29": "wilful_disobedience", "L30": "french_war_loans",
    "L31": "robins_rebellion", "L32": "tudor_banners", "L33": "surprise_landing", "L34": "buckinghams_plot",
    "L35": "margaret_beaufort", "L36": "talbot", "L37": "earl_of_richmond",
}

#: The effect of each card's Capability half (1.9.1, 3.4.6).
CAPABILITY_KEYS: Final[dict[str, str]] = {
    "Y1": "culverins", "Y2": "culverins", "Y3": "musterd_soldiers", "Y4": "deeds_of_charity",
    "Y5": "thomas_bourchier", "Y6": "great_ships", "Y7": "harbingers", "Y8": "england_my_home",
    "Y9": "barricades", "Y10": "agitators", "Y11": "never_wait", "Y12": "soldiers_of_fortune",
    "Y13": "scourers", "Y14": "burgundians", "Y15": "naval_blockade", "Y16": "beloved_warwick",
    "Y17": "alice_montagu", "Y18": "irishmen", "Y19": "welshmen", "Y20": "favoured_son", "Y21": "southerners",
    "Y22": "fair_arbiter", "Y23": "burgundians", "Y24": "hastings", "Y25": "pembroke", "Y26": "fallen_brother",
    "Y27": "percys_north_militia", "Y28": "first_son", "Y29": "stafford_branch", "Y30": "captain",
    "Y31": "woodvilles", "Y32": "final_charge", "Y33": "bloody", "Y34": "so_wise", "Y35": "kingdom_united",
    "Y36": "vanguard", "Y37": "percys_north_carlisle",
    "L1": "culverins", "L2": "culverins", "L3": "musterd_soldiers", "L4": "heralds", "L5": "church_blessing",
    "L6": "great_ships", "L7": "harbingers", "L8": "hay_wains", "L9": "quartermasters", "L10": "chamberlains",
    "L11": "name_of_the_king", "L12": "commission_of_array", "L13": "expert_counsellors", "L14": "percys_power",
    "L15": "kings_parley", "L16": "northmen", "L17": "margaret_reins", "L18": "council_member",
    "L19": "trollope", "L20": "veteran", "L21": "fathers_blood", "L22": "stafford_estates", "L23": "montagu",
    "L24": "married_neville", "L25": "welsh_lord", "L26": "edward_prince", "L27": "barded_horse",
    "L28": "loyal_somerset", "L29": "high_admiral", "L30": "merchants", "L31": "yeomen", "L32": "two_roses",
    "L33": "philibert", "L34": "piquiers", "L35": "thomas_stanley", "L36": "chevaliers",
    "L37": "madame_la_grande",
}

#: Held Events whose effect outlasts their play, and until when (3.1.3, 4.8.6): Parliament's
#: Truce lasts the rest of the Campaign; Yorkist Parade lasts until the end of a Levy.
LASTING_HELD: Final[dict[str, str]] = {"Y12": "this_campaign", "L20": "this_campaign", "Y20": "this_levy"}


#: The cards of each Event and Capability key, made at the first call (module tables rather
#: than ``functools.cache``: a cached function is a Python call even compiled).
_EVENT_CARDS: Final[dict[str, tuple[str, ...]]] = {}
_CAPABILITY_CARDS: Final[dict[str, tuple[str, ...]]] = {}


def _by_key(keys: dict[str, str]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for cid, key in keys.items():
        out.setdefault(key, []).append(cid)
    return {k: tuple(v) for k, v in out.items()}


def _event_cards() -> dict[str, tuple[str, ...]]:
    if not _EVENT_CARDS:
        _EVENT_CARDS.update(_by_key(EVENT_KEYS))
    return _EVENT_CARDS


def _capability_cards() -> dict[str, tuple[str, ...]]:
    if not _CAPABILITY_CARDS:
        _CAPABILITY_CARDS.update(_by_key(CAPABILITY_KEYS))
    return _CAPABILITY_CARDS


def event_cards(key: str) -> tuple[str, ...]:
    """The cards whose Event is ``key``."""
    return _event_cards()[key]


def capability_cards(key: str) -> tuple[str, ...]:
    """The cards whose Capability is ``key``."""
    return _capability_cards()[key]


@cache
def card_side(card: str) -> str:
    return str(load().cards[card]["side"])


def duration(card: str) -> str:
    """How long the Event of ``card`` stays in effect once in the ``in_effect`` zone."""
    return LASTING_HELD.get(card) or str(load().cards[card]["event"]["timing"])


def event_on(state: State, key: str, side: str | None = None) -> str | None:
    """The card of Event ``key`` in effect (``in_effect`` zone) for ``side`` (either side when
    None), or None."""
    aow = state["aow"]
    for s in SIDES if side is None else (side,):
        live = aow[s]["in_effect"]
        if live:
            for cid in live:
                if EVENT_KEYS[cid] == key:
                    return cid
    return None


def battle_event(state: State, key: str, side: str) -> str | None:
    """The card of Event ``key`` played by ``side`` in the Battle being fought, or None."""
    b = state.get("battle")
    if not b:
        return None
    for cid in b["events"]:
        if EVENT_KEYS[cid] == key and card_side(cid) == side:
            return cid
    return None


def capability(state: State, lord: str, key: str) -> str | None:
    """The card of Capability ``key`` at ``lord``'s mat, or None."""
    mat = state["lords"][lord]["mat"]
    if mat:
        for cid in mat["capabilities"]:
            if CAPABILITY_KEYS[cid] == key:
                return cid
    return None


def has_any_capability(mat: dict[str, Any] | None, keys: frozenset[str]) -> bool:
    """Whether a mat holds a Capability whose key is in ``keys``."""
    return bool(mat) and any(CAPABILITY_KEYS[cid] in keys for cid in mat["capabilities"])  # type: ignore[index]


def book(state: State) -> dict[str, Any]:
    """The cards' bookkeeping in the state (``state["cards"]``): once-only uses, choices made
    by Events (e.g. the Lord of Loyalty and Trust), Lords who skip a Feed..."""
    out: dict[str, Any] = state.setdefault("cards", {})
    return out


def in_levy(state: State) -> bool:
    """Whether a Levy is being played (its closing step is still to come, 3.4.6 NOTE)."""
    return any(f["step"] == "end_levy" for f in state["stack"])
