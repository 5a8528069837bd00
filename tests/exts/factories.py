"""Game views for rendering tests, built from a board text the way the service would build them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.engine import Board, Level, Mark
from bot.services.results import GameView, PlayerView
from bot.states import EndReason, GameResult, GameStatus

ALICE, BOB = 111111111111111111, 222222222222222222
NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)


def game_view(
    text: str = ".........",
    *,
    status: GameStatus | None = None,
    vs_bot: bool = True,
    level: Level = Level.PERFECT,
    last_cell: int | None = None,
    end_reason: EndReason | None = None,
    result: GameResult | None = None,
    game_id: int = 42,
    bot_name: str = "TicTacToe",
) -> GameView:
    board = Board.parse(text)
    finished = board.is_over
    if status is None:
        status = GameStatus.FINISHED if finished else GameStatus.ACTIVE
    if status is GameStatus.FINISHED and result is None:
        winner = board.winner
        result = GameResult.DRAW if winner is None else GameResult(f"{winner.value.lower()}_won")
        end_reason = end_reason or (EndReason.FULL if winner is None else EndReason.LINE)
    active = status is GameStatus.ACTIVE
    o = PlayerView(Mark.O, None, bot_name) if vs_bot else PlayerView(Mark.O, BOB, "bob")
    return GameView(
        id=game_id,
        guild_id=1,
        channel_id=2,
        size=board.size,
        k=board.k,
        board=board.text,
        cells=tuple(board),
        x=PlayerView(Mark.X, ALICE, "alice"),
        o=o,
        level=level if vs_bot else None,
        status=status,
        result=result,
        end_reason=end_reason,
        turn=board.turn if active else None,
        last_cell=last_cell,
        winning_cells=board.winning_cells,
        legal_moves=board.legal_moves if active else (),
        ply=board.ply,
        version=board.ply + 1,
        challenger_id=ALICE,
        rated=False,
        deadline=NOW + timedelta(minutes=2) if status.is_live else None,
        message_id=None,
        message_channel_id=None,
        created_at=NOW,
        finished_at=None if status.is_live else NOW,
    )
