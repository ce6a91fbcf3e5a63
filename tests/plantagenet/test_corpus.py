"""Replay the recorded-game corpus (tests/plantagenet/corpus/) through the current rules.

Written by ``python -m tests.plantagenet.make_corpus``; ``tests/plantagenet/corpus_tools.py``
says what each digest covers (every role's view and legal actions at every step, the whole
final state). A failure means play changed: a change meant only to make the rules faster or
clearer must keep every digest; a rule change regenerates the corpus in the same commit and
says so.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from roses.games.plantagenet import RULES
from tests.corpus_io import read_records
from tests.plantagenet.corpus_tools import CORPUS, digests, play_random_game


@cache
def corpus() -> tuple[dict[str, Any], ...]:
    return read_records(CORPUS)


def test_corpus_covers_every_scenario_and_option_set() -> None:
    """Every scenario has games with the default options, with Hidden Mats (1.5.3) and with
    quick reactions, each with its three digests."""
    for scenario in RULES.scenarios:
        mine = [r for r in corpus() if r["scenario"] == scenario]
        assert {json.dumps(r["options"], sort_keys=True) for r in mine} == {
            "null", '{"hidden_mats": true}',
            '{"quick_reactions_lancaster": true, "quick_reactions_york": true}'}
        assert all(r["actions"] and r["views"] and r["legal"] and r["state"] for r in mine)


@pytest.mark.parametrize("scenario", RULES.scenarios)
def test_corpus_replays_to_its_digests(scenario: str) -> None:
    for record in corpus():
        if record["scenario"] != scenario:
            continue
        got = digests(RULES, record)
        want = {k: record[k] for k in got}
        assert got == want, f"{scenario} seed {record['seed']} options {record['options']}"


@pytest.mark.parametrize("scenario", RULES.scenarios)
def test_random_play_still_picks_the_recorded_actions(scenario: str) -> None:
    """The first recorded game of each scenario is what the fuzzer's picker plays today (the
    order of the options decides what it picks)."""
    record = next(r for r in corpus() if r["scenario"] == scenario)
    again = play_random_game(RULES, scenario, record["seed"], record["options"])
    assert again["actions"] == record["actions"]
