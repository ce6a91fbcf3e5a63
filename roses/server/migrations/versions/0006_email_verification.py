"""E-mail addresses are verified by a link before notifications are mailed to them.

``users.email_verified``: the current address was confirmed; ``email_token`` (SHA-256 of the
link's secret) and ``email_token_at``: the pending confirmation. Existing addresses count as
unverified.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no table rebuild, which would drop and recreate ``users``).
    op.add_column("users", sa.Column("email_verified", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("users", sa.Column("email_token", sa.String(64), nullable=True))
    op.add_column("users", sa.Column("email_token_at", sa.Float, nullable=True))
    op.create_index("ix_users_email_token", "users", ["email_token"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_users_email_token", "users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("email_token_at")
        batch.drop_column("email_token")
        batch.drop_column("email_verified")
