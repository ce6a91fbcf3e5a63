"""How Arts of War cards change the rules of the Levy, the Campaign and upkeep (1.9.1: card text
beats the rules): the hooks the parts of the sequence of play call. Each function cites its
card and the section it changes. No decision frames here (they are in :mod:`cards`), so that
:mod:`levy`, :mod:`campaign` and :mod:`upkeep` may import this module.

Levy Troops (3.4.4) with cards takes an argument made of ``key=value`` parts joined by commas
(``None`` for the plain action at the Lord's own Stronghold): ``at=<Locale>`` (L12 Commission
of Array), ``mode=militia5`` (Y16 Beloved Warwick) or ``mode=irish`` (Y18 Irishmen),
``commons=1|2`` (Y16 The Commons), ``merc=1`` (Y12 Soldiers of Fortune) and ``pay=<Lord>`` (the
Lord at the same Locale who Shares the Coin a card asks for when the acting Lord has too little,
1.5.3).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Final

from roses.engine import rng
from roses.engine.log import public
from roses.games.plantagenet import effects as fx
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import TROOP_TYPES, load
from roses.games.plantagenet.records import VassalWhere, Where

State = dict[str, Any]

GLOUCESTER_AS_HEIR_LORDS: Final = ("gloucester_1", "gloucester_2", "richard_iii")
#: Capabilities with which Levy Troops never Depletes or Exhausts (Y31 Woodvilles, L9
#: Quartermasters).
NO_DEPLETE: Final = frozenset({"woodvilles", "quartermasters"})
#: The Troops of the Beloved Warwick / Irishmen Levy (Y16, Y18): 5 Militia.
FIVE_MILITIA: Final = 5


def lord_name(lord: str) -> str:
    return str(load().lords[lord]["name"])


def troops_in_use(state: State) -> dict[str, int]:
    """Troop pieces on mats (Routed included): the pool holds the rest (1.2, 1.6)."""
    used = dict.fromkeys(TROOP_TYPES, 0)
    for d in state["lords"].values():
        mat = d["mat"]
        if mat:
            for t in TROOP_TYPES:
                used[t] += mat["troops"][t] + mat["routed"][t]
    return used


def add_troops(state: State, lord: str, troops: dict[str, int]) -> dict[str, int]:
    """Add Troops to a mat as far as the pool allows (1.6: cards too are limited by the pool).
    Returns what was added."""
    pool = load().tables["troop_pool"]
    used = troops_in_use(state)
    mat = state["lords"][lord]["mat"]
    got: dict[str, int] = {}
    for t, n in troops.items():
        k = max(0, min(n, pool[t] - used[t]))
        if k:
            mat["troops"][t] += k
            got[t] = k
    return got


def troops_text(got: dict[str, int]) -> str:
    names = {"men_at_arms": "Men-at-Arms", "longbowmen": "Longbowmen", "militia": "Militia",
             "mercenaries": "Mercenaries", "handgunners": "Handgunners"}
    order = [t for t in names if t in got]  # the rulebook's order, whatever the dict's
    return ", ".join(f"{got[t]} {names[t]}" for t in order) or "none (the pool is empty)"


# ----- 3.4 Muster: Levy actions that spend no Lordship -------------------------------------
def dominated_areas(state: State, side: str) -> list[str]:
    return [a for a in ("North", "South", "Wales") if sv.dominates(state, side, a)]


def near_dominated(state: State, lord: str) -> bool:
    """Y4 Jack Cade: the Lord is in a Yorkist-Dominated Area or at a Locale next (by Way) to one
    of its Strongholds."""
    areas = dominated_areas(state, "York")
    if not areas:
        return False
    c = load()
    here = state["lords"][lord]["locale"]
    for a in areas:
        strongholds = set(c.area(a))
        if here in strongholds or any(n in strongholds for n in c.adjacency[here]):
            return True
    return False


def free_levy_actions(state: State, lord: str) -> dict[str, int]:
    """Levy actions a Lord may take this Muster without spending Lordship (3.4): Y28 Gloucester
    as Heir (3 Parleys with checks), L17 My crown is in my heart (Henry VI, 2 Parleys with
    checks), Y4 Jack Cade (2 sure and free Parleys), L35 Thomas Stanley (one Levy Troops)."""
    out: dict[str, int] = {}
    side = sv.lord_sides()[lord]
    live = state["aow"][side]["in_effect"]
    if live:
        if lord in GLOUCESTER_AS_HEIR_LORDS and fx.event_on(state, "gloucester_as_heir", "York"):
            out["parley"] = 3
        if lord == "henry_vi" and fx.event_on(state, "my_crown", "Lancaster"):
            out["parley"] = 2
        if side == "York" and fx.event_on(state, "jack_cade", "York") and near_dominated(state, lord):
            out["cade"] = 2
    if fx.capability(state, lord, "thomas_stanley") and state["lords"][lord]["mat"]["special_vassals"]:
        out["troops"] = 1
    return out


def sure_parley_card(state: State, lord: str) -> str | None:
    """Y18 Succession / L18 Parliament Votes: the Lord's one Parley this Levy that costs one
    Influence point less and succeeds without a roll, if not used yet."""
    side = sv.lord_sides()[lord]
    if not state["aow"][side]["in_effect"]:
        return None
    cid = fx.event_on(state, "succession" if side == "York" else "parliament_votes", side)
    if cid is None or lord in fx.book(state).get("sure_parley", []):
        return None
    return cid


def london_aided(state: State, lord: str, verb: str) -> bool:
    """Y15 London for York: a Lancastrian Parley of London needs an Event's help (L17, L18)."""
    return verb in ("parley_sure", "free_parley") and sv.lord_sides()[lord] == "Lancaster"


# ----- 3.4.3 Levy Vassal ----------------------------------------------------------------------
def vassal_levy_blocked(state: State, lord: str) -> bool:
    """Y7 Yorkists Block Parliament: no Lancastrian Vassal Levy this Levy except by an Event
    (RULINGS R53): L37 The Earl of Richmond lets every Lancastrian Lord Levy Vassals, L35
    Margaret Beaufort lets Henry Tudor."""
    if sv.lord_sides()[lord] != "Lancaster" or not state["aow"]["York"]["in_effect"] \
            or not fx.event_on(state, "block_parliament", "York"):
        return False
    if fx.event_on(state, "earl_of_richmond", "Lancaster"):
        return False
    return not (lord == "henry_tudor" and fx.event_on(state, "margaret_beaufort", "Lancaster"))


def vassal_targets(state: State, lord: str, normal: list[str]) -> list[str]:
    """The Vassals ``lord`` may try to Levy: the usual ones (3.4.3), none under Y7 for the
    Lancastrians, any Ready Vassal at its Seat for Henry Tudor under L35 Margaret Beaufort."""
    if vassal_levy_blocked(state, lord):
        return []
    if lord == "henry_tudor" and fx.event_on(state, "margaret_beaufort", "Lancaster"):
        return sorted(vid for vid, v in state["vassals"].items() if v["where"] == VassalWhere.SEAT)
    return normal


def vassal_levy_sure(state: State, lord: str) -> bool:
    """L37 The Earl of Richmond (every Lancastrian Vassal Levy this Levy) and L32 Two Roses
    (Henry Tudor's): the check succeeds without a roll; its cost is paid (3.4.3)."""
    side = sv.lord_sides()[lord]
    aow, mat = state["aow"], state["lords"][lord]["mat"]
    return bool((side == "Lancaster" and aow["Lancaster"]["in_effect"]
                 and fx.event_on(state, "earl_of_richmond", "Lancaster"))
                or (mat and mat["capabilities"] and fx.capability(state, lord, "two_roses")))


def vassal_levy_surcharge(state: State, side: str) -> int:
    """L34 Buckingham's Plot: each Yorkist Vassal Levy costs 2 more Influence points."""
    if side == "York" and state["aow"]["Lancaster"]["in_effect"] and fx.event_on(state, "buckinghams_plot",
                                                                                   "Lancaster"):
        return 2
    return 0


def vassal_service_bonus(state: State, lord: str) -> int:
    """Y17 Alice Montagu: Salisbury's Vassals serve one box longer."""
    return 1 if fx.capability(state, lord, "alice_montagu") else 0


def capability_blocked(state: State, lord: str, card: str) -> bool:
    """Y7 Yorkists Block Parliament also stops the Lancastrians Levying a Capability that brings
    a Special Vassal (its Levy is a Vassal Levy; RULINGS R53)."""
    return card in _special_vassal_cards() and vassal_levy_blocked(state, lord)


@cache
def _special_vassal_cards() -> frozenset[str]:
    """The Capabilities that bring a Special Vassal, computed once."""
    return frozenset(cid for cid, d in load().cards.items() if (d.get("capability") or {}).get("special_vassal"))


# ----- 3.4.4 Levy Troops -----------------------------------------------------------------------
def encode(parts: dict[str, str]) -> str | None:
    return ",".join(f"{k}={v}" for k, v in parts.items()) or None


def decode(arg: Any) -> dict[str, str]:
    if arg is None or arg == "here":
        return {}
    out: dict[str, str] = {}
    for part in str(arg).split(","):
        k, _, v = part.partition("=")
        out[k] = v
    return out


def _irish(state: State, here: str) -> bool:
    c = load()
    return here == "Ireland" or (c.locales[here]["kind"] == "stronghold" and c.locales[here]["port"] == "Irish Sea")


def troops_sources(state: State, lord: str) -> list[tuple[str | None, str]]:
    """Where and how ``lord`` may Levy Troops now: ``(at, mode)`` with ``at`` None for his own
    Locale (3.4.4: a Friendly, not Exhausted Stronghold, never an Exile box), adjacent Friendly
    Strongholds free of Enemy Lords with L12 Commission of Array, and the modes ``table``,
    ``militia5`` (Y16 Beloved Warwick) and ``irish`` (Y18 Irishmen: in Ireland or at an Irish Sea
    Port, even the Ireland box)."""
    c = load()
    d = state["lords"][lord]
    here = d["locale"]
    side = sv.lord_sides()[lord]
    mat = d["mat"]
    caps = {fx.CAPABILITY_KEYS[cid] for cid in mat["capabilities"]}
    out: list[tuple[str | None, str]] = []
    here_ok = c.locales[here]["kind"] == "stronghold" and not sv.is_exhausted(state, here)
    if here_ok:
        out.append((None, "table"))
        if "beloved_warwick" in caps:
            out.append((None, "militia5"))
    if "irishmen" in caps and _irish(state, here) and not sv.is_exhausted(state, here) \
            and sv.is_friendly(state, here, side):
        out.append((None, "irish"))
    if "commission_of_array" in caps:
        for n in sorted(c.adjacency[here], key=c.locale_ids.id):
            if c.locales[n]["kind"] == "stronghold" and sv.is_friendly(state, n, side) \
                    and not sv.is_exhausted(state, n) and not sv.enemy_lords_at(state, n, side):
                out.append((n, "table"))
                if "beloved_warwick" in caps:
                    out.append((n, "militia5"))
    return out


def troops_coin(state: State, lord: str, merc: bool) -> int:
    """Coin a Levy Troops costs: L9 Rising Wages (Yorkists, 1) and Y12 Soldiers of Fortune (1)."""
    need = 1 if merc else 0
    if sv.lord_sides()[lord] == "York" and state["aow"]["Lancaster"]["in_effect"] \
            and fx.event_on(state, "rising_wages", "Lancaster"):
        need += 1
    return need


def coin_payers(state: State, lord: str, need: int) -> list[str | None]:
    """Who pays ``need`` Coin for a Levy action: the Lord himself when he has enough (None),
    else a Lord of his side at his Locale whose Coin covers the rest (1.5.3 Sharing); empty
    when nobody can."""
    if need <= 0:
        return [None]
    mat = state["lords"][lord]["mat"]
    own = mat["assets"]["coin"]
    if own >= need:
        return [None]
    side = sv.lord_sides()[lord]
    here = state["lords"][lord]["locale"]
    return [lid for lid in sorted(sv.lords_at(state, here, side))
            if lid != lord and state["lords"][lid]["mat"]["assets"]["coin"] >= need - own]


def troops_options(state: State, lord: str) -> list[str | None]:
    """Every Levy Troops argument open to ``lord`` (module docs)."""
    out: list[str | None] = []
    sources = troops_sources(state, lord)
    if not sources:
        return out
    commons = (0, 1, 2) if sv.lord_sides()[lord] == "York" and state["aow"]["York"]["in_effect"] \
        and fx.event_on(state, "the_commons", "York") else (0,)
    mercs = (False, True) if fx.capability(state, lord, "soldiers_of_fortune") else (False,)
    payers = {merc: coin_payers(state, lord, troops_coin(state, lord, merc)) for merc in mercs}
    for at, mode in sources:
        for n in commons:
            for merc in mercs:
                for payer in payers[merc]:
                    if at is None and mode == "table" and not n and not merc and payer is None:
                        out.append(None)  # the plain Levy Troops: encode() of no parts
                        continue
                    parts: dict[str, str] = {}
                    if at is not None:
                        parts["at"] = at
                    if mode != "table":
                        parts["mode"] = mode
                    if n:
                        parts["commons"] = str(n)
                    if merc:
                        parts["merc"] = "1"
                    if payer is not None:
                        parts["pay"] = payer
                    out.append(encode(parts))
    return out


def levy_troops(state: State, lord: str, arg: Any) -> str:
    """Carry out a Levy Troops (3.4.4 and the cards of the module docs). Returns the log text."""
    c = load()
    parts = decode(arg)
    d = state["lords"][lord]
    here = d["locale"]
    src = parts.get("at", here)
    mode = parts.get("mode", "table")
    mat = d["mat"]
    merc = parts.get("merc") == "1"
    need = troops_coin(state, lord, merc)
    if need:
        own = min(need, mat["assets"]["coin"])
        mat["assets"]["coin"] -= own
        if need > own:
            state["lords"][parts["pay"]]["mat"]["assets"]["coin"] -= need - own
    if mode == "table":
        row = c.tables["strongholds"][c.locales[src]["type"]]["levy"]
        got = add_troops(state, lord, dict(row))
    else:
        got = add_troops(state, lord, {"militia": FIVE_MILITIA})
    extra: list[str] = []
    if parts.get("commons"):
        more = add_troops(state, lord, {"militia": int(parts["commons"])})
        extra.append(f"The Commons (Y16): {troops_text(more)}")
    if merc:
        more = add_troops(state, lord, {"mercenaries": 2})
        extra.append(f"Soldiers of Fortune (Y12) for 1 Coin: {troops_text(more)}")
    if need and not merc:
        extra.append("Rising Wages (L9): 1 Coin paid")
    deplete = mode != "irish" and not fx.has_any_capability(mat, NO_DEPLETE) and not chamberlain_seat(state, lord, src)
    if deplete:
        sv.deplete(state, src)
    where = src if src == here else f"{src} (Commission of Array, L12)"
    how = {"table": "", "militia5": " as 5 Militia (Beloved Warwick, Y16)",
           "irish": " as 5 Militia (Irishmen, Y18)"}[mode]
    text = f"{lord_name(lord)} Levies Troops at {where}{how}: {troops_text(got)}"
    if extra:
        text += "; " + "; ".join(extra)
    mark = state["exhaustion"].get(src)
    text += f"; {src} is {mark.capitalize()}" if deplete and mark else f"; {src} is not Depleted"
    return text + " (3.4.4)."


def chamberlain_seat(state: State, lord: str, locale: str) -> bool:
    """L10 Chamberlains: Supply and Levy Troops do not Deplete a Stronghold that is the Seat of
    one of the Lord's (regular) Vassals (the check lives in services, which Supply uses)."""
    return sv._chamberlain_seat(state, lord, locale)


# ----- Naval Blockade (Y15) ------------------------------------------------------------------
def blockaded_seas(state: State) -> set[str]:
    """Y15 Naval Blockade: the Sea of the Port Stronghold where the Lord with the Capability
    stands (none while he is elsewhere)."""
    if "Y15" not in state["aow"]["York"]["in_game"]:
        return set()
    for lid in ("warwick_y",):
        d = state["lords"].get(lid)
        if d and d["where"] == Where.MAP and d["mat"] and "Y15" in d["mat"]["capabilities"]:
            loc = load().locales[d["locale"]]
            if loc["kind"] == "stronghold" and loc["port"]:
                return {str(loc["port"])}
    return set()


def blockade_check(state: State, lord: str, seas: set[str], what: str) -> bool:
    """Y15 Naval Blockade (RULINGS R57): a Lancastrian action that uses a Port on a blockaded
    Sea happens only on a roll of 1-2, rolled before any Influence is paid. Returns True when
    the action is cancelled (its Lordship or Command action is spent all the same)."""
    if sv.lord_sides()[lord] != "Lancaster" or not seas:
        return False
    hit = seas & blockaded_seas(state)
    if not hit:
        return False
    r = rng.roll(state)
    if r <= 2:
        public(state, f"Naval Blockade (Y15) on the {', '.join(sorted(hit))}: {lord_name(lord)}'s {what} "
                      f"goes ahead on a roll of {r}.")
        return False
    public(state, f"Naval Blockade (Y15) on the {', '.join(sorted(hit))}: {lord_name(lord)}'s {what} is "
                  f"cancelled (roll {r}).")
    return True


def sea_hop_seas(state: State, lord: str, target: str) -> set[str]:
    """The Seas a Route of ``lord`` to ``target`` crosses by Ship (3.4.1, 4.6.3): none when an
    overland Route is as short; else the Seas of his Locale and of the target."""
    if not sv.lord_has_ships(state, lord):
        return set()
    side = sv.lord_sides()[lord]
    here = state["lords"][lord]["locale"]
    land_f, land_b = sv.route_tree(state, side, here)
    sea_f, sea_b = sv.route_tree(state, side, here, lord=lord, ships=True)
    land = land_f.get(target, land_b.get(target))
    sea = sea_f.get(target, sea_b.get(target))
    if sea is None or (land is not None and land <= sea):
        return set()
    c = load()
    return {s for s in (c.sea_of(here), c.sea_of(target)) if s}


def port_sea(locale: str) -> set[str]:
    loc = load().locales[locale]
    return {str(loc["port"])} if loc["kind"] == "stronghold" and loc["port"] else set()


# ----- 4.6.3 Tax, 4.5 Supply amounts ----------------------------------------------------------
def stafford_branch(state: State, lord: str, locale: str) -> bool:
    """Y29 Stafford Branch: Devon's Supply or Tax from Exeter or a Stronghold next to it."""
    if not fx.capability(state, lord, "stafford_branch"):
        return False
    return locale == "Exeter" or locale in load().adjacency["Exeter"]


def so_wise(state: State, lord: str) -> bool:
    """Y34 So wise, so young: Gloucester's Taxes yield 1 more Coin, even when they fail."""
    return lord in sv.GLOUCESTERS and fx.capability(state, lord, "so_wise") is not None


def tax_coin(state: State, lord: str, target: str) -> int:
    """The Coin a successful Tax of ``target`` gives (4.6.3, Strongholds table), with Y34 So
    wise, so young and Y29 Stafford Branch."""
    c = load()
    coin = int(c.tables["strongholds"][c.locales[target]["type"]]["tax"])
    if so_wise(state, lord):
        coin += 1
    if stafford_branch(state, lord, target):
        coin += 1
    return coin


# ----- 4.4 Battle ------------------------------------------------------------------------------
#: Troops a Capability adds for one Battle (removed at Aftermath, 4.4.4): key, where (an Area,
#: "friendly", "carlisle" or "channel"), Troops.
BATTLE_TROOPS: Final[tuple[tuple[str, str, dict[str, int]], ...]] = (
    ("musterd_soldiers", "friendly", {"men_at_arms": 2, "longbowmen": 1}),  # Y3/L3
    ("pembroke", "Wales", {"longbowmen": 2}),  # Y25
    ("welsh_lord", "Wales", {"longbowmen": 2}),  # L25
    ("percys_north_militia", "North", {"militia": 4}),  # Y27
    ("kingdom_united", "areas", {"militia": 3}),  # Y35 (as Gloucester)
    ("percys_north_carlisle", "carlisle", {"men_at_arms": 2}),  # Y37
    ("philibert", "channel", {"men_at_arms": 2}),  # L33
)
BATTLE_TROOP_KEYS: Final = frozenset(k for k, _w, _t in BATTLE_TROOPS)


def route_to(state: State, side: str, start: str, target: str) -> bool:
    """Y37 Percy's North: a Route as for a Parley (3.4.1) from ``start`` (whatever its Favour
    and Lords) to ``target``: Locales next to each other, free of Enemy Lords, Friendly except
    the target."""
    if start == target:
        return True
    c = load()
    blocked = sv.enemy_locales(state, side)
    seen = {start}
    todo = [start]
    while todo:
        loc = todo.pop()
        for n in c.adjacency[loc]:
            if n in seen or n in blocked:
                continue
            if n == target:
                return True
            seen.add(n)
            if sv.is_friendly(state, n, side):
                todo.append(n)
    return False


def _channel_ok(state: State, locale: str) -> bool:
    """L33 Philibert de Chandée: a Lancastrian Stronghold that is, or is next to, an English
    Channel Port (RULINGS R59)."""
    c = load()
    if sv.favour(state, locale) != "Lancaster":
        return False
    near = [locale, *c.adjacency[locale]]
    return any(c.locales[n]["kind"] == "stronghold" and c.locales[n]["port"] == "English Channel" for n in near)


def battle_troops(state: State, lord: str, locale: str | None) -> dict[str, int]:
    """The Troops the Lord's Capabilities add for a Battle at ``locale`` (none On Bosworth Field,
    which is at no Locale: RULINGS R59)."""
    mat = state["lords"][lord]["mat"]
    if locale is None or not fx.has_any_capability(mat, BATTLE_TROOP_KEYS):
        return {}
    c = load()
    side = sv.lord_sides()[lord]
    area = c.locales[locale].get("area")
    out: dict[str, int] = {}
    for key, where, troops in BATTLE_TROOPS:
        if not fx.capability(state, lord, key):
            continue
        if where == "friendly":
            ok = sv.is_friendly(state, locale, side)
        elif where == "areas":
            ok = area is not None and lord in sv.GLOUCESTERS
        elif where == "carlisle":
            ok = route_to(state, side, locale, "Carlisle")
        elif where == "channel":
            ok = _channel_ok(state, locale)
        else:
            ok = area == where
        if ok:
            for t, n in troops.items():
                out[t] = out.get(t, 0) + n
    return out


#: Capabilities that change Protection (4.4.2).
PROTECTION_KEYS: Final = frozenset({"barricades", "church_blessing", "piquiers", "montagu", "barded_horse", "chevaliers"})
#: Piquiers lasts until this many of the Lord's Men-at-Arms and Militia have Routed (L34).
PIQUIERS_ROUTS: Final = 3


def protection(state: State, lord: str, unit: str, kind: str, base: int) -> int:
    """A unit's Protection with the Lord's Capabilities (4.4.2; not for Losses, 4.4.3): Y9
    Barricades (at a Friendly Stronghold: Men-at-Arms 1-4, Longbowmen and Militia 1-2), L5 Church
    Blessing (Men-at-Arms 1-4), L34 Piquiers (Men-at-Arms and Militia 1-4 until 3 of them Rout),
    L23 Montagu (Retinue 1-5), L27 Barded Horse (Retinue and Vassals 1-3 against Missiles, 1-5
    against Melee), L36 Chevaliers (Men-at-Arms 1 worse against Missiles). Improvements do not
    add up (the best applies); Chevaliers' penalty comes after."""
    mat = state["lords"][lord]["mat"]
    if not fx.has_any_capability(mat, PROTECTION_KEYS):
        return base
    caps = {fx.CAPABILITY_KEYS[cid] for cid in mat["capabilities"]}
    prot = base
    b = state.get("battle")
    if "barricades" in caps and b is not None and b["locale"] is not None \
            and sv.is_friendly(state, b["locale"], sv.lord_sides()[lord]):
        if unit == "men_at_arms":
            prot = max(prot, 4)
        elif unit in ("longbowmen", "militia"):
            prot = max(prot, 2)
    if "church_blessing" in caps and unit == "men_at_arms":
        prot = max(prot, 4)
    if "piquiers" in caps and unit in ("men_at_arms", "militia") and b is not None \
            and b.get("piquiers", {}).get(lord, 0) < PIQUIERS_ROUTS:
        prot = max(prot, 4)
    if "montagu" in caps and unit == "retinue":
        prot = max(prot, 5)
    if "barded_horse" in caps and unit not in TROOP_TYPES:
        prot = 3 if kind == "missile" else max(prot, 5)
    if "chevaliers" in caps and unit == "men_at_arms" and kind == "missile":
        prot -= 1
    return prot


def melee_doubles_men_at_arms(state: State, lord: str) -> bool:
    """L36 Chevaliers: the Lord's Men-at-Arms Strike two Melee Hits each."""
    return fx.capability(state, lord, "chevaliers") is not None


def culverin_dice(state: State, side: str) -> int:
    """Y1/Y2/L1/L2 Culverins & Falconets roll one die of Missile Hits, two for the Yorkists
    with Y37 Patrick de la Mote in effect in the Battle."""
    return 2 if side == "York" and fx.battle_event(state, "patrick_de_la_mote", "York") else 1


def leeward(state: State, side: str) -> bool:
    """Y1/L1 Leeward Battle Line: Missile Hits against ``side``'s Lords are halved (round up),
    unless the enemy played it too."""
    return bool(fx.battle_event(state, "leeward", side)) and not fx.battle_event(state, "leeward",
                                                                                  "Lancaster" if side == "York"
                                                                                  else "York")


def warden_places(state: State) -> list[str]:
    """L16 Warden of the Marches: in a Battle at a Stronghold of the North, the Friendly
    Strongholds of the North other than the Battle's, free of Enemy Lords (RULINGS R59)."""
    b = state.get("battle")
    c = load()
    if not b or b["locale"] is None or c.locales[b["locale"]].get("area") != "North":
        return []
    return [loc for loc in c.area("North") if loc != b["locale"] and sv.favour(state, loc) == "Lancaster"
            and not sv.enemy_lords_at(state, loc, "Lancaster")]


def escape_route(state: State, side: str) -> bool:
    """Y3/Y9/L3 Escape Ship: the side has a Route (4.5.1) from the Battle's Locale to a
    Friendly Port: the Locale is one, or a chain of Friendly Locales free of Enemy Lords leads
    overland to one (the Battle's Locale itself need not be Friendly; RULINGS R59)."""
    b = state.get("battle")
    if not b or b["locale"] is None:
        return False
    c = load()
    start = b["locale"]

    def port(loc: str) -> bool:
        return c.locales[loc]["kind"] == "stronghold" and bool(c.locales[loc]["port"]) and sv.is_friendly(state, loc, side)

    if port(start):
        return True
    blocked = sv.enemy_locales(state, side)
    seen = {start}
    todo = [start]
    while todo:
        loc = todo.pop()
        for n in c.adjacency[loc]:
            if n in seen or n in blocked or not sv.is_friendly(state, n, side):
                continue
            if port(n):
                return True
            seen.add(n)
            todo.append(n)
    return False


# ----- 3.2 Pay ------------------------------------------------------------------------------------
def percys_power(state: State, side: str) -> set[str]:
    """L14 Percy's Power: while Northumberland with the Capability is at a Stronghold of the
    North, the Lancastrian Lords at Strongholds of the North pay nothing in Pay (3.2.1 Troops,
    3.2.2 Lords, 3.2.3 Vassals' shift). Returns those Lords (RULINGS R54: it always applies)."""
    if side != "Lancaster" or "L14" not in state["aow"]["Lancaster"]["in_game"]:
        return set()
    north = sv.area_locales("North")
    d = state["lords"].get("northumberland_l")
    if not (d and d["where"] == Where.MAP and d["locale"] in north and "L14" in d["mat"]["capabilities"]):
        return set()
    return {lid for lid in sv.on_map(state, side) if state["lords"][lid]["locale"] in north}


def madame_la_grande(state: State, side: str) -> list[str]:
    """L37 Madame La Grande: at each Pay, the Lord with the Capability at or next to (by Way) an
    English Channel Port with Lancastrian Favour gains 1 Coin. Returns the Lords who gain it."""
    if side != "Lancaster" or "L37" not in state["aow"]["Lancaster"]["in_game"]:
        return []
    c = load()
    out = []
    for lid in sv.on_map(state, side):
        d = state["lords"][lid]
        if "L37" not in d["mat"]["capabilities"]:
            continue
        near = [d["locale"], *c.adjacency[d["locale"]]]
        if any(c.locales[n]["kind"] == "stronghold" and c.locales[n]["port"] == "English Channel"
               and sv.favour(state, n) == "Lancaster" for n in near):
            d["mat"]["assets"]["coin"] += 1
            out.append(lid)
    return out
