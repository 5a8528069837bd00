"""The game's rules as plain checks on a stored game: whose turn, which cell, who may answer.

Each check raises :class:`GameError` with the sentence the user sees.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.db import Game, GameResult, GameStatus
from bot.engine import Board, EngineInputError, Mark, format_cell, parse_cell
from bot.errors import GameError

SIZES = (3, 4, 5)
RESULT_OF_WINNER = {Mark.X: GameResult.X_WON, Mark.O: GameResult.O_WON}


def mark_of(game: Game, user_id: int) -> Mark | None:
    """The mark ``user_id`` plays in ``game``, or None when they are not in it."""
    if game.x_player_id == user_id:
        return Mark.X
    if game.o_player_id == user_id:
        return Mark.O
    return None


def player_of(game: Game, mark: Mark) -> int | None:
    """The user who plays ``mark``; None for the bot."""
    return game.x_player_id if mark is Mark.X else game.o_player_id


def challenged_id(game: Game) -> int | None:
    """In a game between humans, the one who did not start it."""
    return game.o_player_id if game.x_player_id == game.created_by else game.x_player_id


def stale() -> GameError:
    return GameError("That board is out of date: the game has moved on since.", code="stale")


def busy_channel(live: Game | None) -> GameError:
    if live is not None and live.status is GameStatus.PENDING:
        return GameError("A challenge is already waiting for an answer in this channel.", code="channel_busy")
    return GameError("A game is already running in this channel.", code="channel_busy")


def check_size(size: int) -> None:
    if size not in SIZES:
        raise GameError("A board is 3x3, 4x4 or 5x5.", code="bad_size")


def check_turn(game: Game, user_id: int, expected_ply: int | None, names: Mapping[int, str]) -> Board:
    """The board, if ``user_id`` may move now in ``game`` (and the board is the one they saw)."""
    if game.status is GameStatus.PENDING:
        raise GameError("The challenge has not been accepted yet.", code="not_started")
    if game.status is not GameStatus.ACTIVE:
        raise GameError("This game is over.", code="game_over")
    mine = mark_of(game, user_id)
    if mine is None:
        raise GameError("You are not playing in this game.", code="not_a_player")
    if expected_ply is not None and expected_ply != game.ply:
        raise stale()
    board = Board.parse(game.board)
    if board.turn is not mine:
        other = player_of(game, board.turn)
        if other is None:
            raise GameError("Wait for my move; it is not your turn yet.", code="not_your_turn")
        raise GameError(
            f"It is not your turn: {names.get(other, 'your opponent')} ({board.turn.value}) is to move.",
            code="not_your_turn",
        )
    return board


def cell_index(cell: str | int, board: Board) -> int:
    """The empty cell named by ``cell`` (contract notation, or a 0-based index from a button)."""
    if isinstance(cell, int):
        if not 0 <= cell < board.cells:
            raise GameError(f"There is no such cell on a {board.size}x{board.size} board.", code="bad_cell")
        index = cell
    else:
        try:
            index = parse_cell(cell, board.size)
        except EngineInputError as error:
            raise GameError(str(error), code="bad_cell") from None
    if board[index] is not None:
        name = format_cell(index, board.size)
        raise GameError(f"That cell ({name}) is already taken.", code="cell_taken")
    return index
