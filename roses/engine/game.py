"""A game record: seed, scenario, options and the action log, with replay and undo.

The action log is the authority. ``Game.replay()`` rebuilds the state from the setup and the
log and must give a byte-identical state (same :func:`digest`).

Undo policy (the same for every game): a role may take back its own last action only while

* the set of active roles is the same as before that action (the turn has not passed),
* no die was rolled and no card shuffled by it (``state["rolls"]`` unchanged), and
* nothing hidden was revealed by it (``state["reveals"]`` unchanged, see
  :func:`roses.engine.contract.mark_reveal`).

Several consecutive such actions may be undone one by one. Undo is itself recorded in the
log (verb ``.undo``), so the log stays append-only and replays reproduce it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from roses.engine.contract import OBSERVER, Rules, State, View, canonical_json
from roses.engine.errors import CannotUndo, IllegalAction, NotYourTurn, ReplayMismatch
from roses.engine.labels import add_labels
from roses.engine.memo import Memo

UNDO = ".undo"
RESIGN = ".resign"
FINISH = ".finish"
META_VERBS = (UNDO, RESIGN, FINISH)


def digest(state: State) -> str:
    """SHA-256 of the canonical JSON of a state."""
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


def _undo_key(rules: Rules, state: State) -> tuple[Any, ...]:
    return (tuple(rules.active(state)), state.get("rolls", 0), state.get("reveals", 0))


@dataclass
class Game:
    """A running or finished game of one rules module."""

    rules: Rules
    seed: int
    scenario: str
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)
    state: State = field(default_factory=dict)
    #: Undo (the policy of :meth:`apply`): the state before the first action of the current
    #: run of undoable actions, and those actions (role, verb, arg). Taking one back replays
    #: the others on a copy of that state, so a run costs one copy of the state, not one per
    #: action (the rules are deterministic, and no action of a run rolls or reveals).
    _undo_base: State | None = field(default=None, repr=False)
    _undo: list[tuple[str, str, Any]] = field(default_factory=list, repr=False)
    #: What the rules keep between two views of this game (roses.engine.memo).
    memo: Memo = field(default_factory=Memo, init=False, repr=False, compare=False)

    # ----- creation ---------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, seed: int, scenario: str, options: dict[str, Any] | None = None) -> Game:
        opts = dict(options or {})
        return cls(rules=rules, seed=seed, scenario=scenario, options=opts,
                   state=rules.setup(seed, scenario, opts))

    @classmethod
    def from_record(cls, rules: Rules, record: dict[str, Any]) -> Game:
        """Rebuild a game from :meth:`record` output by replaying its log."""
        game = cls.new(rules, int(record["seed"]), str(record["scenario"]), record.get("options"))
        for entry in record.get("actions", []):
            game.apply(str(entry["role"]), str(entry["verb"]), entry.get("arg"))
        return game

    def record(self) -> dict[str, Any]:
        """The JSON-serialisable record: enough to rebuild the game exactly."""
        return {
            "game": self.rules.id,
            "seed": self.seed,
            "scenario": self.scenario,
            "options": self.options,
            "actions": list(self.actions),
        }

    # ----- play -------------------------------------------------------------------------
    def active(self) -> list[str]:
        return self.rules.active(self.state)

    def result(self) -> str | None:
        return self.rules.result(self.state)

    def apply(self, role: str, verb: str, arg: Any = None) -> State:
        """Apply an action (or a meta action: ``.undo``, ``.resign``, ``.finish``)."""
        if verb == UNDO:
            self._do_undo(role)
        elif verb == RESIGN:
            if self.result() is not None:
                raise IllegalAction("The game is over.")
            if role not in self.state.get("roles", []):
                raise NotYourTurn(f"{role} is not a player of this game.")
            self.state = self.rules.resign(self.state, role)
            self._forget_undo()
        elif verb == FINISH:
            if self.result() is not None:
                raise IllegalAction("The game is over.")
            result, reason = arg
            self.state = self.rules.finish(self.state, str(result), str(reason))
            self._forget_undo()
        else:
            self.rules.check_turn(self.state, role)
            before_key = _undo_key(self.rules, self.state)
            # The state is copied only when this action may begin a run of undoable actions.
            snapshot = None if self._undo else self.rules.undo_copy(self.state)
            self.state = self.rules.action(self.state, role, verb, arg)
            if self.result() is None and _undo_key(self.rules, self.state) == before_key:
                if snapshot is not None:
                    self._undo_base = snapshot
                self._undo.append((role, verb, arg))
            else:
                self._forget_undo()
        self.actions.append({"role": role, "verb": verb, "arg": arg})
        return self.state

    def can_undo(self, role: str) -> bool:
        return bool(self._undo) and self._undo[-1][0] == role

    def _do_undo(self, role: str) -> None:
        if not self.can_undo(role):
            raise CannotUndo("Nothing to undo: the turn has passed, dice were rolled or something was revealed.")
        self._undo.pop()
        base = self._undo_base
        assert base is not None
        if not self._undo:
            self.state, self._undo_base = base, None
            return
        state = self.rules.copy_state(base)
        for role_, verb, arg in self._undo:
            state = self.rules.action(state, role_, verb, arg)
        self.state = state

    def _forget_undo(self) -> None:
        self._undo.clear()
        self._undo_base = None

    def undo(self, role: str) -> State:
        return self.apply(role, UNDO)

    def view(self, role: str) -> View:
        """The rules' view for ``role``, with ``undo`` added to its actions when allowed, and
        ``labels``, the text of each action (:mod:`roses.engine.labels`), when it has actions."""
        return self.views([role])[0]

    def views(self, roles: Sequence[str]) -> list[View]:
        """The :meth:`view` of each of ``roles``, rendered together (``rules.views``: the parts
        the same for every role are worked out once)."""
        with self.memo.scope():
            raw = self.rules.views(self.state, roles)
        out = []
        for role, v in zip(roles, raw, strict=True):
            if role != OBSERVER and self.can_undo(role):
                v["actions"] = {**v.get("actions", {}), "undo": True}  # a view's parts are read only
            out.append(add_labels(self.rules, self.state, role, v, fixed={"undo": "Undo"}))
        return out

    def rules_view(self, role: str) -> View:
        """``rules.view(state, role)``, with this game's memo current (roses.engine.memo)."""
        with self.memo.scope():
            return self.rules.view(self.state, role)

    # ----- checks -----------------------------------------------------------------------
    def digest(self) -> str:
        return digest(self.state)

    def replay(self) -> State:
        """Rebuild the state from setup and the log; it must equal the current state."""
        rebuilt = Game.from_record(self.rules, self.record())
        if rebuilt.digest() != self.digest():
            raise ReplayMismatch("Replaying the action log gave a different state.")
        return rebuilt.state

