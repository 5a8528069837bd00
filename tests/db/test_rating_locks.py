"""PostgreSQL: ``lock_ratings`` holds the rating rows until its transaction ends.

Two processes ending games of one player at once must not both start from the same rating:
the second waits for the first to commit and then reads what it stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text

from bot.db import GLOBAL_SCOPE, Database
from bot.db.models import Rating
from tests.db.test_repository import NOW

pytestmark = pytest.mark.postgres

SHARED, FIRST_OPPONENT, SECOND_OPPONENT = 9101, 9102, 9103
WAIT_LIMIT = 10.0
"""Seconds a test waits for something that should happen at once before it fails."""


@pytest.fixture
async def databases(postgres_session_url: str) -> AsyncIterator[tuple[Database, Database]]:
    """Two databases over one server, with separate engines, as two processes have."""
    pair = Database(postgres_session_url), Database(postgres_session_url)
    async with pair[0].write() as repo:
        await repo.save_players([(SHARED, "a"), (FIRST_OPPONENT, "b"), (SECOND_OPPONENT, "c")], NOW)
    async with pair[0].write() as repo:  # stored rows: an insert of its own would hold the first anyway
        await repo.lock_ratings([SHARED, FIRST_OPPONENT, SECOND_OPPONENT], [GLOBAL_SCOPE], 1200.0, NOW)
    yield pair
    for database in pair:
        await database.close()


async def _lock_second(database: Database) -> dict[tuple[int, int], Rating]:
    async with database.write() as repo:
        return await repo.lock_ratings([SHARED, SECOND_OPPONENT], [GLOBAL_SCOPE], 1200.0, NOW)


async def test_a_rating_locked_elsewhere_is_read_once_that_transaction_committed(
    databases: tuple[Database, Database],
) -> None:
    first, second = databases
    async with first.write() as repo:
        locked = await repo.lock_ratings([SHARED, FIRST_OPPONENT], [GLOBAL_SCOPE], 1200.0, NOW)
        assert {key: row.rating for key, row in locked.items()} == {
            (SHARED, GLOBAL_SCOPE): 1200.0,
            (FIRST_OPPONENT, GLOBAL_SCOPE): 1200.0,
        }
        waiting = asyncio.create_task(_lock_second(second))
        waits = text("SELECT count(*) FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted")
        async with asyncio.timeout(WAIT_LIMIT), first.engine.connect() as watcher:
            while (await watcher.execute(waits)).scalar_one() == 0:  # noqa: ASYNC110 (the server tells no one)
                await asyncio.sleep(0.01)
        assert not waiting.done()
        shared = locked[(SHARED, GLOBAL_SCOPE)]
        shared.rating, shared.games, shared.wins = 1216.0, 1, 1
        await repo.record_ratings([shared], 1, [], NOW)
    async with asyncio.timeout(WAIT_LIMIT):
        seen = await waiting
    assert seen[(SHARED, GLOBAL_SCOPE)].rating == 1216.0
    assert seen[(SHARED, GLOBAL_SCOPE)].games == 1
    assert seen[(SECOND_OPPONENT, GLOBAL_SCOPE)].rating == 1200.0
