"""Auditable chance (roses/engine/chance.py): a commitment to the seed, and the
audit of a finished record: the seed matches the commitment published at the start, every roll
and shuffle is derived again from it, no die was rigged, and the logs the players saw are what
the seed gives."""

from __future__ import annotations

import copy
import random
from typing import Any

from roses.engine import Game, get_rules
from roses.engine.chance import SCHEME, audit_record, commitment, derived_nonce, new_nonce
from roses.engine.contract import OBSERVER

RULES = get_rules("kingmaker")


def _record(seed: int = 11, steps: int = 150) -> tuple[dict[str, Any], Game]:
    game = Game.new(RULES, seed, "campaign", {"players": 3})
    pick = random.Random(seed)
    for _ in range(steps):
        active = game.active()
        if not active:
            break
        role = active[0]
        verb, arg = pick.choice(RULES.legal_actions(game.state, role))
        game.apply(role, verb, arg)
    nonce = new_nonce()
    record = {**game.record(), "digest": game.digest(), "result": game.result(),
              "chance": {"scheme": SCHEME, "commitment": commitment(seed, nonce), "nonce": nonce},
              "logs": {OBSERVER: list(RULES.log_for(game.state, OBSERVER)), "P2": list(RULES.log_for(game.state, "P2"))}}
    return record, game


def test_commitment_depends_on_seed_and_nonce() -> None:
    n = new_nonce()
    assert len(n) == 64 and n != new_nonce()
    assert commitment(5, n) == commitment(5, n) != commitment(6, n)
    assert commitment(5, n) != commitment(5, new_nonce())
    key = b"k" * 32
    assert derived_nonce(key, 1, 5) == derived_nonce(key, 1, 5) != derived_nonce(key, 2, 5)
    assert derived_nonce(key, 1, 5) != derived_nonce(b"other", 1, 5)


def test_a_true_record_passes_and_counts_the_draws() -> None:
    record, game = _record()
    audit = audit_record(RULES, record)
    assert audit.ok, audit.problems
    assert audit.committed and audit.draws == game.state["rolls"] > 0
    assert audit.logs_checked == [OBSERVER, "P2"]
    assert "passed" in audit.summary()


def test_a_wrong_seed_nonce_or_commitment_fails() -> None:
    record, _ = _record()
    for change in ({"nonce": new_nonce()}, {"commitment": commitment(record["seed"] + 1, record["chance"]["nonce"])},
                   {"scheme": "md5"}):
        bad = copy.deepcopy(record)
        bad["chance"].update(change)
        assert not audit_record(RULES, bad).ok, change
    other = copy.deepcopy(record)
    other["seed"] += 1  # another seed: other decks and dice (the actions no longer fit, or the digest differs)
    other["chance"]["commitment"] = commitment(other["seed"], other["chance"]["nonce"])
    assert not audit_record(RULES, other).ok


def test_a_log_that_the_seed_does_not_give_fails() -> None:
    """A result shown to the players that did not follow from the seed (a changed line)."""
    record, _ = _record()
    bad = copy.deepcopy(record)
    lines = bad["logs"][OBSERVER]
    i = len(lines) // 2
    lines[i] = lines[i] + " (altered)"
    audit = audit_record(RULES, bad)
    assert not audit.ok and f"line {i + 1}" in audit.summary()


def test_rigged_dice_fail_the_audit() -> None:
    record, _ = _record(steps=0)
    original = RULES.setup

    def rigged_setup(seed: int, scenario: str, options: dict[str, Any] | None = None) -> Any:
        state = original(seed, scenario, options)
        state["rigged"] = [6, 6, 6]
        return state

    try:
        RULES.setup = rigged_setup  # type: ignore[method-assign]
        audit = audit_record(RULES, {k: v for k, v in record.items() if k != "digest"})
    finally:
        RULES.setup = original  # type: ignore[method-assign]
    assert not audit.ok and "rigged" in audit.summary()
