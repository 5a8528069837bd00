"""Rating changes: a player's rating after each rated game, per scope, for the rating chart.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rating_changes",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_rating_changes_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_rating_changes_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "scope", "game_id", name=op.f("pk_rating_changes")),
    )
    op.create_index(
        "ix_rating_changes_player_id_scope_played_at",
        "rating_changes",
        ["player_id", "scope", "played_at"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player_id_scope_played_at", table_name="rating_changes")
    op.drop_table("rating_changes")
