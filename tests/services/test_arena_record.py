"""A finished arena through the service: each player's arenas in ``/ttt stats``, and the cross table
built from its rounds (rows in the order of the standings, a cell per round) and drawn to its size."""

from __future__ import annotations

import io

from PIL import Image

from bot.pictures import CROSS_COLOURS, CrossCell, cross_table_size, render_cross_table
from bot.pictures.cross_table import HEADER_PX, MARGIN_PX, NUMBER_PX, ROUND_PX, ROW_PX
from bot.services import ArenaStatus, GameResult, GameService
from bot.services.arena_pictures import cross_rows
from tests.services.helpers import ALICE, BOB, CAROL, DAVE, HERE
from tests.services.test_arenas import BY_ID, DRAW, X_WINS, play, set_up

PLAYERS = (ALICE, BOB, CAROL, DAVE)


async def play_out(service: GameService) -> int:
    """A 4-player arena of 2 rounds: board 0 is won by X, board 1 drawn, in each round."""
    await service.open_arena(HERE, ALICE)
    for actor in PLAYERS[1:]:
        await service.join_arena(HERE, actor)
    update = await service.start_arena(HERE, ALICE)
    while update.new_round is not None:
        made = await set_up(service, update)
        noted = None
        for index, (game_id, place) in enumerate(made.items()):
            game = await service.game(game_id)
            moves = X_WINS if index == 0 else DRAW
            await play(service, place, BY_ID[game.x.user_id], BY_ID[game.o.user_id], moves)
            noted = await service.arena_game_over(game_id)
        assert noted is not None
        update = noted
    assert update.arena.status is ArenaStatus.FINISHED
    return update.arena.id


async def test_stats_show_each_players_arenas(service: GameService) -> None:
    before = await service.stats(ALICE.user_id, HERE.guild_id)
    assert before.arenas.played == 0 and before.arenas.latest is None
    arena = await service.arena(await play_out(service))
    assert arena is not None
    for line in arena.standings:
        record = (await service.stats(line.player.user_id, HERE.guild_id)).arenas
        assert record.played == 1 and record.best == line.rank
        assert record.wins == (line.rank == 1) and record.podiums == (line.rank <= 3)
        assert record.latest is not None
        assert (record.latest.arena_id, record.latest.rank, record.latest.players) == (arena.id, line.rank, 4)


async def test_the_cross_table_follows_the_rounds_and_its_picture_the_field(service: GameService) -> None:
    arena = await service.arena(await play_out(service))
    assert arena is not None
    rows = cross_rows(arena)
    order = [line.player.user_id for line in arena.standings]
    assert [row.points for row in rows] == [float(line.points) for line in arena.standings]
    for column, played in enumerate(arena.played):
        for pairing in played.pairings:
            x, o = order.index(pairing.x.user_id), order.index(pairing.o.user_id)
            x_score = {GameResult.X_WON: 1.0, GameResult.DRAW: 0.5}[pairing.result]  # type: ignore[index]
            assert rows[x].cells[column] == CrossCell(o + 1, "X", x_score)
            assert rows[o].cells[column] == CrossCell(x + 1, "O", 1.0 - x_score)

    png = render_cross_table(rows, len(arena.played))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == cross_table_size(4, 2)
    assert cross_table_size(64, 6)[1] - cross_table_size(4, 6)[1] == 60 * ROW_PX
    winner_row = next(
        i for i, row in enumerate(rows) if row.cells[0] is not None and row.cells[0].score == 1.0
    )
    corner = (MARGIN_PX + NUMBER_PX + ROUND_PX - 3, MARGIN_PX + HEADER_PX + winner_row * ROW_PX + 3)
    assert image.getpixel(corner) == CROSS_COLOURS["won"], "a won game's cell in the colour of a win"
