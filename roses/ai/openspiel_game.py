"""An OpenSpiel game over any rules module (needs the ``roses[research]`` extra).

Model
    * One explicit chance node starts the game: it draws the setup seed among ``seeds``
      equally likely ones (game parameter). All later randomness (dice, shuffles) follows from
      that seed inside the state, unseen by the players, so the game is otherwise
      deterministic.
    * Moves are sequential: the player to move is the first active role (in the rules' order)
      that has a legal action. Simultaneous hidden choices (e.g. Richard III's card play) thus
      become sequential hidden choices: the second chooser's view does not show the first
      choice.
    * Integer action ids are indices into ``Rules.action_space(scenario)``, a fixed
      catalogue, so ids are stable across states and versions of a game's state layout.
    * ``information_state_string(player)`` is the canonical JSON of the role's view (which
      includes its log, hence its history); ``observation_string`` is the view without log.
    * ``returns()`` are +1 / -1 (0 for a draw) at the end. A game longer than
      ``max_game_length`` actions ends as a draw (so every game ends).

Use :func:`register` (one registration per rules module and name) and ``pyspiel.load_game``;
or :func:`load` does both. Python games are slow in OpenSpiel; this is for research and
interoperability, not for the production bots.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from roses.ai.sim import acting, action_key, result_values
from roses.engine.contract import Action, Rules, State, canonical_json

DEFAULT_SEEDS = 64
DEFAULT_MAX_LENGTH = 20_000
_REGISTERED: dict[str, Rules] = {}


def short_name(rules: Rules) -> str:
    return f"roses_{rules.id}"


def register(rules: Rules, name: str | None = None) -> str:
    """Register ``rules`` as an OpenSpiel game; returns its short name (``roses_<id>``)."""
    name = name or short_name(rules)
    if name in _REGISTERED:
        if _REGISTERED[name] is not rules:
            raise ValueError(f"OpenSpiel game {name!r} is already registered for other rules")
        return name
    roles_default = rules.roles(rules.scenarios[0])
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"Roses {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if len(roles_default) == 2
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(roles_default),
        min_num_players=len(roles_default),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"scenario": rules.scenarios[0], "seeds": DEFAULT_SEEDS,
                                 "max_game_length": DEFAULT_MAX_LENGTH},
    )

    # A class per registration, as OpenSpiel's own Python games do (a plain closure would be
    # freed without the GIL when the interpreter exits, which aborts the process).
    game_class = type(f"RosesGame_{rules.id}", (RosesGame,),
                      {"_rules": rules, "_game_type": game_type})
    pyspiel.register_game(game_type, game_class)
    _REGISTERED[name] = rules
    return name


def resampler(state: Any, player: int) -> Any:
    """A resampler callback for ``open_spiel.python.algorithms.ismcts.ISMCTSBot.set_resampler``."""
    return state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def load(rules: Rules, scenario: str | None = None, seeds: int = DEFAULT_SEEDS,
         max_game_length: int = DEFAULT_MAX_LENGTH) -> pyspiel.Game:
    """Register (once) and load the OpenSpiel game of ``rules``."""
    name = register(rules)
    return pyspiel.load_game(name, {"scenario": scenario or rules.scenarios[0], "seeds": seeds,
                                    "max_game_length": max_game_length})


class Spec:
    """What states share: rules, scenario, roles, action catalogue (never copied by clone)."""

    def __init__(self, rules: Rules, params: dict[str, Any]) -> None:
        scenario = str(params.get("scenario", rules.scenarios[0]))
        rules.check_scenario(scenario)
        self.rules = rules
        self.scenario = scenario
        self.roles = list(rules.roles(scenario))
        self.seeds = int(params.get("seeds", DEFAULT_SEEDS))
        self.max_length = int(params.get("max_game_length", DEFAULT_MAX_LENGTH))
        self.catalogue: list[Action] = list(rules.action_space(scenario))
        self.ids = {action_key(a): i for i, a in enumerate(self.catalogue)}
        if len(self.ids) != len(self.catalogue):
            raise ValueError(f"{rules.title}: the action catalogue has duplicates")

    def __deepcopy__(self, memo: dict[int, Any]) -> Spec:
        return self


class RosesGame(pyspiel.Game):
    _rules: Rules
    _game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules, game_type = self._rules, self._game_type
        self.spec = Spec(rules, params or {})
        scenario, self.roles, self.seeds = self.spec.scenario, self.spec.roles, self.spec.seeds
        self.max_length, self.catalogue, self.rules = self.spec.max_length, self.spec.catalogue, rules
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.catalogue),
            max_chance_outcomes=self.seeds,
            num_players=len(self.roles),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if len(self.roles) == 2 else None,
            max_game_length=self.max_length + 1,
        )
        super().__init__(game_type, info, {"scenario": scenario, "seeds": self.seeds,
                                           "max_game_length": self.max_length})

    def new_initial_state(self) -> RosesState:
        return RosesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return ViewObserver(self, with_log=bool(perfect_recall))


class RosesState(pyspiel.State):
    def __init__(self, game: RosesGame) -> None:
        super().__init__(game)
        self.g = game.spec
        self.state: State | None = None
        self.length = 0
        self._truncated = False

    # ----- players ------------------------------------------------------------------------
    def _turn(self) -> tuple[str, list[Action]] | None:
        if self.state is None or self._truncated:
            return None
        return acting(self.g.rules, self.state)

    def current_player(self) -> int:
        if self.state is None:
            return int(pyspiel.PlayerId.CHANCE)
        turn = self._turn()
        if turn is None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.g.roles.index(turn[0])

    def is_terminal(self) -> bool:
        return self.state is not None and self._turn() is None

    def _legal_actions(self, player: int) -> list[int]:
        turn = self._turn()
        if turn is None or self.g.roles.index(turn[0]) != player:
            return []
        ids = []
        for a in turn[1]:
            key = action_key(a)
            if key not in self.g.ids:
                raise ValueError(f"{self.g.rules.title}: action {a!r} is not in the action catalogue")
            ids.append(self.g.ids[key])
        return sorted(ids)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.g.seeds
        return [(i, p) for i in range(self.g.seeds)]

    def _apply_action(self, action: int) -> None:
        if self.state is None:
            self.state = self.g.rules.setup(int(action), self.g.scenario)
            return
        turn = self._turn()
        assert turn is not None
        verb, arg = self.g.catalogue[action]
        self.state = self.g.rules.action(self.state, turn[0], verb, arg)
        self.length += 1
        if self.length >= self.g.max_length and self.g.rules.result(self.state) is None:
            self._truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        verb, arg = self.g.catalogue[action]
        return verb if arg is None else f"{verb} {canonical_json(arg)}"

    def returns(self) -> list[float]:
        if self.state is None:
            return [0.0] * len(self.g.roles)
        res = self.g.rules.result(self.state)
        if res is None:
            return [0.0] * len(self.g.roles)
        values = result_values(res, self.g.roles)
        return [values[r] for r in self.g.roles]

    def __str__(self) -> str:
        if self.state is None:
            return "(before setup)"
        return canonical_json(self.g.rules.view(self.state, "Observer"))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RosesState:
        """A copy in which everything hidden from ``player_id`` is re-sampled
        (``Rules.determinize``); for OpenSpiel's ISMCTS and other sampling algorithms."""
        clone: RosesState = self.clone()
        if self.state is not None:
            seed = int(float(probability_sampler()) * (1 << 62))
            clone.state = self.g.rules.determinize(self.state, self.g.roles[player_id], seed)
        return clone

    # ----- the engine's objects, for research code ----------------------------------------
    def rules_state(self) -> State | None:
        """The engine state (the full truth: do not show it to a player's policy)."""
        return self.state

    def role_of(self, player: int) -> str:
        return self.g.roles[player]


class ViewObserver:
    """Strings from the role's view; no tensor (the engine's views are structured JSON)."""

    def __init__(self, game: RosesGame, with_log: bool) -> None:
        self.game = game.spec
        self.with_log = with_log
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: RosesState, player: int) -> None:
        pass

    def string_from(self, state: RosesState, player: int) -> str:
        if state.state is None:
            return f"{self.game.roles[player]}: before setup"
        view = self.game.rules.view(state.state, self.game.roles[player])
        if not self.with_log:
            view = {k: v for k, v in view.items() if k not in ("log", "log_kinds")}
        return canonical_json(view)
