"""The bot interface, the determinisation callback and the random bot.

What a bot sees
    A bot is asked to move with ``bot.choose(rules, view, role, determinize)``:

    * ``view`` is ``rules.view(state, role)``: only what ``role`` may know, with the legal
      actions in ``view["actions"]``;
    * ``determinize`` (optional) is a :class:`Determinizer` bound to the true state and
      ``role``. Calling it with a seed returns a *full* state in which everything hidden from
      ``role`` has been re-sampled consistently with what ``role`` knows, and the dice
      generator re-drawn (``Rules.determinize``). Search bots play their simulations on such
      states. A bot must use the determiniser only by calling it; it never receives the
      true state itself. Games without ``Rules.determinize`` get ``None``.

    ``choose`` returns one ``(verb, arg)`` of the view's actions (never ``undo``) and sets
    ``bot.last_rationale`` to a short human sentence explaining the move (for logs).

Purity and threads
    ``bot.decide(rules, view, role, determinize)`` does the same work but returns a
    :class:`Decision` (action, rationale, statistics) and changes nothing on the bot: it is a
    pure function of its inputs and the bot's settings (its seed included; the random
    choices of one call are seeded from the bot's seed and the view), so one bot object may
    be shared by threads, and bots, views and determinisers can be pickled to a process pool.
    ``choose`` is ``decide`` plus storing the rationale, so use one bot per game (or
    ``decide``) when running bots concurrently.

Names (:func:`roses.ai.factory.make_bot`)
    ``random``; ``heuristic``; ``ismcts`` (default budget), ``ismcts:0.5`` (seconds per
    move), ``ismcts:i200`` (iterations per move), optionally with tuning such as
    ``ismcts:i200:r0:c1.0:k6:h1`` (rollout depth, exploration constant, root actions kept by
    the heuristic, threat horizon of the leaf evaluation); levels ``easy`` (heuristic), ``medium`` and
    ``hard`` (ISMCTS with 0.5 s and 2 s per move).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from roses.engine.contract import Action, Rules, State, View, actions_to_list, canonical_json


@dataclass(frozen=True)
class Determinizer:
    """Re-sampled full states for one role, bound to one true state (see module docs).

    Holds a private copy of the true state, so later changes to the game do not affect it.
    """

    _rules: Rules
    _state: State = field(repr=False)
    _role: str
    #: ``rules.determinizer`` of the private state, made at the first call (not pickled).
    _sample: Callable[[int], State] | None = field(default=None, init=False, repr=False, compare=False)

    @classmethod
    def bind(cls, rules: Rules, state: State, role: str) -> Determinizer | None:
        """A determiniser for ``role``, or ``None`` if the game has no determinisation."""
        if not supports_determinize(rules):
            return None
        return cls(rules, rules.copy_state(state), role)

    @property
    def role(self) -> str:
        return self._role

    def __call__(self, seed: int) -> State:
        sample = self._sample
        if sample is None:
            # The private state never changes, so the work that depends only on it is done
            # once for all the seeds (Rules.determinizer).
            sample = self._rules.determinizer(self._state, self._role)
            object.__setattr__(self, "_sample", sample)
        return sample(seed)

    def __getstate__(self) -> dict[str, Any]:
        return {"_rules": self._rules, "_state": self._state, "_role": self._role, "_sample": None}


def supports_determinize(rules: Rules) -> bool:
    """Whether ``rules`` overrides :meth:`Rules.determinize`."""
    return type(rules).determinize is not Rules.determinize


@dataclass
class Decision:
    """What a bot decided, why, and what the search saw."""

    action: Action
    rationale: str = ""
    stats: dict[str, Any] = field(default_factory=dict)


class Bot(Protocol):
    name: str
    last_rationale: str

    def choose(self, rules: Rules, view: View, role: str,
               determinize: Determinizer | None = None) -> Action:
        """Pick one of the actions listed in ``view["actions"]``."""
        ...

    def decide(self, rules: Rules, view: View, role: str,
               determinize: Determinizer | None = None) -> Decision:
        """Like :meth:`choose`, but returns the rationale too and changes nothing."""
        ...


def view_actions(view: View) -> list[Action]:
    """The actions a bot may choose from: the view's actions without ``undo``."""
    return [a for a in actions_to_list(view.get("actions", {})) if a[0] != "undo"]


def safe_label(rules: Rules, state: State, role: str, action: Action) -> str:
    """``rules.label`` for a rationale; a failing label must not lose the move."""
    try:
        return rules.label(state, role, action[0], action[1])
    except Exception:  # noqa: BLE001
        verb, arg = action
        return verb if arg is None else f"{verb} {arg}"


def call_seed(seed: int, view: View, role: str) -> int:
    """The seed of one decision: the bot's seed mixed with the view it decides on."""
    text = f"{seed}\x00{role}\x00{canonical_json(view)}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


class BaseBot:
    """Shared ``choose`` on top of ``decide``."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.last_rationale = ""

    def decide(self, rules: Rules, view: View, role: str,
               determinize: Determinizer | None = None) -> Decision:
        raise NotImplementedError

    def choose(self, rules: Rules, view: View, role: str,
               determinize: Determinizer | None = None) -> Action:
        decision = self.decide(rules, view, role, determinize)
        self.last_rationale = decision.rationale
        return decision.action

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


class RandomBot(BaseBot):
    """Picks uniformly among the legal actions in its view (never ``undo``)."""

    name = "random"

    def decide(self, rules: Rules, view: View, role: str,
               determinize: Determinizer | None = None) -> Decision:
        choices = view_actions(view)
        if not choices:
            raise ValueError(f"{role} has no action to choose from")
        rng = random.Random(call_seed(self.seed, view, role))
        action = choices[rng.randrange(len(choices))]
        return Decision(action, f"random choice among {len(choices)} actions")
