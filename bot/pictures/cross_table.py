"""The cross table of an arena: a row per player in the order of the final standings, a column per
round, and the points.

Each round's cell shows the player's side (a small X or O in its colour), the row number of the
opponent, and the result as chess cross tables write it (``+`` won, ``=`` drawn, ``-`` lost), on a
background of the result's colour; a bye shows ``+`` alone, a round not played stays blank. The
picture carries no words (the row numbers stand for the names listed in the standings above it).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

MARGIN_PX = 8
ROW_PX = 26
HEADER_PX = 26
NUMBER_PX = 40
ROUND_PX = 72
POINTS_PX = 52
FONT_PX = 14
MARK_PX = 10

CROSS_COLOURS: dict[str, tuple[int, int, int]] = {
    "background": (255, 255, 255),
    "header": (223, 230, 233),
    "grid": (178, 190, 195),
    "text": (45, 52, 54),
    "X": (214, 48, 49),
    "O": (9, 132, 227),
    "won": (200, 240, 200),
    "drawn": (236, 236, 236),
    "lost": (250, 215, 215),
    "bye": (255, 243, 196),
}
_SIGN = {1.0: "+", 0.5: "=", 0.0: "-"}
_FILL = {1.0: "won", 0.5: "drawn", 0.0: "lost"}


@dataclass(frozen=True, slots=True)
class CrossCell:
    """A player's round: the opponent's row (1-based; None for a bye), the player's mark (``"X"`` or
    ``"O"``; None for a bye), and their score (1, 0.5, 0; None while the game is undecided)."""

    opponent: int | None
    mark: str | None
    score: float | None


@dataclass(frozen=True, slots=True)
class CrossRow:
    """A player's row: their points, and a cell per round (None: not paired that round)."""

    points: float
    cells: tuple[CrossCell | None, ...]


def cross_table_size(players: int, rounds: int) -> tuple[int, int]:
    """The picture's width and height in pixels for ``players`` rows and ``rounds`` columns."""
    width = 2 * MARGIN_PX + NUMBER_PX + rounds * ROUND_PX + POINTS_PX
    height = 2 * MARGIN_PX + HEADER_PX + players * ROW_PX
    return width, height


def render_cross_table(rows: Sequence[CrossRow], rounds: int) -> bytes:
    """A PNG of the cross table (see the module's docstring)."""
    from PIL import Image, ImageDraw, ImageFont

    width, height = cross_table_size(len(rows), rounds)
    image = Image.new("RGB", (width, height), CROSS_COLOURS["background"])
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=FONT_PX)
    top = MARGIN_PX
    left_rounds = MARGIN_PX + NUMBER_PX
    points_left = left_rounds + rounds * ROUND_PX
    draw.rectangle((MARGIN_PX, top, width - MARGIN_PX - 1, top + HEADER_PX - 1), fill=CROSS_COLOURS["header"])
    for number in range(1, rounds + 1):
        _centred(draw, font, str(number), left_rounds + (number - 1) * ROUND_PX, top, ROUND_PX, HEADER_PX)
    for index, row in enumerate(rows):
        y = top + HEADER_PX + index * ROW_PX
        _centred(draw, font, str(index + 1), MARGIN_PX, y, NUMBER_PX, ROW_PX)
        for column, cell in enumerate(row.cells[:rounds]):
            if cell is not None:
                _cell(draw, font, cell, left_rounds + column * ROUND_PX, y)
        _centred(draw, font, _points(row.points), points_left, y, POINTS_PX, ROW_PX)
    _grid(draw, len(rows), rounds, width, height)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _cell(
    draw: ImageDraw.ImageDraw,
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    cell: CrossCell,
    x: int,
    y: int,
) -> None:
    if cell.opponent is None:
        draw.rectangle((x, y, x + ROUND_PX - 1, y + ROW_PX - 1), fill=CROSS_COLOURS["bye"])
        _centred(draw, font, "+", x, y, ROUND_PX, ROW_PX)
        return
    if cell.score is not None:
        draw.rectangle((x, y, x + ROUND_PX - 1, y + ROW_PX - 1), fill=CROSS_COLOURS[_FILL[cell.score]])
    if cell.mark is not None:
        _mark(draw, cell.mark, x + 6, y + (ROW_PX - MARK_PX) // 2)
    sign = "" if cell.score is None else _SIGN[cell.score]
    _centred(draw, font, f"{cell.opponent}{sign}", x + MARK_PX + 6, y, ROUND_PX - MARK_PX - 6, ROW_PX)


def _mark(draw: ImageDraw.ImageDraw, mark: str, x: int, y: int) -> None:
    colour = CROSS_COLOURS[mark]
    if mark == "X":
        draw.line((x, y, x + MARK_PX, y + MARK_PX), fill=colour, width=2)
        draw.line((x, y + MARK_PX, x + MARK_PX, y), fill=colour, width=2)
    else:
        draw.ellipse((x, y, x + MARK_PX, y + MARK_PX), outline=colour, width=2)


def _grid(draw: ImageDraw.ImageDraw, players: int, rounds: int, width: int, height: int) -> None:
    colour = CROSS_COLOURS["grid"]
    right, bottom = width - MARGIN_PX - 1, height - MARGIN_PX - 1
    for index in range(players + 2):
        y = MARGIN_PX if index == 0 else MARGIN_PX + HEADER_PX + (index - 1) * ROW_PX
        draw.line((MARGIN_PX, min(y, bottom), right, min(y, bottom)), fill=colour)
    columns = [MARGIN_PX, MARGIN_PX + NUMBER_PX]
    columns += [MARGIN_PX + NUMBER_PX + r * ROUND_PX for r in range(1, rounds + 1)] + [right]
    for x in columns:
        draw.line((x, MARGIN_PX, x, bottom), fill=colour)


def _centred(
    draw: ImageDraw.ImageDraw,
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont,
    text: str,
    x: int,
    y: int,
    w: int,
    h: int,
) -> None:
    draw.text((x + w / 2, y + h / 2), text, fill=CROSS_COLOURS["text"], font=font, anchor="mm")


def _points(points: float) -> str:
    return str(int(points)) if points == int(points) else f"{points:.1f}"
