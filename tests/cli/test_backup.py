"""``python -m bot backup FILE``: a copy taken while games are played holds every committed move and
restores into a bot that plays on; PostgreSQL gets the ``pg_dump`` command instead.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.db.backup import pg_dump_command
from bot.states import GameStatus
from discord_emulator import DiscordEmulator
from tests.support.bot import BotUnderTest
from tests.support.store import SQLITE, problems_of, read_store
from tests.support.tables import Table, answer, board, click_cell, duel, free_cells

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

TABLES = 3
"""Games played at once while the backup is taken (5x5 duels: up to 25 moves each)."""


async def backup(url: str, target: Path, cwd: Path) -> tuple[int, str]:
    """Run ``python -m bot backup`` as a user would, with ``DATABASE_URL``; its status and output."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "backup",
        str(target),
        cwd=cwd,
        env={**os.environ, "DATABASE_URL": url},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await process.communicate()
    return await process.wait(), output.decode()


async def keep_playing(table: Table, stop: asyncio.Event, played: list[int]) -> None:
    """Duels on 5x5 in the table's channel, one click after another, until ``stop``; counts the moves."""
    while not stop.is_set():
        message = await duel(table, "alice", "bob", size=5)
        player = "alice"
        while free_cells(message) and not stop.is_set():
            await click_cell(table, message, free_cells(message)[0], player)
            player = "bob" if player == "alice" else "alice"
            played[0] += 1


async def test_a_backup_under_play_keeps_every_committed_move_and_restores(
    emu: DiscordEmulator, bot: BotUnderTest, tmp_path: Path
) -> None:
    live = bot.env["DATABASE_URL"]
    waiting = Table.create(emu, "alice", "bob")  # its game waits for bob's move throughout
    opened = await duel(waiting, "alice", "bob", size=5)
    await click_cell(waiting, opened, free_cells(opened)[0], "alice")
    tables = [Table.create(emu, "alice", "bob") for _ in range(TABLES)]
    stop = asyncio.Event()
    played = [0]
    players = [asyncio.create_task(keep_playing(table, stop, played)) for table in tables]
    try:
        await emu.wait_for(lambda: played[0] >= 3 * TABLES, 60, "moves answered before the backup")
        committed = await read_store(live)  # everything committed before the backup begins
        target = tmp_path / "backup.sqlite3"
        status, output = await backup(live, target, tmp_path)
        during = await read_store(live)
    finally:
        stop.set()
        await asyncio.gather(*players)
    assert status == 0, output
    assert f"to {target}" in output and "integrity check" in output and output[-1] == "\n"
    assert during.move_count > committed.move_count, "games went on while the backup was taken"

    copy = await read_store(SQLITE + str(target))
    assert not problems_of(copy, settled=False), "the copy is one consistent moment"
    for game_id, moves in committed.moves.items():
        assert copy.moves[game_id][: len(moves)] == moves, f"game {game_id} lost committed moves"
    with sqlite3.connect(target) as check:
        assert check.execute("PRAGMA journal_mode").fetchone() == ("delete",), "one self-contained file"

    restored = tmp_path / "restored" / "ttt.sqlite3"
    restored.parent.mkdir()
    shutil.copy(target, restored)
    await bot.restart(DATABASE_URL=SQLITE + str(restored))
    try:
        await bot.process.wait_for_output(f"Ready to play: database {SQLITE}{restored}", timeout=60)
        game = copy.games[max(copy.games_in(waiting.channel.id))]
        assert game.status is GameStatus.ACTIVE
        shown = await answer(await waiting.slash("alice", "ttt board"))
        assert board(shown) == game.board.replace("/", "")
        await click_cell(waiting, shown, free_cells(shown)[0], "bob")
        assert (await read_store(SQLITE + str(restored))).move_count == copy.move_count + 1
    finally:
        await bot.restart(DATABASE_URL=live)


async def test_a_failed_backup_says_why_in_one_line_and_leaves_no_file(tmp_path: Path) -> None:
    target = tmp_path / "copy.sqlite3"
    status, output = await backup(SQLITE + str(tmp_path / "absent.sqlite3"), target, tmp_path)
    assert status == 1 and output == f"There is no SQLite database at {tmp_path / 'absent.sqlite3'}.\n"
    assert os.listdir(tmp_path) == [], "neither the copy nor a partial one"


async def test_postgresql_is_told_the_pg_dump_command_without_the_password(tmp_path: Path) -> None:
    url = "postgresql+asyncpg://ttt:s3cret@db.internal:5433/games"
    status, output = await backup(url, tmp_path / "games.dump", tmp_path)
    assert status == 1 and output.count("\n") == 1 and "s3cret" not in output
    assert output.rstrip().endswith(pg_dump_command(url, tmp_path / "games.dump"))
    assert pg_dump_command(url, Path("games.dump")) == (
        "pg_dump --format=custom --file=games.dump postgresql://ttt@db.internal:5433/games"
    )
