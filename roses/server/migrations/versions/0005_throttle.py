"""Atomic rate limits and known login devices.

``throttle``: one row per limited key (a hash), counted and checked in one locked step
(roses.server.limits). ``login_devices``: browsers a user has logged in from (only the hash of
the cookie), which the per-name login back-off does not hold up. ``rate_hits`` (the
older counters, checked and counted in two steps) is dropped.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "throttle",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("since", sa.Float, nullable=False),
        sa.Column("blocked_until", sa.Float, nullable=False),
    )
    op.create_index("ix_throttle_since", "throttle", ["since"])
    op.create_table(
        "login_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_login_devices_user_id", "login_devices", ["user_id"])
    op.drop_table("rate_hits")  # replaced by throttle


def downgrade() -> None:
    op.create_table(
        "rate_hits",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rate_hits_key_at", "rate_hits", ["key", "at"])
    op.create_index("ix_rate_hits_at", "rate_hits", ["at"])
    op.drop_table("login_devices")
    op.drop_table("throttle")
