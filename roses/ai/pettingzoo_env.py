"""A PettingZoo AEC environment over any rules module (needs the ``roses[research]`` extra).

* Agents are the game's roles for the scenario and options (a Kingmaker game of 2 players has
  agents ``P1``, ``P2``); the agent to act is the first active role (in the rules' order) with
  a legal action, so simultaneous hidden choices are taken one after the other.
* Actions are ``Discrete(len(Rules.action_space(scenario, options)))``: ids in the game's fixed
  action catalogue. An action that is not legal ends the game as PettingZoo's classic games
  do: the agent that played it gets -1, the others 0, ``infos[agent]["illegal_move"]``
  (``illegal_action="random"`` plays a random legal action instead, seeded by ``reset``: for
  test suites that sample actions without the mask).
* ``observe(agent)`` is ``{"observation": ..., "action_mask": ...}`` (the mask is zero for
  everyone but the agent to act). The observation is the role's view as the game's tensor
  (``Rules.tensor_codec``: ``float32``, fixed shape, nothing hidden from the role), or with
  ``observation="json"`` its canonical JSON (log left out) in UTF-8, zero padded into a
  ``uint8`` vector of ``obs_size`` bytes. :meth:`RosesAECEnv.view` gives the structured view.
* ``state()`` is the Observer's (public) tensor, ``state_space`` its Box.
* Game options: ``env(rules, scenario, options={...})``, and ``reset(options={...})`` for one
  game (over the env's own; keys the game does not declare are ignored). Agents and spaces
  follow the options in force. Rewards are +1 / -1 (0 for a draw) at the end; a game
  longer than ``max_actions`` is truncated.
* Cycles: with ``max_cycles=N`` the agents take turns in cycles, every agent once per cycle in
  the order of ``possible_agents`` (so the env is parallelizable: PettingZoo's
  ``aec_to_parallel`` makes one cycle one parallel step). An agent that has nothing to decide
  at its turn has one legal action, ``wait`` (the extra last id, ``len(catalogue)``), which
  changes nothing; the game is truncated after N cycles. Without it (the default) only the
  agent to act is asked, as in a turn-based game.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from roses.ai.sim import result_values
from roses.engine.catalogue import index, legal_ids, verb_index
from roses.engine.contract import (
    OBSERVER,
    Action,
    Rules,
    State,
    View,
    canonical_json,
)

DEFAULT_OBS_SIZE = 16_384


def game_options(rules: Rules, options: dict[str, Any] | None) -> dict[str, Any]:
    """The game options among ``options`` (the keys the game declares)."""
    schema = rules.options_schema()
    return {k: v for k, v in (options or {}).items() if k in schema}


class RosesAECEnv(AECEnv):
    metadata = {"name": "roses_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules: Rules, scenario: str | None = None, *, options: dict[str, Any] | None = None,
                 observation: str = "tensor", obs_size: int = DEFAULT_OBS_SIZE, max_actions: int = 20_000,
                 render_mode: str | None = None, illegal_action: str = "end",
                 max_cycles: int | None = None) -> None:
        super().__init__()
        if max_cycles is not None and max_cycles < 1:
            raise ValueError("max_cycles is a positive number of cycles (or None)")
        #: Cycles of turns (every agent once per cycle), or None: only the agent to act.
        self.max_cycles = max_cycles
        if illegal_action not in ("end", "random"):
            raise ValueError("illegal_action is 'end' or 'random'")
        self.illegal_action = illegal_action
        if observation not in ("tensor", "json"):
            raise ValueError("observation is 'tensor' or 'json'")
        self.rules = rules
        self.scenario = scenario or rules.scenarios[0]
        rules.check_scenario(self.scenario)
        self.metadata = {**self.metadata, "name": f"roses_{rules.id}_v0", "is_parallelizable": max_cycles is not None}
        self.render_mode = render_mode
        self.observation_kind = observation
        self.obs_size = obs_size
        self.max_actions = max_actions
        self._state: State | None = None
        self.base_options = game_options(rules, options)
        self._configure(self.base_options)

    def _configure(self, options: dict[str, Any]) -> None:
        rules = self.rules
        self.options = options
        self.catalogue: list[Action] = list(rules.action_space(self.scenario, options))
        self.ids = index(self.catalogue)
        self.verb_ids = verb_index(self.ids)
        self.possible_agents = list(rules.roles(self.scenario, options))
        self.codec = rules.tensor_codec(self.scenario, options) if self.observation_kind == "tensor" else None
        #: The id of ``wait`` in cycles (an agent with nothing to decide at its turn), else None.
        self.wait_id = len(self.catalogue) if self.max_cycles is not None else None
        n = len(self.catalogue) + (self.wait_id is not None)
        self._mask_size = n
        if self.codec is not None:
            size = self.codec.layout.size
            obs_space: spaces.Space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        else:
            obs_space = spaces.Box(0, 255, (self.obs_size,), np.uint8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs_space, "action_mask": spaces.Box(0, 1, (n,), np.int8)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        try:
            self._state_codec = self.codec or rules.tensor_codec(self.scenario, options)
            self.state_space = spaces.Box(-np.inf, np.inf, (self._state_codec.layout.size,), np.float32)
        except NotImplementedError:  # a game without tensors: no state()
            self._state_codec = None

    # ----- spaces -----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ----- the game ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if options is not None:  # game options given here apply over the env's own
            wanted = {**self.base_options, **game_options(self.rules, options)}
            if wanted != self.options:
                self._configure(wanted)
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 31)
        self._rng = np.random.default_rng(int(seed))
        self._state = self.rules.setup(int(seed), self.scenario, self.options)
        self.length = 0
        self.cycles = 0
        self._turn = 0  # in cycles: the index of the agent whose turn it is
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._views: dict[str, View] = {}
        self._full_views: dict[str, View] = {}
        #: whether ``rewards`` holds a reward (given at the end only): cleared at the next step
        self._rewarded = False
        self._next_turn()

    def _next_turn(self) -> None:
        assert self._state is not None
        self._views = {}
        self._full_views = {}
        self._legal: dict[str, list[int]] = {}
        turn = self._acting()
        if turn is None:
            res = self.rules.result(self._state)
            values = result_values(res, self.agents) if res is not None else {}
            for a in self.agents:
                self.rewards[a] = values.get(a, 0.0)
                self.terminations[a] = res is not None
                self.truncations[a] = res is None
            self._rewarded = True
            self.agent_selection = self.agents[0]
        elif self.length >= self.max_actions or (self.max_cycles is not None and self.cycles >= self.max_cycles):
            for a in self.agents:
                self.truncations[a] = True
            self.agent_selection = self.agents[0]
        elif self.max_cycles is not None:  # every agent in its turn; one with nothing to decide waits
            role = self.agents[self._turn]
            ids = self._legal_of(role) if role in self.rules.active(self._state) else []
            self._legal[role] = ids or [len(self.catalogue)]
            self.agent_selection = role
        else:
            role, ids = turn
            self._legal[role] = ids
            self.agent_selection = role

    def _acting(self) -> tuple[str, list[int]] | None:
        """As roses.ai.sim.acting, with the legal actions read from the acting role's view (the
        contract makes them the same) as sorted catalogue ids: the view a learner observes next
        is rendered once, and the legal actions are listed once."""
        assert self._state is not None
        if self.rules.result(self._state) is not None:
            return None
        for role in self.rules.active(self._state):
            ids = self._legal_of(role)
            if ids:
                return role, ids
        return None

    def _legal_of(self, role: str) -> list[int]:
        """The legal catalogue ids of ``role`` now, sorted, read from its view."""
        actions = self._decision_view(role).get("actions")
        return legal_ids(self.verb_ids, actions, self.rules.title) if actions else []

    def _decision_view(self, agent: str) -> View:
        """``agent``'s view without its recent log (``Rules.decision_view``), what the legal ids
        and the observation are read from (rendered once per step and kept)."""
        assert self._state is not None
        v = self._views.get(agent)
        if v is None:
            v = self._views[agent] = self.rules.decision_view(self._state, agent)
        return v

    def view(self, agent: str) -> View:
        """The structured view of ``agent`` now, its recent log included (rendered once per
        step and kept)."""
        assert self._state is not None
        v = self._full_views.get(agent)
        if v is None:
            v = self._full_views[agent] = self.rules.view(self._state, agent)
        return v

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._state is not None
        self._cumulative_rewards[agent] = 0.0
        index_ = int(action)
        legal = self._legal.get(agent, ())
        if index_ not in legal and self.illegal_action == "random" and legal:
            index_ = legal[int(self._rng.integers(len(legal)))]
        if index_ not in legal:
            for a in self.agents:
                self.rewards[a] = -1.0 if a == agent else 0.0
                self.terminations[a] = True
            self.infos[agent] = {"illegal_move": True}
            self._rewarded = True
            self._accumulate_rewards()
            return
        if index_ != self.wait_id:
            verb, arg = self.catalogue[index_]
            self._state = self.rules.apply_legal(self._state, agent, verb, arg)
            self.length += 1
        if self.max_cycles is not None:
            self._turn += 1
            if self._turn == len(self.agents):
                self._turn, self.cycles = 0, self.cycles + 1
        if self._rewarded:  # rewards come at the end only: nothing to clear or add before
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        self._next_turn()
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def observe(self, agent: str) -> dict[str, Any]:
        view = self._decision_view(agent)
        if self.codec is not None:
            obs = np.frombuffer(self.codec.encode(view), np.float32)
        else:
            data = canonical_json({k: v for k, v in view.items() if k not in ("log", "log_kinds")}).encode("utf-8")
            if len(data) > self.obs_size:
                raise ValueError(f"view of {agent} is {len(data)} bytes; make obs_size larger")
            obs = np.zeros(self.obs_size, np.uint8)
            obs[: len(data)] = np.frombuffer(data, np.uint8)
        return {"observation": obs, "action_mask": self.action_mask(agent)}

    def legal_actions(self, agent: str) -> list[int]:
        """The legal action ids of ``agent`` now, sorted (empty unless it is to act): what its
        ``action_mask`` marks, without a scan of the mask (for a learner sampling among them)."""
        return list(self._legal.get(agent, ()))

    def action_mask(self, agent: str) -> np.ndarray:
        """``observe(agent)["action_mask"]`` alone (``int8``, one per catalogue id)."""
        mask = bytearray(self._mask_size)  # a few legal ids: set one by one, no numpy call per id list
        for i in self._legal.get(agent, ()):
            mask[i] = 1
        return np.frombuffer(mask, np.int8)

    def state(self) -> np.ndarray:
        """The public (Observer's) tensor of the game."""
        assert self._state is not None
        if self._state_codec is None:
            raise NotImplementedError(f"{self.rules.title} has no observation tensor")
        return np.frombuffer(self._state_codec.encode(self.rules.view(self._state, OBSERVER)), np.float32)

    def rules_state(self) -> State | None:
        """The engine state (the full truth: do not show it to a player's policy)."""
        return self._state

    def render(self) -> str | None:
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode; make the env with render_mode='ansi'",
                          stacklevel=2)
            return None
        if self._state is None:
            return ""
        return self.rules.describe(self.rules.view(self._state, OBSERVER))

    def close(self) -> None:
        pass


def env(rules: Rules, scenario: str | None = None, **kwargs: Any) -> RosesAECEnv:
    """The AEC environment of ``rules`` (``scenario`` defaults to the first)."""
    return RosesAECEnv(rules, scenario, **kwargs)
