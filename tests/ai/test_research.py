"""Research adapters (the roses[research] extra): OpenSpiel and PettingZoo, on the toy game.

Skipped only when the extra is not installed (CI installs it through ./dev).
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from roses.engine.contract import canonical_json

from .toyai import RULES

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from roses.ai import openspiel_game  # noqa: E402
from roses.ai.pettingzoo_env import env as make_env  # noqa: E402


@pytest.fixture(scope="module")
def game() -> Any:
    return openspiel_game.load(RULES, "short", seeds=8, max_game_length=300)


def test_openspiel_random_simulation_checks(game: Any) -> None:
    pyspiel.random_sim_test(game, num_sims=30, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_openspiel_game_shape_and_information_states(game: Any) -> None:
    g = game
    assert g.get_type().short_name == "roses_toyai"
    assert openspiel_game.DEFAULT_SEEDS == 0  # 2**32 seeds unless a test asks for fewer
    assert g.num_distinct_actions() == len(RULES.action_space("short"))
    state = g.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 8
    state.apply_action(3)
    assert state.current_player() == 0 and state.legal_actions() == [0, 1, 2]
    state.apply_action(2)  # North picks 3 (id 2): sequential hidden choice
    assert state.current_player() == 1
    north = state.information_state_string(0)
    south = state.information_state_string(1)
    assert "You picked 3." in north and "You picked 3." not in south
    assert south == canonical_json(RULES.view(state.rules_state(), "South"))


def test_openspiel_ismcts_plays_with_our_determinisation(game: Any) -> None:
    """OpenSpiel's own ISMCTS asserts that each resampled state has the root's information state."""
    g = game
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game=g, evaluator=evaluator, uct_c=1.0, max_simulations=30,
                           random_state=np.random.RandomState(2))
    bot.set_resampler(openspiel_game.resampler)
    for seed in range(2):
        state = g.new_initial_state()
        state.apply_action(seed)
        while not state.is_terminal():
            state.apply_action(bot.step(state))
        assert sorted(state.returns()) == [-1.0, 1.0]


def test_openspiel_register_is_idempotent() -> None:
    assert openspiel_game.register(RULES) == openspiel_game.register(RULES) == "roses_toyai"


def test_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # style recommendations (agent names, dict spaces)
        api_test(make_env(RULES, "short", observation="json", obs_size=512), num_cycles=300, verbose_progress=False)
        seed_test(lambda **_: make_env(RULES, "short", observation="json", obs_size=512), num_cycles=50)


def test_pettingzoo_game_plays_to_the_end_with_masks() -> None:
    env = make_env(RULES, "standard", observation="json", obs_size=512)
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert "prompt" in env.view(_agent) and obs["action_mask"].sum() >= 1
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 2


def test_openspiel_and_pettingzoo_on_richard3() -> None:
    from .test_richard3_ai import RULES as R3

    game = openspiel_game.load(R3, "richard-iii", seeds=4, max_game_length=400)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(make_env(R3, "richard-iii", max_actions=300), num_cycles=150, verbose_progress=False)
