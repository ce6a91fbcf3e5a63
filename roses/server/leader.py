"""A named lock that one server process at a time holds, for work that must not run in two
places at once and has no row to lease (polling one mailbox, the attendance tick).

On PostgreSQL it is a session advisory lock (``pg_try_advisory_lock``) on a connection the
holder keeps open, keyed by the schema and the name: when the holder dies its connection closes
and the lock is free at once, so another server takes the work over at its next tick. On SQLite
(one host) it is an exclusive ``flock`` on a file beside the database, also released by the
operating system when the process dies. An in-memory database has one process: always held.

Work guarded by it is delayed, never duplicated, while the holder is slow; a process asks
:meth:`Leader.held` before each tick.
"""

from __future__ import annotations

import contextlib
import threading
from typing import IO, Any

import sqlalchemy as sa

from roses.server.db import Database

_TRY = sa.text("SELECT pg_try_advisory_lock(hashtextextended(current_schema() || ':' || :name, 0))")


class Leader:
    """Holds (or tries to take) the lock ``name`` on ``database``."""

    def __init__(self, database: Database, name: str) -> None:
        self.database = database
        self.name = name
        self._mutex = threading.Lock()
        self._conn: Any = None
        self._file: IO[bytes] | None = None

    def _sqlite_path(self) -> str | None:
        path = self.database.engine.url.database
        return None if not path or path == ":memory:" else path

    def held(self) -> bool:
        """True if this process holds the lock (taking it when it is free)."""
        with self._mutex:
            if self.database.dialect == "postgresql":
                return self._held_pg()
            return self._held_file()

    def _held_pg(self) -> bool:
        if self._conn is not None:
            try:  # still connected, so still holding it
                self._conn.execute(sa.text("SELECT 1"))
                self._conn.commit()
                return True
            except Exception:  # noqa: BLE001 - the connection is gone: so is the lock
                self._drop_pg()
        conn = self.database.engine.connect()
        try:
            got = bool(conn.execute(_TRY, {"name": self.name}).scalar())
            conn.commit()
        except Exception:
            conn.close()
            raise
        if got:
            self._conn = conn
        else:
            conn.close()
        return got

    def _drop_pg(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()  # not back to the pool: the session (and its lock) ends

    def _held_file(self) -> bool:
        if self._file is not None:
            return True
        path = self._sqlite_path()
        if path is None:
            return True
        import fcntl

        f = open(f"{path}.{self.name}.lock", "ab")  # noqa: SIM115 - kept open while held
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            return False
        self._file = f
        return True

    def release(self) -> None:
        """Give the lock up (at shutdown)."""
        with self._mutex:
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    self._conn.execute(sa.text("SELECT pg_advisory_unlock_all()"))
                    self._conn.commit()
                with contextlib.suppress(Exception):
                    self._conn.close()
                self._conn = None
            if self._file is not None:
                with contextlib.suppress(Exception):
                    self._file.close()  # closing the file releases its flock
                self._file = None
