"""The Political Turn after each campaign (8.1-8.5): disbanding, usurpation and the end of the
game (8.2, 9.0), the Pretender and then the King going home (8.3, 8.4), exile limits (7.2),
the campaign reset and the new deal (8.5).

:class:`Political` is an automatic step that runs stage by stage, queuing the decisions of a
stage (supply.py's :class:`~roses.games.richard3.supply.Home` and
:class:`~roses.games.richard3.supply.Disband`) on top of itself.
"""

from __future__ import annotations

from roses.engine import steps
from roses.engine.contract import State
from roses.engine.log import POLITICAL, RESULT, public
from roses.engine.steps import Frame
from roses.games.richard3 import cards, supply
from roses.games.richard3 import common as C
from roses.games.richard3.base import RichardStep, owner
from roses.games.richard3.data import (
    AREA_ID,
    AREA_KIND,
    B_HOME,
    B_STEPS,
    B_TYPE,
    BLOCK_NAME,
    BOMBARD,
    CHURCH,
    DEAD,
    EXILE,
    EXILE_AREAS,
    EXILE_LIMIT,
    HEIR,
    LEVY,
    MERC,
    N_AREAS,
    N_BLOCKS,
    NOBLE,
    OFF,
    POOL,
    REBEL_BLOCK,
    REBEL_T,
    ROLES,
    WELSH,
)
from roses.games.richard3.state import Decision, PoliticalFrame

ISLE_OF_MAN = AREA_ID["Isle of Man"]
MIDDLESEX = AREA_ID["Middlesex"]


def start_political(state: State) -> None:
    """The Political Turn (8.x)."""
    frame: PoliticalFrame = {"step": "political", "stage": 0}
    state["stack"] = [frame]
    public(state, kind=POLITICAL, text=f"Political Turn after campaign {state['campaign']}.")


def usurpation_counts(state: State) -> list[int]:
    """8.2: nobles (church, defected heirs included) and heirs on the map, not in exile nor on
    the Isle of Man; +1 for occupying London; the Kingmaker prisoner counts for Lancaster."""
    counts = [0, 0]
    loc = state["loc"]
    for b in range(N_BLOCKS):
        a = loc[b]
        if a < N_AREAS and AREA_KIND[a] != EXILE and a != ISLE_OF_MAN and B_TYPE[b] in (HEIR, NOBLE, CHURCH):
            counts[owner(state, b)] += 1
    occ = C.occupancy(state)
    if occ[0][MIDDLESEX] and not occ[1][MIDDLESEX]:
        counts[0] += 1
    elif occ[1][MIDDLESEX] and not occ[0][MIDDLESEX]:
        counts[1] += 1
    if state["prisoner"] >= 0:
        counts[1] += 1
    return counts


def _disband_and_usurp(state: State) -> list[Decision]:
    """8.1 levies, Bombards and the Welsh go to the pool, mercenaries home, the Rebel
    disbands; 8.2 usurpation; after the last campaign, the game ends (9.0)."""
    loc = state["loc"]
    for b in range(N_BLOCKS):
        t = B_TYPE[b]
        if loc[b] >= N_AREAS:
            continue
        if t in (LEVY, BOMBARD, REBEL_T) or b == WELSH:
            loc[b] = POOL
        elif t == MERC:
            loc[b] = B_HOME[b]
    public(state, kind=POLITICAL, text="Levies, Bombards and the Welsh disband; mercenaries go home; the Rebel disbands (8.1).")
    king = state["king"]
    counts = usurpation_counts(state)
    public(state, kind=POLITICAL, text=f"Usurpation count (8.2): York {counts[0]}, Lancaster {counts[1]}.")
    if counts[1 - king] > counts[king]:
        new = C.pretender_block(state)
        state["king"] = 1 - king
        state["king_block"] = new
        public(state, kind=POLITICAL, text=f"{ROLES[1 - king]} usurps the throne: {BLOCK_NAME[new] if new >= 0 else 'no heir'} "
                      f"is King; {ROLES[king]} is now the Pretender.")
    if state["campaign"] >= state["last_campaign"]:
        winner = state["king"]
        if state["prisoner"] >= 0 and winner == 0:
            public(state, kind=POLITICAL, text="Henry VI, still a prisoner, is murdered in the Tower.")
        state["result"] = ROLES[winner]
        public(state, kind=RESULT, text=f"The game ends: {ROLES[winner]} holds the throne and wins (9.0).")
    return []


def _going_home(side: int, state: State) -> list[Decision]:
    """8.3 (the Pretender), 8.4 (the King): nobles, church blocks and heirs go home."""
    loc = state["loc"]
    return [Decision(step="home", side=side, subj=b, n=0, ask=False) for b in range(N_BLOCKS)
            if loc[b] < N_AREAS and AREA_KIND[loc[b]] != EXILE and owner(state, b) == side
            and B_TYPE[b] in (HEIR, NOBLE, CHURCH)]


def _pretender_home(state: State) -> list[Decision]:
    return _going_home(1 - state["king"], state)


def _king_home(state: State) -> list[Decision]:
    return _going_home(state["king"], state)


def _exile_limits(state: State) -> list[Decision]:
    """7.2, 8.5: exile limits at the reset."""
    todo = []
    for side in (1 - state["king"], state["king"]):
        for a in EXILE_AREAS[side]:
            extra = len(supply.exile_extras(state, side, a)) - EXILE_LIMIT[a]
            if extra > 0:
                todo.append(Decision(step="disband", side=side, subj=a, n=extra, ask=False))
    return todo


def _reset(state: State) -> None:
    """8.5: the campaign reset; blocks stand up at full strength, the cards are dealt."""
    loc = state["loc"]
    known = state.get("known")
    for b in range(N_BLOCKS):
        if loc[b] not in (DEAD, OFF):
            state["steps"][b] = B_STEPS[b]
        if known is not None and loc[b] < N_AREAS and (state["down"][b] or known[0][b] or known[1][b]):
            C.learn(state, b)  # a face-down block standing up where it lay, or a block followed
        state["down"][b] = 0
    if loc[REBEL_BLOCK] not in (DEAD, OFF):
        loc[REBEL_BLOCK] = POOL
    state["campaign"] += 1
    state["turn"] = 1
    public(state, kind=POLITICAL, text=f"Campaign reset (8.5): campaign {state['campaign']} begins; cards are shuffled and dealt.")
    cards.deal(state)


#: The stages of the Political Turn, in order: each gives the decisions it queues.
_STAGES = (_disband_and_usurp, _pretender_home, _king_home, _exile_limits)


class Political(RichardStep):
    """The Political Turn, stage by stage (8.1-8.5)."""

    name = "political"
    phase = "political"

    def run(self, state: State, frame: Frame) -> None:
        st = frame["stage"]
        frame["stage"] = st + 1
        if st < len(_STAGES):
            steps.push_all(state, _STAGES[st](state))
        else:
            _reset(state)


STEPS = (Political(),)
