"""Positions with a choice, taken from seeded random games, for the search's tests."""

from __future__ import annotations

import random
from typing import Any

from roses.ai.sim import acting
from roses.engine.contract import Rules
from roses.engine.fuzz import game_seed


def random_positions(rules: Rules, scenario: str, *, seed: int, picker: int, games: int, steps: int,
                     rate: float) -> list[tuple[dict[str, Any], str]]:
    """Copies of the positions of ``games`` random games (``seed``, at most ``steps`` actions
    each) where the mover has more than one action, each kept with probability ``rate``; the
    random choices from ``random.Random(picker)``. With the mover's role."""
    rnd = random.Random(picker)
    out: list[tuple[dict[str, Any], str]] = []
    for index in range(games):
        state = rules.setup(game_seed(seed, index), scenario)
        for _ in range(steps):
            turn = acting(rules, state)
            if turn is None:
                break
            role, legal = turn
            if len(legal) > 1 and rnd.random() < rate:
                out.append((rules.copy_state(state), role))
            state = rules.action(state, role, *legal[rnd.randrange(len(legal))])
    return out
