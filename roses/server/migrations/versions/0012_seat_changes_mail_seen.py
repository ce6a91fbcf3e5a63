"""The public record of seat changes in running games (roses.server.tables), and the e-mail
orders already processed (roses.server.mailin: by Message-ID and by content digest).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("role", sa.String(40), nullable=False),
        sa.Column("from_user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("from_name", sa.String(80), nullable=True),
        sa.Column("to_user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True),
        sa.Column("to_name", sa.String(80), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_seat_changes_game_id", "seat_changes", ["game_id"])
    op.create_table(
        "mail_seen",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_mail_seen_created_at", "mail_seen", ["created_at"])


def downgrade() -> None:
    op.drop_table("mail_seen")
    op.drop_table("seat_changes")
