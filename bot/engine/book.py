"""Exact score tables: the solved 3x3 game and the shipped 4x4 opening book.

A table maps canonical position keys (:meth:`bot.engine.geometry.Geometry.key`,
least of the 8 symmetric images) to exact scores. It is stored as two parallel
arrays, sorted keys and one signed byte per key (:func:`bot.engine.scores.to_code`),
and looked up by binary search, so even the 4x4 book's few hundred thousand
positions cost a few megabytes in memory and a few microseconds per look-up.

The 3x3 table is solved in this process on first use (765 positions, about 30 ms).
The 4x4 and 5x5 books are too costly for that (a minute of solving, and minutes of a C
solver), so ``python -m bench.book --size N`` solves them once, deterministically, and
writes ``bot/engine/data/bookN.bin``; each is read lazily, the first time a position of
its size needs it.

File format (all integers little-endian), zlib-compressed as a whole:
``b"TTTB"``, version (1 byte), board size (1 byte), deepest layer ``max_marks``
(1 byte), entry count ``n`` (4 bytes), then the ``n`` keys as differences from the
previous key (4 bytes each up to 4x4, 8 bytes on 5x5 whose keys have 50 bits; the
first from 0), then the ``n`` score codes (1 byte each). Differences of sorted keys are
small numbers, which is what makes them compress.
"""

from __future__ import annotations

import itertools
import struct
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from bot.engine.scores import from_code, to_code
from bot.engine.solver import solve_layers

MAGIC = b"TTTB"
VERSION = 1
_HEADER = struct.Struct("<4sBBBI")
BOOK_SIZES: tuple[int, ...] = (4, 5)
"""Board sizes with a shipped book."""


def _key_width(size: int) -> int:
    """Bytes per key difference in the file: 4 while keys fit 32 bits (up to 4x4), else 8."""
    return 4 if 2 * size * size <= 32 else 8


def _key_array(size: int, values: Iterable[int] = ()) -> array[int]:
    """An array of unsigned ints wide enough for the keys of ``size`` (32 bits to 4x4, 50 on 5x5)."""
    if _key_width(size) == 4:
        return array("I" if array("I").itemsize >= 4 else "L", values)
    return array("Q", values)


@dataclass(frozen=True, slots=True)
class ExactTable:
    """Exact scores for canonical positions of one board size with at most ``max_marks`` marks."""

    size: int
    max_marks: int
    keys: array[int]
    codes: bytes
    """One signed byte per key (stored as unsigned: ``code & 0xFF``)."""

    def __len__(self) -> int:
        return len(self.keys)

    def lookup(self, key: int) -> int | None:
        """The exact score of canonical position ``key`` for its side to move, or None if absent."""
        keys = self.keys
        i = bisect_left(keys, key)
        if i < len(keys) and keys[i] == key:
            code = self.codes[i]
            return from_code(code - 256 if code > 127 else code)
        return None

    def items(self) -> list[tuple[int, int]]:
        """Every ``(key, score)`` pair, in key order."""
        return [
            (key, from_code(c - 256 if c > 127 else c)) for key, c in zip(self.keys, self.codes, strict=True)
        ]

    @classmethod
    def from_scores(cls, size: int, max_marks: int, scores: dict[int, int]) -> ExactTable:
        """The table of ``scores`` (position key to proven score), keys sorted for look-up by bisection."""
        keys = sorted(scores)
        codes = bytes(to_code(scores[k]) & 0xFF for k in keys)
        return cls(size, max_marks, _key_array(size, keys), codes)

    def encode(self) -> bytes:
        """The table in the file format above (deterministic for equal tables)."""
        deltas = [b - a for a, b in itertools.pairwise(itertools.chain((0,), self.keys))]
        header = _HEADER.pack(MAGIC, VERSION, self.size, self.max_marks, len(deltas))
        kind = "I" if _key_width(self.size) == 4 else "Q"
        return zlib.compress(header + struct.pack(f"<{len(deltas)}{kind}", *deltas) + self.codes, 9)

    @classmethod
    def decode(cls, blob: bytes) -> ExactTable:
        """Read a table written by :meth:`encode`; raise ``ValueError`` if it is not one."""
        try:
            raw = zlib.decompress(blob)
        except zlib.error as error:
            raise ValueError(f"not a compressed score table: {error}") from error
        if len(raw) < _HEADER.size:
            raise ValueError("score table too short")
        magic, version, size, max_marks, count = _HEADER.unpack_from(raw)
        if magic != MAGIC or version != VERSION:
            raise ValueError("not a score table of this version")
        if size not in (3, 4, 5):
            raise ValueError(f"score table for an unknown board size {size}")
        width = _key_width(size)
        if len(raw) != _HEADER.size + (width + 1) * count:
            raise ValueError("score table truncated")
        deltas = struct.unpack_from(f"<{count}{'I' if width == 4 else 'Q'}", raw, _HEADER.size)
        keys = _key_array(size, itertools.accumulate(deltas))
        return cls(size, max_marks, keys, raw[_HEADER.size + width * count :])


@cache
def solved_table(size: int) -> ExactTable:
    """Every reachable position of ``size`` (3 only, in practice), finished ones included, solved here."""
    layers = solve_layers(size, include_terminal=True)
    scores: dict[int, int] = {}
    for layer in layers:
        scores.update(layer)
    return ExactTable.from_scores(size, len(layers) - 1, scores)


def book_resource_name(size: int) -> str:
    """The file name of the opening book for ``size`` in ``bot.engine.data``."""
    return f"book{size}.bin"


@cache
def opening_book(size: int) -> ExactTable | None:
    """The shipped book for ``size``, read on first use; None if there is none (search then does it all)."""
    if size not in BOOK_SIZES:
        return None
    resource = resources.files("bot.engine") / "data" / book_resource_name(size)
    try:
        blob = resource.read_bytes()
    except FileNotFoundError:
        return None
    table = ExactTable.decode(blob)
    if table.size != size:
        raise ValueError(f"{book_resource_name(size)} holds a {table.size}x{table.size} book")
    return table
