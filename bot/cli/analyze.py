"""``python -m bot analyze BOARD... | -``: one JSON line per board (README: Command line).

Valid boards are echoed in upper-case compact form (``x.o/...`` comes back as ``X.O......``);
invalid ones are echoed as given (trimmed) next to an ``error``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from bot.engine import Board, InvalidBoard, Status, analyze

STDIN = "-"


def analysis_record(board: Board, budget_ms: int) -> dict[str, Any]:
    """The JSON object for a valid board, keys in their documented order."""
    result = analyze(board, budget_ms=budget_ms)
    ongoing = board.status is Status.ONGOING
    return {
        "board": board.compact,
        "size": board.size,
        "k": board.k,
        "to_move": board.turn.value if ongoing else None,
        "status": board.status.value,
        "value": result.value.value if result.value is not None else None,
        "plies": result.plies,
        "exact": result.exact,
        "best": list(result.best),
        "moves": [{"cell": m.cell, "value": m.value.value, "plies": m.plies} for m in result.moves],
    }


def record_for(text: str, budget_ms: int) -> tuple[dict[str, Any], bool]:
    """The output object for one board text, and whether the board was valid."""
    try:
        board = Board.parse(text)
    except InvalidBoard as error:
        return {"board": text.strip(), "error": str(error)}, False
    return analysis_record(board, budget_ms), True


def _lines(stream: TextIO) -> Iterator[str]:
    """Non-blank lines, each handed over as soon as it is read (``readline``, no read-ahead)."""
    while line := stream.readline():
        if line.strip():
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
        record, valid = record_for(text, budget_ms)
        all_valid &= valid
        stdout.write(json.dumps(record) + "\n")
        stdout.flush()
    return 0 if all_valid else 1
