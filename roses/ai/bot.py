"""The bot interface and the random bot.

A bot sees only what its role may know: the role's view (from ``Rules.view``). Search
bots that need a full state must build one by sampling the hidden information consistently
with the view (determinisation); they never receive the true state.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from roses.engine.contract import Action, Rules, View, actions_to_list


class Bot(Protocol):
    name: str

    def choose(self, rules: Rules, view: View, role: str) -> Action:
        """Pick one of the actions listed in ``view["actions"]``."""
        ...


class RandomBot:
    """Picks uniformly among the legal actions in its view (never ``undo``)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, rules: Rules, view: View, role: str) -> Action:
        choices = [a for a in actions_to_list(view.get("actions", {})) if a[0] != "undo"]
        if not choices:
            raise ValueError(f"{role} has no action to choose from")
        return choices[self._rng.randrange(len(choices))]


def make_bot(name: str, seed: int = 0, **kwargs: Any) -> Bot:
    """A bot by name: ``random`` (more levels come with roses.ai)."""
    base = name.split(":", 1)[0]
    if base == "random":
        return RandomBot(seed)
    raise ValueError(f"Unknown bot {name!r}; known: random")
