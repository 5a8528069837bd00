"""Negamax with alpha-beta, a canonical transposition table and iterative deepening under a deadline.

Scores follow :mod:`bot.engine.scores`: for the side to move, absolute in time, so
a proven win or loss found at any depth is exact and is stored as is.

Every node first looks at the lines one mark short of complete ("threats"):

- a threat of the side to move is a win in one, the fastest possible, so it is
  returned at once (the search never walks into a position that is already won);
- two enemy threats on different cells cannot both be blocked: a proven loss;
- one enemy threat forces the block, the only move searched, at no cost in depth.

Only then does the node stop at the horizon with the line heuristic of
:mod:`bot.engine.evaluation` (a forced block is searched past it), narrow the
window to what is still possible (no win before the side's next-but-one move, no
loss before the opponent's next-but-one), consult the transposition table (keyed by
the least of the position's 8 symmetric images, kept incrementally move by move),
and search its moves: the table's move first, then cells by how often they refuted
other positions in this search (history), then by how many lines run through them
and how near the centre they are.

Table entries carry the depth they were searched to; an entry searched to the end
of every line, or holding a proven win or loss no longer than that depth, answers
at any depth (see :func:`settled`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from bot.engine.board import Board, Mark
from bot.engine.evaluation import LineEvaluator
from bot.engine.geometry import geometry
from bot.engine.scores import INFINITY, PROVEN, WIN, end_marks, is_proven, win_at

EXACT, LOWER, UPPER = 0, 1, 2
FULL_DEPTH = 1_000
"""Stored as the depth of a table entry whose subtree was searched to the end of every line."""

TABLE_LIMIT = 300_000
"""Entries kept per board size before the table is cleared (an entry takes about 220 bytes)."""

_CHECK_EVERY = 63
"""The clock is read once per 64 nodes (well under a millisecond of search)."""


def settled(score: int, marks: int, depth: int) -> bool:
    """Whether ``score``, found by a search ``depth`` plies deep from a position of ``marks`` marks, is exact.

    A proven result is exact once the search saw every line as short as it: then no
    faster win (or slower loss) can hide past the horizon. Forced blocks are searched
    past the horizon, so a win can be proven before it is known to be the fastest.
    """
    return is_proven(score) and end_marks(score) - marks <= depth


class SearchTimeoutError(Exception):
    """Raised inside the search when the deadline passes; caught at the root."""


@dataclass(slots=True)
class RootResult:
    """What a root search learned about each legal move, from the mover's side.

    ``scores[cell]`` is exact when ``cell in exact``; otherwise it is the engine's
    estimate (or, for a move that is not among the best, an upper bound).
    """

    scores: dict[int, int]
    exact: set[int]
    depth: int
    """The depth of the last iteration that completed (0 when the answer needed no search)."""
    nodes: int
    complete: bool
    """True when the search finished on its own, not at the deadline."""
    bounded: set[int] = field(default_factory=set)
    """Moves whose score is only an upper bound (worse than the best; not searched to a value)."""

    @property
    def top(self) -> int:
        """The best score found."""
        return max(self.scores.values())

    @property
    def best(self) -> tuple[int, ...]:
        """The moves with the top score (a bounded move only reaches it when a deadline cut an iteration)."""
        top = self.top
        return tuple(sorted(c for c, s in self.scores.items() if s == top))

    @property
    def all_exact(self) -> bool:
        """Whether every move's score is proven, not estimated."""
        return len(self.exact) == len(self.scores)


class Searcher:
    """The search for one board size. Its transposition table persists between calls in a process."""

    def __init__(self, size: int) -> None:
        g = geometry(size)
        self.size = size
        self.cells = g.cells
        self.full = g.full
        self.lines = g.lines
        self.lines_through = g.lines_through
        self.near = g.k - 1
        self.key_x = g.key_x
        self.key_o = g.key_o
        self.permutations = g.permutations
        self.back = g.back
        self.order = g.order
        self.rank = [0] * g.cells
        for position, cell in enumerate(g.order):
            self.rank[cell] = position
        self.evaluate = LineEvaluator.for_geometry(g.lines, g.k)
        self.geometry = g
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.history = [0] * g.cells
        self.nodes = 0
        self.deadline = math.inf

    # ------------------------------------------------------------------ the tree

    def negamax(
        self, me: int, them: int, images: list[int], marks: int, depth: int, alpha: int, beta: int
    ) -> int:
        """The score for the side to move (owning ``me``) of a position where nobody has won yet.

        ``images`` are the position's keys under the 8 symmetries; ``marks`` its mark count.
        """
        self.nodes += 1
        if not self.nodes & _CHECK_EVERY and time.perf_counter() > self.deadline:
            raise SearchTimeoutError
        if marks == self.cells:
            return 0
        near = self.near
        mine = theirs = 0
        for line in self.lines:
            a = me & line
            if a:
                if not them & line and a.bit_count() == near:
                    mine |= line ^ a
            else:
                b = them & line
                if b and b.bit_count() == near:
                    theirs |= line ^ b
        if mine:
            return WIN - marks - 1
        if theirs:
            if theirs & (theirs - 1):
                return marks + 2 - WIN
        elif depth <= 0:
            return self.evaluate(me, them)
        # No win in one here, so the best this side can do is a win with its following move.
        ceiling = WIN - marks - 3
        if ceiling <= alpha:
            return ceiling
        floor = marks + 4 - WIN
        if floor >= beta:
            return floor

        key = min(images)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            stored_depth, flag, value, move = entry
            if stored_depth >= depth or (
                (value >= PROVEN or value <= -PROVEN) and WIN - abs(value) - marks <= stored_depth
            ):
                if flag == EXACT:
                    return value
                if flag == LOWER:
                    if value >= beta:
                        return value
                elif value <= alpha:
                    return value
            if move >= 0:
                first = self.back[images.index(key)][move]

        if theirs:
            moves = [theirs.bit_length() - 1]
            next_depth = depth
        else:
            empty = self.full & ~(me | them)
            moves = [c for c in self.order if empty >> c & 1]
            if depth >= 2:
                history = self.history
                moves.sort(key=history.__getitem__, reverse=True)
            if first >= 0:
                moves.remove(first)
                moves.insert(0, first)
            next_depth = depth - 1

        singles = self.key_x if marks % 2 == 0 else self.key_o
        best = -INFINITY
        best_move = -1
        original_alpha = alpha
        for cell in moves:
            child = [a | b for a, b in zip(images, singles[cell], strict=True)]
            score = -self.negamax(them, me | 1 << cell, child, marks + 1, next_depth, -beta, -alpha)
            if score > best:
                best = score
                best_move = cell
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        self.history[cell] += depth * depth + 1
                        break
        if best <= original_alpha:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        else:
            flag = EXACT
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        stored = FULL_DEPTH if depth >= self.cells - marks else depth
        self.table[key] = (stored, flag, best, self.permutations[images.index(key)][best_move])
        return best

    # ------------------------------------------------------------------ the root

    def _sides(self, board: Board) -> tuple[int, int]:
        return (board.x, board.o) if board.turn is Mark.X else (board.o, board.x)

    def _winning(self, me: int, cell: int) -> bool:
        after = me | 1 << cell
        return any(after & line == line for line in self.lines_through[cell])

    def search(
        self,
        board: Board,
        budget_ms: float,
        *,
        all_values: bool,
        max_depth: int | None = None,
        first_depth: int = 1,
    ) -> RootResult:
        """Iterative deepening over the legal moves of ``board`` (a game still going on).

        With ``all_values`` every move gets a full-window value (for analysis);
        otherwise only the best moves are valued exactly and the rest are bounded
        from above (for choosing a move; ties with the best are still detected).
        The first iteration always completes, so a move is always known.
        """
        start = time.perf_counter()
        self.nodes = 0
        self.history = [0] * self.cells
        marks = board.ply
        me, them = self._sides(board)
        singles = self.key_x if board.turn is Mark.X else self.key_o
        images = self.geometry.key_images(board.x, board.o)
        empties = self.cells - marks
        limit = empties if max_depth is None else min(max_depth, empties)

        scores: dict[int, int] = {}
        exact: set[int] = set()
        pending: list[int] = []
        for cell in board.legal_moves:
            if self._winning(me, cell):
                scores[cell] = win_at(marks + 1)
                exact.add(cell)
            else:
                pending.append(cell)
        if not pending or (scores and not all_values):
            # A win in one is the best result there is; the other moves are merely worse. One ply
            # was seen, which settles a win in one (none can be faster).
            for cell in pending:
                scores[cell] = -INFINITY + 1
            return RootResult(scores, exact, 1, self.nodes, True, set(pending))

        won = dict(scores)
        bounded: set[int] = set()
        pending.sort(key=self.rank.__getitem__)
        depths = [1] if first_depth <= 1 or limit <= 1 else [1, min(first_depth, limit)]
        depth = reached = 0
        complete = False
        while True:
            depth = depths.pop(0) if depths else depth + 1
            # The first iteration ignores the clock, so that some move is always known.
            self.deadline = math.inf if depth == 1 else start + budget_ms / 1000
            trial = dict(won)
            trial_bounded: set[int] = set()
            try:
                best = max(won.values(), default=-INFINITY)
                for cell in pending:
                    child = [a | b for a, b in zip(images, singles[cell], strict=True)]
                    alpha = -INFINITY if all_values or best == -INFINITY else best - 1
                    score = -self.negamax(
                        them, me | 1 << cell, child, marks + 1, depth - 1, -INFINITY, -alpha
                    )
                    trial[cell] = score
                    if score <= alpha:
                        trial_bounded.add(cell)
                    elif score > best:
                        best = score
            except SearchTimeoutError:
                # A forced win or loss found before the deadline is real, even if not yet the fastest.
                for cell, score in trial.items():
                    if is_proven(score) and cell not in trial_bounded:
                        scores[cell] = score
                        bounded.discard(cell)
                        if settled(score, marks, depth):
                            exact.add(cell)
                        else:
                            exact.discard(cell)
                break
            scores, bounded, reached = trial, trial_bounded, depth
            finished = depth >= empties
            exact = {
                c for c, s in scores.items() if c not in bounded and (finished or settled(s, marks, depth))
            }
            if (
                finished
                or len(exact) == len(scores)
                or (not all_values and settled(max(scores.values()), marks, depth))
            ):
                complete = True
                break
            if depth >= limit:
                break
            pending.sort(key=lambda c: (-scores[c], self.rank[c]))
        self.deadline = math.inf
        return RootResult(scores, exact, reached, self.nodes, complete, bounded)


_searchers: dict[int, Searcher] = {}


def searcher(size: int) -> Searcher:
    """The process-wide searcher for ``size``; its table persists between calls."""
    if size not in _searchers:
        _searchers[size] = Searcher(size)
    return _searchers[size]
