"""The recent part of the log a view carries.

A view does not carry the whole log (it grows with the game and is sent after every action):
it carries the last :data:`LOG_WINDOW` lines its role may read and ``log_more``, whether older
ones exist. The whole log stays available through ``rules.log_for(state, role)``.

Entries are those of :mod:`roses.engine.log`: a plain string for everyone, ``[role, text]`` for
``role`` alone, or ``[role, text, kind]`` (role ``""`` for everyone).
"""

from __future__ import annotations

from typing import Any

#: How many log lines a view carries.
LOG_WINDOW = 30


def _readable(entry: Any, role: str) -> bool:
    return isinstance(entry, str) or entry[0] == role or entry[0] == ""


def recent_log(log: list[Any], role: str, window: int = LOG_WINDOW) -> tuple[list[str], bool]:
    """The last ``window`` lines of ``log`` that ``role`` may read, oldest first, and whether
    earlier lines ``role`` may read exist (the view's ``log_more``)."""
    out: list[str] = []
    i = len(log) - 1
    while i >= 0 and len(out) < window:
        entry = log[i]
        if _readable(entry, role):
            out.append(entry if isinstance(entry, str) else str(entry[1]))
        i -= 1
    out.reverse()
    # An older line counts only if the role may read it.
    more = any(_readable(log[j], role) for j in range(i, -1, -1))
    return out, more


def log_view(log: list[Any], role: str, window: int = LOG_WINDOW) -> dict[str, Any]:
    """``{"log": [...], "log_more": bool}``, ready to merge into a view."""
    lines, more = recent_log(log, role, window)
    return {"log": lines, "log_more": more}
