"""The README's board pictures: drawn from the messages the real bot sends, and from a composed board."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest
from PIL import Image

from bench.board_picture import draw_boards
from bench.v2_picture import WIDTH, render
from bot.exts.games.messages import compose
from bot.i18n import texts_for_locale
from tests.exts.factories import ALICE, game_view
from tests.support import layouts


def test_a_composed_board_is_drawn_with_its_accent_bar() -> None:
    message = compose(game_view("X.O/.X./...", last_cell=4), texts_for_locale("en-US"))
    picture = render(layouts.payload(message.view), {ALICE: "alice"}, lambda emoji: None)
    assert picture.width == WIDTH and 250 < picture.height < 600
    orange = discord.Colour.orange().to_rgb()
    assert any(picture.getpixel((x, picture.height // 2)) == orange for x in range(12, 26)), "O to move"


@pytest.mark.e2e
async def test_both_boards_are_drawn_from_the_bots_messages(tmp_path: Path) -> None:
    written = await draw_boards(tmp_path)
    assert [path.name for path in written] == ["board-3x3.png", "board-5x5.png"]
    small, big = (Image.open(path) for path in written)
    assert small.width == big.width == WIDTH and big.height > small.height, "five rows of cells"
