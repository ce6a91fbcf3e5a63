"""Richard III (Columbia Games, rules 1.02): game id ``richard3``. See STATE.md and RULINGS.md."""

from roses.games.richard3.core import RULES, Richard3Rules

__all__ = ["RULES", "Richard3Rules"]
