"""Kingmaker (campaign rules, 2 to 8 players): game id ``kingmaker``. See RULINGS.md and
docs/kingmaker/coverage.md (a preview: not every rule is built yet)."""

from roses.games.kingmaker.rules import RULES, KingmakerRules

__all__ = ["RULES", "KingmakerRules"]
