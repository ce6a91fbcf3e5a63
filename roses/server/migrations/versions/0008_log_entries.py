"""The log of each game in rows of its own; snapshots without their log (roses.server.store).

``log_entries`` gets the log of every started game (from ``games.state``, the state at the
game's version), and ``games.state`` is cleared: the state lives in ``snapshots`` and
``log_entries``. Snapshots stored before keep their whole state (``log_len`` NULL) and load
as they are.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "log_entries",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("entry", sa.Text, nullable=False),
    )
    op.add_column("snapshots", sa.Column("log_len", sa.Integer, nullable=True))
    conn = op.get_bind()
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("state", sa.Text))
    entries = sa.table("log_entries", sa.column("game_id", sa.Integer), sa.column("idx", sa.Integer),
                       sa.column("entry", sa.Text))
    ids = [int(r.id) for r in conn.execute(sa.select(games.c.id).where(games.c.state.is_not(None)))]
    for gid in ids:  # one game at a time: bounded memory on a large database
        text = conn.execute(sa.select(games.c.state).where(games.c.id == gid)).scalar()
        state = json.loads(text) if text else None
        log = state.get("log") if isinstance(state, dict) else None
        if isinstance(log, list) and log:
            conn.execute(entries.insert(), [
                {"game_id": gid, "idx": i, "entry": json.dumps(e, separators=(",", ":"), ensure_ascii=False)}
                for i, e in enumerate(log)])
        conn.execute(games.update().where(games.c.id == gid).values(state=None))


def downgrade() -> None:
    # Snapshots written after the upgrade have no log of their own: a downgraded server cannot
    # load them (only games whose last snapshot predates the upgrade still load).
    with op.batch_alter_table("snapshots") as batch:
        batch.drop_column("log_len")
    op.drop_table("log_entries")
