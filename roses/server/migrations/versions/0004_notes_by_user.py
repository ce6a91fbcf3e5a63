"""Private notes belong to the player, not the seat: ``notes`` keyed by (game, user, role).

Existing notes go to the user who holds the seat now; notes of empty or bot seats are dropped.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notes_by_user",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("role", sa.String(40), primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.execute(
        "INSERT INTO notes_by_user (game_id, user_id, role, text, updated_at) "
        "SELECT n.game_id, s.user_id, n.role, n.text, n.updated_at FROM notes n "
        "JOIN seats s ON s.game_id = n.game_id AND s.role = n.role WHERE s.user_id IS NOT NULL")
    op.drop_table("notes")
    op.rename_table("notes_by_user", "notes")


def downgrade() -> None:
    op.create_table(
        "notes_by_role",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("role", sa.String(40), primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.execute(
        "INSERT INTO notes_by_role (game_id, role, text, updated_at) "
        "SELECT n.game_id, n.role, n.text, n.updated_at FROM notes n "
        "JOIN seats s ON s.game_id = n.game_id AND s.role = n.role AND s.user_id = n.user_id")
    op.drop_table("notes")
    op.rename_table("notes_by_role", "notes")
