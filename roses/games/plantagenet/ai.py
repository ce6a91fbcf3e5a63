"""Plantagenet knowledge for the game-agnostic bots (roses.ai): determinisation and evaluation.

:class:`~roses.games.plantagenet.rules.PlantagenetRules` exposes these functions as its
optional contract methods ``determinize``, ``evaluate``, ``evaluate_all`` and
``evaluation_terms`` (roses/engine/contract.py).

What a side knows, and what :func:`determinize` re-samples (research §5, 1.5.3, 1.9, 4.1.2)
    Public to both sides, and kept: the map, Favour, Depleted and Exhausted markers, the
    Calendar, Influence, every Lord's cylinder, the Vassals (their markers are on the mats and
    the Calendar for all to see), Events in effect or set aside, Held Events played on a Lord
    (played face up, 3.1.3), revealed Command cards, Ships (counted publicly, 1.7.3), and the
    Battle being fought with the mats of its Lords (revealed in Battle, 1.5.3).

    Re-sampled, using only what the side knows:

    * **The other side's Arts of War cards** that the side cannot see: its unused deck, its
      drawn and unresolved cards, its Held Events and, under Hidden Mats, the Capabilities on
      its hidden mats. The number in each zone is public (and so is the total on hidden mats:
      the cards of a side in play are known, those seen are subtracted); which card is where is
      dealt at random. The number of Capabilities on each hidden mat is not public (a deployed
      Capability is announced without its Lord, 3.1.2), so they are spread at random over the
      hidden mats (at most two each, only eligible ones, no two of one name, 3.4.6). A Special
      Vassal goes with the Capability that brings it (1.5.4).
    * **Hidden Mats** (1.5.3): the other side's mats outside Battle. Troops and Assets are a
      guess from the Lord's card (his Mustered mat, 1.5.3) plus a few random Levies; Vassals,
      Ships and played Events are public and kept; no Troops are Routed outside Battle.
    * **The other side's Plan** (4.1.2): while it is being built, nothing of it is known: an
      unlocked Plan is empty in every determinisation; a locked one is a random legal Plan of
      the right size. After both lock in, the cards not yet revealed are a random sequence
      from its unrevealed Command cards (mostly cards of its Lords on the map, since a Plan
      holds Pass cards only when short of them, 4.1.1), the cards of one badge taken lowest id
      first as the Plan step takes them.
    * **Bosworth**: the other side's four Capabilities and Array before the reveal (empty
      while it is choosing, random legal choices once it has locked in).
    * The generator is re-drawn, so future dice and shuffles are not the true ones, and log
      lines private to the other side are dropped.

    Where the other side is deciding, the sample keeps what the side sees of that decision:
    who is to act. (A Battle Event window stops only for a side holding a playable Event, so
    such a side holds one; in the first Levy a drawn Capability with several eligible Lords
    waits for a choice.) Samples are drawn in an order fixed by public data only (card and
    Lord ids), so two states that look the same to the side give the same result for one seed.

The evaluation
    Zero-sum, from York's point of view, in (-1, 1) for a game not over (+1/-1/0 at its end):
    the net Influence against the Victory threshold (5.2) or its lead at the end (5.3), the
    Influence the next Tides of War would bring (4.8.1), the Lords on the map (none at all is
    a Campaign Victory for the other side, 5.1), their Forces (Retinue, Vassals and Troops,
    1.6), the Favour at York near the end of a Test of Arms (Ib), and the Battle in progress
    (unrouted Forces of each side).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from functools import cache
from typing import Any

from roses.engine import rng
from roses.engine.contract import DRAW, Action, SearchHints, copy_json
from roses.engine.log import readable_entries
from roses.engine.steps import find, top
from roses.games.plantagenet import arts
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.components import SIDES, TROOP_TYPES, load
from roses.games.plantagenet.records import LordRecord, Mat
from roses.games.plantagenet.setup import new_mat, other, scenario_data, threshold

State = dict[str, Any]

#: Troop types a random Levy may bring (Mercenaries and Handgunners come only by cards).
LEVY_TROOPS = ("men_at_arms", "longbowmen", "militia")
#: Weight of a Pass card, or of a card of a Lord not on the map, in a sampled Plan (against 1
#: for a card of a Lord on the map): a Plan takes Pass cards only when short (4.1.1).
OFF_MAP_WEIGHT = 0.15
#: Tries at a sample that keeps who is to act before the sample is built to fit.
TRIES = 12


# ----- helpers ------------------------------------------------------------------------------
def copy_state(state: State) -> State:
    """An independent copy of ``state`` for simulations (``Rules.copy_state``), field by field
    by its shape (:func:`_layout`). The log list is copied and its entries shared (they are
    never changed once written: roses.engine.log only appends)."""
    return _copy_by_layout(state, False)


def search_copy(state: State) -> State:
    """A copy for a search to play on with these rules (``Rules.search_copy``): as
    :func:`copy_state`, but the log starts empty (the rules only append to it and never read
    it; the views and the determinisation, which read it, are made from real states) and the
    fields the rules never change in place (:data:`_NEVER_CHANGED`) are shared."""
    return _copy_by_layout(state, True)


def _copy_by_layout(state: State, search: bool) -> State:
    """``state`` copied by the layout of its keys (:func:`_layout`, for a search or not): the
    scalars shared, the flat fields by one C-level copy, the others by their copier."""
    out = state.copy()
    flat, others = _layout(tuple(state), search)
    for key in flat:
        value = out[key]
        if value is not None:
            out[key] = value.copy()
    for key, copier in others:
        out[key] = copier(out[key])
    return out


_Layout = tuple[tuple[str, ...], tuple[tuple[str, Any], ...]]


def _layout(keys: tuple[str, ...], search: bool) -> _Layout:
    """The fields of a state with these keys that a copy must make anew: those copied by one
    C-level copy (flat dicts and lists of scalars, :func:`_flat`), and the others, each with its
    copier: every field but the scalars (:data:`_SCALAR_FIELDS`), by its shape
    (:data:`_SHAPES`) or else by ``copy_json``; for a search copy the log is emptied and the
    fields of :data:`_NEVER_CHANGED` are shared."""
    kept = _LAYOUTS.get((keys, search))
    if kept is None:
        flat: list[str] = []
        others: list[tuple[str, Any]] = []
        for key in keys:
            if key in _SCALAR_FIELDS or search and key in _NEVER_CHANGED:
                continue
            copier = _empty if search and key == "log" else _SHAPES.get(key, copy_json)
            if copier is _flat:
                flat.append(key)
            else:
                others.append((key, copier))
        kept = (tuple(flat), tuple(others))
        if len(_LAYOUTS) >= 64:  # a few layouts in practice (fields added by the Wars, old records)
            _LAYOUTS.clear()
        _LAYOUTS[(keys, search)] = kept
    return kept


_LAYOUTS: dict[tuple[tuple[str, ...], bool], _Layout] = {}

#: Fields whose values are always numbers, strings, booleans or None: shared by the copies.
_SCALAR_FIELDS = frozenset(("game", "scenario", "box", "first_box", "last_box", "first_turn", "influence",
                            "king", "rebel", "result", "rng", "rolls", "reveals", "war",
                            "london_for_york", "norfolk_late_used"))


def _empty(value: Any) -> list[Any]:
    return []


def _flat(value: Any) -> Any:
    return None if value is None else value.copy()


def _records(value: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out = value.copy()
    for k, v in value.items():
        out[k] = v.copy()
    return out


def _zones(value: dict[str, dict[str, list[str]]]) -> dict[str, dict[str, list[str]]]:
    out: dict[str, dict[str, list[str]]] = {}
    for side, zones in value.items():
        copied = zones.copy()
        for zone, cards in zones.items():
            copied[zone] = cards[:]
        out[side] = copied
    return out


def _lords(value: dict[str, LordRecord]) -> dict[str, LordRecord]:
    out = value.copy()
    for lid, d in value.items():
        out[lid] = _copy_lord(d)
    return out


def _frames(value: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # A frame of one key holds only its step's name: one C-level copy.
    return [f.copy() if len(f) == 1 else _copy_tree(f) for f in value]


def _copy_tree(value: Any) -> Any:
    """:func:`copy_json` with fewer calls: a dict is copied in one C-level copy and only its
    values that are lists or dicts are copied again (a frame's few nested parts)."""
    t = type(value)
    if t is dict:
        out = value.copy()
        for k, x in value.items():
            if type(x) not in _SCALARS:
                out[k] = _copy_tree(x)
        return out
    if t is list:
        if _SCALARS.issuperset(map(type, value)):
            return value[:]
        return [x if type(x) in _SCALARS else _copy_tree(x) for x in value]
    return copy_json(value)


#: The types copy_json shares (roses.engine.contract).
_SCALARS = frozenset((str, int, float, bool, type(None)))


#: How each field of a state is copied: flat dicts and lists (of scalars) by one C-level copy,
#: dicts of flat records, the card zones of each side, the Lords, the stack's frames. The
#: Lords, the bulk of a state, are copied by shape: a Lord's entry holds scalars and his mat,
#: whose values are scalars or dicts and lists of scalars (setup.new_mat);
#: tests/plantagenet/test_ai.py checks every shape on random play.
_SHAPES: dict[str, Any] = {
    **dict.fromkeys(("favour", "exhaustion", "seats", "special_vassals", "exile_boxes", "allied_networks",
                     "options", "captured", "log", "moved", "heirs_removed", "rigged", "roles",
                     "special_rules"), _flat),
    "vassals": _records, "aow": _zones, "command": _zones, "lords": _lords, "stack": _frames,
}

#: Fields the rules never change in place (they may replace them): a search copy shares them.
_NEVER_CHANGED = frozenset(("options", "allied_networks", "special_rules", "roles", "exile_boxes"))


def _copy_lord(d: LordRecord) -> LordRecord:
    lord = d.copy()
    mat = lord["mat"]
    if mat is not None:
        lord["mat"] = _copy_mat(mat)
    return lord


def _copy_mat(mat: Mat) -> Mat:
    if len(mat) != len(_MAT_KEYS):  # not the fields of setup.new_mat
        out: Mat = copy_json(mat)
        return out
    return {"troops": mat["troops"].copy(), "routed": mat["routed"].copy(), "assets": mat["assets"].copy(),
            "vassals": mat["vassals"][:], "special_vassals": mat["special_vassals"][:],
            "capabilities": mat["capabilities"][:], "events": mat["events"][:]}


#: The fields of a mat (setup.new_mat), in their order.
_MAT_KEYS = ("troops", "routed", "assets", "vassals", "special_vassals", "capabilities", "events")


_copy = copy_state


def _card_key(cid: str) -> int:
    return _card_numbers()[cid]


@cache
def _card_numbers() -> dict[str, int]:
    """Each card's number in the data's order (components.card_ids), computed once."""
    ids = load().card_ids
    return {cid: int(ids.id(cid)) for cid in load().cards}


def _in_battle(state: State, lord: str) -> bool:
    b = state.get("battle")
    return b is not None and lord in b["lords"]


def hidden_mat_lords(state: State, role: str) -> list[str]:
    """The other side's Lords whose mats ``role`` may not see (1.5.3 Hidden Mats), by id."""
    if not state["options"].get("hidden_mats"):
        return []
    foe = other(role)
    return sorted(lid for lid, d in state["lords"].items()
                  if d["mat"] is not None and sv.side_of(lid) == foe and not _in_battle(state, lid))


def _eligible(state: State, lord: str, cid: str) -> bool:
    """3.4.6: an eligible badge, fewer than two Capabilities, none of the same name."""
    mat = state["lords"][lord]["mat"]
    if len(mat["capabilities"]) >= load().tables["max_capabilities_per_lord"]:
        return False
    badges = arts.eligible_badges(cid)
    if badges is not None and load().lords[lord]["badge"] not in badges:
        return False
    title = arts.capability_title(cid)
    return all(arts.capability_title(x) != title for x in mat["capabilities"])


# ----- determinisation ------------------------------------------------------------------------
def determinize(state: State, role: str, seed: int) -> State:
    """A full state in which everything hidden from ``role`` is re-sampled (module docs)."""
    return _determinize(_Known(state, role), seed)


def determinizer(state: State, role: str) -> Callable[[int], State]:
    """:func:`determinize` of ``state`` for ``role`` as a function of the seed
    (``Rules.determinizer``): what depends only on the state and the role (the log ``role``
    may read, who acts, the hidden mats, what a try starts from) is worked out once."""
    return functools.partial(_determinize, _Known(state, role))


class _Known:
    """What :func:`determinize` reads of the true state alone, for every seed."""

    def __init__(self, state: State, role: str) -> None:
        #: The state with an empty log (its fields shared): each world is a copy of it.
        self.base: State = {**state, "log": []}
        #: The log entries ``role`` may read (each world gets them in a list of its own).
        self.log: list[Any] = readable_entries(state.get("log", []), role)
        self.rolls: Any = state.get("rolls")
        self.foe: str = other(role)
        self.want: list[str] = _acting(state)
        self.hidden: list[str] = hidden_mat_lords(state, role)
        # What a try changes (the other side's card zones, its hidden mats, the Special
        # Vassals' Lords) is kept aside to start the next try from the same world.
        self.pristine: dict[str, Any] | None = (_snapshot(state, self.foe, self.hidden)
                                                if self.hidden or _foe_card_count(state, self.foe) else None)


def _determinize(known: _Known, seed: int) -> State:
    """:func:`determinize` from what is known of the state (:class:`_Known`)."""
    r = random.Random(seed)
    world = _copy(known.base)
    world["log"] = known.log[:]
    rng.seed_state(world, r.getrandbits(63))
    rolls = known.rolls
    if rolls is not None:
        world["rolls"] = rolls  # the undo policy's count of random events stays as it was
    foe, want, hidden, pristine = known.foe, known.want, known.hidden, known.pristine
    cards_seed, plan_seed, bos_seed = r.getrandbits(62), r.getrandbits(62), r.getrandbits(62)
    for attempt in range(TRIES + 1):
        if attempt and pristine is not None:
            _restore(world, foe, pristine)
        cr = random.Random(cards_seed + attempt)
        _resample_mats(world, foe, hidden, cr)
        _resample_cards(world, foe, hidden, cr, fit=attempt == TRIES)
        if _acting(world) == want:
            break
    _resample_plan(world, foe, plan_seed)
    _resample_bosworth(world, foe, bos_seed)
    return world


def _snapshot(world: State, foe: str, hidden: list[str]) -> dict[str, Any]:
    """Copies of the parts of ``world`` that one try of :func:`determinize` changes."""
    zones = world["aow"][foe]
    return {
        "zones": {k: list(zones[k]) for k in ("deck", "drawn", "held")},
        "mats": {lid: _copy_mat(world["lords"][lid]["mat"]) for lid in hidden},
        "special_vassals": dict(world["special_vassals"]),
    }


def _restore(world: State, foe: str, snap: dict[str, Any]) -> None:
    """Puts back what :func:`_snapshot` kept (copies again: ``snap`` serves every try)."""
    zones = world["aow"][foe]
    for k, cards in snap["zones"].items():
        zones[k] = list(cards)
    for lid, mat in snap["mats"].items():
        world["lords"][lid]["mat"] = _copy_mat(mat)
    world["special_vassals"] = dict(snap["special_vassals"])


def _acting(state: State) -> list[str]:
    from roses.games.plantagenet import RULES  # the rules module imports this one

    return list(RULES.active(state))


def _foe_card_count(state: State, foe: str) -> int:
    a = state["aow"][foe]
    return len(a["deck"]) + len(a["drawn"]) + len(a["held"])


def _resample_mats(world: State, foe: str, hidden: list[str], r: random.Random) -> None:
    """Hidden Mats (1.5.3): the other side's mats outside Battle, guessed from the Lord cards.
    Public parts stay: Vassals, Ships (1.7.3), Events played on the Lord (3.1.3)."""
    if not hidden:
        return
    c = load()
    pool = c.tables["troop_pool"]
    used = dict.fromkeys(TROOP_TYPES, 0)
    for lid, d in world["lords"].items():
        if d["mat"] is not None and lid not in hidden:
            for t in TROOP_TYPES:
                used[t] += d["mat"]["troops"][t] + d["mat"]["routed"][t]
    for lid in hidden:
        mat = world["lords"][lid]["mat"]
        guess = new_mat(lid)
        troops = guess["troops"]
        for _ in range(r.randrange(4)):  # a few Levies of Troops (3.4.3)
            troops[LEVY_TROOPS[r.randrange(len(LEVY_TROOPS))]] += 1
        for t in TROOP_TYPES:
            troops[t] = max(0, min(troops[t], pool[t] - used[t]))
            used[t] += troops[t]
        mat["troops"] = troops
        mat["routed"] = dict.fromkeys(TROOP_TYPES, 0)
        assets = guess["assets"]
        assets["provender"] += r.randrange(3)
        assets["coin"] += r.randrange(3)
        assets["ships"] = mat["assets"]["ships"]
        mat["assets"] = assets


def _resample_cards(world: State, foe: str, hidden: list[str], r: random.Random, fit: bool) -> None:
    """Deal the other side's unseen Arts of War cards again (module docs). With ``fit``, the
    cards that decide who acts now (a Battle Event window, a first-Levy Capability) are
    chosen to keep it."""
    zones = world["aow"][foe]
    pool = list(zones["deck"]) + list(zones["drawn"]) + list(zones["held"])
    n_drawn, n_held = len(zones["drawn"]), len(zones["held"])
    caps = 0
    for lid in hidden:
        mat = world["lords"][lid]["mat"]
        pool += mat["capabilities"]
        caps += len(mat["capabilities"])
        mat["capabilities"] = []
        for spv in mat["special_vassals"]:
            world["special_vassals"][spv] = None
        mat["special_vassals"] = []
    pool.sort(key=_card_key)
    r.shuffle(pool)
    # Capabilities on the hidden mats: a random Lord for each, among those who may take it.
    slots = [lid for lid in hidden for _ in range(load().tables["max_capabilities_per_lord"])]
    r.shuffle(slots)
    placed = 0
    rest: list[str] = []
    for cid in pool:
        if placed < caps:
            lord = next((x for x in slots if _eligible(world, x, cid)), None)
            if lord is not None:
                slots.remove(lord)
                _put_capability(world, lord, cid)
                placed += 1
                continue
        rest.append(cid)
    if placed < caps:  # no fitting Lord for the last ones: they go where they fit best
        for lid in hidden:
            while placed < caps and rest:
                cid = next((x for x in rest if _eligible(world, lid, x)), None)
                if cid is None:
                    break
                rest.remove(cid)
                _put_capability(world, lid, cid)
                placed += 1
        while placed < caps and rest:  # an inconsistent count: keep the zone sizes anyway
            lid = hidden[placed % len(hidden)]
            world["lords"][lid]["mat"]["capabilities"].append(rest.pop())
            placed += 1
    if fit:
        rest = _fit_acting(world, foe, rest, n_drawn, n_held)
    zones["drawn"] = rest[:n_drawn]
    zones["held"] = rest[n_drawn:n_drawn + n_held]
    zones["deck"] = sorted(rest[n_drawn + n_held:], key=_card_key)


def _put_capability(world: State, lord: str, cid: str) -> None:
    mat = world["lords"][lord]["mat"]
    mat["capabilities"].append(cid)
    special = load().cards[cid]["capability"].get("special_vassal")
    if special and world["special_vassals"].get(special) is None:
        world["special_vassals"][special] = lord
        mat["special_vassals"].append(special)


def _fit_acting(world: State, foe: str, cards: list[str], n_drawn: int, n_held: int) -> list[str]:
    """Order ``cards`` (drawn first, then held, then the deck) so that the other side's
    decision now stays one the side can see it is making."""
    frame = top(world)
    if frame is None or frame.get("side") != foe:
        return cards
    out = list(cards)
    if frame["step"] == "battle_event" and n_held:
        from roses.games.plantagenet.battle import BATTLE_EVENTS

        allowed = BATTLE_EVENTS[frame["window"]]
        held = out[n_drawn:n_drawn + n_held]
        if not any(cid in allowed for cid in held):
            spare = next((cid for cid in out[:n_drawn] + out[n_drawn + n_held:] if cid in allowed), None)
            if spare is not None:
                i = out.index(spare)
                out[i], out[n_drawn] = out[n_drawn], out[i]
    elif frame["step"] == "arts_of_war" and n_drawn and world["first_turn"]:
        best = next((cid for cid in out if len(arts.eligible_lords(world, foe, cid)) > 1), None)
        if best is not None:
            i = out.index(best)
            out[i], out[0] = out[0], out[i]
    return out


def _resample_plan(world: State, foe: str, seed: int) -> None:
    """The other side's Plan (4.1.2): see the module docs. Its generator (from ``seed``) is
    made only where it draws: seeding one costs more than most of the work here."""
    from roses.games.plantagenet import campaign

    plan = find(world, "plan")
    if plan is not None:
        if foe in plan["drafts"]:
            if foe not in plan["locked"]:
                plan["drafts"][foe] = []
            else:
                r = random.Random(seed)
                limits = plan.get("limits")
                target, passes = limits[foe] if limits is not None else campaign.plan_limits(world, foe)
                draft: list[str] = []
                while len(draft) < target:
                    adds = campaign.plan_additions(world, foe, draft, passes)
                    if not adds:
                        break
                    draft.append(_weighted(world, foe, adds, r))
                plan["drafts"][foe] = draft
        return
    cm = world["command"][foe]
    k = len(cm["plan"])
    if not k:
        return
    r = random.Random(seed)
    codec = load().command_ids[foe]
    pool = sorted(cm["plan"] + cm["deck"], key=codec.id)
    chosen: list[str] = []
    left = list(pool)
    for _ in range(k):
        cid = _weighted(world, foe, left, r)
        left.remove(cid)
        chosen.append(cid)
    # The cards of one badge are alike: the Plan holds the lowest ids of each, in order.
    badge_of = {cid: cid.rsplit("-", 1)[0] for cid in pool}
    by_badge: dict[str, list[str]] = {}
    for cid in pool:
        by_badge.setdefault(badge_of[cid], []).append(cid)
    new_plan = [by_badge[badge_of[cid]].pop(0) for cid in chosen]
    cm["plan"] = new_plan
    taken = set(new_plan)
    cm["deck"] = [cid for cid in pool if cid not in taken]


def _weighted(world: State, foe: str, cards: list[str], r: random.Random) -> str:
    """One of ``cards``: those of the side's Lords on the map (or at Sea) are likelier."""
    from roses.games.plantagenet.campaign import placed_badges

    placed = placed_badges(world, foe)
    weights = [1.0 if cid.rsplit("-", 1)[0] in placed else OFF_MAP_WEIGHT for cid in cards]
    return r.choices(cards, weights)[0]


def _resample_bosworth(world: State, foe: str, seed: int) -> None:
    """Bosworth: the other side's secret Capabilities and Array (module docs); the generator
    (from ``seed``) made only where it draws."""
    frame = find(world, "bosworth")
    if frame is None or foe not in frame["picks"]:
        return
    r = random.Random(seed)
    frame["picks"][foe] = []
    frame["front"][foe] = {}
    if foe not in frame["locked"]:
        return
    from roses.games.plantagenet.battle import Bosworth

    step = Bosworth()
    for _ in range(16):
        opts = [a for a in step.options(world, frame, foe) if a[0] != "lock"]
        if not opts:
            break
        verb, arg = opts[r.randrange(len(opts))]
        if verb == "capability":
            cid, lid = str(arg).split(":")
            frame["picks"][foe].append([cid, lid])
        else:
            step.on_front(world, frame, foe, arg)
    world["log"] = [e for e in world["log"] if isinstance(e, str) or e[0] != foe]


# ----- evaluation -----------------------------------------------------------------------------
@cache
def _tables() -> dict[str, Any]:
    """What the evaluation reads of the data, computed once: each Stronghold's type and Area,
    the Area sizes, each troop type's worth and a Retinue's or Vassal's (1.6), each Lord's side,
    printed Influence and badge."""
    c = load()
    f = c.tables["forces"]

    def worth(u: dict[str, float]) -> float:
        return float(u["missile"] + u["melee"] + 0.5 * u["protection"])

    areas: dict[str, int] = {}
    for d in c.locales.values():
        if d.get("area"):
            areas[d["area"]] = areas.get(d["area"], 0) + 1
    return {
        "type": {n: d.get("type") for n, d in c.locales.items()},
        "area": {n: d.get("area") for n, d in c.locales.items()},
        "area_size": areas,
        "troop_worth": {t: worth(f[t]) for t in TROOP_TYPES},
        "unit_worth": worth(f["retinue"]),
        "vassal_worth": worth(f["vassal"]),
        "side": {lid: d["side"] for lid, d in c.lords.items()},
        "influence": {lid: int(d["influence"]) for lid, d in c.lords.items()},
        "badge": {lid: d["badge"] for lid, d in c.lords.items()},
        "tides": {t: int(row["tides"]) for t, row in c.tables["strongholds"].items()},
        "gain_lords": frozenset(c.tables["calendar"]["gain_lords_influence"]),
    }


def _forces_value(mat: dict[str, Any]) -> float:
    """The fighting worth of a mat's unrouted Forces: Retinue, Vassals and Troops (1.6),
    each unit counted by its Missile, Melee and half its Protection."""
    t = _tables()
    worth = t["troop_worth"]
    troops = mat["troops"]
    total = sum(troops[k] * worth[k] for k in TROOP_TYPES)
    return float(total + t["unit_worth"] + t["vassal_worth"] * (len(mat["vassals"]) + len(mat["special_vassals"])))


def _upkeep_short(mat: dict[str, Any]) -> int:
    """How far a mat's Provender and Coin fall short of one Feed and one Pay (3.2.1, 4.7):
    one of each per six Troop units, rounded up."""
    units = sum(mat["troops"].values())
    need = -(-units // 6)
    a = mat["assets"]
    return max(0, need - a["provender"]) + max(0, need - a["coin"])


def evaluation_terms(state: State, role: str) -> dict[str, float]:
    """The named parts of :func:`evaluate` for ``role`` (York's terms, negated for Lancaster)."""
    terms = _york_terms(state)
    sign = 1.0 if role == "York" else -1.0
    return {k: sign * v for k, v in terms.items()}


def _tides_estimate(state: State, at: dict[str, set[str]], influence: dict[str, int]) -> dict[str, int]:
    """The Influence the next Tides of War would bring each side (4.8.1), read in one pass:
    Lords in and Domination of Areas, London, Calais and Harlech, most Favour by type and the
    Lords' Influence in the boxes that count it (card bonuses left out). ``at``: the Locales
    of each side's Lords on the map; ``influence``: the sum of their printed Influence. What
    depends on the Favour markers alone is kept by their placement (:func:`_favour_tides`)."""
    t = _tables()
    larea = t["area"]
    favour = state["favour"]
    key = tuple(favour.items())
    fixed = _FAVOUR_TIDES.get(key)
    if fixed is None:
        fixed = _favour_tides(favour)
        if len(_FAVOUR_TIDES) >= 4096:  # bounded
            _FAVOUR_TIDES.clear()
        _FAVOUR_TIDES[key] = fixed
    gain = state["box"] in t["gain_lords"]
    tides = t["tides"]
    base, specials = fixed
    out: dict[str, int] = {}
    for s, foe in _SIDE_FOES:
        areas: set[str] = set()
        for loc in at[s]:
            area = larea.get(loc)
            if area:
                areas.add(area)
        n = len(areas) + base[s]
        if specials:
            held = at[foe]
            for loc, owner in specials:
                if owner == s and loc not in held:
                    n += tides[loc]
        if gain:
            n += influence[s]
        out[s] = n
    return out


#: Each side with the other.
_SIDE_FOES = tuple((s, other(s)) for s in SIDES)


#: :func:`_favour_tides` by the Favour markers' placement (their items, in order).
_FAVOUR_TIDES: dict[tuple[tuple[str, str], ...], tuple[dict[str, int], tuple[tuple[str, str], ...]]] = {}


def _favour_tides(favour: dict[str, str]) -> tuple[dict[str, int], tuple[tuple[str, str], ...]]:
    """What the Favour markers alone bring each side at Tides of War (4.8.1): Domination of
    Areas and most Favour by Stronghold type; and who holds London, Calais and Harlech (they
    count unless an Enemy Lord is there)."""
    t = _tables()
    ltype, larea, sizes, tides = t["type"], t["area"], t["area_size"], t["tides"]
    by_type = {s: {"City": 0, "Town": 0, "Fortress": 0} for s in SIDES}
    by_area: dict[str, dict[str, int]] = {s: {} for s in SIDES}
    specials: dict[str, str] = {}
    for loc, s in favour.items():
        kind = ltype[loc]
        counts = by_type[s]
        if kind in counts:
            counts[kind] += 1
        elif kind in ("London", "Calais", "Harlech"):
            specials[loc] = s
        area = larea[loc]
        if area:
            held = by_area[s]
            held[area] = held.get(area, 0) + 1
    base: dict[str, int] = {}
    for s in SIDES:
        foe = other(s)
        n = sum(2 for area, held in by_area[s].items() if held == sizes[area])
        n += sum(tides[k] for k in ("City", "Town", "Fortress") if by_type[s][k] > by_type[foe][k])
        base[s] = n
    return base, tuple(specials.items())


def _plan_quality(state: State, placed: dict[str, set[str]]) -> dict[str, float]:
    """For each side, the cards of its Plan (or Plan being built) that can activate a Lord on
    the map, and half a card more once it is locked in (4.1.2): the whole Plan of the Campaign,
    revealed cards included, so that revealing cards changes nothing. ``placed``: the badges
    of each side's Lords on the map or at Sea (campaign.placed_badges)."""
    out = dict.fromkeys(SIDES, 0.0)
    plan = find(state, "plan")
    badge_of = _CARD_BADGES
    for s in SIDES:
        if plan is not None:
            cards = plan["drafts"].get(s, [])
            locked = s in plan["locked"]
        else:
            cm = state["command"][s]
            cards = cm["plan"] + cm["revealed"]
            locked = True
        if cards:
            badges = placed[s]
            n = 0
            for cid in cards:
                badge = badge_of.get(cid)
                if badge is None:
                    badge = badge_of[cid] = cid.rsplit("-", 1)[0]
                if badge in badges:
                    n += 1
            out[s] = n + (0.5 if locked else 0.0)
    return out


#: The badge of each Command card by its id ("march-2": "march"), as it is met.
_CARD_BADGES: dict[str, str] = {}


@cache
def _victory_kind(scenario: str) -> str:
    return str(scenario_data()[scenario]["victory"])


@cache
def _lord_facts() -> dict[str, tuple[str, str, int]]:
    """Each Lord's side, badge and printed Influence (:func:`_tables`), in one entry."""
    t = _tables()
    return {lid: (s, t["badge"][lid], t["influence"][lid]) for lid, s in t["side"].items()}


@cache
def _troop_worths() -> tuple[tuple[str, float], ...]:
    """Each troop type with its worth (:func:`_tables`), in the order of TROOP_TYPES."""
    worth = _tables()["troop_worth"]
    return tuple((k, worth[k]) for k in TROOP_TYPES)


def _york_terms(state: State) -> dict[str, float]:  # noqa: C901 - one pass over the Lords, kept whole
    """York's terms, read in one pass over the Lords (module docs, docs/ai.md)."""
    victory = _victory_kind(state["scenario"])
    terms: dict[str, float] = {}
    battle_only = victory == "battle"
    t = _tables()
    if not battle_only:
        net = int(state["influence"])
        goal = threshold(state) or 40
        terms["influence"] = 1.2 * net / goal
        facts, worths = _lord_facts(), _troop_worths()
        unit, vassal = t["unit_worth"], t["vassal_worth"]
        count = dict.fromkeys(SIDES, 0)
        at: dict[str, set[str]] = {s: set() for s in SIDES}
        influence = dict.fromkeys(SIDES, 0)
        power = dict.fromkeys(SIDES, 0.0)
        short = dict.fromkeys(SIDES, 0)
        placed: dict[str, set[str]] = {s: set() for s in SIDES}
        for lid, d in state["lords"].items():
            where = d["where"]
            if where == "map":
                s, badge, printed = facts[lid]
                placed[s].add(badge)
                count[s] += 1
                at[s].add(d["locale"])
                influence[s] += printed
                mat = d["mat"]
                troops = mat["troops"]
                value = 0.0  # summed in the order of _forces_value: the same float
                for k, w in worths:
                    value += troops[k] * w
                power[s] += float(value + unit + vassal * (len(mat["vassals"]) + len(mat["special_vassals"])))
                need = -(-sum(troops.values()) // 6)
                assets = mat["assets"]
                lack = need - assets["provender"]
                if lack > 0:
                    short[s] += lack
                lack = need - assets["coin"]
                if lack > 0:
                    short[s] += lack
            elif where == "sea":
                fact = facts[lid]
                placed[fact[0]].add(fact[1])
        tides = _tides_estimate(state, at, influence)
        terms["tides"] = 0.035 * (tides["York"] - tides["Lancaster"])
        terms["lords"] = 0.08 * (count["York"] - count["Lancaster"])
        for s, sign in (("York", 1.0), ("Lancaster", -1.0)):
            if not count[s]:  # a Campaign Victory for the other side at the next check (5.1)
                terms["no lords " + s] = -0.6 * sign
        total = power["York"] + power["Lancaster"]
        terms["forces"] = 0.45 * (power["York"] - power["Lancaster"]) / total if total else 0.0
        terms["upkeep"] = -0.02 * (short["York"] - short["Lancaster"])
        plans = _plan_quality(state, placed)
        terms["plan"] = 0.01 * (plans["York"] - plans["Lancaster"])
        if victory == "test_of_arms":
            holder = state["favour"].get("York")
            if holder is not None:
                terms["York Favour"] = 0.5 if holder == "York" else -0.5
    b = state.get("battle")
    if b is not None:
        strength = dict.fromkeys(SIDES, 0.0)
        for lid, d in b["lords"].items():
            mat = state["lords"][lid]["mat"]
            if mat is not None and not d["routed"]:
                strength[d["side"]] += _forces_value(mat)
        total = strength["York"] + strength["Lancaster"]
        if total:
            terms["battle"] = (0.9 if battle_only else 0.4) * (strength["York"] - strength["Lancaster"]) / total
    return terms


def evaluate(state: State, role: str) -> float:
    """A value of ``state`` for ``role`` in [-1, 1] (module docs)."""
    return evaluate_all(state, [role])[role]


def evaluate_all(state: State, roles: list[str], horizon: int = 1) -> dict[str, float]:
    """:func:`evaluate` for each of ``roles``, computed once (the evaluation is zero-sum)."""
    res = state.get("result")
    if res is not None:
        return {r: 0.0 if res == DRAW else (1.0 if r in str(res).split(", ") else -1.0) for r in roles}
    york = 0.95 * math.tanh(sum(_york_terms(state).values()))
    return {r: york if r == "York" else -york for r in roles}


# ----- search hints (Rules.search_hints, roses.engine.contract.SearchHints) -----------------------
#: The heuristic bot's follow-up search (its own next actions after a move) runs in one
#: determinisation and its line is replayed in the others: the other side's hidden cards and
#: Plan do not change what a side can do next in its own turn, only the dice differ, and the
#: replay still counts them (docs/ai.md, "Plantagenet bots: cost"). A line is worth the best
#: value reached on it: a March is chosen in steps (where, who goes, go or cancel), and a line
#: cut off by the search's depth must not look better than "go" followed by the actions the
#: side must take next.
def follow_actions(state: State, role: str, actions: list[Action]) -> list[Action]:
    """The actions the heuristic bot's follow-up search tries after a move: all but the Levy
    of a Capability that brings no Special Vassal (3.4.6, 1.5.4). The evaluation counts no
    Capability, so such a Levy only spends a Lordship action in the follow-up, and a Lord in
    the Levy often has a dozen of them; the move itself is still chosen among all actions."""
    cards = load().cards
    return [a for a in actions if a[0] != "levy_capability"
            or cards[str(a[1])]["capability"].get("special_vassal")]


#: Actions that only take back the side's own choice in a decision made in steps, by step: a
#: card added to the Plan (4.1.2 "remove"), a Lord taken along or the whole March, Sail or
#: Intercept chosen (4.3.1 Group: "leave", "cancel"; the Group starts with nobody taken along).
TAKE_BACK = {"plan": frozenset({"remove"}), "group": frozenset({"leave", "cancel"})}


def search_choices(state: State, role: str, actions: list[Action]) -> list[Action]:
    """The actions a search bot chooses among: all but the take-backs of :data:`TAKE_BACK` (a
    bot chooses what it wants in the first place, and a search that may take back goes round in
    circles: add a card, remove it, add it again)."""
    stack = state.get("stack")
    drop = TAKE_BACK.get(stack[-1]["step"]) if stack else None
    if drop is None:
        return actions
    return [a for a in actions if a[0] not in drop]


SEARCH_HINTS = SearchHints(follow_worlds=1, follow_filter=follow_actions, best_on_line=True,
                           choices=search_choices)
