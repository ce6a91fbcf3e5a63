"""Private messages between the seats of a game (negotiation), any game.

A **channel** is a set of seats (two for a one-to-one conversation, more for a group), with a
flag that copies it to the umpire's seat (a game whose rules declare one, ``Rules.umpire``, and
whose roles include it). Messages belong to seats, not to the people holding them: whoever holds
a member seat reads the channel, and a newcomer to a seat reads what that seat was sent, never
another seat's (as the seat's view and log).

Who reads a channel: the holder of a member seat, and the holder of the umpire's seat when the
channel is copied to him. Nobody else: not the other seats, not observers, not the gazette,
the game log or the e-mails, which never read these tables. Delivery: the event ``message``
(``roses.server.events``) names the channel's readers; each play socket
(``roses/server/ws.py``) of one of those seats fetches the new messages for its own seat and
sends ``{"type": "messages", "channels": [...], "messages": [...]}``; the other readers who are
not connected get a notification (``roses/server/notify.py``, kind ``message``) that names the
sender's seat and the game, never the text.

Routes (the acting seat is ``role``; a user holding one seat may leave it out):

- ``GET /api/games/{id}/messages?role=R&since=N``: the seat's channels and their messages
  after id ``N``.
- ``POST /api/games/{id}/messages`` ``{"role", "to": [roles], "umpire": bool, "text"}``: a
  message to the channel of the seats ``to`` plus the sender (created on first use; the
  umpire's copy makes a different channel from the same seats without it).

Limits: 1-2000 characters, the chat's rate limit per user, at most 8 other seats.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Connection

from roses.engine import OBSERVER
from roses.engine.registry import get_rules
from roses.server import db
from roses.server.auth import User
from roses.server.deps import require_user, services
from roses.server.errors import BadRequest, Forbidden
from roses.server.events import Event
from roses.server.service import GameService, Seat, _now
from roses.server.store import SELECT_CHANNELS

MESSAGE = "message"
MAX_TEXT = 2000
MAX_TO = 8

router = APIRouter(prefix="/api", tags=["play"])
GameId = Annotated[int, PathParam(ge=-db.INT_MAX, le=db.INT_MAX)]
RequiredUser = Annotated[User, Depends(require_user)]


class MessageIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: str | None = Field(default=None, max_length=40)
    to: list[str] = Field(min_length=1, max_length=MAX_TO)
    umpire: bool = False
    text: str = Field(min_length=1, max_length=MAX_TEXT)


def readers(members: list[str], umpire: str | None) -> list[str]:
    """The seats that read a channel: its members, and ``umpire`` (the umpire's seat, when the
    channel is copied to him)."""
    return sorted(set(members) | ({umpire} if umpire else set()))


def umpire_role(game: str, roles: list[str]) -> str | None:
    """The umpire's seat of a game of ``game`` with ``roles`` (the rules' declaration), or None."""
    seat = get_rules(game).umpire
    return seat.role if seat is not None and seat.role in roles else None


def _seat_of(svc: GameService, conn: Connection, game_id: int, user: User, role: str | None) -> tuple[str, list[Seat]]:
    """The seat ``user`` speaks or reads for (a seat he holds), and the game's seats."""
    role, seats, _ = _seat_and_game(svc, conn, game_id, user, role)
    return role, seats


def _seat_and_game(svc: GameService, conn: Connection, game_id: int, user: User,
                   role: str | None) -> tuple[str, list[Seat], str | None]:
    """:func:`_seat_of`, and the game's umpire's seat (None: it has none)."""
    row, seats = svc.visible_play_row(conn, game_id, user)  # refuses a game the user may not see
    umpire = umpire_role(row.game, [s.role for s in seats])
    mine = [s.role for s in seats if s.user_id == user.id]
    if not mine:
        raise Forbidden("Only the game's players may send or read private messages.", code="not_seated")
    if role is None:
        if len(mine) != 1:
            raise BadRequest("You hold several seats: say which role speaks.", code="which_role")
        return mine[0], seats, umpire
    if role == OBSERVER or role not in mine:
        raise Forbidden(f"You do not play {role} in this game.", code="not_your_seat")
    return role, seats, umpire


def _channel_rows(conn: Connection, game_id: int, role: str, umpire_seat: str | None) -> list[dict[str, Any]]:
    out = []
    for cid, members_json, umpire in SELECT_CHANNELS.all(conn, (game_id,)):
        members = json.loads(members_json)
        if role in readers(members, umpire_seat if umpire else None):
            out.append({"id": int(cid), "members": members, "umpire": bool(umpire)})
    return out


def read(svc: GameService, user: User, game_id: int, role: str | None = None, since: int = 0) -> dict[str, Any]:
    """The channels of ``role`` (a seat of ``user``) and their messages after id ``since``."""
    with svc.db.read() as conn:
        return read_in(svc, conn, user, game_id, role, since)


def read_in(svc: GameService, conn: Connection, user: User, game_id: int, role: str | None = None,
            since: int = 0) -> dict[str, Any]:
    """:func:`read` inside the caller's read transaction."""
    m, u = db.channel_messages.c, db.users.c
    role, _, umpire_seat = _seat_and_game(svc, conn, game_id, user, role)
    channels = _channel_rows(conn, game_id, role, umpire_seat)
    ids = [c["id"] for c in channels]
    rows = conn.execute(
        sa.select(m.id, m.channel_id, m.role, m.text, m.created_at, u.name)
        .select_from(db.channel_messages.outerjoin(db.users, u.id == m.user_id))
        .where(m.game_id == game_id, m.channel_id.in_(ids), m.id > since).order_by(m.id)).all() if ids else []
    return {"role": role, "channels": channels,
            "messages": [{"id": int(r.id), "channel": int(r.channel_id), "role": r.role, "user": r.name,
                          "text": r.text, "time": r.created_at} for r in rows]}


def post(svc: GameService, user: User, game_id: int, role: str | None, to: list[str], umpire: bool,
         text: str) -> dict[str, Any]:
    """Send ``text`` from ``role`` to the channel of ``to`` (+ the sender, + the umpire's copy)."""
    text = (text or "").strip()
    if not text or len(text) > MAX_TEXT:
        raise BadRequest(f"A message has 1-{MAX_TEXT} characters.")
    if any(ord(c) < 32 and c not in "\n\t" for c in text):
        raise BadRequest("A message may not hold control characters.")
    if not to or len(to) > MAX_TO or not all(isinstance(r, str) for r in to):
        raise BadRequest(f"Send to 1 to {MAX_TO} other seats.")
    with svc.db.read() as conn:
        row = svc._row(conn, game_id)
        if row.status not in ("active", "paused", "finished"):
            raise BadRequest("Private messages open when the game starts.", code="not_started")
        role, seats, umpire_seat = _seat_and_game(svc, conn, game_id, user, role)
    roles = [s.role for s in seats]
    unknown = [r for r in to if r not in roles]
    if unknown:
        raise BadRequest(f"This game has no seat {unknown[0]!r}; seats: {', '.join(roles)}.")
    members = sorted(set(to) | {role}, key=roles.index)
    if len(members) < 2:
        raise BadRequest("Send to at least one other seat.")
    if umpire and umpire_seat is None:
        raise BadRequest("This game has no umpire's seat to copy.", code="no_umpire")
    if umpire and umpire_seat in members:
        umpire = False  # he is a member already
    if svc.limit_chat is not None:
        svc.limit_chat(user)
    now = _now()
    ch = db.channels.c
    key = json.dumps(members)
    with svc.db.write() as conn:
        _seat_of(svc, conn, game_id, user, role)  # still his seat
        cid = conn.execute(sa.select(ch.id).where(ch.game_id == game_id, ch.members == key,
                                                  ch.umpire == int(umpire))).scalar()
        if cid is None:
            cid = conn.execute(db.channels.insert().values(game_id=game_id, members=key, umpire=int(umpire),
                                                           created_at=now).returning(ch.id)).scalar_one()
        mid = conn.execute(db.channel_messages.insert().values(
            game_id=game_id, channel_id=cid, role=role, user_id=user.id, text=text, created_at=now)
            .returning(db.channel_messages.c.id)).scalar_one()
    seen = readers(members, umpire_seat if umpire else None)
    svc.bus.publish(Event(MESSAGE, game_id, data={"readers": seen}))
    # The notifications (roses/server/notify.py) tell the other readers who are not connected
    # that a message came, never its text.
    away = tuple(sorted({s.user_id for s in seats if s.role in seen and s.user_id is not None
                         and s.user_id != user.id}))
    if away:
        svc.notifiers.notify(Event(MESSAGE, game_id, users=away, data={"from": role}))
    return {"id": int(mid), "channel": int(cid), "members": members, "umpire": umpire, "role": role,
            "user": user.name, "text": text, "time": now}


@router.get("/games/{game_id}/messages")
def get_messages(request: Request, game_id: GameId, user: RequiredUser, role: str | None = None,
                 since: int = 0) -> dict[str, Any]:
    """A seat's private channels and their messages (its holder only)."""
    return read(services(request).games, user, game_id, role, max(0, since))


@router.post("/games/{game_id}/messages", status_code=201)
def post_message(request: Request, game_id: GameId, body: MessageIn, user: RequiredUser) -> dict[str, Any]:
    """Send a private message to other seats (optionally copied to the umpire)."""
    return post(services(request).games, user, game_id, body.role, body.to, body.umpire, body.text)
