"""What the database holds after a fault, read straight from the tables, and checks that it is a sound game.

The tests read the stored games and moves with their own connection (never through the bot),
so a check cannot be fooled by the bot's view of its own state.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from bot.db.models import Game, Move
from bot.engine import Board, Status
from bot.states import GameStatus


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


def problems_of(store: Store, games: Iterable[int] | None = None) -> list[str]:
    """Everything wrong with the stored games: the moves must replay, legally, to the stored board.

    Checked per game: plies 0..n-1 each stored once, marks alternating from X, each move by
    the player of that mark (the bot's moves by nobody), no move after the game was decided,
    the replay ending on the stored board and ply, a decided board marked finished, and no
    running game against the bot waiting for a reply of the bot.
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
            if game.bot_to_move:
                found.append(f"game {game_id}: still waits for the bot's move")
    return found
