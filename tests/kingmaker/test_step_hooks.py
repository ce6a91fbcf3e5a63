"""Kingmaker's steps declare what the engine asks of every decision through the engine's Step
hooks (roses/engine/steps.py): the label of each option (``option_label``), the default a lapsed
deadline plays (``default_option``), the reasons of a refusal and the rule section
(``test_refusals.py``). The rules object adds no dispatch of its own."""

from __future__ import annotations

from pathlib import Path

from roses.engine.steps import Step, StepRules
from roses.games.kingmaker import RULES
from roses.games.kingmaker.rules import KingmakerRules
from tests.kingmaker.corpus_tools import GAMES, play_random_game, positions
from tests.kingmaker.helpers import put, staged, turn_of


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


def test_no_label_dispatch_of_the_game_every_verb_labelled_by_its_step() -> None:
    """The rules label through the steps (StepRules.label, the engine's Step.option_label); each
    step declares the words of every verb it handles; only what no step labels (the server's
    ``by_default``, the standing orders' verbs) gets the plain words of the generic label."""
    from roses.games.kingmaker import views

    assert KingmakerRules.label is StepRules.label
    assert not hasattr(views, "label") and not hasattr(views, "LABELS")
    for name, step in RULES.steps.by_name.items():
        assert step.verbs <= set(getattr(step, "labels", {})), (name, step.verbs - set(getattr(step, "labels", {})))


def test_labels_of_every_legal_action_come_from_the_steps_in_seeded_play() -> None:
    """For the positions of seeded random games (2 to 8 players, basic to E2, with an umpire),
    every legal action of every role is labelled by a step (never the generic fallback)."""
    checked = 0
    for seed, options, _ in GAMES[::2]:
        record = play_random_game(RULES, seed, options, 150)
        for state, roles in positions(RULES, record):
            for role in roles:
                for verb, arg in RULES.legal_actions(state, role):
                    text = RULES.steps.label(state, role, verb, arg)
                    assert text, (seed, state["stack"][-1]["step"], verb, arg)
                    assert RULES.label(state, role, verb, arg) == text
                    checked += 1
    assert checked > 5000


def test_label_words_that_depend_on_the_position(tmp_path: Path) -> None:
    """A ship's ``to`` sails, a noble's ``to`` a place moves into it (§Movement Phase); a card
    kept by the faction (§Preparing to Play); a card offered in trade (§Transfers); the plain
    words of what no step labels."""
    state = staged(tmp_path)
    put(state, 0, "percy", "C3")
    turn_of(state, 0, {"step": "move", "p": 0, "sel": None, "ship": None}, stage=2)
    assert RULES.label(state, "P1", "to", "nottingham") == "move into Nottingham"
    assert RULES.label(state, "P1", "select", "percy") == "move Percy"
    assert RULES.label(state, "P1", "assign", ["percy", "faction"]) == "keep Percy as a faction asset"
    assert RULES.label(state, "P1", "offer_card", ["percy", "P2", "trade"]) == "offer Percy to P2 in trade for a card"
    assert RULES.label(state, "P1", "by_default", "vacation") == "the published default (away)"
    assert RULES.label(state, "P1", "set_order", ["x"]) == "set a standing order"
    state["stack"][-1]["ship"] = "antony"
    assert RULES.label(state, "P1", "to", "nottingham") == "sail to Nottingham"
