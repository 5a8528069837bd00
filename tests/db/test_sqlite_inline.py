"""SQLite calls run on the event loop's thread; one that must wait for a lock waits on the worker thread."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy.engine import make_url

from bot.db.sqlite_inline import InlineConnection, inline_connector


@pytest_asyncio.fixture
async def connection(tmp_path: Path) -> AsyncIterator[InlineConnection]:
    path = tmp_path / "inline.sqlite3"
    opened = await inline_connector(make_url(f"sqlite+aiosqlite:///{path}"), busy_timeout_ms=10_000)()
    await opened.execute("PRAGMA journal_mode=WAL")
    await opened.execute("CREATE TABLE calls (thread INTEGER)")
    await opened.commit()
    await opened.create_function("caller_thread", 0, threading.get_ident)
    try:
        yield opened
    finally:
        await opened.close()


def _database_file(connection: InlineConnection) -> str:
    assert connection._connection is not None
    _, _, file = connection._connection.execute("PRAGMA database_list").fetchone()
    return str(file)


async def test_calls_run_on_the_event_loop_thread(connection: InlineConnection) -> None:
    cursor = await connection.execute("SELECT caller_thread()")
    assert await cursor.fetchone() == (threading.get_ident(),)
    assert connection.calls_waited == 0


async def test_a_call_blocked_by_another_connection_waits_on_the_worker_thread(
    connection: InlineConnection,
) -> None:
    other = sqlite3.connect(_database_file(connection), isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        insert = asyncio.ensure_future(connection.execute("INSERT INTO calls VALUES (caller_thread())"))
        await asyncio.sleep(0)  # the insert's first step: refused at once, handed to the worker thread
        assert connection.calls_waited == 1
        for _ in range(3):  # the event loop keeps running while the insert waits
            await asyncio.sleep(0)
        assert not insert.done()
        other.execute("ROLLBACK")
        await insert
        await connection.commit()
    finally:
        other.close()
    cursor = await connection.execute("SELECT thread FROM calls")
    (thread,) = await cursor.fetchone() or (None,)
    assert thread is not None and thread != threading.get_ident()
    cursor = await connection.execute("PRAGMA busy_timeout")
    assert await cursor.fetchone() == (0,), "the busy timeout is back to 0 for calls on the event loop"


async def test_other_errors_are_raised_at_once(connection: InlineConnection) -> None:
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        await connection.execute("SELECT * FROM missing")
    assert connection.calls_waited == 0
