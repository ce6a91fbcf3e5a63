"""A tiny two-player game used only to test the game-agnostic engine.

Each player secretly picks a number 1-3 (simultaneous, hidden until both picked), then
players alternately either "step" (free, undoable, moves a marker) or "roll" (a die, adds to
score). First to 10 points wins. It exercises hidden choices, reveals, dice and undo.
"""

from __future__ import annotations

from typing import Any

from roses.engine import rng
from roses.engine.contract import Action, Rules, State, View, mark_reveal
from roses.engine.errors import IllegalAction
from roses.engine.log import private, public

ROLES = ["North", "South"]


class ToyRules(Rules):
    id = "toy"
    title = "Toy"
    scenarios = ("standard", "short")

    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        return list(ROLES)

    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        self.check_scenario(scenario)
        state: State = {"roles": list(ROLES), "log": [], "result": None, "phase": "pick",
                        "secret": {}, "score": {r: 0 for r in ROLES}, "pos": {r: 0 for r in ROLES},
                        "turn": "North", "goal": 10 if scenario == "standard" else 4}
        rng.seed_state(state, seed)
        public(state, "The game begins.")
        return state

    def active(self, state: State) -> list[str]:
        if state["result"] is not None:
            return []
        if state["phase"] == "pick":
            return [r for r in ROLES if r not in state["secret"]]
        return [state["turn"]]

    def legal_actions(self, state: State, role: str) -> list[Action]:
        if role not in self.active(state):
            return []
        if state["phase"] == "pick":
            return [("pick", n) for n in (1, 2, 3)]
        return [("step", None), ("roll", None)]

    def action(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        if (verb, arg) not in self.legal_actions(state, role):
            raise IllegalAction(f"{role} cannot {verb} now.")
        if verb == "pick":
            state["secret"][role] = arg
            private(state, role, f"You picked {arg}.")
            if len(state["secret"]) == 2:
                mark_reveal(state)
                public(state, "Picks revealed: " + ", ".join(f"{r} {state['secret'][r]}" for r in ROLES))
                state["phase"] = "play"
        elif verb == "step":
            state["pos"][role] += 1
            public(state, f"{role} steps.")
            if state["pos"][role] % 3 == 0:
                state["turn"] = ROLES[1 - ROLES.index(role)]
        else:
            die = rng.roll(state)
            state["score"][role] += die + state["secret"][role]
            public(state, f"{role} rolls {die}.")
            if state["score"][role] >= state["goal"]:
                state["result"] = role
            state["turn"] = ROLES[1 - ROLES.index(role)]
        return state

    def view(self, state: State, role: str) -> View:
        v: View = {"prompt": "", "log": self.log_for(state, role), "active": self.active(state),
                   "score": dict(state["score"]), "pos": dict(state["pos"])}
        if state["phase"] == "play" or role in state["secret"]:
            v["secret"] = {r: n for r, n in state["secret"].items() if state["phase"] == "play" or r == role}
        if role in self.active(state):
            v["actions"] = {}
            for verb, a in self.legal_actions(state, role):
                if a is None:
                    v["actions"][verb] = True
                else:
                    v["actions"].setdefault(verb, []).append(a)
            v["prompt"] = "Your move."
        return v

    def secrets(self, state: State, role: str) -> set[str]:
        if state["phase"] == "pick":
            return {f"You picked {n}." for r, n in state["secret"].items() if r != role}
        return set()


RULES = ToyRules()
