"""Replay the recorded-game corpus (tests/kingmaker/corpus/) through the current rules.

Written by ``python -m tests.kingmaker.make_corpus``; ``tests/kingmaker/corpus_tools.py`` says
what each digest covers (every role's view, legal actions, published defaults, the labels of
the options and the refusal of actions that are not options, at every step). A failure means
play or its words changed: a change meant only to make the rules faster or clearer keeps every
digest; a change of the rules or of their words regenerates the corpus in the same commit and
says why (``python -m tests.kingmaker.make_corpus --texts DIR`` lists the words to compare).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from roses.games.kingmaker import RULES
from tests.corpus_io import read_records
from tests.kingmaker.corpus_tools import CORPUS, GAMES, LENGTH, digests, play_random_game


@cache
def corpus() -> tuple[dict[str, Any], ...]:
    return read_records(CORPUS)


def test_corpus_covers_player_counts_and_rules_levels() -> None:
    """2, 4 and 8 players at each rules level (basic, E1, E2), each game a few hundred actions."""
    got = {(r["options"]["players"], r["options"]["rules"]) for r in corpus()}
    assert {(p, lv) for p in (2, 4, 8) for lv in ("basic", "e1", "e2")} <= got
    assert [r["seed"] for r in corpus()] == [seed for seed, _, _ in GAMES]
    assert all(len(r["actions"]) >= LENGTH for r in corpus())


@pytest.mark.parametrize("seed", [seed for seed, _, _ in GAMES])
def test_corpus_replays_to_its_digests(seed: int) -> None:
    record = next(r for r in corpus() if r["seed"] == seed)
    got = digests(RULES, record)
    want = {k: record[k] for k in got}
    assert got == want, f"seed {seed} options {record['options']}"


def test_random_play_still_picks_the_recorded_actions() -> None:
    """The first recorded game is what the fuzzer's picker plays today."""
    record = corpus()[0]
    again = play_random_game(RULES, record["seed"], record["options"], len(record["actions"]))
    assert again["actions"] == record["actions"]
