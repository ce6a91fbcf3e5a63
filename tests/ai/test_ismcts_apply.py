"""ISMCTS applies a legal action as ``Rules.apply_legal`` does: for rules played by a table of
steps that keep no options (Plantagenet) it runs the current step's handler and settles itself
(ismcts._applier), without the calls in between; other rules keep their own ``apply_legal``.
The state after each action, or the error, must be the same either way."""

from __future__ import annotations

import random
from typing import Any

import pytest

from roses.ai import ismcts
from roses.engine.contract import Rules, canonical_json
from roses.engine.fuzz import game_seed
from roses.engine.registry import get_rules


def _outcome(apply: Any, rules: Rules, state: dict[str, Any], role: str, action: Any) -> tuple[str, str]:
    """The state after ``action`` applied to a search copy of ``state``, or the error."""
    copy = rules.search_copy(state)
    try:
        return "state", canonical_json(apply(copy, role, action[0], action[1]))
    except Exception as exc:  # noqa: BLE001 - the same error either way
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("game,scenario", [("plantagenet", "ia-henry-vi"), ("plantagenet", "bosworth"),
                                           ("richard3", "richard-iii"), ("kingmaker", "campaign")])
def test_the_search_applies_each_action_as_apply_legal(game: str, scenario: str) -> None:
    """At every position of random games, to their end, every legal action of the mover (and
    one action of another role, and an action after the end) gives the same state, or the
    same error, through the search's applier as through ``apply_legal``."""
    rules = get_rules(game)
    apply = ismcts._applier(rules)
    own = rules.apply_legal
    if game == "plantagenet":  # (its own applier: the fast path is taken)
        assert apply != own
    picker = random.Random(8)
    seen = 0
    for index in range(2):
        state = rules.setup(game_seed(5, index), scenario)
        for _ in range(400):
            turn = ismcts.search_acting(rules, state)
            if turn is None:
                over = rules.roles(scenario)[0], ("pass", None)
                assert _outcome(apply, rules, state, *over) == _outcome(own, rules, state, *over)
                break
            role, legal = turn
            for action in legal[:6]:
                assert _outcome(apply, rules, state, role, action) == _outcome(own, rules, state, role, action)
                seen += 1
            state = rules.action(state, role, *legal[picker.randrange(len(legal))])
    assert seen > 300


def test_other_rules_keep_their_apply_legal() -> None:
    """Rules that keep their options, enter a context around an action or apply actions their
    own way are applied by their own ``apply_legal``."""
    for game in ("richard3", "kingmaker"):
        rules = get_rules(game)
        assert ismcts._applier(rules) == rules.apply_legal
