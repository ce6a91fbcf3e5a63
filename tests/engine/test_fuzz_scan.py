"""The fuzzer's scan of a view's text for secrets (fuzz.shown_secrets) finds exactly the
secrets a plain substring test finds."""

from __future__ import annotations

import random

from roses.engine.fuzz import _same_actions, shown_secrets


def test_shown_secrets_agrees_with_substring_search() -> None:
    rng = random.Random(5)
    alphabet = "ab#c01\"x"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        secrets = {"".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 6))) for _ in range(12)}
        expected = {s for s in secrets if s in text}
        found = shown_secrets(text, secrets)
        assert set(found) == expected
        assert len(found) == len(set(found))


def test_same_actions_is_set_equality_of_canonical_actions() -> None:
    assert _same_actions([("move", [1, 2]), ("pass", None)], [("pass", None), ("move", [1, 2])])
    assert _same_actions([("move", (1, 2))], [("move", [1, 2])])  # a tuple and a list are one JSON array
    assert _same_actions([("x", {"a": 1, "b": 2})], [("x", {"b": 2, "a": 1})])
    assert not _same_actions([("move", [1, 2])], [("move", [2, 1])])
    assert not _same_actions([("pass", None)], [("pass", None), ("end", None)])
