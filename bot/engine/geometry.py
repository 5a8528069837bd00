"""Precomputed geometry of an n x n board with k in a row: lines and symmetries.

Everything here is computed once per size and shared by every board of that size,
so that the hot paths (winner checks, canonical forms) are table look-ups on ints.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

WIN_LENGTH: dict[int, int] = {3: 3, 4: 4, 5: 4}
"""The board sizes the game is played on, each with the length of a winning line: the one table of them."""
SIZES: tuple[int, ...] = tuple(WIN_LENGTH)

_CHUNK_BITS = 8


@dataclass(frozen=True, slots=True)
class Geometry:
    """Lines, masks and the 8 symmetries of one board size."""

    size: int
    k: int
    cells: int
    full: int
    lines: tuple[int, ...]
    lines_through: tuple[tuple[int, ...], ...]
    permutations: tuple[tuple[int, ...], ...]
    inverse: tuple[int, ...]
    back: tuple[tuple[int, ...], ...]
    """``back[s][c]``: the cell that symmetry ``s`` sends to ``c`` (undoes a canonical frame)."""
    key_x: tuple[tuple[int, ...], ...]
    """``key_x[c][s]``: the position key of a lone X on ``c`` seen through symmetry ``s``."""
    key_o: tuple[tuple[int, ...], ...]
    """``key_o[c][s]``: the same for a lone O."""
    order: tuple[int, ...]
    """Cells from most promising to least: most lines through them first, then nearest the centre."""
    _chunks: tuple[tuple[tuple[int, ...], ...], ...]

    def transform(self, bits: int, symmetry: int) -> int:
        """Map a bitboard through symmetry number ``symmetry`` (0 is the identity)."""
        if symmetry == 0:
            return bits
        out = 0
        shift = 0
        for table in self._chunks[symmetry]:
            out |= table[(bits >> shift) & 0xFF]
            shift += _CHUNK_BITS
        return out

    def key(self, x: int, o: int) -> int:
        """A position as one int, X's cells above O's: ``x << cells | o``.

        Comparing keys compares ``(x, o)`` pairs, so the least of a position's 8
        key images is the canonical form of :func:`bot.engine.board.canonical_key`.
        """
        return x << self.cells | o

    def split(self, key: int) -> tuple[int, int]:
        """The ``(x, o)`` bitboards of a position key."""
        return key >> self.cells, key & self.full

    def key_images(self, x: int, o: int) -> list[int]:
        """The position's key under each of the 8 symmetries (index = symmetry number)."""
        cells = self.cells
        return [self.transform(x, s) << cells | self.transform(o, s) for s in range(8)]


def _permutations(n: int) -> tuple[tuple[int, ...], ...]:
    """The dihedral group of the square as cell permutations: perm[cell] = image."""

    def coords(f: object) -> tuple[int, ...]:
        out = [0] * (n * n)
        for r in range(n):
            for c in range(n):
                nr, nc = f(r, c)  # type: ignore[operator]
                out[r * n + c] = nr * n + nc
        return tuple(out)

    m = n - 1
    return (
        coords(lambda r, c: (r, c)),
        coords(lambda r, c: (c, m - r)),
        coords(lambda r, c: (m - r, m - c)),
        coords(lambda r, c: (m - c, r)),
        coords(lambda r, c: (r, m - c)),
        coords(lambda r, c: (m - r, c)),
        coords(lambda r, c: (c, r)),
        coords(lambda r, c: (m - c, m - r)),
    )


def _lines(n: int, k: int) -> tuple[int, ...]:
    lines: list[int] = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < n and 0 <= end_c < n:
                    mask = 0
                    for i in range(k):
                        mask |= 1 << ((r + dr * i) * n + (c + dc * i))
                    lines.append(mask)
    return tuple(lines)


@cache
def geometry(size: int) -> Geometry:
    """The shared geometry for ``size`` (3, 4 or 5)."""
    if size not in WIN_LENGTH:
        raise ValueError(f"board size must be one of {', '.join(map(str, SIZES))}, not {size}")
    k = WIN_LENGTH[size]
    cells = size * size
    lines = _lines(size, k)
    perms = _permutations(size)
    inverse = []
    for perm in perms:
        for j, other in enumerate(perms):
            if all(other[perm[c]] == c for c in range(cells)):
                inverse.append(j)
                break
    centre = (size - 1) / 2
    order = sorted(
        range(cells),
        key=lambda c: (
            -sum(1 for m in lines if m >> c & 1),
            abs(c // size - centre) + abs(c % size - centre),
            c,
        ),
    )
    chunks = []
    for perm in perms:
        tables = []
        for start in range(0, cells, _CHUNK_BITS):
            table = []
            for byte in range(256):
                out = 0
                for bit in range(_CHUNK_BITS):
                    cell = start + bit
                    if byte >> bit & 1 and cell < cells:
                        out |= 1 << perm[cell]
                table.append(out)
            tables.append(tuple(table))
        chunks.append(tuple(tables))
    return Geometry(
        size=size,
        k=k,
        cells=cells,
        full=(1 << cells) - 1,
        lines=lines,
        lines_through=tuple(tuple(m for m in lines if m >> c & 1) for c in range(cells)),
        permutations=perms,
        inverse=tuple(inverse),
        back=tuple(perms[inverse[s]] for s in range(8)),
        key_x=tuple(tuple(1 << (cells + perm[c]) for perm in perms) for c in range(cells)),
        key_o=tuple(tuple(1 << perm[c] for perm in perms) for c in range(cells)),
        order=tuple(order),
        _chunks=tuple(chunks),
    )
