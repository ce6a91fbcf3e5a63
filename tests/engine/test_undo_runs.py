"""Undo keeps one copy of the state per run of undoable actions (roses.engine.game): taking an
action back replays the run's other actions on that copy. Checked against the policy as
stated, one copy of the state before every action, on random games of every registered game
with random undos: the same states, the same ``can_undo`` for every role at every step."""

from __future__ import annotations

import random
from typing import Any

import pytest

from roses.engine.contract import Rules, State
from roses.engine.errors import CannotUndo
from roses.engine.game import UNDO, Game, _undo_key, digest
from roses.engine.registry import get_rules

from .toygame import RULES as TOY


class Reference:
    """The undo policy as stated, the simplest way: a copy of the state before each action of
    the current run of undoable actions (same active roles, no dice rolled, nothing revealed,
    the game not over)."""

    def __init__(self, rules: Rules, state: State) -> None:
        self.rules = rules
        self.state = rules.copy_state(state)
        self.stack: list[tuple[str, State]] = []

    def apply(self, role: str, verb: str, arg: Any) -> None:
        if verb == UNDO:
            if not self.can_undo(role):
                raise CannotUndo("nothing to undo")
            self.state = self.stack.pop()[1]
            return
        before = _undo_key(self.rules, self.state)
        snapshot = self.rules.copy_state(self.state)
        self.state = self.rules.action(self.state, role, verb, arg)
        if self.rules.result(self.state) is None and _undo_key(self.rules, self.state) == before:
            self.stack.append((role, snapshot))
        else:
            self.stack.clear()

    def can_undo(self, role: str) -> bool:
        return bool(self.stack) and self.stack[-1][0] == role


def _cases() -> list[tuple[Rules, str]]:
    out: list[tuple[Rules, str]] = [(TOY, "standard")]
    for game_id, scenario in (("richard3", "richard-iii"), ("plantagenet", None), ("kingmaker", None)):
        rules = get_rules(game_id)
        out.append((rules, scenario or rules.scenarios[0]))
    return out


@pytest.mark.parametrize(("rules", "scenario"), _cases(), ids=lambda c: getattr(c, "id", c))
def test_undo_matches_a_copy_before_every_action(rules: Rules, scenario: str) -> None:
    undone = longest = 0
    for seed in range(6):
        rnd = random.Random(seed)
        game = Game.new(rules, seed, scenario)
        ref = Reference(rules, game.state)
        for _ in range(150):
            active = game.active()
            if not active:
                break
            role = rnd.choice(active)
            if game.can_undo(role) and rnd.random() < 0.3:
                longest = max(longest, len(ref.stack))
                game.apply(role, UNDO)
                ref.apply(role, UNDO, None)
                undone += 1
            else:
                legal = rules.legal_actions(game.state, role)
                if not legal:
                    break
                verb, arg = legal[rnd.randrange(len(legal))]
                game.apply(role, verb, arg)
                ref.apply(role, verb, arg)
            assert digest(game.state) == digest(ref.state)
            roles = game.state.get("roles", active)
            assert [game.can_undo(r) for r in roles] == [ref.can_undo(r) for r in roles]
        assert digest(game.replay()) == game.digest()  # the undos are logged and replayed
    assert undone > 0  # the games took actions back
    if rules is not TOY:
        assert longest > 1  # ... in the middle of runs, not only their first action


def test_taking_back_the_whole_run_and_playing_on() -> None:
    """Back to the run's first state, then a new run from there can be taken back too."""
    rules = get_rules("richard3")
    rnd = random.Random(4)
    for seed in range(40):
        game = Game.new(rules, seed, "richard-iii")
        for _ in range(300):
            role = game.active()[0] if game.active() else None
            if role is None:
                break
            legal = rules.legal_actions(game.state, role)
            start = game.digest()
            verb, arg = legal[rnd.randrange(len(legal))]
            game.apply(role, verb, arg)
            if not game.can_undo(role):
                continue
            middle = game.digest()
            legal = rules.legal_actions(game.state, role)
            verb2, arg2 = legal[rnd.randrange(len(legal))]
            game.apply(role, verb2, arg2)
            if not game.can_undo(role):
                continue
            game.undo(role)
            assert game.digest() == middle
            game.undo(role)
            assert game.digest() == start and not game.can_undo(role)
            with pytest.raises(CannotUndo):
                game.undo(role)
            game.apply(role, verb, arg)  # the same action again: undoable again
            assert game.digest() == middle and game.can_undo(role)
            game.undo(role)
            assert game.digest() == start
            return
    pytest.fail("no game had two undoable actions in a row")
