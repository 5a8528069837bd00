"""Replays and rating charts through the service, opened with Pillow and checked by their pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageColor

from bot.pictures import GLOBAL_COLOUR, REPLAY_COLOURS, SERVER_COLOUR
from bot.pictures.replay import CELL_PX, LAST_FRAME_MS, MARGIN_PX, STRIP_PX
from bot.services import GameService, ServiceSettings
from bot.services.refusals import NothingToReplay, NothingToReview, PlayedElsewhere
from tests.services.helpers import (
    ALICE,
    BOB,
    CAROL,
    DRAW,
    ELSEWHERE,
    HERE,
    O_WINS,
    X_WINS,
    ManualClock,
    play_game,
)

SERVER_RGB = ImageColor.getrgb(SERVER_COLOUR)
GLOBAL_RGB = ImageColor.getrgb(GLOBAL_COLOUR)


def colours_of(image: Image.Image) -> set[tuple[int, ...]]:
    return {colour for _, colour in image.convert("RGB").getcolors(maxcolors=1 << 16) or []}


def frames(gif: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(gif))
    out = []
    for index in range(image.n_frames):
        image.seek(index)
        out.append(image.convert("RGB"))
    return out


def centre(cell: int, size: int) -> tuple[int, int]:
    row, column = divmod(cell, size)
    px = CELL_PX[size]
    return MARGIN_PX + column * px + px // 2, MARGIN_PX + row * px + px // 2


def between(a: int, b: int, size: int) -> tuple[int, int]:
    """The middle of the segment joining two cells' centres (on the grid line between neighbours)."""
    (ax, ay), (bx, by) = centre(a, size), centre(b, size)
    return (ax + bx) // 2, (ay + by) // 2


async def test_a_won_game_replays_a_frame_per_move_with_the_winning_line_in_the_winners_colour(
    service: GameService,
) -> None:
    game = await play_game(service, ALICE, BOB, O_WINS)  # c3 a1 b3 a2 c1 a3: O wins down column a
    replay = await service.replay(game.id, place=HERE, user_id=CAROL.user_id)
    assert len(replay.gif) < 100_000
    pictures = frames(replay.gif)
    assert len(pictures) == len(O_WINS) + 1
    assert len({picture.size for picture in pictures}) == 1
    last = pictures[-1]
    for a, b in ((0, 3), (3, 6)):  # a1-a2 and a2-a3: only the winning line crosses those grid lines
        assert last.getpixel(between(a, b, 3)) == REPLAY_COLOURS["O"]
        assert pictures[-2].getpixel(between(a, b, 3)) != REPLAY_COLOURS["O"]
    assert last.getpixel(between(2, 5, 3)) != REPLAY_COLOURS["X"]  # no line through X's c1-c2
    assert Image.open(io.BytesIO(replay.gif)).info.get("loop") == 0
    durations = []
    image = Image.open(io.BytesIO(replay.gif))
    for index in range(image.n_frames):
        image.seek(index)
        durations.append(image.info["duration"])
    assert durations[-1] == LAST_FRAME_MS > max(durations[:-1])


async def test_the_last_move_is_highlighted_on_each_frame(service: GameService) -> None:
    game = await play_game(service, ALICE, BOB, DRAW)
    pictures = frames((await service.replay(game.id, place=HERE, user_id=ALICE.user_id)).gif)
    assert len(pictures) == 10
    for shown, picture in enumerate(pictures[1:], start=1):
        cell = [4, 0, 2, 6, 3, 5, 7, 1, 8][shown - 1]  # DRAW's cells as indexes
        x, y = centre(cell, 3)
        corner = (x - CELL_PX[3] // 2 + 6, y - CELL_PX[3] // 2 + 6)
        assert picture.getpixel(corner) == REPLAY_COLOURS["last"], shown
        previous = [4, 0, 2, 6, 3, 5, 7, 1, 8][shown - 2] if shown > 1 else None
        if previous is not None:
            px, py = centre(previous, 3)
            assert picture.getpixel((px - CELL_PX[3] // 2 + 6, py - CELL_PX[3] // 2 + 6)) == (255, 255, 255)


async def test_a_4x4_replay_draws_its_line(service: GameService) -> None:
    game = await service.challenge(HERE, ALICE, BOB, size=4)
    await service.accept(HERE, BOB, game.id)
    for ply, cell in enumerate(["a1", "a2", "b1", "b2", "c1", "c2", "d1"]):
        await service.move(HERE, ALICE if ply % 2 == 0 else BOB, cell)
    pictures = frames((await service.replay(game.id, place=HERE, user_id=ALICE.user_id)).gif)
    assert len(pictures) == 8
    assert pictures[-1].getpixel(between(1, 2, 4)) == REPLAY_COLOURS["X"]


def strip_colours(frame: Image.Image) -> set[tuple[int, ...]]:
    """The colours of the strip under the board, where the last frame shows the result."""
    width, height = frame.size
    return colours_of(frame.crop((0, height - STRIP_PX, width, height)))


async def test_a_game_won_by_resignation_or_on_time_shows_the_winners_mark_on_its_last_frame(
    service: GameService, settings: ServiceSettings, clock: ManualClock
) -> None:
    resigned = await play_game(service, ALICE, BOB, ["b2", "a1"])
    await service.resign(HERE, ALICE)  # Alice plays X: O wins
    on_time = await play_game(service, ALICE, BOB, ["b2"])
    clock.advance(settings.turn_timeout_seconds)
    (timed_out,) = await service.sweep()  # Bob (O) did not move: X wins
    assert timed_out.id == on_time.id
    for game, winner, loser in ((resigned, "O", "X"), (on_time, "X", "O")):
        pictures = frames((await service.replay(game.id, place=HERE, user_id=CAROL.user_id)).gif)
        last = strip_colours(pictures[-1])
        assert REPLAY_COLOURS[winner] in last and REPLAY_COLOURS[loser] not in last, game.id
        assert REPLAY_COLOURS[winner] not in strip_colours(pictures[-2])


async def test_a_game_with_no_moves_has_nothing_to_review_or_replay(service: GameService) -> None:
    game = await service.start_vs_bot(HERE, ALICE)
    await service.resign(HERE, ALICE)
    for game_id in (game.id, None):
        with pytest.raises(NothingToReview):
            await service.review(game_id, place=HERE, user_id=ALICE.user_id)
        with pytest.raises(NothingToReplay):
            await service.replay(game_id, place=HERE, user_id=ALICE.user_id)


async def test_a_replay_of_another_servers_game_is_refused(service: GameService) -> None:
    game = await play_game(service, ALICE, BOB, X_WINS, place=ELSEWHERE)
    with pytest.raises(PlayedElsewhere):
        await service.replay(game.id, place=HERE, user_id=ALICE.user_id)


async def test_the_rating_chart_appears_with_the_first_rated_game(
    service: GameService, clock: ManualClock
) -> None:
    assert await service.rating_chart(ALICE.user_id, HERE.guild_id) is None
    await service.start_vs_bot(HERE, ALICE)  # games against the bot are never rated
    await service.resign(HERE, ALICE)
    assert await service.rating_chart(ALICE.user_id, HERE.guild_id) is None
    for cells in (X_WINS, DRAW, O_WINS):
        clock.advance(3600)
        await play_game(service, ALICE, BOB, cells)
    chart = await service.rating_chart(ALICE.user_id, HERE.guild_id)
    assert chart is not None and (chart.server_games, chart.global_games) == (3, 3)
    image = Image.open(io.BytesIO(chart.png))
    assert image.format == "PNG" and image.size == (640, 320)
    assert {SERVER_RGB, GLOBAL_RGB} <= colours_of(image)
    elsewhere = await service.rating_chart(ALICE.user_id, ELSEWHERE.guild_id)
    assert elsewhere is not None and (elsewhere.server_games, elsewhere.global_games) == (0, 3)
    only_global = colours_of(Image.open(io.BytesIO(elsewhere.png)))
    assert GLOBAL_RGB in only_global and SERVER_RGB not in only_global
    async with service.database.read() as repo:
        scope = HERE.guild_id or 0
        changes = await repo.rating_changes(ALICE.user_id, scope)
        now = await repo.rating(ALICE.user_id, scope)
    assert len(changes) == 3 and now is not None and changes[-1].rating == now.rating
    assert [change.played_at for change in changes] == sorted(change.played_at for change in changes)


def test_every_theme_but_the_default_has_two_distinct_square_pieces() -> None:
    from PIL import Image

    from bot.pictures.pieces import SIZE_PX, THEME_STYLES, piece_png
    from bot.services import DEFAULT_THEME, THEMES

    assert set(THEME_STYLES) == set(THEMES) - {DEFAULT_THEME}
    for theme in THEME_STYLES:
        x, o = piece_png(theme, "x"), piece_png(theme, "o")
        assert x != o and x == piece_png(theme, "x"), "the same bytes on every start"
        for png in (x, o):
            picture = Image.open(io.BytesIO(png))
            assert picture.size == (SIZE_PX, SIZE_PX) and len(png) < 256 * 1024


def test_the_high_contrast_pieces_are_greyscale_and_inverse_of_each_other() -> None:
    from PIL import Image

    from bot.pictures.pieces import SIZE_PX, piece_png

    for mark, tile in (("x", 255), ("o", 0)):
        picture = Image.open(io.BytesIO(piece_png("contrast", mark))).convert("RGBA")
        colours = {pixel[:3] for pixel in picture.getdata() if pixel[3] > 0}
        assert all(r == g == b for r, g, b in colours), "no colour is needed to read them"
        assert picture.getpixel((SIZE_PX // 8, SIZE_PX // 2))[:3] == (tile, tile, tile), "light X, dark O"
