"""The ``/ttt start`` size choices say how many in a row win on each board."""

from __future__ import annotations

import re

import pytest
from discord import app_commands

from bot.engine import Board, Mark
from bot.exts.games.handlers.games import SIZE_CHOICES


def _won_by_a_row_of(size: int) -> int:
    """How many X's in the top row win a real game on ``size`` x ``size`` (O plays the second row)."""
    board = Board.empty(size)
    for column in range(size):
        board = board.play(column)
        if board.winner is Mark.X:
            return column + 1
        board = board.play(size + column)
    raise AssertionError("a full row did not win")


@pytest.mark.parametrize("choice", SIZE_CHOICES, ids=lambda choice: choice.name)
def test_a_size_label_names_the_line_that_wins(choice: app_commands.Choice[int]) -> None:
    name, size = choice.name, choice.value
    match = re.fullmatch(r"(\d)x(\d) \((\d) in a row\)", name)
    assert match is not None and int(match[1]) == int(match[2]) == size
    assert int(match[3]) == _won_by_a_row_of(size)
