"""Plantagenet (GMT, Levy & Campaign IV): rules module for Roses (game id ``plantagenet``)."""

from roses.games.plantagenet.rules import PlantagenetRules

RULES = PlantagenetRules()

__all__ = ["RULES", "PlantagenetRules"]
