"""Clocks and scheduled work: a time bank per seat, loss on time, a lease-based scheduler.

Pace (``games.pace``), after Rally the Troops' design: every seat starts
with a *bank* of time; the clock of a seat runs while that seat is active; when the seat stops
being active the time it used is charged and a per-move *bonus* is added, up to a *cap*. A seat
whose bank runs out loses on time: the scheduler plays the meta action ``.finish`` (result: the
other roles, reason: "X ran out of time") through the service's normal commit path, so the
time-out is in the action log like any other action.

===========  ==========  =============  ==========
pace         bank        bonus / move   cap
===========  ==========  =============  ==========
``live``     20 min      2 min          30 min
``fast``     1 day       8 h            3 days
``daily``    3 days      24 h           5 days
``weekly``   10 days     3 days         14 days
``S+B``      S seconds   B seconds      S (a custom pace, e.g. ``600+30``; tests use it)
===========  ==========  =============  ==========

Storage: ``seats.clock`` is the bank (seconds) as of ``seats.active_since`` (set while the seat is
active); ``games.clock_deadline`` is the earliest moment one of the active seats runs out (NULL
without a clock), kept in the same transaction as each action, so the scheduler finds due games
with one indexed query.

Scheduled work runs exactly once even with several workers: a worker *claims* a due game with
a row lease, ``UPDATE games SET lease_until = now + L WHERE id = ? AND (lease_until IS NULL OR
lease_until < now)``; only the worker whose update changed the row handles it (on PostgreSQL
the candidates are read with ``FOR UPDATE SKIP LOCKED`` first). A worker that dies while holding
a lease only delays the work by the lease time. The time-out action itself is additionally
guarded by the game's version check, like every action.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from roses.server import db, deadlines
from roses.server.errors import BadRequest, Conflict
from roses.server.jobs import PeriodicJob

if TYPE_CHECKING:
    from fastapi import FastAPI

    from roses.server.service import GameService

log = logging.getLogger("roses.server.clocks")

FINISH = ".finish"
HOUR = 3600.0
DAY = 24 * HOUR


@dataclass(frozen=True)
class Pace:
    name: str
    bank: float
    bonus: float
    cap: float

    def describe(self) -> dict[str, Any]:
        return {"pace": self.name, "bank": self.bank, "bonus": self.bonus, "cap": self.cap}


PACES: dict[str, Pace] = {
    "live": Pace("live", 20 * 60.0, 2 * 60.0, 30 * 60.0),
    "fast": Pace("fast", DAY, 8 * HOUR, 3 * DAY),
    "daily": Pace("daily", 3 * DAY, DAY, 5 * DAY),
    "weekly": Pace("weekly", 10 * DAY, 3 * DAY, 14 * DAY),
}

_CUSTOM = re.compile(r"^(\d{1,7}(?:\.\d{1,3})?)\+(\d{1,7}(?:\.\d{1,3})?)$")


def parse_pace(pace: str | None) -> Pace | None:
    """The pace named ``pace``; None for no clock (``None``, ``""``, ``"none"``)."""
    if pace is None or pace in ("", "none"):
        return None
    if pace in PACES:
        return PACES[pace]
    m = _CUSTOM.match(pace)
    if m:
        bank, bonus = float(m.group(1)), float(m.group(2))
        if bank > 0:
            return Pace(pace, bank, bonus, bank)
    names = ", ".join(PACES)
    raise BadRequest(f"Unknown pace {pace!r}: one of {names}, 'none', or 'BANK+BONUS' in seconds "
                     "(e.g. '600+30').", code="bad_pace")


def check_pace(pace: str | None) -> None:
    """Refuse an unknown pace (for game creation)."""
    parse_pace(pace)


def _parse_stored(pace: str | None) -> Pace | None:
    try:
        return parse_pace(pace)
    except BadRequest:
        return None


# ----- hooks called by the service inside its write transactions ---------------------------
def on_start(conn: Connection, game_id: int, pace: str | None, roles: Sequence[str],
             active: Sequence[str], now: float) -> None:
    """At the start: every seat gets the pace's bank; the active ones' clocks start running."""
    p = _parse_stored(pace)
    if p is None:
        return
    conn.execute(db.seats.update().where(db.seats.c.game_id == game_id).values(clock=p.bank))
    deadline = now + p.bank if active else None
    conn.execute(db.games.update().where(db.games.c.id == game_id).values(clock_deadline=deadline))


def on_turn_change(conn: Connection, game_id: int, pace: str | None, gone: Sequence[str],
                   new: Sequence[str], active: Sequence[str], now: float, *,
                   finished: bool = False) -> None:
    """The set of active roles changed (call before the service updates ``active_since``).

    Seats that stop being active are charged the time they used and earn the bonus (up to the
    cap); the game's deadline is recomputed over the seats now active.
    """
    p = _parse_stored(pace)
    if p is None:
        return
    rows = {r.role: r for r in conn.execute(
        sa.select(db.seats.c.role, db.seats.c.clock, db.seats.c.active_since)
        .where(db.seats.c.game_id == game_id))}
    for role in gone:
        r = rows.get(role)
        if r is None or r.clock is None:
            continue
        used = max(0.0, now - r.active_since) if r.active_since is not None else 0.0
        left = float(r.clock) - used
        if not finished:
            left = min(p.cap, left + p.bonus)
        conn.execute(db.seats.update().where(db.seats.c.game_id == game_id, db.seats.c.role == role)
                     .values(clock=left))
    deadline: float | None = None
    if not finished:
        for role in active:
            r = rows.get(role)
            if r is None or r.clock is None:
                continue
            since = now if role in new or r.active_since is None else float(r.active_since)
            bank = float(r.clock)
            if role in gone:  # cannot happen (gone and active are disjoint); defensive
                continue
            due = since + bank
            deadline = due if deadline is None else min(deadline, due)
    conn.execute(db.games.update().where(db.games.c.id == game_id).values(clock_deadline=deadline))


def clocks_of(conn: Connection, game_id: int, now: float | None = None) -> dict[str, Any]:
    """Public clock information of a game: seconds left per role, and which are running."""
    now = time.time() if now is None else now
    row = conn.execute(sa.select(db.games.c.pace, db.games.c.status, db.games.c.clock_deadline)
                       .where(db.games.c.id == game_id)).first()
    if row is None:
        return {}
    p = _parse_stored(row.pace)
    out: dict[str, Any] = {"game_id": game_id, "pace": None if p is None else p.describe(),
                           "deadline": row.clock_deadline, "now": now, "clocks": {}}
    if p is None:
        return out
    for s in conn.execute(sa.select(db.seats.c.role, db.seats.c.clock, db.seats.c.active_since)
                          .where(db.seats.c.game_id == game_id).order_by(db.seats.c.position)):
        if s.clock is None:
            continue
        running = s.active_since is not None and row.status == "active"
        left = float(s.clock) - (now - float(s.active_since) if running else 0.0)
        out["clocks"][s.role] = {"left": round(left, 3), "running": running,
                                 # the moment the bank runs out (a published default is then played)
                                 "deadline": round(float(s.active_since) + float(s.clock), 3) if running else None}
    return out


def seat_deadline(conn: Connection, game_id: int, role: str) -> float | None:
    """When ``role``'s running clock runs out (``seats.active_since + seats.clock``, Unix
    seconds), or None: no pace, the seat is not active, or the game is paused."""
    row = conn.execute(sa.select(db.games.c.status, db.seats.c.clock, db.seats.c.active_since)
                       .select_from(db.games.join(db.seats, db.seats.c.game_id == db.games.c.id))
                       .where(db.games.c.id == game_id, db.seats.c.role == role)).first()
    if row is None or row.status != "active" or row.clock is None or row.active_since is None:
        return None
    return round(float(row.active_since) + float(row.clock), 3)


# ----- row leases and the scheduler -------------------------------------------------------
def lease_rows(database: db.Database, table: sa.Table, where: Any, order_by: Any, now: float,
               lease: float, limit: int, owner: str | None = None,
               columns: Sequence[Any] | None = None) -> list[Any]:
    """Claim up to ``limit`` rows of ``table`` matching ``where`` that nobody holds a lease on.

    One write transaction: on PostgreSQL the candidates are locked with ``FOR UPDATE SKIP
    LOCKED`` (rows another worker is claiming are skipped, not waited for); SQLite serialises
    writers (``BEGIN IMMEDIATE``). The update repeats the lease condition, so a row is claimed
    by exactly one worker. Returns the claimed rows (as they were before the claim).
    """
    free = sa.or_(table.c.lease_until.is_(None), table.c.lease_until < now)
    q = sa.select(*(columns or table.c)).where(where, free).order_by(order_by).limit(limit)
    values: dict[str, Any] = {"lease_until": now + lease}
    if owner is not None:
        values["lease_owner"] = owner
    with database.read() as conn:
        # Most of the time there is nothing to do: find out without taking the write lock.
        if conn.execute(sa.select(table.c.id).where(where, free).limit(1)).first() is None:
            return []
    with database.write() as conn:
        if database.dialect == "postgresql":
            q = q.with_for_update(skip_locked=True)
        rows = conn.execute(q).all()
        claimed = []
        for r in rows:
            done = conn.execute(table.update().where(table.c.id == r.id, free).values(**values)).rowcount
            if done == 1:
                claimed.append(r)
    return claimed


class ClockScheduler(PeriodicJob):
    """Ends games whose active seat ran out of time; several may run on one database."""

    label = "clocks"

    def __init__(self, games: GameService, *, interval: float = 10.0, lease: float = 60.0,
                 worker: str | None = None, clock: Callable[[], float] = time.time) -> None:
        super().__init__(interval)
        self.games = games
        self.lease = lease
        self.worker = worker or f"{os.getpid()}-{secrets.token_hex(3)}"
        self.clock = clock
        #: Game ids this scheduler ended (for tests and logs).
        self.handled: list[int] = []

    def run_once(self, now: float | None = None) -> list[int]:
        """Check due games once (blocking); returns the games this worker ended on time."""
        now = self.clock() if now is None else now
        ended = []
        g = db.games.c
        due = sa.and_(g.status == "active", g.clock_deadline.is_not(None), g.clock_deadline <= now)
        for row in lease_rows(self.games.db, db.games, due, g.clock_deadline, now, self.lease, 50,
                              columns=[g.id]):
            gid = int(row.id)
            try:
                if self._timeout(gid, now):
                    ended.append(gid)
            except Exception:  # noqa: BLE001 - one bad game must not stop the scheduler
                log.exception("clock check of game %s failed", gid)
            finally:
                with self.games.db.write() as conn:
                    conn.execute(db.games.update().where(db.games.c.id == gid).values(lease_until=None))
        self.handled.extend(ended)
        return ended

    def _timeout(self, game_id: int, now: float) -> bool:
        """End ``game_id`` if an active seat's bank is spent; through the service's normal path.

        The time-out is the meta action ``.finish`` (result: the other roles) made on the
        version read here; if a player moved meanwhile the version check refuses it and the
        next tick looks again.
        """
        svc = self.games
        with svc.db.read() as conn:
            row = conn.execute(sa.select(db.games.c.status, db.games.c.version, db.games.c.active)
                               .where(db.games.c.id == game_id)).first()
            if row is None or row.status != "active":
                return False
            active = json.loads(row.active) if row.active else []
            seats = conn.execute(sa.select(db.seats.c.role, db.seats.c.clock, db.seats.c.active_since)
                                 .where(db.seats.c.game_id == game_id)
                                 .order_by(db.seats.c.position)).all()
        out = [(float(s.active_since) + float(s.clock), s.role) for s in seats
               if s.role in active and s.clock is not None and s.active_since is not None]
        out = [(due, role) for due, role in out if due <= now]
        if not out:
            return False
        first = min(due for due, _ in out)
        # The seat whose time ran out first loses; seats that ran out at the same moment (their
        # clocks ran together) all lose, and if no seat is left the game is a draw.
        losers = sorted(role for due, role in out if due == first)
        # A decision with a published default (roses.server.deadlines) is played for the seat
        # instead of a loss; the seats without one are left to the next tick.
        version, played = int(row.version), False
        for loser in losers:
            if deadlines.play_default(svc, game_id, loser, version):
                version, played = version + 1, True
        if played:
            return True
        role = losers[0]
        others = [s.role for s in seats if s.role not in losers]
        result = ", ".join(others) if others else "Draw"
        reason = f"{' and '.join(losers)} ran out of time."
        try:
            svc.act(None, game_id, role, FINISH, [result, reason], int(row.version), system=True)
        except Conflict:
            return False  # moved (or ended) meanwhile
        log.info("game %s: %s ran out of time", game_id, role)
        return True


def install(app: FastAPI, games: GameService, *, interval: float | None = None) -> ClockScheduler:
    """Add the scheduler to the app's background jobs (started by the app's lifespan).

    The route ``GET /api/games/{id}/clocks`` is in :mod:`roses.server.api` (this module is
    imported by the game service, so it does not import the request layer)."""
    if interval is None:
        interval = float(os.environ.get("ROSES_CLOCK_INTERVAL", "10"))
    scheduler = ClockScheduler(games, interval=interval)
    background = getattr(app.state, "background", None)
    if background is None:
        background = app.state.background = []
    background.append(scheduler)
    app.state.clocks = scheduler
    return scheduler
