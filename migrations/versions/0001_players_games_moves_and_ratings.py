"""Players, games, moves and ratings.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE_GAME_CONDITION = "status IN ('pending', 'active')"


def _enum(name: str, *values: str) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=16)


def _timestamp(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("size", sa.SmallInteger(), nullable=False),
        sa.Column("k", sa.SmallInteger(), nullable=False),
        sa.Column("level", sa.String(length=16), nullable=True),
        sa.Column("x_player_id", sa.BigInteger(), nullable=True),
        sa.Column("o_player_id", sa.BigInteger(), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column(
            "status",
            _enum("game_status", "pending", "active", "finished", "cancelled", "expired"),
            nullable=False,
        ),
        sa.Column("result", _enum("game_result", "x_won", "o_won", "draw"), nullable=True),
        sa.Column(
            "end_reason",
            _enum("end_reason", "line", "full", "resign", "timeout", "cancel", "declined"),
            nullable=True,
        ),
        sa.Column("board", sa.String(length=25), nullable=False),
        sa.Column("ply", sa.SmallInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("last_cell", sa.SmallInteger(), nullable=True),
        _timestamp("deadline", nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("message_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("seed", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("rated", sa.Boolean(), server_default=sa.text("false"), nullable=False),
        sa.Column("rating_weight", sa.Float(), server_default=sa.text("0"), nullable=False),
        sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        _timestamp("finished_at", nullable=True),
        sa.CheckConstraint(
            "(level IS NULL) = (x_player_id IS NOT NULL AND o_player_id IS NOT NULL)",
            name=op.f("ck_games_level_iff_bot"),
        ),
        sa.CheckConstraint("ply >= 0 AND ply <= size * size", name=op.f("ck_games_ply")),
        sa.CheckConstraint("size IN (3, 4, 5)", name=op.f("ck_games_size")),
        sa.CheckConstraint(
            "x_player_id IS NOT NULL OR o_player_id IS NOT NULL", name=op.f("ck_games_one_human")
        ),
        sa.ForeignKeyConstraint(["created_by"], ["players.id"], name=op.f("fk_games_created_by_players")),
        sa.ForeignKeyConstraint(["o_player_id"], ["players.id"], name=op.f("fk_games_o_player_id_players")),
        sa.ForeignKeyConstraint(["x_player_id"], ["players.id"], name=op.f("fk_games_x_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_index("ix_games_created_by_created_at", "games", ["created_by", "created_at"])
    op.create_index("ix_games_o_player_id", "games", ["o_player_id"])
    op.create_index("ix_games_x_player_id", "games", ["x_player_id"])
    op.create_index("ix_games_status_deadline", "games", ["status", "deadline"])
    # At most one live game per channel, kept by the database itself (partial unique index).
    op.create_index(
        "uq_games_live_channel",
        "games",
        ["channel_id"],
        unique=True,
        sqlite_where=sa.text(LIVE_GAME_CONDITION),
        postgresql_where=sa.text(LIVE_GAME_CONDITION),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("scope", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("wins", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("losses", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("draws", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("best_rating", sa.Float(), nullable=False),
        _timestamp("updated_at"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_ratings_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", "scope", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_scope_rating", "ratings", ["scope", "rating"])
    op.create_table(
        "moves",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("cell", sa.SmallInteger(), nullable=False),
        sa.Column("mark", sa.String(length=1), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=True),
        _timestamp("played_at"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_moves_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_moves_player_id_players")),
        sa.PrimaryKeyConstraint("game_id", "ply", name=op.f("pk_moves")),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_index("ix_ratings_scope_rating", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("uq_games_live_channel", table_name="games")
    op.drop_index("ix_games_status_deadline", table_name="games")
    op.drop_index("ix_games_x_player_id", table_name="games")
    op.drop_index("ix_games_o_player_id", table_name="games")
    op.drop_index("ix_games_created_by_created_at", table_name="games")
    op.drop_table("games")
    op.drop_table("players")
