"""Game log entries and their redaction.

A log entry is either a plain string, which every role and observers may read, or a
two-item list ``[role, text]`` that only ``role`` may read. Rules modules append entries with
:func:`public` and :func:`private`; views take them with :func:`visible_log`.
"""

from __future__ import annotations

from typing import Any

State = dict[str, Any]
LogEntry = str | list[str]


def public(state: State, text: str) -> None:
    state["log"].append(text)


def private(state: State, role: str, text: str) -> None:
    state["log"].append([role, text])


def visible_log(log: list[Any], role: str, start: int = 0) -> list[str]:
    """The log lines ``role`` may read, from entry ``start`` on."""
    out: list[str] = []
    for entry in log[start:]:
        if isinstance(entry, str):
            out.append(entry)
        elif entry[0] == role:
            out.append(entry[1])
    return out
