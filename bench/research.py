"""Research adapters against the engine: random play through the PettingZoo env (step, and
the acting agent's observation: tensor and mask, as a learner reads it) against the engine's
own step with every view rendered (``roses bench GAME --views``), and OpenSpiel's ``clone()``
against ``Rules.copy_state``. Rates are per second of this process's CPU time, the engine and the adapter taking turns in
rounds. Run: ``.venv/bin/python bench/research.py [--seconds T] [--rounds R]``."""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from roses.ai import openspiel_game
from roses.ai.pettingzoo_env import env as make_env
from roses.engine.fuzz import bench
from roses.engine.registry import get_rules

CASES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("richard3", "wars-of-the-roses", None),
    ("plantagenet", "ia-henry-vi", None),
    ("kingmaker", "campaign", {"players": 4}),
]


def adapter_rate(game: str, scenario: str, options: dict[str, Any] | None, seconds: float,
                 fixed_games: int | None = None) -> float:
    """Actions per CPU second through the env (with ``fixed_games``: that many games, whatever
    the time; returns the number of actions, for counting instructions)."""
    actions, cpu = adapter_run(game, scenario, options, seconds, fixed_games)
    return actions if fixed_games is not None else actions / cpu


def adapter_run(game: str, scenario: str, options: dict[str, Any] | None, seconds: float,
                fixed_games: int | None = None) -> tuple[int, float]:
    """Random play through the env for ``seconds`` (or ``fixed_games`` games): the actions
    played and the CPU seconds they took."""
    rules = get_rules(game)
    env = make_env(rules, scenario, options=options)
    pick = random.Random(1)
    actions = 0
    seed = 0
    cpu = time.process_time()
    deadline = time.perf_counter() + seconds if fixed_games is None else float("inf")
    while (fixed_games is None or seed < fixed_games) and time.perf_counter() < deadline:
        env.reset(seed=seed)
        seed += 1
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                break
            env.observe(agent)  # the tensor and the mask, as a learner reads them
            legal = env.legal_actions(agent)  # the mask's ids, without a scan of the mask
            env.step(legal[pick.randrange(len(legal))])
            actions += 1
            if not actions & 255 and time.perf_counter() >= deadline:  # the clock read as the engine's bench does
                break
    return actions, time.process_time() - cpu


def clone_us(game: str, scenario: str, options: dict[str, Any] | None) -> tuple[float, float]:
    rules = get_rules(game)
    g = openspiel_game.load(rules, scenario, **(options or {}))
    state = g.new_initial_state()
    while state.is_chance_node():
        state.apply_action(1)
    pick = random.Random(2)
    for _ in range(200):
        if state.is_terminal():
            break
        state.apply_action(pick.choice(state.legal_actions()))
    n = 200
    t = time.perf_counter()
    for _ in range(n):
        state.clone()
    clone = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    for _ in range(n):
        rules.copy_state(state.rules_state())
    return clone, (time.perf_counter() - t) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds of the engine and of the adapter, per game")
    ap.add_argument("--rounds", type=int, default=5,
                    help="the engine and the adapter take turns in this many rounds (seconds/rounds each), so that a "
                    "change of the machine's load weighs on both alike")
    ap.add_argument("--fixed-games", type=int, metavar="N",
                    help="only the adapter, on N games of --case (for bench/instructions.sh-style counts)")
    ap.add_argument("--case", type=int, default=0, help="index into CASES, with --fixed-games")
    args = ap.parse_args()
    if args.fixed_games is not None:
        game, scenario, options = CASES[args.case]
        print(json.dumps({"game": game, "scenario": scenario, "games": args.fixed_games,
                          "actions": adapter_rate(game, scenario, options, 0, args.fixed_games)}))
        return
    for game, scenario, options in CASES:
        done = {"engine": [0, 0.0], "adapter": [0, 0.0]}
        for _ in range(args.rounds):
            got = bench(get_rules(game), scenario, args.seconds / args.rounds, options=options, views=True)
            done["engine"][0] += got["actions"]
            done["engine"][1] += got["cpu_seconds"]
            actions, cpu = adapter_run(game, scenario, options, args.seconds / args.rounds)
            done["adapter"][0] += actions
            done["adapter"][1] += cpu
        engine = done["engine"][0] / done["engine"][1]
        adapter = done["adapter"][0] / done["adapter"][1]
        clone, copy = clone_us(game, scenario, options)
        print(json.dumps({"game": game, "scenario": scenario, "engine_views_per_cpu_s": round(engine),
                          "adapter_per_cpu_s": round(adapter), "ratio": round(engine / adapter, 2),
                          "clone_us": round(clone), "copy_state_us": round(copy)}))


if __name__ == "__main__":
    main()
