"""Stored game -> :class:`GameView`, the frozen picture adapters render."""

from __future__ import annotations

from collections.abc import Mapping

from bot.db import GameRecord
from bot.engine import Board, Level, Mark
from bot.services.results import GameView, PlayerView
from bot.services.rules import player_of
from bot.states import GameStatus


def game_view(game: GameRecord, board: Board, names: Mapping[int, str], bot_name: str) -> GameView:
    """The view of ``game`` whose board, parsed, is ``board``; ``names`` maps its players' ids to names."""
    active = game.status is GameStatus.ACTIVE

    def side(mark: Mark) -> PlayerView:
        user_id = player_of(game, mark)
        name = bot_name if user_id is None else names.get(user_id, str(user_id))
        return PlayerView(mark, user_id, name)

    return GameView(
        id=game.id,
        guild_id=game.guild_id,
        channel_id=game.channel_id,
        size=game.size,
        k=game.k,
        board=board.text,
        cells=tuple(board),
        x=side(Mark.X),
        o=side(Mark.O),
        level=None if game.level is None else Level(game.level),
        status=game.status,
        result=game.result,
        end_reason=game.end_reason,
        turn=board.turn if active else None,
        last_cell=game.last_cell,
        winning_cells=board.winning_cells,
        legal_moves=board.legal_moves if active else (),
        ply=game.ply,
        version=game.version,
        challenger_id=game.created_by,
        rated=game.rated,
        deadline=game.deadline,
        message_id=game.message_id,
        message_channel_id=game.message_channel_id,
        created_at=game.created_at,
        finished_at=game.finished_at,
        starter_locale=game.starter_locale,
        starter_theme=game.starter_theme,
        interactions_only=game.interactions_only,
        arena_id=game.arena_id,
    )
