"""The recent part of the log a view carries.

A view does not carry the whole log (it grows with the game and is sent after every action):
it carries the last :data:`LOG_WINDOW` lines its role may read (``log``), their kinds
(``log_kinds``, parallel, ``""`` for a line without one; see :mod:`roses.engine.log`) and
``log_more``, whether older lines the role may read exist. The whole log stays available
through ``rules.log_for(state, role)``.

Views are rendered after every action, for every role, so the windows of the logs seen last
are kept: in the game's memo (:mod:`roses.engine.memo`) while a game renders its views, else
:data:`CACHED_LOGS` of them for all the states rendered outside a game. A log only ever grows
(entries are appended, never changed: :mod:`roses.engine.log`), so a kept window is reused
while its log has not changed and extended with the lines appended since. A kept window holds
its log list itself, and is used only for that very list, whose last entry it checks.
"""

from __future__ import annotations

import contextlib
from typing import Any

from roses.engine.log import PUBLIC
from roses.engine.memo import current_entries as _memo_entries

#: How many log lines a view carries.
LOG_WINDOW = 30

#: How many (log, role, window) windows are kept, outside a game's memo.
CACHED_LOGS = 256
#: How many a game's memo keeps (roses.engine.memo): a role's window of its log, and of the
#: logs an undo left behind.
GAME_LOGS = 16

#: (id(log), role, window) -> (log, its length then, its last entry then, lines, kinds, more)
_Kept = tuple[list[Any], int, Any, list[str], list[str], bool]
_kept: dict[tuple[int, str, int], _Kept] = {}


def _scan(log: list[Any], role: str, window: int, stop: int) -> tuple[list[str], list[str], bool]:
    """The last ``window`` lines ``role`` may read among ``log[stop:]`` (oldest first), their
    kinds, and whether an earlier line ``role`` may read exists in ``log[stop:]``."""
    # readable / entry_text / entry_kind of roses.engine.log, inlined: this runs for every view.
    lines: list[str] = []
    kinds: list[str] = []
    i = len(log) - 1
    while i >= stop and len(lines) < window:
        entry = log[i]
        i -= 1
        if isinstance(entry, str):
            lines.append(entry)
            kinds.append("")
        elif entry[0] == role or entry[0] == PUBLIC:
            lines.append(str(entry[1]))
            kinds.append(str(entry[2] or "") if len(entry) >= 3 else "")
    lines.reverse()
    kinds.reverse()
    more = False
    while i >= stop:  # stops at the first older line the role may read
        entry = log[i]
        if isinstance(entry, str) or entry[0] == role or entry[0] == PUBLIC:
            more = True
            break
        i -= 1
    return lines, kinds, more


def recent_log(log: list[Any], role: str, window: int = LOG_WINDOW) -> tuple[list[str], list[str], bool]:
    """The last ``window`` lines of ``log`` that ``role`` may read (oldest first), their kinds,
    and whether an earlier line ``role`` may read exists. The lists are the caller's own."""
    lines, kinds, more = shared_recent_log(log, role, window)
    return lines[:], kinds[:], more


def shared_recent_log(log: list[Any], role: str, window: int = LOG_WINDOW) -> tuple[list[str], list[str], bool]:
    """:func:`recent_log` without copies: the lists are the kept window's, shared with every
    other caller, so they must be read only (a view whose parts are all read only)."""
    n = len(log)
    key = (id(log), role, window)
    entries = _memo_entries()
    if entries is None:
        windows: dict[tuple[int, str, int], _Kept] = _kept
    else:
        in_memo: dict[tuple[int, str, int], _Kept] | None = entries.get("logview")
        if in_memo is None:
            windows = entries["logview"] = {}
        else:
            windows = in_memo
            if len(windows) >= GAME_LOGS and key not in windows:
                windows.clear()  # logs left behind by undos
    kept = windows.get(key)
    if kept is not None and kept[0] is log:
        m, last = kept[1], kept[2]
        if m == n and (n == 0 or log[n - 1] is last):
            return kept[3], kept[4], kept[5]
        if m < n and (m == 0 or log[m - 1] is last):
            # the lines appended since, oldest first, added to (new copies of) the kept lists
            lines, kinds, more = kept[3], kept[4], kept[5]
            copied = False
            for entry in log[m:]:
                if isinstance(entry, str):
                    text, kind = entry, ""
                elif entry[0] == role or entry[0] == PUBLIC:
                    text = str(entry[1])
                    kind = str(entry[2] or "") if len(entry) >= 3 else ""
                else:
                    continue
                if not copied:
                    lines, kinds, copied = lines[:], kinds[:], True
                lines.append(text)
                kinds.append(kind)
            if len(lines) > window:
                del lines[:-window]
                del kinds[:-window]
                more = True
        else:
            lines, kinds, more = _scan(log, role, window, 0)
    else:
        lines, kinds, more = _scan(log, role, window, 0)
    if windows is _kept and len(_kept) >= CACHED_LOGS and key not in _kept:
        # the window kept first; the cache may have been emptied or changed by another thread
        with contextlib.suppress(StopIteration, KeyError, RuntimeError):
            del _kept[next(iter(_kept))]
    windows[key] = (log, n, log[n - 1] if n else None, lines, kinds, more)
    return lines, kinds, more


def log_view(log: list[Any], role: str, window: int = LOG_WINDOW) -> dict[str, Any]:
    """``{"log": [...], "log_kinds": [...], "log_more": bool}``, ready to merge into a view."""
    lines, kinds, more = recent_log(log, role, window)
    return {"log": lines, "log_kinds": kinds, "log_more": more}
