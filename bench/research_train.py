"""Train a small policy on Richard III through the PettingZoo env and report its win rate
against the random bot (the researcher's example of docs/ai.md).

The policy is linear and low rank over the observation tensor: ``logits = b + U (V x)`` over
the action catalogue, masked to the legal actions. With ``--teacher BOT`` it first imitates a
bot (roses.ai.factory names, e.g. ``heuristic``) for ``--imitate`` games: the teacher plays
one side against the random bot and the policy learns its choices from its own tensor only
(cross-entropy). Then REINFORCE (the game's +1 / -1 at the end, a running baseline) against a
random opponent for ``--games`` games, the learner taking either side in turn. Run:
``.venv/bin/python bench/research_train.py [--teacher heuristic --imitate N] [--games N] [--eval M]``.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from roses.ai.bot import Determinizer
from roses.ai.factory import make_bot
from roses.ai.pettingzoo_env import env as make_env
from roses.engine.catalogue import catalogue_key
from roses.engine.registry import get_rules


class LowRankPolicy:
    def __init__(self, n_obs: int, n_actions: int, rank: int, rng: np.random.Generator) -> None:
        self.b = np.zeros(n_actions)
        self.u = rng.normal(0.0, 0.01, (n_actions, rank))
        self.v = rng.normal(0.0, 0.01, (rank, n_obs))

    def probs(self, obs: np.ndarray, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = self.v @ obs
        z = self.b[legal] + self.u[legal] @ h
        z -= z.max()
        p = np.exp(z)
        return p / p.sum(), h

    def update(self, steps: list[tuple[np.ndarray, np.ndarray, int]], advantage: float, lr: float) -> None:
        for obs, legal, k in steps:
            p, h = self.probs(obs, legal)
            g = -p
            g[k] += 1.0  # d log p(k) / d z over the legal actions
            step = lr * advantage * g
            self.b[legal] += step
            du = np.outer(step, h)
            dv = np.outer(self.u[legal].T @ step, obs)
            self.u[legal] += du
            self.v += dv


def play(env, policy: LowRankPolicy, learner: str, rng: np.random.Generator, seed: int,
         greedy: bool = False) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    env.reset(seed=seed)
    steps: list[tuple[np.ndarray, np.ndarray, int]] = []
    outcome = 0.0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        if term or trunc:
            if agent == learner:
                outcome = float(reward)
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        if agent == learner:
            p, _ = policy.probs(obs["observation"].astype(np.float64), legal)
            k = int(p.argmax()) if greedy else int(rng.choice(len(legal), p=p))
            steps.append((obs["observation"].astype(np.float64), legal, k))
            env.step(int(legal[k]))
        else:
            env.step(int(rng.choice(legal)))
    return outcome, steps


def imitate(env, policy: LowRankPolicy, teacher_name: str, games: int, rng: np.random.Generator,
            lr: float) -> int:
    """The teacher plays one side against the random bot; the policy learns its choices."""
    rules = env.rules
    ids = env.ids
    teacher = make_bot(teacher_name, seed=int(rng.integers(1 << 30)))
    learned = 0
    for i in range(games):
        side = env.possible_agents[i % 2]
        env.reset(seed=5_000_000 + i)
        for agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            if agent != side:
                env.step(int(rng.choice(legal)))
                continue
            det = Determinizer.bind(rules, env.rules_state(), agent)
            choice = teacher.choose(rules, env.view(agent), agent, det)
            target = ids[catalogue_key(choice)]
            x = obs["observation"].astype(np.float64)
            k = int(np.flatnonzero(legal == target)[0])
            policy.update([(x, legal, k)], 1.0, lr)
            learned += 1
            env.step(target)
    return learned


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200, help="training games")
    ap.add_argument("--eval", type=int, default=100, help="evaluation games against the random bot")
    ap.add_argument("--scenario", default="richard-iii")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--teacher", default="", help="a bot to imitate first (e.g. heuristic)")
    ap.add_argument("--imitate", type=int, default=0, help="games of imitation")
    args = ap.parse_args()
    rules = get_rules("richard3")
    env = make_env(rules, args.scenario, max_actions=3000)
    env.reset(seed=0)
    agents = list(env.possible_agents)
    n_obs = env.observation_space(agents[0])["observation"].shape[0]
    n_actions = env.action_space(agents[0]).n
    rng = np.random.default_rng(args.seed)
    policy = LowRankPolicy(n_obs, n_actions, rank=8, rng=rng)

    def win_rate(games: int, base_seed: int) -> tuple[float, float]:
        wins = 0.0
        for i in range(games):
            outcome, _ = play(env, policy, agents[i % 2], rng, base_seed + i)
            wins += outcome > 0
        p = wins / games
        return p, 1.96 * math.sqrt(p * (1 - p) / games)

    start = time.perf_counter()
    before = win_rate(args.eval, 1_000_000)
    imitated = imitate(env, policy, args.teacher, args.imitate, rng, 0.05) if args.teacher else 0
    middle = win_rate(args.eval, 1_000_000) if args.teacher else before
    baseline = 0.0
    for i in range(args.games):
        outcome, steps = play(env, policy, agents[i % 2], rng, args.seed * 100_000 + i)
        policy.update(steps, outcome - baseline, args.lr / max(1, len(steps)) ** 0.5)
        baseline = 0.95 * baseline + 0.05 * outcome
    after = win_rate(args.eval, 1_000_000)
    print(json.dumps({"scenario": args.scenario, "training_games": args.games, "eval_games": args.eval,
                      "teacher": args.teacher or None, "imitation_games": args.imitate,
                      "imitated_choices": imitated,
                      "win_rate_before": round(before[0], 3), "ci95_before": round(before[1], 3),
                      "win_rate_after_imitation": round(middle[0], 3), "ci95_after_imitation": round(middle[1], 3),
                      "win_rate_after": round(after[0], 3), "ci95_after": round(after[1], 3),
                      "seconds": round(time.perf_counter() - start, 1)}))


if __name__ == "__main__":
    main()
