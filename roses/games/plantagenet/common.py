"""What every part of Plantagenet's sequence of play shares: phases, the end of the game, the
immediate victories (6.3) and the frames of a decision taken by each side in turn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

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
NOTHING: Final[frozenset[str]] = frozenset()
CARDS_PART: Final = frozenset((CARDS,))
LORDS_PART: Final = frozenset((LORDS,))
BOARD_PART: Final = frozenset((BOARD,))
TRACKS_PART: Final = frozenset((TRACKS,))
LORDS_AND_BOARD: Final = frozenset((LORDS, BOARD))
CARDS_AND_LORDS: Final = frozenset((CARDS, LORDS))
LORDS_AND_TRACKS: Final = frozenset((LORDS, TRACKS))
BOARD_AND_TRACKS: Final = frozenset((BOARD, TRACKS))
#: Everything but the cards' zones (an Influence check and what it buys: 1.4.2).
NOT_CARDS: Final = frozenset((LORDS, BOARD, TRACKS))

#: Where a change a step does not declare is counted (``Steps.changed`` of the game's steps,
#: added by :mod:`.rules`): :func:`changed`.
COUNTERS: Final[list[Callable[[frozenset[str] | None], None]]] = []


def changed(parts: frozenset[str] | None = None) -> None:
    """Count a change of ``parts`` (None: of any part) that a step makes beyond what it declares
    (``Step.changes``, ``Step.run_changes``): a step declares what it changes in the common case
    and counts a rarer, wider change here before making it (a Pillage, a Disband, an Event)."""
    for count in COUNTERS:
        count(parts)


def disband_parts(state: State, lord: str) -> frozenset[str]:
    """The parts :func:`services.disband_lord` (3.2.4) changes for ``lord``: his record, and the
    cards when his mat holds Capabilities or Events (back to their decks), the board when it
    holds Vassals (to the Calendar), the tracks when he holds a captive King (the Influence
    his side gains: :func:`services.release_captives`)."""
    parts = {LORDS}
    mat = state["lords"][lord]["mat"]
    if mat:
        if mat["capabilities"] or mat["events"]:
            parts.add(CARDS)
        if mat["vassals"]:
            parts.add(BOARD)
        captured = state.get("captured")
        if captured and lord in captured.values():
            parts.update((LORDS, TRACKS))
    return frozenset(parts)


#: The positions a cylinder may hold on the Calendar: boxes 1-15 and just off either end (RULINGS R4).
CALENDAR_POSITIONS: Final = range(sv.OFF_LEFT, sv.OFF_RIGHT + 1)


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
