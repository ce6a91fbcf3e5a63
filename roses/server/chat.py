"""A game's chat and each seat's private notes. Part of :class:`GameService` (``service.py``),
over the store of :mod:`roses.server.gamestore`."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from roses.server import db, gamestore
from roses.server.auth import User
from roses.server.errors import (
    BadRequest,
    Forbidden,
    NotFound,
)
from roses.server.events import (
    Event,
)
from roses.server.gamestore import (
    MAX_CHAT,
    MAX_NOTE,
    GameStore,
    Seat,
)
from roses.server.store import (
    SELECT_CHAT,
    PlayRow,
)


class ChatAndNotes(GameStore):
    """Chat and notes (module docstring)."""

    def visible_play_row(self, conn: Connection, game_id: int, user: User | None,
                         invite: str | None = None) -> tuple[PlayRow, list[Seat]]:
        """:meth:`_visible_row` without the game's state and, when the game is in memory, with
        its cached seats (the reads of chat and messages)."""
        row, seats = self._play_row(conn, game_id)
        if not self._may_see(row, seats, user, invite):
            raise NotFound(f"There is no game {game_id}.", code="unknown_game")
        return row, seats

    def _player_row(self, conn: Connection, game_id: int, user: User) -> tuple[Any, list[Seat]]:
        row, seats = self.visible_play_row(conn, game_id, user)
        if not any(s.user_id == user.id for s in seats):
            raise Forbidden("Only the game's players may use its chat.", code="not_seated")
        return row, seats

    def chat(self, user: User, game_id: int, since: int = 0) -> list[dict[str, Any]]:
        with self.db.read() as conn:
            return self.chat_in(conn, user, game_id, since)

    def chat_in(self, conn: Connection, user: User, game_id: int, since: int = 0) -> list[dict[str, Any]]:
        """:meth:`chat` inside the caller's read transaction."""
        self._player_row(conn, game_id, user)
        rows = SELECT_CHAT.all(conn, (game_id, since))
        return [{"id": r[0], "user": r[3], "text": r[1], "time": r[2]} for r in rows]

    def post_chat(self, user: User, game_id: int, text: str) -> dict[str, Any]:
        text = (text or "").strip()
        if not text or len(text) > MAX_CHAT:
            raise BadRequest(f"A chat message has 1-{MAX_CHAT} characters.")
        with self.db.read() as conn:
            self._player_row(conn, game_id, user)
        if self.limit_chat is not None:
            self.limit_chat(user)
        now = gamestore._now()
        with self.db.write() as conn:
            self._player_row(conn, game_id, user)
            cid = conn.execute(db.chat.insert().values(game_id=game_id, user_id=user.id, text=text,
                                                       created_at=now).returning(db.chat.c.id)).scalar_one()
        self.bus.publish(Event("chat", game_id, data={"id": int(cid)}))
        return {"id": int(cid), "user": user.name, "text": text, "time": now}

    def _note_role(self, conn: Connection, game_id: int, user: User, role: str) -> None:
        _, seats = self._visible_row(conn, game_id, user)
        if not any(s.role == role and s.user_id == user.id for s in seats):
            raise Forbidden(f"You do not play {role} in this game.", code="not_your_seat")

    def get_note(self, user: User, game_id: int, role: str) -> str:
        """``user``'s own notes for ``role`` (a later holder of the seat does not see them)."""
        n = db.notes.c
        with self.db.read() as conn:
            self._note_role(conn, game_id, user, role)
            text = conn.execute(sa.select(n.text).where(
                n.game_id == game_id, n.user_id == user.id, n.role == role)).scalar()
        return str(text or "")

    def put_note(self, user: User, game_id: int, role: str, text: str) -> str:
        if len(text) > MAX_NOTE:
            raise BadRequest(f"A note has at most {MAX_NOTE} characters.")
        n = db.notes.c
        mine = sa.and_(n.game_id == game_id, n.user_id == user.id, n.role == role)
        with self.db.write() as conn:
            self._note_role(conn, game_id, user, role)
            done = conn.execute(db.notes.update().where(mine).values(text=text, updated_at=gamestore._now())).rowcount
            if not done:
                try:
                    with conn.begin_nested():  # another worker may insert it at the same moment
                        conn.execute(db.notes.insert().values(game_id=game_id, user_id=user.id, role=role,
                                                              text=text, updated_at=gamestore._now()))
                except sa.exc.IntegrityError:
                    conn.execute(db.notes.update().where(mine).values(text=text, updated_at=gamestore._now()))
        return text
