"""``python -m bot analyze BOARD... | -``: one JSON line per board (docs/terminal.md).

Valid boards are echoed in upper-case compact form (``x.o/...`` comes back as ``X.O......``);
invalid ones are echoed as given (trimmed) next to an ``error``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any, TextIO

from bot.engine import Board, InvalidBoardError, analyze
from bot.engine.analysis import ANALYSIS_BUDGET_MS
from bot.engine.oracle import SOLVED_SIZES

STDIN = "-"


def analysis_record(board: Board, budget_ms: int) -> dict[str, Any]:
    """The JSON object for a valid board, keys in their documented order."""
    return analyze(board, budget_ms=budget_ms).as_dict()


@cache
def _solved_line(board: Board) -> str:
    """The JSON line of a board of a solved size (3x3), made once per process and then looked up."""
    return json.dumps(analysis_record(board, ANALYSIS_BUDGET_MS))


def analysis_line(board: Board, budget_ms: int) -> str:
    """The JSON text of a valid board's analysis (without the newline)."""
    if board.size in SOLVED_SIZES:
        return _solved_line(board)
    return json.dumps(analysis_record(board, budget_ms))


def line_for(text: str, budget_ms: int) -> tuple[str, bool]:
    """The output line (without the newline) for one board text, and whether the board was valid."""
    try:
        board = Board.parse(text)
    except InvalidBoardError as error:
        return json.dumps({"board": text.strip(), "error": str(error)}), False
    return analysis_line(board, budget_ms), True


def _lines(stream: TextIO) -> Iterator[str]:
    """Every line, blank ones too (each gets its answer), handed over as soon as it is read (``readline``)."""
    while line := stream.readline():
        yield line


def _texts(boards: Sequence[str], stdin: TextIO) -> Iterator[str]:
    for board in boards:
        if board == STDIN:
            yield from _lines(stdin)
        else:
            yield board


def run_analyze(boards: Sequence[str], budget_ms: int, stdin: TextIO, stdout: TextIO) -> int:
    """Write one line per board and flush it at once; 0 when every board was valid, else 1."""
    all_valid = True
    for text in _texts(boards, stdin):
        line, valid = line_for(text, budget_ms)
        all_valid &= valid
        stdout.write(line + "\n")
        stdout.flush()
    return 0 if all_valid else 1
