"""SQLite is set up for a bot on every connection."""

from __future__ import annotations

from pathlib import Path

from bot.db import Database
from bot.db.database import SQLITE_BUSY_TIMEOUT_MS


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
                    "busy_timeout": SQLITE_BUSY_TIMEOUT_MS,
                    "synchronous": 1,  # NORMAL: with WAL, a commit survives a killed process
                }
    finally:
        await database.close()
