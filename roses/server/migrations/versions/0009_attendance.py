"""Reminders before a deadline and vacations (roses.server.attendance).

``reminders_sent`` holds one row per reminder sent (game, role, the deadline it was about): a
worker sends a reminder only if it inserted that row, so several workers send it once.
``vacations`` holds the periods players stated for a seat, and whether the stand-in bot has
been seated.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reminders_sent",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("role", sa.String(40), primary_key=True),
        sa.Column("due", sa.Float, primary_key=True),
        sa.Column("sent_at", sa.Float, nullable=False),
    )
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
        sa.Column("role", sa.String(40), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("start", sa.Float, nullable=False),
        sa.Column("until", sa.Float, nullable=False, index=True),
        sa.Column("bot", sa.String(80), nullable=True),
        sa.Column("seated", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_table("vacations")
    op.drop_table("reminders_sent")
