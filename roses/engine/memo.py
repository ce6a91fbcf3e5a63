"""A memo that belongs to one game, for the caches rules keep of what they derive from a state.

Rules keep caches of what they derive from a state to render views, such as the windows of the
log (:mod:`roses.engine.logview`).
The next view, made after a small change, then only redoes what the change touched. Kept per
thread, such a cache serves the game its thread rendered last. A server renders hundreds of
games in a pool of threads, so the cache of the thread that renders a game's next view almost
always belongs to another game: every view is made afresh.

So a :class:`roses.engine.game.Game` holds a :class:`Memo` of its own and makes it the current
one while its rules render a view (:meth:`Memo.scope`). The rules ask :func:`current` for it and
use their per-thread caches when there is none (a state rendered outside a ``Game``: the
fuzzer, the search, the tests).

What a memo holds is derived from the game's states only and is checked against the state at
every use, like the per-thread caches it replaces; so a memo is never wrong, only cold. One
thread at a time uses a memo: :meth:`Memo.scope` takes its lock without waiting, and a thread
that finds it taken renders without it (with its own cache).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextvars import ContextVar, Token
from typing import Any, TypeVar

T = TypeVar("T")

_current: ContextVar[dict[str, Any] | None] = ContextVar("roses_game_memo", default=None)


class Memo:
    """The caches of one game, by name (each rules module picks names of its own)."""

    __slots__ = ("_lock", "entries")

    def __init__(self) -> None:
        self.entries: dict[str, Any] = {}
        self._lock = threading.Lock()

    def scope(self) -> _Scope:
        """Make this memo the current one in this thread while the block runs (or none, if
        another thread is inside a scope of it)."""
        return _Scope(self)


class _Scope:
    """The context of :meth:`Memo.scope` (a class, not a generator: it runs at every view)."""

    __slots__ = ("_held", "_memo", "_token")

    def __init__(self, memo: Memo) -> None:
        self._memo = memo
        self._held = False
        self._token: Token[dict[str, Any] | None] | None = None

    def __enter__(self) -> None:
        memo = self._memo
        self._held = memo._lock.acquire(blocking=False)
        self._token = _current.set(memo.entries if self._held else None)

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _current.reset(self._token)
            self._token = None
        if self._held:
            self._held = False
            self._memo._lock.release()


def current() -> dict[str, Any] | None:
    """The current game's memo (a dict to keep caches in, by name), or None outside
    :meth:`Memo.scope`."""
    return _current.get()


#: :func:`current` without the call of a Python function, for code that runs at every view.
current_entries: Callable[[], dict[str, Any] | None] = _current.get


def kept(name: str, make: Callable[[], T]) -> T | None:
    """The current game's cache ``name`` (made by ``make()`` the first time), or None outside
    :meth:`Memo.scope`."""
    memo = _current.get()
    if memo is None:
        return None
    value = memo.get(name)
    if value is None:
        value = memo[name] = make()
    return value
