"""Bots at a Kingmaker table: the random bot and a search bot play through the rules contract
with the determiniser (roses.ai)."""

from __future__ import annotations

import pytest

from roses.ai.bot import Determinizer
from roses.ai.factory import make_bot
from roses.engine.contract import canonical_json
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


def _play_whole_game(bot_name: str, players: int, rules: str, seed: int, rounds: int) -> tuple[Game, int]:
    """A whole game of ``bot_name`` bots (the round limit ``rounds``, ruling K50); returns the
    game and how many times a position recurred within one player's turn."""
    game = Game.new(RULES, seed, "campaign", {"players": players, "rules": rules, "rounds": rounds})
    bots = {role: make_bot(bot_name, seed=seed * 10 + i) for i, role in enumerate(game.state["roles"])}
    seen: set[tuple[int, str]] = set()
    recurred = 0
    for _ in range(6000):
        if game.result() is not None:
            break
        state = game.state
        key = (state["tno"], canonical_json({k: v for k, v in state.items() if k != "log"}))
        recurred += key in seen
        seen.add(key)
        role = game.active()[0]
        verb, arg = bots[role].choose(RULES, game.view(role), role, Determinizer.bind(RULES, state, role))
        game.apply(role, verb, arg)
    return game, recurred


@pytest.mark.parametrize(("bot_name", "players", "rules", "rounds"), [
    ("random", 3, "e1", 30), ("random", 4, "e2", 30), ("random", 2, "basic", 30),
    ("heuristic:1", 3, "e2", 3), ("ismcts:i4", 3, "e1", 2),
])
def test_bots_finish_whole_games_without_a_position_recurring_in_a_turn_k90(
        bot_name: str, players: int, rules: str, rounds: int) -> None:
    """Ruling K90: a round trip that changes nothing (select/back, sail/back, deal/back, leave
    and re-enter the same place, the same offer, an attack called off) is not offered again
    until the decision changes, so no bot (whose choice depends only on what it sees) can
    repeat a position within a turn, and every game reaches its end (victory or the round
    limit, K50)."""
    game, recurred = _play_whole_game(bot_name, players, rules, 7, rounds)
    assert recurred == 0
    assert game.result() is not None
    assert game.state["end"] in ("round_limit", "last_heir_crowned", "beaufort_crowned", "parliament")


def test_select_and_back_is_not_offered_again_until_something_changes_k90() -> None:
    """Ruling K90 (L122-183): backing out of a noble chosen to move removes him from the
    choices of this movement until another action changes the position."""
    game = Game.new(RULES, 3, "campaign", {"players": 3, "rules": "e1"})
    state = game.state
    for _ in range(400):  # to the first movement phase with a noble to move
        role = game.active()[0]
        legal = RULES.legal_actions(state, role)
        if state["stack"][-1]["step"] == "move" and any(v == "select" for v, _ in legal):
            break
        game.apply(role, *legal[-1] if legal[-1][0] == "end" else legal[0])
        state = game.state
    role = game.active()[0]
    noble = next(a for v, a in RULES.legal_actions(state, role) if v == "select")
    game.apply(role, "select", noble)
    game.apply(role, "back")
    assert ("select", noble) not in RULES.legal_actions(game.state, role)
    other = [a for a in RULES.legal_actions(game.state, role) if a[0] == "select"]
    if other:  # another noble moves: the position changed, the first may be chosen again
        game.apply(role, *other[0])
        to = next(a for a in RULES.legal_actions(game.state, role) if a[0] == "to")
        game.apply(role, *to)
        assert ("select", noble) in RULES.legal_actions(game.state, role)
