"""Richard III knowledge for the game-agnostic bots (roses.ai): determinisation, evaluation,
and the fixed action catalogue.

Imports only roses.engine and this package. The Rules class exposes these functions as its
optional contract methods ``determinize``, ``evaluate``, ``evaluation_terms`` and
``action_space`` (see roses/engine/contract.py).

What a side knows about the enemy (the basis of :func:`determinize`)
    Fog of war (rules p.3, 4.2): enemy blocks on the map stand upright, so a side sees where
    they are and their colour but not who they are or their strength; blocks in the enemy
    pool are unseen. Known to both sides:

    * blocks revealed in the battle being fought (``battle["revealed"]``);
    * face-down (eliminated this campaign: pool or mercenary home), dead, off-map (other
      version), minor and imprisoned blocks (all of them became known in play or setup);
    * the black Rebel block (its colour gives it away; its strength is still hidden);
    * every enemy block it has *remembered* (ruling K1, ``state["known"]``): the blocks on the
      map at setup (the scenario list is public), blocks seen in earlier battles and heirs
      named in play, followed as they move; their strength is what it was when last seen,
      or less (supply losses are unseen). Recruits and blocks sent to the pool are forgotten;
    * the cards played in earlier Game Turns (the discards), the number of cards in each
      hand and in the undealt deck.

    Everything else about the enemy is re-sampled: which enemy block stands in which
    "slot" (an enemy block's place and public history this turn: area or pool, how it moved,
    the border it crossed, reserve and piracy marks), their strengths, the enemy hand, the
    undealt cards, an enemy card played face-down but not yet revealed and an enemy mulligan
    answer given before ours. Constraints a side
    can deduce are kept: heirs are never in a pool, mercenaries other than the Welsh never
    either, a block recruited this turn (``moved == 3``) fits the area it appeared in (5.4),
    a block that moved by sea may sea move (5.3), recruits and pool blocks are at full
    strength. The generator is re-drawn, so future dice are not the true ones, and log lines
    private to the enemy are dropped. The result depends only on what the side knows and the
    seed (slots are ordered by their public data, never by the true block ids).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from itertools import compress
from operator import itemgetter, mul
from typing import Any

from roses.engine import rng, steps
from roses.engine.contract import Action
from roses.engine.log import readable_entries
from roses.games.richard3 import action as moves
from roses.games.richard3.common import copy_state, occupancy
from roses.games.richard3.data import (
    AREA_NAMES,
    B_CATH_AREA,
    B_CITY_AREA,
    B_SHIELD_AREAS,
    B_SIDE,
    B_STEPS,
    B_TYPE,
    BLOCK_KEY,
    BOMBARD,
    CARD_AP,
    CHURCH,
    CITY_AREAS,
    DEAD,
    EXILE_AREAS,
    EXILE_LIMIT,
    HEIR,
    HEIRS,
    LEVY,
    MERC,
    MULLIGAN_MAX,
    N_AREAS,
    N_BLOCKS,
    NEIGHBOURS,
    NO_SEA,
    NOBLE,
    OFF,
    POOL,
    REBEL,
    REBEL_BLOCK,
    ROLES,
    SEA_ZONES,
    SUPPLY_LIMIT,
    WALES,
    WARWICK,
    WELSH,
)

State = dict[str, Any]

#: Per-block fields that are public (they travel with a hidden block's slot).
_SLOT_FIELDS = ("moved", "via", "reserve", "pirate")
RECRUITED = 3
SEA_MOVED = 2
#: Probability that a hidden enemy block on the map is at full strength in a determinisation.
P_FULL = 0.6
#: Probability that a remembered enemy block still has the strength it was last seen at.
P_SEEN = 0.75


def _side(role: str) -> int:
    return ROLES.index(role)


def _owner(state: State, b: int) -> int:
    s = B_SIDE[b]
    return 1 - int(state["king"]) if s == REBEL else s


def _revealed(state: State) -> set[int]:
    battle = state.get("battle")
    if isinstance(battle, dict):
        return {int(b) for b in battle.get("revealed", ())}
    return set()


def remembered_blocks(state: State, side: int) -> list[int]:
    """Enemy blocks on the map that ``side`` has followed since it last saw them (the setup, a
    battle, a named heir: ``state["known"]``, see common.py), by id; their strength is not
    known (supply losses are secret), only the strength they were last seen at."""
    known = state.get("known")
    if known is None:
        return []
    mine = known[side]
    loc, down = state["loc"], state["down"]
    revealed = _revealed(state)
    return [b for b in range(N_BLOCKS)
            if mine[b] and loc[b] < N_AREAS and not down[b] and b not in revealed
            and B_SIDE[b] != REBEL and _owner(state, b) != side]


def hidden_blocks(state: State, side: int) -> list[int]:
    """Enemy blocks whose identity ``side`` may not know now (see module docs), by id."""
    loc, down = state["loc"], state["down"]
    known = state.get("known")
    mine = known[side] if known is not None else [0] * N_BLOCKS
    revealed = _revealed(state)
    # A defected heir awaiting execution or mercy (9.1) is named to both sides, and so is an
    # heir entering as King or from the minors (6.81, 6.82).
    revealed.update(fr["subj"] for fr in _pending(state)
                    if fr["step"] in ("execute", "enter") and fr["subj"] >= 0)
    out = []
    for b in range(N_BLOCKS):
        if B_SIDE[b] == REBEL or _owner(state, b) == side or b in revealed or down[b]:
            continue
        if loc[b] < N_AREAS and mine[b]:
            continue  # remembered: see remembered_blocks
        if loc[b] < N_AREAS or loc[b] == POOL:
            out.append(b)
    return out


def _fits(b: int, slot: tuple[int, ...], strict: bool = True) -> bool:
    """May block b stand in a slot with this public data? (``strict``: with the deductions
    from this turn's moves and recruits, not only the hard rules about pools)."""
    return _fits_at(b, slot[0], slot[1], strict)


@functools.cache
def _fits_at(b: int, where: int, moved: int, strict: bool) -> bool:
    t = B_TYPE[b]
    if where == POOL:
        return t not in (HEIR, MERC) or b == WELSH
    if not strict:
        return True
    if moved == SEA_MOVED and b in NO_SEA:
        return False
    if moved == RECRUITED:
        if t == NOBLE:
            return where in B_SHIELD_AREAS[b]
        if t == CHURCH:
            return B_CATH_AREA[b] == where
        if t == LEVY:
            return B_CITY_AREA[b] == where
        if t == BOMBARD:
            return where in CITY_AREAS
        if b == WELSH:
            return WALES[where]
        return t != MERC  # heirs entering as minors are also marked; mercs are never recruited
    return True


def _slots(state: State, blocks: list[int]) -> dict[int, tuple[int, ...]]:
    """The public data of the place each block stands in: where, how it moved this turn, and
    how the core's transient fields point at it (so identical slots are truly interchangeable)."""
    refs: dict[int, int] = {}
    for i, fr in enumerate(_pending(state)):
        if fr["step"] in _PENDING_BLOCK_KINDS:
            refs.setdefault(fr["subj"], 3 + i)
    supply = steps.find(state, "supply")
    for b in supply["marked"] if supply is not None else ():
        refs[b] = 2
    sel = moves.selected(state)
    if sel >= 0:
        refs[sel] = 1
    loc = state["loc"]
    fields = [state.get(f) for f in _SLOT_FIELDS]
    return {b: (int(loc[b]), *(int(f[b]) if f is not None else 0 for f in fields), refs.get(b, 0))
            for b in blocks}


def _fit_lists(blocks: list[int], slots: list[tuple[int, ...]], strict: bool) -> list[list[int]]:
    """For each slot, the blocks that may stand in it (:func:`_fits`), in block order."""
    by_key: dict[tuple[int, int], list[int]] = {}
    for slot in slots:
        if (slot[0], slot[1]) not in by_key:
            by_key[(slot[0], slot[1])] = [b for b in blocks if _fits_at(b, slot[0], slot[1], strict)]
    return [by_key[(slot[0], slot[1])] for slot in slots]


def _assign(state: State, blocks: list[int], slots: list[tuple[int, ...]],
            r: random.Random, strict: bool, fits: list[list[int]] | None = None) -> list[int] | None:
    """A random assignment of blocks to slots (index-aligned with ``slots``) respecting _fits
    (``fits``: :func:`_fit_lists` of the same blocks and slots, if already known): the most
    constrained slots first, retried a few times on a dead end."""
    if fits is None:
        fits = _fit_lists(blocks, slots, strict)
    for _attempt in range(20):
        order = sorted(range(len(slots)), key=lambda i: (len(fits[i]), r.random()))
        free = set(blocks)
        out = [-1] * len(slots)
        ok = True
        for i in order:
            choices = [b for b in fits[i] if b in free]
            if not choices:
                ok = False
                break
            b = choices[r.randrange(len(choices))]
            out[i] = b
            free.discard(b)
        if ok:
            return out
    return None


def determinize(state: State, role: str, seed: int) -> State:
    """A full state in which everything hidden from ``role`` is re-sampled (module docs)."""
    return determinizer(state, role)(seed)


def determinizer(state: State, role: str) -> Callable[[int], State]:
    """:func:`determinize` of ``state`` for ``role`` as a function of the seed: what depends
    only on the state and the role (which blocks and cards are hidden, where they may stand,
    what the role remembers, the log it may read) is worked out once, for every seed. The
    state must not change while the function is in use."""
    side = _side(role)
    foe = 1 - side
    base: State = copy_state(state, log=False)
    hidden = hidden_blocks(state, side)
    slot_of = _slots(state, hidden)
    slots = sorted(slot_of.values())
    strict_fits = _fit_lists(hidden, slots, True)
    holders: dict[tuple[int, ...], list[int]] = {slot: [] for slot in slots}
    for t in hidden:
        holders[slot_of[t]].append(t)
    slot_fields = [(i, f) for i, f in enumerate(_SLOT_FIELDS, 1) if f in base]
    known = "known" in base
    # Remembered enemy blocks keep their identity; their strength is what was last seen, or
    # less after losses the side did not see.
    remembered = [(b, min(B_STEPS[b], int(state["known"][side][b]))) for b in remembered_blocks(state, side)]
    rebel = REBEL_BLOCK
    rebel_hidden = (_owner(state, rebel) == foe and not state["down"][rebel]
                    and state["loc"][rebel] < N_AREAS and rebel not in _revealed(state))
    deal = _deal_plan(state, side) if "hands" in state else None
    mulligan = deal is not None and _mulligan_asked(state, side)
    mulligan_used = bool(state.get("mulligan_used", [0, 0])[foe])
    log = readable_entries(state.get("log", []), role)
    rolls = state.get("rolls", 0)

    def sample(seed: int) -> State:
        r = random.Random(seed)
        out = copy_state(base)
        # ----- blocks
        assignment = _assign(state, hidden, slots, r, True, strict_fits)
        if assignment is None:  # deductions too tight for the sampler: keep only the hard ones
            assignment = _assign(state, hidden, slots, r, strict=False)
        if assignment is None:
            raise ValueError("Richard III: cannot place the hidden blocks (inconsistent state)")
        # The place that held true block t now holds block pi[t]; references to t move with it.
        holder = {slot: ts[:] for slot, ts in holders.items()}
        pi: dict[int, int] = {}
        for b, slot in zip(assignment, slots, strict=True):
            pi[holder[slot].pop()] = b
        _remap(out, pi)
        fields = [(i, out[f]) for i, f in slot_fields]
        loc, steps, down = out["loc"], out["steps"], out["down"]
        for b, slot in zip(assignment, slots, strict=True):
            loc[b] = slot[0]
            for i, values in fields:
                values[b] = slot[i]
            full = B_STEPS[b]
            if slot[0] == POOL or slot[1] == RECRUITED or r.random() < P_FULL:
                steps[b] = full
            else:
                steps[b] = r.randint(1, full)
            down[b] = 0
        if known:  # a hidden block is unknown wherever it now stands (stale entries of
            mine = out["known"][side]  # blocks in the pool would otherwise follow the block)
            for b in hidden:
                mine[b] = 0
        for b, seen in remembered:
            steps[b] = seen if r.random() < P_SEEN else r.randint(1, seen)
        if rebel_hidden:
            steps[rebel] = B_STEPS[rebel] if r.random() < P_FULL else r.randint(1, B_STEPS[rebel])
        # ----- cards
        if deal is not None:
            _deal(deal, out, side, r)
            if mulligan:
                _mulligan_answer(out, side, mulligan_used, r)
        # ----- log and dice
        out["log"] = log[:]
        rng.seed_state(out, r.getrandbits(63))
        out["rolls"] = rolls
        return out

    return sample


#: Pending decisions (frames on the stack) whose ``subj`` is a block the other side may not know.
_PENDING_BLOCK_KINDS = ("home",)
#: The steps of pending decisions, first to be decided first (see state.Decision, state.DeclareFrame).
_DECISION_STEPS = frozenset(("enter", "execute", "reduce", "home", "disband", "declare"))


def _pending(state: State) -> list[dict[str, Any]]:
    """The pending decisions on the stack, in the order they will be decided."""
    return [fr for fr in reversed(state["stack"]) if fr["step"] in _DECISION_STEPS]


def _remap(out: State, pi: dict[int, int]) -> None:
    """Rename hidden blocks in the frames of the decision stack that refer to blocks."""
    if not pi:
        return
    for fr in out["stack"]:
        if fr["step"] in ("path", "sea", "recruit"):  # the block picked for a move (action.py)
            fr["block"] = pi.get(fr["block"], fr["block"])
    supply = steps.find(out, "supply")
    if supply is not None:
        supply["marked"] = [pi.get(b, b) for b in supply["marked"]]
    for fr in _pending(out):
        if fr["step"] in _PENDING_BLOCK_KINDS:
            fr["subj"] = pi.get(fr["subj"], fr["subj"])


def _mulligan_asked(state: State, side: int) -> bool:
    """Has the enemy answered the mulligan question (5.1) in secret, before ``side``?"""
    stack = state["stack"]
    if state["result"] is not None or not stack or stack[-1]["step"] != "mulligan":
        return False
    mull = stack[-1]["mull"]
    return bool(mull[1 - side] >= 0 and mull[side] < 0)


def _mulligan_answer(out: State, side: int, used: bool, r: random.Random) -> None:
    """The enemy's secret answer to the mulligan question (5.1), given before ours: re-drawn
    (a redeal only if the re-dealt hand allows one; ``used``: the enemy's mulligan is spent)."""
    foe = 1 - side
    hand_ap = sum(CARD_AP[c] for c in out["hands"][foe])
    can = not used and hand_ap <= MULLIGAN_MAX
    out["stack"][-1]["mull"][foe] = int(can and r.random() < 0.5)


#: What the cards a side cannot see are: (the cards, sorted; the enemy hand's size; whether
#: the enemy has played a card face-down; whether that card is still in its hand; whether the
#: state has an undealt deck).
_DealPlan = tuple[list[int], int, bool, bool, bool]


def _deal_plan(state: State, side: int) -> _DealPlan:
    foe = 1 - side
    played = list(state.get("played", [-1, -1]))
    foe_hidden = played[foe] >= 0 and played[side] < 0
    hand = list(state["hands"][foe])
    unknown = set(hand) | set(state.get("deck", []))
    in_hand = played[foe] in hand
    if foe_hidden and not in_hand:
        unknown.add(played[foe])
    return sorted(unknown), len(hand), foe_hidden, in_hand, "deck" in state  # sorting forgets where each card was


def _deal(plan: _DealPlan, out: State, side: int, r: random.Random) -> None:
    """Re-deal the cards ``side`` cannot see: the enemy hand, the undealt deck and an enemy
    card played face-down (which stays in its hand until both are revealed, as in core)."""
    foe = 1 - side
    unknown, hand_size, foe_hidden, in_hand, has_deck = plan
    cards = unknown[:]
    r.shuffle(cards)
    new_hand = sorted(cards[:hand_size])
    rest = cards[hand_size:]
    out["hands"][foe] = new_hand
    if foe_hidden:
        out["played"][foe] = new_hand[r.randrange(len(new_hand))] if in_hand else rest.pop()
    if has_deck:
        out["deck"] = rest


# ---------------------------------------------------------------------- evaluation
def evaluation_terms(state: State, role: str, horizon: int = 1) -> dict[str, float]:
    """Named parts of the evaluation for ``role``, each in [-1, 1] (positive: good for role).

    * ``heirs``: living heirs, ours against theirs (9.0: the last heir's death loses at once);
    * ``usurpation``: the 8.2 count (heirs, nobles, church on the map outside exile and the
      Isle of Man, +1 for holding London), with the King winning ties, as a soft sign;
    * ``crown``: holding the throne (whoever is King after the last campaign wins, 9.0);
    * ``danger``: enemy strength in or next to the area of each of our heirs on the map,
      against our strength there (theirs minus ours, scarce heirs weigh more). With
      ``horizon`` 2, enemies two areas away count at half weight: a group moves two areas
      (5.2), so a whole enemy move can bring them in;
    * ``attack``: for each enemy heir in an area where a battle is to come, our share of the
      steps there, against the same for our heirs;
    * ``battles``: in each contested area, our steps against theirs (battles to come);
    * ``strength``: steps on the map; ``areas``: areas held outside exile; ``supply``: blocks
      over the supply or exile limits (7.1, 7.2), which will lose steps.
    """
    return dict(zip(TERMS, _terms(state, _side(role), horizon), strict=True))


#: The names of the evaluation's terms, in order (see evaluation_terms, weights).
TERMS = ("heirs", "usurpation", "crown", "danger", "attack", "strength", "battles", "areas", "supply")


def _terms(state: State, side: int, horizon: int) -> tuple[float, ...]:
    """The values of :func:`evaluation_terms` for ``side``, in the order of :data:`TERMS`."""
    foe = 1 - side
    loc, steps = state["loc"], state["steps"]
    king = int(state["king"])
    rebel_owner = 1 - king
    stp: list[list[int]] = [[0] * N_AREAS, [0] * N_AREAS]
    count = [0, 0]
    strength = [0, 0]
    # the blocks on the map (the others are picked out at C speed, without a loop turn)
    for a, st, s, counted in compress(zip(loc, steps, B_SIDE, _COUNTED, strict=True), map(_ON_MAP, loc)):
        if s == REBEL:
            s = rebel_owner
        stp[s][a] += st
        strength[s] += st
        if counted and not _EXCLUDED[a]:
            count[s] += 1
    occ = occupancy(state)  # blocks per area and side (the owner's, as above)
    areas, over, london = _area_counts(occ)
    if london >= 0:
        count[london] += 1
    heirs = [len(h) - h.count(DEAD) - h.count(OFF) for h in (_HEIRS_OF[0](loc), _HEIRS_OF[1](loc))]
    danger = [0.0, 0.0]
    for s in (0, 1):
        theirs = stp[1 - s].__getitem__
        for h in HEIRS[s]:
            a = loc[h]
            if a >= N_AREAS or a in EXILE_AREAS[s]:  # the enemy never enters our exile (2.7)
                continue
            reach: float = theirs(a) + sum(map(theirs, NEIGHBOURS[a]))
            if horizon >= 2:
                reach += 0.5 * sum(map(theirs, _TWO_AWAY[a]))
            mine = stp[s][a]
            if reach:
                danger[s] += reach / (reach + mine + 1) / max(1, heirs[s])
    # Heirs in a battle to come (an heir's death can end the game, 9.0): the share of the
    # steps in his area that are his enemy's.
    attack = [0.0, 0.0]
    for s in (0, 1):
        for h in HEIRS[1 - s]:
            a = loc[h]
            if a < N_AREAS and occ[s][a]:
                attack[s] += stp[s][a] / (stp[s][a] + stp[1 - s][a]) / max(1, heirs[1 - s])
    # Battles to come (6.x): in each contested area, our steps against theirs.
    fight = 0.0
    mine_occ, foe_occ = occ[side], occ[foe]
    for a in compress(_AREAS, mine_occ):
        if foe_occ[a]:
            m, t = stp[side][a], stp[foe][a]
            fight += (m - t) / (m + t)
    margin = count[side] - count[foe] + (0.5 if king == side else -0.5)
    return ((heirs[side] - heirs[foe]) / max(1, heirs[side] + heirs[foe]),
            margin / (abs(margin) + 2.0),
            1.0 if king == side else -1.0,
            max(-1.0, min(1.0, danger[foe] - danger[side])),
            max(-1.0, min(1.0, attack[side] - attack[foe])),
            (strength[side] - strength[foe]) / max(1, strength[side] + strength[foe]),
            max(-1.0, min(1.0, fight / 2.0)),
            (areas[side] - areas[foe]) / 28.0,
            max(-1.0, min(1.0, (over[foe] - over[side]) / 4.0)))


#: The area counts of the occupancy seen last: (that occupancy, its counts).
_last_area_counts: tuple[Any, tuple[list[int], list[int], int]] = (None, ([0, 0], [0, 0], -1))


def _area_counts(occ: Any) -> tuple[list[int], list[int], int]:
    """From an occupancy (:func:`occupancy`): the areas each side holds alone outside exile
    and the Isle of Man, the blocks each side has over the supply or exile limits (7.1, 7.2),
    and the side holding London alone (8.2), or -1. Kept for the occupancy seen last (the same
    object while the blocks stand where they stood); read only."""
    global _last_area_counts
    last = _last_area_counts
    if last[0] is occ:
        return last[1]
    areas = [0, 0]
    over = [0, 0]
    london = -1
    for a, n0, n1, limit, excluded in zip(_AREAS, occ[0], occ[1], _LIMIT, _EXCLUDED, strict=True):
        if n0 and not n1:
            if not excluded:
                areas[0] += 1
            if a == _LONDON:
                london = 0
        elif n1 and not n0:
            if not excluded:
                areas[1] += 1
            if a == _LONDON:
                london = 1
        if n0 > limit:
            over[0] += n0 - limit
        if n1 > limit:
            over[1] += n1 - limit
    out = (areas, over, london)
    _last_area_counts = (occ, out)
    return out


#: Areas two borders away (a group moves two areas, 5.2).
_TWO_AWAY = tuple(frozenset(m for n in NEIGHBOURS[a] for m in NEIGHBOURS[n]) - NEIGHBOURS[a] - {a}
                  for a in range(N_AREAS))
_EXCLUDED = tuple(a in EXILE_AREAS[0] or a in EXILE_AREAS[1] or AREA_NAMES[a] == "Isle of Man"
                  for a in range(N_AREAS))
_LONDON = AREA_NAMES.index("Middlesex")
_AREAS = range(N_AREAS)
#: Blocks the 8.2 count counts (heirs, nobles, church), and each area's supply or exile limit.
_COUNTED = tuple(B_TYPE[b] in (HEIR, NOBLE, CHURCH) for b in range(N_BLOCKS))
_LIMIT = tuple(EXILE_LIMIT.get(a, SUPPLY_LIMIT[a]) for a in range(N_AREAS))
_ON_MAP = N_AREAS.__gt__
#: Where each side's heirs are: ``_HEIRS_OF[side](loc)``.
_HEIRS_OF = tuple(itemgetter(*HEIRS[s]) for s in (0, 1))


def weights(state: State) -> dict[str, float]:
    """Term weights for the evaluation: the 8.2 count matters more as the campaign ends, the
    throne less in the last campaign (only the final Usurpation decides, 9.0)."""
    return dict(zip(TERMS, _weights(state), strict=True))


def _weights(state: State) -> tuple[float, ...]:
    """:func:`weights` in the order of :data:`TERMS`."""
    late = min(1.0, max(0.0, int(state.get("turn", 1)) / 7.0))
    final = int(state.get("campaign", 1)) >= int(state.get("last_campaign", 3))
    return (1.0, 0.4 + 1.2 * late, 0.15 if final else 0.5, 0.8, 1.0, 0.6, 0.5, 0.2, 0.2)


def evaluate(state: State, role: str, horizon: int = 1) -> float:
    """Heuristic value in [-1, 1] for ``role``: the result if the game is over, else a squashed
    weighted sum of :func:`evaluation_terms` (see :func:`weights`)."""
    res = state.get("result")
    if res is not None:
        return 0.0 if res == "Draw" else (1.0 if role in str(res).split(", ") else -1.0)
    # the weighted sum of the terms in their order: the sum over the dicts of evaluation_terms
    # and weights, without making them
    return math.tanh(0.6 * sum(map(mul, _weights(state), _terms(state, _side(role), horizon))))


def evaluate_all(state: State, roles: list[str], horizon: int = 1) -> dict[str, float]:
    """:func:`evaluate` for each role, computed once: every term is ours minus theirs (and
    ``tanh`` is odd), so Lancaster's value is minus York's."""
    out: dict[str, float] = {}
    base: float | None = None
    for role in roles:
        if role not in ROLES:
            out[role] = evaluate(state, role, horizon)
            continue
        if base is None:
            base = evaluate(state, ROLES[0], horizon)
        out[role] = base if role == ROLES[0] else -base
    return out


# ---------------------------------------------------------------------- action catalogue
#: Every argument a plain verb may take: none, small ints (card ids; ids), area names, block
#: keys, sea zones. Fixed order.
ARGS: tuple[Any, ...] = (None, *range(65), *AREA_NAMES, *BLOCK_KEY, *SEA_ZONES)
_HEIR_KEYS = tuple(BLOCK_KEY[h] for s in (0, 1) for h in HEIRS[s])
_ROLLER_KEYS = (*_HEIR_KEYS, *(BLOCK_KEY[b] for b in WARWICK))
#: Every verb the rules use, with the kind of its argument, in a fixed order. New verbs are
#: appended only, so the ids of existing actions never change.
VERBS: tuple[tuple[str, str], ...] = (
    # cards.py, action.py, battle.py (the Battle Phase), supply.py, political.py
    ("keep", "plain"), ("redeal", "plain"), ("play", "plain"), ("move", "plain"),
    ("block", "plain"), ("to", "plain"), ("stop", "plain"), ("end_group", "plain"),
    ("sea", "plain"), ("sea_to", "plain"), ("recruit", "plain"), ("place", "plain"),
    ("muster", "plain"), ("plague", "plain"), ("main", "plain"), ("end", "plain"),
    ("battle", "plain"), ("enter", "plain"), ("execute", "plain"), ("spare", "plain"),
    ("reduce", "plain"), ("home", "plain"), ("disband", "plain"),
    # battle.py
    ("fire", "plain"), ("pass", "plain"), ("hit", "plain"), ("treason", "plain"),
    ("keep_treason", "plain"), ("end_regroup", "plain"),
    ("retreat", "block-area"), ("regroup", "block-area"),
    ("charge", "heir-block"), ("treachery", "roller-block"),
)


def _args(kind: str) -> list[Any]:
    if kind == "plain":
        return list(ARGS)
    if kind == "block-area":
        return [[k, a] for k in BLOCK_KEY for a in AREA_NAMES]
    if kind == "heir-block":
        return [[h, k] for h in _HEIR_KEYS for k in BLOCK_KEY]
    if kind == "roller-block":
        return [[r, k] for r in _ROLLER_KEYS for k in BLOCK_KEY]
    raise ValueError(kind)


def action_space(scenario: str, options: dict[str, Any] | None = None) -> list[Action]:
    """Every ``(verb, arg)`` a Richard III game can offer, in a fixed order (stable ids): each
    verb of :data:`VERBS` with every argument of its kind (a superset: most pairs never occur).
    The same for every scenario."""
    return [(verb, arg) for verb, kind in VERBS for arg in _args(kind)]


__all__ = ["action_space", "determinize", "evaluate", "evaluation_terms", "hidden_blocks"]
