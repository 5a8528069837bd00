"""Negamax with alpha-beta and a transposition table keyed by the canonical board.

Scores are for the side to move and *absolute in time*: a win reached when the
board holds ``m`` marks scores ``WIN - m`` and the matching loss ``m - WIN``.
Because ``m`` does not depend on where the search started, a score means the
same at every depth, the table can store it as is, and "win fastest, lose
slowest" (seed 003) falls out of plain maximisation.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.board import Board, canonical_key
from bot.engine.geometry import geometry

WIN = 1000
"""Scores above ``WIN - 100`` are proven wins; heuristic scores stay far below."""

_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(frozen=True, slots=True, order=True)
class Score:
    """A side-to-move score with its meaning spelled out."""

    value: int
    ply: int
    cells: int

    @property
    def outcome(self) -> str:
        if self.value > WIN - 100:
            return "win"
        if self.value < 100 - WIN:
            return "loss"
        return "draw"

    @property
    def plies(self) -> int:
        """Plies from this position to the end of the game under the score's line of play."""
        if self.outcome == "draw":
            return self.cells - self.ply
        return WIN - abs(self.value) - self.ply


class Solver:
    """An exact solver for one board size with its own transposition table."""

    def __init__(self, size: int) -> None:
        self.geometry = geometry(size)
        self.table: dict[tuple[int, int], tuple[int, int]] = {}
        self.nodes = 0

    def negamax(self, me: int, them: int, alpha: int, beta: int) -> int:
        """Score for the side owning ``me``, to move; ``them`` just moved."""
        self.nodes += 1
        g = self.geometry
        stones = (me | them).bit_count()
        for line in g.lines:
            if them & line == line:
                return stones - WIN
        empty = g.full & ~(me | them)
        if not empty:
            return 0
        x, o = (me, them) if stones % 2 == 0 else (them, me)
        cx, co, _ = canonical_key(g.size, x, o)
        key = (cx, co)
        entry = self.table.get(key)
        if entry is not None:
            value, flag = entry
            if flag == _EXACT:
                return value
            if flag == _LOWER and value >= beta:
                return value
            if flag == _UPPER and value <= alpha:
                return value
        # A side can at best win with its next move: bound the window before searching.
        ceiling = WIN - stones - 1
        if ceiling <= alpha:
            return ceiling
        original_alpha = alpha
        best = -WIN
        while empty:
            bit = empty & -empty
            empty ^= bit
            score = -self.negamax(them, me | bit, -beta, -alpha)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = _EXACT
        if best <= original_alpha:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        self.table[key] = (best, flag)
        return best


_solvers: dict[int, Solver] = {}


def solver(size: int) -> Solver:
    """The process-wide solver for ``size``; its table persists between calls."""
    if size not in _solvers:
        _solvers[size] = Solver(size)
    return _solvers[size]


def search_children(board: Board, budget_ms: int = 2000) -> tuple[dict[int, Score], bool]:
    """The exact score of every legal move of ``board``, from the mover's side, and whether it is exact."""
    del budget_ms
    s = solver(board.size)
    me, them = (board.x, board.o) if board.turn.value == "X" else (board.o, board.x)
    out: dict[int, Score] = {}
    for cell in board.legal_moves:
        value = -s.negamax(them, me | 1 << cell, -WIN, WIN)
        out[cell] = Score(value, board.ply, board.cells)
    return out, True
