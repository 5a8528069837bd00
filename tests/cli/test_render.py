"""The terminal board: coordinates, the last move in brackets, and the free cells' numbers."""

from __future__ import annotations

import doctest

import bot.cli.render
from bot.cli.render import render_board
from bot.engine import Board


def test_docstring_example_is_current() -> None:
    assert doctest.testmod(bot.cli.render).failed == 0


def test_rows_show_marks_and_free_numbers() -> None:
    board = Board.parse("XO../..../..X./...O")
    lines = render_board(board, last=15).splitlines()
    assert lines[0].split() == ["a", "b", "c", "d", "free", "cells"]
    assert lines[1].split() == ["1", "X", "O", ".", ".", ".", ".", "3", "4"]
    assert lines[3].split() == ["3", ".", ".", "X", ".", "9", "10", ".", "12"]
    assert lines[4].split() == ["4", ".", ".", ".", "[O]", "13", "14", "15", "."]
    assert "[" not in "".join(lines[:4])


def test_no_brackets_without_a_last_move() -> None:
    assert "[" not in render_board(Board.parse("X" + "." * 24))
