"""The rules contract: what every game module provides.

One object per game implements :class:`Rules`. The server, the AI and the tools use only
this interface; they never reach into a game's internals.

State
    A game state is a plain JSON-serialisable ``dict`` (string keys; no NaN or infinite
    floats, which JSON cannot hold: the fuzzer checks) that holds everything: the seeded
    generator (``rng``, ``rolls``, ``rigged``; see :mod:`roses.engine.rng`), the log
    (``log``; see :mod:`roses.engine.log`), the result (``result``) and whatever the game
    needs. Nothing else (no globals, no clock) influences a game.

Roles
    ``roles(scenario, options)`` names the seats, e.g. ``["York", "Lancaster"]``. The
    pseudo-role ``"Observer"`` may be given to :meth:`Rules.view` and sees only public things.

Actions
    An action is a verb and an argument: ``("move", "Kent")`` or ``("pass", None)``. A
    view lists, for each role that may act now, ``actions``: ``{verb: [args...]}`` or
    ``{verb: True}`` for a plain button. :meth:`Rules.legal_actions` returns the same set as a
    flat list of ``(verb, arg)`` pairs, fast, for bots and fuzzers.

Hidden information
    :meth:`Rules.view` is the boundary: it returns only what ``role`` may know. The optional
    :meth:`Rules.secrets` names strings that must not appear anywhere in what is sent to a
    role (views, logs, errors); the fuzzer and the server tests scan payloads for them.

Undo
    Undo is handled generically by :class:`roses.engine.game.Game`. A rules module only has
    to make every reveal of hidden information call :func:`mark_reveal` (dice and shuffles
    through :mod:`roses.engine.rng` count by themselves).

What a game offers the platform
    The server, the web client and the CLI know a game only by what it declares here, each
    with a default that offers nothing: rounds and a gazette (:attr:`Rules.rounds`,
    :meth:`Rules.gazette_changes`), published defaults for a lapsed deadline
    (:meth:`Rules.default_action`, :attr:`Rules.default_verb`), standing orders
    (:attr:`Rules.standing_verbs`), an umpire's seat (:attr:`Rules.umpire`), its own CLI
    commands (:attr:`Rules.cli_commands`), its board data (:meth:`Rules.board_data`, served
    at ``/games/{id}/board.json``), what a game is played with (:meth:`Rules.played_with`),
    its client modules (:attr:`Rules.client_module`, :attr:`Rules.gazette_module`,
    :attr:`Rules.client_styles`), and options a player uploads as a file
    (:meth:`Rules.options_schema`: ``"format": "roses-upload"``).
"""

from __future__ import annotations

import functools
import json
import pickle
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, ClassVar

from roses.engine.errors import IllegalAction, NotYourTurn, UnknownScenario
from roses.engine.log import visible_log

State = dict[str, Any]
View = dict[str, Any]
Action = tuple[str, Any]

OBSERVER = "Observer"
DRAW = "Draw"


def mark_reveal(state: State) -> None:
    """Record that hidden information was revealed: undo may not cross this point."""
    state["reveals"] = state.get("reveals", 0) + 1


def actions_to_list(actions: dict[str, Any]) -> list[Action]:
    """Flatten a view's ``actions`` mapping into ``(verb, arg)`` pairs."""
    out: list[Action] = []
    for verb, args in actions.items():
        if args is True:
            out.append((verb, None))
        elif args:
            out.extend(zip(repeat(verb), args))
    return out


@dataclass(frozen=True)
class SearchHints:
    """How search bots (roses.ai.heuristic) may save work or judge lines in one game; each
    game's :attr:`Rules.search_hints` (the defaults: the full search)."""

    #: In how many determinisations the heuristic bot's follow-up search (its own next
    #: actions after a move) runs; in the others it replays the line found (None: all).
    follow_worlds: int | None = None
    #: ``(state, role, actions) -> actions``: the actions worth trying in the follow-up
    #: search (None: all of them). The move itself is always chosen among all actions.
    follow_filter: Callable[[State, str, list[Action]], list[Action]] | None = None
    #: A line of the side's own actions is worth the best value reached on it (True) rather
    #: than its last (False). Where one decision is split into small steps that can be taken
    #: back (choose a March, then who goes, or cancel), a line that ends when the search's
    #: depth runs out would otherwise look better than one that goes on to the actions the
    #: side must take next, and "cancel" could win over "go" again and again.
    best_on_line: bool = False
    #: ``(state, role, actions) -> actions``: the actions a search bot chooses among when
    #: ``role`` decides in ``state`` (None, or an empty answer: all of them). A game drops the
    #: actions that only take back the side's own previous choice in a decision made in steps
    #: (a search that knows what it wants never needs them), so a search cannot go round in
    #: circles (add a card, take it back, add it again...). Read at the root with one of the
    #: bot's determinisations: it may only look at what the deciding role knows.
    choices: Callable[[State, str, list[Action]], list[Action]] | None = None


@dataclass(frozen=True)
class UmpireSeat:
    """A seat that referees a game (:attr:`Rules.umpire`): the server gives its holder the
    umpire's controls (pause, resume, extend a seat's time, publish a ruling) and lets players
    copy their private messages to it. The seat is there only when :meth:`Rules.roles` lists it
    (a game may make it an option)."""

    #: The seat's role name.
    role: str = "umpire"
    #: The umpire's verb that publishes a ruling: its argument is the ruling's text, which the
    #: rules write in every player's log. The server plays it for each of his controls.
    rule_verb: str = "rule"


def canonical_json(value: Any) -> str:
    """The canonical JSON text of a value: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_SCALARS = frozenset((str, int, float, bool, type(None)))


def keys_sorted(value: Any) -> Any:
    """``value`` with the keys of every dict in it, at any depth, in sorted order: the order a
    state read back from the store (canonical JSON) has. A game that sets up its state this way
    iterates its dicts in the same order before and after a restart. Lists keep their order;
    strings and numbers are shared."""
    t = type(value)
    if t is dict:
        return {k: keys_sorted(value[k]) for k in sorted(value)}
    if t is list:
        return [keys_sorted(x) for x in value]
    return value


def copy_json(value: Any) -> Any:
    """An independent copy of a part of a state: its lists and dicts made anew at any depth
    (a list or dict of scalars in one C-level copy), strings and numbers shared; any other
    value (a tuple, say) copied by pickle."""
    t = type(value)
    if t in _SCALARS:
        return value
    if t is list:
        if _SCALARS.issuperset(map(type, value)):
            return value[:]
        return [x if type(x) in _SCALARS else copy_json(x) for x in value]
    if t is dict:
        if _SCALARS.issuperset(map(type, value.values())):
            return value.copy()
        return {k: x if type(x) in _SCALARS else copy_json(x) for k, x in value.items()}
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


class Rules(ABC):
    """One game's rules. Subclasses are stateless: everything lives in the state dict."""

    #: Game id, e.g. ``"richard3"``.
    id: str = ""
    #: Human title, e.g. ``"Richard III"``.
    title: str = ""
    #: Scenario ids, first is the default.
    scenarios: tuple[str, ...] = ()
    #: True while the game is in development (not every rule is built): the server lists it
    #: and lets games of it be created only under the lobby's preview switch.
    preview: bool = False
    #: How search bots may save work or judge lines in this game (:class:`SearchHints`).
    search_hints: ClassVar[SearchHints] = SearchHints()
    #: Whether the swap check (:mod:`roses.engine.swapcheck`) also compares the views after the
    #: next action: sound only where every reveal of hidden information marks one (mark_reveal).
    swap_after_action: ClassVar[bool] = True
    #: Whether a role may hold what another may not see (blocks, hands, Hidden Mats). Then a
    #: server lets a person hold one seat of a game, and never another one of the same game
    #: once it has started (he would know both roles' secrets).
    roles_hide_from_each_other: ClassVar[bool] = True

    # ----- what the game offers the platform (module docstring); all optional ----------
    #: Whether the game is played in rounds (``state["round"]``, an int, 0 during setup) and
    #: the server publishes a gazette of each round (:mod:`roses.server.gazette`) and mails it.
    rounds: ClassVar[bool] = False
    #: A verb the server sends for a seat whose deadline has lapsed on a decision with a
    #: published default (:meth:`default_action`); its argument is the reason (``"deadline"``
    #: or ``"vacation"``). None: the server sends the default action itself.
    default_verb: ClassVar[str | None] = None
    #: The verbs that set and clear a seat's standing order, ``(set, clear)``, when the game
    #: has standing orders: then a view gives the seat ``standing_orders`` (``{"orders",
    #: "kinds": {kind: {"text", "values"}}}``) and the set verb takes ``{"kind", "value"}``,
    #: the clear verb a kind, at any time. None: no standing orders.
    standing_verbs: ClassVar[tuple[str, str] | None] = None
    #: The game's umpire's seat (:class:`UmpireSeat`), or None.
    umpire: ClassVar[UmpireSeat | None] = None
    #: A module that adds ``roses`` sub-commands for this game: it has ``register(subparsers, parser)``
    #: (loaded by the CLI on start). None: none.
    cli_commands: ClassVar[str | None] = None
    #: The browser client's module for this game's views, a path under the web client's
    #: ``/static`` (e.g. ``"js/games/<id>.js"``): an ES module exporting ``create(page)`` as
    #: ``static/js/games/index.js`` describes. None: the generic client (buttons, log, facts).
    client_module: ClassVar[str | None] = None
    #: The module (a path under ``/static``) that draws a gazette edition's board on its page
    #: from the page's ``#config`` (``{"gameId", "invite", "game", "board"}``: ``board`` is the
    #: observer's view at the round's end), into ``svg#map``. None: the edition has no picture.
    gazette_module: ClassVar[str | None] = None
    #: Stylesheets (paths under ``/static``) the gazette's board picture needs.
    client_styles: ClassVar[tuple[str, ...]] = ()
    #: Keys of the observer's view left out of a gazette edition's board beside the log, the
    #: actions and the prompt: parts that are not the board (a screen shown only during some
    #: phase, say), or that came later and would change the digest of editions published
    #: before.
    gazette_skip: ClassVar[tuple[str, ...]] = ()

    def declares(self, hook: str) -> bool:
        """Whether this game overrides the contract's method ``hook`` (e.g. ``"default_action"``):
        a caller may skip work for a hook a game does not declare."""
        return getattr(type(self), hook, None) is not getattr(Rules, hook, None)

    def default_action(self, state: State, role: str) -> Action | None:
        """The published default of the decision ``role`` faces now, which a server plays when
        the seat's deadline lapses (instead of the seat losing on time); None when that decision
        has none (a player's own turn, say). Default: no decision has one."""
        return None

    def gazette_changes(self, before: View | None, after: View) -> list[str]:
        """Sentences saying what changed on the board between two observer views taken at the
        ends of two rounds (a gazette's "what changed" list; ``before`` is None for the first
        edition). Only public facts: both views are the observer's. Default: none."""
        return []

    def board_data(self, options: dict[str, Any] | None) -> dict[str, Any] | None:
        """The public drawing data of the board a game created with ``options`` is played on
        (JSON, the same for every role), which the web client's module fetches from
        ``/games/{id}/board.json``; None when the client needs none from the server. Raises
        ``ValueError`` (or ``OSError``) when the game's board cannot be read."""
        return None

    def played_with(self, options: dict[str, Any] | None) -> str:
        """What a game created with ``options`` is played with, in a few words for the lobby
        and the gazette (e.g. the board or deck a group supplied); "" when there is nothing to
        say beyond the game's title. Default: ""."""
        return ""

    # ----- setup --------------------------------------------------------------------
    def scenario_names(self) -> dict[str, str]:
        """Human names of the scenarios, by id."""
        return {s: s for s in self.scenarios}

    def check_scenario(self, scenario: str) -> None:
        if scenario not in self.scenarios:
            raise UnknownScenario(
                f"{self.title} has no scenario {scenario!r}; choose one of {', '.join(self.scenarios)}"
            )

    def options_schema(self) -> dict[str, Any]:
        """Options a game may be created with: ``{name: {"type", "default", "label", ...}}``.

        An option a player uploads as a file (a board, a deck) has ``"type": "object"``,
        ``"format": "roses-upload"`` and ``"contentMediaType": "application/json"``: the lobby
        offers a file field for it, the server checks that it is a JSON object of bounded size,
        and :meth:`setup` judges its content. A ``ValueError`` from :meth:`setup` refuses the
        options; the server answers 400 with its first line, and lists its faults (its
        ``errors`` attribute, a list of strings, else its message's further lines that begin
        with "-")."""
        return {}

    @abstractmethod
    def roles(self, scenario: str, options: dict[str, Any] | None = None) -> list[str]:
        """The seats of a game of ``scenario``."""

    @abstractmethod
    def setup(self, seed: int, scenario: str, options: dict[str, Any] | None = None) -> State:
        """A new game state. Must raise :class:`UnknownScenario` for an unknown scenario."""

    # ----- play ---------------------------------------------------------------------
    @abstractmethod
    def active(self, state: State) -> list[str]:
        """The roles that may act now (empty when the game is over)."""

    def result(self, state: State) -> str | None:
        """``None`` while running; then the winning role, roles joined by ``", "``, or ``"Draw"``."""
        res = state.get("result")
        return None if res is None else str(res)

    @abstractmethod
    def legal_actions(self, state: State, role: str) -> list[Action]:
        """Every legal ``(verb, arg)`` for ``role`` now; empty if the role may not act."""

    @abstractmethod
    def action(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        """Apply a legal action and return the new state (the given one may be mutated).

        Anything not legal raises :class:`IllegalAction` and leaves ``state`` untouched.
        """

    @abstractmethod
    def view(self, state: State, role: str) -> View:
        """What ``role`` (or ``"Observer"``) may know.

        Always has ``prompt`` (str), ``log`` (list of str) and ``active`` (list of roles); has
        ``actions`` only for a role that may act now. The dict is the caller's, but what it
        holds is read only: a game may share parts between views (and with what it keeps
        between calls), so a caller that adds to a part makes a new one. A view may give
        pieces by number, beside the public facts of :meth:`view_tables`.
        """

    def views(self, state: State, roles: Sequence[str]) -> list[View]:
        """The :meth:`view` of each of ``roles``, in order (what a server sends to every player
        after an action). Default: one :meth:`view` per role; a game may work out the parts
        that are the same for every role once, and share them between the views."""
        return [self.view(state, role) for role in roles]

    def decision_view(self, state: State, role: str) -> View:
        """:meth:`view` for a program that reads the position and the actions only (the
        research adapters' tensors and legal action ids): a game may leave out the recent
        log (``log``, ``log_kinds``, ``log_more``), the rest is the view's. Default: the view."""
        return self.view(state, role)

    def view_tables(self) -> dict[str, Any]:
        """Public facts a client needs to draw this game's views, the same for every game of
        it (names and ratings of the pieces a view gives by number, for instance): sent once,
        not with every view. Default: none."""
        return {}

    def finish(self, state: State, result: str, reason: str) -> State:
        """End the game now (resignation, time-out, adjudication)."""
        state["result"] = result
        state.setdefault("log", []).append(reason)
        return state

    def resign(self, state: State, role: str) -> State:
        """``role`` resigns: the other roles win."""
        others = [r for r in state.get("roles", []) if r != role]
        return self.finish(state, ", ".join(others) if others else DRAW, f"{role} resigned.")

    # ----- helpers the tools use ------------------------------------------------------
    def copy_state(self, state: State) -> State:
        """An independent deep copy (override with something faster if needed)."""
        copied: State = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        return copied

    def search_copy(self, state: State) -> State:
        """A copy of ``state`` for a search to play on with this game's rules only (search bots
        copy a state at every iteration). Nothing done to it may reach ``state``, and the rules
        must play on it as on :meth:`copy_state`'s copy; a game may share what its rules never
        change in place and leave out what they never read. Default: :meth:`copy_state`."""
        return self.copy_state(state)

    def undo_copy(self, state: State) -> State:
        """A copy of ``state`` that :class:`~roses.engine.game.Game` keeps to go back to on
        undo: it is only read, or made the game's state again and then played on by these rules
        alone. Nothing these rules do to ``state`` may reach it; unlike :meth:`copy_state`'s, it
        may share what they never change in place. Default: :meth:`copy_state`."""
        return self.copy_state(state)

    def secrets(self, state: State, role: str) -> set[str]:
        """Strings that must not appear in anything sent to ``role`` now."""
        return set()

    def hidden_variants(self, state: State, role: str, rnd: random.Random) -> list[tuple[str, State]]:
        """Copies of ``state`` that differ from it only in something hidden from ``role`` (a held
        card exchanged with one of its deck, a deck's order, a hidden mat's contents...), each
        with a label saying what was swapped, for the swap check (:mod:`roses.engine.swapcheck`):
        ``role``'s view must be the same in each. ``rnd`` picks the swaps. Default: none."""
        return []

    def check_invariants(self, state: State) -> list[str]:
        """Broken invariants of ``state`` (empty when all hold); used by fuzzing."""
        return []

    def milestones(self, state: State) -> list[str]:
        """Named stages a game has reached (e.g. the later Wars of a campaign game), counted per
        game by fuzzing at the end of each game. Default: none."""
        return []

    def describe(self, view: View) -> str:
        """A plain-text rendering of a view, for the terminal."""
        return canonical_json({k: v for k, v in view.items() if k not in ("log", "actions")})

    def label(self, state: State, role: str, verb: str, arg: Any) -> str:
        """A human label for an action, for numbered terminal menus."""
        return verb if arg is None else f"{verb} {arg}"

    # ----- optional: what the AI and the research adapters use (see roses.ai) ----------
    def determinize(self, state: State, role: str, seed: int) -> State:
        """A full state in which everything hidden from ``role`` is re-sampled.

        The result must be consistent with everything ``role`` knows (its view and its log)
        and must depend only on that knowledge and ``seed``: two true states that look the
        same to ``role`` give the same result for the same seed. The generator (``rng``)
        is re-drawn from ``seed`` so future dice and shuffles are not the true ones, and log
        lines hidden from ``role`` are dropped. ``state`` itself is not changed.
        """
        raise NotImplementedError(f"{self.title or self.id} has no determinisation yet")

    def determinizer(self, state: State, role: str) -> Callable[[int], State]:
        """:meth:`determinize` of ``state`` for ``role`` as a function of the seed: the same
        states for the same seeds. A game may override it to work out once what depends only
        on the state and the role (search bots draw hundreds of determinisations of one
        state). ``state`` must not change while the function is in use."""
        return functools.partial(self.determinize, state, role)

    def apply_legal(self, state: State, role: str, verb: str, arg: Any = None) -> State:
        """Apply an action taken from ``legal_actions(state, role)`` of this very state.

        For simulations (search bots): a game may skip the legality check here, so callers
        must never pass anything else. Default: :meth:`action`.
        """
        return self.action(state, role, verb, arg)

    def evaluate(self, state: State, role: str) -> float:
        """A heuristic value of ``state`` for ``role`` in [-1, 1] (default: the result only)."""
        res = self.result(state)
        if res is None or res == DRAW:
            return 0.0
        return 1.0 if role in res.split(", ") else -1.0

    def evaluate_all(self, state: State, roles: list[str], horizon: int = 1) -> dict[str, float]:
        """:meth:`evaluate` for each of ``roles`` at once (a game whose evaluation is zero-sum
        may compute it once; search bots call this at every leaf). Default: one call each.

        ``horizon`` is how far ahead the evaluation looks for threats: 1 (the default, what
        :meth:`evaluate` gives) for the next step, 2 for what a whole enemy move can bring.
        Tree search asks for 2: its leaves stop anywhere in a turn. A game may ignore it."""
        return {r: self.evaluate(state, r) for r in roles}

    def evaluation_terms(self, state: State, role: str) -> dict[str, float]:
        """The named parts of :meth:`evaluate`, for bots' rationales (default: none)."""
        return {}

    def action_space(self, scenario: str, options: dict[str, Any] | None = None) -> list[Action]:
        """A fixed catalogue of every ``(verb, arg)`` a game of ``scenario`` can ever offer.

        Stable in order, so an action's index is its id (OpenSpiel, PettingZoo).
        """
        raise NotImplementedError(f"{self.title or self.id} has no action catalogue yet")

    def unseen_choices(self, scenario: str, options: dict[str, Any] | None = None) -> list[list[Action]] | None:
        """Groups of :meth:`action_space`'s actions that the other roles cannot tell apart when
        one is played (a card played face down among the cards, a block moved unseen among
        the blocks, a mulligan decided in secret): the research adapters' resampling draws
        one of its group in place of another player's action of a group, and keeps an action
        in no group. None (the default): the other roles are taken to see nothing of another
        player's action (one group, the whole catalogue)."""
        return None

    def unseen_in_history(self, state: State, history: Sequence[tuple[str, str, Any]],
                          role: str) -> dict[int, list[Action] | None]:
        """Where what ``role`` can tell of another role's action depends on the play around it,
        not on the action alone: ``history`` is every action of the game so far as ``(role,
        verb, arg)`` in order, ``state`` the state after it (read only for what ``role`` sees);
        the answer maps an index of another role's action to the group of :meth:`action_space`'s
        actions drawn from in its place instead of its :meth:`unseen_choices` group (None: the
        role sees it, it is kept). Default: none (the :meth:`unseen_choices` groups apply to
        every action)."""
        return {}

    def tensor_codec(self, scenario: str, options: dict[str, Any] | None = None) -> Any:
        """A :class:`roses.engine.tensor.TensorCodec`: a fixed-shape vector of a role's view for
        games of ``scenario`` with ``options`` (the research adapters' observation tensor).
        It reads only the view, so nothing hidden from the role enters it."""
        raise NotImplementedError(f"{self.title or self.id} has no observation tensor yet")

    # ----- shared behaviour -----------------------------------------------------------
    def log_for(self, state: State, role: str, start: int = 0) -> list[str]:
        return visible_log(state.get("log", []), role, start)

    def check_turn(self, state: State, role: str) -> None:
        """Raise :class:`NotYourTurn` unless ``role`` may act now."""
        if self.result(state) is not None:
            raise IllegalAction("The game is over.")
        if role not in self.active(state):
            raise NotYourTurn(f"It is not {role}'s turn.")
