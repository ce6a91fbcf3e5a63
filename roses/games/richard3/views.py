"""Views, secrets, invariants and text rendering for Richard III (each step labels its own actions).

Hidden information (4.2; RULINGS.md, log policy and K1): a role sees its own blocks in full; of enemy blocks only the
number per area (plus what battle.py reveals in the current battle); its own hand and pool; the
other hand, the opponent's card before both are played, and the undealt cards never. See
RULINGS.md "Log policy" for what the log says.

A view (:func:`build_view`) gives the blocks as numbers: a few C-level copies of the state's
per-block lists rather than a dict per block, since views are rendered for every role after
every action. :func:`expand` makes the *full* view of it, adding only public facts (block
names, ratings, area and heir names); the web client (``static/js/games/richard3.js``,
``expand``, with the public facts of :func:`tables`, fetched once from
``GET /api/rules/richard3/tables``) and the terminal (:func:`describe`) draw that one. The parts that :func:`expand` replaces:

``own`` (a side's view only)
    The side's blocks, wherever they are, in the order of ``C.owned_blocks(side, king)`` (the
    Rebel is the Pretender's, 3.26): ``keys`` (block keys), then ``where`` (location ids: an
    area below ``N_AREAS``, else the pool, a minor, a prisoner, dead or off the map),
    ``steps``, ``down``, ``moved`` (3: recruited this turn) and ``reserve``, one entry per
    block. The full view's ``blocks``, ``pool`` and ``pools`` come from it.
``shown``
    The blocks of other sides revealed in the current battle and standing in an area (6.3,
    6.5), by block id: ``[key, side, where, steps, down, moved, reserve]`` each.
``counts``
    York's and Lancaster's blocks per area (2.1; public: the backs of blocks are seen). The
    full view's ``hidden`` (blocks of other sides not shown, per area) comes from these,
    ``shown`` and ``face_down``.
``face_down``
    ``[area, side]`` for each block of another side lying face down in an area (eliminated
    mercenaries at home until the next campaign, 6.85; public), by block id.
``heirs``
    The location id of each heir, York's then Lancaster's, in order of succession (6.81).
``border_counts``
    York's and Lancaster's crossings of each border this turn, by border id (5.21).
``battles``
    ``[area, attacker side or -1, Main Attack border or -1]`` per contested area (6.1).

Every other key is the same in both.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import compress
from typing import Any

from roses.engine.contract import OBSERVER, Action, Rules, State, View
from roses.engine.log import entry_kind, entry_text, readable
from roses.engine.logview import shared_recent_logs
from roses.engine.steps import StepRules, options_map
from roses.games.richard3 import action as moves
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
#: A hand as views show it (its cards' dicts), per hand seen (a tuple of card ids): shared by
#: the views of every step while the hand is the same, read only like the rest of a view.
_HANDS: dict[tuple[int, ...], list[dict[str, Any]]] = {}
_CARDS: tuple[dict[str, Any], ...] = tuple(
    {"id": c, "name": CARD_NAME[c], "ap": CARD_AP[c], "event": CARD_EVENT[c], "tag": CARD_TAG[c]}
    for c in range(N_CARDS))


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
#: is the Pretender's, 3.26), by id.
_OWN: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(C.owned_blocks(s, k) for k in (0, 1)) for s in (0, 1))


#: ``_OWN_RUNS[side][king]``: ``_OWN[side][king]`` as runs of consecutive ids (a side's blocks
#: are numbered together: one run, or two with the Rebel), so that their entries of a
#: per-block list are taken by slicing it (:func:`_column`).
_OWN_RUNS = tuple(tuple(C.owned_runs(s, k) for k in (0, 1)) for s in (0, 1))


def _column(values: list[Any], runs: tuple[tuple[int, int], ...]) -> list[Any]:
    """The entries of ``values`` (a per-block list) for the blocks of ``runs``, in order, by
    slices (one C call per run)."""
    if len(runs) == 1:
        lo, hi = runs[0]
        return values[lo:hi]
    out: list[Any] = []
    for lo, hi in runs:
        out += values[lo:hi]
    return out


#: ``_OWN_KEYS[side][king]``: the keys of the blocks ``side`` owns, in the order of ``_OWN``.
_OWN_KEYS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(BLOCK_KEY[b] for b in _OWN[s][k]) for k in (0, 1)) for s in (0, 1))
_HEIR_IDS: tuple[int, ...] = (*HEIRS[0], *HEIRS[1])
#: The heirs' ids as runs (:func:`common.id_runs`; each side's heirs are numbered together).
_HEIR_RUNS = C.id_runs(_HEIR_IDS)
_N_HEIRS0 = len(HEIRS[0])
_BLOCK_RANGE = range(N_BLOCKS)


def build_view(rules: StepRules, state: State, role: str) -> View:
    """``role``'s view of ``state`` (4.2; its layout in the module docs): a new dict, whose
    parts may be shared with the state's kept results (the log window, the occupancy) and
    with other views: read it only."""
    return build_views(rules, state, (role,))[0]


def build_views(rules: StepRules, state: State, roles: Sequence[str],  # noqa: PLR0915 - every role's view built in one pass over the state, for speed
                with_log: bool = True) -> list[View]:
    """The view of each of ``roles``, as :func:`build_view` gives it: the parts that are the
    same for every role are worked out once and shared by the views. Without ``with_log``,
    without the recent log (:meth:`Rules.decision_view`)."""
    stack = state["stack"]
    result = state["result"]
    if stack:
        frame = stack[-1]
        step = rules.steps.by_name[frame["step"]]
        active = step.actors(state, frame) if result is None else []
        played_phase = step.phase
    else:
        frame = None
        active = []
        played_phase = ""
    phase = "over" if result is not None else played_phase
    king = state["king"]
    loc = state["loc"]
    kb = state["king_block"]
    pb = C.pretender_block(state)
    minors = state["minors_owed"]
    hands = state["hands"]
    mull = state["mulligan_used"]
    p0, p1 = state["played"]
    # cards are revealed together (1.1); a game that ends (a resignation, a time-out) while one
    # card lies face down leaves it face down: the phase the game stopped in decides
    both = p0 >= 0 and p1 >= 0 or played_phase != "card" and played_phase != "mulligan"
    occ = C.occupancy(state)
    atk, main = state["atk"], state["main"]
    bc = state["bc"]
    common: View = {
        "active": active, "phase": phase, "result": result,
        "scenario": state["scenario"], "campaign": state["campaign"], "last_campaign": state["last_campaign"],
        "turn": state["turn"], "king": ROLES[king], "pretender": ROLES[1 - king],
        "king_block": BLOCK_NAME[kb] if kb >= 0 else None, "pretender_block": BLOCK_NAME[pb] if pb >= 0 else None,
        "p1": ROLES[state["p1"]] if played_phase != "card" and played_phase != "mulligan" else None,
        "minors_owed": {"York": minors[0], "Lancaster": minors[1]}, "prisoner": state["prisoner"] >= 0,
        "heirs": _column(loc, _HEIR_RUNS), "counts": occ,
        "battles": [[a, atk[a], main[a]] for a in cont] if (cont := C.contested(occ)) else [],
        "border_counts": (bc[0][:], bc[1][:]),
        "hand_size": {"York": len(hands[0]), "Lancaster": len(hands[1])},
        "mulligan_used": {"York": bool(mull[0]), "Lancaster": bool(mull[1])},
    }
    bt = state["battle"]
    revealed: Sequence[int] = bt["revealed"] if bt is not None else ()
    down = state["down"]
    # a view's face_down: those of the other sides (:func:`_lying_down`)
    lying = _lying_down(state) if down.count(0) != len(down) else []
    action: dict[str, Any] | None = None
    sel = -1
    acting = -1
    if phase == "action":
        fr = stack[0]
        acting = fr["side"]
        grp, sel, path = moves.move_in_progress(state)
        tgt = fr["target"]
        action = {"player": ROLES[acting], "ap": fr["ap"], "event": fr["event"] or None,
                  "group": AREA_NAMES[grp] if grp >= 0 else None,
                  "path": [AREA_NAMES[a] for a in path], "selected": None,
                  "muster": AREA_NAMES[tgt] if tgt >= 0 else None}
    decision = _decision(state)
    treason = state.get("treason", -1) if result is None else -1
    actor_options: dict[int, list[Action]] = {}  # by the index of the role
    if result is not None:
        prompts = [f"Game over: {result} wins."] * len(roles)
        common["result_reason"] = result_reason(state["log"])
    elif frame is not None:
        prompts = []
        for i, role in enumerate(roles):
            if role in active:
                prompt, actor_options[i] = rules.steps.prompt_and_options_of(state, frame, step, role)
            else:
                prompt = step.prompt(state, frame, role)
            prompts.append(prompt)
    else:
        prompts = [""] * len(roles)
    parts: list[dict[str, Any]] | None = None
    if bt is not None:
        # a battle step's prompt is its battle part's (battle.view_parts)
        parts = battle.view_parts(state, roles, prompts if frame is not None and result is None
                                  and battle.is_battle_step(step) else None)
    logs = shared_recent_logs(state["log"], roles) if with_log else None
    views: list[View] = []
    for i, role in enumerate(roles):
        side = _side(role)
        v: View = common.copy()  # a copy of a whole dict: one C call, no resizing
        v["role"] = role
        v["played"] = {"York": (_CARDS[p0] if both or side == 0 else "hidden") if p0 >= 0 else None,
                       "Lancaster": (_CARDS[p1] if both or side == 1 else "hidden") if p1 >= 0 else None}
        if side >= 0:
            hk = tuple(hands[side])
            hand = _HANDS.get(hk)
            if hand is None:
                if len(_HANDS) >= 4096:
                    _HANDS.clear()
                hand = _HANDS[hk] = [_CARDS[c] for c in hk]
            v["hand"] = hand
            runs = _OWN_RUNS[side][king]
            if len(runs) == 1:  # _column, inlined
                lo, hi = runs[0]
                v["own"] = {"keys": _OWN_KEYS[side][king], "where": loc[lo:hi], "steps": state["steps"][lo:hi],
                            "down": state["down"][lo:hi], "moved": state["moved"][lo:hi],
                            "reserve": state["reserve"][lo:hi]}
            else:
                v["own"] = {"keys": _OWN_KEYS[side][king], "where": _column(loc, runs),
                            "steps": _column(state["steps"], runs), "down": _column(state["down"], runs),
                            "moved": _column(state["moved"], runs), "reserve": _column(state["reserve"], runs)}
        v["shown"] = _shown(state, side, revealed) if revealed else []
        v["face_down"] = [x for x in lying if x[1] != side] if lying else []
        if action is not None:
            if sel >= 0:
                v["action"] = {**action, "selected": BLOCK_KEY[sel] if acting == side else "hidden"}
            else:
                v["action"] = action
        if decision is not None:
            kind, s, subj, n = decision
            dd: dict[str, Any] = {"kind": kind, "player": ROLES[s], "count": n}
            if kind in ("reduce", "disband", "main"):
                dd["area"] = subj
            elif kind == "execute" or s == side and subj >= 0:
                dd["block"] = BLOCK_NAME[subj]
            v["decision"] = dd
        if parts is not None:
            v["battle"] = parts[i]
        if logs is not None:
            v["log"], v["log_kinds"], v["log_more"] = logs[i]
        v["prompt"] = prompts[i]
        if i in actor_options:
            v["actions"] = options_map(actor_options[i])
        if side >= 0 and treason == side:
            note = _treason_note(state, side, bt, frame["step"] if frame is not None else "")
            if note:
                v["notes"] = [note]
        views.append(v)
    return views


def _shown(state: State, side: int, revealed: Sequence[int]) -> list[list[Any]]:
    """The blocks of sides other than ``side`` revealed in the battle, in an area, by id."""
    loc = state["loc"]
    steps, down, moved, reserve = state["steps"], state["down"], state["moved"], state["reserve"]
    out = []
    for b in sorted(revealed):
        lb = loc[b]
        if lb >= N_AREAS:
            continue
        o = C.owner(state, b)
        if o != side:
            out.append([BLOCK_KEY[b], o, lb, steps[b], down[b], moved[b], reserve[b]])
    return out


def _lying_down(state: State) -> list[list[int]]:
    """``[area, side]`` for each block lying face down in an area (eliminated mercenaries at
    home until the next campaign, 6.85), by id; a view's ``face_down`` has those of the other
    sides."""
    loc = state["loc"]
    out = []
    for b in compress(_BLOCK_RANGE, state["down"]):
        lb = loc[b]
        if lb < N_AREAS:
            out.append([lb, C.owner(state, b)])
    return out


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


# ======================================================================= the full view
def expand(view: View) -> View:
    """The full view (:func:`views.build_view`) a compact view stands for: its parts in the
    full view's layout, with the public facts of each block, area and heir added."""
    out = {k: x for k, x in view.items() if k not in _COMPACT_KEYS}
    role = view["role"]
    side = _side(role)
    king = ROLES.index(view["king"])
    counts = view["counts"]
    out["counts"] = {"York": list(counts[0]), "Lancaster": list(counts[1])}
    # heirs: each heir's place, as a status (6.81, ruling A2)
    heir_locs = view["heirs"]
    kb = view["king_block"]
    pb = view["pretender_block"]
    heirs: dict[str, list[dict[str, Any]]] = {}
    for s in (0, 1):
        row = []
        ids = HEIRS[s]
        for i, h in enumerate(ids):
            lh = heir_locs[i + (_N_HEIRS0 if s else 0)]
            status = ("dead" if lh == DEAD else "defected" if lh == OFF else "minor" if lh == MINOR
                      else "prisoner" if lh == PRISON else "King" if BLOCK_NAME[h] == kb and s == king
                      else "Pretender" if BLOCK_NAME[h] == pb and s != king else "alive")
            row.append({"name": BLOCK_NAME[h], "rank": i + 1, "status": status})
        heirs[ROLES[s]] = row
    out["heirs"] = heirs
    out["battles"] = [{"area": a, "name": AREA_NAMES[a], "attacker": ROLES[at] if at >= 0 else None, "main": m}
                      for a, at, m in view["battles"]]
    bc = view["border_counts"]
    out["border_counts"] = {ROLES[s]: [[bid, n] for bid, n in enumerate(bc[s]) if n] for s in (0, 1)}
    # the blocks: one's own in full, the others shown in the battle, the rest counted per area
    dicts: list[tuple[int, dict[str, Any]]] = []
    if side >= 0:
        own = view["own"]
        pool = []
        for key, where, steps, down, moved, reserve in zip(own["keys"], own["where"], own["steps"], own["down"],
                                                           own["moved"], own["reserve"], strict=True):
            b = BLOCK_ID[key]
            if where == POOL:
                pool.append(key)
            if where != OFF and where != DEAD:
                dicts.append((b, _block_dict(_BLOCK_TEMPLATES[side][b], where, steps, down, moved, reserve,
                                               False)))
        out["pool"] = pool
        out["pools"] = {role: len(pool)}
    unseen = {s: list(counts[s]) for s in (0, 1) if s != side}
    for key, o, where, steps, down, moved, reserve in view["shown"]:
        b = BLOCK_ID[key]
        dicts.append((b, _block_dict(_BLOCK_TEMPLATES[o][b], where, steps, down, moved, reserve, True)))
        unseen[o][where] -= 1
    dicts.sort(key=lambda t: t[0])
    out["blocks"] = [d for _, d in dicts]
    face_down: dict[str, dict[str, int]] = {}
    for area, o in view["face_down"]:
        per = face_down.setdefault(AREA_NAMES[area], {})
        per[ROLES[o]] = per.get(ROLES[o], 0) + 1
        unseen[o][area] -= 1
    out["face_down"] = face_down
    hidden: dict[str, dict[str, int]] = {}
    for a in range(N_AREAS):
        for o, left in unseen.items():
            if left[a] > 0:
                hidden.setdefault(AREA_NAMES[a], {})[ROLES[o]] = left[a]
    out["hidden"] = hidden
    return out


def tables() -> dict[str, Any]:
    """The public facts :func:`expand` adds to a view, for clients that expand views
    themselves (``Rules.view_tables``; the web client's ``expand`` in
    ``static/js/games/richard3.js``): the name of every location id, every block's fixed
    facts by id (``side``: its printed side, 0 York, 1 Lancaster, 2 the Rebel, who is the
    Pretender's, 3.26), the heirs of each side in order of succession (6.81) and the ids of
    the locations off the map."""
    blocks = []
    for b in range(N_BLOCKS):
        t = {k: x for k, x in _BLOCK_TEMPLATES[0][b].items() if k not in ("side", "steps", "where")}
        t["side"] = B_SIDE[b]
        blocks.append(t)
    return {"where": list(_WHERE), "areas": N_AREAS, "blocks": blocks, "heirs": [list(HEIRS[0]), list(HEIRS[1])],
            "roles": list(ROLES), "pool": POOL, "minor": MINOR, "prison": PRISON, "dead": DEAD, "off": OFF}


#: The keys of a compact view that :func:`expand` replaces.
_COMPACT_KEYS = frozenset(("own", "shown", "counts", "face_down", "heirs", "border_counts", "battles"))


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


def result_reason(log: list[Any]) -> str:
    """Why the game ended, in the log's public words: the last public line that ends it (9.0:
    the throne held at the end of the last campaign, or all heirs of a side dead; a
    resignation or a time-out, logged by the contract's ``finish``)."""
    for entry in reversed(log):
        if not readable(entry, OBSERVER):
            continue
        text = entry_text(entry)
        if entry_kind(entry) == "result" or " wins" in text or text.endswith((" resigned.", " out of time.")) \
                or "ran out of time" in text:
            return text
    return ""


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
def check_invariants(rules: StepRules, state: State) -> list[str]:  # noqa: C901 - a flat list of independent checks
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
    """A role's view (:func:`build_view`) as text, for the terminal."""
    view = expand(view)
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


__all__ = ["build_view", "check_invariants", "describe", "expand", "secrets", "OBSERVER"]
