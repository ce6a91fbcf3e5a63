"""A stub game for the tests of how a game plugs into the server and the lobby: the toy game
(``tests/engine/toygame.py``) with declarations (``roses/engine/contract.py``): a board option
uploaded as a file, board data, what a game is played with, rounds, an umpire's seat, a client
module. Registered as ``roses.games.plugged`` by :func:`register`."""

from __future__ import annotations

import sys
import types
from typing import Any, ClassVar

from roses.engine.contract import State, UmpireSeat
from roses.engine.registry import get_rules
from tests.engine.toygame import ToyRules

#: A small board in the stub game's own format: a name and a list of squares.
SMALL_BOARD = {"name": "The Tiny Shire", "squares": ["a1", "a2", "b1"]}


class BoardFaults(ValueError):
    """The stub game's refusal of a board: every fault at once (as a real game's board check)."""

    def __init__(self, faults: list[str]) -> None:
        self.errors = faults
        super().__init__(f"board: {len(faults)} fault(s)")


class PluggedRules(ToyRules):
    id = "plugged"
    title = "Plugged"
    rounds: ClassVar[bool] = True
    umpire: ClassVar[UmpireSeat | None] = UmpireSeat(role="Referee", rule_verb="decree")
    client_module: ClassVar[str | None] = "js/games/generic.js"  # the generic client, named

    def options_schema(self) -> dict[str, Any]:
        return {"board": {"type": "object", "default": None, "format": "roses-upload",
                          "contentMediaType": "application/json", "label": "The board (a JSON file)"}}

    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        board = (options or {}).get("board")
        if board is not None:
            faults = [] if isinstance(board.get("name"), str) else ["the board has no name"]
            faults += [f"square {s!r} is not a square id" for s in board.get("squares") or []
                       if not (isinstance(s, str) and len(s) == 2)]
            if faults:
                raise BoardFaults(faults)
        return super().setup(seed, scenario, options)

    def board_data(self, options: dict[str, Any] | None) -> dict[str, Any] | None:
        board = (options or {}).get("board") or {"name": "The standard board", "squares": []}
        return {"format": "plugged-drawing", "name": board["name"], "squares": sorted(board["squares"])}

    def played_with(self, options: dict[str, Any] | None) -> str:
        board = (options or {}).get("board")
        return f"Board: {board['name']}" if board else ""



def register() -> None:
    module = types.ModuleType("roses.games.plugged")
    module.RULES = PluggedRules()  # type: ignore[attr-defined]
    sys.modules["roses.games.plugged"] = module
    get_rules.cache_clear()


def unregister() -> None:
    sys.modules.pop("roses.games.plugged", None)
    get_rules.cache_clear()
