"""The actions a search bot chooses among (SearchHints.choices, roses.ai.sim.search_acting).

A decision made in steps that can be taken back (add a card to the Plan, take it back) lets a
search go round in circles: seen in Plantagenet, where ISMCTS added a Command card and removed
it again for hundreds of actions and never locked its Plan in. A game's hint drops such
take-backs from what search bots choose among (never down to nothing); the legal actions, and
what a person or the random bot may do, are unchanged.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from roses.ai.bot import Determinizer
from roses.ai.heuristic import HeuristicBot
from roses.ai.ismcts import ISMCTSBot
from roses.ai.sim import acting, search_acting, search_choices
from roses.engine.contract import Action, Rules, SearchHints, State, View
from roses.engine.errors import IllegalAction


class DraftRules(Rules):
    """York drafts two cards one at a time ("add", "remove" takes back the last) and locks the
    draft in; then the game ends in a draw. Its evaluation likes a draft being taken back more
    than the draw, so a search that may take back never locks in."""

    id = "draft-toy"
    title = "Draft toy"
    scenarios = ("standard",)

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return ["York", "Lancaster"]

    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        return {"roles": ["York", "Lancaster"], "log": [], "result": None, "draft": [], "removed": 0}

    def active(self, state: State) -> list[str]:
        return [] if state["result"] is not None else ["York"]

    def legal_actions(self, state: State, role: str) -> list[Action]:
        if role not in self.active(state):
            return []
        draft = state["draft"]
        out: list[Action] = [("lock", None)] if len(draft) == 2 else [("add", c) for c in "abc" if c not in draft]
        if draft:
            out.append(("remove", None))
        return out

    def action(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        if (verb, arg) not in self.legal_actions(state, role):
            raise IllegalAction(f"{role} cannot {verb} now.")
        if verb == "add":
            state["draft"].append(arg)
        elif verb == "remove":
            state["draft"].pop()
            state["removed"] += 1
        else:
            state["result"] = "Draw"
        state["log"].append(f"{verb} {arg}")
        return state

    def view(self, state: State, role: str) -> View:
        view: View = {"prompt": "draft", "log": list(state["log"]), "active": self.active(state)}
        if role in self.active(state):
            actions: dict[str, Any] = {}
            for verb, arg in self.legal_actions(state, role):
                if arg is None:
                    actions[verb] = True
                else:
                    actions.setdefault(verb, []).append(arg)
            view["actions"] = actions
        return view

    def determinize(self, state: State, role: str, seed: int) -> State:
        return self.copy_state(state)  # nothing is hidden

    def evaluate(self, state: State, role: str) -> float:
        return min(0.9, 0.1 * len(state["draft"]) + 0.3 * min(state["removed"], 2))


def _no_take_back(state: State, role: str, actions: list[Action]) -> list[Action]:
    return [a for a in actions if a[0] != "remove"]


class HintedDraft(DraftRules):
    search_hints = dataclasses.replace(SearchHints(), choices=_no_take_back)


def _play(rules: Rules, bot: Any, limit: int = 12) -> list[str]:
    state = rules.setup(1, "standard")
    verbs: list[str] = []
    while (turn := acting(rules, state)) is not None and len(verbs) < limit:
        role = turn[0]
        decision = bot.decide(rules, rules.view(state, role), role, Determinizer.bind(rules, state, role))
        verbs.append(decision.action[0])
        state = rules.action(state, role, *decision.action)
    return verbs


def test_search_acting_narrows_the_actions_but_never_to_nothing() -> None:
    rules = HintedDraft()
    state = rules.setup(1, "standard")
    rules.action(state, "York", "add", "a")
    assert ("remove", None) in rules.legal_actions(state, "York")
    assert search_acting(rules, state) == ("York", [("add", "b"), ("add", "c")])
    assert acting(rules, state) == ("York", rules.legal_actions(state, "York"))  # legality: unchanged
    assert search_choices(rules, state, "York", [("remove", None)]) == [("remove", None)]
    plain = DraftRules()
    assert search_acting(plain, state) == acting(plain, state)


@pytest.mark.parametrize("make", [lambda: HeuristicBot(seed=2, samples=1),
                                  lambda: ISMCTSBot(seed=2, iterations=200)], ids=["heuristic", "ismcts"])
def test_search_bots_with_the_hint_never_take_back_and_finish_the_draft(make: Any) -> None:
    """Without the hint both search bots take the draft back (the evaluation pays for it) and
    never lock in within 12 actions; with it they add two cards and lock in."""
    assert "lock" not in _play(DraftRules(), make())
    assert _play(HintedDraft(), make()) == ["add", "add", "lock"]
