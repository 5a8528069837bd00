"""Shared helpers for the engine tests: an independent brute-force minimax and position enumeration."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from bot.engine import Board, Outcome

WIN, DRAW, LOSS = 1, 0, -1


@cache
def brute_force(board: Board) -> tuple[int, int]:
    """``(result, plies)`` for the side to move by plain minimax over every line of play.

    ``result`` is 1/0/-1; among wins the fewest plies, among losses the most.
    Deliberately shares nothing with the engine's search but the Board.
    """
    if board.winner is not None:
        return LOSS, 0
    if board.is_full:
        return DRAW, 0
    best: tuple[int, int] | None = None
    for cell in board.legal_moves:
        result, plies = brute_force(board.play(cell))
        mine = (-result, plies + 1)
        if best is None or rank(mine) > rank(best):
            best = mine
    assert best is not None
    return best


def rank(verdict: tuple[int, int]) -> tuple[int, int]:
    result, plies = verdict
    return (result, -plies if result == WIN else plies if result == LOSS else 0)


def brute_moves(board: Board) -> dict[int, tuple[int, int]]:
    """Every legal move's ``(result, plies)`` for the mover, counted from ``board``, the move included."""
    out = {}
    for cell in board.legal_moves:
        result, plies = brute_force(board.play(cell))
        out[cell] = (-result, plies + 1)
    return out


OUTCOME = {WIN: Outcome.WIN, DRAW: Outcome.DRAW, LOSS: Outcome.LOSS}


def reachable(size: int = 3) -> Iterator[Board]:
    """Every position reachable from the empty board, finished ones included, each once."""
    seen: set[Board] = set()
    stack = [Board.empty(size)]
    while stack:
        board = stack.pop()
        if board in seen:
            continue
        seen.add(board)
        yield board
        if not board.is_over:
            stack.extend(board.play(cell) for cell in board.legal_moves)
