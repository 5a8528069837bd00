"""How the weaker levels choose: with a person's blind spots instead of random blunders.

A person at the board sees a win in one and, usually, a line of the opponent's about to be
completed; a better player also sees a fork coming (a move that makes two threats at once: a
loss four plies after the move that allows it); a strong one sees the longer threats too, the
quiet moves that build a fork two or three moves later. Each weaker level is such a player:

- it looks ``sight`` plies ahead (the move itself counted): a win or a loss that comes within
  them it sees as what it is, anything further is to it an unclear position;
- before each move it notices the opponent's line one mark short of complete only with the
  chance ``notices_threats``; when it does not, it sees just its own win in one;
- among the moves that look equally good it plays what looks natural: a cell on many lines
  still open, with its own marks or the opponent's on them, chosen at random by that weight
  raised to the power ``focus`` (the higher, the more purposeful).

The values it sees come from the exact tables and searches where the engine has them (3x3,
4x4, the 5x5 book) and from a search ``sight`` plies deep on 5x5 past the book, so what it sees
is exactly what a player looking that far would see, and what it misses is real.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.engine.board import Board, Mark
from bot.engine.oracle import EXACT_SIZES, score_moves, table_scores
from bot.engine.scores import is_proven, plies_left
from bot.engine.search import searcher


@dataclass(frozen=True, slots=True)
class Sight:
    """How far a level sees, and how often it notices a threat."""

    plies: int
    """Wins and losses this many plies away or nearer (the move itself counted) are seen."""
    notices_threats: float
    """The chance, on each move, that it looks further than its own win in one (and so blocks)."""
    budget_share: float
    """On 5x5 past the book: the share of the time budget its search may use."""
    focus: int
    """How strongly it prefers natural-looking cells: the power of their weight (0: any cell alike)."""


def seen_scores(board: Board, sight: Sight, budget_ms: float, rng: random.Random) -> dict[int, int]:
    """Every legal move's score as a player with ``sight`` sees it: unclear (0) beyond its horizon."""
    plies = sight.plies if rng.random() < sight.notices_threats else 1
    known = table_scores(board)
    if known is not None:
        scores = dict(known.scores)
    elif board.size in EXACT_SIZES:
        scores = score_moves(board, budget_ms, all_values=True).scores
    else:
        scores = (
            searcher(board.size)
            .search(board, budget_ms * sight.budget_share, all_values=True, max_depth=plies)
            .scores
        )
    marks, cells = board.ply, board.cells
    return {
        cell: score if is_proven(score) and plies_left(score, marks, cells) <= plies else 0
        for cell, score in scores.items()
    }


def natural_weight(board: Board, cell: int) -> int:
    """How natural ``cell`` looks to a person: the lines through it still open, and the marks on them."""
    mine, theirs = (board.x, board.o) if board.turn is Mark.X else (board.o, board.x)
    weight = 1
    for line in board.geometry.lines_through[cell]:
        own, enemy = (mine & line).bit_count(), (theirs & line).bit_count()
        if not enemy:
            weight += 1 + 2 * own
        if not own:
            weight += 2 * enemy
    return weight


def choose_as_seen(board: Board, sight: Sight, budget_ms: float, rng: random.Random) -> int:
    """The move of a player with ``sight``: the best it sees; among equals, a natural-looking one."""
    scores = seen_scores(board, sight, budget_ms, rng)
    top = max(scores.values())
    best = sorted(cell for cell, score in scores.items() if score == top)
    if top != 0 or len(best) == 1:
        return rng.choice(best)
    weights = [natural_weight(board, cell) ** sight.focus for cell in best]
    return rng.choices(best, weights)[0]
