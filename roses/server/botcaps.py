"""How much a bot seat may think: the server's caps, and the check of a bot name against them.

A bot name carries its own budget (``ismcts:2`` thinks 2 s per move, ``ismcts:i5000`` 5000
iterations, ``heuristic:8`` 8 samples). On a shared server one game must not be able to claim
hours of CPU, so (roses.server.config.Settings, ``ROSES_BOT_*`` variables):

* a name asking for more than ``move_seconds`` per move, more than ``move_iterations``
  ISMCTS iterations, or search settings beyond the listed bounds is refused when the bot is
  seated (code ``bot_budget``);
* every move is also cut at ``move_seconds`` whatever the name says (the search is told to
  stop and plays its best move so far);
* the bots of one game think ``game_seconds`` in all; after that they play as the quick
  ``FALLBACK`` bot for the rest of the game.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from roses.ai.factory import LEVELS, make_bot, parse_budget
from roses.ai.ismcts import DEFAULT_ITERATIONS

#: What a game's bots play as once they used up the game's think time.
FALLBACK = "heuristic"
#: Bounds of the search settings a name may carry.
MAX_SAMPLES = 32  # heuristic:N
MAX_ROLLOUT = 50  # ismcts ...:rN
MAX_HORIZON = 4  # ismcts ...:hN
MAX_WORLDS = 256  # ismcts ...:wN


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name) or default)
    except ValueError:
        return default


@dataclass(frozen=True)
class BotCaps:
    #: Seconds of thought per move, at most (also the hard stop of every move).
    move_seconds: float = field(default_factory=lambda: _env_float("ROSES_BOT_MOVE_SECONDS", 10.0))
    #: ISMCTS iterations per move a name may ask for.
    move_iterations: int = field(default_factory=lambda: int(_env_float("ROSES_BOT_MOVE_ITERATIONS", 20000)))
    #: Seconds of thought of all the bots of one game together.
    game_seconds: float = field(default_factory=lambda: _env_float("ROSES_BOT_GAME_SECONDS", 1800.0))


class BotBudgetError(ValueError):
    """A bot name asks for more than the server's caps allow."""


def check_budget(name: str, caps: BotCaps) -> None:
    """Raise :class:`BotBudgetError` (a clear sentence) if ``name`` asks for more than ``caps``;
    ``ValueError``/``KeyError`` from :func:`roses.ai.factory.make_bot` for a name that is no bot."""
    make_bot(name)  # unknown names and malformed budgets first
    full = LEVELS.get(name.strip().lower(), name.strip().lower())
    base, _, rest = full.partition(":")
    limit = (f"this server allows at most {caps.move_seconds:g} s and {caps.move_iterations} "
             f"iterations of thought per move")
    if base == "heuristic" and rest and int(rest) > MAX_SAMPLES:
        raise BotBudgetError(f"The bot {name!r} asks for {rest} samples per move; at most {MAX_SAMPLES}.")
    if base != "ismcts":
        return
    budget, *extra = rest.split(":") if rest else ("",)
    seconds, iterations = parse_budget(budget) if budget else (None, DEFAULT_ITERATIONS)
    if seconds is not None and seconds > caps.move_seconds:
        raise BotBudgetError(f"The bot {name!r} would think {seconds:g} s per move; {limit}.")
    if iterations is not None and iterations > caps.move_iterations:
        raise BotBudgetError(f"The bot {name!r} would search {iterations} iterations per move; {limit}.")
    if seconds is not None and seconds > caps.game_seconds:
        raise BotBudgetError(f"The bot {name!r} would think {seconds:g} s per move; a game's bots may "
                             f"think {caps.game_seconds:g} s in all on this server.")
    bounds = {"r": MAX_ROLLOUT, "h": MAX_HORIZON, "w": MAX_WORLDS}
    for item in extra:
        key, value = item[:1], item[1:]
        if key in bounds and value.isdigit() and int(value) > bounds[key]:
            raise BotBudgetError(f"The bot {name!r} sets {item}; this server allows {key} up to {bounds[key]}.")
