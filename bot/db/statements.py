"""The repository's Core statements that are built once (at import, or once per dialect or column set)."""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import Insert, Select, Table, Update, and_, bindparam, func, or_, select, union_all, update
from sqlalchemy.dialects import postgresql, sqlite

from bot.db.models import (
    Game,
    Move,
    Player,
    Rating,
    RatingChange,
    ServerChannel,
    ServerSettings,
    StoredReview,
)
from bot.states import LIVE_STATUSES, GameStatus

GAMES: Table = Game.__table__  # type: ignore[assignment]
MOVES: Table = Move.__table__  # type: ignore[assignment]
PLAYERS: Table = Player.__table__  # type: ignore[assignment]
RATINGS: Table = Rating.__table__  # type: ignore[assignment]
RATING_CHANGES: Table = RatingChange.__table__  # type: ignore[assignment]
REVIEWS: Table = StoredReview.__table__  # type: ignore[assignment]
SERVER_SETTINGS: Table = ServerSettings.__table__  # type: ignore[assignment]
SERVER_CHANNELS: Table = ServerChannel.__table__  # type: ignore[assignment]

GAME_BY_ID: Select[Any] = select(GAMES).where(GAMES.c.id == bindparam("id"))
LIVE_GAME: Select[Any] = select(GAMES).where(
    GAMES.c.channel_id == bindparam("channel_id"), GAMES.c.status.in_(LIVE_STATUSES)
)
LAST_GAME_CREATED_BY: Select[Any] = (
    select(GAMES)
    .where(GAMES.c.created_by == bindparam("user_id"))
    .order_by(GAMES.c.created_at.desc(), GAMES.c.id.desc())
    .limit(1)
)
SET_MESSAGE: Update = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("_id"))
    .values(message_channel_id=bindparam("message_channel_id"), message_id=bindparam("message_id"))
    .returning(GAMES.c.version)
)
GAMES_BETWEEN_SINCE: Select[Any] = (
    select(func.count())
    .select_from(GAMES)
    .where(
        or_(
            and_(GAMES.c.x_player_id == bindparam("a"), GAMES.c.o_player_id == bindparam("b")),
            and_(GAMES.c.x_player_id == bindparam("b"), GAMES.c.o_player_id == bindparam("a")),
        ),
        GAMES.c.status == GameStatus.FINISHED,
        GAMES.c.finished_at >= bindparam("since"),
        GAMES.c.id != bindparam("exclude"),
    )
)
DISPLAY_NAMES: Select[Any] = select(PLAYERS.c.id, PLAYERS.c.display_name).where(
    PLAYERS.c.id.in_(bindparam("ids", expanding=True))
)
RATINGS_FOR_UPDATE: Select[Any] = (
    select(RATINGS)
    .where(
        RATINGS.c.player_id.in_(bindparam("players", expanding=True)),
        RATINGS.c.scope.in_(bindparam("scopes", expanding=True)),
    )
    .order_by(RATINGS.c.scope, RATINGS.c.player_id)
    .with_for_update()
)
RATING_VALUES = ("rating", "best_rating", "games", "wins", "losses", "draws", "updated_at")
"""The columns of a rating row that a rated game changes."""
UPDATE_RATING: Update = (
    update(RATINGS)
    .where(RATINGS.c.player_id == bindparam("_player_id"), RATINGS.c.scope == bindparam("_scope"))
    .values({name: bindparam(name) for name in RATING_VALUES})
)


@functools.cache
def compare_and_set(columns: tuple[str, ...]) -> Update:
    """``UPDATE games SET <columns> WHERE id = :_id AND version = :_expected RETURNING version``:
    a row comes back when the update applied."""
    return (
        update(GAMES)
        .where(GAMES.c.id == bindparam("_id"), GAMES.c.version == bindparam("_expected"))
        .values({name: bindparam(name) for name in columns})
        .returning(GAMES.c.version)
    )


@functools.cache
def compare_and_set_with_moves(columns: tuple[str, ...], count: int) -> Insert:
    """PostgreSQL: :func:`compare_and_set` and, if it applied, the insert of ``count`` moves (row
    ``i``'s values bound as ``<column>_<i>``), in one statement: ``WITH changed AS (UPDATE games ...
    RETURNING version) INSERT INTO moves SELECT :game_id_0, ... FROM changed UNION ALL ...
    RETURNING ply``. A row comes back for each move stored: none when the update did not apply."""
    changed = compare_and_set(columns).cte("changed")
    keys = [column.key for column in MOVES.columns]
    rows = [
        select(*(bindparam(f"{key}_{i}", type_=MOVES.c[key].type) for key in keys)).select_from(changed)
        for i in range(count)
    ]
    statement: Insert = postgresql.insert(MOVES).from_select(keys, union_all(*rows)).returning(MOVES.c.ply)
    return statement


def dialect_insert(dialect: str, table: Table) -> Any:
    """An INSERT into ``table`` that supports ``on_conflict_do_*`` on ``dialect``."""
    module: Any = postgresql if dialect == "postgresql" else sqlite
    return module.insert(table)


@functools.cache
def insert_or_ignore(dialect: str, table: Table) -> Insert:
    """Insert a row unless a unique key of ``table`` already has it."""
    statement: Insert = dialect_insert(dialect, table).on_conflict_do_nothing()
    return statement


@functools.cache
def insert_game(dialect: str) -> Insert:
    """Insert a game and return its row; none comes back when a unique index refuses it (the
    channel's live game), without an error that would spoil a PostgreSQL transaction."""
    return insert_or_ignore(dialect, GAMES).returning(*GAMES.columns)


@functools.cache
def upsert_player(dialect: str) -> Insert:
    """Insert a player, or update the stored display name of one already there."""
    statement = dialect_insert(dialect, PLAYERS)
    upsert: Insert = statement.on_conflict_do_update(
        index_elements=[PLAYERS.c.id],
        set_={"display_name": statement.excluded.display_name, "updated_at": statement.excluded.updated_at},
    )
    return upsert
