"""Seats of a running game: a player who leaves a started game, and the
newcomer who takes his seat.

Before the start the lobby's join, leave and bot routes manage the seats. Once a game runs
(a Kingmaker campaign lasts weeks), a seat may change hands:

- **Vacate** (``POST /api/games/{id}/seats/{role}/vacate``, ``{"bot": name | null}``): the
  seat's holder gives it up (he leaves), or the game's creator (or an administrator) takes it
  from a player who is away by the game's abandonment rule (:data:`ABANDON_AFTER`: the seat has
  waited that long for his decision). A present player's seat is never taken from him. The
  seat is then empty, or played by the bot named as a stand-in. An empty seat keeps its clock:
  when its deadline passes the published default is played for it
  (:mod:`roses.server.deadlines`), or it loses on time.
- **Claim** (``POST /api/games/{id}/seats/{role}/claim``): any user who may see the game (the
  invitation link for a private game) takes an empty seat.
- **Assign** (``POST /api/games/{id}/seats/{role}/assign``, ``{"user": name}``): the creator
  gives a seat that no person holds (empty, or a bot's) to a named user.

In a game whose roles hide things from each other (``Rules.roles_hide_from_each_other``; the
umpire's seat sees everything) a person holds one seat: nobody claims or is given a seat while
he holds another seat of the game or has held another one since the start (he knows its
secrets), so the umpire's seat and a player's seat never go to the same person.

Every change is public: a row of ``seat_changes`` (who left, who came, why), listed in the
game's description (``seat_changes``) for everyone who may see the game. The newcomer sees what
that seat may see, nothing more: views are made per role on the server
(:meth:`GameService.view`), and the seat's history is that role's log. Seat changes are not
moves of the game: they are not in the action log and do not change the game's version.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field
from sqlalchemy.engine import Connection

from roses.engine.errors import RosesError
from roses.server import db
from roses.server.auth import User
from roses.server.deps import require_user, services
from roses.server.errors import BadRequest, Conflict, Forbidden, NotFound
from roses.server.service import GameService, _check_bot, _check_options

RUNNING = ("active", "paused")
#: The abandonment rule: a player is away when his seat has waited this long for his decision
#: (seconds; a week). Only then may the creator (or an administrator) take the seat from him.
ABANDON_AFTER = 7 * 86400.0

router = APIRouter(prefix="/api", tags=["lobby"])
GameId = Annotated[int, PathParam(ge=-db.INT_MAX, le=db.INT_MAX)]
RequiredUser = Annotated[User, Depends(require_user)]


def _running(svc: GameService, user: User, game_id: int, role: str,
             invite: str | None = None) -> tuple[Any, Any]:
    with svc.db.read() as conn:
        row, seats = svc._visible_row(conn, game_id, user, invite)
    if row.status not in RUNNING:
        raise Conflict("The game is not running: before the start use join and leave.", code="not_running")
    seat = next((s for s in seats if s.role == role), None)
    if seat is None:
        raise BadRequest(f"This game has no role {role!r}; roles: {', '.join(s.role for s in seats)}.")
    return row, seat


def _name(conn: Connection, user_id: int | None) -> str | None:
    if user_id is None:
        return None
    name = conn.execute(sa.select(db.users.c.name).where(db.users.c.id == user_id)).scalar()
    return None if name is None else str(name)


def _record(conn: Connection, game_id: int, role: str, from_id: int | None, to_id: int | None,
            text: str) -> None:
    """Add a seat change to the game's public record."""
    conn.execute(db.seat_changes.insert().values(
        game_id=game_id, role=role, from_user_id=from_id, from_name=_name(conn, from_id),
        to_user_id=to_id, to_name=_name(conn, to_id), text=text, created_at=time.time()))


def _check_one_seat(svc: GameService, conn: Connection, row: Any, role: str, uid: int, who: str) -> None:
    """Refuse the seat ``role`` to user ``uid`` when he holds, or has held since the start,
    another seat of a game whose roles hide things from each other."""
    if not svc._rules(row.game).roles_hide_from_each_other:
        return
    held = {str(r) for (r,) in conn.execute(sa.select(db.seats.c.role).where(
        db.seats.c.game_id == row.id, db.seats.c.user_id == uid))}
    held |= {str(r) for (r,) in conn.execute(sa.select(db.seat_changes.c.role).where(
        db.seat_changes.c.game_id == row.id, db.seat_changes.c.from_user_id == uid))}
    held.discard(role)
    if held:
        verb = "hold or held" if who == "You" else "holds or held"
        raise Conflict(f"{who} {verb} the seat of {sorted(held)[0]} in this game: a person holds one "
                       "seat of a game whose roles hide things from each other.", code="one_seat")


def away(active_since: float | None, now: float) -> bool:
    """The game's abandonment rule: the seat has waited :data:`ABANDON_AFTER` for its holder."""
    return active_since is not None and now - float(active_since) >= ABANDON_AFTER


def vacate(svc: GameService, user: User, game_id: int, role: str, bot: str | None = None) -> dict[str, Any]:
    """The holder of ``role`` leaves it, or the creator frees it when its holder is away by the
    abandonment rule; ``bot`` stands in."""
    if bot is not None:
        _check_bot(bot, svc.bot_caps)
    with svc._game_lock(game_id):
        row, seat = _running(svc, user, game_id, role)
        if seat.user_id is None:
            raise Conflict(f"No player holds the seat of {role}.", code="seat_empty")
        own = seat.user_id == user.id
        if not own and row.owner_id != user.id and not user.is_admin:
            raise Forbidden("Only the seat's player or the game's creator may vacate it.", code="not_owner")
        with svc.db.write() as conn:
            active_since = conn.execute(sa.select(db.seats.c.active_since).where(
                db.seats.c.game_id == game_id, db.seats.c.role == role)).scalar()
            if not own and not away(active_since, time.time()):
                raise Conflict(f"The player of {role} is not away: his seat passes only when he leaves it, "
                               f"or when it has waited {ABANDON_AFTER / 86400:.0f} days for his decision.",
                               code="player_present")
            done = conn.execute(db.seats.update().where(db.seats.c.game_id == game_id, db.seats.c.role == role,
                                                        db.seats.c.user_id == seat.user_id)
                                .values(user_id=None, bot=bot)).rowcount
            if done != 1:
                raise Conflict(f"The seat of {role} changed meanwhile.", code="seat_taken")
            holder = _name(conn, seat.user_id)
            why = f"{holder} left" if own else \
                f"{holder} was away ({ABANDON_AFTER / 86400:.0f} days without his decision), {user.name} freed it"
            to = f"the bot {bot}" if bot else "nobody"
            _record(conn, game_id, role, seat.user_id, None, f"{role}'s seat passed from {holder} to {to}: {why}.")
        svc.seats_changed(game_id)
    # Not the game's description: a player who left a private game may no longer see it.
    return {"game_id": game_id, "role": role, "user": None, "bot": bot}


def claim(svc: GameService, user: User, game_id: int, role: str, invite: str | None = None) -> dict[str, Any]:
    """``user`` takes the empty seat ``role`` of a running game."""
    with svc._game_lock(game_id):
        row, seat = _running(svc, user, game_id, role, invite)
        if seat.taken:
            raise Conflict(f"The seat of {role} is not empty.", code="seat_taken")
        with svc.db.write() as conn:
            _check_one_seat(svc, conn, row, role, user.id, "You")
            done = conn.execute(db.seats.update().where(
                db.seats.c.game_id == game_id, db.seats.c.role == role, db.seats.c.user_id.is_(None),
                db.seats.c.bot.is_(None)).values(user_id=user.id)).rowcount
            if done != 1:
                raise Conflict(f"The seat of {role} was just taken.", code="seat_taken")
            _record(conn, game_id, role, None, user.id, f"{role}'s seat passed to {user.name}: he claimed it.")
        svc.seats_changed(game_id)
    return svc.game(user, game_id, invite)


def assign(svc: GameService, user: User, game_id: int, role: str, name: str) -> dict[str, Any]:
    """The creator gives the seat ``role`` (empty or a bot's) to the user ``name``."""
    with svc._game_lock(game_id):
        row, seat = _running(svc, user, game_id, role)
        if row.owner_id != user.id and not user.is_admin:
            raise Forbidden("Only the game's creator may give a seat.", code="not_owner")
        if seat.user_id is not None:
            raise Conflict(f"A player holds the seat of {role}: vacate it first.", code="seat_taken")
        with svc.db.write() as conn:
            uid = conn.execute(sa.select(db.users.c.id).where(db.users.c.name_key == name.lower())).scalar()
            if uid is None:
                raise NotFound(f"There is no user {name!r}.", code="unknown_user")
            uid = int(uid)
            _check_one_seat(svc, conn, row, role, uid, "You" if uid == user.id else name)
            done = conn.execute(db.seats.update().where(db.seats.c.game_id == game_id, db.seats.c.role == role,
                                                        db.seats.c.user_id.is_(None))
                                .values(user_id=uid, bot=None)).rowcount
            if done != 1:
                raise Conflict(f"The seat of {role} was just taken.", code="seat_taken")
            _record(conn, game_id, role, None, uid, f"{role}'s seat passed to {_name(conn, uid)}: "
                                                    f"{user.name} gave it.")
        svc.seats_changed(game_id)
    return svc.game(user, game_id)


def roles_for(game: str, scenario: str | None, options: dict[str, Any]) -> list[str]:
    """The seats a game created with ``options`` has (Kingmaker: P1..PN and the umpire's)."""
    rules = GameService._rules(game)
    scenario = scenario or rules.scenarios[0]
    try:
        rules.check_scenario(scenario)
        _check_options(rules, options)
        return list(rules.roles(scenario, options))
    except RosesError as exc:
        raise BadRequest(str(exc), code="bad_setup") from exc
    except (TypeError, ValueError) as exc:
        raise BadRequest(f"Bad options: {exc}", code="bad_setup") from exc


class RolesIn(BaseModel):
    scenario: str | None = Field(default=None, max_length=80)
    options: dict[str, Any] = Field(default_factory=dict)


@router.post("/rules/{game}/roles")
def post_roles(game: Annotated[str, PathParam(max_length=40)], body: RolesIn) -> dict[str, Any]:
    """The seats of a game of ``game`` with these options (for the lobby's form)."""
    return {"roles": roles_for(game, body.scenario, body.options)}


class VacateIn(BaseModel):
    bot: str | None = Field(default=None, max_length=80)


class AssignIn(BaseModel):
    user: str = Field(max_length=40)


@router.post("/games/{game_id}/seats/{role}/vacate")
def post_vacate(request: Request, game_id: GameId, role: str, body: VacateIn, user: RequiredUser) -> dict[str, Any]:
    return vacate(services(request).games, user, game_id, role, body.bot)


@router.post("/games/{game_id}/seats/{role}/claim")
def post_claim(request: Request, game_id: GameId, role: str, user: RequiredUser,
               invite: str | None = None) -> dict[str, Any]:
    return claim(services(request).games, user, game_id, role, invite)


@router.post("/games/{game_id}/seats/{role}/assign")
def post_assign(request: Request, game_id: GameId, role: str, body: AssignIn, user: RequiredUser) -> dict[str, Any]:
    return assign(services(request).games, user, game_id, role, body.user)
