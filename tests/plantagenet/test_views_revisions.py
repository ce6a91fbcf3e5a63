"""What the steps of the Levy and the Campaign declare they change (``Step.changes``,
``Step.run_changes``) and what they count beyond it (``common.changed``): the views find the
parts an action leaves alone by their revisions (``Steps.revision_of``) and make again only
those it changes. Every Plantagenet test checks the parts found by their revisions against the
state (tests/plantagenet/conftest.py), so a declaration that leaves out a change fails the
recorded-game corpus and the fuzz games; the tests here pin that each declaration is used: they
fail while the step counts a change of every part.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from roses.engine.contract import OBSERVER
from roses.games.plantagenet import RULES, common, views
from roses.games.plantagenet import services as sv
from roses.games.plantagenet.campaign import group_candidates, interceptors
from roses.games.plantagenet.common import BOARD, CARDS, LORDS, TRACKS

from .test_views import _fresh, _texts

ROLES = ["York", "Lancaster", OBSERVER]
PARTS = (CARDS, LORDS, BOARD, TRACKS)
State = dict[str, Any]
Action = tuple[str, Any]


def _revisions() -> dict[str, tuple[int, int]]:
    return {part: RULES.steps.revision_of(part) for part in PARTS}


def _moved(before: dict[str, tuple[int, int]]) -> set[str]:
    after = _revisions()
    return {part for part in PARTS if after[part] != before[part]}


def _find(step: str, want: Callable[[State, str, Action], bool], scenario: str = "ia-henry-vi",
          seeds: range = range(1, 80)) -> tuple[State, str, Action]:
    """A position of random play where ``step`` decides and ``want`` holds for one option."""
    pick = random.Random(3)
    for seed in seeds:
        s = RULES.setup(seed, scenario)
        for _ in range(800):
            if RULES.result(s) is not None:
                break
            active = RULES.active(s)
            role = active[0] if len(active) == 1 else pick.choice(active)
            legal = RULES.legal_actions(s, role)
            if s["stack"][-1]["step"] == step:
                for action in legal:
                    if want(s, role, action):
                        return s, role, action
            s = RULES.action(s, role, *legal[pick.randrange(len(legal))])
    raise AssertionError(f"no {step} met")


def _act(s: State, role: str, action: Action) -> tuple[set[str], list[dict[str, Any]], list[dict[str, Any]]]:
    """The parts whose revisions the action moves, with the views before and after it (made
    with the parts kept for this state); the views after are those made afresh."""
    views.forget()
    before = RULES.views(s, ROLES)
    revisions = _revisions()
    RULES.action(s, role, *action)
    moved = _moved(revisions)
    after = RULES.views(s, ROLES)
    assert _texts(after) == _texts(_fresh(s))
    return moved, before, after


def _plain_march(s: State, role: str, action: Action) -> bool:
    """A March of a Lord alone along a Highway or Road to a Locale without Enemy Lords or
    Interceptors, with actions left on the card after it (4.3): no Group, Haul, Approach,
    Intercept or Feed follows."""
    if action[0] != "march":
        return False
    frame = s["stack"][-1]
    lord, dest, side = frame["lord"], action[1], frame["side"]
    mat = s["lords"][lord]["mat"]
    return (frame["left"] > 1 and frame["highway"] is None and not group_candidates(s, lord)
            and not sv.enemy_lords_at(s, dest, side) and not interceptors(s, side, dest)
            and mat["assets"]["provender"] <= mat["assets"]["carts"]
            and "Path" not in RULES.label(s, role, *action))


def test_a_march_changes_only_the_lords_part_4_3() -> None:
    """A March (4.3) runs the Move and the Arrive after it (``Actions.changes``,
    ``Move.run_changes``, ``Arrive.run_changes``): only the Lords' revision moves, so the next
    views take the cards and the board's entries kept with this state (the same objects) and
    make the Lords' part again, with the Lord at his new Locale."""
    s, role, action = _find("actions", _plain_march)
    lord = s["stack"][-1]["lord"]
    moved, before, after = _act(s, role, action)
    assert moved == {LORDS}
    assert s["lords"][lord]["locale"] == action[1] and after[0]["lords"][lord]["locale"] == action[1]
    assert after[0]["aow"] is before[0]["aow"] and after[1]["command"] is before[1]["command"]
    assert after[0]["exhaustion"] is before[0]["exhaustion"] and after[0]["vassals"] is before[0]["vassals"]


def test_a_levied_capability_changes_the_cards_and_the_lords_only_3_4_6() -> None:
    """Levy Capability (3.4.6) takes a card from the side's deck to the Lord's mat
    (``Muster.changes``): the board's and the tracks' revisions do not move, so the board's
    entries are those kept; the cards and the Lords are made again."""
    s, role, action = _find("muster", lambda s, role, a: a[0] == "levy_capability")
    lord = s["stack"][-1]["lord"]
    moved, before, after = _act(s, role, action)
    assert moved == {CARDS, LORDS}
    assert action[1] in s["lords"][lord]["mat"]["capabilities"]
    assert after[0]["exhaustion"] is before[0]["exhaustion"] and after[0]["seats"] is before[0]["seats"]


def _bare(s: State, role: str, action: Action) -> bool:
    """Disband of a Lord with no Vassal, Capability or Event on his mat and no captive."""
    if action[0] != "disband":
        return False
    mat = s["lords"][action[1]]["mat"]
    return not (mat["vassals"] or mat["capabilities"] or mat["events"]) \
        and action[1] not in (s.get("captured") or {}).values()


def test_a_disband_in_pay_lords_counts_only_what_it_changes_3_2_4() -> None:
    """A Disband in Pay Lords (3.2.2, 3.2.4) counts its own changes (``common.disband_parts``):
    a Lord with no Vassal, Capability or Event on his mat changes only the Lords' part (his
    cylinder to the Calendar); the board's entries and the cards are those kept."""
    s, role, action = _find("pay_lords", _bare)
    moved, before, after = _act(s, role, action)
    assert moved == {LORDS}
    assert s["lords"][action[1]]["mat"] is None and "mat" not in after[0]["lords"][action[1]]
    assert after[0]["aow"] is before[0]["aow"] and after[0]["vassals"] is before[0]["vassals"]


def test_disband_parts_name_the_cards_board_and_tracks_a_disband_changes_3_2_4() -> None:
    """``common.disband_parts``: the cards when the mat holds a Capability (discarded, 3.2.4),
    the board when it holds a Vassal (to the Calendar, 3.2.4); what ``services.disband_lord``
    then changes is within them (the parts not named compare equal)."""
    s, _role, action = _find("pay_lords", lambda s, role, a: a[0] == "disband"
                             and bool(s["lords"][a[1]]["mat"]["capabilities"]))
    lord = action[1]
    parts = common.disband_parts(s, lord)
    assert {LORDS, CARDS} <= parts
    assert (BOARD in parts) == bool(s["lords"][lord]["mat"]["vassals"])
    board = (dict(s["exhaustion"]), {k: dict(v) for k, v in s["vassals"].items()}, dict(s["seats"]))
    tracks = (s["influence"], dict(s["favour"]))
    decks = {side: list(s["aow"][side]["deck"]) for side in ("York", "Lancaster")}
    sv.disband_lord(s, lord)
    assert decks != {side: s["aow"][side]["deck"] for side in ("York", "Lancaster")}
    if BOARD not in parts:
        assert board == (s["exhaustion"], s["vassals"], s["seats"])
    if TRACKS not in parts:
        assert tracks == (s["influence"], s["favour"])


def test_a_change_counted_by_a_step_moves_only_those_parts() -> None:
    """``common.changed`` (what a step changes beyond its declarations: a Pillage, a Disband,
    an Event drawn) moves the named parts' revisions, or every part's when none is named."""
    revisions = _revisions()
    common.changed(frozenset((BOARD,)))
    assert _moved(revisions) == {BOARD}
    revisions = _revisions()
    common.changed()
    assert _moved(revisions) == set(PARTS)


def _muster_verb(verb: str) -> Callable[[State, str, Action], bool]:
    return lambda s, role, a: a[0] == verb


def _with_actions_left(verb: str) -> Callable[[State, str, Action], bool]:
    """``verb`` by an Active Lord who keeps actions after it (no end of the card follows)."""
    def want(s: State, role: str, a: Action) -> bool:
        return a[0] == verb and s["stack"][-1]["left"] > 1
    return want


def _boost_on_card(s: State, role: str, a: Action) -> bool:
    """A Boost of a Tax or Parley whose card keeps actions after it."""
    below = s["stack"][-2]
    return below["step"] == "actions" and below["left"] > 0 and s["stack"][-1]["action"] in ("tax", "parley")


@pytest.mark.parametrize(("step", "want", "rule"), [
    ("muster", _muster_verb("levy_troops"), "3.4.4"),
    ("muster", _muster_verb("levy_transport"), "3.4.5"),
    ("muster", _muster_verb("levy_vassal"), "3.4.3"),
    ("arts_of_war", _muster_verb("assign"), "3.1.2"),
    ("actions", _with_actions_left("tax"), "4.6.3"),
    ("boost", _boost_on_card, "1.4.2"),
    ("pay_lords", _muster_verb("pay"), "3.2.2"),
])
def test_a_declared_action_and_what_runs_after_it_leave_the_revision_of_any_part(
        step: str, want: Callable[[State, str, Action], bool], rule: str) -> None:
    """The declared handlers (``Muster.changes``, ``ArtsOfWar.changes``, ``Actions.changes``,
    ``Boost.changes``, ``PayLords.changes``) and the automatic steps that run after them (the
    Pay segments, Ready Vassals, Muster Exiles, the Muster's own run) never move the revision of
    every part: the parts they leave alone are found by their revisions; the views are those
    made afresh (``_act``)."""
    s, role, action = _find(step, want)
    before = RULES.steps.revision
    moved, _before, _after = _act(s, role, action)
    assert RULES.steps.revision == before, (rule, action)
    assert moved and moved != set(PARTS), (rule, action, moved)
