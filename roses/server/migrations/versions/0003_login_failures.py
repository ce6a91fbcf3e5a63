"""Rate-limit counters shared by all workers: login failures and sign-ups per key.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_hits",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rate_hits_key_at", "rate_hits", ["key", "at"])
    op.create_index("ix_rate_hits_at", "rate_hits", ["at"])


def downgrade() -> None:
    op.drop_table("rate_hits")
