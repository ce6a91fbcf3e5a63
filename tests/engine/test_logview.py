"""The recent log window of a view (roses.engine.logview): kept windows give the same lines as
reading the log afresh, whatever was appended, for every role."""

from __future__ import annotations

import random
from typing import Any

from roses.engine import logview
from roses.engine.log import PUBLIC, entry_kind, entry_text, readable
from roses.engine.logview import (
    CACHED_LOGS,
    LOG_WINDOW,
    recent_log,
    shared_recent_log,
    shared_recent_logs,
)


def _fresh(log: list[Any], role: str, window: int) -> tuple[list[str], list[str], bool]:
    """The window by definition: the role's readable lines, the last ``window`` of them."""
    mine = [(entry_text(e), entry_kind(e)) for e in log if readable(e, role)]
    last = mine[-window:] if window else []
    return [t for t, _ in last], [k for _, k in last], len(mine) > len(last)


def _entry(r: random.Random, i: int) -> Any:
    kind = r.choice(["", "move", "battle"])
    who = r.choice([PUBLIC, PUBLIC, "A", "B"])
    form = r.randrange(3)
    if form == 0 and who == PUBLIC:
        return f"line {i}"
    if form == 1 or not kind:
        return [who, f"line {i}"]
    return [who, f"line {i}", kind]


def test_kept_windows_match_a_fresh_reading() -> None:
    r = random.Random(5)
    logs: list[list[Any]] = [[] for _ in range(4)]
    for i in range(3000):
        log = logs[r.randrange(len(logs))]
        for _ in range(r.choice([0, 0, 1, 2, 5, 40])):
            log.append(_entry(r, i))
        for role in ("A", "B", "Observer"):
            window = r.choice([logview.LOG_WINDOW, 3, 1])
            assert recent_log(log, role, window) == _fresh(log, role, window), (i, role, window)


def test_a_copied_log_and_a_changed_last_entry_are_read_afresh() -> None:
    log: list[Any] = [[PUBLIC, f"line {i}", "move"] for i in range(50)]
    assert recent_log(log, "A")[0][-1] == "line 49"
    copy = log[:]
    copy.append("line 50")
    assert recent_log(copy, "A")[0][-1] == "line 50"
    assert recent_log(log, "A")[0][-1] == "line 49"
    log[-1] = "replaced"  # not what a log does, but never served stale
    assert recent_log(log, "A")[0][-1] == "replaced"


def test_returned_lists_are_the_callers_own() -> None:
    log: list[Any] = ["a", "b"]
    lines, kinds, _ = recent_log(log, "A")
    lines.append("mutated")
    kinds.clear()
    assert recent_log(log, "A") == (["a", "b"], ["", ""], False)


def test_shared_windows_are_the_kept_lists_and_read_the_same() -> None:
    """shared_recent_log gives what recent_log gives, as the kept lists themselves (views
    share them: they are read only), and a caller changing its copies reaches neither."""
    r = random.Random(9)
    log: list[Any] = []
    given: list[tuple[list[str], list[str], list[str], list[str]]] = []  # lists given out, and copies
    for i in range(400):
        for _ in range(r.choice([0, 1, 1, 3])):
            log.append(_entry(r, i))
        for role in ("A", "B"):
            lines, kinds, more = shared_recent_log(log, role)
            given.append((lines, kinds, lines[:], kinds[:]))
            assert (lines, kinds, more) == _fresh(log, role, LOG_WINDOW)
            again = shared_recent_log(log, role)
            assert again[0] is lines and again[1] is kinds
            mine = recent_log(log, role)
            mine[0].append("changed")
            mine[1].clear()
            assert shared_recent_log(log, role) == _fresh(log, role, LOG_WINDOW)
    # the windows given out earlier are as they were: a longer log makes new lists
    assert all(lines == lines_then and kinds == kinds_then for lines, kinds, lines_then, kinds_then in given)


def test_the_number_of_kept_windows_is_bounded() -> None:
    logs = [[f"log {i}"] for i in range(CACHED_LOGS * 2)]
    for log in logs:
        recent_log(log, "A")
    assert len(logview._kept) <= CACHED_LOGS


def test_windows_of_several_roles_read_together_match_a_fresh_reading() -> None:
    """shared_recent_logs reads the lines appended since for every role asked at once: each
    window is the role's own, whichever roles were asked before (some windows kept from longer
    ago than others, some not kept) and in whatever order."""
    r = random.Random(13)
    logs: list[list[Any]] = [[] for _ in range(3)]
    roles = ["A", "B", "C", "Observer"]
    for i in range(2000):
        log = logs[r.randrange(len(logs))]
        for _ in range(r.choice([0, 1, 1, 2, 4, 35])):
            log.append(_entry(r, i))
        asked = r.sample(roles, r.randint(1, len(roles)))
        window = r.choice([LOG_WINDOW, LOG_WINDOW, 4])
        got = shared_recent_logs(log, asked, window)
        assert got == [_fresh(log, role, window) for role in asked], (i, asked, window)
        assert got == [shared_recent_log(log, role, window) for role in asked]


def test_the_kept_windows_come_back_within_the_bound_after_going_past_it() -> None:
    """Threads keeping windows at once may each see room for one more and go past the bound;
    the next log kept brings the cache back within it."""
    logview._kept.clear()
    past = [[f"past {i}"] for i in range(CACHED_LOGS + 5)]
    for log in past:  # as threads inserting at once would leave it
        logview._kept[(id(log), LOG_WINDOW)] = (log, {})
    fresh = [[f"log {i}"] for i in range(3)]
    for log in fresh:
        recent_log(log, "A")
    assert len(logview._kept) <= CACHED_LOGS
    assert all((id(log), LOG_WINDOW) in logview._kept for log in fresh)
