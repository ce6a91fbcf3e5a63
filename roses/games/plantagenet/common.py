"""What every part of Plantagenet's sequence of play shares: phases, the end of the game, the
immediate victories (6.3) and the frames of a decision taken by each side in turn."""

from __future__ import annotations

from roses.engine.contract import DRAW, State
from roses.engine.log import public
from roses.games.plantagenet import services as sv
from roses.games.plantagenet import wars
from roses.games.plantagenet.records import SideFrame

#: Phases of play, for views (``Step.phase``).
LEVY, CAMPAIGN, BATTLE = "levy", "campaign", "battle"

#: The parts of a state that the views keep between positions (:mod:`.views`), as a step
#: names what a handler may change (``Step.changes``): the cards' zones of both sides
#: (``aow``, ``command``); the Lords' records and mats (``lords``); the board's markers and
#: records (``exhaustion``, ``exile_boxes``, ``seats``, ``vassals``, ``special_rules``,
#: ``options``); the tracks (``influence``, ``favour``, ``box``, ``king``, ``rebel``, ``war``,
#: the scenario and its boxes).
CARDS, LORDS, BOARD, TRACKS = "cards", "lords", "board", "tracks"
CARDS_PART = frozenset((CARDS,))
TRACKS_PART = frozenset((TRACKS,))
LORDS_AND_BOARD = frozenset((LORDS, BOARD))

#: The positions a cylinder may hold on the Calendar: boxes 1-15 and just off either end (RULINGS R4).
CALENDAR_POSITIONS = range(sv.OFF_LEFT, sv.OFF_RIGHT + 1)


def end_game(state: State, res: str, reason: str | None = None, *, announce: bool = True) -> None:
    """Record the result ``res`` (a side or DRAW), log why (and, with ``announce``, the result),
    and clear the stack. In the Wars of the Roses ``res`` ends the current War instead, and
    play goes on with the next War unless this was the third (:func:`wars.end_war`, 6.1)."""
    if wars.in_wars(state):
        wars.end_war(state, res, reason)
        return
    if reason:
        public(state, reason)
    if not announce:
        pass
    elif res == DRAW:
        public(state, "The game ends in a draw.")
    else:
        public(state, f"{res} wins.")
    state["result"] = res
    state["stack"] = []


def immediate_victory(state: State) -> bool:
    """Victories the rules make immediate, checked after every action and before every
    automatic step (RULINGS R19), not only at the Victory check (4.8.3): in the Wars of the
    Roses, the War Victory (6.0; 6.3 War I "Automatic War Victory": "Removal ... immediately
    wins the War") and the Dynastic Victory, the moment the Heir that decides it is removed,
    with the Succession that follows (:func:`wars.watch`). Whether it changed the state."""
    if state["result"] is None and state.get("wars") is not None:
        return wars.watch(state)
    return False


def side_frames(state: State, step: str) -> list[SideFrame]:
    """One frame of ``step`` per side, in player order: Rebel then King's side (2.2.4)."""
    return [{"step": step, "side": state["rebel"]}, {"step": step, "side": state["king"]}]
