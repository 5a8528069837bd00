"""Search scores: one int per position, for the side to move, absolute in time.

A win reached when the board holds ``m`` marks scores ``WIN - m`` and the matching
loss ``m - WIN``; a proven draw scores 0. Because ``m`` does not depend on where a
search started, a proven score means the same at every depth: the transposition
table and the opening book store it as is, and "win fastest, lose slowest"
(and a doomed side that still blocks) falls out of plain maximisation.

Heuristic estimates (search cut off at a horizon) stay strictly inside
``(-HEURISTIC_LIMIT, HEURISTIC_LIMIT)``, far from every proven win or loss, so the
two can never be confused. A heuristic 0 and a proven draw are told apart by the
search's depth bookkeeping, not by the number.
"""

from __future__ import annotations

WIN = 1_000_000
"""The score of a win with no marks on the board (never reached: a win needs marks)."""

PROVEN = WIN - 1_000
"""``abs(score) >= PROVEN`` means a proven win or loss."""

HEURISTIC_LIMIT = WIN // 4
"""Heuristic estimates are clamped below this."""

INFINITY = WIN + 1


def win_at(marks: int) -> int:
    """The score of a win completed when the board holds ``marks`` marks."""
    return WIN - marks


def loss_at(marks: int) -> int:
    """The score of a loss completed when the board holds ``marks`` marks."""
    return marks - WIN


def is_proven(score: int) -> bool:
    """True for a proven win or loss (a draw is proven by search depth, not by its number)."""
    return score >= PROVEN or score <= -PROVEN


def end_marks(score: int) -> int:
    """For a proven win or loss: how many marks the board holds when the game ends."""
    return WIN - abs(score)


def outcome_name(score: int) -> str:
    """``win``, ``loss`` or ``draw`` (a heuristic estimate counts as a draw)."""
    if score >= PROVEN:
        return "win"
    if score <= -PROVEN:
        return "loss"
    return "draw"


def plies_left(score: int, marks: int, cells: int) -> int:
    """Plies from a position holding ``marks`` marks to the game's end under ``score``'s line of play."""
    if is_proven(score):
        return end_marks(score) - marks
    return cells - marks


def to_code(score: int) -> int:
    """A proven score as a signed byte: ``+m`` wins at ``m`` marks, ``-m`` loses at ``m``, 0 draws."""
    if score >= PROVEN:
        return end_marks(score)
    if score <= -PROVEN:
        return -end_marks(score)
    if score != 0:
        raise ValueError(f"{score} is neither a proven result nor a draw")
    return 0


def from_code(code: int) -> int:
    """The inverse of :func:`to_code`."""
    if code > 0:
        return win_at(code)
    if code < 0:
        return loss_at(-code)
    return 0
