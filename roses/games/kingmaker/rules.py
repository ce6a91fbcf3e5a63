"""Kingmaker rules object (game id ``kingmaker``): the campaign rules for 2 to 8 players with the
basic / E1 / E2 switches, written on the engine's decision framework (steps.py)."""

from __future__ import annotations

from typing import Any

from roses.engine.contract import Action, State, View
from roses.engine.steps import StepRules, Steps
from roses.games.kingmaker import ai, combat, deals, events, parliament, play, setup, views


class KingmakerSteps(Steps):
    def watch(self, state: State) -> None:
        play.check_victory(state)


class KingmakerRules(StepRules):
    id = "kingmaker"
    title = "Kingmaker (campaign rules)"
    scenarios = (setup.SCENARIO,)
    preview = True  # not every rule is built yet: docs/kingmaker/coverage.md
    steps = KingmakerSteps(
        setup.Arrange(), setup.PlaceNobles(), play.Turn(), events.Chance(), play.Purge(), play.Move(),
        play.Permit(), play.Coronation(), play.CrownPhase(),
        parliament.ParliamentPhase(), parliament.Session(), parliament.Vote(), parliament.Propose(),
        parliament.Accept(), parliament.Attend(), parliament.Disperse(), parliament.ParlPlace(),
        combat.CombatPhase(), combat.Battle(), combat.Spoils(), combat.Captive(), combat.Ransom(),
        combat.RansomPay(), combat.Pardon(), combat.Scuttle(), events.StormPort(), events.Treachery(), events.Hunt(), events.Summons(), deals.Offer(), deals.TradeBack(), deals.DealMenu(),
    )

    def scenario_names(self) -> dict[str, str]:
        return {setup.SCENARIO: "The campaign (2 to 8 players)"}

    def options_schema(self) -> dict[str, Any]:
        return {k: dict(v) for k, v in setup.OPTIONS_SCHEMA.items()}

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return setup.role_names(int(setup.normalise_options(options)["players"]))

    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        self.check_scenario(scenario)
        state = setup.new_state(seed, options)
        return self.start(state, {"step": "arrange", "done": [False] * len(state["roles"])})

    def view(self, state: State, role: str) -> View:
        return views.view(self, state, role)

    def secrets(self, state: State, role: str) -> set[str]:
        return views.secrets(state, role)

    def check_invariants(self, state: State) -> list[str]:
        return views.check_invariants(state)

    def describe(self, view: View) -> str:
        return views.describe(view)

    def label(self, state: State, role: str, verb: str, arg: Any) -> str:
        return views.label(state, role, verb, arg)

    def determinize(self, state: State, role: str, seed: int) -> State:
        return ai.determinize(state, role, seed)

    def default_action(self, state: State, role: str) -> Action | None:
        """The published default of the decision ``role`` faces now (views.default_action)."""
        return views.default_action(self, state, role)


RULES = KingmakerRules()
