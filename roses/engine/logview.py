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
from collections.abc import Sequence
from typing import Any, Final

from roses.engine.log import PUBLIC
from roses.engine.memo import current_entries as _memo_entries

#: How many log lines a view carries.
LOG_WINDOW: Final = 30

#: For how many (log, window size) the windows of the roles are kept, outside a game's memo.
CACHED_LOGS: Final = 256
#: For how many a game's memo keeps them (roses.engine.memo): its log, and the logs an undo
#: left behind.
GAME_LOGS: Final = 16

#: A role's window: its lines, their kinds, whether it has older lines.
Window = tuple[list[str], list[str], bool]
#: (id(log), window) -> (log, {role: (the log's length then, its last entry then, the role's window)})
_Kept = tuple[list[Any], dict[str, tuple[int, Any, Window]]]
_kept: dict[tuple[int, int], _Kept] = {}


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
    return shared_recent_logs(log, (role,), window)[0]


def shared_recent_logs(log: list[Any], roles: Sequence[str], window: int = LOG_WINDOW) -> list[Window]:
    """:func:`shared_recent_log` of each of ``roles`` (the views of every role are rendered
    together after an action): the lines appended since the kept windows are read once."""
    n = len(log)
    last = log[n - 1] if n else None
    key = (id(log), window)
    entries = _memo_entries()
    if entries is None:
        windows: dict[tuple[int, int], _Kept] = _kept
    else:
        in_memo: dict[tuple[int, int], _Kept] | None = entries.get("logview")
        if in_memo is None:
            windows = entries["logview"] = {}
        else:
            windows = in_memo
            if len(windows) >= GAME_LOGS and key not in windows:
                windows.clear()  # logs left behind by undos
    kept = windows.get(key)
    if kept is not None and kept[0] is log:
        per_role = kept[1]
    else:
        per_role = {}
        if windows is _kept and len(_kept) >= CACHED_LOGS and key not in _kept:
            # the logs kept first, down to the bound again even where threads inserting at once
            # went past it; the cache may have been emptied or changed by another thread
            with contextlib.suppress(StopIteration, KeyError, RuntimeError):
                while len(_kept) >= CACHED_LOGS:
                    del _kept[next(iter(_kept))]
        windows[key] = (log, per_role)
    out: list[Window] = []
    # the entries appended since the oldest kept window that grows, read once for every role:
    # (who may read it, None for everybody; its text; its kind), from log[start:]
    appended: list[tuple[str | None, str, str]] = []
    start = n
    for role in roles:
        mine = per_role.get(role)
        if mine is not None:
            m, m_last, win = mine
            if m == n and (n == 0 or last is m_last):
                out.append(win)
                continue
            if m < n and (m == 0 or log[m - 1] is m_last):
                if m < start:
                    appended = [_read(entry) for entry in log[m:start]] + appended
                    start = m
                # the lines appended since, oldest first, added to (new copies of) the kept lists
                lines, kinds, more = win
                copied = False
                for who, text, kind in appended[m - start:] if m > start else appended:
                    if who is not None and who != role:
                        continue
                    if not copied:
                        lines, kinds, copied = lines[:], kinds[:], True
                    lines.append(text)
                    kinds.append(kind)
                if len(lines) > window:
                    del lines[:-window]
                    del kinds[:-window]
                    more = True
                win = (lines, kinds, more)
            else:
                win = _scan(log, role, window, 0)
        else:
            win = _scan(log, role, window, 0)
        per_role[role] = (n, last, win)
        out.append(win)
    return out


def _read(entry: Any) -> tuple[str | None, str, str]:
    """(the role that may read ``entry``, None for everybody; its text; its kind)."""
    if isinstance(entry, str):
        return None, entry, ""
    who = entry[0]
    return (None if who == PUBLIC else who), str(entry[1]), str(entry[2] or "") if len(entry) >= 3 else ""


def log_view(log: list[Any], role: str, window: int = LOG_WINDOW) -> dict[str, Any]:
    """``{"log": [...], "log_kinds": [...], "log_more": bool}``, ready to merge into a view."""
    lines, kinds, more = recent_log(log, role, window)
    return {"log": lines, "log_kinds": kinds, "log_more": more}
