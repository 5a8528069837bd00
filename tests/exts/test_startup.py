"""Starting the real bot process: wrongly, it says why in one line and exits, without a traceback;
with a database that is slow to get ready, it is on the gateway meanwhile and commands wait for it.
"""

from __future__ import annotations

import contextlib
import signal
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.shutdown import restarting
from discord_emulator import DiscordEmulator, Interaction
from discord_emulator.process import BotProcess
from tests.support.bot import ANSWER_TIMEOUT, STOP_TIMEOUT, BotUnderTest, tracebacks
from tests.support.tables import Table, answer, board, private_answer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


async def test_a_token_discord_refuses_ends_the_bot_with_a_clear_message(
    emu: DiscordEmulator, tmp_path: Path
) -> None:
    wrong = "MTIz.not-the-token.abcdefghijklmnopqrstuvwxyz"
    process = BotProcess(
        emu,
        env={"DISCORD_TOKEN": wrong, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}"},
        cwd=tmp_path,
    )
    await process.start()
    assert await process.wait_exit(timeout=60) == 1
    assert "Discord refused DISCORD_TOKEN" in process.text
    assert "Traceback" not in process.text and wrong not in process.text
    assert emu.sessions == [], "no gateway connection without a valid token"


async def _register_the_commands(emu: DiscordEmulator, workdir: Path) -> None:
    """Start the bot once and stop it, as on an earlier day: Discord then holds its commands."""
    database = f"sqlite+aiosqlite:///{workdir / 'earlier.sqlite3'}"
    earlier = BotUnderTest(emu, workdir, {"DATABASE_URL": database})
    await earlier.start()
    await earlier.process.wait_for_output("Synced", timeout=ANSWER_TIMEOUT)
    await earlier.close()


@pytest.mark.parametrize("commands_registered", [False, True], ids=["first start", "commands registered"])
async def test_a_database_that_cannot_be_upgraded_stops_the_bot_with_one_line(
    tmp_path: Path, commands_registered: bool
) -> None:
    """Whether the bot waits for its database before the gateway (nothing registered yet) or not."""
    async with DiscordEmulator() as emu:
        if commands_registered:
            await _register_the_commands(emu, tmp_path)
        unreachable = "sqlite+aiosqlite:////nonexistent/dir/ttt.sqlite3"
        bot = BotUnderTest(emu, tmp_path, {"DATABASE_URL": unreachable})
        await bot.process.start()
        assert await bot.process.wait_exit(timeout=STOP_TIMEOUT) == 1
    last = bot.process.output[-1]
    assert last.startswith(f"Could not upgrade the database at {unreachable}: "), bot.log_text()[-3000:]
    assert not tracebacks(bot.process), bot.log_text()[-3000:]


@contextlib.contextmanager
def write_lock_held(path: Path) -> Iterator[sqlite3.Connection]:
    """An empty SQLite database (WAL, as the bot keeps it) whose write lock another connection holds."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("BEGIN IMMEDIATE")
        yield connection
    finally:
        connection.close()


@contextlib.asynccontextmanager
async def a_command_waiting_on_the_schema(
    emu: DiscordEmulator, workdir: Path
) -> AsyncIterator[tuple[BotUnderTest, Interaction, sqlite3.Connection]]:
    """A bot on the gateway whose schema upgrade waits for a held write lock, and a ``/ttt start``
    waiting for the service; yields the bot, the command and the connection holding the lock."""
    await _register_the_commands(emu, workdir)
    fresh = workdir / "fresh.sqlite3"
    with write_lock_held(fresh) as lock:
        bot = BotUnderTest(emu, workdir, {"DATABASE_URL": f"sqlite+aiosqlite:///{fresh}"})
        await bot.start()  # READY, while the upgrade waits for the lock
        start = await Table.create(emu, "alice").slash("alice", "ttt start")
        await bot.process.wait_for_output("Interactions wait until the game service is open")
        yield bot, start, lock


async def test_a_command_that_comes_while_the_schema_is_upgraded_is_answered_once_it_is(
    tmp_path: Path,
) -> None:
    """The bot is on the gateway before its database is ready: the command waits, then is played."""
    async with DiscordEmulator() as emu, a_command_waiting_on_the_schema(emu, tmp_path) as (bot, start, lock):
        assert start.callback is None, "answered before the schema was upgraded"
        lock.execute("ROLLBACK")
        message = await answer(start)
        assert board(message) == "........." and not message.ephemeral
        await bot.process.wait_for_output("Handling 1 interaction(s) that arrived while the game service")
        await bot.close()
        bot.check_log()


async def test_a_stop_while_the_schema_is_upgraded_asks_the_waiting_commands_to_try_again(
    tmp_path: Path,
) -> None:
    async with DiscordEmulator() as emu, a_command_waiting_on_the_schema(emu, tmp_path) as (bot, start, lock):
        assert start.guild is not None
        german = emu.create_member(start.guild, "bernd")
        in_german = await emu.slash(start.channel, german, "ttt start", locale="de")
        await emu.wait_for(lambda: in_german.delivered_at is not None, ANSWER_TIMEOUT, "sent to the bot")
        bot.process.send_signal(signal.SIGTERM)
        assert await private_answer(start) == restarting("en-US")
        assert await private_answer(in_german) == restarting("de") != restarting("en-US")
        lock.execute("ROLLBACK")
        assert await bot.process.wait_exit(timeout=STOP_TIMEOUT) == 0
        bot.check_log()
