"""The bot token never appears in the bot's output, at DEBUG, in a full game, in refusals and failures.

The bot runs with ``LOG_LEVEL=DEBUG`` (discord.py then logs every gateway event and REST
call); its whole captured output (stdout and stderr) is scanned for the token and for
its first part (the application id in base64, which alone does not authenticate, but
whose presence would show the token being printed in part).
"""

from __future__ import annotations

import asyncio
import os
import sys
from asyncio.subprocess import PIPE, STDOUT

import pytest

from discord_emulator import DiscordEmulator
from tests.support.bot import BotUnderTest
from tests.support.tables import Table, answer, click_cell, duel, free_cells, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


@pytest.fixture(scope="module")
def bot_settings() -> dict[str, str]:
    return {"LOG_LEVEL": "DEBUG"}


async def test_a_full_run_at_debug_never_shows_the_token(emu: DiscordEmulator, bot: BotUnderTest) -> None:
    table = Table.create(emu, "alice", "bob")
    message = await answer(await table.slash("alice", "ttt start"))
    while free_cells(message):
        await click_cell(table, message, free_cells(message)[0], "alice")
    await private_answer(await table.slash("alice", "ttt move", cell="nonsense", force=True))
    duel_board = await duel(table, "alice", "bob", channel=table.new_channel("duel"))
    await click_cell(table, duel_board, 0, "alice")
    await answer(await table.slash("bob", "ttt stats", user=table["alice"]))
    emu.fail_next("PATCH", "/channels/{channel_id}/messages/{message_id}", status=401)
    await answer(await table.slash("alice", "ttt resign", where=duel_board.channel))
    await answer(await table.slash("bob", "ttt leaderboard"))

    text = bot.log_text()
    assert "DEBUG" in text and "discord.gateway" in text, "the bot did not log at DEBUG"
    assert emu.token not in text
    assert emu.token.split(".")[0] not in text


async def test_a_refused_token_is_not_printed(
    emu: DiscordEmulator, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """``python -m bot`` at DEBUG with a token the API refuses: it says so without printing the token."""
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gwrong.this-token-is-not-valid-0123456789abcdef"
    workdir = tmp_path_factory.mktemp("refused")
    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith("DISCORD_")},
        **emu.env(),
        "DISCORD_TOKEN": token,
        "LOG_LEVEL": "DEBUG",
        "DATABASE_URL": f"sqlite+aiosqlite:///{workdir / 'ttt.sqlite3'}",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=workdir, env=env, stdout=PIPE, stderr=STDOUT
    )
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    output = out.decode("utf-8", "replace")
    assert process.returncode == 1, output[-3000:]
    assert "DISCORD_TOKEN" in output and "DEBUG" in output
    assert token not in output and token.split(".")[0] not in output
