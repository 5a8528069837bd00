"""Starting the real bot process: wrongly, it says why in one line and exits, without a traceback;
with a database that is slow to get ready, it is on the gateway meanwhile and commands wait for it.
"""

from __future__ import annotations

import contextlib
import signal
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import cast

import pytest
from sqlalchemy import URL, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.db.migrate import MIGRATION_LOCK_KEY
from bot.shutdown import restarting
from discord_emulator import DiscordEmulator, Interaction
from discord_emulator.process import BotProcess
from tests.databases import create_database, drop_database, postgres_server
from tests.support.bot import ANSWER_TIMEOUT, STOP_TIMEOUT, BotUnderTest, tracebacks
from tests.support.tables import Table, answer, board, private_answer

__all__ = ["postgres_server"]

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
def sqlite_write_lock(path: Path) -> Iterator[sqlite3.Connection]:
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
    emu: DiscordEmulator, workdir: Path, database: str | None = None
) -> AsyncIterator[tuple[BotUnderTest, Interaction]]:
    """A bot on the gateway whose schema upgrade waits for a lock held elsewhere, and a ``/ttt start``
    waiting for the service; yields the bot and the command. ``database`` is the bot's database URL
    (default: a new SQLite file)."""
    await _register_the_commands(emu, workdir)
    database = database or f"sqlite+aiosqlite:///{workdir / 'fresh.sqlite3'}"
    # The upgrade waits for SQLite's write lock longer than any test takes (the bot's default is 10 s).
    bot = BotUnderTest(emu, workdir, {"DATABASE_URL": database, "SQLITE_BUSY_TIMEOUT_MS": "600000"})
    await bot.start()  # READY, while the upgrade waits for the lock
    start = await Table.create(emu, "alice").slash("alice", "ttt start")
    await bot.process.wait_for_output(
        "Interactions wait until the game service is open", timeout=ANSWER_TIMEOUT
    )
    yield bot, start


async def test_a_command_that_comes_while_the_schema_is_upgraded_is_answered_once_it_is(
    tmp_path: Path,
) -> None:
    """The bot is on the gateway before its database is ready: the command waits, then is played."""
    with sqlite_write_lock(tmp_path / "fresh.sqlite3") as lock:
        async with DiscordEmulator() as emu, a_command_waiting_on_the_schema(emu, tmp_path) as (bot, start):
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
    with sqlite_write_lock(tmp_path / "fresh.sqlite3") as lock:
        async with DiscordEmulator() as emu, a_command_waiting_on_the_schema(emu, tmp_path) as (bot, start):
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


@contextlib.asynccontextmanager
async def migration_lock(server: URL | None, workdir: Path) -> AsyncIterator[str]:
    """A new database for the bot, whose schema upgrade lock another connection holds for the
    whole test; yields the database's URL. On the PostgreSQL ``server``, else SQLite."""
    if server is None:
        path = workdir / "fresh.sqlite3"
        with sqlite_write_lock(path):
            yield f"sqlite+aiosqlite:///{path}"
        return
    url = await create_database(server)
    engine = create_async_engine(url)
    try:
        async with engine.connect() as holder:
            await holder.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            yield url.render_as_string(hide_password=False)
    finally:
        await engine.dispose()
        await drop_database(server, url)


@pytest.fixture(params=["sqlite", "postgres"])
def database_server(request: pytest.FixtureRequest) -> URL | None:
    """The PostgreSQL server to make the bot's database on, or None for SQLite."""
    return cast(URL, request.getfixturevalue("postgres_server")) if request.param == "postgres" else None


async def test_a_stop_while_the_schema_upgrade_waits_for_a_lock_ends_the_bot_without_the_lock(
    tmp_path: Path, database_server: URL | None
) -> None:
    """The lock is never given up (another process migrates for long): the bot still stops cleanly."""
    async with (
        DiscordEmulator() as emu,
        migration_lock(database_server, tmp_path) as database,
        a_command_waiting_on_the_schema(emu, tmp_path, database) as (bot, start),
    ):
        bot.process.send_signal(signal.SIGTERM)
        assert await private_answer(start) == restarting("en-US")
        assert await bot.process.wait_exit(timeout=STOP_TIMEOUT) == 0
        bot.check_log()
