"""A click is answered only after the commit that holds its move: the bot killed on either side of it.

The bot runs with a fault point installed from outside it (:mod:`tests.support.kill_at_commit`,
SQLAlchemy event listeners), which SIGKILLs the process right before, or right after, the first
commit of a transaction that stores a move. Killed before: the move is not stored and the user
was not told it was played (the board still shows the old position). Killed after: the move is stored although
no answer got out; the restarted bot (without the hook) then shows the stored game to the
next click on that board.
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from discord_emulator import DiscordEmulator, Interaction, Message
from discord_emulator.process import REPO_ROOT
from tests.support.bot import ANSWER_TIMEOUT, bot_process, tracebacks
from tests.support.store import read_store
from tests.support.tables import Table, answer, board, cells

pytestmark = [pytest.mark.e2e]

DEFERRED_UPDATE_MESSAGE = 6


async def _board_between_members(table: Table) -> Message:
    message = await answer(await table.slash("alice", "ttt start", opponent=table["bob"]))
    await answer(await table.click(message, message.button(label="Accept").custom_id or "", "bob"))
    return message


def _told_nothing(it: Interaction, message: Message, before: str) -> bool:
    """The click got no answer that shows a move: at most a silent acknowledgement, the board unchanged."""
    silent = it.callback is None or it.callback.type == DEFERRED_UPDATE_MESSAGE
    return silent and not it.followups and board(message) == before


async def _click_until_killed(
    emu: DiscordEmulator, tmp_path: Path, kill_at: str
) -> tuple[Table, Message, str]:
    """Start a game between members, click a1 with the hook armed; return the table, board and database."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}"
    bot = bot_process(emu, tmp_path, url, PYTHONPATH=str(REPO_ROOT))
    bot.args = ["-m", "tests.support.kill_at_commit", kill_at]
    await bot.start()
    await bot.wait_ready(timeout=60)
    table = Table.create(emu, "alice", "bob")
    message = await _board_between_members(table)
    before = board(message)
    it = await table.click(message, cells(message)[0].custom_id or "", "alice")
    assert await bot.wait_exit(timeout=ANSWER_TIMEOUT) == -signal.SIGKILL
    assert _told_nothing(it, message, before), f"{it}: the board shows {board(message)}"
    assert "Test fault hook: killing this process" in bot.text
    return table, message, url


async def test_killed_right_before_the_commit_stores_nothing_and_tells_nothing(tmp_path: Path) -> None:
    async with DiscordEmulator() as emu:
        table, message, url = await _click_until_killed(emu, tmp_path, "before-move-commit")
        (game,) = (await read_store(url)).games.values()
        assert game.ply == 0, "the move was stored although its commit never ran"

        bot = bot_process(emu, tmp_path, url)
        await bot.start()
        await bot.wait_ready(timeout=60)
        try:
            again = await table.click(message, cells(message)[0].custom_id or "", "alice")
            await answer(again)
            assert board(message) == "X........"
            (game,) = (await read_store(url)).games.values()
            assert game.ply == 1
        finally:
            assert await bot.terminate(timeout=30) == 0
        assert not tracebacks(bot), bot.text[-4000:]


async def test_killed_right_after_the_commit_keeps_the_move_it_never_answered(tmp_path: Path) -> None:
    async with DiscordEmulator() as emu:
        table, message, url = await _click_until_killed(emu, tmp_path, "after-move-commit")
        (game,) = (await read_store(url)).games.values()
        assert game.ply == 1 and game.board.replace("/", "") == "X........", "the committed move was lost"

        bot = bot_process(emu, tmp_path, url)
        await bot.start()
        await bot.wait_ready(timeout=60)
        try:
            version = message.version
            refused = await table.click(message, cells(message)[0].custom_id or "", "alice")
            assert (await answer(refused)).ephemeral
            await emu.wait_for_edit(message, since=version, timeout=ANSWER_TIMEOUT)
            assert board(message) == "X........"
            (game,) = (await read_store(url)).games.values()
            assert game.ply == 1, "the click on the outdated board was played again"
        finally:
            assert await bot.terminate(timeout=30) == 0
        assert not tracebacks(bot), bot.text[-4000:]
