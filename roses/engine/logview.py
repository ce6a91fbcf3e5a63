"""The recent part of the log a view carries.

A view does not carry the whole log (it grows with the game and is sent after every action):
it carries the last :data:`LOG_WINDOW` lines its role may read (``log``), their kinds
(``log_kinds``, parallel, ``""`` for a line without one; see :mod:`roses.engine.log`) and
``log_more``, whether older lines the role may read exist. The whole log stays available
through ``rules.log_for(state, role)``.
"""

from __future__ import annotations

from typing import Any

from roses.engine.log import entry_kind, entry_text, readable

#: How many log lines a view carries.
LOG_WINDOW = 30


def recent_log(log: list[Any], role: str, window: int = LOG_WINDOW) -> tuple[list[str], list[str], bool]:
    """The last ``window`` lines of ``log`` that ``role`` may read (oldest first), their kinds,
    and whether an earlier line ``role`` may read exists."""
    lines: list[str] = []
    kinds: list[str] = []
    i = len(log) - 1
    while i >= 0 and len(lines) < window:
        entry = log[i]
        if readable(entry, role):
            lines.append(entry_text(entry))
            kinds.append(entry_kind(entry))
        i -= 1
    lines.reverse()
    kinds.reverse()
    more = False
    while i >= 0:  # stops at the first older line the role may read
        if readable(log[i], role):
            more = True
            break
        i -= 1
    return lines, kinds, more


def log_view(log: list[Any], role: str, window: int = LOG_WINDOW) -> dict[str, Any]:
    """``{"log": [...], "log_kinds": [...], "log_more": bool}``, ready to merge into a view."""
    lines, kinds, more = recent_log(log, role, window)
    return {"log": lines, "log_kinds": kinds, "log_more": more}
