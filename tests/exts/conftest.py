"""Fixtures: the emulator and one bot process per test module (see ``harness``).

A module changes its bot's settings by overriding the ``bot_settings`` fixture.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from discord_emulator import DiscordEmulator
from tests.exts.harness import BotUnderTest


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with DiscordEmulator() as emulator:
        yield emulator


@pytest.fixture(scope="module")
def bot_settings() -> dict[str, str]:
    """Settings (environment variables) of the module's bot beyond the harness's defaults."""
    return {}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def bot(
    emu: DiscordEmulator, bot_settings: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[BotUnderTest]:
    bot = BotUnderTest(emu, Path(tmp_path_factory.mktemp("bot")), bot_settings)
    await bot.start()
    try:
        yield bot
    finally:
        print(f"----- bot log -----\n{bot.log_text()[-8000:]}")
        await bot.close()
    bot.check_log()
