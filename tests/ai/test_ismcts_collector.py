"""ISMCTS pauses CPython's cyclic garbage collector while it searches (ismcts._PausedCollector):
its tree and states are freed by their reference counts, and the collector's passes over them
cost some 8 % of the search (docs/ai.md, "The garbage collector"). These tests pin what that
relies on and what it promises: the collector is off during a search and as it was after it,
whatever the threads, and a search of any game leaves no reference cycle behind."""

from __future__ import annotations

import gc
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from roses.ai.bot import Determinizer
from roses.ai.ismcts import _PAUSED_COLLECTOR, ISMCTSBot
from roses.ai.sim import acting
from roses.engine.contract import Rules, State
from roses.engine.registry import get_rules


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def _position(rules: Rules, scenario: str, seed: int = 1) -> tuple[State, str]:
    """The first position of a random game where the acting role has a choice."""
    state = rules.setup(seed, scenario)
    picker = random.Random(seed)
    while (turn := acting(rules, state)) is not None:
        role, legal = turn
        if len(legal) > 1:
            return state, role
        state = rules.action(state, role, *legal[picker.randrange(len(legal))])
    raise AssertionError(f"no choice in a random game of {scenario}")


def _decide(bot: ISMCTSBot, rules: Rules, state: State, role: str) -> Any:
    return bot.decide(rules, rules.view(state, role), role, Determinizer.bind(rules, state, role))


def test_the_collector_is_off_during_a_search_and_on_after_it(collector_on: None) -> None:
    rules = get_rules("richard3")
    state, role = _position(rules, "richard-iii")
    seen: list[bool] = []
    bot = ISMCTSBot(1, iterations=40)
    bot.stop = lambda: seen.append(gc.isenabled()) or False
    decision = _decide(bot, rules, state, role)
    assert decision.stats["iterations"] == 40
    assert seen and not any(seen)  # asked between iterations: off every time
    assert gc.isenabled()


def test_a_collector_off_before_the_search_stays_off(collector_on: None) -> None:
    rules = get_rules("richard3")
    state, role = _position(rules, "richard-iii")
    gc.disable()
    _decide(ISMCTSBot(1, iterations=20), rules, state, role)
    assert not gc.isenabled()
    gc.enable()


def test_the_pause_ends_when_the_last_search_ends(collector_on: None) -> None:
    """Searches in several threads share one pause: the first to end leaves the collector off
    for the others; it is on again once all have ended."""
    with _PAUSED_COLLECTOR:
        with _PAUSED_COLLECTOR:  # a second search, begun during the first
            assert not gc.isenabled()
        assert not gc.isenabled()  # the first search still runs
    assert gc.isenabled()

    rules = get_rules("richard3")
    state, role = _position(rules, "richard-iii")
    errors: list[BaseException] = []

    def search(seed: int) -> None:
        try:
            _decide(ISMCTSBot(seed, iterations=60), rules, rules.copy_state(state), role)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=search, args=(seed,)) for seed in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert gc.isenabled()


def test_the_pause_ends_when_the_search_fails(collector_on: None) -> None:
    rules = get_rules("richard3")
    state, role = _position(rules, "richard-iii")
    view = rules.view(state, role)
    with pytest.raises(ValueError):  # a view without actions: nothing to choose from
        ISMCTSBot(1, iterations=5).decide(rules, {**view, "actions": {}}, role,
                                          Determinizer.bind(rules, state, role))
    assert gc.isenabled()


@pytest.mark.parametrize(("game", "scenario"), [
    ("richard3", "richard-iii"), ("richard3", "wars-of-the-roses"),
    ("plantagenet", "ia-henry-vi"), ("kingmaker", "campaign"),
])
def test_a_search_leaves_no_reference_cycle(collector_on: None, game: str, scenario: str) -> None:
    """What the pause relies on: everything a search makes (tree, determinisations, kept
    states, the labels of its decision) is freed by its reference counts, so a collection
    after it finds nothing unreachable."""
    rules = get_rules(game)
    state, role = _position(rules, scenario)
    _decide(ISMCTSBot(1, iterations=30), rules, state, role)  # first use: caches, lazy imports
    gc.collect()
    decision = _decide(ISMCTSBot(2, iterations=150), rules, state, role)
    assert decision.stats["iterations"] == 150
    del decision
    assert gc.collect() == 0
