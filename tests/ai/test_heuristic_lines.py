"""How the heuristic bot values a line of its own actions (roses.ai.heuristic, SearchHints).

A decision split into small steps that can be taken back (choose a March, then go or cancel)
meets the search's depth limit: "go" is followed by the actions the side must take next, which
may cost it, while "cancel" followed by choosing the March again and "go" ends where the depth
runs out. Valued by their last states, "cancel" looks better than "go" at every visit and a
bot cancels and marches again for ever (seen in Plantagenet: the March to Newcastle was
called off hundreds of times in a row). With ``best_on_line`` a line is worth the best state
on it, and the bot goes.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from roses.ai.bot import Determinizer
from roses.ai.heuristic import HeuristicBot
from roses.ai.sim import acting
from roses.engine.contract import Action, Rules, SearchHints, State, View
from roses.engine.errors import IllegalAction

#: What each stage is worth to the marching side: the March improves its position, the upkeep
#: it must pay next costs part of the gain, and the menu and the group choice change nothing.
VALUES = {"menu": 0.5, "group": 0.5, "marched": 0.9, "paid": 0.8}
MOVES: dict[str, list[Action]] = {
    "menu": [("march", None), ("pass", None)],
    "group": [("go", None), ("cancel", None)],
    "marched": [("pay", None)],
}
NEXT = {("menu", "march"): "group", ("menu", "pass"): "paid", ("group", "go"): "marched",
        ("group", "cancel"): "menu", ("marched", "pay"): "paid"}


class MarchRules(Rules):
    """One side (York) marches in steps; the other (Lancaster) acts once the upkeep is paid."""

    id = "march-toy"
    title = "March toy"
    scenarios = ("standard",)

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return ["York", "Lancaster"]

    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        return {"roles": ["York", "Lancaster"], "log": [], "result": None, "stage": "menu"}

    def active(self, state: State) -> list[str]:
        if state["result"] is not None:
            return []
        return ["Lancaster"] if state["stage"] == "paid" else ["York"]

    def legal_actions(self, state: State, role: str) -> list[Action]:
        if role not in self.active(state):
            return []
        return [("end", None)] if role == "Lancaster" else list(MOVES[state["stage"]])

    def action(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        if (verb, arg) not in self.legal_actions(state, role):
            raise IllegalAction(f"{role} cannot {verb} now.")
        if role == "Lancaster":
            state["result"] = "Draw"
        else:
            state["stage"] = NEXT[(state["stage"], verb)]
        state["log"].append(f"{role}: {verb}")
        return state

    def view(self, state: State, role: str) -> View:
        view: View = {"prompt": state["stage"], "log": list(state["log"]), "active": self.active(state)}
        if role in self.active(state):
            view["actions"] = {verb: True for verb, _ in self.legal_actions(state, role)}
        return view

    def determinize(self, state: State, role: str, seed: int) -> State:
        return self.copy_state(state)  # nothing is hidden

    def evaluate(self, state: State, role: str) -> float:
        value = VALUES[state["stage"]]
        return value if role == "York" else -value


def _group_step(rules: Rules) -> State:
    state = rules.setup(1, "standard")
    return rules.action(state, "York", "march")


def _choice(rules: Rules, state: State) -> Action:
    bot = HeuristicBot(seed=1, samples=1, depth=3)
    return bot.decide(rules, rules.view(state, "York"), "York", Determinizer.bind(rules, state, "York")).action


def test_lines_valued_by_their_last_state_prefer_cancelling_the_march() -> None:
    """The defaults (a line is worth its last state): at depth 3, "cancel, march, go" ends on the
    March (0.9) and "go, pay" on the upkeep paid (0.8), so the bot calls the March off."""
    rules = MarchRules()
    assert rules.search_hints == SearchHints()
    assert _choice(rules, _group_step(rules)) == ("cancel", None)


def test_best_on_line_goes_and_the_side_finishes_its_march() -> None:
    """With best_on_line both lines are worth 0.9; the tie goes to the move whose own result is
    better (go: 0.9, cancel: 0.5). Played out, the bot marches, pays and hands over the move."""

    class Hinted(MarchRules):
        search_hints = dataclasses.replace(SearchHints(), best_on_line=True)

    rules = Hinted()
    state = _group_step(rules)
    assert _choice(rules, state) == ("go", None)
    state = rules.setup(1, "standard")
    moves: list[str] = []
    while (turn := acting(rules, state)) is not None and turn[0] == "York" and len(moves) < 10:
        verb, arg = _choice(rules, state)
        moves.append(verb)
        state = rules.action(state, "York", verb, arg)
    assert moves == ["march", "go", "pay"]


def test_plantagenet_hints_value_lines_by_their_best_state() -> None:
    """Plantagenet chooses a March in steps (4.3.1 Group: go, take, leave or cancel), so its
    hints ask for best_on_line, and its follow-up search runs in one world with its filter."""
    from roses.games.plantagenet import RULES

    hints = RULES.search_hints
    assert hints.best_on_line and hints.follow_worlds == 1 and hints.follow_filter is not None
