"""Where the engine's move scores come from: a table of exact scores when one covers a position, else search.

- 3x3: the whole game is solved once per process (:func:`bot.engine.book.solved_table`),
  so every reply is a handful of look-ups.
- 4x4: the shipped opening book holds every position up to its ``max_marks``; a
  position whose children are all in the book is answered from it, and deeper ones
  are searched exactly (they have few empty cells left).
- 5x5: the shipped opening book holds every position up to 6 marks, so a position of up
  to 5 marks is answered from it; deeper ones are proven by :mod:`bot.engine.prover`
  within most of the time budget, and a position it cannot finish in time gets the
  heuristic search's estimate for the moves still unproven, with the rest of the budget.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from bot.engine.board import Board, Mark
from bot.engine.book import ExactTable, opening_book, solved_table
from bot.engine.geometry import geometry
from bot.engine.prover import prover
from bot.engine.scores import win_at
from bot.engine.search import RootResult, SearchTimeoutError, searcher

SOLVED_SIZES: tuple[int, ...] = (3,)
"""Sizes solved completely in memory on first use."""

EXACT_SIZES: tuple[int, ...] = (3, 4)
"""Sizes the engine plays perfectly: searched to the end of the game, never cut at a horizon."""


def table_for(size: int) -> ExactTable | None:
    """The exact table that covers ``size`` (solved or shipped), if any."""
    if size in SOLVED_SIZES:
        return solved_table(size)
    return opening_book(size)


def score_moves(
    board: Board, budget_ms: float, *, all_values: bool, max_depth: int | None = None
) -> RootResult:
    """The score of every legal move of ``board`` (a game still going on), from the mover's side.

    With ``all_values`` every move is valued; otherwise moves worse than the best may
    only be bounded (see :class:`bot.engine.search.RootResult`). ``max_depth`` caps
    the search on sizes that are not solved exactly.
    """
    known = table_scores(board)
    if known is not None:
        scores = dict(known.scores)
        return RootResult(scores, set(scores), 0, 0, True)
    search = searcher(board.size)
    if board.size in EXACT_SIZES:
        return search.search(board, budget_ms, all_values=all_values, first_depth=board.cells - board.ply)
    if max_depth is not None:
        return search.search(board, budget_ms, all_values=all_values, max_depth=max_depth)
    return proven_or_searched(board, budget_ms, all_values=all_values)


PROOF_SHARE = 0.75
"""The share of the budget the prover gets before the heuristic search takes over."""


def proven_or_searched(board: Board, budget_ms: float, *, all_values: bool) -> RootResult:
    """Exact scores from the prover; past its share of the budget, estimates for what it left unproven."""
    started = time.perf_counter()
    proven: dict[int, int] = {}
    prove = prover(board.size)
    try:
        scores, exact = prove.root(board, budget_ms * PROOF_SHARE, all_values=all_values, proven=proven)
    except SearchTimeoutError:
        pass
    else:
        return RootResult(scores, exact, board.cells - board.ply, prove.nodes, True, set(scores) - exact)
    left = max(budget_ms - (time.perf_counter() - started) * 1000, 1.0)
    result = searcher(board.size).search(board, left, all_values=all_values)
    if all_values:
        for cell, score in proven.items():
            result.scores[cell] = score
            result.exact.add(cell)
            result.bounded.discard(cell)
    return result


@dataclass(frozen=True, slots=True)
class Known:
    """Exact scores read from a table: every legal move's, and the best moves."""

    scores: tuple[tuple[int, int], ...]
    best: tuple[int, ...]
    top: int
    """The best moves' score (0 on a finished board, which has no moves)."""


@lru_cache(maxsize=8192)
def table_scores(board: Board) -> Known | None:
    """Every legal move's exact score from the table covering ``board``, or None when none covers it.

    Remembered per position, so that a repeated 3x3 or 4x4 opening position costs one
    dictionary look-up. A finished board covered by a table has no moves and no best.
    """
    table = table_for(board.size)
    if table is None or board.ply + 1 > table.max_marks:
        return None
    scores = from_table(board, table)
    if scores is None:
        return None
    top = max(scores.values(), default=0)
    return Known(tuple(scores.items()), tuple(sorted(c for c, s in scores.items() if s == top)), top)


def from_table(board: Board, table: ExactTable) -> dict[int, int] | None:
    """Every legal move's exact score looked up in ``table``; None if a child is missing from it."""
    g = geometry(board.size)
    marks = board.ply + 1
    x_moves = board.turn is Mark.X
    mover = board.x if x_moves else board.o
    singles = g.key_x if x_moves else g.key_o
    images = g.key_images(board.x, board.o)
    scores: dict[int, int] = {}
    for cell in board.legal_moves:
        after = mover | 1 << cell
        if any(after & line == line for line in g.lines_through[cell]):
            scores[cell] = win_at(marks)
            continue
        if marks == g.cells:
            scores[cell] = 0
            continue
        child = table.lookup(min([a | b for a, b in zip(images, singles[cell], strict=True)]))
        if child is None:
            return None
        scores[cell] = -child
    return scores
