"""Game.view treats the rules' view as read only: a game may share a view's parts between
views (Richard III keeps them between calls), so nothing in them may be changed."""

from __future__ import annotations

from roses.engine.contract import State, View
from roses.engine.game import Game

from .toygame import RULES, ToyRules


def test_undo_is_added_to_a_new_actions_dict() -> None:
    g = Game.new(RULES, 3, "standard")
    g.apply("North", "pick", 1)
    g.apply("South", "pick", 1)
    g.apply("North", "step")
    shared = RULES.view(g.state, "North")["actions"]
    before = dict(shared)

    class Sharing(ToyRules):
        def view(self, state: State, role: str) -> View:
            v = super().view(state, role)
            v["actions"] = shared  # the same dict in every view, as a kept part is
            return v

    g.rules = Sharing()
    assert g.can_undo("North")
    assert g.view("North")["actions"] == {**before, "undo": True}
    assert shared == before
