"""Game log entries, their kinds and their redaction.

A log entry is stored in the state (``state["log"]``) in one of three forms:

* a plain string ``text``: a public line, no kind;
* a two-item list ``[role, text]``: a line only ``role`` may read, no kind;
* a three-item list ``[role, text, kind]``: a line with a kind; ``role`` is ``""`` for a
  public line (everyone, observers included, may read it).

The first two are the forms games have always stored; :func:`public` and :func:`private`
still store exactly them when no kind is given, so stored games replay byte-identically.

The kind says what a line is about, so that clients can present lines (colour, icons,
filters) without reading their English text. Kinds are short lowercase words; the common
ones are the constants below. A game may use another word that matches
``[a-z][a-z0-9_-]*`` (it becomes the CSS class ``log-<kind>`` in the web client).

=============  ==============================================================
``TURN``       a new turn, round, campaign or phase begins
``SETUP``      setting up, deployment before play
``CARD``       cards dealt, played, revealed, discarded
``EVENT``      a card event or special rule taking effect
``MOVE``       movement, sea moves, retreats, regrouping
``BATTLE``     battles: rounds, rolls, hits, losses, treachery
``SUPPLY``     supply, attrition, plague, disbanding for limits
``RECRUIT``    recruiting, mustering, new blocks entering
``POLITICAL``  succession, crowns, executions, parliament, usurpation
``RESULT``     the end of the game: victory, resignation, time-out
=============  ==============================================================

Rules modules append entries with :func:`public` and :func:`private`. Readers never look
inside entries themselves: :func:`visible_log` (texts) and :func:`visible_entries`
(texts with kinds) give what a role may read; :func:`readable`, :func:`entry_text` and
:func:`entry_kind` take one entry apart; :func:`readable_entries` keeps the stored entries
a role may read (for determinisation).
"""

from __future__ import annotations

import re
from typing import Any, Final

State = dict[str, Any]
LogEntry = str | list[str]

TURN: Final = "turn"
SETUP: Final = "setup"
CARD: Final = "card"
EVENT: Final = "event"
MOVE: Final = "move"
BATTLE: Final = "battle"
SUPPLY: Final = "supply"
RECRUIT: Final = "recruit"
POLITICAL: Final = "political"
RESULT: Final = "result"

#: The common kinds (a game may use others of the same shape, see :data:`KIND_PATTERN`).
KINDS: Final = (TURN, SETUP, CARD, EVENT, MOVE, BATTLE, SUPPLY, RECRUIT, POLITICAL, RESULT)

#: What a kind must look like (it is used as part of a CSS class name by the web client).
KIND_PATTERN: Final = re.compile(r"[a-z][a-z0-9_-]*\Z")

_KNOWN_KINDS: Final = frozenset((TURN, SETUP, CARD, EVENT, MOVE, BATTLE, SUPPLY, RECRUIT, POLITICAL, RESULT))

#: The role field of a public line that has a kind.
PUBLIC: Final = ""


def _check_kind(kind: str) -> None:
    if kind in _KNOWN_KINDS:
        return
    if not isinstance(kind, str) or not KIND_PATTERN.match(kind):
        raise ValueError(f"bad log kind {kind!r}: a lowercase word such as {BATTLE!r}")


def public(state: State, text: str, kind: str | None = None) -> None:
    """Append a line everyone may read (with ``kind`` when given)."""
    if kind:
        if kind not in _KNOWN_KINDS:
            _check_kind(kind)
        state["log"].append([PUBLIC, text, kind])
    else:
        state["log"].append(text)


def private(state: State, role: str, text: str, kind: str | None = None) -> None:
    """Append a line only ``role`` may read (with ``kind`` when given)."""
    if kind:
        if kind not in _KNOWN_KINDS:
            _check_kind(kind)
        state["log"].append([role, text, kind])
    else:
        state["log"].append([role, text])


def readable(entry: Any, role: str) -> bool:
    """Whether ``role`` may read ``entry`` (a public line, or a private line of ``role``)."""
    if isinstance(entry, str):
        return True
    return entry[0] == role or entry[0] == PUBLIC


def entry_text(entry: Any) -> str:
    """The text of an entry, whatever its form."""
    return entry if isinstance(entry, str) else str(entry[1])


def entry_kind(entry: Any) -> str:
    """The kind of an entry, ``""`` when it has none."""
    if isinstance(entry, str) or len(entry) < 3:
        return ""
    return str(entry[2] or "")


def visible_log(log: list[Any], role: str, start: int = 0) -> list[str]:
    """The log lines ``role`` may read, from entry ``start`` on."""
    return [entry_text(e) for e in log[start:] if readable(e, role)]


def visible_entries(log: list[Any], role: str, start: int = 0) -> list[tuple[str, str]]:
    """``(text, kind)`` of the log lines ``role`` may read, from entry ``start`` on (kind
    ``""`` for a line without one)."""
    return [(entry_text(e), entry_kind(e)) for e in log[start:] if readable(e, role)]


def readable_entries(log: list[Any], role: str) -> list[Any]:
    """The stored entries ``role`` may read, unchanged (the others are dropped)."""
    return [e for e in log if readable(e, role)]
