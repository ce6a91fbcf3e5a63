"""Views, secrets, invariants, text rendering and action labels for Richard III.

Hidden information (4.2; RULINGS.md, log policy and K1): a role sees its own blocks in full; of enemy blocks only the
number per area (plus what battle.py reveals in the current battle); its own hand and pool; the
other hand, the opponent's card before both are played, and the undealt cards never. See
RULINGS.md "Log policy" for what the log says.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Collection, Sequence
from itertools import compress
from operator import itemgetter, ne
from typing import Any

from roses.engine import memo as engine_memo
from roses.engine.contract import OBSERVER, Rules, State, View, copy_json
from roses.engine.logview import shared_recent_log
from roses.engine.steps import StepRules, options_map
from roses.games.richard3 import battle
from roses.games.richard3 import common as C
from roses.games.richard3.data import (
    AREA_ID,
    AREA_KIND,
    AREA_NAMES,
    B_FIRE,
    B_HOME,
    B_INIT,
    B_LOYALTY,
    B_PAIR,
    B_SIDE,
    B_STEPS,
    B_TYPE,
    BLOCK_ID,
    BLOCK_KEY,
    BLOCK_NAME,
    BORDER_LIMIT,
    CARD_AP,
    CARD_EVENT,
    CARD_NAME,
    CARD_TAG,
    DEAD,
    ENTERABLE,
    EXILE,
    EXILE_AREAS,
    EXILE_LIMIT,
    EXILE_OF,
    HEIRS,
    MINOR,
    N_AREAS,
    N_BLOCKS,
    N_BORDERS,
    N_CARDS,
    OFF,
    POOL,
    PRISON,
    REBEL,
    REBEL_BLOCK,
    ROLES,
    SCENARIOS,
    SPECIAL_NAMES,
    TYPE_NAMES,
    border_name,
)


def _side(role: str) -> int:
    return 0 if role == "York" else 1 if role == "Lancaster" else -1


def _where(loc: int) -> str:
    return AREA_NAMES[loc] if loc < N_AREAS else SPECIAL_NAMES.get(loc, "?")


# ======================================================================= view
#: Where a location id is, by name (areas and the special locations).
_WHERE: tuple[str, ...] = tuple(_where(x) for x in range(max(SPECIAL_NAMES) + 1))
_BORDER_RANGE = range(N_BORDERS)


def _block_template(b: int, o: int) -> dict[str, Any]:
    d: dict[str, Any] = {"key": BLOCK_KEY[b], "name": BLOCK_NAME[b], "side": ROLES[o],
                         "type": TYPE_NAMES[B_TYPE[b]], "steps": 0, "max": B_STEPS[b],
                         "rating": f"{B_INIT[b]}{B_FIRE[b]}", "where": ""}
    if B_LOYALTY[b]:
        d["loyalty"] = B_LOYALTY[b]
    return d


#: The fixed part of each block's dict as owned by each side (the Rebel changes hands), in
#: the key order of :func:`_block_dict`; each view copies it.
_BLOCK_TEMPLATES: tuple[tuple[dict[str, Any], ...], ...] = tuple(
    tuple(_block_template(b, o) for b in range(N_BLOCKS)) for o in (0, 1))
_HEIR_TEMPLATES: tuple[tuple[tuple[int, dict[str, Any]], ...], ...] = tuple(
    tuple((h, {"name": BLOCK_NAME[h], "rank": i + 1, "status": ""}) for i, h in enumerate(HEIRS[s]))
    for s in (0, 1))
_CARDS: tuple[dict[str, Any], ...] = tuple(
    {"id": c, "name": CARD_NAME[c], "ap": CARD_AP[c], "event": CARD_EVENT[c], "tag": CARD_TAG[c]}
    for c in range(N_CARDS))


def build_view(rules: StepRules, state: State, role: str) -> View:
    """``role``'s view of ``state`` (4.2: see the module docs).

    A view is rendered for every role after every action, and most of it is unchanged from
    the last one. So each thread keeps a copy of the fields of the state a view reads, with a
    version number for each that changes with the field (:func:`_observe`), and each role's
    last view with the versions it was made from: a new view is a copy of the last one with
    only the parts made again whose fields changed (and the parts that follow the decision
    being made: prompt, actions...). Parts common to every role are also kept once for all
    (:func:`_heirs_part` and the others below). The dict is new at each call; what it holds
    is shared with other views and must be read only (tests/richard3/test_kept_results.py pins
    views made this way to views made afresh)."""
    side = _side(role)
    seen = engine_memo.kept("richard3.views", _Seen) or _LOCAL.seen
    vers = _observe(seen, state)
    stack = state["stack"]
    result = state["result"]
    # the step on top says who acts and the phase (as rules.active and rules.steps.phase)
    if stack:
        frame = stack[-1]
        step = rules.steps.by_name[frame["step"]]
        active = step.actors(state, frame) if result is None else []
        phase = "over" if result is not None else step.phase
    else:
        frame = None
        active = []
        phase = "over" if result is not None else ""
    bt = state["battle"]
    note = None
    if side >= 0 and state.get("treason", -1) == side and result is None:
        note = _treason_note(state, side, bt, frame["step"] if frame is not None else "")
    decision = _decision(state)
    acting = role in active
    shape = (side >= 0, phase == "action", decision is not None, bt is not None, acting, bool(note))
    kept = seen.views.get(role)
    old: tuple[int, ...]
    if kept is not None and kept[1] == shape:
        old = kept[0]
        v = kept[3].copy()
        cards = old[_CARDS_V] != vers[_CARDS_V] or kept[2] != phase
        scalars = old[_SCALARS] != vers[_SCALARS] or kept[2] != phase
        crown = scalars or old[_LOC] != vers[_LOC]
    else:
        old = ()
        v = _template(shape).copy()
        v["role"] = role
        cards = scalars = crown = True
    v["active"] = active
    v["phase"] = phase
    king = state["king"]
    if scalars:
        minors = state["minors_owed"]
        v["scenario"] = state["scenario"]
        v["campaign"] = state["campaign"]
        v["last_campaign"] = state["last_campaign"]
        v["turn"] = state["turn"]
        v["king"] = ROLES[king]
        v["pretender"] = ROLES[1 - king]
        v["p1"] = ROLES[state["p1"]] if phase != "card" and phase != "mulligan" else None
        v["minors_owed"] = {"York": minors[0], "Lancaster": minors[1]}
        v["prisoner"] = state["prisoner"] >= 0
        v["result"] = result
    if crown:  # the heirs (their places, the King's, 6.81, and the Pretender's, ruling A2)
        kb = state["king_block"]
        heirs, pb = _heirs_part(seen, state["loc"], kb, king)
        if scalars or v["heirs"] is not heirs:
            v["king_block"] = BLOCK_NAME[kb] if kb >= 0 else None
            v["pretender_block"] = BLOCK_NAME[pb] if pb >= 0 else None
            v["heirs"] = heirs
    occ: C.Occupancy | None = None
    if not old or old[_LOC] != vers[_LOC] or old[_SCALARS] != vers[_SCALARS] or old[_ATKMAIN] != vers[_ATKMAIN]:
        occ = C.occupancy(state)
        v["counts"] = _counts_part(seen, occ)
        v["battles"] = _battles_part(seen, occ)
    if not old or old[_BC] != vers[_BC]:
        v["border_counts"] = _border_counts_part(seen)
    if cards:
        hands = state["hands"]
        mull = state["mulligan_used"]
        p0, p1 = state["played"]
        both = p0 >= 0 and p1 >= 0 or phase != "card" and phase != "mulligan"
        v["hand_size"] = {"York": len(hands[0]), "Lancaster": len(hands[1])}
        v["mulligan_used"] = {"York": bool(mull[0]), "Lancaster": bool(mull[1])}
        v["played"] = {"York": (_CARDS[p0] if both or side == 0 else "hidden") if p0 >= 0 else None,
                       "Lancaster": (_CARDS[p1] if both or side == 1 else "hidden") if p1 >= 0 else None}
        if side >= 0:
            v["hand"] = list(map(_CARDS.__getitem__, hands[side]))
    if (not old or old[_LOC] != vers[_LOC] or old[_STEPS] != vers[_STEPS] or old[_DOWN] != vers[_DOWN]
            or old[_MOVED] != vers[_MOVED] or old[_RESERVE] != vers[_RESERVE] or old[_SCALARS] != vers[_SCALARS]
            or old[_BATTLE] != vers[_BATTLE]):
        _put_blocks(seen, v, state, side, king, bt, C.occupancy(state) if occ is None else occ)
    if phase == "action":
        fr = stack[0]
        s = fr["side"]
        sel = fr["sel"]
        grp, tgt = fr["grp"], fr["target"]
        v["action"] = {"player": ROLES[s], "ap": fr["ap"], "event": fr["event"] or None,
                       "group": AREA_NAMES[grp] if grp >= 0 else None,
                       "path": [AREA_NAMES[a] for a in fr["path"]],
                       "selected": (BLOCK_KEY[sel] if s == side else "hidden") if sel >= 0 else None,
                       "muster": AREA_NAMES[tgt] if tgt >= 0 else None}
    if decision is not None:
        kind, s, subj, n = decision
        dd: dict[str, Any] = {"kind": kind, "player": ROLES[s], "count": n}
        if kind in ("reduce", "disband", "main"):
            dd["area"] = subj
        elif kind == "execute" or s == side and subj >= 0:
            dd["block"] = BLOCK_NAME[subj]
        v["decision"] = dd
    if bt is not None:
        v["battle"] = battle.view_part(state, role)
    if not old or old[_LOG] != vers[_LOG]:
        v["log"], v["log_kinds"], v["log_more"] = shared_recent_log(state["log"], role)
    if result is not None:
        v["prompt"] = f"Game over: {result} wins."
    elif frame is not None:
        v["prompt"] = step.prompt(state, frame, role)
    else:
        v["prompt"] = ""
    if acting:
        v["actions"] = _actions_part(seen, role, step.options(state, frame, role))
    if note:
        v["notes"] = [note]
    seen.views[role] = (tuple(vers), shape, phase, v)
    return v


def _put_blocks(seen: _Seen, v: View, state: State, side: int, king: int, bt: dict[str, Any] | None,
                occ: C.Occupancy) -> None:
    """The blocks a role sees (``blocks``, ``hidden``, ``face_down``; a side's ``pool`` and
    ``pools`` too), into ``v``."""
    revealed: Collection[int] = bt.get("revealed", ()) if bt is not None else ()
    hidden: dict[str, dict[str, int]] = {}
    if side < 0:
        blocks = _observer_blocks(state, revealed, hidden)
    else:
        own = _OWN[side][king]
        loc = state["loc"]
        blocks, pool = _own_blocks(seen, side, king)
        foe = 1 - side
        shown = [b for b in revealed if loc[b] < N_AREAS and b not in own] if revealed else ()
        if not shown:
            hidden = _hidden_part(seen, foe, king, occ[foe])
        else:
            blocks = blocks[:]
            _foe_blocks(state, side, king, revealed, blocks, hidden)
        v["pool"] = pool
        v["pools"] = {ROLES[side]: len(pool)}
    face_down = _face_down(state, side, hidden)
    if face_down:
        hidden = _without_face_down(hidden, face_down)
    v["blocks"] = blocks
    v["face_down"] = face_down
    v["hidden"] = hidden


#: The keys of a view in their order, for each shape (whether it is a side's view, then
#: whether it has ``action``, ``decision``, ``battle``, ``actions`` and ``notes``).
_BASE_KEYS = ("prompt", "log", "active", "scenario", "campaign", "last_campaign", "turn", "phase", "king",
              "pretender", "king_block", "pretender_block", "p1", "counts", "heirs", "minors_owed", "prisoner",
              "border_counts", "hand_size", "mulligan_used", "battles", "played", "role", "result", "blocks",
              "face_down", "hidden")
_templates: dict[tuple[bool, ...], View] = {}


def _template(shape: tuple[bool, ...]) -> View:
    """A dict with the keys of a view of this shape, in order (the values are filled in)."""
    t = _templates.get(shape)
    if t is None:
        side, action, decision, in_battle, acting, note = shape
        keys = [*_BASE_KEYS, *(("hand", "pool", "pools") if side else ()), *(("action",) if action else ()),
                *(("decision",) if decision else ()), *(("battle",) if in_battle else ()), "log_kinds",
                "log_more", *(("actions",) if acting else ()), *(("notes",) if note else ())]
        t = _templates[shape] = dict.fromkeys(keys)
    return t


# ----- what a thread's views saw of the state last
#: The fields followed, by their index in the copies and versions (see _observe).
_LOC, _STEPS, _DOWN, _MOVED, _RESERVE, _BC, _ATKMAIN, _CARDS_V, _SCALARS, _BATTLE, _LOG = range(11)


class _Seen:
    """The fields of the state a thread's views read, as last seen: a copy of each and its
    version, a number changed whenever the field is; and each role's last view, with the
    versions, shape and phase it was made from; and the parts kept (see build_view)."""

    __slots__ = ("copies", "vers", "clock", "log", "log_n", "log_last", "views", "blocks", "hidden", "diffs",
                 "raw", "parts")

    def __init__(self) -> None:
        self.copies: list[Any] = [None] * 11
        self.vers: list[int] = [0] * 11
        self.clock = itertools.count(1)
        self.log: list[Any] | None = None
        self.log_n = -1
        self.log_last: Any = None
        self.views: dict[str, tuple[tuple[int, ...], tuple[bool, ...], str, View]] = {}
        self.blocks: dict[tuple[int, int], _KeptBlocks] = {}
        self.hidden: dict[tuple[int, int], tuple[list[int], dict[str, dict[str, int]]]] = {}
        self.diffs: dict[tuple[int, int], tuple[list[int], list[int], frozenset[int]]] = {}
        #: the bytes of the copies of the per-block fields, by id (see _changed)
        self.raw: dict[int, tuple[list[int], bytes]] = {}
        #: the parts common to every role, and each role's actions, with what they were made from
        self.parts: dict[Any, tuple[Any, ...]] = {}


def _block_copy(seen: _Seen, x: list[int]) -> list[int]:
    """A copy of a per-block field for :func:`_observe`, with its bytes kept for
    :func:`_changed` (every value of these fields is a small number: ids, steps, flags)."""
    copy = x[:]
    raw = seen.raw
    if len(raw) >= 64:
        raw.clear()
    with contextlib.suppress(ValueError):  # a value that is not a byte: compared value by value
        raw[id(copy)] = (copy, bytes(copy))
    return copy


def _raw(seen: _Seen, x: list[int]) -> bytes | None:
    kept = seen.raw.get(id(x))
    return kept[1] if kept is not None and kept[0] is x else None


def _changed(seen: _Seen, old: list[int], new: list[int]) -> frozenset[int]:
    """The indices where two copies of a per-block field differ. Views of every role ask it
    of the same two copies, so the last few answers are kept (with the copies, which are
    never changed: :func:`_observe` replaces them). The bytes of both copies are compared as
    two numbers (one exclusive or), then the differing bytes are picked out."""
    key = (id(old), id(new))
    memo = seen.diffs
    hit = memo.get(key)
    if hit is not None and hit[0] is old and hit[1] is new:
        return hit[2]
    a, b = _raw(seen, old), _raw(seen, new)
    if a is None or b is None or len(a) != len(b):
        out = frozenset(compress(range(len(new)), map(ne, old, new)))
    else:
        d = int.from_bytes(a, "little") ^ int.from_bytes(b, "little")
        found = []
        at = 0
        while d:
            i = ((d & -d).bit_length() - 1) >> 3  # the lowest differing byte
            found.append(at + i)
            d >>= (i + 1) << 3
            at += i + 1
        out = frozenset(found)
    if len(memo) >= 16:
        memo.clear()
    memo[key] = (old, new, out)
    return out


class _PerThread(threading.local):
    """Each thread's :class:`_Seen` (views may be made in several threads at once), for views
    made outside a game's memo (roses.engine.memo: a Game keeps a :class:`_Seen` of its own)."""

    def __init__(self) -> None:
        self.seen = _Seen()


_LOCAL = _PerThread()


def forget() -> None:
    """Drop what this thread's views keep (the next views are made afresh)."""
    _LOCAL.seen = _Seen()


def _observe(seen: _Seen, state: State) -> list[int]:
    """The versions of the fields of ``state`` a view reads: each compared with its copy, and
    copied with a new version when it differs (lists changed in place are seen too)."""
    c, v = seen.copies, seen.vers
    x = state["loc"]
    if x != c[_LOC]:
        c[_LOC] = _block_copy(seen, x)
        v[_LOC] = next(seen.clock)
    x = state["steps"]
    if x != c[_STEPS]:
        c[_STEPS] = _block_copy(seen, x)
        v[_STEPS] = next(seen.clock)
    x = state["down"]
    if x != c[_DOWN]:
        c[_DOWN] = _block_copy(seen, x)
        v[_DOWN] = next(seen.clock)
    x = state["moved"]
    if x != c[_MOVED]:
        c[_MOVED] = _block_copy(seen, x)
        v[_MOVED] = next(seen.clock)
    x = state["reserve"]
    if x != c[_RESERVE]:
        c[_RESERVE] = _block_copy(seen, x)
        v[_RESERVE] = next(seen.clock)
    bc = state["bc"]
    kept = c[_BC]
    if kept is None or bc[0] != kept[0] or bc[1] != kept[1]:
        c[_BC] = (bc[0][:], bc[1][:])
        v[_BC] = next(seen.clock)
    atk, main = state["atk"], state["main"]
    kept = c[_ATKMAIN]
    if kept is None or atk != kept[0] or main != kept[1]:
        c[_ATKMAIN] = (atk[:], main[:])
        v[_ATKMAIN] = next(seen.clock)
    hands, played, mull = state["hands"], state["played"], state["mulligan_used"]
    kept = c[_CARDS_V]
    if kept is None or hands[0] != kept[0] or hands[1] != kept[1] or played != kept[2] or mull != kept[3]:
        c[_CARDS_V] = (hands[0][:], hands[1][:], played[:], mull[:])
        v[_CARDS_V] = next(seen.clock)
    minors = state["minors_owed"]
    x = (state["scenario"], state["campaign"], state["last_campaign"], state["turn"], state["king"],
         state["king_block"], state["prisoner"], state["p1"], state["result"], minors[0], minors[1])
    if x != c[_SCALARS]:
        c[_SCALARS] = x
        v[_SCALARS] = next(seen.clock)
    bt = state["battle"]
    if bt is None:
        if c[_BATTLE] is not None:
            c[_BATTLE] = None
            v[_BATTLE] = next(seen.clock)
    elif bt != c[_BATTLE]:
        c[_BATTLE] = copy_json(bt)
        v[_BATTLE] = next(seen.clock)
    log: list[Any] = state["log"]
    n = len(log)
    if log is not seen.log or n != seen.log_n or n and log[n - 1] is not seen.log_last:
        seen.log, seen.log_n, seen.log_last = log, n, log[n - 1] if n else None
        v[_LOG] = next(seen.clock)
    return v


# ----- parts of a view kept between calls: each with what it is made from (see build_view)
_HEIR_IDS: tuple[int, ...] = (*HEIRS[0], *HEIRS[1])
_HEIR_LOCS = itemgetter(*_HEIR_IDS)


def _heirs_part(seen: _Seen, loc: list[int], kb: int, king: int) -> tuple[dict[str, list[dict[str, Any]]], int]:
    """The ``heirs`` part of a view and the Pretender's block (:func:`C.pretender_block`),
    kept while the heirs' locations, the King and his side are the same."""
    key = (_HEIR_LOCS(loc), kb, king)
    kept = seen.parts.get("heirs")
    if kept is not None and kept[0] == key:
        return kept[1]
    where = dict(zip(_HEIR_IDS, key[0], strict=True))
    pb = next((h for h in HEIRS[1 - king] if where[h] < N_AREAS), -1)
    heirs: dict[str, list[dict[str, Any]]] = {}
    for s in (0, 1):
        row = []
        for h, tpl in _HEIR_TEMPLATES[s]:
            d = tpl.copy()
            lh = where[h]
            d["status"] = ("dead" if lh == DEAD else "defected" if lh == OFF else "minor" if lh == MINOR
                           else "prisoner" if lh == PRISON else "King" if h == kb
                           else "Pretender" if h == pb else "alive")
            row.append(d)
        heirs[ROLES[s]] = row
    seen.parts["heirs"] = (key, (heirs, pb))
    return heirs, pb


def _counts_part(seen: _Seen, occ: C.Occupancy) -> dict[str, list[int]]:
    """``counts``: blocks per area and side, kept for the occupancy seen last (the same object
    while the blocks stand where they stood: :func:`C.occupancy`)."""
    kept = seen.parts.get("counts")
    if kept is not None and kept[0] is occ:
        return kept[1]
    part = {"York": list(occ[0]), "Lancaster": list(occ[1])}
    seen.parts["counts"] = (occ, part)
    return part


def _border_counts_part(seen: _Seen) -> dict[str, list[list[int]]]:
    """``border_counts``: each side's crossings per border this turn (5.21), the borders
    crossed, kept while the crossings are the same (the copy seen by :func:`_observe`)."""
    bc = seen.copies[_BC]
    kept = seen.parts.get("border_counts")
    if kept is not None and kept[0] is bc:
        return kept[1]
    bc0, bc1 = bc
    part = {"York": [[bid, bc0[bid]] for bid in compress(_BORDER_RANGE, bc0)],
            "Lancaster": [[bid, bc1[bid]] for bid in compress(_BORDER_RANGE, bc1)]}
    seen.parts["border_counts"] = (bc, part)
    return part


def _battles_part(seen: _Seen, occ: C.Occupancy) -> list[dict[str, Any]]:
    """``battles``: the contested areas (6.1) with their attacker and Main Attack border,
    kept while the occupancy, the attackers and the Main Attack borders are the same."""
    areas = C.contested(occ)
    if not areas:
        return []
    atk_main = seen.copies[_ATKMAIN]
    kept = seen.parts.get("battles")
    if kept is not None and kept[0] is occ and kept[1] is atk_main:
        return kept[2]
    atk, main = atk_main
    part = [{"area": a, "name": AREA_NAMES[a], "attacker": ROLES[atk[a]] if atk[a] >= 0 else None,
             "main": main[a]} for a in areas]
    seen.parts["battles"] = (occ, atk_main, part)
    return part


def _hidden_part(seen: _Seen, foe: int, king: int, foe_occ: Sequence[int]) -> dict[str, dict[str, int]]:
    """``hidden`` when no enemy block is revealed: the enemy blocks per area (the occupancy's
    counts), the areas in the order of their first enemy block; kept while the enemy blocks
    stand where they stood (the copy of ``loc`` seen by :func:`_observe`)."""
    loc = seen.copies[_LOC]
    key = (foe, king)
    kept = seen.hidden.get(key)
    if kept is not None:
        old = kept[0]
        if old is loc or _OWN_SET[foe][king].isdisjoint(_changed(seen, old, loc)):
            if old is not loc:
                seen.hidden[key] = (loc, kept[1])
            return kept[1]
    foe_role = ROLES[foe]
    part = {AREA_NAMES[a]: {foe_role: foe_occ[a]} for a in dict.fromkeys(_OWN_GET[foe][king](loc)) if a < N_AREAS}
    seen.hidden[key] = (loc, part)
    return part


def _actions_part(seen: _Seen, role: str, options: list[tuple[str, Any]]) -> dict[str, Any]:
    """``actions``: the options as ``{verb: [args]}`` (:func:`options_map`), kept per role
    while the options are the same."""
    key = ("actions", role)
    kept = seen.parts.get(key)
    if kept is not None and kept[0] == options:
        return kept[1]
    part = options_map(options)
    seen.parts[key] = (options, part)
    return part


def _treason_note(state: State, side: int, bt: dict[str, Any] | None, step: str) -> str | None:
    """Why a Treason card's roll (6.9, card text) is not offered now: it comes only before the
    first round of a battle, against an enemy block outside the Reserve that has a loyalty
    number; unmade, it waits for another battle of the turn."""
    if bt is None:
        return ("Your Treason roll is ready: it is offered before the first round of a battle this turn, "
                "started by either side, when an enemy block outside the Reserve has a loyalty number (6.9).")
    if step == "treason":
        return None
    area = AREA_NAMES[bt["area"]]
    foes = [b for b in bt["revealed"] if C.owner(state, b) != side]
    if any(C.treachery_dice(state, b, C.TREASON) > 0 for b in foes):
        return f"You kept your Treason roll in the battle of {area}: it waits for another battle this turn (6.9)."
    return (f"Your Treason roll was not offered in the battle of {area}: no enemy block fighting there has a "
            "loyalty number (6.9); heirs, rose nobles, mercenaries and levies never change sides. "
            "It waits for another battle this turn.")


def _block_dict(template: dict[str, Any], where: int, steps: int, down: int, moved: int, reserve: int,
                revealed: bool) -> dict[str, Any]:
    """A block as the web client draws it (a copy of its template); flags that are false/zero
    are left out."""
    d = template.copy()
    d["steps"] = steps
    d["where"] = _WHERE[where]
    if down:
        d["down"] = True
    if moved:
        d["moved" if moved != 3 else "recruited"] = True
    if reserve:
        d["reserve"] = reserve
    if revealed:
        d["revealed"] = True
    return d


#: ``_OWN[side][king]``: the blocks ``side`` owns while ``king`` holds the throne (the Rebel
#: is the Pretender's, 3.26), by id; ``_OWN_GET`` picks their entries from a per-block list.
_OWN: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(C.owned_blocks(s, k) for k in (0, 1)) for s in (0, 1))
_OWN_GET = tuple(tuple(itemgetter(*_OWN[s][k]) for k in (0, 1)) for s in (0, 1))
_OWN_SET: tuple[tuple[frozenset[int], ...], ...] = tuple(tuple(frozenset(_OWN[s][k]) for k in (0, 1)) for s in (0, 1))

#: ``_OWN_INDEX[side][king][b]``: the place of block b in ``_OWN[side][king]``, -1 if not there.
_OWN_INDEX: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_OWN[s][k].index(b) if b in _OWN[s][k] else -1 for b in range(N_BLOCKS)) for k in (0, 1))
    for s in (0, 1))
#: Kept block dicts of a side, per (side, King's side): (the copies of loc, steps, down, moved
#: and reserve seen by :func:`_observe` they were made from; the block dicts, aligned with
#: ``_OWN[side][king]``, ``None`` for a block out of play; the keys of the blocks in the pool;
#: the dicts of the blocks in play; the place of each block's dict in that list, -1 out of
#: play). Views share these: they are never changed, only replaced.
_KeptBlocks = tuple[tuple[list[int], ...], list[dict[str, Any] | None], list[str], list[dict[str, Any]], list[int]]
_BLOCK_RANGE = range(N_BLOCKS)


def _own_blocks(seen: _Seen, side: int, king: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The dicts of ``side``'s blocks in play and the keys of those in its pool, in block
    order, for the state :func:`_observe` saw last.

    Between two views most blocks are unchanged, so the dicts of the last call are kept and
    only those of changed blocks are made again (and the lists holding them, when one is
    made again). All are shared: read them only."""
    c = seen.copies
    cols = (c[_LOC], c[_STEPS], c[_DOWN], c[_MOVED], c[_RESERVE])
    key = (side, king)
    kept = seen.blocks.get(key)
    templates = _BLOCK_TEMPLATES[side]
    own = _OWN[side][king]
    if kept is None:
        locs, steps, down, moved, reserve = cols
        dicts: list[dict[str, Any] | None] = [
            None if locs[b] == OFF or locs[b] == DEAD
            else _block_dict(templates[b], locs[b], steps[b], down[b], moved[b], reserve[b], False)
            for b in own]
        pool = [BLOCK_KEY[b] for b in own if locs[b] == POOL]
        seen.blocks[key] = (cols, dicts, pool, *_in_play(dicts))
        return seen.blocks[key][3], pool
    kcols = kept[0]
    if kcols[0] is cols[0] and kcols[1] is cols[1] and kcols[2] is cols[2] and kcols[3] is cols[3] \
            and kcols[4] is cols[4]:
        return kept[3], kept[2]
    changed: set[int] = set()
    for old, new in zip(kcols, cols, strict=True):
        if old is not new:
            changed |= _changed(seen, old, new)
    index = _OWN_INDEX[side][king]
    locs, steps, down, moved, reserve = cols
    old_locs = kcols[0]
    dicts, pool, blocks, place = kept[1], kept[2], kept[3], kept[4]
    copied = False
    reshaped = False  # a block came into play or left it
    new_pool = False
    for b in changed:
        i = index[b]
        if i < 0:
            continue
        if not copied:
            dicts = dicts[:]
            blocks = blocks[:]
            copied = True
        lb = locs[b]
        if lb == POOL or old_locs[b] == POOL:
            new_pool = True
        if lb in (OFF, DEAD):
            d = None
        else:
            d = _block_dict(templates[b], lb, steps[b], down[b], moved[b], reserve[b], False)
        dicts[i] = d
        j = place[i]
        if d is None or j < 0:
            reshaped = reshaped or (d is None) != (j < 0)
        else:
            blocks[j] = d
    if new_pool:
        pool = [BLOCK_KEY[b] for b in own if locs[b] == POOL]
    if reshaped:
        blocks, place = _in_play(dicts)
    seen.blocks[key] = (cols, dicts, pool, blocks, place)
    return blocks, pool


def _in_play(dicts: list[dict[str, Any] | None]) -> tuple[list[dict[str, Any]], list[int]]:
    """The dicts of the blocks in play, and the place of each block's dict among them (-1 for
    a block out of play)."""
    blocks = [d for d in dicts if d is not None]
    place = []
    j = 0
    for d in dicts:
        place.append(-1 if d is None else j)
        j += d is not None
    return blocks, place


def _foe_blocks(state: State, side: int, king: int, revealed: Collection[int], blocks: list[dict[str, Any]],
                hidden: dict[str, dict[str, int]]) -> None:
    """Enemy blocks in a view while some are revealed in the battle: those in ``blocks`` (kept in
    block order), the others counted per area in ``hidden``."""
    loc = state["loc"]
    steps, down, moved, reserve = state["steps"], state["down"], state["moved"], state["reserve"]
    foe = 1 - side
    templates = _BLOCK_TEMPLATES[foe]
    foe_role = ROLES[foe]
    keyed = [(BLOCK_ID[d["key"]], d) for d in blocks]
    for b in _OWN[foe][king]:
        lb = loc[b]
        if lb >= N_AREAS:
            continue
        if b in revealed:
            keyed.append((b, _block_dict(templates[b], lb, steps[b], down[b], moved[b], reserve[b], True)))
        else:
            counts = hidden.get(AREA_NAMES[lb])
            if counts is None:
                counts = hidden[AREA_NAMES[lb]] = {}
            counts[foe_role] = counts.get(foe_role, 0) + 1
    keyed.sort(key=lambda t: t[0])
    blocks[:] = [d for _, d in keyed]


def _observer_blocks(state: State, revealed: Collection[int], hidden: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """The blocks in the Observer's view (those revealed in the battle); every other block in an
    area counted per area and side in ``hidden``."""
    loc = state["loc"]
    steps, down, moved, reserve = state["steps"], state["down"], state["moved"], state["reserve"]
    rebel_owner = 1 - state["king"]
    blocks = []
    for b in range(N_BLOCKS):
        lb = loc[b]
        if lb >= N_AREAS:
            continue
        o = B_SIDE[b]
        if o == REBEL:
            o = rebel_owner
        if b in revealed:
            blocks.append(_block_dict(_BLOCK_TEMPLATES[o][b], lb, steps[b], down[b], moved[b], reserve[b], True))
        else:
            counts = hidden.get(AREA_NAMES[lb])
            if counts is None:
                counts = hidden[AREA_NAMES[lb]] = {}
            r = ROLES[o]
            counts[r] = counts.get(r, 0) + 1
    return blocks


def _face_down(state: State, side: int, hidden: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """Other sides' blocks lying face down on the map: eliminated mercenaries at home until the
    next campaign (6.85), out of play. Lying down is public (a reader of the board sees it), so
    they are counted apart, per area and side (and taken out of ``hidden`` by
    :func:`_without_face_down`)."""
    down = state["down"]
    if not any(down):
        return {}
    loc = state["loc"]
    rebel_owner = 1 - state["king"]
    out: dict[str, dict[str, int]] = {}
    for b in compress(range(N_BLOCKS), down):
        lb = loc[b]
        if lb >= N_AREAS:
            continue
        o = B_SIDE[b]
        if o == REBEL:
            o = rebel_owner
        if o == side:
            continue
        area, r = AREA_NAMES[lb], ROLES[o]
        counts = out.setdefault(area, {})
        counts[r] = counts.get(r, 0) + 1
    return out


def _without_face_down(hidden: dict[str, dict[str, int]],
                       face_down: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """``hidden`` less the blocks lying face down (a new dict: ``hidden`` may be shared)."""
    hidden = dict(hidden)
    for area, per_side in face_down.items():
        for r, n in per_side.items():
            for _ in range(n):
                left = hidden.get(area, {}).get(r, 0) - 1
                if left > 0:
                    hidden[area] = {**hidden[area], r: left}
                elif area in hidden:
                    rest = {k: m for k, m in hidden[area].items() if k != r}
                    if rest:
                        hidden[area] = rest
                    else:
                        del hidden[area]
    return hidden


def _decision(state: State) -> tuple[str, int, int, int] | None:
    """The pending decision a view shows: (kind, side, subject, count), as the steps on the
    stack say (Main Attack declarations, Supply and Political decisions)."""
    stack = state["stack"]
    if not stack or state["result"] is not None:
        return None
    fr = stack[-1]
    name = fr["step"]
    if name == "declare":
        return ("main", fr["side"], fr["area"], 0)
    if name in ("enter", "execute", "reduce", "home", "disband"):
        return (name, fr["side"], fr["subj"], fr["n"])
    return None


# ======================================================================= secrets
def secrets(rules: Rules, state: State, role: str) -> set[str]:
    """Tokens that must not appear in anything sent to role now (never one that legitimately does).

    * the key (e.g. ``"Warwick/Y"``) of every enemy block in play or in the pool that is not
      revealed in the current battle. Keys are shown only in the owner's view and, for revealed
      participants, in the battle part; log lines name blocks by title, never by key;
    * the tag of every card in the other hand(s) (including a played, unrevealed card) and of
      every undealt card. Tags are shown only in the holder's hand.
    """
    side = _side(role)
    revealed: Collection[int] = ()
    if state["battle"] is not None:
        revealed = set(state["battle"].get("revealed", []))
    loc = state["loc"]
    # the enemy's blocks (the Rebel is the Pretender's, 3.26); an observer's: every block
    enemy = _OWN[1 - side][state["king"]] if side >= 0 else range(N_BLOCKS)
    out = {BLOCK_KEY[b] for b in enemy if loc[b] != DEAD and loc[b] != OFF and b not in revealed}
    for s in (0, 1):
        if s != side:
            out.update(CARD_TAG[c] for c in state["hands"][s])
    out.update(CARD_TAG[c] for c in state["deck"])
    if state["battle"] is not None:
        out |= battle.secrets_part(state, role)
    return out


# ======================================================================= invariants
def check_invariants(rules: StepRules, state: State) -> list[str]:
    p: list[str] = []
    phase = rules.steps.phase(state)
    loc, steps, down = state["loc"], state["steps"], state["down"]
    for name, n in (("loc", N_BLOCKS), ("steps", N_BLOCKS), ("down", N_BLOCKS), ("moved", N_BLOCKS),
                    ("reserve", N_BLOCKS), ("via", N_BLOCKS), ("pirate", N_BLOCKS), ("atk", N_AREAS),
                    ("main", N_AREAS)):
        if len(state[name]) != n:
            p.append(f"{name} has length {len(state[name])}")
    if p:
        return p
    valid = set(range(N_AREAS)) | {POOL, MINOR, OFF, DEAD, PRISON}
    for b in range(N_BLOCKS):
        lb = loc[b]
        if lb not in valid:
            p.append(f"{BLOCK_KEY[b]} at invalid location {lb}")
            continue
        if lb < N_AREAS and not ENTERABLE[C.owner(state, b)][lb]:
            p.append(f"{BLOCK_KEY[b]} in the enemy exile area {AREA_NAMES[lb]}")
        if lb in (DEAD, OFF):
            if steps[b] != 0:
                p.append(f"{BLOCK_KEY[b]} is {_where(lb)} with {steps[b]} steps")
        elif down[b]:
            if steps[b] != 0:
                p.append(f"face-down {BLOCK_KEY[b]} has steps")
            if lb != POOL and not (B_TYPE[b] == 5 and lb < N_AREAS and AREA_KIND[lb] == EXILE):
                p.append(f"face-down {BLOCK_KEY[b]} at {_where(lb)}")
        elif not 1 <= steps[b] <= B_STEPS[b]:
            p.append(f"{BLOCK_KEY[b]} has {steps[b]} steps at {_where(lb)}")
        pr = B_PAIR[b]
        if pr >= 0 and pr > b and loc[pr] not in (DEAD, OFF) and lb not in (DEAD, OFF):
            p.append(f"both versions of {BLOCK_KEY[b]} in play")
        if B_TYPE[b] != 0 and lb in (MINOR, PRISON):
            p.append(f"{BLOCK_KEY[b]} is a non-heir at {_where(lb)}")
        if lb == POOL and B_TYPE[b] == 0:
            p.append(f"heir {BLOCK_KEY[b]} in the pool")
    # (the Rebel may walk into Scotland when Lancaster is Pretender: only its deployment is barred)
    if loc[REBEL_BLOCK] < N_AREAS and AREA_KIND[loc[REBEL_BLOCK]] == EXILE and EXILE_OF[loc[REBEL_BLOCK]] != \
            1 - state["king"]:
        p.append("the Rebel is in the King's exile area")
    # border counts (5.21; Surprise +1)
    for s in (0, 1):
        bonus = 1 if state["surprise"] == s else 0
        for bid in range(N_BORDERS):
            if state["bc"][s][bid] > BORDER_LIMIT[bid] + bonus:
                p.append(f"{ROLES[s]} crossed {border_name(bid)} {state['bc'][s][bid]} times")
    # cards
    cards = sorted(state["hands"][0] + state["hands"][1] + state["deck"] + state["discard"])
    if cards != list(range(N_CARDS)):
        p.append(f"cards not conserved: {cards}")
    if phase == "card":
        t = state["turn"]
        for s in (0, 1):
            if len(state["hands"][s]) != 8 - t:
                p.append(f"{ROLES[s]} holds {len(state['hands'][s])} cards in turn {t}")
    # King / Pretender
    kb = state["king_block"]
    if kb >= 0:
        if B_TYPE[kb] != 0 or B_SIDE[kb] != state["king"]:
            p.append(f"King block {BLOCK_KEY[kb]} is not an heir of the King's side")
        elif loc[kb] >= N_AREAS:
            p.append(f"the King {BLOCK_KEY[kb]} is at {_where(loc[kb])}")
    if state["prisoner"] >= 0 and loc[state["prisoner"]] != PRISON:
        p.append("prisoner flag without a prisoner")
    if any(x < 0 for x in state["minors_owed"]):
        p.append("negative minors owed")
    if state["result"] is None:
        for s in (0, 1):
            if not C.heirs_alive(state, s):
                p.append(f"{ROLES[s]} has no heir but the game goes on")
    elif phase != "over":
        p.append("result set but phase is not over")
    # no battle left open outside the Action and Battle Phases
    if phase in ("card", "mulligan", "supply", "political"):
        occ = C.occupancy(state)
        for a in range(N_AREAS):
            if occ[0][a] and occ[1][a]:
                p.append(f"{AREA_NAMES[a]} is contested in the {phase} phase")
    # exile limits right after the campaign reset (7.2, 8.5)
    if phase == "mulligan" and state["turn"] == 1:
        for s in (0, 1):
            for a in EXILE_AREAS[s]:
                extras = [b for b in C.blocks_in(state, a, s)
                          if not (B_TYPE[b] == 5 and _home(b) == a) and B_TYPE[b] != 0]
                if len(extras) > EXILE_LIMIT[a] and state["campaign"] > _first_campaign(state):
                    p.append(f"{AREA_NAMES[a]} over its exile limit after the reset")
    if state["battle"] is not None:
        p.extend(battle.check_invariants_part(state))
    if state["battle"] is None and phase == "battle" and state["result"] is None \
            and not state["battles"]:
        p.append("Battle Phase waiting with no battle to choose")
    return p


def _home(b: int) -> int:
    return B_HOME[b]


def _first_campaign(state: State) -> int:
    return int(SCENARIOS[state["scenario"]]["first_campaign"])


# ======================================================================= text
def describe(view: View) -> str:
    lines = [f"Richard III — {view.get('scenario')} — campaign {view.get('campaign')}, turn {view.get('turn')}, "
             f"{view.get('phase')} phase. King: {view.get('king')} ({view.get('king_block')}); "
             f"Pretender: {view.get('pretender')} ({view.get('pretender_block')})."]
    if view.get("p1"):
        lines.append(f"Player 1: {view['p1']}. Cards played: {view.get('played')}")
    counts = view.get("counts", {})
    own: dict[int, list[str]] = {}
    for b in view.get("blocks", []):
        if b["where"] in AREA_ID and b["side"] == view.get("role"):
            own.setdefault(AREA_ID[b["where"]], []).append(
                f"{b['name']} {b['steps']}/{b['max']} {b['rating']}" + (" (down)" if b.get("down") else ""))
    for a in range(N_AREAS):
        y = counts.get("York", [0] * N_AREAS)[a]
        la = counts.get("Lancaster", [0] * N_AREAS)[a]
        if y or la:
            mine = "; ".join(own.get(a, []))
            lines.append(f"  {AREA_NAMES[a]:<12} York {y}  Lancaster {la}" + (f"   [{mine}]" if mine else ""))
    if "hand" in view:
        lines.append("Hand: " + ", ".join(c["name"] for c in view["hand"]))
    if view.get("pool"):
        lines.append("Pool: " + ", ".join(view["pool"]))
    for r, hs in view.get("heirs", {}).items():
        lines.append(f"{r} heirs: " + ", ".join(f"{h['name']} ({h['status']})" for h in hs))
    if "action" in view:
        a = view["action"]
        lines.append(f"{a['player']} acting: {a['ap']} AP" + (f", {a['event']}" if a["event"] else ""))
    if "battle" in view:
        lines.append(f"Battle: {view['battle']}")
    lines.append(view.get("prompt", ""))
    return "\n".join(lines)


_PLAIN_LABELS = {"keep": "Keep the hand", "redeal": "Ask for a redeal", "stop": "Stop here",
                 "end_group": "End this group", "end": "End the Action Phase", "execute": "Execute him",
                 "spare": "Spare him"}
_BLOCK_VERBS = {"block": "Move", "sea": "Sea move", "recruit": "Recruit", "reduce": "Reduce",
                "disband": "Send to the pool"}
_AREA_VERBS = {"move": "Activate the group in", "to": "Move to", "sea_to": "Sea move to", "place": "Deploy in",
               "muster": "Muster at", "plague": "Plague on", "battle": "Fight the battle in", "enter": "Enter in",
               "home": "Send home to"}


def label(state: State, role: str, verb: str, arg: Any) -> str:
    if state["battle"] is not None:
        return battle.label_part(state, role, verb, arg)
    if arg is None:
        return _PLAIN_LABELS.get(verb) or verb.replace("_", " ")
    block_verb = _BLOCK_VERBS.get(verb)
    if block_verb is not None and arg in BLOCK_ID:
        b = BLOCK_ID[arg]
        where = state["loc"][b]
        return f"{block_verb} {BLOCK_NAME[b]} ({_where(where)})" if where < N_AREAS else f"{block_verb} {BLOCK_NAME[b]}"
    if verb == "play":
        if isinstance(arg, int) and 0 <= arg < N_CARDS:
            return f"Play {CARD_NAME[arg]} ({CARD_AP[arg]} AP{', event' if CARD_EVENT[arg] else ''})"
        return f"Play card {arg}"
    if verb == "main":
        return f"Main Attack from {arg}" if arg in AREA_ID else f"Main Attack from the {arg}"
    if isinstance(arg, str) and arg in AREA_ID:
        return f"{_AREA_VERBS.get(verb, verb)} {arg}"
    return f"{verb} {arg}"


__all__ = ["build_view", "check_invariants", "describe", "label", "secrets", "OBSERVER"]
