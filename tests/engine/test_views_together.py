"""Views rendered together (``Rules.views``, ``Game.views``): what a server sends every player
after an action. Each view is the one :meth:`Rules.view` (:meth:`Game.view`) gives that role
alone, whatever the other roles asked with it and their order, in every registered game
(Richard III works out the parts the same for every role once, 4.2; the others render one
view per role)."""

from __future__ import annotations

import random

import pytest

from roses.engine.contract import OBSERVER, Rules, canonical_json
from roses.engine.game import Game
from roses.engine.registry import get_rules

GAMES = [("richard3", "richard-iii"), ("richard3", "wars-of-the-roses"), ("richard3", "kingmaker"),
         ("plantagenet", None), ("kingmaker", None)]


def _texts(views: list[dict]) -> list[str]:
    return [canonical_json(v) for v in views]


@pytest.mark.parametrize(("game_id", "scenario"), GAMES)
def test_views_together_are_each_roles_own_view(game_id: str, scenario: str | None) -> None:
    rules: Rules = get_rules(game_id)
    scenario = scenario or rules.scenarios[0]
    checked = 0
    for seed in range(2):
        picker = random.Random(seed)
        state = rules.setup(seed, scenario)
        roles = [*rules.roles(scenario), OBSERVER]
        for _ in range(300):
            alone = _texts([rules.view(state, r) for r in roles])
            assert _texts(rules.views(state, roles)) == alone
            assert _texts(rules.views(state, roles[::-1])) == alone[::-1]
            assert _texts(rules.views(state, roles[1:2])) == alone[1:2]
            checked += 1
            active = rules.active(state)
            if not active:
                break
            role = picker.choice(active)
            legal = rules.legal_actions(state, role)
            state = rules.action(state, role, *legal[picker.randrange(len(legal))])
    assert checked > 100


@pytest.mark.parametrize("game_id", ["richard3", "kingmaker"])
def test_game_views_add_each_roles_undo_and_labels(game_id: str) -> None:
    rules = get_rules(game_id)
    scenario = rules.scenarios[0]
    game = Game.new(rules, 3, scenario)
    roles = [*rules.roles(scenario), OBSERVER]
    picker = random.Random(3)
    undo_seen = 0
    for _ in range(120):
        together = game.views(roles)
        assert _texts(together) == _texts([game.view(r) for r in roles])
        for role, view in zip(roles, together, strict=True):
            assert ("undo" in view.get("actions", {})) == (role != OBSERVER and game.can_undo(role))
            undo_seen += "undo" in view.get("actions", {})
        active = game.active()
        if not active:
            break
        role = picker.choice(active)
        verb, arg = picker.choice(rules.legal_actions(game.state, role))
        game.apply(role, verb, arg)
    assert undo_seen > 0
