"""Generate the shipped 4x4 opening book: ``python -m bench.book [--max-marks N] [--output PATH]``.

It solves 4x4 (k=4) completely by retrograde analysis (:mod:`bot.engine.solver`,
about a minute on one core) and keeps the exact score of every reachable position
with at most ``--max-marks`` marks where the game goes on. The output is
deterministic: the same code always writes the same bytes.

Why 6 marks: measured on the 2-core development machine, an exact search from a
4x4 position with 7 or more marks takes at most about 30 ms even with an empty
transposition table, while one with 2 marks takes up to about 1.4 s. With every
position of up to 6 marks in the book, each reply either reads its children from the
book or searches positions of 7 marks or more. The file is then under 100 kB.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

from bot.engine.book import ExactTable, book_resource_name
from bot.engine.solver import solve_layers

SIZE = 4
DEFAULT_MAX_MARKS = 6
DEFAULT_OUTPUT = Path(__file__).resolve().parent.parent / "bot" / "engine" / "data" / book_resource_name(SIZE)


def build(max_marks: int = DEFAULT_MAX_MARKS, verbose: bool = False) -> ExactTable:
    """Solve 4x4 and keep the positions with at most ``max_marks`` marks."""
    layers = solve_layers(SIZE, max_marks, progress=print if verbose else None)
    scores: dict[int, int] = {}
    for layer in layers:
        scores.update(layer)
    return ExactTable.from_scores(SIZE, max_marks, scores)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.book", description=__doc__.splitlines()[0])
    parser.add_argument("--max-marks", type=int, default=DEFAULT_MAX_MARKS)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    table = build(args.max_marks, verbose=True)
    blob = table.encode()
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_bytes(blob)
    print(
        f"wrote {args.output}: {len(table)} positions, {len(blob)} bytes, "
        f"sha256 {hashlib.sha256(blob).hexdigest()[:16]}, {time.perf_counter() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
