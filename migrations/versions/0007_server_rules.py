"""Server admins' rules: where and by whom games may be started, the server's timeouts and level.

``server_settings`` gains the role needed to start or accept a game, the two timeouts (seconds;
null: the bot's defaults) and the level of ``/ttt start`` without one; ``server_channels`` lists
the channels where games may be started (none listed: every channel).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("server_settings") as batch:
        batch.add_column(sa.Column("role_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("turn_timeout_seconds", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("challenge_timeout_seconds", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("default_level", sa.String(length=16), nullable=True))
    op.create_table(
        "server_channels",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("channel_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "channel_id", name=op.f("pk_server_channels")),
    )


def downgrade() -> None:
    op.drop_table("server_channels")
    with op.batch_alter_table("server_settings") as batch:
        batch.drop_column("default_level")
        batch.drop_column("challenge_timeout_seconds")
        batch.drop_column("turn_timeout_seconds")
        batch.drop_column("role_id")
