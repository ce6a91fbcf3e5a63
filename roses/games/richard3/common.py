"""Helpers shared by the core rules, the battle module, the views and the AI (see STATE.md for
the state layout)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from itertools import compress
from operator import itemgetter, mul
from typing import Any

from roses.engine.contract import copy_json
from roses.games.richard3.data import (
    AREA_NAMES,
    AREA_SHIELDS,
    B_CATH_AREA,
    B_CITY_AREA,
    B_HOME,
    B_LOYALTY,
    B_NEVILLE,
    B_PAIR,
    B_ROSE,
    B_SHIELD_AREAS,
    B_SHIELDS,
    B_SIDE,
    B_TYPE,
    BLOCK_NAME,
    BOMBARD,
    BORDER_LIMIT,
    CHURCH,
    CROWN,
    DEAD,
    DEFECTED_HEIR,
    ENTERABLE,
    HEIR,
    HEIRS,
    HOUSE_SHIELD,
    LEVY,
    MERC,
    MINOR,
    N_AREAS,
    N_BLOCKS,
    NO_WARWICK_TARGET,
    NOBLE,
    OFF,
    PERSONAL_SHIELD_OWNER,
    POOL,
    PRISON,
    REBEL,
    REBEL_T,
    ROLES,
    WALES,
    WARWICK,
    WARWICK_KIN,
    WELSH,
)

State = dict[str, Any]

#: "No block / no area / no side / no card" in the int fields of the state.
NONE = -1


class Moved(IntEnum):
    """``state["moved"][b]``: what block b did this Game Turn (5.2, 5.3, 5.4)."""

    FREE = 0
    LAND = 1
    SEA = 2
    RECRUITED = 3


class Reserve(IntEnum):
    """``state["reserve"][b]`` (6.3)."""

    NO = 0
    ATTACKER = 1  # the attacker's Reserve: entered by a border other than the Main Attack
    P2 = 2  # Player 2 reinforcing a battle Player 1 started


# Area control (2.1), from the point of view of one side.
VACANT, FRIENDLY, ENEMY, CONTESTED = 0, 1, 2, 3

# Treachery rollers (6.9, 6.91, Treason card).
KING, PRETENDER, WARWICK_ROLL, TREASON = "king", "pretender", "warwick", "treason"


# ------------------------------------------------------------------ sides and roles
def other(side: int) -> int:
    return 1 - side


def pretender_side(state: State) -> int:
    """The side (0 York, 1 Lancaster) that is Pretender now."""
    return 1 - int(state["king"])


def owner(state: State, b: int) -> int:
    """Side (0/1) that owns block b now: its printed side, the Pretender for the Rebel (3.26)."""
    s = B_SIDE[b]
    return 1 - int(state["king"]) if s == REBEL else s


def role_of(side: int) -> str:
    return ROLES[side]


def side_of(role: str) -> int:
    return 0 if role == "York" else 1 if role == "Lancaster" else -1


# ------------------------------------------------------------------ copies
#: State fields that are lists of numbers or strings (STATE.md), and lists of such lists.
_FLAT_FIELDS = frozenset(("roles", "minors_owed", "loc", "steps", "down", "moved", "via", "reserve", "pirate",
                          "deck", "discard", "played", "mulligan_used", "atk", "main", "battles", "rigged"))
_NESTED_FIELDS = frozenset(("hands", "bc", "known"))


def copy_state(state: State, log: bool = True, shared_ent: bool = False) -> State:
    """An independent copy of a Richard III state (the layout of STATE.md), field by field;
    without ``log`` the copy has no log. Log entries are never changed once written, so the
    log list is copied and its entries shared. With ``shared_ent`` the lists of the borders
    each side entered an area through (``ent[side][area]``) are shared too (see
    :func:`undo_copy`)."""
    out: State = {}
    for k, v in state.items():
        if type(v) is list:
            if k in _FLAT_FIELDS:
                out[k] = v[:]
            elif k in _NESTED_FIELDS:
                out[k] = list(map(_list_copy, v))
            elif k == "ent":
                out[k] = list(map(_list_copy, v)) if shared_ent else [list(map(_list_copy, side)) for side in v]
            elif k == "log":
                if log:
                    out[k] = v[:]
            else:
                out[k] = copy_json(v)
        elif type(v) is dict:
            out[k] = copy_json(v)
        else:
            out[k] = v
    return out


def undo_copy(state: State) -> State:
    """The copy a game keeps to go back to on undo (Rules.undo_copy): as :func:`copy_state`,
    but the lists of ``ent[side][area]`` are shared, since the rules replace them and never
    change them in place (``action._enter``). Those are some 140 lists; the copy is made before
    every action that may begin a run of undoable actions."""
    return copy_state(state, shared_ent=True)


def search_copy(state: State) -> State:
    """A copy of a state for a search to play on with these rules (Rules.search_copy): as
    :func:`copy_state`, but the lists of the borders each side entered an area through
    (``ent[side][area]``) are shared, since the rules replace them and never change them in
    place, and the log starts empty, since the rules only ever append to it (STATE.md)."""
    keys = tuple(state)
    layout = _SEARCH_LAYOUTS.get(keys)
    if layout is None:
        layout = _search_layout(keys)
    flat, others = layout
    out = state.copy()  # the scalars, shared
    if flat is not None:  # the lists of numbers or strings, by C calls
        out.update(zip(flat[0], map(_list_copy, flat[1](state)), strict=True))
    for k, c in others:
        out[k] = c(out[k])
    return out


#: Fields whose values are always numbers, strings or None (STATE.md): shared by the copies.
_SCALAR_FIELDS = frozenset(("result", "reveals", "scenario", "campaign", "last_campaign", "turn", "king",
                            "king_block", "prisoner", "p1", "piracy", "treason", "surprise", "force_march",
                            "rng", "rolls"))
#: How :func:`search_copy` copies a state with these fields (a tuple of its keys, in order):
#: the flat list fields (their keys, and a getter of their values) and the other fields that
#: are not scalars, each with its copier.
_SearchLayout = tuple[tuple[tuple[str, ...], Any] | None, tuple[tuple[str, Any], ...]]
_SEARCH_LAYOUTS: dict[tuple[str, ...], _SearchLayout] = {}


def _search_layout(keys: tuple[str, ...]) -> _SearchLayout:
    flat = tuple(k for k in keys if k in _FLAT_FIELDS)
    others = tuple((k, _SEARCH_COPY.get(k, copy_json)) for k in keys
                   if k not in _FLAT_FIELDS and k not in _SCALAR_FIELDS)
    # itemgetter of one key gives the value itself, of several a tuple
    getter = (lambda st: (st[flat[0]],)) if len(flat) == 1 else itemgetter(*flat)
    layout: _SearchLayout = ((flat, getter) if flat else None, others)
    if len(_SEARCH_LAYOUTS) >= 64:  # a few layouts in practice (fields added by events, old records)
        _SEARCH_LAYOUTS.clear()
    _SEARCH_LAYOUTS[keys] = layout
    return layout


def _frames(v: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return list(map(copy_json, v))


def _nested(v: list[list[Any]]) -> list[list[Any]]:
    return list(map(_list_copy, v))


def _empty(v: list[Any]) -> list[Any]:
    return []


_list_copy = list.copy
#: How :func:`search_copy` copies each list field of the layout (the others: by type).
_SEARCH_COPY: dict[str, Any] = {
    **dict.fromkeys(_FLAT_FIELDS, _list_copy), **dict.fromkeys(_NESTED_FIELDS, _nested),
    "ent": _nested, "stack": _frames, "log": _empty,
}


# ------------------------------------------------------------------ what each side remembers
# state["known"][s][b] > 0: side s knows which enemy block b is (the value is the strength it
# was last seen at). Block games are played from memory: a side sees the setup (public, p.10),
# every block revealed in a battle (6.1) and every heir named in play (6.81, 6.82, 8.3, 8.4),
# and it can follow a block with its eyes as it moves. It loses track of a block that goes
# to the pool (face-down blocks stand up mixed, 8.5) and of every recruit (5.4). Only the
# bots read it (ruling K1 in RULINGS.md); views never carry it.
def new_knowledge(state: State) -> list[list[int]]:
    """What each side knows at setup: every block standing on the map (the setup is public)."""
    loc, steps = state["loc"], state["steps"]
    known = [[0] * N_BLOCKS, [0] * N_BLOCKS]
    for b in range(N_BLOCKS):
        if loc[b] < N_AREAS and B_SIDE[b] != REBEL:
            known[1 - owner(state, b)][b] = steps[b]
    return known


def learn(state: State, b: int) -> None:
    """The enemy of b's owner sees block b (and its strength) now."""
    known = state.get("known")
    if known is not None and state["loc"][b] < N_AREAS:
        known[1 - owner(state, b)][b] = max(1, state["steps"][b])


def forget(state: State, b: int) -> None:
    """Nobody but its owner can tell which block b is any more (a recruit, 5.4)."""
    known = state.get("known")
    if known is not None:
        known[0][b] = known[1][b] = 0


# ------------------------------------------------------------------ locations and control
def on_map(loc: int) -> bool:
    """True if loc is an area (map, Isle of Man or exile)."""
    return loc < N_AREAS


def blocks_in(state: State, area: int, side: int | None = None) -> list[int]:
    """Blocks at ``area`` (an area, or any other place of ``loc``: the pool...), optionally
    only those owned by side, by id."""
    if side is None:
        return _find(state["loc"], area, 0, N_BLOCKS)
    return owned_at(state, side, area)


def owned_at(state: State, side: int, where: int) -> list[int]:
    """The blocks ``side`` owns (the Rebel is the Pretender's, 3.26) whose ``loc`` is
    ``where`` (an area, the pool...), by id."""
    runs = _OWNED_RUNS[side][state["king"]]
    loc = state["loc"]
    if len(runs) == 1:
        return _find(loc, where, runs[0][0], runs[0][1])
    out = []
    for lo, hi in runs:
        out += _find(loc, where, lo, hi)
    return out


def _find(values: list[int], x: int, lo: int, hi: int) -> list[int]:
    """The indices i, lo <= i < hi, where ``values[i] == x``, in order, found by C calls (a
    search per index found) rather than by looking at each entry in Python."""
    seg = values[lo:hi]
    out = []
    i = 0
    for _ in range(seg.count(x)):
        i = seg.index(x, i)
        out.append(lo + i)
        i += 1
    return out


def _owned(side: int, king: int) -> tuple[int, ...]:
    return tuple(b for b in range(N_BLOCKS) if (B_SIDE[b] if B_SIDE[b] != REBEL else 1 - king) == side)


def id_runs(ids: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """``ids`` (ascending) as runs of consecutive ids, ``(first, last + 1)`` each, in order."""
    runs: list[list[int]] = []
    for b in ids:
        if runs and runs[-1][1] == b:
            runs[-1][1] = b + 1
        else:
            runs.append([b, b + 1])
    return tuple((lo, hi) for lo, hi in runs)


#: ``_OWNED[side][king]``: the blocks side owns while king's side holds the throne, by id.
_OWNED: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(_owned(s, k) for k in (0, 1)) for s in (0, 1))
#: ``_OWNED_RUNS[side][king]``: ``_OWNED[side][king]`` as runs of consecutive ids (a side's
#: blocks are numbered together: one run, or two with the Rebel), for slices of ``loc``.
_OWNED_RUNS = tuple(tuple(id_runs(_OWNED[s][k]) for k in (0, 1)) for s in (0, 1))


def owned_runs(side: int, king: int) -> tuple[tuple[int, int], ...]:
    """:func:`owned_blocks` as runs of consecutive ids (:func:`id_runs`)."""
    return _OWNED_RUNS[side][king]


def owned_blocks(side: int, king: int) -> tuple[int, ...]:
    """Every block ``side`` owns while ``king`` holds the throne (the Rebel is the
    Pretender's, 3.26), wherever it is, by id."""
    return _OWNED[side][king]


_YORK_BLOCKS = tuple(b for b in range(N_BLOCKS) if B_SIDE[b] == 0)
_LANC_BLOCKS = tuple(b for b in range(N_BLOCKS) if B_SIDE[b] == 1)
_REBELS = tuple(b for b in range(N_BLOCKS) if B_SIDE[b] == REBEL)


#: Blocks per area for York and Lancaster (:func:`occupancy`); read-only, shared.
Occupancy = tuple[Sequence[int], Sequence[int]]

#: The last occupancy computed: (a copy of the ``loc`` it was computed from, ``king``, result).
_last_occupancy: tuple[list[int], int, Occupancy] = ([], -1, ((), ()))


def occupancy(state: State) -> Occupancy:
    """Number of blocks per area for York and Lancaster (one pass over the blocks).

    The rules ask for it many times between two moves, so the last result is kept and given
    again while ``loc`` and the King's side (the Rebel's owner) are the same. It is shared:
    read it, never change it (its counts are tuples)."""
    global _last_occupancy
    loc = state["loc"]
    king = state["king"]
    last = _last_occupancy
    if last[1] == king and last[0] == loc:
        return last[2]
    y = [0] * N_AREAS
    la = [0] * N_AREAS
    for b in _YORK_BLOCKS:
        a = loc[b]
        if a < N_AREAS:
            y[a] += 1
    for b in _LANC_BLOCKS:
        a = loc[b]
        if a < N_AREAS:
            la[a] += 1
    for b in _REBELS:
        a = loc[b]
        if a < N_AREAS:
            (la if king == 0 else y)[a] += 1
    occ = (tuple(y), tuple(la))
    _last_occupancy = (loc[:], king, occ)
    return occ


def move_block(state: State, b: int, to: int) -> None:
    """Put block b at ``to`` (``state["loc"][b] = to``). If the kept occupancy is that of the
    state before the move, it is moved on with the block (one count less where b was, one
    more where it goes) rather than counted again at the next :func:`occupancy`."""
    global _last_occupancy
    loc = state["loc"]
    came = loc[b]
    kept_loc, king, occ = _last_occupancy
    if king == state["king"] and kept_loc == loc:
        s = B_SIDE[b]
        if s == REBEL:
            s = 1 - king
        counts = list(occ[s])
        if came < N_AREAS:
            counts[came] -= 1
        if to < N_AREAS:
            counts[to] += 1
        moved = kept_loc[:]  # a new copy: another thread may be reading the kept one
        moved[b] = to
        _last_occupancy = (moved, king, (tuple(counts), occ[1]) if s == 0 else (occ[0], tuple(counts)))
    loc[b] = to


#: The contested areas of the occupancy seen last: (that occupancy, its contested areas).
_last_contested: tuple[Occupancy, tuple[int, ...]] = (((), ()), ())


def contested(occ: Occupancy) -> tuple[int, ...]:
    """The areas both sides occupy in ``occ`` (a result of :func:`occupancy`), in area order.
    Kept for the occupancy seen last (the same object while ``loc`` is unchanged)."""
    global _last_contested
    last = _last_contested
    if last[0] is occ:
        return last[1]
    y, la = occ
    out = tuple(compress(range(len(y)), map(mul, y, la)))
    _last_contested = (occ, out)
    return out


def control(state: State, area: int, side: int, occ: Occupancy | None = None) -> int:
    """VACANT, FRIENDLY, ENEMY or CONTESTED for side (2.1)."""
    if occ is None:
        occ = occupancy(state)
    mine = occ[side][area]
    theirs = occ[1 - side][area]
    if mine and theirs:
        return CONTESTED
    if mine:
        return FRIENDLY
    if theirs:
        return ENEMY
    return VACANT


def contested_areas(state: State) -> list[int]:
    """The areas both sides occupy, in area order (a new list)."""
    return list(contested(occupancy(state)))


def can_enter(side: int, area: int) -> bool:
    """False for the enemy's exile areas, which can never be entered (2.7)."""
    return ENTERABLE[side][area]


# ------------------------------------------------------------------ borders
def border_limit(bid: int, bonus: int = 0) -> int:
    """Crossings allowed per player per Game Turn (5.21); bonus=1 for Surprise."""
    return BORDER_LIMIT[bid] + bonus


def can_cross(state: State, side: int, bid: int, bonus: int = 0, counts: list[int] | None = None) -> bool:
    """Has side room to move one more block across land border bid?

    counts defaults to the Game Turn counters ``state["bc"][side]``; a caller with its own
    counters (e.g. per battle round) may pass them.
    """
    c = state["bc"][side] if counts is None else counts
    return c[bid] < BORDER_LIMIT[bid] + bonus


def cross(state: State, side: int, bid: int, counts: list[int] | None = None) -> None:
    """Count one crossing of land border bid by side."""
    c = state["bc"][side] if counts is None else counts
    c[bid] += 1


# ------------------------------------------------------------------ heirs, King, Pretender
def heir_alive(state: State, b: int) -> bool:
    """An heir not permanently eliminated and not defected (minors and the prisoner count)."""
    return state["loc"][b] not in (DEAD, OFF)


def heirs_alive(state: State, side: int) -> list[int]:
    """Living heirs of side by seniority (minors, the Kingmaker prisoner included; defected excluded)."""
    loc = state["loc"]
    return [h for h in HEIRS[side] if loc[h] != DEAD and loc[h] != OFF]


def senior_heir(state: State, side: int) -> int:
    """The senior heir of side that is in play (on the map or in exile), or -1 (3.21)."""
    loc = state["loc"]
    for h in HEIRS[side]:
        if loc[h] < N_AREAS:
            return h
    return -1


def king_block(state: State) -> int:
    """The King's block, or -1 between the King's death and the next Supply Phase (6.81)."""
    return int(state["king_block"])


def pretender_block(state: State) -> int:
    """The Pretender's block: the senior Pretender heir in play, at once (ruling A2), or -1."""
    return senior_heir(state, 1 - int(state["king"]))


def is_royal_heir(state: State, b: int) -> bool:
    """An heir (in his heir version) of the side holding the throne (3.21)."""
    return B_TYPE[b] == HEIR and B_SIDE[b] == state["king"]


def heir_shield_ok(state: State, heir: int, shield: str) -> bool:
    """May this heir use this shield (2.2)? House shields of his side; a personal Lancaster
    shield only for its owner, or for any Lancaster heir once the owner is dead."""
    side = B_SIDE[heir]
    if shield == HOUSE_SHIELD[side]:
        return True
    own = PERSONAL_SHIELD_OWNER.get(shield)
    if own is None or B_SIDE[own] != side:
        return False
    return own == heir or state["loc"][own] == DEAD


def heir_has_shield(state: State, heir: int, area: int) -> bool:
    return any(heir_shield_ok(state, heir, s) for s in AREA_SHIELDS[area])


def check_victory(state: State) -> None:
    """Instant victory (9.0): a side with no living heir loses at once. Sets state["result"]."""
    if state["result"] is not None:
        return
    for side in (0, 1):
        if not heirs_alive(state, side):
            state["result"] = ROLES[1 - side]
            state["log"].append(f"All heirs of {ROLES[side]} are dead: {ROLES[1 - side]} wins (9.0).")
            return


# ------------------------------------------------------------------ eliminations
def eliminate(state: State, b: int) -> None:
    """Eliminate block b (6.81-6.86, 9.1) and check instant victory (9.0).

    * heirs: permanently dead; one minor is owed to the side at the next Supply Phase (6.82);
      if he was the King, ``king_block`` becomes -1 until the next Supply Phase (6.81); the
      Pretender is replaced at once (ruling A2, see pretender_block);
    * a defected Clarence/Exeter (enemy-noble version): permanently dead, both versions, and
      his original side is owed a minor (9.1);
    * rose nobles and the Nevilles: permanently dead (6.83); other nobles and church: owner's
      pool face-down (6.83); levies and Bombards: pool face-down (6.84); mercenaries: home area
      face-down, the Welsh to the pool face-down (6.85); the Rebel: pool face-down (6.86).

    Logs nothing except the victory line; the caller logs the elimination. Clears the block's
    per-turn flags (reserve, via, pirate) so stale bookkeeping cannot outlive it.
    """
    loc = state["loc"]
    t = B_TYPE[b]
    state["steps"][b] = 0
    state["reserve"][b] = 0
    state["via"][b] = -1
    state["pirate"][b] = 0
    down = state["down"]
    if t == HEIR:
        loc[b] = DEAD
        down[b] = 0
        if B_PAIR[b] >= 0:
            loc[B_PAIR[b]] = DEAD
        side = B_SIDE[b]
        state["minors_owed"][side] += 1
        if state["king_block"] == b:
            state["king_block"] = -1
        check_victory(state)
        return
    if b in DEFECTED_HEIR:
        loc[b] = DEAD
        down[b] = 0
        heir = DEFECTED_HEIR[b]
        loc[heir] = DEAD
        state["minors_owed"][B_SIDE[heir]] += 1
        check_victory(state)
        return
    if t == NOBLE and (B_ROSE[b] or B_NEVILLE[b]):
        loc[b] = DEAD
        down[b] = 0
        if B_NEVILLE[b] and B_PAIR[b] >= 0:
            loc[B_PAIR[b]] = DEAD
        return
    if t == MERC and b != WELSH:
        loc[b] = B_HOME[b]
        down[b] = 1
        return
    # other nobles, church, levies, Bombards, the Welsh, the Rebel
    loc[b] = POOL
    down[b] = 1


def reduce(state: State, b: int, n: int = 1) -> bool:
    """Take n step losses on b; eliminate it (6.8) at 0. Returns True if it was eliminated."""
    s = state["steps"][b] - n
    if s <= 0:
        eliminate(state, b)
        return True
    state["steps"][b] = s
    return False


# ------------------------------------------------------------------ two versions, loyalty
def other_version(b: int) -> int:
    """The other-colour block of a two-version noble/church/heir (3.22), or -1."""
    return B_PAIR[b]


def defect(state: State, b: int) -> int:
    """Swap b for its other version in place (6.9): same area and strength. Returns the new id.

    The new block keeps b's ``moved`` and ``via``; ``reserve`` is left to the caller (a
    defector goes to the roller's Reserve). Checks instant victory (a defecting heir stops
    being an heir of his old side, 9.1).
    """
    o = B_PAIR[b]
    loc, steps = state["loc"], state["steps"]
    loc[o] = loc[b]
    steps[o] = steps[b]
    loc[b] = OFF
    steps[b] = 0
    state["moved"][o] = state["moved"][b]
    state["via"][o] = state["via"][b]
    state["pirate"][o] = state["pirate"][b]
    state["down"][o] = 0
    state["reserve"][b] = 0
    state["via"][b] = -1
    state["pirate"][b] = 0
    check_victory(state)
    return o


def treachery_dice(state: State, target: int, roller: str) -> int:
    """Dice to roll against target (3.13, 6.9, 6.91, 9.1), or 0 if it may not be targeted.

    roller is KING, PRETENDER, WARWICK_ROLL or TREASON. Roses, heirs without a loyalty
    number, mercenaries, levies, the Bombard and the Rebel are never targets; neither is the
    current King or Pretender (9.1). Warwick rolls 1 die on Kent/Salisbury and may not roll on
    Northumberland or Westmoreland (6.91). (Whether the target is in Reserve or already
    defected in this battle is the battle module's business.)
    """
    n = B_LOYALTY[target]
    if n <= 0:
        return 0
    if target == state["king_block"] or target == pretender_block(state):
        return 0
    if roller == WARWICK_ROLL:
        if target in NO_WARWICK_TARGET:
            return 0
        if target in WARWICK_KIN:
            return 1
    return n


def warwick_block(state: State, side: int) -> int:
    """The Warwick block of side if it is in play on the map, else -1."""
    w = WARWICK[side]
    return w if state["loc"][w] < N_AREAS else -1


# ------------------------------------------------------------------ defence bonus
def defence_bonus(state: State, b: int, area: int, present: Sequence[int] | Iterable[int]) -> int:
    """Firepower bonus of b when DEFENDING area (2.2-2.6, 3.21-3.24, 6.4); the caller applies it
    only to defenders. present = the blocks of b's side that count as present (revealed, not in
    Reserve) at the instant of fire; it decides the senior heir for shields and crowns (2.2).

    * noble: +1 if the area holds one of its shields (also Clarence/L on a York house shield and
      Exeter/Y in Cornwall, ruling in RULINGS.md);
    * church: +1 at its cathedral; levy: +1 at its city; Welsh: +1 anywhere in Wales;
    * heir: +1 if he is the senior present heir of his side able to use a shield in the area,
      and +1 more if he is a royal heir, the area has a crown and he is the senior royal heir
      present (2.3; the two stack: ruling A11).
    """
    t = B_TYPE[b]
    if t == NOBLE:
        return 1 if area in B_SHIELD_AREAS[b] else 0
    if t == CHURCH:
        return 1 if B_CATH_AREA[b] == area else 0
    if t == LEVY:
        return 1 if B_CITY_AREA[b] == area else 0
    if t == MERC:
        return 1 if b == WELSH and WALES[area] else 0
    if t != HEIR:
        return 0
    bonus = 0
    heirs = sorted((h for h in present if B_TYPE[h] == HEIR and B_SIDE[h] == B_SIDE[b]),
                   key=lambda h: HEIRS[B_SIDE[h]].index(h))
    if b not in heirs:
        heirs.append(b)
        heirs.sort(key=lambda h: HEIRS[B_SIDE[h]].index(h))
    if AREA_SHIELDS[area]:
        users = [h for h in heirs if heir_has_shield(state, h, area)]
        if users and users[0] == b:
            bonus += 1
    if CROWN[area] and B_SIDE[b] == state["king"] and heirs[0] == b:
        bonus += 1
    return bonus


# ------------------------------------------------------------------ misc
def is_mercenary_home(b: int, area: int) -> bool:
    return B_TYPE[b] == MERC and B_HOME[b] == area


def counts_for_usurpation(b: int) -> bool:
    """Heirs, nobles and church count for Usurpation (8.2, 3.23, 9.1)."""
    return B_TYPE[b] in (HEIR, NOBLE, CHURCH)


def block_label(b: int) -> str:
    return BLOCK_NAME[b]


def area_name(a: int) -> str:
    return AREA_NAMES[a] if a < N_AREAS else {POOL: "pool", MINOR: "minor", OFF: "off-map",
                                              DEAD: "dead", PRISON: "the Tower"}.get(a, "?")


def shields_of(b: int) -> tuple[str, ...]:
    return B_SHIELDS[b]


__all__ = [
    "BOMBARD", "CONTESTED", "ENEMY", "FRIENDLY", "KING", "MINOR", "PRETENDER", "REBEL_T", "TREASON",
    "VACANT", "WARWICK_ROLL", "area_name", "block_label", "blocks_in", "can_cross", "can_enter",
    "check_victory", "contested_areas", "control", "counts_for_usurpation", "cross", "defect",
    "defence_bonus", "eliminate", "heir_has_shield", "heir_shield_ok", "heirs_alive", "is_royal_heir",
    "king_block", "occupancy", "other", "other_version", "owner", "pretender_block", "pretender_side",
    "reduce", "senior_heir", "treachery_dice", "warwick_block",
]
