"""The tables: players, games, their moves, ratings per scope, server settings, and arenas; and
the immutable record of a game row (:class:`GameRecord`) that the repository hands out.

Discord ids (users, guilds, channels, messages) are snowflakes and need 64 bits.
A side of a game played by the bot has no player id; the game's ``level`` says how
well the bot plays. Schema changes go through Alembic (``migrations/``); a test
checks that the migrations and these models agree.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Enum,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Text,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from bot.db.types import UtcDateTime
from bot.states import ArenaStatus, EndReason, GameResult, GameStatus

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

GLOBAL_SCOPE = 0
"""The rating scope of the global leaderboard; any other scope is a guild id (never 0 on Discord)."""

LIVE_GAME_CONDITION = "status IN ('pending', 'active')"
"""Where-clause of the partial unique index: at most one live game per channel."""

LIVE_ARENA_CONDITION = "status IN ('open', 'running')"
"""Where-clause of the partial unique index: at most one live arena per channel."""


def _enum(kind: type[GameStatus] | type[GameResult] | type[EndReason] | type[ArenaStatus], name: str) -> Enum:
    return Enum(
        kind,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=16,
        values_callable=lambda members: [member.value for member in members],
        validate_strings=True,
    )


class Base(DeclarativeBase):
    """The declarative base of every table, with the naming convention of constraints."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Player(Base):
    """A Discord user (or the terminal's local player) who has played or been challenged."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)


class Game(Base):
    """One game or challenge in one channel.

    ``board`` (compact text), ``ply`` and ``last_cell`` repeat what the moves say, so a
    move reads one row. ``deadline`` is when a pending challenge expires or when the
    human on turn loses by timeout; it is null while the bot is to move and once the
    game is over. ``version`` goes up with every change of state: writes compare and
    set it, so of two racing changes exactly one applies.
    """

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint("x_player_id IS NOT NULL OR o_player_id IS NOT NULL", name="one_human"),
        CheckConstraint(
            "(level IS NULL) = (x_player_id IS NOT NULL AND o_player_id IS NOT NULL)", name="level_iff_bot"
        ),
        CheckConstraint("size IN (3, 4, 5)", name="size"),
        CheckConstraint("ply >= 0 AND ply <= size * size", name="ply"),
        Index(
            "uq_games_live_channel",
            "channel_id",
            unique=True,
            sqlite_where=text(LIVE_GAME_CONDITION),
            postgresql_where=text(LIVE_GAME_CONDITION),
        ),
        Index("ix_games_status_deadline", "status", "deadline"),
        Index("ix_games_created_by_created_at", "created_by", "created_at"),
        Index("ix_games_x_player_id", "x_player_id"),
        Index("ix_games_o_player_id", "o_player_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    size: Mapped[int] = mapped_column(SmallInteger)
    k: Mapped[int] = mapped_column(SmallInteger)
    level: Mapped[str | None] = mapped_column(String(16))
    x_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    o_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    created_by: Mapped[int] = mapped_column(ForeignKey("players.id"))
    status: Mapped[GameStatus] = mapped_column(_enum(GameStatus, "game_status"))
    result: Mapped[GameResult | None] = mapped_column(_enum(GameResult, "game_result"))
    end_reason: Mapped[EndReason | None] = mapped_column(_enum(EndReason, "end_reason"))
    board: Mapped[str] = mapped_column(String(25))
    ply: Mapped[int] = mapped_column(SmallInteger, server_default=text("0"))
    last_cell: Mapped[int | None] = mapped_column(SmallInteger)
    deadline: Mapped[datetime | None] = mapped_column(UtcDateTime)
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    message_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    starter_locale: Mapped[str | None] = mapped_column(String(16))
    """The Discord locale of the player who started the game: its public language outside servers."""
    starter_theme: Mapped[str | None] = mapped_column(String(16))
    """The theme the player who started the game chose: the look of its pieces outside servers."""
    interactions_only: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    """Where the bot has no access of its own (a group DM, a server without it): the board can only
    be edited in answer to a click or command, never by the bot alone."""
    seed: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))
    rated: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    rating_weight: Mapped[float] = mapped_column(Float, server_default=text("0"))
    version: Mapped[int] = mapped_column(Integer, server_default=text("1"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    arena_id: Mapped[int | None] = mapped_column(Integer)
    """The arena whose round the game belongs to; null for every other game. No foreign key: on
    SQLite adding one would rebuild the table, and a game outlives nothing it points to here."""


class Move(Base):
    """One stored move; ``(game_id, ply)`` is the key, so a ply can be stored only once."""

    __tablename__ = "moves"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    cell: Mapped[int] = mapped_column(SmallInteger)
    mark: Mapped[str] = mapped_column(String(1))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    played_at: Mapped[datetime] = mapped_column(UtcDateTime)


class Rating(Base):
    """A player's Elo rating in one scope: a guild id, or :data:`GLOBAL_SCOPE`.

    Only rated games (humans against humans) change it; the counters count rated games.
    """

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_scope_rating", "scope", "rating"),)

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    scope: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    rating: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    wins: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    losses: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    draws: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    best_rating: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)


class ServerSettings(Base):
    """A server's choices for the bot; a server that never chose has no row.

    ``language`` is the code of the language public game messages use there; null means the
    server's own Discord locale.
    """

    __tablename__ = "server_settings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    language: Mapped[str | None] = mapped_column(String(16))
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)
    role_id: Mapped[int | None] = mapped_column(BigInteger)
    """The role a member needs to start or accept a game there; null: anyone may."""
    turn_timeout_seconds: Mapped[int | None] = mapped_column(Integer)
    """How long a player there has for each move; null: the bot's own setting."""
    challenge_timeout_seconds: Mapped[int | None] = mapped_column(Integer)
    """How long a challenge there waits for its answer; null: the bot's own setting."""
    default_level: Mapped[str | None] = mapped_column(String(16))
    """The bot's level in a game started there without one; null: perfect."""
    theme: Mapped[str | None] = mapped_column(String(16))
    """The look of the pieces on its boards; null: the default one."""


class ServerChannel(Base):
    """A channel where a server allows games to be started; a server that lists none allows every channel."""

    __tablename__ = "server_channels"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    channel_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)


class RatingChange(Base):
    """A player's rating in one scope right after one rated game: the points of the rating chart."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        Index("ix_rating_changes_player_id_scope_played_at", "player_id", "scope", "played_at"),
    )

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    scope: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    played_at: Mapped[datetime] = mapped_column(UtcDateTime)


class StoredReview(Base):
    """The engine's review of a game that is over, computed once: one JSON object per move, in order.

    Each object holds the move's ``ply``, ``cell``, ``mark``, ``exact``, ``before`` and ``after``
    (``{"value", "plies"}``) and ``best``, as ``python -m bot review --json`` prints them.
    """

    __tablename__ = "reviews"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    moves: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)


class Arena(Base):
    """A Swiss tournament in one channel of a server: its lobby, then its rounds.

    ``rounds`` is the number asked for when it was opened (null: the default for the field, fixed
    when it starts); ``starts_at`` is when the lobby closes and the first round is paired.
    ``current_round`` is the number of the latest round paired (0 while open). ``version`` goes up
    with every change, which writes compare and set, so of two racing starts exactly one applies.
    """

    __tablename__ = "arenas"
    __table_args__ = (
        CheckConstraint("size IN (3, 4, 5)", name="size"),
        CheckConstraint("rounds IS NULL OR (rounds >= 1 AND rounds <= 9)", name="rounds"),
        Index(
            "uq_arenas_live_channel",
            "channel_id",
            unique=True,
            sqlite_where=text(LIVE_ARENA_CONDITION),
            postgresql_where=text(LIVE_ARENA_CONDITION),
        ),
        Index("ix_arenas_guild_id_created_at", "guild_id", "created_at"),
        Index("ix_arenas_status_starts_at", "status", "starts_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    """The lobby message, which later shows the standings."""
    opened_by: Mapped[int] = mapped_column(ForeignKey("players.id"))
    size: Mapped[int] = mapped_column(SmallInteger)
    rounds: Mapped[int | None] = mapped_column(SmallInteger)
    rated: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[ArenaStatus] = mapped_column(_enum(ArenaStatus, "arena_status"))
    starts_at: Mapped[datetime] = mapped_column(UtcDateTime)
    current_round: Mapped[int] = mapped_column(SmallInteger, server_default=text("0"))
    version: Mapped[int] = mapped_column(Integer, server_default=text("1"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class ArenaPlayer(Base):
    """A player of an arena. ``seed`` orders players of equal score (join order); ``left_after`` is the
    latest round the player was in when they left a running arena (null: still in it)."""

    __tablename__ = "arena_players"

    arena_id: Mapped[int] = mapped_column(ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    seed: Mapped[int] = mapped_column(Integer)
    joined_at: Mapped[datetime] = mapped_column(UtcDateTime)
    left_after: Mapped[int | None] = mapped_column(SmallInteger)


class ArenaRound(Base):
    """A round of an arena: the message its games' threads hang from, and who had the bye."""

    __tablename__ = "arena_rounds"

    arena_id: Mapped[int] = mapped_column(ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    bye_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"))
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class ArenaPairing(Base):
    """Two players who meet in a round, on its ``board`` (0 = the leaders'), and how their game went.

    ``game_id`` and ``thread_id`` are set once the game is created in its thread; ``result`` once
    it has one (a game that ends without a result, or never starts, is scored as the service decides).
    """

    __tablename__ = "arena_pairings"
    __table_args__ = (
        ForeignKeyConstraint(
            ["arena_id", "round_number"],
            ["arena_rounds.arena_id", "arena_rounds.number"],
            ondelete="CASCADE",
        ),
        Index("uq_arena_pairings_game_id", "game_id", unique=True),
        Index("ix_arena_pairings_arena_id_x_player_id", "arena_id", "x_player_id"),
        Index("ix_arena_pairings_arena_id_o_player_id", "arena_id", "o_player_id"),
    )

    arena_id: Mapped[int] = mapped_column(ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True)
    round_number: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    board: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    x_player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    o_player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    result: Mapped[GameResult | None] = mapped_column(_enum(GameResult, "arena_game_result"))


@dataclasses.dataclass(frozen=True, slots=True)
class GameRecord:
    """A ``games`` row as a value, replaced, never changed (see :class:`Game` for its columns):
    the repository's games (:mod:`bot.db.live_games` keeps them)."""

    id: int
    guild_id: int | None
    channel_id: int
    size: int
    k: int
    level: str | None
    x_player_id: int | None
    o_player_id: int | None
    created_by: int
    status: GameStatus
    result: GameResult | None
    end_reason: EndReason | None
    board: str
    ply: int
    last_cell: int | None
    deadline: datetime | None
    message_id: int | None
    message_channel_id: int | None
    starter_locale: str | None
    starter_theme: str | None
    interactions_only: bool
    seed: int
    rated: bool
    rating_weight: float
    version: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    arena_id: int | None

    def but(self, **values: Any) -> GameRecord:
        """This record with ``values`` replaced."""
        return dataclasses.replace(self, **values)
