"""The engine failing under the running bot: the bot's turn has a deadline, and the sweeper keeps it.

Engine workers are the bot's spawned child processes, killed from here with SIGKILL as the
kernel's out-of-memory killer would. A reply whose worker dies is made again on a new worker;
one that cannot be made after a few attempts ends the game without a result, saying why.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path

import pytest

from discord_emulator import DiscordEmulator, Message
from tests.support.bot import ANSWER_TIMEOUT, BotUnderTest
from tests.support.store import query
from tests.support.tables import Table, answer, board, busy_engine, cells, game_of

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the engine workers in /proc"),
]

REPLY_GUARD = 60.0
"""Failure guard for a reply made again after its deadline (seconds in practice)."""
POLL = 0.02
"""How often the bot's child processes are looked at: far shorter than a worker's start and search."""


@pytest.fixture(scope="module")
def bot_settings() -> dict[str, str]:
    """A hint on a hard 5x5 position holds the engine for its whole budget: a 5x5 reply asked for
    meanwhile waits in the pool long enough to kill the worker under it."""
    return {"ENGINE_BUDGET_MS": "3000", "SWEEP_INTERVAL_SECONDS": "600"}


def workers(bot: BotUnderTest) -> set[int]:
    """The bot's worker processes (started with ``spawn``)."""
    out = subprocess.run(["pgrep", "-P", str(bot.process.pid)], capture_output=True, text=True).stdout
    found = set()
    for pid in out.split():
        with suppress(FileNotFoundError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(int(pid))
    return found


def kill(pids: set[int]) -> None:
    for pid in pids:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


async def new_worker(bot: BotUnderTest, old: set[int]) -> set[int]:
    """Wait until the bot has started a worker that is not one of ``old``."""
    async with asyncio.timeout(REPLY_GUARD):
        while not (started := workers(bot) - old):  # noqa: ASYNC110 (the kernel tells no one)
            await asyncio.sleep(POLL)
    return started


@asynccontextmanager
async def every_worker_killed(bot: BotUnderTest) -> AsyncIterator[None]:
    """Kill each worker of the bot as soon as it starts, for as long as the block runs."""

    async def killing() -> None:
        while True:
            kill(workers(bot))
            await asyncio.sleep(POLL)

    task = asyncio.create_task(killing())
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task


async def five_by_five(emu: DiscordEmulator) -> tuple[Table, Message]:
    """A 5x5 game against the bot at a table of its own; alice opens."""
    table = Table.create(emu, "alice")
    return table, await answer(await table.slash("alice", "ttt start", size=5))


async def test_a_5x5_reply_comes_though_its_worker_and_the_next_one_are_killed(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table, message = await five_by_five(emu)
    searching = workers(bot)
    assert searching, "the engine's workers start with the bot"
    hint = await busy_engine(emu)
    click = await table.click(message, cells(message)[12].custom_id or "", "alice")
    await click.wait_callback(timeout=ANSWER_TIMEOUT)  # deferred: the reply waits for the busy engine
    kill(searching)
    kill(await new_worker(bot, searching))  # the call made again on a new pool, killed too

    await emu.wait_for(lambda: board(message).count("O") == 1, REPLY_GUARD, "the bot's reply")
    assert board(message).count("X") == 1
    assert f"<@{table['alice'].id}> to move" in message.text
    assert any(not button.disabled for button in cells(message)), "the game goes on"
    assert (await answer(hint)).ephemeral, "the hint is answered too, privately (verdicts or try again)"


async def test_a_reply_that_keeps_failing_ends_the_game_unrated_and_says_why(
    emu: DiscordEmulator, bot: BotUnderTest
) -> None:
    table, message = await five_by_five(emu)
    game = game_of(message)
    async with every_worker_killed(bot):
        await answer(await table.click(message, cells(message)[12].custom_id or "", "alice"))
        await emu.wait_for(lambda: "without a result" in message.text, REPLY_GUARD, "the game to end")
    assert all(button.disabled for button in cells(message))
    assert "engine" in message.text and "does not count" in message.text
    assert board(message).count("X") == 1 and board(message).count("O") == 0
    assert query(bot, "SELECT status, rated FROM games WHERE id = ?", [game]) == [("cancelled", 0)]

    fresh = await answer(await table.slash("alice", "ttt start", level="easy"))
    assert len(cells(fresh)) == 9, "the channel is free again, with no restart"
