"""The engine's toy game with the optional AI methods of the rules contract.

Hidden information in the toy game: a player's pick (1-3) is hidden from the other player
until both have picked. :meth:`ToyAIRules.determinize` re-samples the opponent's pick when
it is still hidden, drops the log lines the role may not read and re-draws the dice.
"""

from __future__ import annotations

import random
from typing import Any

from roses.engine import rng
from roses.engine.contract import Action, State

from ..engine.toygame import ROLES, ToyRules


class ToyAIRules(ToyRules):
    id = "toyai"

    def determinize(self, state: State, role: str, seed: int) -> State:
        out = self.copy_state(state)
        r = random.Random(seed)
        if out["phase"] == "pick":
            secret = {}
            for who, pick in out["secret"].items():
                secret[who] = pick if who == role else r.choice((1, 2, 3))
            out["secret"] = secret
        # Keep only what the role may read; its own private lines stay private to it.
        out["log"] = [e for e in out["log"] if isinstance(e, str) or e[0] == role]
        rng.seed_state(out, r.getrandbits(63))
        out["rolls"] = state.get("rolls", 0)
        return out

    def evaluate(self, state: State, role: str) -> float:
        res = self.result(state)
        if res is not None:
            return 1.0 if res == role else -1.0
        return max(-1.0, min(1.0, sum(self.evaluation_terms(state, role).values())))

    def evaluation_terms(self, state: State, role: str) -> dict[str, float]:
        other = ROLES[1 - ROLES.index(role)]
        # A higher pick adds to every later roll; the opponent's pick counts once known.
        picks = state["secret"]
        return {"score": (state["score"][role] - state["score"][other]) / state["goal"],
                "pick": 0.1 * (picks.get(role, 2) - picks.get(other, 2))}

    def action_space(self, scenario: str, options: dict[str, Any] | None = None) -> list[Action]:
        return [("pick", 1), ("pick", 2), ("pick", 3), ("step", None), ("roll", None)]


RULES = ToyAIRules()
