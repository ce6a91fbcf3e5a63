"""Reminders before a deadline, and vacation mode.

**Reminders.** In a game with a pace (:mod:`roses.server.clocks`) a seat's deadline is the
moment its bank runs out. When a seat held by a person has less than the *lead* left
(a quarter of the pace's bank, at most a day: 6 hours of a day per decision, 150 s of
``600+600``), its player gets one reminder through the notifications
(:mod:`roses.server.notify`: e-mail or webhook, for players who turned notifications on),
saying when the decision is due and what happens then. The row ``reminders_sent (game, role,
due)`` is inserted first: only the worker whose insert succeeded sends it, so a reminder goes
out once even with several workers; a new decision (a new deadline) gets its own reminder.

**Vacation mode.** The player of a seat states a period (``start``, ``until``) and, if he
wants, a bot to stand in. During the period:

- with a bot: the bot is seated beside him (``seats.bot``; the seat stays his, he may still
  move himself) and plays the seat's turns; at the end of the period the bot is taken out;
- without a bot: every decision of the seat that has a published default
  (:func:`roses.server.deadlines.published_default`: a ransom unanswered, permission, a vote)
  is played at once as that default; a decision without one waits for him (his clock runs).

Vacations are public (who is away until when), as an umpire would announce them. A period
lasts at most 60 days; the player may end it early (``DELETE``).

Routes: ``GET /api/games/{id}/defaults`` (the moves played as a published default, and why);
``GET /api/games/{id}/vacations``; ``POST /api/games/{id}/vacations`` (``{"role",
"start", "until", "bot"}``; times in seconds since the epoch, ``start`` defaults to now);
``DELETE /api/games/{id}/vacations/{vacation_id}``.

The work runs in :class:`AttendanceJob`, a background job like the clock scheduler (one tick
every ``ROSES_ATTENDANCE_INTERVAL`` seconds, 30 by default).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request, Response
from fastapi import Path as PathParam
from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError

from roses.server import clocks, db, deadlines
from roses.server import gamestore as game_service
from roses.server.auth import User
from roses.server.deps import optional_user, require_user, services
from roses.server.errors import BadRequest, Forbidden, NotFound
from roses.server.events import GAME_CHANGED, Event
from roses.server.jobs import PeriodicJob
from roses.server.leader import Leader
from roses.server.notify import REMINDER

if TYPE_CHECKING:
    from fastapi import FastAPI

    from roses.server.service import GameService

log = logging.getLogger("roses.server.attendance")

MAX_LEAD = 86400.0
MAX_VACATION = 60 * 86400.0
RUNNING = ("active", "paused")
#: (game, role, version) found without a published default (bounded; a new version is a new key).
_NO_DEFAULT: set[tuple[int, str, int]] = set()

router = APIRouter(prefix="/api", tags=["play"])
GameId = Annotated[int, PathParam(ge=-db.INT_MAX, le=db.INT_MAX)]
RowId = Annotated[int, PathParam(ge=1, le=db.INT_MAX)]
OptionalUser = Annotated[User | None, Depends(optional_user)]
RequiredUser = Annotated[User, Depends(require_user)]


def lead(pace: clocks.Pace) -> float:
    """How long before a deadline its reminder goes out."""
    return min(MAX_LEAD, pace.bank / 4)


def duration(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds >= 86400:
        n, unit = round(seconds / 86400), "day"
    elif seconds >= 3600:
        n, unit = round(seconds / 3600), "hour"
    elif seconds >= 60:
        n, unit = round(seconds / 60), "minute"
    else:
        n, unit = round(seconds), "second"
    return f"{n} {unit}" + ("" if n == 1 else "s")


# ----- reminders -------------------------------------------------------------------------
def send_reminders(svc: GameService, now: float) -> list[tuple[int, str]]:
    """Send the reminders that are due at ``now``; the (game, role) pairs reminded."""
    g, s = db.games.c, db.seats.c
    with svc.db.read() as conn:
        rows = conn.execute(sa.select(g.id, g.pace, g.version, g.active, s.role, s.user_id, s.clock, s.active_since)
                            .join(db.seats, s.game_id == g.id)
                            .where(g.status == "active", g.clock_deadline.is_not(None),
                                   s.user_id.is_not(None), s.clock.is_not(None),
                                   s.active_since.is_not(None))).all()
    with svc.db.write() as conn:  # reminders of deadlines long past are no longer needed
        conn.execute(db.reminders_sent.delete().where(db.reminders_sent.c.due < now - 2 * MAX_LEAD))
    sent = []
    for r in rows:
        pace = clocks.parse_pace(r.pace) if r.pace else None
        if pace is None:
            continue
        due = float(r.active_since) + float(r.clock)
        if not due - lead(pace) <= now < due:
            continue
        try:
            with svc.db.write() as conn:
                conn.execute(db.reminders_sent.insert().values(game_id=r.id, role=r.role, due=due, sent_at=now))
        except IntegrityError:
            continue  # sent already (by this worker or another)
        active = tuple(json.loads(r.active) if r.active else [])
        svc.notifiers.notify(Event(REMINDER, int(r.id), int(r.version), active, (int(r.user_id),),
                                   {"role": r.role, "left": duration(due - now), "due": due}))
        sent.append((int(r.id), str(r.role)))
    return sent


# ----- vacations -------------------------------------------------------------------------
def _row_out(v: Any) -> dict[str, Any]:
    return {"id": int(v.id), "role": v.role, "start": float(v.start), "until": float(v.until), "bot": v.bot,
            "seated": bool(v.seated)}


def list_vacations(svc: GameService, user: User | None, game_id: int, invite: str | None = None) -> list[dict[str, Any]]:
    svc.game(user, game_id, invite)  # refuses a game the user may not see
    with svc.db.read() as conn:
        return [_row_out(v) for v in conn.execute(sa.select(db.vacations).where(db.vacations.c.game_id == game_id)
                                                  .order_by(db.vacations.c.start, db.vacations.c.id))]


def add_vacation(svc: GameService, user: User, game_id: int, role: str, until: float,
                 start: float | None = None, bot: str | None = None) -> dict[str, Any]:
    """The player of ``role`` will be away from ``start`` (now) until ``until``."""
    now = game_service._now()
    start = now if start is None else float(start)
    until = float(until)
    info = svc.game(user, game_id)
    if role not in info["my_roles"]:
        raise Forbidden(f"You do not play {role} in this game.", code="not_your_seat")
    if info["status"] not in RUNNING:
        raise BadRequest("A vacation is for a running game.", code="not_running")
    if not until > start or until <= now:
        raise BadRequest("A vacation ends after it starts, and in the future.")
    if until - start > MAX_VACATION:
        raise BadRequest("A vacation lasts at most 60 days.")
    if bot is not None:
        game_service._check_bot(bot, svc.bot_caps)
        if any(s["role"] == role and s["bot"] for s in info["seats"]):
            raise BadRequest(f"A bot already plays {role}.", code="seat_taken")
    with svc.db.write() as conn:
        clash = conn.execute(sa.select(db.vacations.c.id).where(
            db.vacations.c.game_id == game_id, db.vacations.c.role == role,
            db.vacations.c.start < until, db.vacations.c.until > start)).first()
        if clash is not None:
            raise BadRequest(f"{role} already has a vacation in that period.", code="overlap")
        vid = conn.execute(db.vacations.insert().values(game_id=game_id, role=role, user_id=user.id, start=start,
                                                        until=until, bot=bot, seated=False)
                           .returning(db.vacations.c.id)).scalar_one()
        row = conn.execute(sa.select(db.vacations).where(db.vacations.c.id == vid)).one()
    svc.bus.publish(Event(GAME_CHANGED, game_id))
    return _row_out(row)


def end_vacation(svc: GameService, user: User, game_id: int, vacation_id: int) -> None:
    with svc.db.read() as conn:
        v = conn.execute(sa.select(db.vacations).where(db.vacations.c.id == vacation_id,
                                                       db.vacations.c.game_id == game_id)).first()
    if v is None or v.user_id != user.id:
        raise NotFound(f"You have no vacation {vacation_id} in game {game_id}.", code="unknown_vacation")
    _finish(svc, v)


def _finish(svc: GameService, v: Any) -> None:
    """Take the stand-in bot out (if it is still the one seated) and forget the vacation."""
    with svc._game_lock(int(v.game_id)), svc.db.write() as conn:
        if v.seated and v.bot:
            conn.execute(db.seats.update().where(db.seats.c.game_id == v.game_id, db.seats.c.role == v.role,
                                                 db.seats.c.user_id == v.user_id, db.seats.c.bot == v.bot)
                         .values(bot=None))
        conn.execute(db.vacations.delete().where(db.vacations.c.id == v.id))
    svc.seats_changed(int(v.game_id))


def run_vacations(svc: GameService, now: float) -> dict[str, list[int]]:
    """Seat the stand-in bots of vacations that began, take out those of vacations that ended,
    and play the published defaults of seats away without a bot. Returns the vacation ids
    handled, by what was done."""
    out: dict[str, list[int]] = {"seated": [], "ended": [], "defaults": []}
    v = db.vacations.c
    with svc.db.read() as conn:
        ended = conn.execute(sa.select(db.vacations).where(v.until <= now)).all()
        begun = conn.execute(sa.select(db.vacations).where(v.start <= now, v.until > now)).all()
    for row in ended:
        _finish(svc, row)
        out["ended"].append(int(row.id))
    for row in begun:
        gid = int(row.game_id)
        if row.bot and not row.seated:
            with svc._game_lock(gid), svc.db.write() as conn:
                done = conn.execute(db.seats.update().where(
                    db.seats.c.game_id == gid, db.seats.c.role == row.role, db.seats.c.user_id == row.user_id,
                    db.seats.c.bot.is_(None)).values(bot=row.bot)).rowcount
                conn.execute(db.vacations.update().where(v.id == row.id, v.seated == sa.false())
                             .values(seated=True))
            if done:
                svc.seats_changed(gid)
                out["seated"].append(int(row.id))
        elif not row.bot:
            with svc.db.read() as conn:
                g = conn.execute(sa.select(db.games.c.status, db.games.c.version, db.games.c.active)
                                 .where(db.games.c.id == gid)).first()
                holder = conn.execute(sa.select(db.seats.c.user_id).where(
                    db.seats.c.game_id == gid, db.seats.c.role == row.role)).scalar()
            if g is None or g.status != "active" or holder != row.user_id:
                continue
            key = (gid, str(row.role), int(g.version))
            if row.role not in game_service._active_list(g.active) or key in _NO_DEFAULT:
                continue
            if deadlines.play_default(svc, gid, str(row.role), int(g.version), deadlines.VACATION):
                out["defaults"].append(int(row.id))
            else:  # a decision without a default waits for him: do not replay it every tick
                if len(_NO_DEFAULT) > 10_000:
                    _NO_DEFAULT.clear()
                _NO_DEFAULT.add(key)
    return out


# ----- the background job ------------------------------------------------------------------
class AttendanceJob(PeriodicJob):
    """Reminders and vacations, one tick every ``interval`` seconds."""

    label = "attendance"

    def __init__(self, games: GameService, *, interval: float = 30.0,
                 clock: Callable[[], float] | None = None) -> None:
        super().__init__(interval)
        self.games = games
        self.clock = clock or game_service._now

    def run_once(self, now: float | None = None) -> dict[str, Any]:
        now = self.clock() if now is None else now
        done: dict[str, Any] = dict(run_vacations(self.games, now))
        done["reminded"] = send_reminders(self.games, now)
        return done


def install(app: FastAPI, games: GameService) -> AttendanceJob:
    job = AttendanceJob(games, interval=float(os.environ.get("ROSES_ATTENDANCE_INTERVAL", "30")))
    job.leader = Leader(games.db, "attendance")  # one server at a time runs it (vacation defaults)
    background = getattr(app.state, "background", None)
    if background is None:
        background = app.state.background = []
    background.append(job)
    app.state.attendance = job
    app.include_router(router)
    return job


# ----- routes ------------------------------------------------------------------------------
class VacationIn(BaseModel):
    role: str = Field(max_length=40)
    until: float
    start: float | None = None
    bot: str | None = Field(default=None, max_length=80)


@router.get("/games/{game_id}/vacations")
def get_vacations(request: Request, game_id: GameId, user: OptionalUser,
                  invite: str | None = None) -> list[dict[str, Any]]:
    return list_vacations(services(request).games, user, game_id, invite)


@router.get("/games/{game_id}/defaults")
def get_defaults(request: Request, game_id: GameId, user: OptionalUser, invite: str | None = None) -> list[dict[str, Any]]:
    """The moves of the game's log the server played as a published default: ``seq`` (the
    action's number), ``role``, ``reason`` (``deadline`` or ``vacation``)."""
    games = services(request).games
    games.game(user, game_id, invite)  # refuses a game the user may not see
    return deadlines.defaults_of(games, game_id)


@router.post("/games/{game_id}/vacations", status_code=201)
def post_vacation(request: Request, game_id: GameId, body: VacationIn, user: RequiredUser) -> dict[str, Any]:
    return add_vacation(services(request).games, user, game_id, body.role, body.until, body.start, body.bot)


@router.delete("/games/{game_id}/vacations/{vacation_id}", status_code=204)
def delete_vacation(request: Request, game_id: GameId, vacation_id: RowId, user: RequiredUser) -> Response:
    end_vacation(services(request).games, user, game_id, vacation_id)
    return Response(status_code=204)
