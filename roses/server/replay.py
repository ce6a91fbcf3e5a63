"""Replay of a finished game step by step, as any role saw it, and its export as a record.
Part of :class:`GameService` (``service.py``), over the store of :mod:`roses.server.gamestore`."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from roses.engine import OBSERVER, Game
from roses.server import db, store
from roses.server.auth import User
from roses.server.errors import (
    BadRequest,
    Conflict,
    NotFound,
)
from roses.server.gamestore import (
    FINISHED_STATUS,
    GameStore,
    Seat,
    _label,
)
from roses.server.store import (
    SELECT_SNAPSHOT,
    join_state,
)


class ReplayAndExport(GameStore):
    """Replay and export (module docstring)."""

    def _finished_row(self, conn: Connection, game_id: int, user: User | None,
                      invite: str | None) -> tuple[Any, list[Seat]]:
        row, seats = self._visible_row(conn, game_id, user, invite)
        if row.status != FINISHED_STATUS:
            raise Conflict("Replay and export open when the game is over: before that they would "
                           "reveal hidden information.", code="game_running")
        return row, seats

    def replay_info(self, user: User | None, game_id: int, invite: str | None = None) -> dict[str, Any]:
        with self.db.read() as conn:
            row, seats = self._finished_row(conn, game_id, user, invite)
            acts = self._actions(conn, game_id)
        return {"game_id": game_id, "steps": len(acts) + 1, "roles": [s.role for s in seats],
                "result": row.result, "actions": acts}

    def replay_step(self, user: User | None, game_id: int, step: int, role: str = OBSERVER,
                    invite: str | None = None) -> dict[str, Any]:
        """The view ``role`` had after ``step`` actions (0: after setup), of a finished game."""
        with self.db.read() as conn:
            row, seats = self._finished_row(conn, game_id, user, invite)
            if not 0 <= step <= row.version:
                raise NotFound(f"Step {step} is outside 0..{row.version}.", code="no_such_step")
            if role != OBSERVER and role not in [s.role for s in seats]:
                raise BadRequest(f"This game has no role {role!r}.")
            # The snapshot before the step's action (its label); its log is a prefix of the rows.
            seq, text, log_len = SELECT_SNAPSHOT.first(conn, (game_id, max(step - 1, 0))) or (0, "{}", None)
            state = join_state(text, log_len, lambda n: store.log_entries(conn, game_id, n))
            rows = conn.execute(sa.select(db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
                                .where(db.actions.c.game_id == game_id, db.actions.c.seq > seq,
                                       db.actions.c.seq <= step).order_by(db.actions.c.seq)).all()
            last = conn.execute(sa.select(db.actions.c.role, db.actions.c.verb, db.actions.c.arg)
                                .where(db.actions.c.game_id == game_id, db.actions.c.seq == step)).first()
        rules = self._rules(row.game)
        game = Game(rules=rules, seed=int(row.seed), scenario=row.scenario,
                    options=json.loads(row.options), actions=[], state=state)
        label = None
        for i, a in enumerate(rows):
            if i == len(rows) - 1 and last is not None:  # the step's action, labelled as it was offered
                label = _label(rules, game.state, a.role, a.verb, json.loads(a.arg))
            game.apply(a.role, a.verb, json.loads(a.arg))
        return {"game_id": game_id, "step": step, "role": role,
                "action": None if last is None else {"role": last.role, "verb": last.verb,
                                                     "arg": json.loads(last.arg)},
                "action_label": label, "view": rules.view(game.state, role)}

    def export(self, user: User | None, game_id: int, invite: str | None = None) -> dict[str, Any]:
        with self.db.read() as conn:
            row, seats = self._finished_row(conn, game_id, user, invite)
            return self._record(conn, row, seats)
