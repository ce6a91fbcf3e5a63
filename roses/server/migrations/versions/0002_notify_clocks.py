"""Notifications, clocks, presence: webhook settings, clock deadline and lease, outbox, presence.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("webhook_url", sa.String(500), nullable=True))
        batch.add_column(sa.Column("webhook_format", sa.String(16), nullable=True))
        batch.add_column(sa.Column("webhook_error", sa.Text, nullable=True))
        batch.add_column(sa.Column("webhook_error_at", sa.Float, nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock_deadline", sa.Float, nullable=True))
        batch.add_column(sa.Column("lease_until", sa.Float, nullable=True))
    op.create_index("ix_games_clock_deadline", "games", ["clock_deadline"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("target", sa.String(500), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("next_at", sa.Float, nullable=False),
        sa.Column("lease_until", sa.Float, nullable=True),
        sa.Column("lease_owner", sa.String(64), nullable=True),
        sa.Column("last_error", sa.Text, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_outbox_status_next_at", "outbox", ["status", "next_at"])
    op.create_table(
        "presence",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("worker", sa.String(64), nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("ix_presence_user_id", "presence", ["user_id"])


def downgrade() -> None:
    op.drop_table("presence")
    op.drop_table("outbox")
    op.drop_index("ix_games_clock_deadline", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("clock_deadline")
    with op.batch_alter_table("users") as batch:
        for col in ("webhook_error_at", "webhook_error", "webhook_format", "webhook_url"):
            batch.drop_column(col)
