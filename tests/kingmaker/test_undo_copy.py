"""KingmakerRules.copy_state, also the state a Game keeps to undo to (undo_copy): equal to a
deep copy, its log a new list of the same entries, untouched by play on the original, and
played on by the rules as a deep copy is."""

from __future__ import annotations

import pickle
import random

from roses.engine.contract import State, canonical_json
from roses.engine.game import Game
from roses.games.kingmaker import RULES
from tests.engine.containers import containers
from tests.kingmaker.helpers import new_game


def _play(states: list[State], steps: int, seed: int) -> None:
    """The same random legal actions on each of ``states`` (equal states stay equal)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if RULES.result(states[0]) is not None:
            return
        role = RULES.active(states[0])[0]
        verb, arg = rng.choice(RULES.legal_actions(states[0], role))
        for st in states:
            RULES.action(st, role, verb, arg)


def test_undo_copies_are_untouched_by_play_and_play_as_copies() -> None:
    for level, players, seed in (("basic", 3, 1), ("e2", 6, 2)):
        state = new_game(players, level, seed=seed, board=None)
        for step in range(6):
            _play([state], 60, seed * 100 + step)
            if RULES.result(state) is not None:
                break
            kept = RULES.undo_copy(state)
            full = pickle.loads(pickle.dumps(state))
            assert kept == full and list(kept) == list(state)  # the same keys in the same order
            assert kept["log"] is not state["log"]
            assert all(a is b for a, b in zip(kept["log"], state["log"], strict=True))
            before = canonical_json(kept)
            played = pickle.loads(pickle.dumps(state))
            _play([state, played], 40, step)  # the original played on: nothing reaches kept
            assert canonical_json(kept) == before
            assert canonical_json(state) == canonical_json(played)
            _play([kept, full], 40, step + 1)  # kept made the state again and played on
            assert canonical_json(kept) == canonical_json(full)


def test_undo_in_a_game_gives_back_the_state_before() -> None:
    """A Game's undo (through undo_copy) restores the state exactly, long into a game."""
    game = Game.new(RULES, 4, "campaign", {"players": 4, "rules": "e1"})
    rng = random.Random(4)
    undone = 0
    for _ in range(400):
        if game.result() is not None:
            break
        role = game.active()[0]
        before = canonical_json(game.state)
        verb, arg = rng.choice(RULES.legal_actions(game.state, role))
        game.apply(role, verb, arg)
        if game.can_undo(role):
            game.undo(role)
            assert canonical_json(game.state) == before
            undone += 1
            game.apply(role, verb, arg)
    assert undone > 10


def test_a_copy_shares_nothing_mutable_but_the_log_entries() -> None:
    state = new_game(5, "e2", seed=9, board=None)
    _play([state], 300, 9)
    copy = RULES.copy_state(state)
    entries = {id(e) for e in state["log"]}
    rest = {k: v for k, v in state.items() if k != "log"}
    shared = set(containers(rest)) & set(containers({k: v for k, v in copy.items() if k != "log"}))
    assert not shared
    assert set(containers(copy["log"])) - {id(copy["log"])} <= entries
    assert copy["log"] is not state["log"]
