"""Cunning among equals: of several equally good moves, the one a person is likeliest to answer wrongly.

Every position offered is a draw, so against a careful player ``perfect`` can only
draw; but people are not careful. The model of a person here: it takes a win in one;
else, when exactly one of the engine's lines is a move from complete, it blocks it;
otherwise it plays any empty cell, all alike (it does not see forks or long threats
coming). On 5x5, where a player who sees no more than that loses almost every game
whatever ``perfect`` picks, the model sees one move further: it also makes double
threats and takes the cells where the engine would make one, and only longer plans
catch it. For each best move the engine counts the model's replies after which it has a
proven win, and keeps the moves where that share is highest. Every candidate is a best
move, so the level stays perfect; the choice among the kept ones is still random.

Values come from the exact tables (3x3, and the 4x4 and 5x5 books) where they reach,
else from a null-window test of :mod:`bot.engine.prover` under a deadline; past it the
best moves are returned unfiltered.
"""

from __future__ import annotations

import time
from functools import lru_cache

from bot.engine.board import Board, Mark
from bot.engine.oracle import table_for
from bot.engine.prover import prover
from bot.engine.search import SearchTimeoutError

SEES_FORKS: tuple[int, ...] = (5,)
"""Board sizes where the model of a person also makes and stops double threats (forks)."""


def _completing(mover: int, other: int, board: Board) -> int:
    """The cells where ``mover`` (its bitboard) completes a line, as a bitboard."""
    near = board.k - 1
    cells = 0
    for line in board.geometry.lines:
        if not other & line:
            own = mover & line
            if own.bit_count() == near:
                cells |= line ^ own
    return cells


def _forking(mover: int, other: int, board: Board) -> int:
    """The cells where ``mover`` makes two threats at once (an open three among them), as a bitboard.

    Such a cell lies on two lines, each holding two of ``mover``'s marks and nothing else; two
    distinct lines of four cells share at most three, so the two threats are on different cells.
    """
    two = board.k - 2
    seen = forks = 0
    for line in board.geometry.lines:
        if not other & line:
            own = mover & line
            if own.bit_count() == two:
                gaps = line ^ own
                forks |= seen & gaps
                seen |= gaps
    return forks


def _cells(bits: int) -> tuple[int, ...]:
    return tuple(cell for cell in range(bits.bit_length()) if bits >> cell & 1)


def model_replies(board: Board) -> tuple[int, ...]:
    """The cells the model of a person may play on ``board``, all equally likely.

    It takes a win in one; else it blocks when exactly one of the opponent's lines is a move from
    complete. On the boards of :data:`SEES_FORKS` it also sees one move further: it blocks one of
    several threats, makes a double threat of its own, or else takes a cell where the opponent would
    make one. Otherwise it plays any empty cell, all alike (it does not see longer plans coming).
    """
    me, them = (board.x, board.o) if board.turn is Mark.X else (board.o, board.x)
    wins = _completing(me, them, board)
    if wins:
        return (wins.bit_length() - 1,)
    threats = _completing(them, me, board)
    if threats and not threats & (threats - 1):
        return (threats.bit_length() - 1,)
    if board.size in SEES_FORKS:
        for cells in (threats, _forking(me, them, board), _forking(them, me, board)):
            if cells:
                return _cells(cells)
    return board.legal_moves


class _UnknownError(Exception):
    """A position's value is not in a table, and only tables may be read."""


def _wins(board: Board, deadline: float | None) -> bool:
    """Whether the side to move of ``board`` (a game going on) has a forced win.

    Without a ``deadline`` only the tables are read.
    """
    g = board.geometry
    images = g.key_images(board.x, board.o)
    table = table_for(board.size)
    if table is not None and board.ply <= table.max_marks:
        score = table.lookup(min(images))
        if score is not None:
            return score > 0
    if deadline is None:
        raise _UnknownError
    prove = prover(board.size)
    prove.deadline = deadline
    me, them = (board.x, board.o) if board.turn is Mark.X else (board.o, board.x)
    try:
        return prove.value(me, them, images, board.ply, 0, 1) >= 1
    finally:
        prove.deadline = float("inf")


@lru_cache(maxsize=4096)
def cunning_from_tables(board: Board, best: tuple[int, ...]) -> tuple[int, ...]:
    """:func:`cunning_moves` reading tables only (a millisecond at most, remembered per position).

    Where a reply leads past the tables, the best moves are returned unfiltered.
    """
    return _cunning(board, best, None)


def cunning_moves(board: Board, best: tuple[int, ...], budget_ms: float) -> tuple[int, ...]:
    """Those of ``best`` (equally good moves, a proven draw) that give the model the most chances to lose.

    Positions past the tables are proven within ``budget_ms``.
    """
    return _cunning(board, best, time.perf_counter() + budget_ms / 1000)


def _cunning(board: Board, best: tuple[int, ...], deadline: float | None) -> tuple[int, ...]:
    if len(best) < 2:
        return best
    chances: dict[int, float] = {}
    try:
        for move in best:
            child = board.play(move)
            if child.is_over:
                return best
            replies = model_replies(child)
            won = 0
            for reply in replies:
                after = child.play(reply)
                if not after.is_over and _wins(after, deadline):
                    won += 1
            chances[move] = won / len(replies)
    except (SearchTimeoutError, _UnknownError):
        return best
    top = max(chances.values())
    return tuple(move for move in best if chances[move] == top)
