"""The static evaluation at the search horizon: open lines weighted by how many own marks they hold.

The classic heuristic for 3x3 (a line holding only X's marks scores 10 per mark
power, only O's the negative, the side to move counts more), generalised to any
k: a line still open for one side (no enemy mark on it) is worth ``LINE_WEIGHT ** c``
for its ``c`` marks. The side to move gets a tempo bonus, and a cell where two of a
side's open lines of ``k - 2`` marks cross (playing it makes two threats at once)
counts extra, because two threats cannot both be blocked.

Lines of ``k - 1`` marks never reach this function: the search turns them into
proven results (a win in one, a forced block, or a loss to two threats) before it
asks for an estimate.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.scores import HEURISTIC_LIMIT

LINE_WEIGHT = 8
"""Each further own mark on an open line multiplies its worth by this."""

TEMPO_NUMERATOR, TEMPO_DENOMINATOR = 3, 2
"""The side to move's open lines count 3/2 as much: it gets to extend one of them first."""

FORK_WEIGHT = 6
"""A cell making two threats at once, in units of an open line one mark short of a threat."""


@dataclass(frozen=True, slots=True)
class LineEvaluator:
    """The horizon estimate for one board geometry (its lines and win length ``k``)."""

    lines: tuple[int, ...]
    k: int
    weights: tuple[int, ...]

    @classmethod
    def for_geometry(cls, lines: tuple[int, ...], k: int) -> LineEvaluator:
        """The evaluator of the winning ``lines`` of one board size, ``k`` in a row."""
        return cls(lines, k, tuple(LINE_WEIGHT**c if c else 0 for c in range(k + 1)))

    def __call__(self, me: int, them: int) -> int:
        """The estimate for the side to move (owning ``me``), strictly inside ``±HEURISTIC_LIMIT``."""
        weights = self.weights
        near = self.k - 2
        mine = theirs = 0
        my_once = my_twice = their_once = their_twice = 0
        for line in self.lines:
            a = me & line
            b = them & line
            if a:
                if b:
                    continue
                count = a.bit_count()
                mine += weights[count]
                if count == near:
                    gaps = line ^ a
                    my_twice |= my_once & gaps
                    my_once |= gaps
            elif b:
                count = b.bit_count()
                theirs += weights[count]
                if count == near:
                    gaps = line ^ b
                    their_twice |= their_once & gaps
                    their_once |= gaps
        fork = FORK_WEIGHT * weights[near] if near > 0 else 0
        score = (mine * TEMPO_NUMERATOR) // TEMPO_DENOMINATOR - theirs
        score += fork * (2 * my_twice.bit_count() - their_twice.bit_count())
        limit = HEURISTIC_LIMIT - 1
        return max(-limit, min(limit, score))
