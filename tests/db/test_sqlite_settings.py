"""SQLite is set up for a bot on every connection."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.db import Database, DatabaseUnavailableError
from bot.db.database import SQLITE_BUSY_TIMEOUT_MS
from bot.db.migrate import head_revision, upgrade_to_head


async def test_every_connection_gets_the_pragmas(tmp_path: Path) -> None:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'p.sqlite3'}")
    try:
        for _ in range(3):  # a fresh connection each time, from the pool or new
            async with database.engine.connect() as connection:
                pragmas = {
                    name: (await connection.exec_driver_sql(f"PRAGMA {name}")).scalar_one()
                    for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
                }
                assert pragmas == {
                    "journal_mode": "wal",
                    "foreign_keys": 1,
                    "busy_timeout": SQLITE_BUSY_TIMEOUT_MS,  # waited on aiosqlite's worker thread
                    "synchronous": 1,  # NORMAL: with WAL, a commit survives a killed process
                }
    finally:
        await database.close()


async def test_the_busy_timeout_is_a_setting(tmp_path: Path) -> None:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'p.sqlite3'}", sqlite_busy_timeout_ms=250)
    try:
        async with database.engine.connect() as connection:
            assert (await connection.exec_driver_sql("PRAGMA busy_timeout")).scalar_one() == 250
    finally:
        await database.close()


async def test_a_write_waits_for_another_process_lock_then_goes_through(tmp_path: Path) -> None:
    path = tmp_path / "wait.sqlite3"
    await upgrade_to_head(f"sqlite+aiosqlite:///{path}")
    database = Database(f"sqlite+aiosqlite:///{path}")
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        writing = asyncio.ensure_future(_store_player(database, 7, "Ada"))
        async with database.read() as repo:  # the event loop still serves while the write waits
            assert await repo.display_names([7]) == {}
        assert not writing.done()
        other.execute("ROLLBACK")
        await writing
        async with database.read() as repo:
            assert await repo.display_names([7]) == {7: "Ada"}
    finally:
        other.close()
        await database.close()


async def test_a_schema_upgrade_waits_for_another_process_lock_then_goes_through(tmp_path: Path) -> None:
    """A read transaction cannot wait for the lock as it first writes: so the upgrade takes it first."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'fresh.sqlite3'}"
    other = sqlite3.connect(tmp_path / "fresh.sqlite3", isolation_level=None, timeout=0)
    other.execute("PRAGMA journal_mode=WAL")
    other.execute("BEGIN IMMEDIATE")
    try:
        upgrading = asyncio.ensure_future(upgrade_to_head(url))
        done, _ = await asyncio.wait({upgrading}, timeout=0.5)  # without the wait, it fails at once
        assert not done
        other.execute("ROLLBACK")
        assert await upgrading == (None, head_revision())
    finally:
        other.close()


async def test_a_write_gives_up_after_the_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    await upgrade_to_head(f"sqlite+aiosqlite:///{path}")
    database = Database(f"sqlite+aiosqlite:///{path}", sqlite_busy_timeout_ms=50)
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(DatabaseUnavailableError):
            await _store_player(database, 7, "Ada")
    finally:
        other.close()
        await database.close()


async def _store_player(database: Database, user_id: int, name: str) -> None:
    async with database.write() as repo:
        await repo.save_players([(user_id, name)], datetime.now(UTC))


async def test_writes_take_the_write_lock_up_front_and_reads_do_not(tmp_path: Path) -> None:
    path = tmp_path / "lock.sqlite3"
    await upgrade_to_head(f"sqlite+aiosqlite:///{path}")
    database = Database(f"sqlite+aiosqlite:///{path}")
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        async with database.write() as repo:
            assert await repo.live_game(1) is None  # only a read so far, yet the lock is held
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        async with database.read() as repo:
            assert await repo.live_game(1) is None
            other.execute("BEGIN IMMEDIATE")  # a reader leaves the write lock free
            other.execute("ROLLBACK")
    finally:
        other.close()
        await database.close()
