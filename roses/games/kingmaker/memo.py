"""A per-thread memo of what is derived from one Kingmaker state: the legal actions of each
role, the public part of the views and the secrets of each role; and the parts of the public
view kept from one position to the next while what they are made from is the same (:func:`kept`).

A server or the fuzzer asks, for one position, every role's view (each lists the actor's
legal actions and the published default, itself found from the legal actions), then the
legal actions again to pick or check a move. Building the options of a Kingmaker turn means
walking every noble's moves, every deal and every card award, so they are built once per
position and reused.

The memo holds one state at a time, by identity, and is dropped whenever the engine applies
an action (``KingmakerSteps.acting``, the engine's context of every action). As a guard against a state changed by hand (tests rig
positions), every lookup also compares the card and event zones, the nobles', ships' and
heirs' state, captured and besieged places and commands with copies made when the memo was
started, and the turn counters, the log length and the top frame with theirs; a change there
drops the memo too. Code that changes anything else
by hand between two questions about one state calls :func:`forget`.
Nothing memoised is read while an action is being applied.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

from roses.engine.contract import State


class _Memo(threading.local):
    def __init__(self) -> None:
        self.state: State | None = None
        #: the state's counters and copies of its fields, as when the tables were started
        self.stamp: tuple[Any, ...] | None = None
        self.copies: list[Any] = []
        self.tables: dict[Any, Any] = {}
        self.busy = 0
        #: parts kept from one position to the next (:func:`kept`), by name
        self.kept: dict[str, tuple[Any, tuple[Any, ...], Any]] = {}


_MEMO = _Memo()
T = TypeVar("T")


#: The fields a change by hand is looked for in (with the counters of :func:`_stamp`): lists
#: and dicts, compared with copies kept when the tables were started.
_WATCHED = ("cz", "ch", "nsq", "nin", "ncap", "nship", "spos", "sctl", "ez", "eh", "hdead", "hcrown",
            "pown", "siege", "command")


def _stamp(state: State) -> tuple[Any, ...]:
    stack = state["stack"]
    return (len(state["log"]), id(stack[-1]) if stack else 0, len(stack), state["result"],
            state["round"], state["turn"], state["tno"], state["catastrophe"])


def tables(state: State) -> dict[Any, Any] | None:
    """The memo of ``state`` (a dict to fill), or None while an action is being applied."""
    m = _MEMO
    if m.busy:
        return None
    stamp = _stamp(state)
    if m.state is state and m.stamp == stamp:
        for name, copy in zip(_WATCHED, m.copies, strict=True):
            if state[name] != copy:
                break
        else:
            return m.tables
    m.state, m.stamp, m.tables = state, stamp, {}
    m.copies = [state[name].copy() for name in _WATCHED]
    return m.tables


def memoised(state: State, key: Any, build: Callable[[], T]) -> T:
    """The memoised value ``key`` of ``state``, built by ``build()`` when absent (and always
    while an action is being applied)."""
    t = tables(state)
    if t is None:
        return build()
    value = t.get(key)
    if value is None:
        value = t[key] = build()
    return cast(T, value)


def kept(name: str, world: Any, key: tuple[Any, ...], build: Callable[[], T]) -> T:
    """The part ``name`` made by ``build()``, or the one this thread made last for the same
    ``world`` (by identity) and an equal ``key``, which must hold everything the part is made
    from. Unlike the memo of one position, a kept part outlives actions: it serves the next
    positions while they do not change what it is made from (most moves change few of the
    fields the public view reads). Made afresh while an action is being applied. With
    ``build=dict``, a table to keep parts in item by item (each with what it was made from,
    checked by the caller)."""
    m = _MEMO
    if m.busy:
        return build()
    hit = m.kept.get(name)
    if hit is not None and hit[0] is world and hit[1] == key:
        return cast(T, hit[2])
    value = build()
    m.kept[name] = (world, key, value)
    return value


def forget() -> None:
    """Drop the memo (an action is applied, or a state is about to change by hand)."""
    m = _MEMO
    m.state, m.stamp, m.copies, m.tables = None, None, [], {}


class applying:
    """Context manager around the application of an action: no memo is read or written inside,
    and the memo is dropped on both sides."""

    def __enter__(self) -> None:
        forget()
        _MEMO.busy += 1

    def __exit__(self, *exc: object) -> None:
        _MEMO.busy -= 1
        forget()
