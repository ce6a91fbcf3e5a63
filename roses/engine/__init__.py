"""Game-agnostic engine: the rules contract, seeded RNG, log, game record, replay, undo."""

from roses.engine.contract import (
    DRAW,
    OBSERVER,
    Action,
    Rules,
    State,
    View,
    actions_to_list,
    canonical_json,
    mark_reveal,
)
from roses.engine.errors import (
    BadOptions,
    CannotUndo,
    IllegalAction,
    NotYourTurn,
    ReplayMismatch,
    RosesError,
    UnknownGame,
    UnknownScenario,
)
from roses.engine.game import Game, digest
from roses.engine.registry import available_games, get_rules

__all__ = [
    "DRAW",
    "OBSERVER",
    "Action",
    "BadOptions",
    "CannotUndo",
    "Game",
    "IllegalAction",
    "NotYourTurn",
    "ReplayMismatch",
    "RosesError",
    "Rules",
    "State",
    "UnknownGame",
    "UnknownScenario",
    "View",
    "actions_to_list",
    "available_games",
    "canonical_json",
    "digest",
    "get_rules",
    "mark_reveal",
]
