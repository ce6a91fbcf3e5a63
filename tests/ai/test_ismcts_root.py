"""ISMCTS applies the root mover's actions unchecked in a determinisation where every one of
them is legal (ismcts._offers_all, worked out once per determinisation of the pool), and checked
otherwise. The search is the same either way: same move, statistics and root children."""

from __future__ import annotations

from typing import Any

import pytest

from roses.ai import ismcts
from roses.ai.bot import Determinizer
from roses.ai.ismcts import ISMCTSBot
from roses.ai.sim import action_key
from roses.engine.contract import Rules
from roses.engine.registry import get_rules
from tests.ai.positions import random_positions


def _positions(rules: Rules, scenario: str, rate: float) -> list[tuple[dict[str, Any], str]]:
    return random_positions(rules, scenario, seed=5, picker=11, games=2, steps=300, rate=rate)


def _search(rules: Rules, state: dict[str, Any], role: str, sound: bool = True) -> tuple[Any, ...]:
    bot = ISMCTSBot(seed=4, iterations=150)
    if not sound:  # no determinisation where the root's actions are all legal
        bot.offers_all = lambda *args: False
    d = bot.decide(rules, rules.view(state, role), role,
                                                  Determinizer.bind(rules, state, role))
    return d.action, {k: v for k, v in d.stats.items() if k != "seconds"}


@pytest.mark.parametrize("game,scenario", [("plantagenet", "ia-henry-vi"), ("richard3", "richard-iii")])
def test_root_actions_unchecked_where_all_are_legal_leave_the_search_unchanged(
        game: str, scenario: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = get_rules(game)
    positions = _positions(rules, scenario, 0.06)
    assert len(positions) >= 5
    applied: list[str] = []
    checked, unchecked = type(rules).action, type(rules).apply_legal

    def spy_checked(self: Rules, *args: Any) -> Any:
        applied.append("checked")
        return checked(self, *args)

    monkeypatch.setattr(type(rules), "action", spy_checked)
    for state, role in positions:
        # every world sound: the root's actions are never checked in the search
        applied.clear()
        fast = _search(rules, state, role)
        assert "checked" not in applied
        # no world sound: every root action is checked, as before
        applied.clear()
        slow = _search(rules, state, role, sound=False)
        assert "checked" in applied
        assert fast == slow
    monkeypatch.setattr(type(rules), "action", checked)
    assert type(rules).apply_legal is unchecked


def test_offers_all_needs_every_allowed_action_legal() -> None:
    rules = get_rules("plantagenet")
    state, role = _positions(rules, "ia-henry-vi", 0.2)[0]
    legal = rules.legal_actions(state, role)
    allowed = {action_key(a): a for a in legal}
    assert ismcts._offers_all(rules, state, role, allowed)
    assert ismcts._offers_all(rules, state, role, dict(list(allowed.items())[:1]))
    bogus = ("no_such_verb", None)
    assert not ismcts._offers_all(rules, state, role, {**allowed, action_key(bogus): bogus})
    other = next(r for r in rules.roles("ia-henry-vi") if r != role)
    assert not ismcts._offers_all(rules, state, other, allowed)  # not the mover: no legal action
