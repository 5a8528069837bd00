from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.services import GameService, ServiceSettings
from tests.databases import backend_url, database_url, postgres_server, postgres_session_url
from tests.services.helpers import ManualClock, make_service

__all__ = ["backend_url", "database_url", "postgres_server", "postgres_session_url"]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def settings() -> ServiceSettings:
    return ServiceSettings(start_cooldown_seconds=0, turn_timeout_seconds=600, challenge_timeout_seconds=120)


@pytest.fixture
def executor() -> Iterator[ThreadPoolExecutor]:
    """The engine runs in threads in most tests (the process pool has a test of its own)."""
    pool = ThreadPoolExecutor(2)
    yield pool
    pool.shutdown()


@pytest.fixture
async def service(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> AsyncIterator[GameService]:
    game_service = make_service(database_url, settings, clock, executor)
    yield game_service
    await game_service.close()
