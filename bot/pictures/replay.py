"""The animated replay of a game: one frame per position, the last move highlighted, the winning line drawn.

Frames are drawn straight into a small fixed palette, so the GIF needs no colour
quantisation and stays small (a 3x3 game is a few kilobytes). The first frame is
the empty board; each following frame adds one move and tints its cell; the last
frame draws every winning line in the winner's colour and shows the result in the
bottom strip (the winner's mark, or both marks for a draw), and is held longer.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image, ImageDraw

CELL_PX = {3: 96, 4: 80, 5: 64}
MARGIN_PX = 12
STRIP_PX = 28
FIRST_FRAME_MS = 600
MOVE_FRAME_MS = 900
LAST_FRAME_MS = 4000

REPLAY_COLOURS: dict[str, tuple[int, int, int]] = {
    "background": (255, 255, 255),
    "grid": (60, 64, 72),
    "X": (214, 48, 49),
    "O": (9, 132, 227),
    "last": (255, 234, 167),
    "strip": (223, 230, 233),
    "draw": (127, 140, 141),
}
"""The palette, by role; ``"X"``/``"O"`` are the marks' colours, also their winning lines'."""

_ROLES = tuple(REPLAY_COLOURS)
_INDEX = {role: index for index, role in enumerate(_ROLES)}
_PALETTE = [channel for role in _ROLES for channel in REPLAY_COLOURS[role]]


@dataclass(frozen=True, slots=True)
class ReplayMove:
    """A move as the picture needs it: the 0-based cell and the mark (``"X"`` or ``"O"``)."""

    cell: int
    mark: str


class _Canvas:
    """Geometry of one board size: where cells are, and how to draw marks in them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cell = CELL_PX.get(size, 64)
        self.board_px = size * self.cell
        self.width = self.board_px + 2 * MARGIN_PX
        self.height = self.board_px + 2 * MARGIN_PX + STRIP_PX
        self.stroke = max(4, self.cell // 12)

    def box(self, cell: int) -> tuple[int, int, int, int]:
        row, column = divmod(cell, self.size)
        left = MARGIN_PX + column * self.cell
        top = MARGIN_PX + row * self.cell
        return left, top, left + self.cell, top + self.cell

    def centre(self, cell: int) -> tuple[int, int]:
        left, top, right, bottom = self.box(cell)
        return (left + right) // 2, (top + bottom) // 2

    def new_frame(self) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        # Imported where pictures are drawn, so the bot itself never pays for Pillow.
        from PIL import Image, ImageDraw

        image = Image.new("P", (self.width, self.height), _INDEX["background"])
        image.putpalette(_PALETTE)
        return image, ImageDraw.Draw(image)

    def grid(self, draw: ImageDraw.ImageDraw) -> None:
        width = max(2, self.cell // 32)
        end = MARGIN_PX + self.board_px
        for i in range(1, self.size):
            at = MARGIN_PX + i * self.cell
            draw.line([(at, MARGIN_PX), (at, end)], fill=_INDEX["grid"], width=width)
            draw.line([(MARGIN_PX, at), (end, at)], fill=_INDEX["grid"], width=width)

    def mark(
        self, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], mark: str, stroke: int | None = None
    ) -> None:
        left, top, right, bottom = box
        inset = (right - left) // 4
        shape = (left + inset, top + inset, right - inset, bottom - inset)
        colour = _INDEX[mark]
        width = stroke or self.stroke
        if mark == "X":
            draw.line([shape[:2], shape[2:]], fill=colour, width=width)
            draw.line([(shape[0], shape[3]), (shape[2], shape[1])], fill=colour, width=width)
        else:
            draw.ellipse(shape, outline=colour, width=width)

    def strip(self, draw: ImageDraw.ImageDraw, shown: int, total: int, result: str | None) -> None:
        """The bottom strip: progress through the game, or the result on the last frame."""
        top = self.height - STRIP_PX
        draw.rectangle((0, top, self.width, self.height), fill=_INDEX["strip"])
        if result is None:
            if total:
                filled = MARGIN_PX + (self.width - 2 * MARGIN_PX) * shown // total
                draw.rectangle((MARGIN_PX, top + 10, filled, top + 18), fill=_INDEX["grid"])
            return
        icon = STRIP_PX + 8
        marks = ("X", "O") if result == "draw" else (result,)
        left = (self.width - len(marks) * icon) // 2
        for mark in marks:
            self.mark(draw, (left, top - 4, left + icon, top - 4 + icon), mark, stroke=3)
            left += icon


def _frame(
    canvas: _Canvas,
    moves: Sequence[ReplayMove],
    shown: int,
    lines: Sequence[Sequence[int]],
    winner: str | None,
    final: bool,
) -> Image.Image:
    image, draw = canvas.new_frame()
    if shown:
        draw.rectangle(canvas.box(moves[shown - 1].cell), fill=_INDEX["last"])
    canvas.grid(draw)
    for move in moves[:shown]:
        canvas.mark(draw, canvas.box(move.cell), move.mark)
    if final and winner is not None:
        for line in lines:
            start, end = canvas.centre(min(line)), canvas.centre(max(line))
            draw.line([start, end], fill=_INDEX[winner], width=canvas.stroke + 4)
    result = (winner or "draw") if final and (winner is not None or shown == canvas.size**2) else None
    canvas.strip(draw, shown, len(moves), result)
    return image


def render_replay(
    size: int,
    moves: Sequence[ReplayMove],
    winning_lines: Sequence[Sequence[int]] = (),
    winner: str | None = None,
) -> bytes:
    """The GIF of a game of ``moves`` on a ``size`` x ``size`` board.

    ``winning_lines`` (cells of each completed line) are drawn in ``winner``'s colour
    on the last frame, whose strip shows the winner's mark: also for a game won
    without a line (by resignation, on time). A full board without a winner shows
    both marks in the strip (a draw); a cancelled game shows neither.
    """
    canvas = _Canvas(size)
    frames = [
        _frame(canvas, moves, shown, winning_lines, winner, final=shown == len(moves))
        for shown in range(len(moves) + 1)
    ]
    durations = [FIRST_FRAME_MS] + [MOVE_FRAME_MS] * len(moves)
    durations[-1] = LAST_FRAME_MS
    out = io.BytesIO()
    frames[0].save(
        out,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        disposal=1,
    )
    return out.getvalue()
