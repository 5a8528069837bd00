"""The board as the terminal shows it: column letters, row numbers, and the free cells' numbers.

>>> print(render_board(Board.parse("X.O/.X./..."), last=4))
     a  b  c        free cells
  1  X  .  O         .  2  .
  2  . [X] .         4  .  6
  3  .  .  .         7  8  9
"""

from __future__ import annotations

from bot.engine import Board, format_cell

_GAP = "      "


def _mark(board: Board, cell: int, last: int | None) -> str:
    mark = board[cell]
    shown = mark.value if mark is not None else "."
    return f"[{shown}]" if cell == last else f" {shown} "


def render_board(board: Board, last: int | None = None) -> str:
    """The board with the ``last`` move in brackets, and beside it the number of every free cell."""
    size = board.size
    letters = "".join(f" {chr(ord('a') + column)} " for column in range(size))
    header = f"    {letters}{_GAP} free cells"
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
