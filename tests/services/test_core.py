"""What the parts of the service share: the cache of players' names follows what is committed."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import event

from bot.db import Database
from bot.services import ServiceSettings, refusals
from bot.services.core import ServiceCore
from bot.services.engine_pool import EnginePool
from tests.services.helpers import ALICE, ManualClock


class RefusedError(Exception):
    """A writer saying no after it wrote."""


async def test_a_name_is_cached_only_once_the_write_that_stored_it_committed(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    database = Database(database_url)
    engine = EnginePool(settings.engine_workers, settings.engine_budget_ms, executor=executor)
    core = ServiceCore(database, settings, engine, clock, random.Random(1))
    second_joined = asyncio.Event()

    async def saves_alice() -> None:
        async with core.write() as repo:
            await second_joined.wait()
            await core.save_players(repo, clock(), ALICE)

    async def fails_after_writing() -> None:
        second_joined.set()  # the write below joins the first one's batch before it can commit
        async with core.write() as repo:
            await repo.update_server_settings(1, {"language": "fr"}, clock())
            raise RefusedError

    try:
        results = await asyncio.gather(saves_alice(), fails_after_writing(), return_exceptions=True)
        assert isinstance(results[0], refusals.Unavailable) and isinstance(results[1], RefusedError)
        async with core.write() as repo:
            await core.save_players(repo, clock(), ALICE)
        async with database.read() as repo:
            assert await repo.display_names([ALICE.user_id]) == {ALICE.user_id: ALICE.display_name}
    finally:
        engine.close()
        await database.close()


@pytest.mark.parametrize("changed", [False, True])
async def test_a_stored_name_is_stored_again_only_when_it_changed(
    database_url: str,
    settings: ServiceSettings,
    clock: ManualClock,
    executor: ThreadPoolExecutor,
    changed: bool,
) -> None:
    database = Database(database_url)
    engine = EnginePool(settings.engine_workers, settings.engine_budget_ms, executor=executor)
    core = ServiceCore(database, settings, engine, clock, random.Random(1))
    stored: list[str] = []

    def count_player_writes(*args: Any) -> None:
        if args[2].startswith("INSERT INTO players"):
            stored.append(args[2])

    event.listen(database.engine.sync_engine, "before_cursor_execute", count_player_writes)
    try:
        async with core.write() as repo:
            await core.save_players(repo, clock(), ALICE)
        again = replace(ALICE, display_name="Alice B") if changed else ALICE
        async with core.write() as repo:
            await core.save_players(repo, clock(), again)
        async with database.read() as repo:
            assert await repo.display_names([ALICE.user_id]) == {ALICE.user_id: again.display_name}
        assert len(stored) == (2 if changed else 1)
    finally:
        engine.close()
        await database.close()
