"""The board as the terminal shows it: column letters, row numbers, and the free cells' numbers.

>>> print(render_board(Board.parse("X.O/.X./..."), last=4))
     a  b  c        free cells
  1  X  .  O         .  2  .
  2  . [X] .         4  .  6
  3  .  .  .         7  8  9
"""

from __future__ import annotations

from bot.engine import Board, InvalidCell, Level, format_cell
from bot.i18n import N_, Texts
from bot.services import Refusal, refusals

_GAP = "      "

LEVEL_NAMES = {
    Level.EASY: N_("easy"),
    Level.MEDIUM: N_("medium"),
    Level.HARD: N_("hard"),
    Level.PERFECT: N_("perfect"),
}


def _mark(board: Board, cell: int, last: int | None) -> str:
    mark = board[cell]
    shown = mark.value if mark is not None else "."
    return f"[{shown}]" if cell == last else f" {shown} "


def render_board(board: Board, last: int | None = None, texts: Texts | None = None) -> str:
    """The board with the ``last`` move in brackets, and beside it the number of every free cell."""
    size = board.size
    letters = "".join(f" {chr(ord('a') + column)} " for column in range(size))
    free = "free cells" if texts is None else texts.gettext("free cells")
    header = f"    {letters}{_GAP} {free}"
    rows = [header.rstrip()]
    for row in range(size):
        cells = range(row * size, (row + 1) * size)
        grid = "".join(_mark(board, cell, last) for cell in cells)
        key = "".join(f"{cell + 1:>3}" if board[cell] is None else "  ." for cell in cells)
        rows.append(f"{row + 1:>3} {grid}{_GAP}{key}".rstrip())
    return "\n".join(rows)


def describe_cells(cells: tuple[int, ...], size: int) -> str:
    """``a1, b2, c3``: cells in letter-number notation."""
    return ", ".join(format_cell(cell, size) for cell in cells)


def refusal_text(texts: Texts, refusal: Refusal) -> str:
    """A service's refusal in the terminal's language."""
    return texts.message(refusal.template, refusal.params, plural=refusal.plural, count=refusal.count)


def cell_error_text(texts: Texts, error: InvalidCell, size: int) -> str:
    """Why typed text names no cell, in the terminal's language (the service's words for it)."""
    if not error.given:
        return refusal_text(texts, refusals.NoCellGiven(size))
    if error.off_board:
        return refusal_text(texts, refusals.BadCell(error.given, size))
    return refusal_text(texts, refusals.NotACell(error.given, size))
