"""The game's rules as plain checks on a stored game: whose turn, which cell, who may answer.

Each check raises a :class:`~bot.services.refusals.Refusal` naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.db import GameRecord
from bot.engine import SIZES, Board, InvalidCellError, Mark, format_cell, parse_cell
from bot.services import refusals
from bot.states import GameResult, GameStatus

RESULT_OF_WINNER = {Mark.X: GameResult.X_WON, Mark.O: GameResult.O_WON}


def mark_of(game: GameRecord, user_id: int) -> Mark | None:
    """The mark ``user_id`` plays in ``game``, or None when they are not in it."""
    if game.x_player_id == user_id:
        return Mark.X
    if game.o_player_id == user_id:
        return Mark.O
    return None


def player_of(game: GameRecord, mark: Mark) -> int | None:
    """The user who plays ``mark``; None for the bot."""
    return game.x_player_id if mark is Mark.X else game.o_player_id


def bot_on_turn(game: GameRecord) -> bool:
    """Whether ``game`` is running and the bot is the side to move."""
    if game.status is not GameStatus.ACTIVE or game.level is None:
        return False
    return player_of(game, Board.parse(game.board).turn) is None


def challenged_id(game: GameRecord) -> int | None:
    """In a game between humans, the one who did not start it."""
    return game.o_player_id if game.x_player_id == game.created_by else game.x_player_id


def played_out(game: GameRecord) -> bool:
    """Whether ``game`` ended with a result after both sides had moved.

    A game resigned before both sides moved is not played out, so starting and
    resigning at once cannot get around the start cooldown (nor move a rating).
    """
    return game.status is GameStatus.FINISHED and game.ply >= 2


def busy_channel(live: GameRecord | None) -> refusals.GameRunning:
    """The refusal of a start where a game or challenge already runs."""
    if live is not None and live.status is GameStatus.PENDING:
        return refusals.ChallengeWaiting()
    return refusals.GameRunning()


def check_size(size: int) -> None:
    """Refuse a board size the engine does not play."""
    if size not in SIZES:
        raise refusals.BadSize()


def check_turn(game: GameRecord, user_id: int, expected_ply: int | None, names: Mapping[int, str]) -> Board:
    """The board, if ``user_id`` may move now in ``game`` (and the board is the one they saw)."""
    if game.status is GameStatus.PENDING:
        raise refusals.NotStarted()
    if game.status is not GameStatus.ACTIVE:
        raise refusals.GameOver()
    mine = mark_of(game, user_id)
    if mine is None:
        raise refusals.NotAPlayer()
    if expected_ply is not None and expected_ply != game.ply:
        raise refusals.StaleBoard()
    board = Board.parse(game.board)
    if board.turn is not mine:
        other = player_of(game, board.turn)
        if other is None:
            raise refusals.BotToMove()
        name = names.get(other)
        if name is None:
            raise refusals.OpponentToMove(board.turn.value)
        raise refusals.NotYourTurn(name, board.turn.value)
    return board


def cell_index(cell: str | int, board: Board) -> int:
    """The empty cell named by ``cell`` (cell notation, or a 0-based index from a button)."""
    if isinstance(cell, int):
        if not 0 <= cell < board.cells:
            raise refusals.BadCell(str(cell + 1), board.size)
        index = cell
    else:
        try:
            index = parse_cell(cell, board.size)
        except InvalidCellError as error:
            raise _bad_cell(error, board.size) from None
    if board[index] is not None:
        raise refusals.CellTaken(format_cell(index, board.size))
    return index


def _bad_cell(error: InvalidCellError, size: int) -> refusals.BadCell:
    if not error.given:
        return refusals.NoCellGiven(size)
    if error.off_board:
        return refusals.BadCell(error.given, size)
    shown = error.given if len(error.given) <= 20 else error.given[:20] + "..."
    return refusals.NotACell(shown, size)
