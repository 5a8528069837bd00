"""The board as the terminal shows it: column letters, row numbers, and the free cells' numbers.

>>> print(render_board(Board.parse("X.O/.X./..."), last=4))
     a  b  c        free cells
  1  X  .  O         .  2  .
  2  . [X] .         4  .  6
  3  .  .  .         7  8  9

A finished board has no free cells to show; a won one marks its winning line:

>>> print(render_board(Board.parse("X.O/.XO/..X"), last=8))
     a  b  c
  1 (X) .  O
  2  . (X) O
  3  .  . (X)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.engine import Board, InvalidCellError, Level, format_cell
from bot.i18n import N_, Texts

if TYPE_CHECKING:
    from bot.services import NotDone

_GAP = "      "

LEVEL_NAMES = {
    Level.EASY: N_("easy"),
    Level.MEDIUM: N_("medium"),
    Level.HARD: N_("hard"),
    Level.PERFECT: N_("perfect"),
}


def _mark(board: Board, cell: int, last: int | None, winning: tuple[int, ...]) -> str:
    mark = board[cell]
    shown = mark.value if mark is not None else "."
    if cell in winning:
        return f"({shown})"
    return f"[{shown}]" if cell == last else f" {shown} "


def _free(board: Board, cell: int) -> str:
    return f"{cell + 1:>3}" if board[cell] is None else "  ."


def render_board(board: Board, last: int | None = None, texts: Texts | None = None) -> str:
    """The board with the ``last`` move in brackets, and beside it the number of every free cell.

    Once the game is over the free cells are left out, and a winning line is marked ``(X)``.
    """
    size = board.size
    winning = board.winning_cells
    letters = "".join(f" {chr(ord('a') + column)} " for column in range(size))
    # Translators: the heading over the numbers of the free cells beside the terminal's board.
    free = "free cells" if texts is None else texts.gettext("free cells")
    header = f"    {letters}" if board.is_over else f"    {letters}{_GAP} {free}"
    rows = [header.rstrip()]
    for row in range(size):
        cells = range(row * size, (row + 1) * size)
        grid = "".join(_mark(board, cell, last, winning) for cell in cells)
        key = "" if board.is_over else _GAP + "".join(_free(board, cell) for cell in cells)
        rows.append(f"{row + 1:>3} {grid}{key}".rstrip())
    return "\n".join(rows)


def describe_cells(cells: tuple[int, ...], size: int) -> str:
    """``a1, b2, c3``: cells in letter-number notation."""
    return ", ".join(format_cell(cell, size) for cell in cells)


def refusal_text(texts: Texts, refusal: NotDone) -> str:
    """A service's refusal in the terminal's language."""
    return texts.message(refusal.template, refusal.params, plural=refusal.plural, count=refusal.count)


def cell_error_text(texts: Texts, error: InvalidCellError, size: int) -> str:
    """Why typed text names no cell, in the terminal's language.

    The words are the service's (its refusals' msgids, so one translation serves both), written
    out here because ``play --no-db`` must not import the service and its database layer.
    """
    names = {
        "cell": error.given,
        "size": size,
        "cells": size * size,
        "last": format_cell(size * size - 1, size),
    }
    if not error.given:
        return texts.gettext("Name a cell as 1-{cells} or a1-{last}; you gave nothing.", **names)
    if error.off_board:
        return texts.gettext(
            "There is no cell {cell} on a {size}x{size} board. Name a cell as 1-{cells} or a1-{last}.",
            **names,
        )
    return texts.gettext("'{cell}' is not a cell. Name a cell as 1-{cells} or a1-{last}.", **names)
