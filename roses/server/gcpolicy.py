"""Garbage collection for a server that holds many games in memory.

CPython's cyclic collector scans every tracked object of the process at each collection of
its oldest generation. A server with hundreds of games in its cache holds millions of such
objects (each game's state is lists and dicts), so those full collections stop every thread
for most of a second, and they come every few seconds when the server is busy: measured with
500 Richard III games, 19 full collections of 0.7-0.9 s in two minutes, each collecting a
handful of objects. They made the slowest 1 % of actions take a second while the median took
20 ms (bench/server.md).

The middle generation costs too. CPython collects the youngest generation whenever 700 more
container objects were made than freed, and the middle one at every tenth of those. An action
makes thousands of them (its views are dicts and lists), so a busy server collected the
youngest generation several times per action, each time moving what was alive at that moment
(a view being built, a state being copied) to the middle one, whose collections scanned all
of it again: measured in a 50-game run without think time, 1,500 young and 137 middle
collections, and the server 12-15 % faster without the middle ones (bench/server.md).

The policy installed by :func:`install`: what start-up made is moved out of the collector's
sight (``gc.freeze``: modules, rules data, settings live as long as the process); the
youngest generation is collected as CPython does, when ``young`` objects
(``ROSES_GC_YOUNG``, :data:`YOUNG` by default) have accumulated, so short-lived cycles (a
failed request's traceback, a closed socket's tasks) are freed within moments; the middle
and oldest generations are collected together by a thread every ``full_every`` seconds
(``ROSES_GC_FULL_SECONDS``, 600 by default) instead of whenever they have grown: one long
pause in that period instead of one every few seconds. Nothing changes for objects freed by
their reference counts (a game's state, a request's data: no cycles), which is how almost
everything here is freed; a cycle that outlived one young collection is freed at the next
periodic one. ``ROSES_GC_FULL_SECONDS=0`` keeps CPython's own behaviour.
"""

from __future__ import annotations

import gc
import os
import threading

#: The default period of thorough collections, seconds.
FULL_EVERY = 600.0
#: The default threshold of the youngest generation, objects: CPython's own. A young
#: collection scans what accumulated, so a larger threshold means fewer and longer pauses:
#: 5,000 took 2-5 % less CPU than 700 in the server's benchmarks, but paused the server up to
#: 0.2 s against 0.05 s (bench/server.md).
YOUNG = 700

_lock = threading.Lock()
_installed: tuple[threading.Event, threading.Thread, tuple[int, int, int]] | None = None


def _number(var: str, default: float, unit: str) -> float:
    raw = os.environ.get(var, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError as exc:
        raise ValueError(f"{var} must be a number of {unit}, not {raw!r}") from exc


def young_from_env() -> int:
    """``ROSES_GC_YOUNG`` (objects; 0 or less: CPython's threshold), :data:`YOUNG` if unset."""
    return int(_number("ROSES_GC_YOUNG", YOUNG, "objects"))


def full_every_from_env() -> float:
    """``ROSES_GC_FULL_SECONDS`` (seconds; 0 or less: no policy), :data:`FULL_EVERY` if unset."""
    return _number("ROSES_GC_FULL_SECONDS", FULL_EVERY, "seconds")


#: The middle and oldest generations' threshold under the policy: never reached in practice
#: (the periodic thread collects them).
NEVER = 1 << 30


def install(full_every: float | None = None, young: int | None = None) -> bool:
    """Install the policy in this process (once; later calls change nothing). Returns
    whether it is installed (False when ``full_every`` is 0 or less: then nothing changes,
    ``young`` included). ``young`` 0 or less keeps CPython's threshold of the youngest
    generation."""
    global _installed
    period = full_every_from_env() if full_every is None else full_every
    if period <= 0:
        return False
    wanted = young_from_env() if young is None else young
    with _lock:
        if _installed is not None:
            return True
        stop = threading.Event()
        saved = gc.get_threshold()

        def collect_now_and_then() -> None:
            while not stop.wait(period):
                gc.collect()

        thread = threading.Thread(target=collect_now_and_then, name="roses-gc", daemon=True)
        _installed = (stop, thread, saved)
        gc.freeze()
        gc.set_threshold(wanted if wanted > 0 else saved[0], NEVER, NEVER)
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
