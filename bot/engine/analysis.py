"""What every move is worth: the analysis behind ``/ttt hint`` and ``python -m bot analyze``.

Values are for the side to move. ``plies`` counts how long the game lasts from
here when the winner wins as fast as it can and the loser loses as slowly as it
can; a draw lasts until the board is full.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.engine.board import Board
from bot.engine.search import Score, search_children


class Outcome(enum.Enum):
    """The result for the side to move under perfect play."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True, slots=True)
class MoveVerdict:
    """One empty cell: what playing it leads to, counted from before the move."""

    cell: int
    value: Outcome
    plies: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """The verdict on a position. On a finished board ``value``/``plies`` are None and ``moves`` empty."""

    board: Board
    value: Outcome | None
    plies: int | None
    exact: bool
    moves: tuple[MoveVerdict, ...]
    best: tuple[int, ...]

    def verdict(self, cell: int) -> MoveVerdict | None:
        for move in self.moves:
            if move.cell == cell:
                return move
        return None


def verdict_of(score: Score) -> tuple[Outcome, int]:
    """Turn a side-to-move score into an outcome and the plies until the game ends."""
    return Outcome(score.outcome), score.plies


def analyze(board: Board, budget_ms: int = 2000) -> Analysis:
    """Value every legal move of ``board``; exact unless the time budget cut the search short."""
    if board.is_over:
        return Analysis(board, None, None, True, (), ())
    children, exact = search_children(board, budget_ms=budget_ms)
    moves = tuple(
        MoveVerdict(cell, *verdict_of(score)) for cell, score in sorted(children.items())
    )
    top = max(children.values())
    best = tuple(cell for cell, score in sorted(children.items()) if score == top)
    value, plies = verdict_of(top)
    return Analysis(board, value, plies, exact, moves, best)
