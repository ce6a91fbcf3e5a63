"""Each Richard III decision is one Step that declares everything about it (roses/engine/steps.py):
every option offered has its step's own label, every deciding step names its rule, and a move's
decisions are frames pushed on the Action Phase frame and popped when done (5.2, 5.3, 5.4)."""

from __future__ import annotations

import random

import pytest

from roses.engine.fuzz import game_seed
from roses.games.richard3 import RULES
from roses.games.richard3.base import RichardStep
from roses.games.richard3.data import AREA_ID, BLOCK_ID
from tests.richard3.helpers import L, Y, act, args, keep_hands, new, play, put

SCENARIOS = ("wars-of-the-roses", "kingmaker", "richard-iii")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_option_offered_is_labelled_and_its_step_names_its_rule(scenario: str) -> None:
    """In random games, every option of every actor gets a label from the step that offers it
    (never the generic ``verb arg``), and that step names the rule section it applies."""
    picker = random.Random(31)
    seen: set[str] = set()
    for i in range(3):
        st = RULES.setup(game_seed(41, i), scenario)
        while RULES.result(st) is None:
            step, frame = RULES.steps.current(st)  # type: ignore[misc]
            seen.add(step.name)
            assert step.rule, step.name
            for role in RULES.active(st):
                for verb, arg in RULES.legal_actions(st, role):
                    text = step.option_label(st, frame, role, verb, arg)
                    assert text and text == RULES.label(st, role, verb, arg), (step.name, verb, arg)
            role = picker.choice(RULES.active(st))
            legal = RULES.legal_actions(st, role)
            st = RULES.action(st, role, *legal[picker.randrange(len(legal))])
    assert {"mulligan", "card", "main", "group", "path", "turn"} <= seen


def test_refusals_come_from_the_steps_declarations() -> None:
    """A refusal names what the step is and its rule (``what``, ``rule``), and the reason the
    step gives for that verb (``why_not_<verb>``): 1.2, no action points for a move."""
    s = keep_hands(new())
    play(s, "AP2", "AP4")
    role = RULES.active(s)[0]
    step, frame = RULES.steps.current(s)  # type: ignore[misc]
    assert isinstance(step, RichardStep) and step.name == "main"
    frame["ap"] = 0
    assert step.why_not(s, frame, role, "move", "Kent") == "no action points are left on this turn's card (1.2)."
    text = step.refusal(s, frame, role, "block", "Kent/Y")
    assert text.startswith(f"{role} cannot block Kent/Y now: this is {step.what} (1.2).")


def test_a_land_move_pushes_its_decisions_on_the_action_phase_frame() -> None:
    """5.2: ``move`` spends an action point and pushes the group's decision on the phase frame,
    ``block`` pushes the block's path on it; each is popped when done and the phase goes on
    from the same frame."""
    s = keep_hands(new())
    put(s, "Henry VI/L", "Lincoln")
    put(s, "Norfolk/Y", "Middlesex")
    put(s, "Warwick/Y", "Middlesex")
    play(s, "AP4", "AP2")
    role = RULES.active(s)[0]
    assert role == Y
    phase_frame = s["stack"][0]
    assert [f["step"] for f in s["stack"]] == ["main"] and phase_frame["ap"] == 4
    area = "Middlesex"
    act(s, role, "move", area)
    assert [f["step"] for f in s["stack"]] == ["main", "group"] and s["stack"][0] is phase_frame
    assert phase_frame["ap"] == 3 and s["stack"][1]["area"] == AREA_ID[area]
    key = args(s, role, "block")[0]
    act(s, role, "block", key)
    assert [f["step"] for f in s["stack"]] == ["main", "group", "path"]
    assert s["stack"][2]["block"] == BLOCK_ID[key] and s["stack"][2]["path"] == [AREA_ID[area]]
    act(s, role, "to", args(s, role, "to")[0])
    if s["stack"][-1]["step"] == "path":
        act(s, role, "stop")
    assert [f["step"] for f in s["stack"]][:2] == ["main", "group"] or [f["step"] for f in s["stack"]] == ["main"]
    if s["stack"][-1]["step"] == "group":
        act(s, role, "end_group")
    assert s["stack"] == [phase_frame] and phase_frame["ap"] == 3


def test_a_recruit_pushes_where_it_deploys_and_pops_when_placed() -> None:
    """5.4: ``recruit`` pushes the choice of the area on the phase frame; ``place`` pops it and
    the action point is spent."""
    s = keep_hands(new())
    play(s, "AP4", "AP2")
    role = RULES.active(s)[0]
    phase_frame = s["stack"][0]
    key = args(s, role, "recruit")[0]
    act(s, role, "recruit", key)
    assert [f["step"] for f in s["stack"]] == ["main", "recruit"] and s["stack"][1]["block"] == BLOCK_ID[key]
    act(s, role, "place", args(s, role, "place")[0])
    assert s["stack"] == [phase_frame] and phase_frame["ap"] == 3
    assert RULES.active(s) == [role] and role in (Y, L)
