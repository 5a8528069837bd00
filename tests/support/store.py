"""The database as the bot left it, read with the test's own connection (never through the bot), and
the one check that it holds sound games: the stored moves replay, legally, to the stored board.

:func:`read_store` and :func:`snapshot` read any database the bot runs on (SQLite or PostgreSQL);
:func:`query` reads a bot's SQLite file directly (read-only; WAL lets the test read while the bot writes).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.db.models import Base, Game, Move
from bot.engine import Board, Status
from bot.states import GameStatus
from tests.support.bot import ANSWER_TIMEOUT, BotUnderTest

SQLITE = "sqlite+aiosqlite:///"
Snapshot = dict[str, list[tuple[Any, ...]]]


@dataclass(frozen=True, slots=True)
class StoredMove:
    game_id: int
    ply: int
    cell: int
    mark: str
    player_id: int | None


@dataclass(frozen=True, slots=True)
class StoredGame:
    id: int
    channel_id: int
    size: int
    level: str | None
    x_player_id: int | None
    o_player_id: int | None
    status: GameStatus
    board: str
    ply: int
    version: int
    message_id: int | None

    @property
    def bot_to_move(self) -> bool:
        if self.status is not GameStatus.ACTIVE or self.level is None:
            return False
        turn = Board.parse(self.board).turn.value
        return (self.x_player_id if turn == "X" else self.o_player_id) is None

    def player_of(self, mark: str) -> int | None:
        return self.x_player_id if mark == "X" else self.o_player_id


@dataclass
class Store:
    games: dict[int, StoredGame] = field(default_factory=dict)
    moves: dict[int, list[StoredMove]] = field(default_factory=lambda: defaultdict(list))

    @property
    def move_count(self) -> int:
        return sum(len(moves) for moves in self.moves.values())

    def games_in(self, channel_id: int) -> list[int]:
        """The ids of the games played in ``channel_id``, oldest first."""
        return sorted(game.id for game in self.games.values() if game.channel_id == channel_id)


async def read_store(url: str) -> Store:
    """Every game and move in the database at ``url``."""
    engine = create_async_engine(url)
    store = Store()
    try:
        async with engine.connect() as connection:
            for game in (await connection.execute(select(Game.__table__))).mappings():
                store.games[game["id"]] = StoredGame(
                    game["id"],
                    game["channel_id"],
                    game["size"],
                    game["level"],
                    game["x_player_id"],
                    game["o_player_id"],
                    GameStatus(game["status"]),
                    game["board"],
                    game["ply"],
                    game["version"],
                    game["message_id"],
                )
            rows = await connection.execute(select(Move.__table__).order_by(Move.game_id, Move.ply))
            for move in rows.mappings():
                store.moves[move["game_id"]].append(
                    StoredMove(move["game_id"], move["ply"], move["cell"], move["mark"], move["player_id"])
                )
    finally:
        await engine.dispose()
    return store


def problems_of(store: Store, games: Iterable[int] | None = None, *, settled: bool = True) -> list[str]:
    """Everything wrong with the stored games: the moves must replay, legally, to the stored board.

    Checked per game: plies 0..n-1 each stored once, marks alternating from X, each move by
    the player of that mark (the bot's moves by nobody), no move after the game was decided,
    the replay ending on the stored board and ply, and a decided board marked finished. When
    ``settled`` (nothing is still on its way), also no running game against the bot waiting
    for a reply of the bot.
    """
    found: list[str] = []
    for game_id in sorted(store.games if games is None else games):
        game = store.games[game_id]
        moves = store.moves.get(game_id, [])
        if [move.ply for move in moves] != list(range(len(moves))):
            found.append(f"game {game_id}: plies {[move.ply for move in moves]}")
            continue
        board = Board.empty(game.size)
        for move in moves:
            if board.is_over:
                found.append(f"game {game_id}: ply {move.ply} played after the game was decided")
                break
            if move.mark != board.turn.value or move.player_id != game.player_of(move.mark):
                found.append(f"game {game_id}: ply {move.ply} by {move.mark}/{move.player_id} out of turn")
                break
            if board[move.cell] is not None:
                found.append(f"game {game_id}: ply {move.ply} on the taken cell {move.cell}")
                break
            board = board.play(move.cell)
        else:
            if board.compact != game.board or board.ply != game.ply:
                found.append(f"game {game_id}: moves give {board.compact}, stored {game.board}/{game.ply}")
            if board.status is not Status.ONGOING and game.status is not GameStatus.FINISHED:
                found.append(f"game {game_id}: the board is decided but the game is {game.status.value}")
            if settled and game.bot_to_move:
                found.append(f"game {game_id}: still waits for the bot's move")
    return found


def database_path(bot: BotUnderTest) -> Path:
    url = bot.env["DATABASE_URL"]
    assert url.startswith(SQLITE), f"these tests read the bot's SQLite file, not {url}"
    return Path(url.removeprefix(SQLITE))


def query(bot: BotUnderTest, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    uri = f"file:{database_path(bot)}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True, timeout=30)) as connection:
        return connection.execute(sql, tuple(params)).fetchall()


async def snapshot(url: str) -> Snapshot:
    """Every row of every table of the schema, in primary-key order: equal snapshots mean nothing changed."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            found: Snapshot = {}
            for table in Base.metadata.sorted_tables:
                order = ", ".join(column.name for column in table.primary_key.columns)
                rows = await connection.execute(text(f"SELECT * FROM {table.name} ORDER BY {order}"))
                found[table.name] = [tuple(row) for row in rows]
            return found
    finally:
        await engine.dispose()


def changes(before: Snapshot, after: Snapshot) -> dict[str, Any]:
    """The rows that differ between two snapshots, per table (empty when nothing changed)."""
    found = {}
    for table in before:
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
