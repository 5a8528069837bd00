"""Exact values without a horizon: the prover behind 5x5 analyses and ``perfect`` beyond the book.

The search of :mod:`bot.engine.search` deepens ply by ply and estimates at its horizon,
so on 5x5 a draw is proven only once it has looked to the end of every line. This
prover looks to the end at once and prunes instead:

- the lines first, as the search does: a line one mark short with its last cell empty
  wins at once, two enemy threats on different cells lose, one forces the block;
- a side with no line left free of enemy marks can no longer win, so its best is a draw;
  most 5x5 positions are draws, and this is what proves them quickly;
- sooner still, a side cannot win when the other can pair off the empty cells of its open
  lines (:func:`paired`): disjoint pairs with a whole pair in every such line, so that each
  move into a pair is answered by the other cell. This cuts the nodes of a 5x5 proof about
  tenfold;
- no win can come before the side's next-but-one move, nor a loss before the opponent's;
- a table of bounds (lowest and highest possible score) keyed by the least of the
  position's 8 symmetric images; scores are absolute in time (:mod:`bot.engine.scores`),
  so a bound holds at any depth. When full, the table keeps the entries whose subtrees
  were biggest (they cost most to find again);
- moves: the best one the table remembers for the position first, then in threat order:
  cells that make two threats at once (forks), then cells that make a threat, cells that
  stop an enemy fork or threat, then by history, then by lines through the cell.

A position's exact score comes from two null-window tests around 0 (is it better than a
draw? worse?), then, for a win or loss only, a search for the fastest win in its half.
"""

from __future__ import annotations

import math
import time

from bot.engine.board import Board, Mark
from bot.engine.geometry import geometry
from bot.engine.scores import WIN, win_at
from bot.engine.search import SearchTimeoutError

TABLE_LIMIT = 250_000
"""Entries kept per board size; past it, the table drops its entries of the smallest subtrees."""

_CHECK_EVERY = 255
"""The clock is read once per 256 nodes."""


class Prover:
    """The exact search for one board size. Its table persists between calls in a process."""

    def __init__(self, size: int) -> None:
        g = geometry(size)
        self.cells = g.cells
        self.full = g.full
        self.lines = g.lines
        self.near = g.k - 1
        self.two = g.k - 2
        self.key_x = g.key_x
        self.key_o = g.key_o
        self.order = g.order
        self.permutations = g.permutations
        self.back = g.back
        self.table: dict[int, tuple[int, int, int, int]] = {}
        """Canonical key -> (lowest score, highest score, nodes spent on it, best move or -1).

        The best move is stored as seen in the canonical image (its cell mapped by the symmetry
        that gives the least key), so that every symmetric image of the position can use it."""
        self.history = [0] * g.cells
        self.nodes = 0
        self.deadline = math.inf

    def _trim(self) -> None:
        """Keep the half of the table whose subtrees were biggest."""
        costs = sorted(entry[2] for entry in self.table.values())
        cut = costs[len(costs) // 2]
        self.table = {key: entry for key, entry in self.table.items() if entry[2] > cut}

    # One hot recursive function, as the search's negamax: split into helpers it would pay a call per node.
    def value(  # noqa: C901
        self, me: int, them: int, images: list[int], marks: int, alpha: int, beta: int
    ) -> int:
        """Fail-soft negamax: the exact score if inside ``(alpha, beta)``, else a bound on the failing side.

        ``me`` is the side to move's bitboard, ``images`` the position's 8 symmetric keys.
        """
        self.nodes += 1
        start_nodes = self.nodes
        if not start_nodes & _CHECK_EVERY and time.perf_counter() > self.deadline:
            raise SearchTimeoutError
        empty = self.full & ~(me | them)
        if not empty:
            return 0
        near = self.near
        two = self.two
        mine = theirs = 0
        my_live = their_live = False
        my_twos = my_forks = their_twos = their_forks = 0
        for line in self.lines:
            a = me & line
            b = them & line
            if not b:
                my_live = True
                count = a.bit_count()
                if count == near:
                    mine |= line ^ a
                elif count == two:
                    gaps = line ^ a
                    my_forks |= my_twos & gaps
                    my_twos |= gaps
            if not a:
                their_live = True
                count = b.bit_count()
                if count == near:
                    theirs |= line ^ b
                elif count == two:
                    gaps = line ^ b
                    their_forks |= their_twos & gaps
                    their_twos |= gaps
        if mine:
            return WIN - marks - 1
        if theirs & (theirs - 1):
            return marks + 2 - WIN
        ceiling = WIN - marks - 3 if my_live else 0
        floor = marks + 4 - WIN if their_live else 0
        if ceiling <= floor or ceiling <= alpha:
            return ceiling
        if floor >= beta:
            return floor
        if alpha >= 0 and paired([line & empty for line in self.lines if not line & them]):
            return 0
        if beta <= 0 and paired([line & empty for line in self.lines if not line & me]):
            return 0
        beta = min(beta, ceiling)
        alpha = max(alpha, floor)

        key = min(images)
        entry = self.table.get(key)
        hint = -1
        if entry is not None:
            lo, hi, _, canonical = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            alpha = max(alpha, lo)
            beta = min(beta, hi)
            if canonical >= 0:
                hint = self.back[images.index(key)][canonical]
        else:
            lo, hi = floor, ceiling
        original_alpha, original_beta = alpha, beta

        if theirs:
            moves = [theirs.bit_length() - 1]
        else:
            history = self.history
            ranked = sorted(
                (c for c in self.order if empty >> c & 1),
                key=lambda c: (
                    (my_forks >> c & 1) * 8
                    + (their_forks >> c & 1) * 4
                    + (my_twos >> c & 1) * 2
                    + (their_twos >> c & 1),
                    history[c],
                ),
                reverse=True,
            )
            if hint >= 0 and empty >> hint & 1:
                ranked.remove(hint)
                ranked.insert(0, hint)
            moves = ranked
        singles = self.key_x if marks % 2 == 0 else self.key_o
        best = -WIN - 1
        best_cell = -1
        for cell in moves:
            child = [a | b for a, b in zip(images, singles[cell], strict=True)]
            score = -self.value(them, me | 1 << cell, child, marks + 1, -beta, -alpha)
            if score > best:
                best = score
                best_cell = cell
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        self.history[cell] += 1
                        break
        if original_alpha < best < original_beta:
            lo = hi = best
        elif best <= original_alpha:
            hi = min(hi, best)
        else:
            lo = max(lo, best)
        if len(self.table) >= TABLE_LIMIT:
            self._trim()
        canonical = self.permutations[images.index(key)][best_cell] if best_cell >= 0 else -1
        self.table[key] = (lo, hi, self.nodes - start_nodes, canonical)
        return best

    def exact(self, me: int, them: int, images: list[int], marks: int) -> int:
        """The exact score of a position nobody has won, for the side to move (owning ``me``)."""
        if self.value(me, them, images, marks, 0, 1) >= 1:
            return self.value(me, them, images, marks, 1, WIN)
        if self.value(me, them, images, marks, -1, 0) <= -1:
            return self.value(me, them, images, marks, -WIN, -1)
        return 0

    def root(
        self, board: Board, budget_ms: float, *, all_values: bool, proven: dict[int, int] | None = None
    ) -> tuple[dict[int, int], set[int]]:
        """Scores of the moves of ``board`` (a game going on), from the mover's side, and the exact ones.

        With ``all_values`` every move gets its exact score; otherwise the best moves
        do and some others only an upper bound below the best. ``proven`` collects each
        exact score as it is found, so a caller keeps them when the deadline (raised as
        :class:`SearchTimeoutError`) cuts the rest.
        """
        self.nodes = 0
        self.deadline = time.perf_counter() + budget_ms / 1000 if math.isfinite(budget_ms) else math.inf
        found: dict[int, int] = {} if proven is None else proven
        bounds: dict[int, int] = {}
        try:
            g = geometry(board.size)
            marks = board.ply
            x_moves = board.turn is Mark.X
            me, them = (board.x, board.o) if x_moves else (board.o, board.x)
            images = g.key_images(board.x, board.o)
            singles = g.key_x if x_moves else g.key_o
            pending = []
            for cell in board.legal_moves:
                after = me | 1 << cell
                if any(after & line == line for line in g.lines_through[cell]):
                    found[cell] = win_at(marks + 1)
                else:
                    pending.append(cell)
            if found and not all_values:
                return {**found, **{cell: -WIN for cell in pending}}, set(found)
            pending.sort(key=g.order.index)
            best = max(found.values(), default=-WIN - 1)
            for cell in pending:
                after = me | 1 << cell
                child = [a | b for a, b in zip(images, singles[cell], strict=True)]
                if not all_values and best > -WIN - 1:
                    bound = -self.value(them, after, child, marks + 1, -best, -best + 1)
                    if bound < best:
                        bounds[cell] = bound
                        continue
                found[cell] = score = -self.exact(them, after, child, marks + 1)
                best = max(best, score)
            return {**found, **bounds}, set(found)
        finally:
            self.deadline = math.inf


PAIRING_STEPS = 64
"""How many partial pairings :func:`paired` tries before it gives up (and answers no)."""


def paired(lines: list[int]) -> bool:
    """Whether the defender can stop every one of ``lines`` (each a mask of its empty cells) by pairing.

    A pairing is a set of disjoint pairs of empty cells such that every line holds a whole
    pair: whenever the attacker takes one cell of a pair the defender takes the other, so no
    line is ever completed, whoever moves first. The search gives up (answers no) after
    :data:`PAIRING_STEPS` partial pairings.
    """
    budget = [PAIRING_STEPS]
    return _pair(lines, 0, budget)


def _pair(lines: list[int], used: int, budget: list[int]) -> bool:
    budget[0] -= 1
    if budget[0] < 0:
        return False
    target = 0
    fewest = 99
    for line in lines:
        free = line & ~used
        count = free.bit_count()
        if count < fewest:
            if count < 2:
                return False
            fewest, target = count, free
    if not target:
        return True
    cells = []
    while target:
        low = target & -target
        cells.append(low)
        target ^= low
    for i, first in enumerate(cells):
        for second in cells[i + 1 :]:
            pair = first | second
            rest = [line for line in lines if line & pair != pair]
            if _pair(rest, used | pair, budget):
                return True
    return False


_provers: dict[int, Prover] = {}


def prover(size: int) -> Prover:
    """The process-wide prover of ``size`` (its table is reused between calls)."""
    if size not in _provers:
        _provers[size] = Prover(size)
    return _provers[size]
