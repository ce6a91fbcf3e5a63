"""Arenas on a cluster: the games of ``roses arena`` as tasks on Ray.

``roses arena ... --cluster ADDRESS`` hands every game to Ray (``ray.init(address=ADDRESS)``:
``auto`` for the cluster this machine belongs to, ``ray://HOST:10001`` for a remote one,
``local`` for a Ray instance started in this process). Each game is the same function with the
same arguments as in a local run (:func:`roses.ai.arena._arena_game`: the game's seed comes from
the arena's seed and the game's number), and the outcomes are counted in game order, so the
report is the local run's (but for times). The machines of the cluster need the same version of
``roses`` installed (``pip install roses[cluster]``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

#: Games handed to Ray at once at most: the outcomes are read in order while the rest run.
WINDOW = 256


def ray_map(fn: Callable[[Any], Any], tasks: Sequence[Any], address: str) -> Iterator[Any]:
    """``fn(task)`` for every task, run as Ray tasks, yielded in the order of ``tasks``."""
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - the extra is part of the lock file
        raise SystemExit("--cluster needs Ray: pip install 'roses[cluster]'") from exc
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=None if address == "local" else address, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    remote = ray.remote(fn)
    try:
        pending: list[Any] = []
        todo = iter(tasks)
        for task in todo:
            pending.append(remote.remote(task))
            if len(pending) >= WINDOW:
                break
        while pending:
            yield ray.get(pending.pop(0))
            nxt = next(todo, None)
            if nxt is not None:
                pending.append(remote.remote(nxt))
    finally:
        if started_here:
            ray.shutdown()
