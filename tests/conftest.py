"""Fixtures for every test.

- No request to the Discord emulator may break Discord's API description (autouse).
- ``emu`` and ``bot``: the emulator and one real bot process per test module (:mod:`tests.support.bot`);
  a module changes its bot's settings by overriding ``bot_settings``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from discord_emulator import DiscordEmulator
from discord_emulator.fixtures import api_spec, no_spec_violations
from discord_emulator.openapi import unclaimed
from tests.support.bot import BotUnderTest

__all__ = ["api_spec", "no_spec_violations"]

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def _discord_would_accept(no_spec_violations: None) -> Iterator[None]:
    yield


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """A request Discord would refuse made after the last test of a module (a bot stopping) fails the run."""
    if unclaimed:
        found = "\n".join(str(violation) for violation in unclaimed)
        print(f"\nrequests that Discord would refuse, after the tests that ran:\n{found}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


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
