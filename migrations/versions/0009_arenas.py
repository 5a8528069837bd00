"""Arenas: Swiss tournaments, their players, rounds and pairings.

``arenas`` holds one tournament in one channel (at most one open or running per channel, a
partial unique index as for games); ``arena_players`` its players with their seed and the round
after which they left; ``arena_rounds`` each round's message and bye; ``arena_pairings`` each
round's games, with the game played in its thread and the result. ``games.arena_id`` names the
arena a game belongs to.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE_ARENA_CONDITION = "status IN ('open', 'running')"


def _enum(name: str, *values: str) -> sa.Enum:
    return sa.Enum(*values, name=name, native_enum=False, create_constraint=True, length=16)


def _timestamp(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _player(table: str, column: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], ["players.id"], name=op.f(f"fk_{table}_{column}_players"))


def _of_arena(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["arena_id"], ["arenas.id"], name=op.f(f"fk_{table}_arena_id_arenas"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "arenas",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("opened_by", sa.BigInteger(), nullable=False),
        sa.Column("size", sa.SmallInteger(), nullable=False),
        sa.Column("rounds", sa.SmallInteger(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column(
            "status", _enum("arena_status", "open", "running", "finished", "cancelled"), nullable=False
        ),
        _timestamp("starts_at"),
        sa.Column("current_round", sa.SmallInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        _timestamp("finished_at", nullable=True),
        sa.CheckConstraint("size IN (3, 4, 5)", name=op.f("ck_arenas_size")),
        sa.CheckConstraint("rounds IS NULL OR (rounds >= 1 AND rounds <= 9)", name=op.f("ck_arenas_rounds")),
        _player("arenas", "opened_by"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_arenas")),
    )
    op.create_index("ix_arenas_guild_id_created_at", "arenas", ["guild_id", "created_at"])
    op.create_index("ix_arenas_status_starts_at", "arenas", ["status", "starts_at"])
    op.create_index(
        "uq_arenas_live_channel",
        "arenas",
        ["channel_id"],
        unique=True,
        sqlite_where=sa.text(LIVE_ARENA_CONDITION),
        postgresql_where=sa.text(LIVE_ARENA_CONDITION),
    )
    op.create_table(
        "arena_players",
        sa.Column("arena_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        _timestamp("joined_at"),
        sa.Column("left_after", sa.SmallInteger(), nullable=True),
        _of_arena("arena_players"),
        _player("arena_players", "player_id"),
        sa.PrimaryKeyConstraint("arena_id", "player_id", name=op.f("pk_arena_players")),
    )
    op.create_table(
        "arena_rounds",
        sa.Column("arena_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("bye_player_id", sa.BigInteger(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        _timestamp("created_at"),
        _timestamp("finished_at", nullable=True),
        _of_arena("arena_rounds"),
        _player("arena_rounds", "bye_player_id"),
        sa.PrimaryKeyConstraint("arena_id", "number", name=op.f("pk_arena_rounds")),
    )
    op.create_table(
        "arena_pairings",
        sa.Column("arena_id", sa.Integer(), nullable=False),
        sa.Column("round_number", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("board", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("x_player_id", sa.BigInteger(), nullable=False),
        sa.Column("o_player_id", sa.BigInteger(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("result", _enum("arena_game_result", "x_won", "o_won", "draw"), nullable=True),
        _of_arena("arena_pairings"),
        sa.ForeignKeyConstraint(
            ["arena_id", "round_number"],
            ["arena_rounds.arena_id", "arena_rounds.number"],
            name=op.f("fk_arena_pairings_arena_id_arena_rounds"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_arena_pairings_game_id_games"), ondelete="SET NULL"
        ),
        _player("arena_pairings", "x_player_id"),
        _player("arena_pairings", "o_player_id"),
        sa.PrimaryKeyConstraint("arena_id", "round_number", "board", name=op.f("pk_arena_pairings")),
    )
    op.create_index("uq_arena_pairings_game_id", "arena_pairings", ["game_id"], unique=True)
    op.create_index("ix_arena_pairings_arena_id_x_player_id", "arena_pairings", ["arena_id", "x_player_id"])
    op.create_index("ix_arena_pairings_arena_id_o_player_id", "arena_pairings", ["arena_id", "o_player_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("arena_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    # Not in batch mode: on SQLite that would rebuild ``games``, and dropping the old table would
    # take every move with it (ON DELETE CASCADE). SQLite drops a plain column in place.
    op.drop_column("games", "arena_id")
    op.drop_table("arena_pairings")
    op.drop_table("arena_rounds")
    op.drop_table("arena_players")
    op.drop_index("uq_arenas_live_channel", table_name="arenas")
    op.drop_index("ix_arenas_status_starts_at", table_name="arenas")
    op.drop_index("ix_arenas_guild_id_created_at", table_name="arenas")
    op.drop_table("arenas")
