"""The Supply Phase (6.81 the new King, 6.82 minor heirs, 9.1 executions, 7.1-7.2 supply
limits) and the decisions of the Supply Phase and the Political Turn.

:class:`Supply` is an automatic step that queues each stage's decisions on top of itself; each
decision (:class:`Enter`, :class:`Execute`, :class:`Reduce`, and the Political Turn's
:class:`Home` and :class:`Disband`) is an engine :class:`~roses.engine.steps.Choice`: the side
is asked only while it has a real choice, otherwise the decision makes itself.
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from roses.engine import steps
from roses.engine.contract import Action, State, mark_reveal
from roses.engine.log import POLITICAL, SUPPLY, private, public
from roses.engine.steps import Choice, Frame
from roses.games.richard3 import cards, political
from roses.games.richard3 import common as C
from roses.games.richard3.base import RichardStep, area_of, block_of, log_eliminations
from roses.games.richard3.common import NONE
from roses.games.richard3.data import (
    AREA_ID,
    AREA_KIND,
    AREA_NAMES,
    B_CATH_AREA,
    B_HOME,
    B_SHIELD_AREAS,
    B_SIDE,
    B_STEPS,
    B_TYPE,
    BLOCK_KEY,
    BLOCK_NAME,
    CHURCH,
    CLARENCE_L,
    CROWN_AREAS,
    DEAD,
    ENTERABLE,
    EXETER_Y,
    EXILE,
    EXILE_AREAS,
    EXILE_LIMIT,
    HEIR,
    HEIRS,
    MERC,
    MINOR,
    N_AREAS,
    POOL,
    ROLES,
    SHIELD_AREAS,
    SUPPLY_LIMIT,
)
from roses.games.richard3.state import Decision, SupplyFrame

CORNWALL = AREA_ID["Cornwall"]
CALAIS = AREA_ID["Calais"]
LAST_TURN = 7
NEVILLES = tuple(b for b in range(len(BLOCK_KEY)) if BLOCK_KEY[b].split("/")[0] in ("Warwick", "Kent", "Salisbury"))
_AREA_RANGE = range(N_AREAS)


def start_supply(state: State) -> None:
    """The Supply Phase (6.81, 6.82, 9.1, 7.x)."""
    frame: SupplyFrame = {"step": "supply", "stage": 0, "marked": []}
    state["stack"] = [frame]
    public(state, kind=SUPPLY, text="Supply Phase.")


def _new_king(state: State, king: int) -> list[Decision]:
    """6.81: the King is dead: his senior heir on the map is King at once; a minor heir
    enters as King."""
    if state["king_block"] >= 0:
        return []
    for h in HEIRS[king]:
        lh = state["loc"][h]
        if lh < N_AREAS:
            state["king_block"] = h
            C.learn(state, h)  # named as the new King (6.81)
            mark_reveal(state)
            public(state, kind=SUPPLY, text=f"{BLOCK_NAME[h]} becomes King in {AREA_NAMES[lh]} (6.81).")
            return []
        if lh == MINOR:
            return [Decision(step="enter", side=king, subj=h, n=1, ask=False)]
    return []


def _minors(state: State, king: int) -> list[Decision]:
    """6.82: minor heirs owed to each side enter."""
    return [Decision(step="enter", side=side, subj=NONE, n=0, ask=False)
            for side in (king, 1 - king) if state["minors_owed"][side] > 0]


def _executions(state: State, king: int) -> list[Decision]:
    """9.1: a defected Clarence or Exeter may be executed."""
    return [Decision(step="execute", side=side, subj=b, n=0, ask=False)
            for b, side in ((CLARENCE_L, 1), (EXETER_Y, 0))
            if state["loc"][b] < N_AREAS or state["loc"][b] == POOL]


def _supply_limits(state: State, king: int) -> list[Decision]:
    """7.1, 7.2: blocks over an area's supply limit, or an exile area's limit, lose steps."""
    todo = []
    occ = C.occupancy(state)
    for side in (1 - king, king):
        counts = occ[side]
        for a in compress(_AREA_RANGE, counts):  # the areas side occupies
            n = counts[a]
            if a in EXILE_LIMIT:
                if n <= EXILE_LIMIT[a]:  # (the extras are some of the n blocks there)
                    continue
                extra = len(exile_extras(state, side, a)) - EXILE_LIMIT[a]
            else:
                extra = n - SUPPLY_LIMIT[a]
            if extra > 0:
                todo.append(Decision(step="reduce", side=side, subj=a, n=extra, ask=False))
    return todo


#: The stages of the Supply Phase, in order: each gives the decisions it queues.
_STAGES = (_new_king, _minors, _executions, _supply_limits)


class Supply(RichardStep):
    """The Supply Phase, stage by stage (6.81, 6.82, 9.1, 7.1, 7.2), then the next Game Turn
    or, after the last, the Political Turn."""

    name = "supply"
    phase = "supply"

    def run(self, state: State, frame: Frame) -> None:
        st = frame["stage"]
        frame["stage"] = st + 1
        if st < len(_STAGES):
            steps.push_all(state, _STAGES[st](state, state["king"]))
        elif state["turn"] >= LAST_TURN:
            political.start_political(state)
        else:
            state["turn"] += 1
            cards.start_turn(state)


def exile_extras(state: State, side: int, a: int) -> list[int]:
    """Blocks in an exile area that count against its limit: all but its local mercenaries (7.2, A9)."""
    return [b for b in C.blocks_in(state, a, side) if not (B_TYPE[b] == MERC and B_HOME[b] == a)]


def entry_areas(state: State, side: int, h: int) -> list[int]:
    """Where an entering minor heir may go (6.82): royal heirs to a friendly or vacant crown
    area (if none, an own exile area: ruling in RULINGS.md); Pretender heirs to either exile area."""
    occ = C.occupancy(state)
    if side == state["king"]:
        out = [a for a in CROWN_AREAS if not occ[1 - side][a]]
        if out:
            return out
    return list(EXILE_AREAS[side])


def senior_minor(state: State, side: int) -> int:
    for h in HEIRS[side]:
        if state["loc"][h] == MINOR:
            return h
    return -1


class _Decision(Choice, RichardStep):
    """A Supply or Political decision (a :class:`Decision` frame)."""

    ask = ""

    def chooser(self, state: State, frame: Frame) -> str:
        return ROLES[frame["side"]]

    def prompt(self, state: State, frame: Frame, role: str) -> str:
        if role in self.actors(state, frame):
            return self.ask
        return f"Waiting for {ROLES[frame['side']]}."


class Enter(_Decision):
    """Where a minor heir (or the new King) enters play (6.81, 6.82)."""

    name = "enter"
    phase = "supply"
    rule = "6.82"
    what = "the entry of a new heir"
    ask = "Choose where the heir enters."
    doing = {"enter": "choose an area"}
    labels = {"enter": "Enter in {area}"}

    def choices(self, state: State, frame: Frame) -> list[Action]:
        side, subj = frame["side"], frame["subj"]
        h = subj if subj >= 0 else senior_minor(state, side)
        if h < 0:
            return []
        return [("enter", AREA_NAMES[a]) for a in entry_areas(state, side, h)]

    def finish(self, state: State, frame: Frame) -> None:
        state["minors_owed"][frame["side"]] = 0
        steps.pop(state)

    def on_enter(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        side, subj, a = frame["side"], frame["subj"], area_of(arg)
        h = subj if subj >= 0 else senior_minor(state, side)
        state["loc"][h] = a
        state["steps"][h] = B_STEPS[h]
        state["down"][h] = 0
        C.learn(state, h)  # named as he enters (6.81, 6.82)
        mark_reveal(state)
        if state["minors_owed"][side] > 0:
            state["minors_owed"][side] -= 1
        if frame["n"] == 1:  # the new King (6.81 with 6.82)
            state["king_block"] = h
            public(state, kind=SUPPLY, text=f"{BLOCK_NAME[h]} comes of age and becomes King in {AREA_NAMES[a]} (6.81).")
            steps.pop(state)
        else:
            public(state, kind=SUPPLY, text=f"{BLOCK_NAME[h]} enters play in {AREA_NAMES[a]} (6.82).")
            if state["minors_owed"][side] <= 0 or senior_minor(state, side) < 0:
                state["minors_owed"][side] = 0
                steps.pop(state)


class Execute(_Decision):
    """Execute a defected Clarence or Exeter, or spare him (9.1)."""

    name = "execute"
    phase = "supply"
    rule = "9.1"
    what = "the fate of a defector"
    ask = "Execute the defector, or spare him?"
    doing = {"execute": "execute", "spare": "spare"}
    labels = {"execute": "Execute him", "spare": "Spare him"}

    def choices(self, state: State, frame: Frame) -> list[Action]:
        return [("execute", None), ("spare", None)]

    def on_execute(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        steps.pop(state)
        public(state, kind=SUPPLY, text=f"{role} executes {BLOCK_NAME[frame['subj']]} (9.1).")
        C.eliminate(state, frame["subj"])

    def on_spare(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        steps.pop(state)
        private(state, role, kind=SUPPLY, text=f"You spare {BLOCK_NAME[frame['subj']]}.")


class Reduce(_Decision):
    """A block that takes a supply loss (7.1, 7.2); when every candidate must lose a step,
    they do, one at a time."""

    name = "reduce"
    phase = "supply"
    rule = "7.1"
    what = "the supply losses"
    ask = "Choose a block to lose a step (supply)."
    doing = {"reduce": "choose a block"}
    labels = {"reduce": "Reduce {block}"}

    def choices(self, state: State, frame: Frame) -> list[Action]:
        side, subj = frame["side"], frame["subj"]
        if frame["n"] <= 0:
            return []
        supply = steps.find(state, "supply")
        marked = supply["marked"] if supply is not None else []
        cands = exile_extras(state, side, subj) if subj in EXILE_LIMIT else C.blocks_in(state, subj, side)
        return [("reduce", BLOCK_KEY[b]) for b in cands if b not in marked]

    def decides_itself(self, state: State, frame: Frame, choices: list[Action]) -> bool:
        return len(choices) <= frame["n"]

    def on_reduce(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        b = block_of(arg)
        supply = steps.find(state, "supply")
        if supply is not None:
            supply["marked"].append(b)
        frame["n"] -= 1
        if frame["n"] <= 0:
            steps.pop(state)
        public(state, kind=SUPPLY, text=f"{role} loses a step in {AREA_NAMES[frame['subj']]} (supply).")
        if C.reduce(state, b):
            log_eliminations(state, [b], frame["side"])


# ======================================================================= Political Turn decisions
def home_options(state: State, side: int, b: int) -> list[int]:
    """Where block b goes home (8.3, 8.4, 9.1); [] means the pool."""
    occ = C.occupancy(state)
    theirs = occ[1 - side]
    t = B_TYPE[b]
    cur = state["loc"][b]
    if t == HEIR:
        if side != state["king"]:
            return list(EXILE_AREAS[side])
        out = [a for a in range(N_AREAS)
               if not theirs[a] and AREA_KIND[a] != EXILE and (a in CROWN_AREAS or C.heir_has_shield(state, b, a))]
        return out if out else [cur]  # ruling A8: no legal home, he stays
    if b == EXETER_Y:
        return [CORNWALL] if not theirs[CORNWALL] else []
    if b == CLARENCE_L:
        return [a for a in SHIELD_AREAS["York"] if not occ[0][a] and not occ[1][a]]
    if t == CHURCH:
        a = B_CATH_AREA[b]
        return [a] if not theirs[a] else []
    ent_s = ENTERABLE[side]
    out = sorted(a for a in B_SHIELD_AREAS[b] if not theirs[a] and ent_s[a])
    if b in NEVILLES:
        # 8.3 note: Nevilles may use the shields of dead Nevilles; Yorkist Kent/Salisbury may go
        # to Calais (exile limits permitting) if their own shields are enemy-occupied.
        for o in NEVILLES:
            if o != b and B_SIDE[o] == B_SIDE[b] and state["loc"][o] == DEAD:
                out.extend(a for a in B_SHIELD_AREAS[o] if not theirs[a] and ent_s[a] and a not in out)
        if not out and side == 0 and BLOCK_KEY[b] in ("Kent/Y", "Salisbury/Y") \
                and len(exile_extras(state, 0, CALAIS)) < EXILE_LIMIT[CALAIS]:
            out.append(CALAIS)
        out.sort()
    return out


def go_home(state: State, side: int, b: int, a: int) -> None:
    """Block b of side goes home to area a, or to the pool (a < 0) (8.3, 8.4)."""
    if a < 0:
        state["loc"][b] = POOL
        private(state, ROLES[side], kind=POLITICAL, text=f"{BLOCK_NAME[b]} goes to the pool.")
    else:
        state["loc"][b] = a
        if B_TYPE[b] == HEIR:
            C.learn(state, b)  # named in the log
            public(state, kind=POLITICAL, text=f"{BLOCK_NAME[b]} goes home to {AREA_NAMES[a]}.")
        else:
            private(state, ROLES[side], kind=POLITICAL, text=f"{BLOCK_NAME[b]} goes home to {AREA_NAMES[a]}.")


class Home(_Decision):
    """Where a block goes home (8.3, 8.4); with nowhere to go, to the pool."""

    name = "home"
    phase = "political"
    rule = "8.3"
    what = "the blocks going home"
    ask = "Choose where the block goes home."
    doing = {"home": "choose an area"}
    labels = {"home": "Send home to {area}"}

    def choices(self, state: State, frame: Frame) -> list[Action]:
        return [("home", AREA_NAMES[a]) for a in home_options(state, frame["side"], frame["subj"])]

    def finish(self, state: State, frame: Frame) -> None:
        go_home(state, frame["side"], frame["subj"], NONE)
        steps.pop(state)

    def on_home(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        go_home(state, frame["side"], frame["subj"], area_of(arg))
        steps.pop(state)


class Disband(_Decision):
    """An exile sent to the pool to meet the exile limit (7.2, 8.5)."""

    name = "disband"
    phase = "political"
    rule = "7.2"
    what = "the exile limit"
    ask = "Choose an exile to send to the pool."
    doing = {"disband": "choose a block"}
    labels = {"disband": "Send to the pool {block}"}

    def choices(self, state: State, frame: Frame) -> list[Action]:
        if frame["n"] <= 0:
            return []
        side, subj = frame["side"], frame["subj"]
        return [("disband", BLOCK_KEY[b]) for b in exile_extras(state, side, subj) if B_TYPE[b] != HEIR]

    def decides_itself(self, state: State, frame: Frame, choices: list[Action]) -> bool:
        return len(choices) <= frame["n"]

    def on_disband(self, state: State, frame: Frame, role: str, arg: Any) -> None:
        state["loc"][block_of(arg)] = POOL
        frame["n"] -= 1
        if frame["n"] <= 0:
            steps.pop(state)
        public(state, kind=POLITICAL, text=f"{role} sends an exile from {AREA_NAMES[frame['subj']]} to the pool (7.2).")


STEPS = (Supply(), Enter(), Execute(), Reduce(), Home(), Disband())

__all__ = ["STEPS", "entry_areas", "exile_extras", "go_home", "home_options", "start_supply"]
