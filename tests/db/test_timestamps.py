"""One stored form for every timestamp on SQLite, whichever write stored it, and a migration that
brings older rows to it."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from bot.db import Database
from bot.db.migrate import head_revision, upgrade_to_head
from bot.engine import Level
from bot.services import EnginePool, GameService, ServiceSettings
from tests.db.migrations import downgrade_to
from tests.services.helpers import ALICE, HERE, ManualClock

STORED = "%Y-%m-%d %H:%M:%S.%f"


async def play_two_moves(url: str) -> None:
    """Alice opens in the centre and the bot replies: one write stores both moves."""
    clock = ManualClock(datetime(2026, 1, 5, 12, 0, 0, 250_000, tzinfo=UTC))
    with ThreadPoolExecutor(1) as executor:
        service = GameService(
            Database(url), ServiceSettings(), engine=EnginePool(executor=executor), clock=clock
        )
        try:
            await service.start_vs_bot(HERE, ALICE, level=Level.EASY)
            await service.move(HERE, ALICE, "b2")
        finally:
            await service.close()


def played_at(path: Path) -> list[str]:
    with sqlite3.connect(path) as db:
        return [row[0] for row in db.execute("SELECT played_at FROM moves ORDER BY ply")]


async def test_a_players_move_and_the_bots_reply_are_stored_alike(tmp_path: Path) -> None:
    path = tmp_path / "ttt.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    await upgrade_to_head(url)
    await play_two_moves(url)
    assert played_at(path) == ["2026-01-05 12:00:00.250000"] * 2


async def test_the_migration_brings_older_rows_to_the_one_form(tmp_path: Path) -> None:
    path = tmp_path / "ttt.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    await upgrade_to_head(url)
    await play_two_moves(url)
    await downgrade_to(url, "0005")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE moves SET played_at = '2026-01-05 12:00:00.250000+00:00' WHERE ply = 0")
        db.execute("UPDATE moves SET played_at = '2026-01-05T14:00:01+02:00' WHERE ply = 1")
        db.execute("UPDATE games SET finished_at = '2026-01-05 12:00:02+00:00'")
    assert await upgrade_to_head(url) == ("0005", head_revision())
    assert played_at(path) == ["2026-01-05 12:00:00.250000", "2026-01-05 12:00:01.000000"]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT finished_at FROM games").fetchall() == [("2026-01-05 12:00:02.000000",)]
    for text in played_at(path):
        assert datetime.strptime(text, STORED).strftime(STORED) == text
