"""The repository's Core statements, built once, and the models it builds from their rows.

A statement built per call costs its construction and its cache key on every execution;
these are built at import (or once per dialect or column set) and run straight on a
connection, without the ORM's ``Session.execute``. Parameters go by name (``bindparam``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import (
    Insert,
    Row,
    Select,
    Table,
    Update,
    and_,
    bindparam,
    cast,
    column,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.orm.attributes import set_committed_value

from bot.db.models import Game, Move, Player, Rating, RatingChange
from bot.states import LIVE_STATUSES, GameStatus

M = TypeVar("M", bound=DeclarativeBase)
AnyRow = Row[*tuple[Any, ...]]
"""A result row of any columns."""

GAMES: Table = Game.__table__  # type: ignore[assignment]
MOVES: Table = Move.__table__  # type: ignore[assignment]
PLAYERS: Table = Player.__table__  # type: ignore[assignment]
RATINGS: Table = Rating.__table__  # type: ignore[assignment]
RATING_CHANGES: Table = RatingChange.__table__  # type: ignore[assignment]


def model_from_row(model: type[M], keys: Sequence[str], row: AnyRow) -> M:
    """An instance of ``model`` holding ``row`` as committed values, in no session.

    Its attributes are set as committed values (no change history), so they read like
    those of a row the ORM loaded, and it never takes part in a flush.
    """
    instance = model()
    for key, value in zip(keys, row, strict=True):
        set_committed_value(instance, key, value)
    return instance


GAME_KEYS = tuple(column.key for column in GAMES.columns)
RATING_KEYS = tuple(column.key for column in RATINGS.columns)


def game_from_row(row: AnyRow) -> Game:
    """The game of a row selected by the statements below (every column, in table order)."""
    return model_from_row(Game, GAME_KEYS, row)


GAME_BY_ID: Select[Any] = select(*GAMES.columns).where(GAMES.c.id == bindparam("id"))
LIVE_GAME: Select[Any] = select(*GAMES.columns).where(
    GAMES.c.channel_id == bindparam("channel_id"), GAMES.c.status.in_(LIVE_STATUSES)
)
LAST_GAME_CREATED_BY: Select[Any] = (
    select(*GAMES.columns)
    .where(GAMES.c.created_by == bindparam("user_id"))
    .order_by(GAMES.c.created_at.desc(), GAMES.c.id.desc())
    .limit(1)
)
SET_MESSAGES: Update = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("_id"))
    .values(message_channel_id=bindparam("message_channel_id"), message_id=bindparam("message_id"))
)
SET_MESSAGE: Update = SET_MESSAGES.returning(GAMES.c.id)


async def set_messages(connection: AsyncConnection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Run :data:`SET_MESSAGES` for each row, in one ``executemany``."""
    await connection.execute(SET_MESSAGES, list(rows))


_PAIR = or_(
    and_(GAMES.c.x_player_id == bindparam("a"), GAMES.c.o_player_id == bindparam("b")),
    and_(GAMES.c.x_player_id == bindparam("b"), GAMES.c.o_player_id == bindparam("a")),
)
GAMES_BETWEEN_SINCE: Select[Any] = (
    select(func.count())
    .select_from(GAMES)
    .where(
        _PAIR,
        GAMES.c.status == GameStatus.FINISHED,
        GAMES.c.finished_at >= bindparam("since"),
        GAMES.c.id != bindparam("exclude"),
    )
)
DISPLAY_NAMES: Select[Any] = select(PLAYERS.c.id, PLAYERS.c.display_name).where(
    PLAYERS.c.id.in_(bindparam("ids", expanding=True))
)
MOVE_KEYS = ("game_id", "ply", "cell", "mark", "player_id", "played_at")
ROWS_PER_INSERT = 500
"""At most this many rows per multi-row INSERT (3,000 parameters for moves: under SQLite's limit)."""


def _row_values(table: Table, keys: Sequence[str], count: int) -> list[dict[str, Any]]:
    """The VALUES of a ``count``-row INSERT: row ``i``'s value of ``key`` is bound as ``<key>_<i>``,
    converted as its column's type converts it."""
    return [{key: bindparam(f"{key}_{i}", type_=table.c[key].type) for key in keys} for i in range(count)]


async def insert_rows(
    connection: AsyncConnection,
    table: Table,
    keys: Sequence[str],
    rows: Sequence[Mapping[str, Any]],
    *,
    or_ignore: bool = False,
) -> None:
    """Insert ``rows`` (each by column ``keys``) into ``table``; ``or_ignore`` leaves rows whose key is
    already stored alone.

    On SQLite: one multi-row INSERT per :data:`ROWS_PER_INSERT` rows, built once per number
    of rows. Elsewhere: one ``executemany`` of
    the one-row INSERT (SQLAlchemy cannot cache a multi-row INSERT's compilation, and would
    compile it on every execution).
    """
    dialect = connection.dialect.name
    if dialect != "sqlite":
        await connection.execute(_insert_row(dialect, table, or_ignore), list(rows))
        return
    for start in range(0, len(rows), ROWS_PER_INSERT):
        chunk = rows[start : start + ROWS_PER_INSERT]
        values = {f"{key}_{i}": row[key] for i, row in enumerate(chunk) for key in keys}
        await connection.execute(_insert_many(table, tuple(keys), len(chunk), or_ignore), values)


@functools.cache
def _insert_row(dialect: str, table: Table, or_ignore: bool) -> Insert:
    statement: Insert = dialect_insert(dialect, table)
    return statement.on_conflict_do_nothing() if or_ignore else statement  # type: ignore[attr-defined]


@functools.cache
def _insert_many(table: Table, keys: tuple[str, ...], count: int, or_ignore: bool) -> Insert:
    statement: Insert = dialect_insert("sqlite", table).values(_row_values(table, keys, count))
    return statement.on_conflict_do_nothing() if or_ignore else statement  # type: ignore[attr-defined]


def unnest_arrays(name: str, types: Mapping[str, Any], prefix: str = "") -> Any:
    """PostgreSQL: ``unnest(:<prefix><column>, ...) AS <name>(<column>, ...)``, rows from one bound
    array per column (the i-th row takes the i-th element of each, in order)."""
    arrays = [cast(bindparam(prefix + key, type_=ARRAY(kind)), ARRAY(kind)) for key, kind in types.items()]
    return (
        func.unnest(*arrays)
        .table_valued(*(column(key, kind) for key, kind in types.items()))
        .render_derived(name=name)
    )


def arrays_of(
    rows: Iterable[Mapping[str, Any]], keys: Iterable[str], prefix: str = ""
) -> dict[str, list[Any]]:
    """The parameters of :func:`unnest_arrays` for ``rows``: for each key, ``<prefix><key>`` bound
    to the list of the rows' values of it, in the rows' order."""
    rows = list(rows)
    return {prefix + key: [row[key] for row in rows] for key in keys}


@functools.cache
def lock_ratings_at_once() -> Insert:
    """PostgreSQL: create the missing rating rows, lock them all and return them, in one statement.

    ``INSERT INTO ratings ... SELECT * FROM unnest(...) ON CONFLICT (player_id, scope) DO UPDATE
    SET updated_at = ratings.updated_at RETURNING *``: the no-op update takes each stored row's
    lock (as ``SELECT ... FOR UPDATE`` would, waiting for a transaction holding it), in the
    order of the arrays, and returns the row as it then stands.
    """
    wanted = unnest_arrays("wanted", {key: RATINGS.c[key].type for key in RATING_KEYS})
    statement = postgresql.insert(RATINGS).from_select(list(RATING_KEYS), select(*wanted.c))
    upsert: Insert = statement.on_conflict_do_update(
        index_elements=[RATINGS.c.player_id, RATINGS.c.scope], set_={"updated_at": RATINGS.c.updated_at}
    ).returning(*RATINGS.columns)
    return upsert


RATINGS_FOR_UPDATE: Select[Any] = (
    select(*RATINGS.columns)
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
RATING_CHANGE_KEYS = ("player_id", "scope", "game_id", "rating", "played_at")


@functools.cache
def record_ratings_at_once() -> Insert:
    """PostgreSQL: store changed ratings and insert their rating changes, in one statement.

    ``WITH updated AS (UPDATE ratings ... FROM unnest(...)) INSERT INTO rating_changes SELECT
    * FROM unnest(...)``: the ratings' arrays are bound as ``new_<column>`` (with ``new__player_id``
    and ``new__scope`` for the key), the changes' as ``change_<column>``.
    """
    new = unnest_arrays(
        "new",
        {
            "_player_id": RATINGS.c.player_id.type,
            "_scope": RATINGS.c.scope.type,
            **{name: RATINGS.c[name].type for name in RATING_VALUES},
        },
        prefix="new_",
    )
    updated = (
        update(RATINGS)
        .where(RATINGS.c.player_id == new.c._player_id, RATINGS.c.scope == new.c._scope)
        .values({name: new.c[name] for name in RATING_VALUES})
        .cte("updated")
    )
    changes = unnest_arrays(
        "changes", {key: RATING_CHANGES.c[key].type for key in RATING_CHANGE_KEYS}, prefix="change_"
    )
    statement: Insert = (
        postgresql.insert(RATING_CHANGES)
        .from_select(list(RATING_CHANGE_KEYS), select(*changes.c))
        .add_cte(updated)
    )
    return statement


@functools.cache
def compare_and_set(columns: tuple[str, ...]) -> Update:
    """``UPDATE games SET <columns> WHERE id = :_id AND version = :_expected RETURNING version``,
    built once per column set: a row comes back when the update applied."""
    return (
        update(GAMES)
        .where(GAMES.c.id == bindparam("_id"), GAMES.c.version == bindparam("_expected"))
        .values({name: bindparam(name) for name in columns})
        .returning(GAMES.c.version)
    )


def dialect_insert(dialect: str, table: Table) -> Any:
    """An INSERT into ``table`` that supports ``on_conflict_do_*`` on ``dialect``."""
    module: Any = postgresql if dialect == "postgresql" else sqlite
    return module.insert(table)


@functools.cache
def insert_game(dialect: str) -> Insert:
    """Insert a game and return its row; none comes back when a unique index refuses it (the
    channel's live game), without an error that would spoil a PostgreSQL transaction."""
    statement: Insert = dialect_insert(dialect, GAMES).on_conflict_do_nothing().returning(*GAMES.columns)
    return statement


@functools.cache
def upsert_player(dialect: str) -> Insert:
    """Insert a player, or update the stored display name of one already there."""
    statement = dialect_insert(dialect, PLAYERS)
    upsert: Insert = statement.on_conflict_do_update(
        index_elements=[PLAYERS.c.id],
        set_={"display_name": statement.excluded.display_name, "updated_at": statement.excluded.updated_at},
    )
    return upsert
