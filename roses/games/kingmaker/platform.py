"""What Kingmaker offers the platform (the contract's declarations, ``roses/engine/contract.py``):
rounds with a gazette, standing orders, the umpire's seat, its CLI commands, the board drawing
the browser fetches, the words saying which board a game uses, and its client module. The
rules class takes them in as a base class (``rules.py``)."""

from __future__ import annotations

from typing import Any, ClassVar

from roses.engine.contract import Rules, UmpireSeat, View
from roses.games.kingmaker import board_web, gazette, orders
from roses.games.kingmaker import umpire as umpire_seat


class KingmakerPlatform(Rules):
    """The declarations (a mixin: the rules class lists it before its engine base)."""

    rounds: ClassVar[bool] = True
    standing_verbs: ClassVar[tuple[str, str] | None] = (orders.VERBS[0], orders.VERBS[1])
    umpire: ClassVar[UmpireSeat | None] = UmpireSeat(role=umpire_seat.UMPIRE,
                                                       rule_verb=umpire_seat.STANDING_VERBS[0])
    cli_commands: ClassVar[str | None] = "roses.games.kingmaker.commands"
    client_module: ClassVar[str | None] = "js/games/kingmaker.js"
    gazette_module: ClassVar[str | None] = "kingmaker/gazette.js"
    client_styles: ClassVar[tuple[str, ...]] = ("css/map.css", "kingmaker/kingmaker.css")
    #: ``negotiation`` (offers and alliances) came later than the first editions, which keep
    #: their digest; an alliance is in an edition's lines (the public log says when it is made
    #: or ended). ``parliament`` is the Parliament screen, only during a session (an edition's
    #: board is taken between rounds, where it is empty; the minutes are in the lines).
    gazette_skip: ClassVar[tuple[str, ...]] = ("negotiation", "parliament")

    def gazette_changes(self, before: View | None, after: View) -> list[str]:
        return gazette.changes(before, after)

    def board_data(self, options: dict[str, Any] | None) -> dict[str, Any] | None:
        return board_web.game_board_data(options)

    def played_with(self, options: dict[str, Any] | None) -> str:
        name = board_web.board_name(options)
        return f"Board: {name}" if name else ""
