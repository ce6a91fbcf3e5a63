"""The typed record of the Kingmaker state (roses/games/kingmaker/state.py) names every key a
campaign holds: a new campaign has exactly the required keys, and random play adds only the
optional ones."""

from __future__ import annotations

import random

from roses.games.kingmaker import RULES
from roses.games.kingmaker.state import OPTIONAL_KEYS, REQUIRED_KEYS, typed
from tests.kingmaker.helpers import new_game


def test_a_new_campaign_has_exactly_the_required_keys() -> None:
    for rules in ("basic", "e1", "e2"):
        state = new_game(players=4, rules=rules)
        assert set(state) == REQUIRED_KEYS, rules
        assert not REQUIRED_KEYS & OPTIONAL_KEYS


def test_random_play_adds_only_documented_keys() -> None:
    rnd = random.Random(7)
    for rules in ("basic", "e2"):
        state = new_game(players=3, rules=rules, seed=5, rounds=2)
        for _ in range(600):
            if state["result"] is not None:
                break
            role = rnd.choice(RULES.active(state))
            verb, arg = rnd.choice(RULES.legal_actions(state, role))
            RULES.action(state, role, verb, arg)
            assert set(state) <= REQUIRED_KEYS | OPTIONAL_KEYS, sorted(set(state) - REQUIRED_KEYS - OPTIONAL_KEYS)
        record = typed(state)
        n = len(record["cz"])
        assert len(record["ch"]) == len(record["nsq"]) == len(record["nact"]) == n
        assert len(record["hesc"]) == len(record["hdead"]) and len(record["spos"]) == len(record["smv"])
