"""The Action Phase (1.2, 5.x): Player 1, then Player 2, spends the card's action points.

The phase is one :class:`~roses.games.richard3.state.ActionFrame` at the bottom of the stack
(its step: :class:`Main`, or the events :class:`Plague`, :class:`MusterArea` and
:class:`Muster`); each move pushes its own decisions on top of it and pops them when done:

* a land move (5.2): :class:`Group` (pick the blocks of the activated group), and for each
  block :class:`Path` (take it on area by area, or stop);
* a sea move (5.3): :class:`Sea` (where it lands);
* a recruit (5.4): :class:`Recruit` (where it deploys);
* at the end, a :class:`Declare` for each battle entered across several borders (6.3), pushed
  on the phase frame once it is :class:`Declared`.

The phase ends by itself when only ``end`` is left (fewer empty clicks).
"""

from __future__ import annotations

from typing import Any, cast

from roses.engine import steps
from roses.engine.contract import Action, State
from roses.engine.log import BATTLE, EVENT, MOVE, RECRUIT, TURN, private, public
from roses.engine.steps import Frame
from roses.games.richard3 import battle
from roses.games.richard3 import common as C
from roses.games.richard3.base import (
    RichardStep,
    area_of,
    block_of,
    check_rescue,
    log_eliminations,
    owner,
)
from roses.games.richard3.common import NONE, Moved
from roses.games.richard3.data import (
    ADJ,
    AREA_ID,
    AREA_KIND,
    AREA_NAMES,
    AREA_SEAS,
    B_CATH_AREA,
    B_CITY_AREA,
    B_SHIELD_AREAS,
    B_SIDE,
    B_STEPS,
    B_TYPE,
    BLOCK_ID,
    BLOCK_KEY,
    BLOCK_NAME,
    BOMBARD,
    BORDER_LIMIT,
    BORDER_RED,
    BORDERS,
    CARD_AP,
    CARD_EVENT,
    CHURCH,
    CITY_AREAS,
    ENTERABLE,
    EXILE,
    HEIR,
    LEVY,
    N_AREAS,
    N_BLOCKS,
    NO_SEA,
    NOBLE,
    POOL,
    PORT,
    REBEL,
    REBEL_T,
    ROLES,
    SEA_BORDER,
    SEA_DEST,
    SEA_ZONES,
    WALES_AREAS,
    WELSH,
    shared_zones,
)
from roses.games.richard3.state import ActionFrame, DeclareFrame, GroupFrame, PathFrame, PickedFrame

# Static recruit candidates (5.4) per block, before occupancy checks.
_RECRUIT_AREAS: list[tuple[int, ...]] = []
for _b in range(N_BLOCKS):
    _t = B_TYPE[_b]
    if _t == NOBLE:
        _RECRUIT_AREAS.append(tuple(sorted(B_SHIELD_AREAS[_b])))
    elif _t == CHURCH:
        _RECRUIT_AREAS.append((B_CATH_AREA[_b],))
    elif _t == LEVY:
        _RECRUIT_AREAS.append((B_CITY_AREA[_b],))
    elif _t == BOMBARD:
        _RECRUIT_AREAS.append(CITY_AREAS)
    elif _t == REBEL_T:
        _RECRUIT_AREAS.append(tuple(a for a in range(N_AREAS) if AREA_KIND[a] != EXILE))
    elif _b == WELSH:
        _RECRUIT_AREAS.append(WALES_AREAS)
    else:
        _RECRUIT_AREAS.append(())


#: ``_RECRUIT_OPEN[side][b]``: the recruit areas of block b (5.4) that ``side`` may enter (2.7).
_RECRUIT_OPEN: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(a for a in _RECRUIT_AREAS[b] if ENTERABLE[s][a]) for b in range(N_BLOCKS)) for s in (0, 1))
#: ``_ADJ_OPEN[side][a]``: the ``(neighbour, border)`` pairs of area a (``data.ADJ``) whose
#: neighbour ``side`` may enter (2.7).
_ADJ_OPEN: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple((q, bid) for q, bid in ADJ[a] if ENTERABLE[s][q]) for a in range(N_AREAS)) for s in (0, 1))


#: The options of the Action Phase as constant tuples, by area or block id: a step's options
#: are made of these rather than of new tuples (the same values: actions are immutable).
_MOVE_ACT = tuple(("move", n) for n in AREA_NAMES)
_TO_ACT = tuple(("to", n) for n in AREA_NAMES)
_SEA_TO_ACT = tuple(("sea_to", n) for n in AREA_NAMES)
_PLACE_ACT = tuple(("place", n) for n in AREA_NAMES)
_PLAGUE_ACT = tuple(("plague", n) for n in AREA_NAMES)
_MUSTER_ACT = tuple(("muster", n) for n in AREA_NAMES)
_SEA_ACT = tuple(("sea", k) for k in BLOCK_KEY)
_RECRUIT_ACT = tuple(("recruit", k) for k in BLOCK_KEY)
_BLOCK_ACT = tuple(("block", k) for k in BLOCK_KEY)
_END_ACT: Action = ("end", None)
_STOP_ACT: Action = ("stop", None)
_END_GROUP_ACT: Action = ("end_group", None)


def phase_frame(state: State) -> ActionFrame:
    """The Action Phase frame (the bottom of the stack while the phase lasts)."""
    frame: ActionFrame = state["stack"][0]
    return frame


def move_in_progress(state: State) -> tuple[int, int, list[int]]:
    """The land group moving now (its area), the block picked (a path, a sea move, a recruit)
    and its path so far: -1, -1 and [] for none."""
    stack = state["stack"]
    grp = sel = NONE
    path: list[int] = []
    for fr in stack[1:]:
        name = fr["step"]
        if name == "group":
            grp = fr["area"]
        elif name in _PICKING:
            sel = fr["block"]
            if name == "path":
                path = fr["path"]
    return grp, sel, path


def selected(state: State) -> int:
    """The block picked for a move now (a path, a sea move, a recruit), or -1."""
    return move_in_progress(state)[1]


# ======================================================================= starting and ending
def start_action(state: State, s: int) -> None:
    """The Action Phase of side s (5.x)."""
    card = state["played"][s]
    ev = CARD_EVENT[card] or ""
    frame: ActionFrame = {
        "step": "muster_area" if ev == "Muster" else "plague" if ev == "Plague" else "main",
        "side": s, "ap": CARD_AP[card], "event": ev, "target": NONE, "pairs": [], "moves": [],
    }
    state["stack"] = [frame]
    _auto_end(state)


def _auto_end(state: State) -> None:
    """End the Action Phase at once when nothing but ``end`` is left (fewer empty clicks)."""
    fr = phase_frame(state)
    name = fr["step"]
    if name == "main" and fr["ap"] > 0:
        return
    if name in _ENDS_BY_ITSELF:
        step = _ENDS_BY_ITSELF[name]
        if step.options(state, cast(Frame, fr), ROLES[fr["side"]]) == [_END_ACT]:
            _end_action(state)


def _end_action(state: State) -> None:
    """The side ends its Action Phase; the Main Attack border of each battle it entered across
    two or more borders is declared first (6.3, ruling A1)."""
    fr = phase_frame(state)
    s = fr["side"]
    todo = []
    atk = state["atk"]
    for a in C.contested(C.occupancy(state)):
        if atk[a] == s:
            borders = state["ent"][s][a]
            if len(borders) == 1:
                set_main(state, a, borders[0])
            elif borders:
                todo.append(a)
    if todo:
        steps.replace(state, {**fr, "step": "declared"})
        steps.push_all(state, [DeclareFrame(step="declare", side=s, area=a) for a in todo])
        return
    _next_player(state)


def set_main(state: State, a: int, bid: int) -> None:
    """Border ``bid`` is the Main Attack into area ``a``: the attackers who came another way
    are its Reserves (6.3)."""
    s = state["atk"][a]
    state["main"][a] = bid
    loc, via, res = state["loc"], state["via"], state["reserve"]
    for b in range(N_BLOCKS):
        if loc[b] == a and owner(state, b) == s:
            res[b] = 0 if via[b] == bid else 1


def _next_player(state: State) -> None:
    s = phase_frame(state)["side"]
    public(state, kind=TURN, text=f"{ROLES[s]} ends the Action Phase.")
    if s == state["p1"]:
        start_action(state, 1 - s)
    else:
        battle.start_battle_phase(state)


# ======================================================================= what may move where
def _may_leave(state: State, s: int, a: int, occ: C.Occupancy) -> bool:
    """Pinning (5.22): a defender may leave a battle area only while the unmoved defenders
    outnumber the non-reserve attackers."""
    if state["atk"][a] != 1 - s or not occ[1 - s][a]:
        return True
    moved, res = state["moved"], state["reserve"]
    mine = pins = 0
    king = state["king"]
    for b in C.blocks_in(state, a):  # found by C searches of loc
        o = B_SIDE[b]
        if o == REBEL:
            o = 1 - king
        if o == s:
            if not moved[b]:
                mine += 1
        elif not res[b]:
            pins += 1
    return mine > pins


def _attack_ok(state: State, s: int, q: int, bid: int, occ: C.Occupancy) -> bool:
    """May one more block of s enter enemy/contested q through border bid (6.3 border counts)?"""
    atk = state["atk"][q]
    used = state["ent"][s][q]
    if bid in used:
        return True
    if occ[s][q] == 0:  # a new attack
        return True
    if atk == s:
        return len(used) < 3
    # s is the defender there: P2 reinforcing a battle P1 started
    if s != state["p1"]:
        return len(used) < 2
    return False


def next_steps(state: State, s: int, occ: C.Occupancy, path: list[int], first: bool = False) -> list[int]:
    """Areas a block of s that moved along ``path`` may move to next (5.2, 5.21, 5.22, events);
    with ``first``, only the first such area."""
    fr = state["stack"][0]  # the phase frame (phase_frame, inlined: this is the hot path)
    p = path[-1]
    d = len(path) - 1
    event = fr["event"]
    maxd = 3 if event == "Force March" else 2
    if d >= maxd:
        return []
    bonus = 1 if event == "Surprise" else 0
    bc = state["bc"][s]
    origin = path[0]
    banned: list[int] = []
    if d == 0 and state["atk"][origin] == 1 - s and occ[1 - s][origin]:
        banned = state["ent"][1 - s][origin]
    target = fr["target"]
    out = []
    for q, bid in _ADJ_OPEN[s][p]:
        if q in path or bc[bid] >= BORDER_LIMIT[bid] + bonus or bid in banned:
            continue
        enemy_there = occ[1 - s][q] > 0
        if target >= 0:
            if enemy_there:
                continue
            if q != target:
                # must still be able to reach the target from q
                if d + 1 >= maxd or BORDER_RED[bid]:
                    continue
                ok = False
                for q2, bid2 in ADJ[q]:
                    if q2 == target and bc[bid2] + (1 if bid2 == bid else 0) < BORDER_LIMIT[bid2] + bonus:
                        ok = True
                        break
                if not ok:
                    continue
        elif enemy_there and not _attack_ok(state, s, q, bid, occ):
            continue
        out.append(q)
        if first:
            break
    return out


def movable(state: State, s: int) -> list[int]:
    """Blocks of s that may still move this turn (not moved, not recruited, not face-down)."""
    loc, moved, down = state["loc"], state["moved"], state["down"]
    return [b for b in C.owned_blocks(s, state["king"]) if loc[b] < N_AREAS and not moved[b] and not down[b]]


def _has_unmoved(state: State, s: int, a: int) -> bool:
    """Whether one of :func:`movable` stands in area a."""
    moved, down = state["moved"], state["down"]
    for b in C.owned_at(state, s, a):  # noqa: SIM110 (found by C searches of loc; a loop is faster than any())
        if not moved[b] and not down[b]:
            return True
    return False


def _can_start(state: State, s: int, a: int, occ: C.Occupancy) -> bool:
    """May a block of s standing in area a take a first step?"""
    return bool(next_steps(state, s, occ, [a], first=True))


def group_may_move(state: State, s: int, a: int, occ: C.Occupancy) -> bool:
    """Whether the group in area a has a block that may move (5.2, 5.22)."""
    return _has_unmoved(state, s, a) and _may_leave(state, s, a, occ) and _can_start(state, s, a, occ)


def sea_dests(state: State, s: int, b: int, occ: C.Occupancy, first: bool = False) -> list[int]:
    """Where b may sea move now (5.3, 5.31, Piracy), considering AP and port pairs; with
    ``first``, only the first such area."""
    fr = state["stack"][0]  # the phase frame
    a = state["loc"][b]
    if b in NO_SEA or not AREA_SEAS[a]:
        return []
    if not _may_leave(state, s, a, occ):
        return []
    banned: list[int] = []
    if state["atk"][a] == 1 - s and occ[1 - s][a]:
        banned = state["ent"][1 - s][a]
    ap = fr["ap"]
    pirate = fr["event"] == "Piracy"
    pairs = fr["pairs"]
    out = []
    for d in _SEA_OPEN[s][a]:
        if banned:
            zones = shared_zones(a, d)
            if all((SEA_BORDER + z) in banned for z in range(3) if zones >> z & 1):
                continue
        if occ[1 - s][d]:
            # attacking by sea: Piracy only, 1 AP, no port pairing (C66, C132)
            if not pirate or ap < 1:
                continue
            if not _attack_ok(state, s, d, SEA_BORDER + _FIRST_ZONE[a][d], occ):
                continue
            out.append(d)
        elif ap >= 1 or [a, d] in pairs:
            out.append(d)
        else:
            continue
        if first:
            break
    return out


def _first_zone_of(a: int, d: int) -> int:
    """The first sea zone areas a and d both touch (0 if none): the border of a sea move."""
    m = shared_zones(a, d)
    for z in range(len(SEA_ZONES)):
        if m >> z & 1:
            return z
    return 0


_FIRST_ZONE: tuple[tuple[int, ...], ...] = tuple(
    tuple(_first_zone_of(a, d) for d in range(N_AREAS)) for a in range(N_AREAS))

#: ``_SEA_OPEN[side][a]``: the areas a sea move from a may land in (5.3) that ``side`` may
#: enter (2.7), in order.
_SEA_OPEN: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(d for d in SEA_DEST[a] if ENTERABLE[s][d]) for a in range(N_AREAS)) for s in (0, 1))


def recruit_areas(state: State, s: int, b: int, occ: C.Occupancy, first: bool = False) -> list[int]:
    """Deployment areas for a pool block (5.4); with ``first``, only the first one."""
    t = B_TYPE[b]
    mine, theirs = occ[s], occ[1 - s]
    out = []
    for a in _RECRUIT_OPEN[s][b]:
        if theirs[a]:
            continue
        if t == BOMBARD:
            if not mine[a]:
                continue
        elif t == REBEL_T and mine[a]:
            continue
        out.append(a)
        if first:
            break
    return out


def _muster_blocks(state: State, s: int, target: int, occ: C.Occupancy) -> list[int]:
    loc = state["loc"]
    return [b for b in movable(state, s)
            if loc[b] != target and _may_leave(state, s, loc[b], occ) and _can_start(state, s, loc[b], occ)]


# ======================================================================= the steps
#: What the side not moving is told, by the moving side.
_MOVING = tuple(f"{r} is moving." for r in ROLES)


class _ActionStep(RichardStep):
    """A decision of the side whose Action Phase it is (``frame["side"]``)."""

    phase = "action"
    always_decides = True

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [ROLES[frame["side"]]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        side = frame["side"]
        return self.ask(state, frame) if role == ROLES[side] else _MOVING[side]

    def ask(self, state: State, frame: Frame) -> str:
        """What the acting side is asked."""
        return ""


#: The main step's prompts made so far, by action points and event.
_MAIN_PROMPTS: dict[tuple[int, str], str] = {}


class Main(_ActionStep):
    """Spend the card's AP (5.2-5.4) or end the Action Phase (the phase frame)."""

    name = "main"
    rule = "1.2"
    what = "the Action Phase, spending the card's action points"
    doing = {"move": "move a group by land", "sea": "make a sea move", "recruit": "recruit", "end": "end"}
    labels = {"move": "Activate the group in {area}", "sea": "Sea move {block}", "recruit": "Recruit {block}",
              "end": "End the Action Phase"}

    def ask(self, state: State, frame: Frame) -> str:
        key = (frame["ap"], frame["event"])
        text = _MAIN_PROMPTS.get(key)
        if text is None:  # a few dozen texts in all: kept once made
            event = f" ({frame['event']})" if frame["event"] else ""
            text = _MAIN_PROMPTS[key] = f"Action Phase: {frame['ap']} AP left{event}: move a group, sea move, recruit, or end."
        return text

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        """The groups that may move (5.2), the blocks that may move by sea (5.3) and those
        that may be recruited (5.4), then ``end``."""
        ev = frame["event"]
        ap = frame["ap"]
        if ap <= 0 and not frame["pairs"]:  # no action point and no open port pair (1.2, 5.31)
            return [_END_ACT]
        s = frame["side"]
        occ = C.occupancy(state)
        loc, moved, down = state["loc"], state["moved"], state["down"]
        owned = C.owned_blocks(s, state["king"])
        mobile = [b for b in owned if loc[b] < N_AREAS and not moved[b] and not down[b]]
        acts: list[Action] = []
        if ev != "Piracy" and ap > 0:  # a group that may leave its area and take a first step
            for a in sorted(dict.fromkeys(map(loc.__getitem__, mobile))):
                if _may_leave(state, s, a, occ) and _can_start(state, s, a, occ):
                    acts.append(_MOVE_ACT[a])
        if ev == "" or ev == "Surprise" or ev == "Piracy":
            # whether a block may move by sea depends only on where it stands: asked per area
            by_area: dict[int, bool] = {}
            for b in mobile:
                if b in NO_SEA:
                    continue
                a = loc[b]
                ok = by_area.get(a)
                if ok is None:
                    ok = by_area[a] = bool(sea_dests(state, s, b, occ, True))
                if ok:
                    acts.append(_SEA_ACT[b])
        if ev == "" and ap > 0:  # a pool block (never an heir) with an area to deploy to
            for b in owned:
                if loc[b] == POOL and not down[b] and B_TYPE[b] != HEIR and recruit_areas(state, s, b, occ, True):
                    acts.append(_RECRUIT_ACT[b])
        acts.append(_END_ACT)
        return acts

    def _not_a_choice(self) -> str:
        return f"it is not one of the choices of {self.what} ({self.rule}); the highlighted ones are."

    def why_not_move(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        if not isinstance(arg, str):
            return self._not_a_choice()
        s = frame["side"]
        a = AREA_ID.get(arg, -1)
        if a < 0:
            return f"{arg} is not an area of the map."
        if frame["event"] == "Piracy":
            return "the Piracy event gives sea moves only (its card text)."
        if frame["ap"] <= 0:
            return "no action points are left on this turn's card (1.2)."
        if not _has_unmoved(state, s, a):
            return (f"you have no block in {arg} that may still move: a block moves once in an Action "
                    "Phase, and a block recruited this turn stays where it was placed (1.2, 5.2).")
        if not _may_leave(state, s, a, C.occupancy(state)):
            return f"your blocks in {arg} are pinned: the attackers there hold them (5.22)."
        return f"no border out of {arg} can be crossed now (border limits, 5.21; pinning, 5.22)."

    def why_not_sea(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        b = self._own_block(state, frame, arg)
        if not isinstance(b, int):
            return b
        ev = frame["event"]
        if ev not in ("", "Surprise", "Piracy"):
            return f"the {ev} event gives no sea moves (its card text)."
        if b in NO_SEA:
            return f"{arg} never moves by sea (5.3)."
        if b not in movable(state, frame["side"]):
            return f"{arg} has moved already or may not move this turn (1.2, 5.1)."
        return (f"{arg} has no sea move now: it must start in a port area and land in a friendly "
                "or vacant port of the same sea, for one action point, two to go round (5.3, 5.31).")

    def why_not_recruit(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        b = self._own_block(state, frame, arg)
        if not isinstance(b, int):
            return b
        if frame["event"]:
            return f"the action points of the {frame['event']} event cannot recruit (its card text)."
        if frame["ap"] <= 0:
            return "no action points are left on this turn's card (1.2)."
        if state["loc"][b] != POOL:
            return f"{arg} is on the map already: only blocks in your pool are recruited (5.4)."
        if B_TYPE[b] == HEIR:
            return f"{arg} is an heir: heirs come into play by succession, never by recruiting (5.4)."
        if state["down"][b]:
            return f"{arg} was eliminated this campaign and waits face down in the pool (5.4, 6.8)."
        return f"{arg} has no friendly area it may deploy to (5.4)."

    def why_not_end(self, state: State, frame: Frame, role: str, arg: Any) -> str | None:
        return self._not_a_choice()

    def _own_block(self, state: State, frame: Frame, arg: Any) -> int | str:
        """The block ``arg`` names if it is one of the side's, else why not."""
        if not isinstance(arg, str):
            return self._not_a_choice()
        b = BLOCK_ID.get(arg, -1)
        if b < 0 or b not in C.owned_blocks(frame["side"], state["king"]):
            return f"{arg} is not one of your blocks."
        return b

    def on_move(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        a = area_of(arg)
        frame["ap"] -= 1
        frame["moves"] = []
        group: GroupFrame = {"step": "group", "side": frame["side"], "area": a}
        steps.push(state, group)
        _auto_group(state, frame["side"])

    def on_sea(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        picked: PickedFrame = {"step": "sea", "side": frame["side"], "block": block_of(arg)}
        steps.push(state, picked)

    def on_recruit(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        picked: PickedFrame = {"step": "recruit", "side": frame["side"], "block": block_of(arg)}
        steps.push(state, picked)

    def on_end(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _end_action(state)


# ----- a land move (5.2) ------------------------------------------------------------------
class Group(_ActionStep):
    """Pick the next block of the activated group (5.2), or end the group."""

    name = "group"
    rule = "5.2"
    what = "a land move, picking the blocks of the group"
    doing = {"block": "pick a block", "end_group": "end the group"}
    labels = {"block": "Move {block}", "end_group": "End this group"}

    def ask(self, state: State, frame: Frame) -> str:
        return f"Moving the group in {AREA_NAMES[frame['area']]}: pick a block, or end the group."

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        s, a = frame["side"], frame["area"]
        occ = C.occupancy(state)
        acts: list[Action] = []
        if _may_leave(state, s, a, occ) and _can_start(state, s, a, occ):
            moved, down = state["moved"], state["down"]
            acts = [_BLOCK_ACT[b] for b in C.owned_at(state, s, a) if not moved[b] and not down[b]]
        acts.append(_END_GROUP_ACT)
        return acts

    def on_block(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _pick_for_path(state, frame["side"], block_of(arg))

    def on_end_group(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _flush_moves(state, frame["side"])
        steps.pop(state)
        _auto_end(state)


def _pick_for_path(state: State, s: int, b: int) -> None:
    path: PathFrame = {"step": "path", "side": s, "block": b, "path": [state["loc"][b]]}
    steps.push(state, path)


def _auto_group(state: State, s: int) -> None:
    """Close the group (on top) when none of its blocks can move any more."""
    group = state["stack"][-1]
    if not group_may_move(state, s, group["area"], C.occupancy(state)):
        _flush_moves(state, s)
        steps.pop(state)
        _auto_end(state)


def _flush_moves(state: State, s: int) -> None:
    """Log the moves of the group as area paths with counts (RULINGS.md, log policy: paths and counts, never names)."""
    fr = phase_frame(state)
    moves = fr["moves"]
    if not moves:
        return
    counts: dict[tuple[int, ...], int] = {}
    for path in moves:
        counts[tuple(path)] = counts.get(tuple(path), 0) + 1
    parts = [f"{n} {'block' if n == 1 else 'blocks'} {' → '.join(AREA_NAMES[a] for a in path)}"
             for path, n in counts.items()]
    public(state, kind=MOVE, text=f"{ROLES[s]} moves " + "; ".join(parts) + ".")
    fr["moves"] = []


class Path(_ActionStep):
    """Move the picked block one area on, or stop (5.2, 5.21, 5.22)."""

    name = "path"
    rule = "5.2"
    what = "a land move, taking the block on area by area"
    doing = {"to": "move on", "stop": "stop"}
    labels = {"to": "Move to {area}", "stop": "Stop here"}

    def ask(self, state: State, frame: Frame) -> str:
        return "Move the block on, or stop."

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        path = frame["path"]
        acts: list[Action] = list(map(_TO_ACT.__getitem__, next_steps(state, frame["side"], C.occupancy(state), path)))
        target = phase_frame(state)["target"]
        if len(path) > 1 and (target < 0 or path[-1] == target):
            acts.append(_STOP_ACT)
        return acts

    def on_to(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _step_block(state, frame, frame["side"], area_of(arg))

    def on_stop(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _stop_block(state, frame, frame["side"])


def _step_block(state: State, frame: Frame, s: int, q: int) -> None:
    b = frame["block"]
    path = frame["path"]
    p = path[-1]
    bid = _bid(p, q)
    occ = C.occupancy(state)
    enemy_there = occ[1 - s][q] > 0
    C.move_block(state, b, q)
    state["moved"][b] = Moved.LAND
    state["bc"][s][bid] += 1
    _enter(state, s, q, bid)
    state["via"][b] = bid
    path.append(q)
    if enemy_there:
        if occ[s][q] == 0 and state["atk"][q] < 0:
            state["atk"][q] = s
            state["main"][q] = -1
        elif state["atk"][q] == 1 - s:
            state["reserve"][b] = C.Reserve.P2
    fr = phase_frame(state)
    maxd = 3 if fr["event"] == "Force March" else 2
    stop = enemy_there or BORDER_RED[bid] or len(path) - 1 >= maxd or q == fr["target"]
    if not stop:
        mine = list(occ[s])  # the occupancy with b moved on (occupancy() is shared: a copy)
        mine[q] += 1
        mine[p] -= 1
        if not next_steps(state, s, (mine, occ[1]) if s == 0 else (occ[0], mine), path):
            stop = True
    if stop:
        _stop_block(state, frame, s)


def _enter(state: State, s: int, a: int, bid: int) -> None:
    """Record that side s entered area a through border bid this turn (6.3, 6.6). The list
    of an area is replaced, never changed in place (search copies share it: C.search_copy)."""
    ent = state["ent"][s]
    if bid not in ent[a]:
        ent[a] = [*ent[a], bid]


def _bid(p: int, q: int) -> int:
    for n, bid in ADJ[p]:
        if n == q:
            return bid
    raise ValueError(f"areas {p} and {q} are not adjacent")


def _stop_block(state: State, frame: Frame, s: int) -> None:
    """The picked block stops: its path joins the moves of the group (or the muster)."""
    fr = phase_frame(state)
    fr["moves"].append(list(frame["path"]))
    steps.pop(state)
    check_rescue(state)
    if fr["target"] >= 0:  # Muster: the next block, if one may still go there
        if not _muster_blocks(state, s, fr["target"], C.occupancy(state)):
            _flush_moves(state, s)
            _end_action(state)
        return
    _auto_group(state, s)


# ----- a sea move (5.3) and a recruit (5.4) -----------------------------------------------
class Sea(_ActionStep):
    """The destination of a sea move (5.3, 5.31, Piracy)."""

    name = "sea"
    rule = "5.3"
    what = "a sea move, choosing where the block lands"
    doing = {"sea_to": "choose the landing area"}
    labels = {"sea_to": "Sea move to {area}"}

    def ask(self, state: State, frame: Frame) -> str:
        return "Choose the sea move's destination."

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return list(map(_SEA_TO_ACT.__getitem__, sea_dests(state, frame["side"], frame["block"], C.occupancy(state))))

    def on_sea_to(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        s, b, d = frame["side"], frame["block"], area_of(arg)
        fr = phase_frame(state)
        a = state["loc"][b]
        occ = C.occupancy(state)
        attacking = occ[1 - s][d] > 0
        pairs = fr["pairs"]
        if attacking:
            fr["ap"] -= 1
            state["pirate"][b] = shared_zones(a, d)
            if occ[s][d] == 0 and state["atk"][d] < 0:
                state["atk"][d] = s
                state["main"][d] = -1
        elif [a, d] in pairs:
            pairs.remove([a, d])
        else:
            fr["ap"] -= 1
            if PORT[a] == 2 and PORT[d] == 2:
                pairs.append([a, d])
        C.move_block(state, b, d)
        state["moved"][b] = Moved.SEA
        bid = SEA_BORDER + _FIRST_ZONE[a][d]
        state["via"][b] = bid
        _enter(state, s, d, bid)
        steps.pop(state)
        public(state, kind=MOVE, text=f"{ROLES[s]} moves 1 block by sea {AREA_NAMES[a]} → {AREA_NAMES[d]}"
                      + (" (attack)." if attacking else "."))
        check_rescue(state)
        _auto_end(state)


class Recruit(_ActionStep):
    """Where the recruit deploys (5.4)."""

    name = "recruit"
    rule = "5.4"
    what = "a recruit, choosing where the block deploys"
    doing = {"place": "choose where the recruit deploys"}
    labels = {"place": "Deploy in {area}"}

    def ask(self, state: State, frame: Frame) -> str:
        return "Choose where to deploy the recruit."

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        return list(map(_PLACE_ACT.__getitem__, recruit_areas(state, frame["side"], frame["block"], C.occupancy(state))))

    def on_place(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        b, a = frame["block"], area_of(arg)
        C.move_block(state, b, a)
        state["steps"][b] = B_STEPS[b]
        state["moved"][b] = Moved.RECRUITED
        C.forget(state, b)  # a recruit could be any block of the pool (5.4)
        phase_frame(state)["ap"] -= 1
        steps.pop(state)
        public(state, kind=RECRUIT, text=f"{role} recruits a block in {AREA_NAMES[a]}.")
        private(state, role, kind=RECRUIT, text=f"You recruit {BLOCK_NAME[b]} in {AREA_NAMES[a]}.")
        check_rescue(state)
        _auto_end(state)


_PICKING = frozenset(("path", "sea", "recruit"))


# ----- the event cards (C131, C133) -------------------------------------------------------
class Plague(_ActionStep):
    """Plague: the enemy city area struck (C133)."""

    name = "plague"
    rule = "5.1"
    what = "the Plague event, choosing an enemy city"
    doing = {"plague": "choose a city", "end": "end"}
    labels = {"plague": "Plague on {area}", "end": "End the Action Phase"}

    def ask(self, state: State, frame: Frame) -> str:
        return "Plague: choose an enemy city area, or end."

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        s = frame["side"]
        occ = C.occupancy(state)
        acts: list[Action] = [_PLAGUE_ACT[a] for a in CITY_AREAS if occ[1 - s][a] and not occ[s][a]]
        acts.append(_END_ACT)
        return acts

    def on_plague(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        """Every block in the enemy city area loses one step (C133; 6.8, 9.0 apply)."""
        s, a = frame["side"], area_of(arg)
        victims = C.blocks_in(state, a)
        dead = [b for b in victims if C.reduce(state, b)]
        public(state, kind=EVENT, text=f"{ROLES[s]} plays Plague on {AREA_NAMES[a]}: {len(victims)} block(s) lose a step, "
                      f"{len(dead)} eliminated.")
        log_eliminations(state, dead, 1 - s)
        if state["result"] is None:
            _end_action(state)

    def on_end(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _end_action(state)


class MusterArea(_ActionStep):
    """Muster: the area the blocks move to (C131)."""

    name = "muster_area"
    rule = "5.1"
    what = "the Muster event, choosing the muster area"
    doing = {"muster": "choose the muster area", "end": "end"}
    labels = {"muster": "Muster at {area}", "end": "End the Action Phase"}

    def ask(self, state: State, frame: Frame) -> str:
        return "Muster: choose a friendly or vacant area, or end."

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        s = frame["side"]
        ent_s, theirs = ENTERABLE[s], C.occupancy(state)[1 - s]
        acts: list[Action] = [_MUSTER_ACT[a] for a in range(N_AREAS) if ent_s[a] and not theirs[a]]
        acts.append(_END_ACT)
        return acts

    def on_muster(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        a = area_of(arg)
        steps.replace(state, {**frame, "step": "muster", "target": a, "moves": []})
        public(state, kind=MOVE, text=f"{role} musters at {AREA_NAMES[a]}.")

    def on_end(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _end_action(state)


class Muster(_ActionStep):
    """Muster: pick a block to move to the muster area (C131)."""

    name = "muster"
    rule = "5.1"
    what = "the Muster event, picking the blocks that go there"
    doing = {"block": "pick a block", "end": "end"}
    labels = {"block": "Move {block}", "end": "End the Action Phase"}

    def ask(self, state: State, frame: Frame) -> str:
        return f"Muster at {AREA_NAMES[frame['target']]}: pick a block to move there, or end."

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        s = frame["side"]
        acts: list[Action] = [_BLOCK_ACT[b] for b in _muster_blocks(state, s, frame["target"], C.occupancy(state))]
        acts.append(_END_ACT)
        return acts

    def on_block(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _pick_for_path(state, frame["side"], block_of(arg))

    def on_end(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        _flush_moves(state, frame["side"])
        _end_action(state)


#: The phase steps that end the Action Phase by themselves when only ``end`` is left.
_ENDS_BY_ITSELF: dict[str, _ActionStep] = {}


# ----- the end of the phase: Main Attack declarations (6.3) --------------------------------
class Declared(_ActionStep):
    """The Main Attack declarations pushed on top are made: the Action Phase ends."""

    name = "declared"
    always_decides = False

    def actors(self, state: State, frame: Frame) -> list[str]:
        return []

    def run(self, state: State, frame: Frame) -> None:
        _next_player(state)


def border_arg(bid: int, a: int) -> str:
    """The argument naming a border into area a: the neighbouring area's name, or the sea zone."""
    if bid >= SEA_BORDER:
        return SEA_ZONES[bid - SEA_BORDER]
    x, y, _ = BORDERS[bid]
    return AREA_NAMES[x if y == a else y]


def _border_label(bid: int, a: int) -> str:
    if bid >= SEA_BORDER:
        return f"the {SEA_ZONES[bid - SEA_BORDER]}"
    x, y, _ = BORDERS[bid]
    return f"the {AREA_NAMES[x if y == a else y]} border"


class Declare(RichardStep):
    """Declare the Main Attack border of a battle entered through two or more (6.3, ruling A1)."""

    name = "declare"
    phase = "action"
    always_decides = True
    rule = "6.3"
    what = "the Main Attack declaration of a battle entered across several borders"
    doing = {"main": "name the border"}

    def actors(self, state: State, frame: Frame) -> list[str]:
        return [ROLES[frame["side"]]]

    def options(self, state: State, frame: Frame, role: str) -> list[Action]:
        a = frame["area"]
        return [("main", border_arg(bid, a)) for bid in state["ent"][frame["side"]][a]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role not in self.actors(state, frame):
            return f"{ROLES[frame['side']]} is moving."
        return f"Declare the Main Attack border into {AREA_NAMES[frame['area']]}."

    def option_label(self, state: State, frame: Frame, role: str, verb: str, arg: Any) -> str | None:
        if verb != "main":
            return None
        return f"Main Attack from {arg}" if arg in AREA_ID else f"Main Attack from the {arg}"

    def on_main(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        s, a = frame["side"], frame["area"]
        bid = next(b for b in state["ent"][s][a] if border_arg(b, a) == arg)
        set_main(state, a, bid)
        public(state, kind=BATTLE, text=f"{role} declares the Main Attack on {AREA_NAMES[a]} across {_border_label(bid, a)}.")
        steps.pop(state)


MAIN, PLAGUE, MUSTER_AREA = Main(), Plague(), MusterArea()
_ENDS_BY_ITSELF.update({"main": MAIN, "plague": PLAGUE, "muster_area": MUSTER_AREA})

STEPS = (MAIN, Group(), Path(), Sea(), Recruit(), PLAGUE, MUSTER_AREA, Muster(), Declared(), Declare())
