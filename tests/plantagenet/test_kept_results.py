"""What the Plantagenet rules keep between calls to be fast gives the same answers as computing
afresh: the scenario setups built once and copied, and the Plan menus made once per draft."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from roses.engine.fuzz import game_seed
from roses.games.plantagenet import RULES, campaign
from roses.games.plantagenet import setup as S

State = dict[str, Any]


def _states(scenario: str, games: int = 2, every: int = 2, seed: int = 5) -> list[State]:
    """States met in random games of ``scenario`` (every ``every``-th step)."""
    picker = random.Random(seed)
    out = []
    for i in range(games):
        st = RULES.setup(game_seed(seed, i), scenario)
        step = 0
        while RULES.result(st) is None and step < 3000:
            if step % every == 0:
                out.append(RULES.copy_state(st))
            active = RULES.active(st)
            role = active[0] if len(active) == 1 else picker.choice(active)
            legal = RULES.legal_actions(st, role)
            st = RULES.action(st, role, *legal[picker.randrange(len(legal))])
            step += 1
    return out


OPTION_SETS = [dict(zip(S.OPTIONS_SCHEMA, values, strict=True))
               for values in itertools.product((False, True), repeat=len(S.OPTIONS_SCHEMA))]


def _containers(value: Any, out: list[Any]) -> list[Any]:
    """Every dict and list inside ``value`` (itself included)."""
    if type(value) in (dict, list):
        out.append(value)
        for v in value.values() if type(value) is dict else value:
            _containers(v, out)
    return out


@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_kept_setup_is_the_setup_built_afresh_6_0(scenario: str) -> None:
    """6.0: a scenario's setup is built once per scenario and options and copied; the copy is
    the state built afresh for that seed (same JSON text, key order included) and shares no
    dict or list with the kept one nor with another copy."""
    for opts in OPTION_SETS:
        for seed in (0, 1, 977):
            kept = S.setup_state(seed, scenario, opts)
            fresh = S._new_state(seed, scenario, S.check_options(opts), S.scenario_data()[scenario])
            assert json.dumps(kept) == json.dumps(fresh)
        one, two = S.setup_state(3, scenario, opts), S.setup_state(3, scenario, opts)
        kept_ids = {id(x) for k in S._SETUPS.values() for x in _containers(k, [])}
        one_ids = {id(x) for x in _containers(one, [])}
        assert not one_ids & kept_ids
        assert not one_ids & {id(x) for x in _containers(two, [])}


def _fresh_plan_menu(deck: list[str], draft: list[str], target: int, passes: int) -> list[tuple[str, Any]]:
    """The Plan menu (4.1) worked out from the rules: lock in a full Plan, else the first card
    not chosen of each badge in deck order (a Pass card only within ``passes``), then take back
    the last card of a Plan not empty."""
    out: list[tuple[str, Any]] = []
    if len(draft) >= target:
        out.append(("lock", None))
    else:
        no_pass = sum(1 for cid in draft if cid.startswith("pass-")) >= passes
        seen: set[str] = set()
        for cid in deck:
            badge = cid.rsplit("-", 1)[0]
            if badge in seen or cid in draft:
                continue
            seen.add(badge)
            if not (badge == "pass" and no_pass):
                out.append(("add", cid))
    if draft:
        out.append(("remove", None))
    return out


@pytest.mark.parametrize("scenario", ["ia-henry-vi", "iii-my-kingdom-for-a-horse", "wars-of-the-roses"])
def test_kept_plan_menus_are_the_menus_worked_out_afresh_4_1(scenario: str) -> None:
    """4.1: the Plan menu kept per deck, draft and limits is the menu worked out afresh, for
    every draft met in random play (with cards added and taken back), and the step's options
    and legality check are that menu."""
    step = RULES.steps["plan"]
    met = 0
    for st in _states(scenario, games=3, every=1):
        frame = st["stack"][-1] if st["stack"] else None
        if frame is None or frame["step"] != "plan" or st["result"] is not None:
            continue
        for role in RULES.active(st):
            deck = st["command"][role]["deck"]
            draft = frame["drafts"][role]
            target, passes = frame["limits"][role]
            fresh = _fresh_plan_menu(deck, draft, target, passes)
            assert list(campaign.plan_menu(deck, draft, target, passes)) == fresh
            campaign._PLAN_MENUS.clear()
            assert list(campaign.plan_menu(deck, draft, target, passes)) == fresh
            assert step.options(st, frame, role) == fresh
            for verb, arg in fresh + [("add", "pass-1"), ("add", deck[-1]), ("lock", None), ("add", None)]:
                assert step.is_legal(st, frame, role, verb, arg) == ((verb, arg) in fresh)
            met += 1
    assert met > 50


@pytest.mark.parametrize("scenario", ["ia-henry-vi", "ii-warwicks-rebellion", "wars-of-the-roses"])
def test_shortcuts_give_the_answers_of_their_definitions(scenario: str) -> None:
    """The quick forms some menus use give what they stand for, in states of random play: a
    step marked ``always_decides`` (settling does not ask it) has an actor whenever it is on
    top (4.1: the Plan until both sides lock in), early-exit scans of the Lords, Capability
    eligibility (3.1.2) and Command card titles (4.1)."""
    from roses.games.plantagenet import arts
    from roses.games.plantagenet import services as sv
    from roses.games.plantagenet.setup import other

    for st in _states(scenario, games=2, every=3):
        frame = st["stack"][-1] if st["stack"] else None
        if frame is not None and st["result"] is None:
            step = RULES.steps[frame["step"]]
            assert not step.always_decides or step.actors(st, frame), frame["step"]
        for side in ("York", "Lancaster"):
            assert sv.any_on_map(st, side) == bool(sv.on_map(st, side))
            for loc in {d["locale"] for d in st["lords"].values() if d["locale"]} | {"London", "Calais"}:
                assert sv.enemy_lords_at(st, loc, side) == bool(sv.lords_at(st, loc, other(side)))
            for cid in st["aow"][side]["deck"][:8]:
                assert arts.several_eligible(st, side, cid) == (len(arts.eligible_lords(st, side, cid)) > 1)
            for card in campaign.tables().card_badge:
                assert campaign.card_title(st, side, card) == campaign._card_title(st, side, card)


def test_kept_side_lists_are_each_sides_lords_in_state_order_1_5() -> None:
    """The Lords of each side kept per list of Lord ids (services.sides_in) are those of the
    state, in its order, for every scenario (and after a Lord arrives, 6.2.2 ADD)."""
    from roses.games.plantagenet import services as sv

    for scenario in S.SCENARIOS:
        for st in _states(scenario, games=1, every=25):
            lrec = st["lords"]
            for side in ("York", "Lancaster"):
                assert list(sv.sides_in(lrec)[side]) == [lid for lid in lrec if sv.side_of(lid) == side]
                sv._SIDES_IN.clear()
                assert list(sv.sides_in(lrec)[side]) == [lid for lid in lrec if sv.side_of(lid) == side]
