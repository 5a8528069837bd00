"""The README's board pictures, and the themes', are drawn from the messages the real bot sends."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bench.board_pictures import draw_boards

pytestmark = [pytest.mark.e2e]


async def test_both_boards_are_played_and_drawn(tmp_path: Path) -> None:
    written = await draw_boards(tmp_path, tmp_path)
    assert [path.name for path in written] == ["board-3x3.png", "board-5x5.png", "themes.png"]
    small, big, themes = (Image.open(path) for path in written)
    assert small.width == big.width and big.height > small.height, "five rows of cells against three"
    assert themes.width > small.width, "the themes side by side"
