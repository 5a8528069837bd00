"""Playing strength: which move the engine picks at each level."""

from __future__ import annotations

import enum
import random

from bot.engine.analysis import analyze
from bot.engine.board import Board


class Level(enum.Enum):
    """How well the engine plays; ``PERFECT`` never loses a game it can save."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    PERFECT = "perfect"


MISTAKE_RATE: dict[Level, float] = {
    Level.PERFECT: 0.0,
    Level.HARD: 0.1,
    Level.MEDIUM: 0.35,
    Level.EASY: 0.7,
}
"""The chance, per move, that a level plays a random legal move instead of a best one."""


def choose_move(board: Board, level: Level = Level.PERFECT, seed: int | None = None, budget_ms: int = 1500) -> int:
    """The engine's move for the side to move of ``board`` at ``level``.

    Among equally good moves the choice is random (seeded by ``seed``), so games vary.
    """
    rng = random.Random(seed)
    moves = board.legal_moves
    if not moves:
        raise ValueError("The game is over; there is no move to choose.")
    if rng.random() < MISTAKE_RATE[level]:
        return rng.choice(moves)
    return rng.choice(analyze(board, budget_ms=budget_ms).best)
