"""An :class:`~roses.server.events.EventBus` over PostgreSQL LISTEN/NOTIFY, for several workers.

Every worker delivers its own events to its own subscribers at once (in process, as
:class:`LocalBus` does) and sends them with ``pg_notify`` on one channel; a dedicated listener
connection (psycopg 3 ``AsyncConnection`` in autocommit, used for nothing else; see
psycopg issue #340) receives the other workers' events and hands them to local subscribers. A
worker ignores its own echoes. The payload is the event (kind, game id, version, active roles),
never any state, so the channel carries no hidden information.

Sending happens on a background thread with its own connection: ``publish`` may be called from
any thread (and from the event loop) without waiting for the database. If the listener loses its
connection it reconnects with backoff and then tells every local subscriber to reload (an
event may have been missed meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import queue
import secrets
import threading
from typing import Any

import psycopg
import sqlalchemy as sa

from roses.server.events import Event, RelayedBus, decode, encode

log = logging.getLogger("roses.server.pgbus")

CHANNEL = "roses_events"


def conninfo(url: str) -> str:
    """A libpq URL from a SQLAlchemy one (``postgresql+psycopg://`` -> ``postgresql://``)."""
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


def channel_for(database: Any) -> str:
    """The channel of a :class:`~roses.server.db.Database`: named after its database and schema."""
    with database.read() as conn:
        where = conn.execute(sa.text("SELECT current_database() || '.' || current_schema()")).scalar()
    return f"{CHANNEL}_{hashlib.sha256(str(where).encode()).hexdigest()[:16]}"


class PgBus(RelayedBus):
    """Fan-out between workers through PostgreSQL; drop-in for :class:`LocalBus`."""

    def __init__(self, url: str, *, channel: str | None = None, database: Any = None,
                 connect_kwargs: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.url = conninfo(url)
        #: One channel per database and schema, so that deployments (and test sessions) sharing
        #: a PostgreSQL server in different schemas do not hear each other; ``ROSES_PG_CHANNEL``
        #: or ``channel`` name one explicitly.
        self.channel = channel or os.environ.get("ROSES_PG_CHANNEL") or CHANNEL
        self._derive = database if not (channel or os.environ.get("ROSES_PG_CHANNEL")) else None
        self.connect_kwargs = dict(connect_kwargs or {})
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._out: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._sender: threading.Thread | None = None
        self._listener: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self._stopping = False

    # ----- EventBus -------------------------------------------------------------------------
    def publish(self, event: Event) -> None:
        self.local.publish(event)
        if not self._stopping:
            self._out.put(encode(event, self.origin))

    async def start(self) -> None:
        if self._derive is not None:
            self.channel = await asyncio.to_thread(channel_for, self._derive)
        self._stopping = False
        self._listening = asyncio.Event()
        self._sender = threading.Thread(target=self._send_loop, name="roses-pgbus-send", daemon=True)
        self._sender.start()
        self._listener = asyncio.create_task(self._listen_loop(), name="roses-pgbus-listen")
        # Wait (briefly) until LISTEN is in place, so that a worker that has started hears
        # every event published afterwards.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._listening.wait(), timeout=10)

    async def stop(self) -> None:
        self._stopping = True
        self._out.put(None)
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listener
            self._listener = None
        if self._sender is not None:
            await asyncio.to_thread(self._sender.join, 5)
            self._sender = None

    # ----- sending (thread) -----------------------------------------------------------------
    def _send_loop(self) -> None:
        conn: Any = None
        while True:
            item = self._out.get()
            if item is None:
                break
            batch = [item]
            with contextlib.suppress(queue.Empty):
                while len(batch) < 100:
                    nxt = self._out.get_nowait()
                    if nxt is None:
                        self._out.put(None)
                        break
                    batch.append(nxt)
            for attempt in range(3):
                try:
                    if conn is None or conn.closed:
                        conn = psycopg.connect(self.url, autocommit=True, **self.connect_kwargs)
                    with conn.cursor() as cur:
                        for payload in batch:
                            cur.execute("SELECT pg_notify(%s, %s)", (self.channel, payload))
                    break
                except Exception as exc:  # noqa: BLE001 - the database may be restarting
                    log.warning("pg_notify failed (attempt %s): %s", attempt + 1, exc)
                    with contextlib.suppress(Exception):
                        if conn is not None:
                            conn.close()
                    conn = None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    # ----- listening (event loop) -------------------------------------------------------------
    async def _listen_loop(self) -> None:
        delay = 0.5
        first = True
        while not self._stopping:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True, **self.connect_kwargs)
                try:
                    await conn.execute(f'LISTEN "{self.channel}"')
                    self._listening.set()
                    delay = 0.5
                    if not first:
                        self.reload_all()
                    first = False
                    async for note in conn.notifies():
                        self._on_payload(note.payload)
                finally:
                    with contextlib.suppress(Exception):
                        await conn.close()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - reconnect with backoff
                log.warning("LISTEN connection lost: %s; reconnecting in %.1f s", exc, delay)
            if self._stopping:
                break
            await asyncio.sleep(delay)
            delay = min(delay * 2, 15.0)

    def _on_payload(self, payload: str) -> None:
        try:
            origin, event = decode(payload)
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a malformed event on %s", self.channel)
            return
        if origin == self.origin:
            return
        self.remote(event)
