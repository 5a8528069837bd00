"""The database briefly unavailable under the running bot: PostgreSQL restarting, SQLite locked.

The user gets a short private "try again", nothing half-written remains (a transaction cut
before its COMMIT leaves no trace; one cut after it is whole), and the bot recovers by itself:
the next click works, without a restart. PostgreSQL is reached through a proxy this test cuts
and restores (the shared server itself must not be restarted); SQLite is locked by a writer
holding its lock past the bot's busy timeout.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy.engine import URL

from discord_emulator import DiscordEmulator, Interaction, Message
from discord_emulator.process import BotProcess
from tests.databases import create_database, drop_database
from tests.reliability.tcp_proxy import TcpProxy
from tests.support.bot import ANSWER_TIMEOUT, bot_process
from tests.support.store import problems_of, read_store
from tests.support.tables import Table, board, cells

pytestmark = [pytest.mark.e2e]

BUSY = "try again"
SQLITE_BUSY_TIMEOUT_MS = 1500
"""The bot's busy timeout in the lock test: past the 1 s after which a click is deferred."""
SQLITE_BUSY_GUARD = 8.0
"""Failure guard for the refusal of a locked click; shorter than the default 10 s busy timeout,
so a bot that ignored ``SQLITE_BUSY_TIMEOUT_MS`` would fail it."""


def errors_logged(bot: BotProcess) -> list[str]:
    """The bot's log lines at ERROR level. An outage is expected: it logs warnings, never an
    unexpected error (a command's or a background task's)."""
    return [line for line in bot.output if " ERROR " in line]


@pytest_asyncio.fixture
async def emu() -> AsyncIterator[DiscordEmulator]:
    async with DiscordEmulator() as emulator:
        yield emulator


async def human_game(emu: DiscordEmulator) -> tuple[Table, Message]:
    table = Table.create(emu, "alice", "bob")
    message = await (await table.slash("alice", "ttt start", opponent=table["bob"])).wait_response()
    await (await table.click(message, message.button(label="Accept").custom_id or "", "bob")).wait_response()
    return table, message


async def click(
    table: Table, message: Message, cell: int, player: str, guard: float = ANSWER_TIMEOUT
) -> Interaction:
    it = await table.click(message, cells(message)[cell].custom_id or "", player)
    await it.wait_for(
        lambda it: (
            it.followups
            or (
                it.original is not None
                and not it.original.loading
                and (
                    it.callback is not None
                    and (it.callback.type != 6 or it.original.version > it.original_version_at_callback)
                )
            )
        ),
        guard,
    )
    return it


def refusal(it: Interaction) -> str | None:
    """The private sentence the click was answered with, or None when it played."""
    if it.followups:
        assert it.followups[0].ephemeral
        return it.followups[0].text
    if it.callback is not None and it.callback.type == 4:
        assert it.ephemeral
        return it.original.text if it.original is not None else ""
    return None


async def moves_of(url: str) -> int:
    store = await read_store(url)
    assert not problems_of(store), problems_of(store)
    return store.move_count


async def run(bot: BotProcess) -> None:
    await bot.start()
    await bot.wait_ready(timeout=60)


@pytest.mark.postgres
async def test_postgres_restarting_under_the_bot(
    emu: DiscordEmulator, tmp_path: Path, postgres_server: URL
) -> None:
    database = await create_database(postgres_server)
    try:
        async with TcpProxy(database.host or "127.0.0.1", database.port or 5432) as proxy:
            url = database.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
            direct = database.render_as_string(hide_password=False)
            bot = bot_process(emu, tmp_path, url)
            await run(bot)
            try:
                table, message = await human_game(emu)
                assert refusal(await click(table, message, 4, "alice")) is None

                proxy.cut()  # the server goes down: open connections die, new ones are refused
                said = refusal(await click(table, message, 0, "bob"))
                assert said is not None and BUSY in said and "\n" not in said and len(said) < 100
                assert board(message) == "....X...." and await moves_of(direct) == 1
                said = refusal(await click(table, message, 0, "bob"))  # a new connection is refused too
                assert said is not None and BUSY in said
                proxy.restore()
                assert refusal(await click(table, message, 0, "bob")) is None, "recovered without a restart"
                assert board(message) == "O...X...."

                cut = proxy.cut_at(
                    b"COMMIT", forward_first=False
                )  # after the UPDATE and INSERT, before COMMIT
                said = refusal(await click(table, message, 8, "alice"))
                assert cut.is_set() and said is not None and BUSY in said
                proxy.restore()
                assert await moves_of(direct) == 2, "the cut transaction left nothing behind"
                assert refusal(await click(table, message, 8, "alice")) is None
                assert board(message) == "O...X...X" and await moves_of(direct) == 3

                cut = proxy.cut_at(b"COMMIT", forward_first=True)  # the COMMIT may land; its answer is lost
                await click(table, message, 2, "bob")
                assert cut.is_set()
                proxy.restore()
                stored = await moves_of(direct)
                print(f"\nthe cut after COMMIT left {stored - 3} move stored")
                assert stored in (3, 4), "all of the move or none of it"
                version = message.version
                again = await click(table, message, 2, "bob")
                if stored == 4:  # it was committed: the board is redrawn, the move is not played twice
                    await emu.wait_for_edit(message, since=version, timeout=ANSWER_TIMEOUT)
                    assert refusal(again) is not None
                assert board(message) == "O.O.X...X" and await moves_of(direct) == 4
            finally:
                assert await bot.terminate(timeout=30) == 0
            assert not errors_logged(bot), "\n".join(bot.output)
            assert proxy.refused > 0
    finally:
        await drop_database(postgres_server, database)


async def test_sqlite_locked_by_another_writer_past_the_busy_timeout(
    emu: DiscordEmulator, tmp_path: Path
) -> None:
    path = tmp_path / "ttt.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    bot = bot_process(emu, tmp_path, url, SQLITE_BUSY_TIMEOUT_MS=str(SQLITE_BUSY_TIMEOUT_MS))
    await run(bot)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        table, message = await human_game(emu)
        assert refusal(await click(table, message, 4, "alice")) is None
        other.execute("BEGIN IMMEDIATE")  # another process takes the write lock and keeps it
        locked = await click(table, message, 0, "bob", guard=SQLITE_BUSY_GUARD)
        said = refusal(locked)
        assert said is not None and BUSY in said and "\n" not in said
        assert locked.ack_latency is not None and locked.ack_latency < 3, "deferred within Discord's 3 s"
        other.execute("ROLLBACK")
        assert board(message) == "....X...." and await moves_of(url) == 1
        assert refusal(await click(table, message, 0, "bob")) is None, "recovered without a restart"
        assert board(message) == "O...X...." and await moves_of(url) == 2
    finally:
        other.close()
        assert await bot.terminate(timeout=30) == 0
    assert not errors_logged(bot), "\n".join(bot.output)
