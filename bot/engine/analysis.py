"""What every move is worth: the analysis behind ``/ttt hint`` and ``python -m bot analyze``.

Values are for the side to move. ``plies`` counts how long the game lasts from
here when the winner wins as fast as it can and the loser loses as slowly as it
can; a draw lasts until the board is full.

On 3x3 every analysis is made once per process and then looked up (:func:`analyze`
returns the same frozen :class:`Analysis` for the same board): the whole game has
5,478 positions, so the table is small, and an answer costs a dictionary look-up.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache

from bot.engine.board import Board
from bot.engine.oracle import SOLVED_SIZES, score_moves
from bot.engine.scores import outcome_name, plies_left

ANALYSIS_BUDGET_MS = 2000
"""The default time budget of one analysis, ``python -m bot analyze --budget-ms``'s default."""


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
    """The verdict on a position. On a finished board ``value``/``plies`` are None and ``moves`` empty.

    When ``exact`` is false (a 4x4/5x5 search stopped at its time budget), a value
    that is not a proven win or loss is the estimate ``draw``, and ``best`` holds the
    cells the engine's estimate ranks highest.
    """

    board: Board
    value: Outcome | None
    plies: int | None
    exact: bool
    moves: tuple[MoveVerdict, ...]
    best: tuple[int, ...]
    depth: int = 0
    """How many plies deep the search looked (0 when a table answered)."""

    def verdict(self, cell: int) -> MoveVerdict | None:
        """The verdict on playing ``cell``, or None when it is not a legal move."""
        for move in self.moves:
            if move.cell == cell:
                return move
        return None

    def as_dict(self) -> dict[str, object]:
        """The JSON object ``python -m bot analyze`` prints for this analysis, keys in documented order."""
        ongoing = self.value is not None
        return {
            "board": self.board.compact,
            "size": self.board.size,
            "k": self.board.k,
            "to_move": self.board.turn.value if ongoing else None,
            "status": self.board.status.value,
            "value": self.value.value if self.value is not None else None,
            "plies": self.plies,
            "exact": self.exact,
            "best": list(self.best),
            "moves": [{"cell": m.cell, "value": m.value.value, "plies": m.plies} for m in self.moves],
        }


def verdict_of(score: int, marks: int, cells: int) -> tuple[Outcome, int]:
    """A move's score (from the mover's side) as an outcome and the plies until the game ends."""
    return Outcome(outcome_name(score)), plies_left(score, marks, cells)


def analyze(board: Board, budget_ms: int = ANALYSIS_BUDGET_MS) -> Analysis:
    """Value every legal move of ``board``; exact unless the time budget cut the search short.

    A solved size (3x3) is always exact and never needs the budget: its analyses are kept.
    """
    if board.size in SOLVED_SIZES:
        return solved_analysis(board)
    return _analyze(board, budget_ms)


@cache
def solved_analysis(board: Board) -> Analysis:
    """The analysis of a board of a solved size, made on first use and then looked up."""
    return _analyze(board, ANALYSIS_BUDGET_MS)


def _analyze(board: Board, budget_ms: int) -> Analysis:
    if board.is_over:
        return Analysis(board, None, None, True, (), ())
    result = score_moves(board, budget_ms, all_values=True)
    marks, cells = board.ply, board.cells
    scores = result.scores
    moves = tuple(MoveVerdict(cell, *verdict_of(scores[cell], marks, cells)) for cell in sorted(scores))
    top = max(scores.values())
    best = tuple(cell for cell in sorted(scores) if scores[cell] == top)
    value, plies = verdict_of(top, marks, cells)
    return Analysis(board, value, plies, result.all_exact, moves, best, result.depth)
