"""Kingmaker framework pins: the fast legality check agrees with the options; steps that say
they always decide always have an actor; every decision with a published default offers it."""

from __future__ import annotations

import random

from roses.games.kingmaker import RULES
from tests.kingmaker.helpers import new_game

PROBES = [("to", "A1"), ("to", "london"), ("select", "percy"), ("select", "nobody"), ("end", 1), ("back", None),
          ("select", None), ("to", None), ("sail", "ship_mary"), ("free_move", "percy")]


def _states(seed: int, steps: int):
    state = new_game(4, "e1", seed=seed)
    r = random.Random(seed)
    for _ in range(steps):
        if RULES.result(state) is not None:
            return
        role = r.choice(RULES.active(state))
        verb, arg = r.choice(RULES.legal_actions(state, role))
        RULES.action(state, role, verb, arg)
        yield state, role


def test_fast_is_legal_matches_the_options() -> None:
    checked = 0
    for state, _ in _states(12, 1500):
        frame = state["stack"][-1]
        step = RULES.steps.by_name[frame["step"]]
        if frame["step"] != "move":
            continue
        role = RULES.active(state)[0]
        options = step.options(state, frame, role)
        for verb, arg in options + PROBES:
            assert step.is_legal(state, frame, role, verb, arg) == ((verb, arg) in options), (verb, arg)
        checked += 1
    assert checked > 50


def test_always_deciding_steps_have_actors_and_defaults_are_legal() -> None:
    for state, _ in _states(13, 1500):
        frame = state["stack"][-1]
        step = RULES.steps.by_name[frame["step"]]
        actors = step.actors(state, frame)
        if step.always_decides:
            assert actors
        default = getattr(step, "default", None)
        for role in actors:
            if default is not None:
                assert default in RULES.legal_actions(state, role), (frame["step"], default)
            published = RULES.view(state, role)["default"]
            if published is not None:
                assert tuple(published) in RULES.legal_actions(state, role)


def test_has_deals_agrees_with_deal_options() -> None:
    """The ``deal`` menu is offered exactly when a dealing verb exists (deals.has_deals)."""
    from roses.games.kingmaker.deals import deal_options, has_deals

    checked = 0
    for state, _ in _states(5, 600):
        for p in range(len(state["roles"])):
            assert has_deals(state, p) == bool(deal_options(state, p))
            checked += 1
    assert checked > 500


def test_every_question_put_in_another_players_turn_has_a_published_default() -> None:
    """Issue 20 item 2 (research section 5: interrupts with a published default): once the rounds
    begin, every decision a seat faces in another player's turn (ransom, permission, storm port,
    Treachery, Parliament, a captor's disposal, a summons...) has a published default, which
    is legal; only a player's own turn has none (a server then applies the loss on time)."""
    from roses.games.kingmaker.common import role_of

    asked = 0
    for seed in (13, 21):
        for state, _ in _states(seed, 1500):
            if not state["round"]:
                continue  # setup: every player arranges his own faction at once
            turn = role_of(state, state["order"][state["turn"]])
            for role in RULES.active(state):
                if role == turn:
                    continue
                default = RULES.default_action(state, role)
                assert default is not None, (state["stack"][-1]["step"], role)
                assert default in RULES.legal_actions(state, role)
                asked += 1
    assert asked > 100
