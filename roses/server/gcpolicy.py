"""Garbage collection for a server that holds many games in memory.

CPython's cyclic collector scans every tracked object of the process at each collection of
its oldest generation. A server with hundreds of games in its cache holds millions of such
objects (each game's state is lists and dicts), so those full collections stop every thread
for most of a second, and they come every few seconds when the server is busy: measured with
500 Richard III games, 19 full collections of 0.7-0.9 s in two minutes, each collecting a
handful of objects. They made the slowest 1 % of actions take a second while the median took
20 ms (bench/server.md).

The policy installed by :func:`install`: what start-up made is moved out of the collector's
sight (``gc.freeze``: modules, rules data, settings live as long as the process); the two
young generations are collected as usual, so short-lived cycles (a failed request's
traceback, a closed socket's tasks) are freed within moments; the oldest generation is
collected by a thread every ``full_every`` seconds (``ROSES_GC_FULL_SECONDS``, 600 by
default) instead of whenever it has grown by a quarter: one long pause in that period
instead of one every few seconds. Nothing changes for objects freed by their reference
counts (a game's state, a request's data: no cycles), which is how almost everything here
is freed; a cycle that lived long enough to reach the oldest generation is freed at the
next periodic collection. ``ROSES_GC_FULL_SECONDS=0`` keeps CPython's own behaviour.
"""

from __future__ import annotations

import gc
import os
import threading

#: The default period of thorough collections, seconds.
FULL_EVERY = 600.0

_lock = threading.Lock()
_installed: tuple[threading.Event, threading.Thread, tuple[int, int, int]] | None = None


def full_every_from_env() -> float:
    """``ROSES_GC_FULL_SECONDS`` (seconds; 0 or less: no policy), :data:`FULL_EVERY` if unset."""
    raw = os.environ.get("ROSES_GC_FULL_SECONDS", "").strip()
    if not raw:
        return FULL_EVERY
    try:
        return float(raw)
    except ValueError as exc:
        raise ValueError(f"ROSES_GC_FULL_SECONDS must be a number of seconds, not {raw!r}") from exc


#: The oldest generation's threshold under the policy: never reached in practice (the
#: periodic thread collects it).
NEVER = 1 << 30


def install(full_every: float | None = None) -> bool:
    """Install the policy in this process (once; later calls change nothing). Returns
    whether it is installed (False when ``full_every`` is 0 or less)."""
    global _installed
    period = full_every_from_env() if full_every is None else full_every
    if period <= 0:
        return False
    with _lock:
        if _installed is not None:
            return True
        stop = threading.Event()
        saved = gc.get_threshold()
        young0, young1, _ = saved

        def collect_now_and_then() -> None:
            while not stop.wait(period):
                gc.collect()

        thread = threading.Thread(target=collect_now_and_then, name="roses-gc", daemon=True)
        _installed = (stop, thread, saved)
        gc.freeze()
        gc.set_threshold(young0, young1, NEVER)
        thread.start()
        return True


def installed() -> bool:
    return _installed is not None


def uninstall() -> None:
    """Remove the policy: CPython's thresholds again, every frozen object handed back to the
    collector (tests)."""
    global _installed
    with _lock:
        if _installed is not None:
            stop, thread, saved = _installed
            stop.set()
            thread.join(5)
            gc.set_threshold(*saved)
            _installed = None
        gc.unfreeze()
