"""A bot running as its own process: started from the environment, killed, restarted; the emulator
outlives it and the old board's persistent buttons keep working."""

from __future__ import annotations

import signal

import pytest

from discord_emulator import DiscordEmulator
from discord_emulator.process import BotProcess

pytestmark = pytest.mark.e2e


async def test_bot_process_survives_sigkill_and_its_buttons_still_work(emulator: DiscordEmulator) -> None:
    guild = emulator.create_guild("Arena")
    alice = emulator.create_member(guild, "alice")
    channel = emulator.channel(guild)
    bot = BotProcess(
        emulator, ["-m", "tests.discord_emulator.sample_bot_process"], env={"SYNC_GUILD_ID": str(guild.id)}
    )
    async with bot:
        await bot.wait_ready()
        await emulator.wait_for_commands(guild)
        start = await emulator.slash(channel, alice, "ttt start")
        board = await start.wait_for(
            lambda it: it.original if it.original and it.original.version == 1 else None
        )

        bot.kill()
        assert await bot.wait_exit() == -signal.SIGKILL
        await bot.start()
        session = await bot.wait_ready()
        assert len(emulator.sessions) == 2 and session.resumes == 0

        click = await emulator.click(board, "cell:8", alice)
        assert (await click.wait_callback()).type == 7
        assert board.button("cell:8").label == "X"
        assert click.shard_id is None and click.delivered_at is not None
        assert await bot.terminate() in (0, -signal.SIGTERM)
    assert any("has connected to Gateway" in line for line in bot.output)
