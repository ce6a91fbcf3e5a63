"""Kingmaker's steps declare what the engine asks of every decision through the engine's Step
hooks (roses/engine/steps.py): the label of each option (``option_label``), the default a lapsed
deadline plays (``default_option``), the reasons of a refusal and the rule section
(``test_refusals.py``). The rules object adds no dispatch of its own."""

from __future__ import annotations

from roses.engine.steps import Step, StepRules
from roses.games.kingmaker import RULES
from roses.games.kingmaker.rules import KingmakerRules


def test_the_published_defaults_are_the_steps_default_option() -> None:
    """The rules take the default of the step deciding now (StepRules.default_action); no step
    keeps a default in an attribute of its own for a game-specific lookup."""
    assert KingmakerRules.default_action is StepRules.default_action
    with_default = set()
    for name, step in RULES.steps.by_name.items():
        for old in ("default", "first_is_default", "published_default"):
            assert not hasattr(step, old), (name, old)
        if type(step).default_option is not Step.default_option:
            with_default.add(name)
    # every decision put to a player outside his own turn, and the umpire's (ruling K73)
    assert with_default == {
        "accept", "attend", "captive", "disperse", "hunt", "offer", "pardon", "parl_place", "permit",
        "propose", "ransom", "ransom_pay", "scuttle", "spoils", "storm_port", "summons", "tabletop",
        "trade_back", "treachery", "vac_port", "vote"}
