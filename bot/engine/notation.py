"""Cell notation shared by Discord and the terminal.

A cell is its number 1..n*n in reading order, or a column letter and a row
number (``b2`` is the centre of 3x3). Internally cells are 0-based indexes.
"""

from __future__ import annotations

import re

from bot.engine.errors import InvalidCellError

_LETTER_ROW = re.compile(r"([a-z])(\d{1,2})")
_NUMBER = re.compile(r"\d{1,3}")


def parse_cell(text: str, size: int) -> int:
    """Read ``text`` as a cell of a ``size`` x ``size`` board; return its 0-based index."""
    cleaned = text.strip().lower()
    cells = size * size
    last = f"{chr(ord('a') + size - 1)}{size}"
    hint = f"Name a cell as 1-{cells} or a1-{last}"
    if not cleaned:
        raise InvalidCellError(f"{hint}; you gave nothing.")
    if _NUMBER.fullmatch(cleaned):
        number = int(cleaned)
        if 1 <= number <= cells:
            return number - 1
        raise InvalidCellError(
            f"There is no cell {number} on a {size}x{size} board. {hint}.", given=cleaned, off_board=True
        )
    match = _LETTER_ROW.fullmatch(cleaned)
    if match:
        column = ord(match.group(1)) - ord("a")
        row = int(match.group(2)) - 1
        if 0 <= column < size and 0 <= row < size:
            return row * size + column
        raise InvalidCellError(
            f"There is no cell {cleaned} on a {size}x{size} board. {hint}.", given=cleaned, off_board=True
        )
    shown = cleaned if len(cleaned) <= 20 else cleaned[:20] + "..."
    raise InvalidCellError(f"{shown!r} is not a cell. {hint}.", given=cleaned)


def format_cell(cell: int, size: int) -> str:
    """The letter-number name of a 0-based cell, e.g. ``b2``."""
    row, column = divmod(cell, size)
    return f"{chr(ord('a') + column)}{row + 1}"
