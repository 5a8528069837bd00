"""Game views for rendering tests: a game (never stored) built from a board text, shown by the service's
own presenter."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.db.models import Game
from bot.engine import Board, Level
from bot.services import presenter
from bot.services.results import GameView
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
    game = Game(
        id=game_id,
        guild_id=1,
        channel_id=2,
        size=board.size,
        k=board.k,
        level=level.value if vs_bot else None,
        x_player_id=ALICE,
        o_player_id=None if vs_bot else BOB,
        created_by=ALICE,
        status=status,
        result=result,
        end_reason=end_reason,
        board=board.compact,
        ply=board.ply,
        last_cell=last_cell,
        deadline=NOW + timedelta(minutes=2) if status.is_live else None,
        message_id=None,
        message_channel_id=None,
        interactions_only=False,
        rated=False,
        version=board.ply + 1,
        created_at=NOW,
        updated_at=NOW,
        finished_at=None if status.is_live else NOW,
    )
    return presenter.game_view(game, board, {ALICE: "alice", BOB: "bob"}, bot_name)
