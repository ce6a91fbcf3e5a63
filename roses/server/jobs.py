"""The server's periodic background jobs (clocks, attendance, the gazette's mailer): one loop.

A job's blocking :meth:`PeriodicJob.run_once` runs in a worker thread every ``interval``
seconds while the app is up (the app's lifespan starts and stops every job in
``app.state.background``). An error in one tick is logged and the loop goes on; stopping sets a
flag as well as cancelling, so a cancellation lost in a race cannot keep the app from shutting
down.

A job with a :attr:`PeriodicJob.leader` (:mod:`roses.server.leader`) ticks only in the server
process that holds that lock: with several servers on one database it runs in one of them, and
in another one when that one dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from roses.server.leader import Leader

log = logging.getLogger(__name__)


class PeriodicJob(ABC):
    """Subclasses implement :meth:`run_once` and set :attr:`label`; ``interval`` in seconds."""

    #: Names the task and the log line of a failed tick.
    label = "job"
    #: When set, the job ticks only while this process holds the lock.
    leader: Leader | None = None

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._task: asyncio.Task[None] | None = None
        self._stop = threading.Event()

    @abstractmethod
    def run_once(self) -> Any:
        """One tick (blocking; runs in a worker thread)."""

    async def start(self) -> None:
        if self._task is not None and not self._task.done():
            return  # already running
        self._stop.clear()
        self._task = asyncio.create_task(self._loop(), name=f"roses-{self.label}")

    async def stop(self) -> None:
        self._stop.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        if self.leader is not None:
            self.leader.release()

    async def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                if self.leader is None or await asyncio.to_thread(self.leader.held):
                    await asyncio.to_thread(self.run_once)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - keep ticking; the error is logged
                log.exception("%s tick failed", self.label)
            await asyncio.sleep(self.interval)
