"""Views, secrets, invariants, text rendering and action labels for Richard III.

Hidden information (4.2; RULINGS.md, log policy and K1): a role sees its own blocks in full; of enemy blocks only the
number per area (plus what battle.py reveals in the current battle); its own hand and pool; the
other hand, the opponent's card before both are played, and the undealt cards never. See
RULINGS.md "Log policy" for what the log says.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from itertools import compress
from operator import itemgetter, mul, ne
from typing import Any

from roses.engine.contract import OBSERVER, Rules, State, View
from roses.engine.logview import log_view
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
_AREA_RANGE = range(N_AREAS)
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
    side = _side(role)
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
    occ = C.occupancy(state)
    occ_y, occ_l = occ
    loc = state["loc"]
    king = state["king"]
    kb = state["king_block"]
    pb = C.pretender_block(state)
    heirs: dict[str, list[dict[str, Any]]] = {}
    for s in (0, 1):
        row = []
        for h, tpl in _HEIR_TEMPLATES[s]:
            d = tpl.copy()
            lh = loc[h]
            d["status"] = ("dead" if lh == DEAD else "defected" if lh == OFF else "minor" if lh == MINOR
                           else "prisoner" if lh == PRISON else "King" if h == kb
                           else "Pretender" if h == pb else "alive")
            row.append(d)
        heirs[ROLES[s]] = row
    bc0, bc1 = state["bc"]
    hands = state["hands"]
    minors = state["minors_owed"]
    mull = state["mulligan_used"]
    atk, main = state["atk"], state["main"]
    v: View = {
        "prompt": "",
        "log": [],
        "active": active,
        "scenario": state["scenario"],
        "campaign": state["campaign"],
        "last_campaign": state["last_campaign"],
        "turn": state["turn"],
        "phase": phase,
        "king": ROLES[king],
        "pretender": ROLES[1 - king],
        "king_block": BLOCK_NAME[kb] if kb >= 0 else None,
        "pretender_block": BLOCK_NAME[pb] if pb >= 0 else None,
        "p1": ROLES[state["p1"]] if phase != "card" and phase != "mulligan" else None,
        "counts": {"York": list(occ_y), "Lancaster": list(occ_l)},
        "heirs": heirs,
        "minors_owed": {"York": minors[0], "Lancaster": minors[1]},
        "prisoner": state["prisoner"] >= 0,
        "border_counts": {"York": [[bid, bc0[bid]] for bid in compress(_BORDER_RANGE, bc0)],
                          "Lancaster": [[bid, bc1[bid]] for bid in compress(_BORDER_RANGE, bc1)]},
        "hand_size": {"York": len(hands[0]), "Lancaster": len(hands[1])},
        "mulligan_used": {"York": bool(mull[0]), "Lancaster": bool(mull[1])},
        "battles": [
            {"area": a, "name": AREA_NAMES[a], "attacker": ROLES[atk[a]] if atk[a] >= 0 else None,
             "main": main[a]}
            for a in compress(_AREA_RANGE, map(mul, occ_y, occ_l))],
    }
    # cards
    played = state["played"]
    both = played[0] >= 0 and played[1] >= 0 or phase != "card" and phase != "mulligan"
    v["played"] = {ROLES[s]: (_CARDS[played[s]].copy() if played[s] >= 0 and (both or s == side)
                              else ("hidden" if played[s] >= 0 else None)) for s in (0, 1)}
    v["role"] = role
    v["result"] = result
    bt = state["battle"]
    revealed: Collection[int] = bt.get("revealed", ()) if bt is not None else ()
    hidden: dict[str, dict[str, int]] = {}
    pool: list[str] = []
    if side < 0:
        blocks = _observer_blocks(state, revealed, hidden)
    else:
        own = _OWN[side][king]
        dicts, pool = _own_block_dicts(state, side, king)
        blocks = [d.copy() for d in dicts if d is not None]
        pool = pool[:]
        foe = 1 - side
        foe_locs = _OWN_GET[foe][king](loc)
        shown = [b for b in revealed if loc[b] < N_AREAS and b not in own] if revealed else ()
        if not shown:
            # every enemy block in an area is hidden: the counts are the occupancy's, the
            # areas in the order of their first enemy block
            foe_role = ROLES[foe]
            foe_occ = occ[foe]
            hidden = {AREA_NAMES[a]: {foe_role: foe_occ[a]} for a in dict.fromkeys(foe_locs) if a < N_AREAS}
        else:
            _foe_blocks(state, side, king, revealed, blocks, hidden)
    v["blocks"] = blocks
    v["face_down"] = _face_down(state, side, hidden)
    v["hidden"] = hidden
    if side >= 0:
        v["hand"] = [_CARDS[c].copy() for c in hands[side]]
        v["pool"] = pool
        v["pools"] = {ROLES[side]: len(pool)}
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
    decision = _decision(state)
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
    v.update(log_view(state["log"], role))
    if result is not None:
        v["prompt"] = f"Game over: {result} wins."
    elif frame is not None:
        v["prompt"] = step.prompt(state, frame, role)
    if role in active:
        v["actions"] = options_map(step.options(state, frame, role))
    if side >= 0 and state.get("treason", -1) == side and result is None:
        note = _treason_note(state, side, bt, frame["step"] if frame is not None else "")
        if note:
            v["notes"] = [note]
    return v


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

#: (side, king) -> (the side's entries of loc, steps, down, moved, reserve; its block dicts,
#: ``None`` for a block out of play; the keys of its blocks in the pool) as last computed.
#: Views copy these.
_KeptBlocks = tuple[tuple[tuple[int, ...], ...], list[dict[str, Any] | None], list[str]]
_kept_blocks: dict[tuple[int, int], _KeptBlocks] = {}


def _own_block_dicts(state: State, side: int, king: int) -> tuple[list[dict[str, Any] | None], list[str]]:
    """The dicts of ``side``'s blocks (aligned with ``_OWN[side][king]``, ``None`` for a
    block out of play) and the keys of those in its pool, in block order.

    Between two views most blocks are unchanged, so the dicts of the last call are kept and
    only those of changed blocks are made again. Both are shared: copy them."""
    get = _OWN_GET[side][king]
    cols = (get(state["loc"]), get(state["steps"]), get(state["down"]), get(state["moved"]),
            get(state["reserve"]))
    key = (side, king)
    kept = _kept_blocks.get(key)
    changed: Iterable[int]
    if kept is not None:
        if kept[0] == cols:
            return kept[1], kept[2]
        ch: set[int] = set()
        for old, new in zip(kept[0], cols, strict=True):
            if old != new:
                ch.update(compress(range(len(new)), map(ne, old, new)))
        changed = ch
        dicts = kept[1][:]
    else:
        changed = range(len(cols[0]))
        dicts = [None] * len(cols[0])
    locs, steps, down, moved, reserve = cols
    templates = _BLOCK_TEMPLATES[side]
    own = _OWN[side][king]
    for i in changed:
        lb = locs[i]
        dicts[i] = None if lb in (OFF, DEAD) else \
            _block_dict(templates[own[i]], lb, steps[i], down[i], moved[i], reserve[i], False)
    pool = [BLOCK_KEY[b] for b, lb in zip(own, locs, strict=True) if lb == POOL]
    _kept_blocks[key] = (cols, dicts, pool)
    return dicts, pool


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
    they are counted apart, per area and side, and taken out of ``hidden``."""
    down = state["down"]
    if not any(down):
        return {}
    loc = state["loc"]
    rebel_owner = 1 - state["king"]
    out: dict[str, dict[str, int]] = {}
    for b in range(N_BLOCKS):
        lb = loc[b]
        if not down[b] or lb >= N_AREAS:
            continue
        o = B_SIDE[b]
        if o == REBEL:
            o = rebel_owner
        if o == side:
            continue
        area, r = AREA_NAMES[lb], ROLES[o]
        counts = out.setdefault(area, {})
        counts[r] = counts.get(r, 0) + 1
        left = hidden.get(area, {}).get(r, 0) - 1
        if left > 0:
            hidden[area] = {**hidden[area], r: left}
        elif area in hidden:
            rest = {k: n for k, n in hidden[area].items() if k != r}
            if rest:
                hidden[area] = rest
            else:
                del hidden[area]
    return out


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
    revealed: set[int] = set()
    if state["battle"] is not None:
        revealed = set(state["battle"].get("revealed", []))
    out: set[str] = set()
    loc = state["loc"]
    king = state["king"]
    for b in range(N_BLOCKS):
        lb = loc[b]
        if lb in (DEAD, OFF) or b in revealed:
            continue
        o = B_SIDE[b]
        if o == 2:
            o = 1 - king
        if o != side:
            out.add(BLOCK_KEY[b])
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


def label(state: State, role: str, verb: str, arg: Any) -> str:
    if state.get("battle") is not None:
        return battle.label_part(state, role, verb, arg)
    if arg is None:
        return {"keep": "Keep the hand", "redeal": "Ask for a redeal", "stop": "Stop here",
                "end_group": "End this group", "end": "End the Action Phase", "execute": "Execute him",
                "spare": "Spare him"}.get(verb, verb.replace("_", " "))
    if verb == "play":
        if isinstance(arg, int) and 0 <= arg < N_CARDS:
            return f"Play {CARD_NAME[arg]} ({CARD_AP[arg]} AP{', event' if CARD_EVENT[arg] else ''})"
        return f"Play card {arg}"
    if verb in ("block", "sea", "recruit", "reduce", "disband") and arg in BLOCK_ID:
        b = BLOCK_ID[arg]
        where = state["loc"][b]
        return {"block": "Move", "sea": "Sea move", "recruit": "Recruit", "reduce": "Reduce",
                "disband": "Send to the pool"}[verb] + f" {BLOCK_NAME[b]}" + (f" ({_where(where)})" if where < N_AREAS else "")
    if verb == "main":
        return f"Main Attack from {arg}" if arg in AREA_ID else f"Main Attack from the {arg}"
    if isinstance(arg, str) and arg in AREA_ID:
        return {"move": "Activate the group in", "to": "Move to", "sea_to": "Sea move to", "place": "Deploy in",
                "muster": "Muster at", "plague": "Plague on", "battle": "Fight the battle in", "enter": "Enter in",
                "home": "Send home to"}.get(verb, verb) + f" {arg}"
    return f"{verb} {arg}"


__all__ = ["build_view", "check_invariants", "describe", "label", "secrets", "OBSERVER"]
