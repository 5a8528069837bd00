"""Fixtures: the emulator and one bot process per test module (see ``harness``).

A module changes its bot's settings by overriding the ``bot_settings`` fixture.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.emulator import DiscordEmulator
from tests.exts.harness import BotProcess


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
) -> AsyncIterator[BotProcess]:
    settings = bot_settings
    process = BotProcess(emu, Path(tmp_path_factory.mktemp("bot")), settings)
    await process.start()
    try:
        if settings.get("SYNC_COMMANDS", "true") != "false" and "DEV_GUILD_ID" not in settings:
            await emu.wait_for_commands(timeout=10)
        yield process
    finally:
        print(f"----- bot log ({process.log_path}) -----\n{process.log_text()[-8000:]}")
        if process.process is not None:
            code = await process.stop()
            assert code == 0, f"the bot exited with {code}:\n{process.log_text()[-4000:]}"
    process.check_log()
