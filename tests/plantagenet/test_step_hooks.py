"""Plantagenet's steps declare what the engine asks of every decision through the engine's own
hooks (roses.engine.steps): the label of each option (``Step.option_label``), the reasons an
action is refused (``why_not_<verb>``) with the rule section (``Step.rule``)."""

from __future__ import annotations

import gzip
import json
import random
from functools import cache
from typing import Any

from roses.engine.contract import Rules, State
from roses.engine.steps import Step
from roses.games.plantagenet import RULES
from roses.games.plantagenet.records import Where
from tests.plantagenet.corpus_tools import CORPUS
from tests.plantagenet.helpers import approach, place, set_troops
from tests.plantagenet.test_battle import BATTLES, TROOPS, fresh


@cache
def _records() -> tuple[dict[str, Any], ...]:
    """The first recorded game of each scenario with each option set (tests/plantagenet/corpus)."""
    seen: set[str] = set()
    out = []
    with gzip.open(CORPUS, "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            key = rec["scenario"] + json.dumps(rec["options"], sort_keys=True)
            if key not in seen:
                seen.add(key)
                out.append(rec)
    return tuple(out)


#: Decisions that have a real choice (more than one option) in none of the positions above:
#: they declare their labels all the same (the test above), and tests of their rules label them.
SELDOM_ASKED = {"advance", "battle_event", "feed", "flank", "land", "pay_troops", "pay_vassals", "place_lord"}


def _positions() -> list[State]:
    """Every position of the chosen recorded games, and of random Battles with several Lords a
    side (tests/plantagenet/test_battle.py: the Battle decisions that seldom have a real choice
    in whole games: Array, Advance, Death checks, Spoils...)."""
    out = []
    for rec in _records():
        state = RULES.setup(int(rec["seed"]), rec["scenario"], rec["options"])
        for role, verb, arg in rec["actions"]:
            out.append(state)
            state = RULES.action(RULES.copy_state(state), role, verb, arg)
    for index, (scenario, locale, attackers, defenders) in enumerate(BATTLES):
        for seed in range(3):
            state = fresh(scenario)
            for lid, troops in TROOPS.get(index, {}).items():
                set_troops(state, lid, **troops)
            for lid, d in state["lords"].items():
                if d["where"] == Where.MAP and d["locale"] == locale and lid not in attackers + defenders:
                    place(state, lid, "Calais")
            approach(state, locale, attackers, [d for d in defenders if state["lords"][d]["where"] != Where.UNUSED])
            pick = random.Random(seed)
            while state["stack"] and state["result"] is None:
                out.append(state)
                (role,) = RULES.active(state)
                verb, arg = pick.choice(RULES.legal_actions(state, role))
                state = RULES.action(RULES.copy_state(state), role, verb, arg)
    return out


def test_no_step_has_a_label_method_of_its_own_making() -> None:
    """Labels come only through ``Step.option_label`` (``StepRules.label`` asks it)."""
    assert type(RULES).label is not Rules.label
    assert "label" not in vars(type(RULES))  # the engine's StepRules.label does the work
    for step in RULES.steps.by_name.values():
        assert not hasattr(step, "action_label"), step.name


def test_every_step_with_a_handler_labels_its_options() -> None:
    """Every step class with a handler declares ``option_label`` and it returns None for a verb
    it does not handle."""
    for step in RULES.steps.by_name.values():
        if step.verbs:
            assert type(step).option_label is not Step.option_label, step.name


def test_every_legal_action_of_random_games_has_a_step_label() -> None:
    """At every position of one recorded game per scenario and option set, every legal action
    of every active role has a label from its step, never the generic ``verb arg`` text."""
    labelled: set[str] = set()
    generic: list[tuple[str, str, Any]] = []
    for state in _positions():
        for role in RULES.active(state):
            for verb, arg in RULES.legal_actions(state, role):
                text = RULES.label(state, role, verb, arg)
                if text == Rules.label(RULES, state, role, verb, arg):
                    generic.append((state["stack"][-1]["step"], verb, arg))
                labelled.add(state["stack"][-1]["step"])
    assert generic == []
    deciding = {name for name, step in RULES.steps.by_name.items() if step.verbs or name == "card_pick"}
    assert deciding - labelled <= SELDOM_ASKED, sorted(deciding - labelled - SELDOM_ASKED)
    assert len(labelled & deciding) >= 24
