"""The cross table of a finished arena, drawn in the picture worker."""

from __future__ import annotations

from bot.pictures.cross_table import CrossCell, CrossRow, render_cross_table
from bot.services.arena_views import ArenaView
from bot.services.picture_pool import PicturePool
from bot.states import GameResult

_SCORES: dict[GameResult | None, tuple[float | None, float | None]] = {
    GameResult.X_WON: (1.0, 0.0),
    GameResult.O_WON: (0.0, 1.0),
    GameResult.DRAW: (0.5, 0.5),
    None: (None, None),
}


def cross_rows(arena: ArenaView) -> list[CrossRow]:
    """A row per player in the order of the standings; a cell per round played."""
    order = [line.player.user_id for line in arena.standings]
    row_of = {player: index + 1 for index, player in enumerate(order)}
    cells: dict[int, list[CrossCell | None]] = {player: [None] * len(arena.played) for player in order}
    for column, played in enumerate(arena.played):
        for pairing in played.pairings:
            x, o = pairing.x.user_id, pairing.o.user_id
            x_score, o_score = _SCORES[pairing.result]
            cells[x][column] = CrossCell(row_of[o], "X", x_score)
            cells[o][column] = CrossCell(row_of[x], "O", o_score)
        if played.bye is not None:
            cells[played.bye.user_id][column] = CrossCell(None, None, 1.0)
    return [CrossRow(float(line.points), tuple(cells[line.player.user_id])) for line in arena.standings]


async def draw_cross_table(pictures: PicturePool, arena: ArenaView) -> bytes:
    """The arena's cross table as a PNG (see :mod:`bot.pictures.cross_table`)."""
    return await pictures.draw(render_cross_table, cross_rows(arena), len(arena.played))
