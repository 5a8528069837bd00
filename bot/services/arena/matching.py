"""Whether a graph has a perfect matching: the rank of its Tutte matrix over a prime field.

A graph on ``n`` vertices has a perfect matching exactly when its Tutte matrix (``x_ij`` above the
diagonal and ``-x_ij`` below it for each edge ``ij``, with the ``x_ij`` independent unknowns) has a
non-zero determinant (Tutte, 1947). With the unknowns drawn at random from a field of ``p``
elements the determinant of a graph that has one is zero with probability at most ``n / p``
(Schwartz-Zippel); with ``p`` = 2⁶¹ - 1 that is never seen, and a non-zero determinant always
proves a matching. The draw is seeded from the graph itself, so the same graph always gets the
same answer. Cubic in ``n``: a 64-player round asks it a few dozen times in well under a second.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

PRIME = (1 << 61) - 1


def has_perfect_matching(vertices: Sequence[int], edges: Collection[tuple[int, int]]) -> bool:
    """Whether the graph of ``vertices`` and ``edges`` can be split into disjoint edges."""
    count = len(vertices)
    if count % 2:
        return False
    if count == 0:
        return True
    index = {vertex: position for position, vertex in enumerate(vertices)}
    chosen = sorted((min(index[a], index[b]), max(index[a], index[b])) for a, b in edges)
    draw = random.Random(hash((count, tuple(chosen))))
    matrix = [[0] * count for _ in range(count)]
    for row, column in chosen:
        value = draw.randrange(1, PRIME)
        matrix[row][column] = value
        matrix[column][row] = PRIME - value
    return _full_rank(matrix)


def _full_rank(matrix: list[list[int]]) -> bool:
    """Whether the square ``matrix`` is invertible modulo :data:`PRIME` (Gaussian elimination, in place)."""
    size = len(matrix)
    for column in range(size):
        pivot = next((row for row in range(column, size) if matrix[row][column]), None)
        if pivot is None:
            return False
        matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
        inverse = pow(matrix[column][column], PRIME - 2, PRIME)
        top = matrix[column]
        for row in range(column + 1, size):
            factor = matrix[row][column] * inverse % PRIME
            if factor:
                current = matrix[row]
                for k in range(column, size):
                    current[k] = (current[k] - factor * top[k]) % PRIME
    return True
