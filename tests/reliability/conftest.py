"""Fixtures for the reliability tests: the bot process as users start it, against the emulator.

The emulator and one real bot process per module come from ``tests.exts``; the helpers
below start extra bot processes (kill rounds, shards) and read their output.
"""

from __future__ import annotations

import signal
from pathlib import Path

from discord_emulator import DiscordEmulator
from discord_emulator.process import BotProcess
from tests.databases import postgres_server
from tests.exts.conftest import bot, bot_settings, emu

__all__ = ["bot", "bot_process", "bot_settings", "emu", "kill9", "postgres_server", "tracebacks"]


def bot_process(emu: DiscordEmulator, workdir: Path, database_url: str, **settings: str) -> BotProcess:
    """``python -m bot`` in ``workdir`` (no stray ``.env``), on ``database_url``, logging to ``bot.log``."""
    env = {"DATABASE_URL": database_url, "START_COOLDOWN_SECONDS": "0", "LOG_LEVEL": "INFO", **settings}
    return BotProcess(emu, env=env, cwd=workdir, log_path=workdir / "bot.log")


async def kill9(bot: BotProcess) -> None:
    """SIGKILL the bot and wait until it is gone."""
    bot.kill()
    code = await bot.wait_exit(timeout=20)
    assert code == -signal.SIGKILL, f"the bot exited with {code} instead of being killed"


def tracebacks(bot: BotProcess) -> list[str]:
    """Lines of the bot's output that start a traceback or log an unexpected error."""
    return [line for line in bot.output if "Traceback" in line or "Unexpected error" in line]
