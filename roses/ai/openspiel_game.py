"""An OpenSpiel game over any rules module (needs the ``roses[research]`` extra).

Model
    * Explicit chance nodes start the game: they draw the setup seed among ``seeds`` equally
      likely ones (game parameter; 0 means 2**32, drawn as four bytes, one chance node each,
      so that no information state identifies the seed). All later randomness (dice,
      shuffles) follows from that seed inside the state, unseen by the players.
    * Moves are sequential: the player to move is the first active role (in the rules' order)
      that has a legal action. Simultaneous hidden choices (e.g. Richard III's card play) thus
      become sequential hidden choices: the second chooser's view does not show the first
      choice.
    * Integer action ids are indices into ``Rules.action_space(scenario)``, a fixed
      catalogue, so ids are stable across states and versions of a game's state layout.
    * ``information_state_string(player)`` is the canonical JSON of the role's view (which
      includes its log, hence its history); ``observation_string`` is the view without log.
      ``observation_tensor`` is the game's tensor of the view (``Rules.tensor_codec``);
      ``information_state_tensor`` adds the player's own last ``HISTORY`` action ids.
      An observer without private information (``private_info=NONE``) sees the Observer's
      view. Game options are game parameters (``players``, ``rules``...), as in the lobby.
    * ``returns()`` are +1 / -1 (0 for a draw) at the end. A game longer than
      ``max_game_length`` actions ends as a draw (so every game ends).

Use :func:`register` (one registration per rules module and name) and ``pyspiel.load_game``;
or :func:`load` does both. Python games are slow in OpenSpiel; this is for research and
interoperability, not for the production bots.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from roses.ai.sim import acting, result_values
from roses.engine.catalogue import catalogue_key, index
from roses.engine.contract import OBSERVER, Action, Rules, State, canonical_json

#: ``seeds`` 0: the seed is drawn as this many bytes (2**32 seeds).
SEED_BYTES = 4
DEFAULT_SEEDS = 0
DEFAULT_MAX_LENGTH = 20_000
#: Own past actions in the information-state tensor.
HISTORY = 32
_REGISTERED: dict[str, Rules] = {}
_TYPES: dict[str, pyspiel.GameType] = {}
_SPECS: dict[tuple[str, str], Spec] = {}


def short_name(rules: Rules) -> str:
    return f"roses_{rules.id}"


def _option_defaults(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, spec in rules.options_schema().items():
        default = spec.get("default")
        if isinstance(default, (bool, int, float, str)):
            out[name] = default
    return out


def register(rules: Rules, name: str | None = None) -> str:
    """Register ``rules`` as an OpenSpiel game; returns its short name (``roses_<id>``)."""
    name = name or short_name(rules)
    if name in _REGISTERED:
        if _REGISTERED[name] is not rules:
            raise ValueError(f"OpenSpiel game {name!r} is already registered for other rules")
        return name
    roles_default = rules.roles(rules.scenarios[0])
    options = _option_defaults(rules)
    players = rules.options_schema().get("players", {})
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"Roses {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if len(roles_default) == 2 and not players
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=int(players.get("max", len(roles_default))) + (1 if "umpire" in options else 0),
        min_num_players=int(players.get("min", len(roles_default))),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"scenario": rules.scenarios[0], "seeds": DEFAULT_SEEDS,
                                 "max_game_length": DEFAULT_MAX_LENGTH, **options},
    )
    _TYPES[name] = game_type
    # A class per registration, as OpenSpiel's own Python games do (a plain closure would be
    # freed without the GIL when the interpreter exits, which aborts the process). Games
    # pickle through RosesGame.__reduce__, so the class need not be importable.
    pyspiel.register_game(game_type, type(f"RosesGame_{rules.id}", (RosesGame,), {"_rules": rules}))
    _REGISTERED[name] = rules
    return name


def resampler(state: Any, player: int) -> Any:
    """A resampler callback for ``open_spiel.python.algorithms.ismcts.ISMCTSBot.set_resampler``."""
    return state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def load(rules: Rules, /, scenario: str | None = None, seeds: int = DEFAULT_SEEDS,
         max_game_length: int = DEFAULT_MAX_LENGTH, **options: Any) -> pyspiel.Game:
    """Register (once) and load the OpenSpiel game of ``rules``; ``options`` are game options."""
    name = register(rules)
    return pyspiel.load_game(name, {"scenario": scenario or rules.scenarios[0], "seeds": seeds,
                                    "max_game_length": max_game_length, **options})


def _load_by_id(game_id: str, params: dict[str, Any]) -> pyspiel.Game:
    """Unpickling: the game of the registered rules ``game_id`` (roses.engine.registry)."""
    from roses.engine.registry import get_rules

    return load(get_rules(game_id), **params)


class Spec:
    """What states share: rules, scenario, options, roles, action catalogue, tensor codec."""

    def __init__(self, rules: Rules, params: dict[str, Any]) -> None:
        scenario = str(params.get("scenario", rules.scenarios[0]))
        rules.check_scenario(scenario)
        self.rules = rules
        self.scenario = scenario
        schema = rules.options_schema()
        self.options = {k: v for k, v in params.items() if k in schema}
        self.roles = list(rules.roles(scenario, self.options))
        self.seeds = int(params.get("seeds", DEFAULT_SEEDS))
        self.chance_nodes = 1 if self.seeds > 0 else SEED_BYTES
        self.chance_outcomes = self.seeds if self.seeds > 0 else 256
        self.max_length = int(params.get("max_game_length", DEFAULT_MAX_LENGTH))
        self.catalogue: list[Action] = list(rules.action_space(scenario, self.options))
        self.ids = index(self.catalogue)
        if len(self.ids) != len(self.catalogue):
            raise ValueError(f"{rules.title}: the action catalogue has duplicates")
        try:
            self.codec: Any = rules.tensor_codec(scenario, self.options)
        except NotImplementedError:  # a game without tensors: strings only
            self.codec = None
        self.tensor_size = self.codec.layout.size if self.codec is not None else 0
        self._unseen: list[list[int] | None] | None = None
        self._group_ids: dict[int, tuple[list[Action], list[int]]] = {}

    def unseen(self) -> list[list[int] | None]:
        """Per action id, what another player's action of that id is replaced with in a
        resampled history: the ids of its group of ``Rules.unseen_choices`` (one is drawn),
        or None when it is in no group (the others see it; kept). Worked out once."""
        if self._unseen is None:
            groups = self.rules.unseen_choices(self.scenario, self.options)
            out: list[list[int] | None] = [None] * len(self.catalogue)
            if groups is None:
                everything = list(range(len(self.catalogue)))
                out = [everything] * len(self.catalogue)
            for group in groups or ():
                ids = sorted({i for i in (self.ids.get(catalogue_key(a)) for a in group) if i is not None})
                for i in ids:
                    out[i] = ids
            self._unseen = out
        return self._unseen

    def unseen_in(self, state: State, moves: Sequence[tuple[int, int]], player: int) -> list[list[int] | None]:
        """Per move ``(player, action id)`` of ``moves`` (every move after the seed draws, up
        to ``state``), what it is replaced with in ``player``'s resampled history: None for
        its own actions and those it sees (kept), else the ids of the group one is drawn
        from: :meth:`unseen`'s, except where ``Rules.unseen_in_history`` says otherwise."""
        unseen = self.unseen()
        out = [None if mover == player else unseen[a] for mover, a in moves]
        history = [(self.roles[mover], *self.catalogue[a]) for mover, a in moves]
        changed = self.rules.unseen_in_history(state, history, self.roles[player])
        for i in sorted(changed):
            if moves[i][0] != player:
                out[i] = self._ids_of(changed[i])
        return out

    def _ids_of(self, group: list[Action] | None) -> list[int] | None:
        """The sorted ids of a group (remembered by the list, which is kept alive with them)."""
        if group is None:
            return None
        got = self._group_ids.get(id(group))
        if got is None or got[0] is not group:
            if len(self._group_ids) > 64:
                self._group_ids.clear()
            ids = sorted({i for i in (self.ids.get(catalogue_key(a)) for a in group) if i is not None})
            got = self._group_ids[id(group)] = (group, ids)
        return got[1]

    def __deepcopy__(self, memo: dict[int, Any]) -> Spec:
        return self


class RosesGame(pyspiel.Game):
    _rules: Rules

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rules = self._rules
        key = (short_name(rules), canonical_json(params or {}))
        spec = _SPECS.get(key)
        if spec is None or spec.rules is not rules:  # one catalogue and index per game and parameters
            spec = _SPECS[key] = Spec(rules, params or {})
        self.spec = spec
        self.rules = rules
        self.roles, self.seeds = self.spec.roles, self.spec.seeds
        self.max_length, self.catalogue = self.spec.max_length, self.spec.catalogue
        self.params = {"scenario": self.spec.scenario, "seeds": self.seeds,
                       "max_game_length": self.max_length, **self.spec.options}
        game_type = _TYPES[short_name(rules)]
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.catalogue),
            max_chance_outcomes=self.spec.chance_outcomes,
            num_players=len(self.roles),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if game_type.utility == pyspiel.GameType.Utility.ZERO_SUM else None,
            max_game_length=self.max_length + self.spec.chance_nodes,
        )
        super().__init__(game_type, info, self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_by_id, (self.rules.id, dict(self.params)))

    def new_initial_state(self) -> RosesState:
        return RosesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        public_only = iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        return ViewObserver(self, with_log=bool(perfect_recall), public_only=public_only)


class _Held:
    """The engine state inside an OpenSpiel state: OpenSpiel clones a Python state by deep
    copying its attributes one by one, and this one copies with the rules' fast copy."""

    __slots__ = ("own", "rules", "turn", "value")

    def __init__(self, rules: Rules, value: State | None, own: list[list[int]]) -> None:
        self.rules = rules
        self.value = value
        #: each player's own actions so far (the information-state tensor's history)
        self.own = own
        #: the mover and its legal actions, worked out once per position (False: not yet)
        self.turn: Any = False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.rules, None if self.value is None else self.rules.copy_state(self.value),
                     [mine[:] for mine in self.own])


class RosesState(pyspiel.State):
    def __init__(self, game: RosesGame) -> None:
        super().__init__(game)
        self.g = game.spec
        self._held = _Held(game.spec.rules, None, [[] for _ in game.spec.roles])
        self.seed = 0
        self.drawn = 0
        self.length = 0
        self._truncated = False
        #: while resample_from_infostate records a history: the movers still to record, last first
        self._replay: list[int] = []

    @property
    def state(self) -> State | None:
        return self._held.value

    @state.setter
    def state(self, value: State | None) -> None:
        self._held.value = value
        self._held.turn = False

    @property
    def own(self) -> list[list[int]]:
        return self._held.own

    # ----- players ------------------------------------------------------------------------
    def _turn(self) -> tuple[str, list[Action]] | None:
        """The mover and its legal actions (``acting``), kept until the next action: OpenSpiel
        asks ``current_player``, ``is_terminal`` and ``legal_actions`` of one position."""
        held = self._held
        if held.turn is False:
            held.turn = None if held.value is None or self._truncated else acting(self.g.rules, held.value)
        return held.turn

    def current_player(self) -> int:
        if self._replay:  # resample_from_infostate recording a history: the recorded mover
            return self._replay[-1]
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
            i = self.g.ids.get(catalogue_key(a))
            if i is None:
                raise ValueError(f"{self.g.rules.title}: action {a!r} is not in the action catalogue")
            ids.append(i)
        return sorted(ids)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.g.chance_outcomes
        p = 1.0 / n
        return [(i, p) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        if self._replay:  # recorded only (resample_from_infostate sets the engine state after)
            player = self._replay.pop()
            if player >= 0:
                self.own[player].append(int(action))
                self.length += 1
            return
        if self.state is None:
            self.seed = self.seed * self.g.chance_outcomes + int(action)
            self.drawn += 1
            if self.drawn == self.g.chance_nodes:
                self.state = self.g.rules.setup(self.seed, self.g.scenario, self.g.options)
            return
        turn = self._turn()
        assert turn is not None
        verb, arg = self.g.catalogue[action]
        player = self.g.roles.index(turn[0])
        self.state = self.g.rules.apply_legal(self.state, turn[0], verb, arg)  # (and forgets the turn)
        self.own[player].append(int(action))
        self.length += 1
        if self.length >= self.g.max_length and self.g.rules.result(self.state) is None:
            self._truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}" if self.g.seeds == 0 else f"seed {action}"
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
            return f"(before setup: {self.drawn} of {self.g.chance_nodes} seed draws)"
        return canonical_json(self.g.rules.view(self.state, OBSERVER))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RosesState:
        """A state with the same information state for ``player_id`` in which everything hidden
        from it is drawn anew, for OpenSpiel's ISMCTS and other sampling algorithms.

        One ``probability_sampler()`` value gives a seed; the new state's engine state is
        ``Rules.determinize(state, role, seed)``: the cards the player cannot see dealt again
        from those it has not seen, the other players' unrevealed choices (a card played face
        down, a ballot, a Plan) and hidden blocks and mats drawn again, the dice and shuffles
        to come drawn from the new seed. Its ``history()`` is the new seed's draws, then one id
        per move as the player knows it: its own actions and the others' actions it sees keep
        their ids; another player's action of a group of ``Rules.unseen_choices`` (actions the
        others cannot tell apart) is replaced by one of its group, drawn from the new seed, or
        of the group ``Rules.unseen_in_history`` gives it where what the player can tell
        depends on the play around it (a Plantagenet March called off at the Group step). So
        neither the true seed, nor anything drawn from it, nor another player's hidden choice
        is in the new state or its history, which depend only on the player's information
        state and the sampled value. (That history is a record, not a line of play that leads
        to the new state: the drawn ids need not agree with the drawn world.)"""
        if self.state is None:  # before setup nothing has been seen: any seed draws do
            return self.clone()
        g = self.g
        seed = int(float(probability_sampler()) * (1 << 62))
        world = g.rules.determinize(self.state, g.roles[player_id], seed)
        fresh: RosesState = self.get_game().new_initial_state()
        if g.seeds > 0:
            draws = [seed % g.seeds]
        else:
            draws = [(seed >> (8 * k)) & 0xFF for k in range(g.chance_nodes - 1, -1, -1)]
        true = [(int(pa.player), int(pa.action)) for pa in self.full_history()[g.chance_nodes:]]
        rnd = random.Random(seed)
        moves = []
        for (mover, action), among in zip(true, g.unseen_in(self.state, true, player_id), strict=True):
            moves.append((mover, action if among is None else among[rnd.randrange(len(among))]))
        chance = int(pyspiel.PlayerId.CHANCE)
        fresh._replay = [p for p, _ in reversed(moves)] + [chance] * len(draws)
        for a in [*draws, *(a for _, a in moves)]:
            fresh.apply_action(a)
        fresh.seed, fresh.drawn = 0, g.chance_nodes
        for d in draws:
            fresh.seed = fresh.seed * g.chance_outcomes + d
        fresh._truncated = self._truncated
        fresh.state = world
        return fresh

    # ----- the engine's objects, for research code ----------------------------------------
    def rules_state(self) -> State | None:
        """The engine state (the full truth: do not show it to a player's policy)."""
        return self.state

    def role_of(self, player: int) -> str:
        return self.g.roles[player]


class ViewObserver:
    """Strings and tensors from the role's view (the Observer's for a public-only observer)."""

    def __init__(self, game: RosesGame, with_log: bool, public_only: bool = False) -> None:
        self.game = game.spec
        self.with_log = with_log
        self.public_only = public_only
        size = self.game.tensor_size
        self.history = HISTORY if with_log and size else 0
        self.tensor = np.zeros(size + self.history, np.float32)
        self.dict: dict[str, Any] = {"observation": self.tensor[:size]}
        if self.history:
            self.dict["own_actions"] = self.tensor[size:]

    def _role(self, player: int) -> str:
        return OBSERVER if self.public_only else self.game.roles[player]

    def set_from(self, state: RosesState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.state is None or self.game.codec is None:
            return
        size = self.game.tensor_size
        self.tensor[:size] = np.frombuffer(self.game.codec.encode(state.g.rules.view(state.state, self._role(player))),
                                           np.float32)
        if self.history and not self.public_only:
            n = len(self.game.catalogue)
            mine = state.own[player][-self.history:]
            self.tensor[size:size + len(mine)] = [(a + 1) / n for a in mine]

    def string_from(self, state: RosesState, player: int) -> str:
        if state.state is None:
            return f"{self._role(player)}: before setup"
        view = self.game.rules.view(state.state, self._role(player))
        if not self.with_log:
            view = {k: v for k, v in view.items() if k not in ("log", "log_kinds")}
        return canonical_json(view)
