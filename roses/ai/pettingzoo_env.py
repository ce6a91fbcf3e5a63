"""A PettingZoo AEC environment over any rules module (needs the ``roses[research]`` extra).

* Agents are the game's roles; the agent to act is the first active role (in the rules'
  order) with a legal action, so simultaneous hidden choices are taken one after the other.
* Actions are ``Discrete(len(Rules.action_space(scenario)))``: indices into the game's fixed
  action catalogue. ``observe(agent)`` returns ``{"observation": ..., "action_mask": ...}``;
  the mask is zero for everyone but the agent to act.
* The observation is the role's view without its log, as canonical JSON in UTF-8, zero
  padded into a ``uint8`` vector of ``obs_size`` bytes (a generic encoding; longer views
  are an error, raise ``obs_size``). ``infos[agent]["view"]`` holds the structured view.
* Rewards are +1 / -1 (0 for a draw) at the end; a game longer than ``max_actions`` is
  truncated.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from roses.ai.sim import acting, action_key, result_values
from roses.engine.contract import Action, Rules, State, View, canonical_json

DEFAULT_OBS_SIZE = 16_384


class RosesAECEnv(AECEnv):
    metadata = {"name": "roses_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules: Rules, scenario: str | None = None, *, obs_size: int = DEFAULT_OBS_SIZE,
                 max_actions: int = 20_000, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.scenario = scenario or rules.scenarios[0]
        rules.check_scenario(self.scenario)
        self.metadata = {**self.metadata, "name": f"roses_{rules.id}_v0"}
        self.render_mode = render_mode
        self.obs_size = obs_size
        self.max_actions = max_actions
        self.catalogue: list[Action] = list(rules.action_space(self.scenario))
        self.ids = {action_key(a): i for i, a in enumerate(self.catalogue)}
        self.possible_agents = list(rules.roles(self.scenario))
        n = len(self.catalogue)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0, 255, (obs_size,), np.uint8),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            }) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state: State | None = None
        self.length = 0
        self._legal: dict[str, list[int]] = {}

    # ----- spaces -----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ----- the game ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        self.state = self.rules.setup(int(seed), self.scenario, options)
        self.length = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._next_turn()

    def _next_turn(self) -> None:
        assert self.state is not None
        turn = acting(self.rules, self.state)
        self._legal = {}
        if turn is None:
            res = self.rules.result(self.state)
            values = result_values(res, self.agents) if res is not None else {}
            for a in self.agents:
                self.rewards[a] = values.get(a, 0.0)
                self.terminations[a] = res is not None
                self.truncations[a] = res is None
            self.agent_selection = self.agents[0]
        elif self.length >= self.max_actions:
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = self.agents[0]
        else:
            role, legal = turn
            ids = []
            for act in legal:
                key = action_key(act)
                if key not in self.ids:
                    raise ValueError(f"{self.rules.title}: action {act!r} is not in the action catalogue")
                ids.append(self.ids[key])
            self._legal[role] = ids
            self.agent_selection = role
        for a in self.agents:
            self.infos[a] = {"view": self.rules.view(self.state, a)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        index = int(action)
        if index not in self._legal.get(agent, []):
            raise ValueError(f"action {index} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        verb, arg = self.catalogue[index]
        self.state = self.rules.action(self.state, agent, verb, arg)
        self.length += 1
        for a in self.agents:
            self.rewards[a] = 0.0
        self._next_turn()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.state is not None
        view: View = self.rules.view(self.state, agent)
        data = canonical_json({k: v for k, v in view.items() if k not in ("log", "log_kinds")}).encode("utf-8")
        if len(data) > self.obs_size:
            raise ValueError(f"view of {agent} is {len(data)} bytes; make obs_size larger")
        obs = np.zeros(self.obs_size, np.uint8)
        obs[: len(data)] = np.frombuffer(data, np.uint8)
        mask = np.zeros(len(self.catalogue), np.int8)
        for i in self._legal.get(agent, []):
            mask[i] = 1
        return {"observation": obs, "action_mask": mask}

    def render(self) -> str:
        if self.state is None:
            return ""
        return self.rules.describe(self.rules.view(self.state, "Observer"))

    def close(self) -> None:
        pass


def env(rules: Rules, scenario: str | None = None, **kwargs: Any) -> RosesAECEnv:
    """The AEC environment of ``rules`` (``scenario`` defaults to the first)."""
    return RosesAECEnv(rules, scenario, **kwargs)
