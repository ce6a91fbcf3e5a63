"""ISMCTS pauses the older generations of CPython's cyclic garbage collector while it searches
(ismcts._PausedCollector): its tree and states are freed by their reference counts, and the
collector's passes over them cost some 7 % of the search (docs/ai.md, "The garbage
collector"). These tests pin what that relies on and what it promises: during a search only
the youngest generation is collected, after it the thresholds are as they were, whatever the
threads, and a search of any game leaves no reference cycle behind."""

from __future__ import annotations

import gc
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from roses.ai.bot import Determinizer
from roses.ai.ismcts import _PAUSED_COLLECTOR, SEARCH_YOUNG, ISMCTSBot
from roses.ai.sim import acting
from roses.engine.contract import Rules, State
from roses.engine.registry import get_rules


@pytest.fixture
def collector_on() -> Iterator[tuple[int, ...]]:
    """The collector on, with CPython's default thresholds; what it was, after the test."""
    was, saved = gc.isenabled(), gc.get_threshold()
    gc.enable()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*saved)
    if was:
        gc.enable()
    else:
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


def test_only_the_youngest_generation_is_collected_during_a_search(collector_on: tuple[int, ...]) -> None:
    rules = get_rules("richard3")
    state, role = _position(rules, "richard-iii")
    seen: list[tuple[bool, tuple[int, ...]]] = []
    bot = ISMCTSBot(1, iterations=1500)
    # containers made and kept beside the search (as another thread of the process would),
    # more than the raised threshold over the search: young collections must go on
    kept: list[list[list[int]]] = []
    per_call = SEARCH_YOUNG // 1000

    def look() -> bool:  # asked between iterations (ISMCTSBot.stop): never stop
        seen.append((gc.isenabled(), gc.get_threshold()))
        kept.append([[] for _ in range(per_call)])
        return False

    bot.stop = look
    collected: list[int] = []  # the generation of each collection during the search

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collected.append(info["generation"])

    gc.callbacks.append(watch)
    try:
        decision = _decide(bot, rules, state, role)
    finally:
        gc.callbacks.remove(watch)
    assert decision.stats["iterations"] == 1500
    # the collector on, the youngest generation's threshold raised, the older ones' out of reach
    assert seen and all(on and t[0] == SEARCH_YOUNG and min(t[1:]) >= 1 << 30 for on, t in seen)
    assert collected and set(collected) == {0}  # young collections went on, and only they
    assert gc.get_threshold() == collector_on and gc.isenabled()


def test_thresholds_and_switch_are_given_back_as_they_were(collector_on: tuple[int, ...]) -> None:
    rules = get_rules("richard3")
    state, role = _position(rules, "richard-iii")
    gc.set_threshold(5000, 3, 7)
    gc.disable()
    _decide(ISMCTSBot(1, iterations=20), rules, state, role)
    assert gc.get_threshold() == (5000, 3, 7) and not gc.isenabled()


def test_the_pause_ends_when_the_last_search_ends(collector_on: tuple[int, ...]) -> None:
    """Searches in several threads share one pause: the first to end leaves the older
    generations paused for the others; the thresholds are given back once all have ended."""
    paused = (SEARCH_YOUNG, 1 << 30, 1 << 30)
    with _PAUSED_COLLECTOR:
        with _PAUSED_COLLECTOR:  # a second search, begun during the first
            assert gc.get_threshold() == paused
        assert gc.get_threshold() == paused  # the first search still runs
    assert gc.get_threshold() == collector_on

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
    assert gc.get_threshold() == collector_on


def test_the_pause_ends_when_the_search_fails(collector_on: tuple[int, ...]) -> None:
    rules = get_rules("richard3")
    state, role = _position(rules, "richard-iii")
    view = rules.view(state, role)
    with pytest.raises(ValueError):  # a view without actions: nothing to choose from
        ISMCTSBot(1, iterations=5).decide(rules, {**view, "actions": {}}, role,
                                          Determinizer.bind(rules, state, role))
    assert gc.get_threshold() == collector_on


@pytest.mark.parametrize(("game", "scenario"), [
    ("richard3", "richard-iii"), ("richard3", "wars-of-the-roses"),
    ("plantagenet", "ia-henry-vi"), ("kingmaker", "campaign"),
])
def test_a_search_leaves_no_reference_cycle(collector_on: tuple[int, ...], game: str, scenario: str) -> None:
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


def test_a_larger_young_threshold_is_kept_and_none_stays_none(collector_on: tuple[int, ...]) -> None:
    """During a search the youngest generation is collected at SEARCH_YOUNG new containers, or
    at the process's own threshold if that is larger; a threshold of 0 (no collection) stays 0."""
    for young, during in ((700, SEARCH_YOUNG), (SEARCH_YOUNG * 3, SEARCH_YOUNG * 3), (0, 0)):
        gc.set_threshold(young, 10, 10)
        with _PAUSED_COLLECTOR:
            assert gc.get_threshold() == (during, 1 << 30, 1 << 30)
        assert gc.get_threshold() == (young, 10, 10)
