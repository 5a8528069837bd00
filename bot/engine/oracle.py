"""Where the engine's move scores come from: a table of exact scores when one covers a position, else search.

- 3x3: the whole game is solved once per process (:func:`bot.engine.book.solved_table`),
  so every reply is a handful of look-ups.
- 4x4: the shipped opening book holds every position up to its ``max_marks``; a
  position whose children are all in the book is answered from it, and deeper ones
  are searched exactly (they have few empty cells left).
- 5x5: iterative deepening within the time budget.
"""

from __future__ import annotations

from bot.engine.board import Board, Mark
from bot.engine.book import ExactTable, opening_book, solved_table
from bot.engine.geometry import geometry
from bot.engine.scores import win_at
from bot.engine.search import RootResult, searcher

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
    table = table_for(board.size)
    if table is not None and board.ply + 1 <= table.max_marks:
        scores = from_table(board, table)
        if scores is not None:
            return RootResult(scores, set(scores), 0, 0, True)
    search = searcher(board.size)
    if board.size in EXACT_SIZES:
        return search.search(board, budget_ms, all_values=all_values, first_depth=board.cells - board.ply)
    return search.search(board, budget_ms, all_values=all_values, max_depth=max_depth)


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
