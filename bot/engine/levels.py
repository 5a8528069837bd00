"""Playing strength: which move the engine picks at each level.

``perfect`` always plays a best move, from proven values wherever the tables and the prover
reach (on 5x5 the heuristic search decides only what the prover cannot settle within the
budget); among equally good ones it prefers those that give a person the most chances to go
wrong (:mod:`bot.engine.cunning`), at random among those, so games vary.

The weaker levels make the mistakes people make (:mod:`bot.engine.sight`) instead of random
ones: ``hard`` sees four plies ahead, so it makes and stops double threats (forks) but misses
slower threats, and overlooks a threat one move in ten; ``medium`` sees two plies, so it takes
wins and blocks (four times in ten it overlooks a threat) but walks into forks; ``easy`` also
takes a win in one but notices a threat only one time in five.
The strength order is measured, not assumed: ``python -m bench.cunning --levels``.
"""

from __future__ import annotations

import enum
import random
import time

from bot.engine.board import Board
from bot.engine.cunning import cunning_from_tables, cunning_moves
from bot.engine.errors import IllegalMoveError
from bot.engine.oracle import Known, score_moves, table_scores
from bot.engine.scores import PROVEN
from bot.engine.search import RootResult
from bot.engine.sight import Sight, choose_as_seen

POOLED_SIZES: tuple[int, ...] = (5,)
"""Sizes whose replies are never answered at once: even where the book holds a position's values,
choosing cunningly among its best moves proves positions past the book, within the budget."""

CUNNING_SHARE = 0.25
"""The share of the time budget ``perfect`` may spend, past the tables, choosing among equally good moves
(within what the search left of the budget)."""

GAME_OVER = "The game is already over; there is no move to choose."

DEFAULT_BUDGET_MS = 1500
"""The default thinking time per move; only 5x5 ever uses much of it (a 4x4 reply takes under 50 ms)."""


class Level(enum.Enum):
    """How well the engine plays; ``PERFECT`` never loses a game it can save."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    PERFECT = "perfect"


SIGHTS: dict[Level, Sight] = {
    Level.HARD: Sight(plies=4, notices_threats=0.9, budget_share=0.5, focus=2),
    Level.MEDIUM: Sight(plies=2, notices_threats=0.6, budget_share=0.25, focus=1),
    Level.EASY: Sight(plies=2, notices_threats=0.2, budget_share=0.1, focus=1),
}
"""What each level below ``perfect`` sees (``perfect`` sees everything the engine can prove)."""


def answers_at_once(board: Board) -> bool:
    """Whether the engine's reply on ``board`` is a table look-up at every level (microseconds).

    True for every 3x3 position still going on and for the 4x4 positions the opening
    book covers; then :func:`choose_move` and :func:`~bot.engine.analysis.analyze` search
    nothing, so a caller can run them inline instead of sending them to a process pool.
    Never on 5x5 (:data:`POOLED_SIZES`).
    """
    return board.size not in POOLED_SIZES and not board.is_over and table_scores(board) is not None


def choose_move(
    board: Board,
    level: Level = Level.PERFECT,
    seed: int | None = None,
    budget_ms: int = DEFAULT_BUDGET_MS,
) -> int:
    """The engine's move (a 0-based cell) for the side to move of ``board`` at ``level``.

    Deterministic for a given ``seed`` wherever the engine's values are exact (3x3, 4x4).
    """
    started = time.perf_counter()
    if level is not Level.PERFECT:
        if board.is_over:
            raise IllegalMoveError(GAME_OVER)
        return choose_as_seen(board, SIGHTS[level], budget_ms, random.Random(seed))
    known = table_scores(board)
    if known is not None:
        return _perfect_from_table(board, known, seed, budget_ms)
    if board.is_over:
        raise IllegalMoveError(GAME_OVER)
    result = score_moves(board, budget_ms, all_values=False)
    return random.Random(seed).choice(_among_best(board, result, budget_ms, started))


def _perfect_from_table(board: Board, known: Known, seed: int | None, budget_ms: int) -> int:
    """``perfect``'s move where a table holds every move's value: the common case, kept to look-ups."""
    if not known.best:
        raise IllegalMoveError(GAME_OVER)
    if len(known.best) == 1:
        return known.best[0]
    if known.top <= -PROVEN:
        best = _prefer_blocks(board, known.best)
    elif known.top == 0 and board.size in POOLED_SIZES:
        best = cunning_moves(board, known.best, budget_ms * CUNNING_SHARE)
    elif known.top == 0:
        best = cunning_from_tables(board, known.best)
    else:
        best = known.best
    return random.Random(seed).choice(best)


def _among_best(board: Board, result: RootResult, budget_ms: int, started: float) -> tuple[int, ...]:
    """The searched best moves worth choosing from: blocks when lost, cunning ones when ``perfect`` draws."""
    best = result.best
    if result.top <= -PROVEN:
        return _prefer_blocks(board, best)
    if result.top == 0 and set(best) <= result.exact:
        left = budget_ms - (time.perf_counter() - started) * 1000
        return cunning_moves(board, best, min(left, budget_ms * CUNNING_SHARE))
    return best


def _prefer_blocks(board: Board, best: tuple[int, ...]) -> tuple[int, ...]:
    """Among equally lost moves, those that block an enemy line: lose on the board, not by resignation."""
    enemy = board.o if board.x.bit_count() == board.o.bit_count() else board.x
    mine = (board.x | board.o) ^ enemy
    blocks = []
    for cell in best:
        for line in board.geometry.lines_through[cell]:
            if not mine & line and (enemy & line).bit_count() == board.k - 1:
                blocks.append(cell)
                break
    return tuple(blocks) or best
