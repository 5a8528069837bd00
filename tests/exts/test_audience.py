"""Which language a public message is written in, when the store can tell and when it cannot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import discord
import pytest

from bot.exts.games.audience import Audience
from bot.services import GameService, ServiceSettings
from tests.services.helpers import ManualClock, make_service


@pytest.fixture
async def unreachable(tmp_path: Path) -> AsyncIterator[GameService]:
    """A service whose database cannot be opened (its folder does not exist)."""
    pool = ThreadPoolExecutor(1)
    url = f"sqlite+aiosqlite:///{tmp_path / 'missing' / 'ttt.sqlite3'}"
    service = make_service(url, ServiceSettings(), ManualClock(), pool)
    yield service
    await service.close()
    pool.shutdown()


async def test_without_the_stored_setting_a_board_is_still_written(
    unreachable: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    """The move a board shows is stored already: a setting the store cannot read does not stop it."""
    audience = Audience(discord.Client(intents=discord.Intents.none()), unreachable)
    texts = await audience.server(123)
    assert texts.language.code == "en", "a server the bot knows nothing of: English"
    assert "Could not read the language of server 123" in caplog.text
