"""Engine and sessions: the database connection a process holds, set up for a bot.

SQLite gets, on every connection: WAL (readers never wait for the writer), foreign
keys on, a busy timeout (a second process waits for the write lock instead of
failing; aiosqlite runs every call, and so every wait, on the connection's worker
thread), and ``synchronous=NORMAL``. In WAL
mode a commit is complete once its frames are written to the WAL file; ``NORMAL`` skips
only the fsync, so a killed process never loses a committed move (the write is in the
operating system's cache); only a power cut or kernel crash can drop the last commits,
and the database stays consistent even then. ``FULL`` would add one fsync per move.

Writes begin with ``BEGIN IMMEDIATE`` on SQLite: a transaction that reads the game
and then updates it takes the write lock up front, so it waits for a concurrent
writer (busy timeout) instead of failing when its snapshot is outdated. Within one
process, write transactions are grouped into batches that run one at a time and
share a commit (:mod:`bot.db.live_games`), so they never poll the file lock. Between
processes, the repository's compare-and-set on the game's version decides races.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import URL, Connection, Dialect, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from bot.db.errors import DatabaseUnavailableError
from bot.db.live_games import CommitObserver, GameCache, WriteBatches
from bot.db.repository import PostgresRepository, Repository

SQLITE_BUSY_TIMEOUT_MS = 10_000
"""The default busy timeout; the bot passes its ``SQLITE_BUSY_TIMEOUT_MS`` setting."""
SQLITE_SYNCHRONOUS = "NORMAL"
WRITE_OPTION = "ttt_write"
"""The execution option that marks a write transaction: SQLite then begins it ``IMMEDIATE``, taking the
write lock at once (a deferred transaction that reads, then writes, can fail to upgrade its lock)."""


def create_engine(
    url: str | URL, *, sqlite_busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS, **kwargs: Any
) -> AsyncEngine:
    """An async engine for ``url``; on SQLite every connection gets the bot's pragmas."""
    if make_url(url).get_backend_name() != "sqlite":
        return create_async_engine(url, **kwargs)
    # Transactions are begun by the "begin" hook below, not by the driver's implicit BEGIN.
    engine = create_async_engine(url, connect_args={"isolation_level": None}, **kwargs)
    _configure_sqlite(engine, sqlite_busy_timeout_ms)
    return engine


def _configure_sqlite(engine: AsyncEngine, busy_timeout_ms: int) -> None:
    @event.listens_for(engine.sync_engine, "do_connect")
    def _can_open(dialect: Dialect, record: ConnectionPoolEntry, args: Any, options: Any) -> None:
        # aiosqlite reports a file it cannot open from its worker thread after handing the
        # thread's end to the event loop, which a command that exits at once has closed by
        # then (omnilib/aiosqlite#241): find out here, in the caller, before it starts.
        sqlite3.connect(*args, **options).close()

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
            cursor.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get(WRITE_OPTION, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


@asynccontextmanager
async def _outages_as_unavailable() -> AsyncIterator[None]:
    """Turn an unreachable, disconnected or locked database into :class:`DatabaseUnavailableError`.

    A constraint violation is the caller's business, not an outage, and passes through.
    """
    try:
        yield
    except IntegrityError:
        raise
    except (OperationalError, InterfaceError, PoolTimeout, OSError, TimeoutError) as error:
        raise DatabaseUnavailableError(error.__class__.__name__) from error
    except DBAPIError as error:
        if not (error.connection_invalidated or _connection_exception(error)):
            raise
        raise DatabaseUnavailableError("connection lost") from error


def _connection_exception(error: DBAPIError) -> bool:
    """Whether the driver reported SQLSTATE class 08, a connection exception.

    A server that goes away while a connection is being opened (asyncpg: "connection was closed
    in the middle of operation") leaves SQLAlchemy no connection to mark as invalidated, so the
    error says so only through its SQLSTATE.
    """
    sqlstate = getattr(error.orig, "sqlstate", None)
    return isinstance(sqlstate, str) and sqlstate.startswith("08")


class Database:
    """The engine of one process; hands out repositories in transactions.

    Writes go through :class:`~bot.db.live_games.WriteBatches` (group commit, with the
    cache of games in :attr:`live_games`); reads run on connections of their own.
    """

    def __init__(
        self,
        url: str | URL,
        *,
        echo: bool = False,
        sqlite_busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS,
        on_commit: CommitObserver | None = None,
    ) -> None:
        self.url = make_url(url)
        self.sqlite = self.url.get_backend_name() == "sqlite"
        self.engine = create_engine(self.url, echo=echo, sqlite_busy_timeout_ms=sqlite_busy_timeout_ms)
        self.live_games = GameCache()
        writer = self.engine.execution_options(**{WRITE_OPTION: True})
        self.batches = WriteBatches(writer, self.live_games, on_commit=on_commit)
        self._repository = Repository if self.sqlite else PostgresRepository

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Repository]:
        """A repository in a write transaction; leaves once the transaction is committed.

        The transaction may be shared with other writers (group commit, see
        :mod:`bot.db.live_games`). A body that raises before writing leaves the others alone;
        one that wrote and then raises rolls back the whole batch. Raises
        :class:`DatabaseUnavailableError` when the database fails underneath or the batch was
        rolled back, and :class:`~bot.db.errors.LostRaceError` when another writer changed a
        game first (nothing of this writer's was kept).
        """
        async with _outages_as_unavailable(), self.batches.joined() as batch:
            assert batch.connection is not None
            yield self._repository(batch.connection, batch, self.live_games)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Repository]:
        """A repository in a read-only transaction (a consistent snapshot; never blocks writers).

        Raises :class:`DatabaseUnavailableError` when the database fails underneath.
        """
        async with _outages_as_unavailable(), self.engine.connect() as connection:
            yield self._repository(connection)

    async def ping(self) -> None:
        """Ask the database a trivial question; :class:`DatabaseUnavailableError` when it cannot answer."""
        async with _outages_as_unavailable(), self.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    async def close(self) -> None:
        """Close every connection of the pool."""
        await self.batches.close()
        await self.engine.dispose()
