"""ISMCTS draws ``worlds`` determinisations per decision and plays its iterations on copies
of them in turn, each with its dice generator re-drawn (docs/ai.md, "ISMCTS settings")."""

from __future__ import annotations

from typing import Any

from roses.ai.bot import Determinizer
from roses.ai.factory import make_bot
from roses.ai.ismcts import DEFAULT_WORLDS, ISMCTSBot

from .toyai import RULES


def _position() -> dict[str, Any]:
    state = RULES.setup(5, "standard")
    return RULES.action(state, "South", "pick", 2)


class _Counting:
    """A determiniser that counts its calls and records the worlds it gave."""

    def __init__(self, det: Determinizer) -> None:
        self.det = det
        self.worlds: list[dict[str, Any]] = []

    def __call__(self, seed: int) -> dict[str, Any]:
        world = self.det(seed)
        self.worlds.append(world)
        return world


def test_worlds_are_drawn_once_each_and_reused() -> None:
    state = _position()
    det = Determinizer.bind(RULES, state, "North")
    assert det is not None
    counting = _Counting(det)
    bot = ISMCTSBot(seed=3, iterations=200, worlds=8)
    decision = bot.decide(RULES, RULES.view(state, "North"), "North", counting)  # type: ignore[arg-type]
    assert decision.stats["iterations"] == 200
    assert len(counting.worlds) == 8  # the other 192 iterations copy them
    assert all(w != {} for w in counting.worlds)


def test_worlds_zero_draws_one_per_iteration_and_is_the_default_name() -> None:
    state = _position()
    det = Determinizer.bind(RULES, state, "North")
    assert det is not None
    counting = _Counting(det)
    ISMCTSBot(seed=3, iterations=50, worlds=0).decide(RULES, RULES.view(state, "North"), "North",
                                                      counting)  # type: ignore[arg-type]
    assert len(counting.worlds) == 50
    bot = make_bot("ismcts:i50:w0", 3)
    assert isinstance(bot, ISMCTSBot) and bot.worlds == 0
    default = make_bot("ismcts:i50", 3)
    assert isinstance(default, ISMCTSBot) and default.worlds == DEFAULT_WORLDS and default.name == "ismcts:i50"
