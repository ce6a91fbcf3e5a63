"""Log entries with kinds (roses.engine.log): storage forms, reading and redaction."""

from __future__ import annotations

import json

import pytest

from roses.engine import log as L


def _state() -> dict:
    return {"log": []}


def test_without_kind_the_stored_forms_are_unchanged() -> None:
    s = _state()
    L.public(s, "Turn 1")
    L.private(s, "York", "You drew Warwick")
    L.public(s, "Turn 2", kind=None)
    L.private(s, "York", "x", kind="")
    assert s["log"] == ["Turn 1", ["York", "You drew Warwick"], "Turn 2", ["York", "x"]]
    assert json.dumps(s["log"]) == '["Turn 1", ["York", "You drew Warwick"], "Turn 2", ["York", "x"]]'


def test_with_kind_the_entry_has_three_items() -> None:
    s = _state()
    L.public(s, "Battle of Kent", kind=L.BATTLE)
    L.private(s, "Lancaster", "You play Treason", kind=L.CARD)
    assert s["log"] == [["", "Battle of Kent", "battle"], ["Lancaster", "You play Treason", "card"]]


def test_bad_kinds_are_refused() -> None:
    for bad in ("Battle", "log battle", "1x", "<b>"):
        with pytest.raises(ValueError):
            L.public(_state(), "x", kind=bad)
    L.public(_state(), "x", kind="custom_kind-2")  # a game's own word is fine


def test_kinds_are_lowercase_words() -> None:
    assert len(set(L.KINDS)) == len(L.KINDS)
    assert all(L.KIND_PATTERN.match(k) for k in L.KINDS)


def _mixed() -> list:
    s = _state()
    L.public(s, "Game Turn 1", kind=L.TURN)
    L.public(s, "York moves")
    L.private(s, "York", "You hold Treason")
    L.private(s, "Lancaster", "Lancaster secret", kind=L.CARD)
    L.private(s, "York", "York secret", kind=L.CARD)
    L.public(s, "Battle of Kent", kind=L.BATTLE)
    return s["log"]


def test_visible_entries_and_redaction() -> None:
    log = _mixed()
    assert L.visible_entries(log, "York") == [
        ("Game Turn 1", "turn"), ("York moves", ""), ("You hold Treason", ""),
        ("York secret", "card"), ("Battle of Kent", "battle")]
    assert L.visible_entries(log, "Lancaster") == [
        ("Game Turn 1", "turn"), ("York moves", ""), ("Lancaster secret", "card"),
        ("Battle of Kent", "battle")]
    assert L.visible_entries(log, "Observer") == [
        ("Game Turn 1", "turn"), ("York moves", ""), ("Battle of Kent", "battle")]
    assert L.visible_entries(log, "York", start=3) == [("York secret", "card"), ("Battle of Kent", "battle")]
    # visible_log: the texts only, as before
    assert L.visible_log(log, "Lancaster") == ["Game Turn 1", "York moves", "Lancaster secret", "Battle of Kent"]
    assert L.visible_log(log, "Observer", 1) == ["York moves", "Battle of Kent"]


def test_entry_helpers_and_readable_entries() -> None:
    log = _mixed()
    assert [L.entry_kind(e) for e in log] == ["turn", "", "", "card", "card", "battle"]
    assert [L.entry_text(e) for e in log][2:4] == ["You hold Treason", "Lancaster secret"]
    kept = L.readable_entries(log, "Lancaster")
    assert kept == [log[0], log[1], log[3], log[5]]
    assert all(e is f for e, f in zip(kept, [log[0], log[1], log[3], log[5]], strict=True))
    assert not L.readable(["Lancaster", "x", "card"], "York")
    assert L.readable(["", "x", "move"], "York")
