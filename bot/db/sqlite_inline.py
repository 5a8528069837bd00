"""SQLite calls on the event loop's own thread, with the waits for a lock moved off it.

aiosqlite runs every call of a connection on a worker thread and hands the result back
through the event loop. For this bot's statements that hand-off costs far more than the
statement: measured in one process, a ``SELECT 1`` through aiosqlite takes about 25 µs
of CPU when calls follow each other and about 90 µs when the loop was idle in between
(the worker thread and the loop wake each other up), against 0.5 µs called directly.
A click stores its move in a handful of calls (in WAL mode with ``synchronous=NORMAL``
even the commit is a write into the operating system's cache, not a disk flush), and
each hand-off is one more trip through a busy event loop for the write batch that waits
on it (:mod:`bot.db.live_games`).

So :class:`InlineConnection` makes each call directly, with SQLite's busy timeout at 0.
The one call that can block is one that needs a lock another process holds (another
bot process or a ``python -m bot`` command writing the same file): SQLite then fails it
at once with ``SQLITE_BUSY`` ("database is locked", the statement did nothing), and the
call is made again on the connection's worker thread with the configured busy timeout,
so the wait happens off the event loop, as it always did with aiosqlite.

What the event loop does pay: the commit that runs SQLite's WAL checkpoint (about one
in a thousand pages written) copies pages into the database file and flushes it, a few
milliseconds on a local disk (measured on this project's machine: 24 of 20,000 commits
took over 2 ms, the longest 6 ms, the median 8 µs). A database on a network file system,
where that could take long, is not a setup SQLite supports anyway.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import SQLiteDialect_aiosqlite
from sqlalchemy.engine import URL

T = TypeVar("T")


def is_busy(error: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused a call because another connection holds a lock it needs (``SQLITE_BUSY``)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return bool(code & 0xFF == sqlite3.SQLITE_BUSY)
    return "database is locked" in str(error)


class InlineConnection(aiosqlite.Connection):
    """An aiosqlite connection whose calls run on the caller's thread unless they must wait for a lock.

    The connection is opened and closed on its worker thread, as aiosqlite does; only
    one coroutine uses it at a time (SQLAlchemy's pool hands it to one session), so a call
    made on the event loop's thread never overlaps one made on the worker thread.
    """

    def __init__(self, connector: Callable[[], sqlite3.Connection], busy_timeout_ms: int) -> None:
        super().__init__(connector, iter_chunk_size=64)
        self.busy_timeout_ms = busy_timeout_ms
        self.calls_waited = 0
        """How many calls had to wait for a lock on the worker thread (for tests and logs)."""

    async def _execute(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        try:
            return fn(*args, **kwargs)
        except sqlite3.OperationalError as error:
            if not is_busy(error):
                raise
        self.calls_waited += 1
        waiting = functools.partial(
            _waiting_for_lock, self._connection, self.busy_timeout_ms, fn, args, kwargs
        )
        on_worker: T = await super()._execute(waiting)  # type: ignore[no-untyped-call]
        return on_worker


def _waiting_for_lock(
    connection: sqlite3.Connection,
    busy_timeout_ms: int,
    fn: Callable[..., T],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> T:
    """Make the call again, waiting up to the busy timeout for the lock (on the worker thread)."""
    connection.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    try:
        return fn(*args, **kwargs)
    finally:
        connection.execute("PRAGMA busy_timeout=0")


def inline_connector(url: URL, busy_timeout_ms: int) -> Callable[[], Any]:
    """An ``async_creator`` for SQLAlchemy's ``create_async_engine``: opens :class:`InlineConnection` s
    with the arguments SQLAlchemy's own aiosqlite dialect would give ``url``."""
    args, options = SQLiteDialect_aiosqlite().create_connect_args(url)
    # Calls run on two threads (one at a time), and waiting is done by hand: busy timeout 0.
    options = {**options, "check_same_thread": False, "timeout": 0}

    async def connect() -> InlineConnection:
        connection = InlineConnection(functools.partial(sqlite3.connect, *args, **options), busy_timeout_ms)
        connection._thread.daemon = True  # as SQLAlchemy's dialect does: never keep the process alive
        await connection
        return connection

    return connect
