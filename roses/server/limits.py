"""Rate limits counted in the database (shared by all workers), each check one atomic step.

Every key (a hash of e.g. ``"chat:<user id>"`` or ``"login-pair:<name>|<address>"``) has one
row in ``throttle``; a check locks that row (``SELECT ... FOR UPDATE`` on PostgreSQL; on
SQLite the write transaction itself is exclusive), decides and writes in the same
transaction, so concurrent requests are counted one after the other and never all pass a
check made before any of them was counted.

Two kinds of limit:

* :meth:`Throttle.hit`: at most ``limit`` requests per ``window`` seconds (chat, invitations,
  test notifications);
* :meth:`Throttle.attempt` / :meth:`Throttle.succeed`: failures with back-off (logins). The
  attempt is counted *before* the password is checked (a success clears the count again), so
  thirty guesses sent at once are counted as thirty (:meth:`Throttle.undo` takes a success
  back); after ``free`` failures each further one
  must wait ``base * 2**n`` seconds, at most ``cap``, and the count is forgotten after
  ``window`` seconds without a failure.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from roses.server import db
from roses.server.errors import TooManyRequests

#: Rows untouched for this long (and not blocking) are deleted now and then.
KEEP = 86400.0


@dataclass(frozen=True)
class Backoff:
    """Failures allowed before back-off, the first delay, the largest delay, and how long a
    failure is remembered (seconds)."""

    free: int
    base: float
    cap: float
    window: float


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _retry(seconds: float) -> int:
    return max(1, math.ceil(seconds))


class Throttle:
    """Database-backed limits (see the module docs)."""

    def __init__(self, database: db.Database) -> None:
        self.db = database
        self._last_sweep = 0.0

    # ----- one row per key, locked for the transaction ------------------------------------
    def _row(self, conn: Connection, key: str, now: float) -> tuple[str, int, float, float]:
        t = db.throttle
        h = key_hash(key)
        values = {"key": h, "count": 0, "since": now, "blocked_until": 0.0}
        if conn.dialect.name == "postgresql":
            conn.execute(postgresql.insert(t).values(**values).on_conflict_do_nothing(index_elements=["key"]))
        else:
            conn.execute(sqlite.insert(t).values(**values).on_conflict_do_nothing(index_elements=["key"]))
        q = sa.select(t.c.count.label("n"), t.c.since, t.c.blocked_until).where(t.c.key == h)
        if conn.dialect.name == "postgresql":
            q = q.with_for_update()
        row = conn.execute(q).one()
        return h, int(row.n), float(row.since), float(row.blocked_until)

    def _sweep(self, conn: Connection, now: float) -> None:
        if now - self._last_sweep < 600:
            return
        self._last_sweep = now
        t = db.throttle
        conn.execute(t.delete().where(t.c.since < now - KEEP, t.c.blocked_until < now))

    # ----- requests per window -------------------------------------------------------------
    def hit(self, key: str, limit: int, window: float, what: str = "requests") -> None:
        """Count one request of ``key``; :class:`TooManyRequests` if it is over ``limit`` in
        the current ``window`` (a refused request is not counted)."""
        now = time.time()
        t = db.throttle
        with self.db.write() as conn:
            h, count, since, _ = self._row(conn, key, now)
            if since <= now - window:
                count, since = 0, now
            if count >= limit:
                retry = _retry(since + window - now)
                raise TooManyRequests(f"Too many {what}; try again in {retry} seconds.", retry_after=retry)
            conn.execute(t.update().where(t.c.key == h).values(count=count + 1, since=since))
            self._sweep(conn, now)

    # ----- failures with back-off -----------------------------------------------------------
    def attempt(self, rules: list[tuple[str, Backoff]], what: str = "attempts") -> None:
        """Count one attempt on every key (before it is checked); :class:`TooManyRequests`
        (nothing counted) while any key waits out its back-off."""
        now = time.time()
        t = db.throttle
        with self.db.write() as conn:
            rows = []
            for key, rule in rules:
                h, count, since, blocked = self._row(conn, key, now)
                if blocked > now:
                    retry = _retry(blocked - now)
                    raise TooManyRequests(f"Too many {what}; try again in {retry} seconds.",
                                          retry_after=retry)
                if since <= now - rule.window:
                    count = 0
                rows.append((h, count + 1, rule))
            for h, count, rule in rows:
                wait = 0.0 if count < rule.free else min(rule.cap, rule.base * 2 ** (count - rule.free))
                conn.execute(t.update().where(t.c.key == h).values(
                    count=count, since=now, blocked_until=now + wait if wait else 0.0))
            self._sweep(conn, now)

    def undo(self, *keys: str) -> None:
        """Take back one counted attempt on ``keys`` (it succeeded: it was no failure)."""
        t = db.throttle
        with self.db.write() as conn:
            conn.execute(t.update().where(t.c.key.in_([key_hash(k) for k in keys]), t.c.count > 0)
                         .values(count=t.c.count - 1))

    def succeed(self, *keys: str) -> None:
        """The attempt succeeded: forget the failures counted on ``keys``."""
        t = db.throttle
        with self.db.write() as conn:
            conn.execute(t.delete().where(t.c.key.in_([key_hash(k) for k in keys])))
