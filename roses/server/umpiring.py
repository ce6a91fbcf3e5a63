"""The umpire's controls on the server: pause and resume a game, extend a
seat's deadline, and publish a ruling while the game is paused.

They belong to the holder of the umpire's seat that the game's rules declare (the contract's
``Rules.umpire``, an :class:`~roses.engine.contract.UmpireSeat`, present when the game's roles
list it) or to a server administrator. Each control is logged as the umpire's ruling (the
seat's ``rule_verb``): it is an action of the action log, so it is in every player's log, in
the gazette of its round, and a replay reproduces it.

- **Pause**: the ruling is played, then the game's status becomes ``paused`` in the same game
  lock: every seat's clock stops (the time used so far is charged, ``active_since`` is cleared,
  the game has no deadline), the scheduler and the bots leave it alone, and any player's action
  is refused with the reason (code ``paused``); the store's conditional update refuses it too
  (it advances only a game whose status is ``active``), so a worker with a stale cache cannot
  slip a move in.
- **Resume**: the status is ``active`` again, the active seats' clocks run from now, the
  deadline is recomputed; then the ruling is played, and the bots may move.
- **Extend**: ``seconds`` are added to a seat's time bank (a game with a pace); the deadline is
  recomputed if the game runs.
- **Rule while paused**: the umpire's own rulings stay open during a pause (the status is set
  to ``active`` for that one action, under the game lock, and back to ``paused``).

Routes: ``POST /api/games/{id}/umpire/pause`` (``{"reason"}``), ``.../resume``,
``.../extend`` (``{"role", "seconds"}``), ``.../rule`` (``{"text"}``); ``GET
/api/games/{id}/umpire`` gives ``{"paused", "umpire"}`` to anyone who may see the game.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field
from sqlalchemy.engine import Connection

from roses.engine.contract import UmpireSeat
from roses.engine.registry import get_rules
from roses.server import clocks, db
from roses.server import gamestore as game_service
from roses.server.auth import User
from roses.server.deps import optional_user, require_user, services
from roses.server.errors import BadRequest, Conflict, Forbidden
from roses.server.events import GAME_CHANGED, Event
from roses.server.service import GameService

PAUSED = "paused"
ACTIVE = "active"
#: The longest single extension (a season of e-mail turns).
MAX_EXTEND = 90 * 24 * 3600.0

router = APIRouter(prefix="/api", tags=["play"])
GameId = Annotated[int, PathParam(ge=-db.INT_MAX, le=db.INT_MAX)]
OptionalUser = Annotated[User | None, Depends(optional_user)]
RequiredUser = Annotated[User, Depends(require_user)]


def _status(svc: GameService, game_id: int) -> tuple[str, int, list[str], str | None]:
    with svc.db.read() as conn:
        row = conn.execute(sa.select(db.games.c.status, db.games.c.version, db.games.c.active, db.games.c.pace)
                           .where(db.games.c.id == game_id)).first()
    if row is None:
        raise BadRequest(f"There is no game {game_id}.")
    return str(row.status), int(row.version), json.loads(row.active) if row.active else [], row.pace


def umpire_seat(game: str, roles: list[str]) -> UmpireSeat | None:
    """The umpire's seat the rules of ``game`` declare, if the game's ``roles`` include it."""
    seat = get_rules(game).umpire
    return seat if seat is not None and seat.role in roles else None


def _check_umpire(svc: GameService, user: User, game_id: int) -> UmpireSeat:
    info = svc.game(user, game_id)  # refuses a game the user may not see
    seat = umpire_seat(info["game"], [s["role"] for s in info["seats"]])
    if seat is None:
        raise BadRequest("This game has no umpire's seat: it was created without one.", code="no_umpire")
    if not user.is_admin and seat.role not in info["my_roles"]:
        raise Forbidden("Only the umpire may do that.", code="not_umpire")
    if info["status"] not in (ACTIVE, PAUSED):
        raise Conflict("The game is not running.", code="not_running")
    return seat


def _set_status(conn: Connection, game_id: int, old: str, new: str) -> bool:
    return bool(conn.execute(db.games.update().where(db.games.c.id == game_id, db.games.c.status == old)
                             .values(status=new)).rowcount == 1)


def _stop_clocks(conn: Connection, game_id: int, now: float) -> None:
    """Charge every running seat the time it used and stop it; the game has no deadline."""
    for s in conn.execute(sa.select(db.seats.c.role, db.seats.c.clock, db.seats.c.active_since)
                          .where(db.seats.c.game_id == game_id, db.seats.c.active_since.is_not(None))).all():
        values: dict[str, Any] = {"active_since": None}
        if s.clock is not None:
            values["clock"] = float(s.clock) - max(0.0, now - float(s.active_since))
        conn.execute(db.seats.update().where(db.seats.c.game_id == game_id, db.seats.c.role == s.role)
                     .values(**values))
    conn.execute(db.games.update().where(db.games.c.id == game_id).values(clock_deadline=None))


def _start_clocks(conn: Connection, game_id: int, active: list[str], now: float) -> None:
    """The active seats' clocks run from ``now``; the deadline is the first bank to run out."""
    if active:
        conn.execute(db.seats.update().where(db.seats.c.game_id == game_id, db.seats.c.role.in_(active))
                     .values(active_since=now))
    _recompute_deadline(conn, game_id)


def _recompute_deadline(conn: Connection, game_id: int) -> None:
    dues = [float(s.active_since) + float(s.clock) for s in conn.execute(
        sa.select(db.seats.c.clock, db.seats.c.active_since).where(db.seats.c.game_id == game_id))
        if s.clock is not None and s.active_since is not None]
    pace = conn.execute(sa.select(db.games.c.pace).where(db.games.c.id == game_id)).scalar()
    deadline = min(dues) if dues and clocks.parse_pace(pace) is not None else None
    conn.execute(db.games.update().where(db.games.c.id == game_id).values(clock_deadline=deadline))


def _changed(svc: GameService, game_id: int) -> None:
    svc._evict(game_id)
    svc.bus.publish(Event(GAME_CHANGED, game_id))


def _rule(svc: GameService, user: User, game_id: int, seat: UmpireSeat, text: str) -> int:
    """Play the umpire's ruling ``text`` (under the game lock); a paused game stays paused.
    Returns the game's new version."""
    with svc._game_lock(game_id):
        status, version, _, _ = _status(svc, game_id)
        if status == PAUSED:
            with svc.db.write() as conn:
                if not _set_status(conn, game_id, PAUSED, ACTIVE):
                    raise Conflict("The game changed meanwhile: try again.", code="stale")
            svc._evict(game_id)
            try:
                reply = svc.act(user, game_id, seat.role, seat.rule_verb, text, version, system=user.is_admin)
            finally:
                with svc.db.write() as conn:
                    _set_status(conn, game_id, ACTIVE, PAUSED)
                _changed(svc, game_id)
        else:
            reply = svc.act(user, game_id, seat.role, seat.rule_verb, text, version, system=user.is_admin)
        return int(reply["version"])


def rule(svc: GameService, user: User, game_id: int, text: str) -> dict[str, Any]:
    """The umpire's ruling, also while the game is paused."""
    seat = _check_umpire(svc, user, game_id)
    return {"version": _rule(svc, user, game_id, seat, text), "paused": is_paused(svc, game_id)}


def pause(svc: GameService, user: User, game_id: int, reason: str = "") -> dict[str, Any]:
    seat = _check_umpire(svc, user, game_id)
    reason = " ".join(reason.split())[:300]
    with svc._game_lock(game_id):
        if _status(svc, game_id)[0] == PAUSED:
            raise Conflict("The game is already paused.", code="paused")
        version = _rule(svc, user, game_id, seat, "The umpire pauses the game" + (f": {reason}" if reason else "."))
        now = game_service._now()
        with svc.db.write() as conn:
            if not conn.execute(db.games.update().where(db.games.c.id == game_id, db.games.c.status == ACTIVE,
                                                        db.games.c.version == version)
                                .values(status=PAUSED)).rowcount:
                raise Conflict("The game changed meanwhile: try again.", code="stale")
            _stop_clocks(conn, game_id, now)
        _changed(svc, game_id)
    return {"version": version, "paused": True}


def resume(svc: GameService, user: User, game_id: int) -> dict[str, Any]:
    seat = _check_umpire(svc, user, game_id)
    with svc._game_lock(game_id):
        status, _, active, _ = _status(svc, game_id)
        if status != PAUSED:
            raise Conflict("The game is not paused.", code="not_paused")
        with svc.db.write() as conn:
            if not _set_status(conn, game_id, PAUSED, ACTIVE):
                raise Conflict("The game changed meanwhile: try again.", code="stale")
            _start_clocks(conn, game_id, active, game_service._now())
        _changed(svc, game_id)
        version = _rule(svc, user, game_id, seat, "The umpire resumes the game.")
    with svc.db.read() as conn:
        seats = svc._seats(conn, game_id)
        active = json.loads(conn.execute(sa.select(db.games.c.active).where(db.games.c.id == game_id)).scalar()
                            or "[]")
    svc._bots_may_move(game_id, active, seats)
    return {"version": version, "paused": False}


def _duration(seconds: float) -> str:
    if seconds % 86400 == 0:
        n, unit = int(seconds // 86400), "day"
    elif seconds % 3600 == 0:
        n, unit = int(seconds // 3600), "hour"
    elif seconds % 60 == 0:
        n, unit = int(seconds // 60), "minute"
    else:
        return f"{seconds:g} seconds"
    return f"{n} {unit}" + ("s" if n != 1 else "")


def extend(svc: GameService, user: User, game_id: int, role: str, seconds: float) -> dict[str, Any]:
    """Add ``seconds`` to ``role``'s time bank (its deadline moves by as much)."""
    seat = _check_umpire(svc, user, game_id)
    if not isinstance(seconds, (int, float)) or not 0 < float(seconds) <= MAX_EXTEND:
        raise BadRequest(f"seconds is a number above 0 and at most {MAX_EXTEND:g} (90 days).")
    seconds = float(seconds)
    with svc._game_lock(game_id):
        _, _, _, pace = _status(svc, game_id)
        if clocks.parse_pace(pace) is None:
            raise BadRequest("This game has no clock: there is no deadline to extend.", code="no_clock")
        with svc.db.read() as conn:
            roles = [s.role for s in svc._seats(conn, game_id)]
        if role not in roles or role == seat.role:
            raise BadRequest(f"This game has no player {role!r}; players: "
                             f"{', '.join(r for r in roles if r != seat.role)}.")
        version = _rule(svc, user, game_id, seat, f"The umpire extends {role}'s time by {_duration(seconds)}.")
        with svc.db.write() as conn:
            conn.execute(db.seats.update().where(db.seats.c.game_id == game_id, db.seats.c.role == role,
                                                 db.seats.c.clock.is_not(None))
                         .values(clock=db.seats.c.clock + seconds))
            _recompute_deadline(conn, game_id)
        _changed(svc, game_id)
    return {"version": version, "paused": is_paused(svc, game_id)}


def is_paused(svc: GameService, game_id: int) -> bool:
    return _status(svc, game_id)[0] == PAUSED


# ----- routes ----------------------------------------------------------------------------
class PauseIn(BaseModel):
    reason: str = Field(default="", max_length=300)


class ExtendIn(BaseModel):
    role: str = Field(max_length=40)
    seconds: float


class RuleIn(BaseModel):
    text: str = Field(max_length=2000)


@router.get("/games/{game_id}/umpire")
def umpire_state(request: Request, game_id: GameId, user: OptionalUser, invite: str | None = None) -> dict[str, Any]:
    info = services(request).games.game(user, game_id, invite)
    declared = umpire_seat(info["game"], [s["role"] for s in info["seats"]])
    seat = None if declared is None else next(s for s in info["seats"] if s["role"] == declared.role)
    return {"paused": info["status"] == PAUSED, "umpire": None if seat is None else seat.get("user")}


@router.post("/games/{game_id}/umpire/pause")
def post_pause(request: Request, game_id: GameId, body: PauseIn, user: RequiredUser) -> dict[str, Any]:
    return pause(services(request).games, user, game_id, body.reason)


@router.post("/games/{game_id}/umpire/resume")
def post_resume(request: Request, game_id: GameId, user: RequiredUser) -> dict[str, Any]:
    return resume(services(request).games, user, game_id)


@router.post("/games/{game_id}/umpire/extend")
def post_extend(request: Request, game_id: GameId, body: ExtendIn, user: RequiredUser) -> dict[str, Any]:
    return extend(services(request).games, user, game_id, body.role, body.seconds)


@router.post("/games/{game_id}/umpire/rule")
def post_rule(request: Request, game_id: GameId, body: RuleIn, user: RequiredUser) -> dict[str, Any]:
    return rule(services(request).games, user, game_id, body.text)
