"""Bots at a Kingmaker table: the random bot and a search bot play through the rules contract
with the determiniser (roses.ai)."""

from __future__ import annotations

from roses.ai.bot import Determinizer
from roses.ai.factory import make_bot
from roses.engine.game import Game
from roses.games.kingmaker import RULES


def test_random_and_search_bots_play_a_few_turns() -> None:
    game = Game.new(RULES, 3, "campaign", {"players": 3, "rules": "e1"})
    bots = {"P1": make_bot("random", seed=1), "P2": make_bot("ismcts:i5", seed=2), "P3": make_bot("random", seed=3)}
    for _ in range(250):
        if game.result() is not None:
            break
        role = game.active()[0]
        view = game.view(role)
        verb, arg = bots[role].choose(RULES, view, role, Determinizer.bind(RULES, game.state, role))
        game.apply(role, verb, arg)
    assert game.state["round"] >= 1
    game.replay()
