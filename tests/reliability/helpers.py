"""Helpers of the reliability tests: the bot's database as the test reads it, and games between members.

The test reads the bot's SQLite file directly (read-only, WAL lets it read while the bot
writes): the database, not the messages, is what says whether a move was applied.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Awaitable, Iterable
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar

from bot.engine import Board, Status
from discord_emulator import DiscordEmulator, Interaction, Message
from tests.exts.harness import ANSWER_TIMEOUT, BotUnderTest, Table, answer

T = TypeVar("T")
DEFERRED_UPDATE = 6
SQLITE = "sqlite+aiosqlite:///"
TABLES = ("players", "games", "moves", "ratings")
STALE_REFRESH = "brought the board up to date"
"""The refusal of a click on an outdated board, after which the bot redraws the clicked board."""


def env_count(name: str, default: int) -> int:
    """A count a developer can raise locally (``TTT_RACE_ROUNDS=10000``); CI runs the default."""
    return int(os.environ.get(name) or default)


def database_path(bot: BotUnderTest) -> Path:
    url = bot.process.env["DATABASE_URL"]
    assert url.startswith(SQLITE), f"these tests read the bot's SQLite file, not {url}"
    return Path(url.removeprefix(SQLITE))


def query(bot: BotUnderTest, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    uri = f"file:{database_path(bot)}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True, timeout=30)) as connection:
        return connection.execute(sql, tuple(params)).fetchall()


def snapshot(bot: BotUnderTest) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in a stable order: equal snapshots mean nothing changed."""
    uri = f"file:{database_path(bot)}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True, timeout=30)) as connection:
        return {
            table: sorted(connection.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
            for table in TABLES
        }


def check_legal_games(bot: BotUnderTest, game_ids: Iterable[int] | None = None) -> int:
    """Replay stored games from their moves (contiguous plies, legal cells, the stored board); count moves."""
    games = query(bot, "SELECT id, size, board, ply, status FROM games")
    wanted = None if game_ids is None else set(game_ids)
    checked = 0
    for game_id, size, stored, ply, _status in games:
        if wanted is not None and game_id not in wanted:
            continue
        moves = query(bot, "SELECT ply, cell, mark FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        board = Board.empty(size)
        for expected_ply, (move_ply, cell, mark) in enumerate(moves):
            assert move_ply == expected_ply, f"game {game_id}: plies {[m[0] for m in moves]}"
            assert board.status is Status.ONGOING, f"game {game_id}: a move after the end"
            assert mark == board.turn.value, f"game {game_id} ply {move_ply}: {mark} moved out of turn"
            board = board.play(cell)  # raises on an occupied or missing cell
        assert board.compact == stored and board.ply == ply, f"game {game_id}: moves disagree with the board"
        checked += len(moves)
    return checked


async def gather_limited(works: Iterable[Awaitable[T]], limit: int) -> list[T]:
    """Await ``works`` with at most ``limit`` running at once; results in order."""
    gate = asyncio.Semaphore(limit)

    async def run(work: Awaitable[T]) -> T:
        async with gate:
            return await work

    return list(await asyncio.gather(*(run(work) for work in works)))


async def duel(table: Table, x: str, o: str, *, size: int = 3, channel: Any = None) -> Message:
    """``x`` challenges ``o`` (``x`` opens) in ``channel``; ``o`` accepts. Returns the board message."""
    where = channel or table.channel
    message = await answer(await table.slash(x, "ttt start", where=where, opponent=table[o], size=size))
    accept = message.button(label="Accept").custom_id or ""
    await answer(await table.click(message, accept, o))
    return message


class Answers:
    """What the user who sent an interaction sees in answer, whichever way the bot answered.

    A click the bot acknowledged silently (callback 6) is answered either by a private
    follow-up (a refusal) or by an edit of the board through the click's own token (the
    move); other interactions' edits of the same board do not count.
    """

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self._scanned = 0
        self._edited_by: set[str] = set()

    def _scan(self) -> None:
        log = self.emu.rest_log
        for call in log[self._scanned :]:
            token = call.params.get("webhook_token")
            if call.method == "PATCH" and token is not None and call.ok:
                self._edited_by.add(token)
        self._scanned = len(log)

    def _seen(self, it: Interaction) -> tuple[bool, str] | None:
        callback = it.callback
        if callback is None:
            return None
        if callback.type == DEFERRED_UPDATE:
            if it.followups:
                return it.followups[0].ephemeral, it.followups[0].text
            self._scan()
            if it.token in self._edited_by and it.original is not None:
                return False, it.original.text
            return None
        message = it.original
        if message is not None and message.deleted:  # a public "thinking..." removed before a private answer
            return (it.followups[0].ephemeral, it.followups[0].text) if it.followups else None
        if message is None or message.loading:
            return None
        return message.ephemeral, message.text

    async def of(self, it: Interaction) -> tuple[bool, str]:
        """(ephemeral, text) of the answer to ``it``."""
        return await it.wait_for(self._seen, ANSWER_TIMEOUT)


def changes(
    before: dict[str, list[tuple[Any, ...]]], after: dict[str, list[tuple[Any, ...]]]
) -> dict[str, Any]:
    """The rows that differ between two snapshots, per table (empty when nothing changed)."""
    found = {}
    for table in TABLES:
        old, new = set(before[table]), set(after[table])
        if old != new:
            found[table] = {"gone": sorted(old - new, key=repr), "new": sorted(new - old, key=repr)}
    return found


async def boards_recorded(bot: BotUnderTest) -> None:
    """Wait until the bot has stored the board message of every game.

    The bot answers ``/ttt start`` first and records the message id just after, so a
    snapshot taken as soon as the answer arrives could miss that write. Polls the
    database (the condition waited on); the timeout is a failure guard.
    """
    sql = "SELECT id FROM games WHERE message_id IS NULL"
    deadline = asyncio.get_running_loop().time() + ANSWER_TIMEOUT
    while missing := query(bot, sql):
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"games without a board message: {missing}")
        await asyncio.sleep(0.02)


def boards_in_history(message: Message) -> list[str]:
    """The board (X, O or . per cell) of every version of ``message`` that showed a grid, oldest first."""
    shown = []
    for version in message.history:
        rows = [
            [item for item in row.get("components", []) if item.get("type") == 2]
            for row in version.components
        ]
        size = len(rows[0]) if rows else 0
        if size < 3 or len(rows) < size or any(len(row) != size for row in rows[:size]):
            continue
        labels = [item.get("label") for row in rows[:size] for item in row]
        shown.append("".join(label if label in ("X", "O") else "." for label in labels))
    return shown
