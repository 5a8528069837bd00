"""Generate a shipped opening book: ``python -m bench.book [--size 4|5] [--max-marks N] [--output PATH]``.

The book holds the exact score of every reachable position with at most
``--max-marks`` marks where the game goes on. The output is deterministic: exact
scores do not depend on how they were found, so the same command always writes the
same bytes.

4x4 (k=4) is solved completely by retrograde analysis (:mod:`bot.engine.solver`,
about a minute on one core). Why 6 marks: an exact search from a 4x4 position with
7 or more marks takes at most about 30 ms even with an empty transposition table,
while one with 2 marks takes up to about 1.4 s. The file is under 100 kB.

5x5 (k=4) is too big to solve backwards in Python. The positions of the deepest layer
are enumerated here and solved by the C program ``bench/solver5.c`` (compiled on the
fly with the system's ``cc``; about 10 minutes on one core), and the shallower layers
follow from them by retrograde analysis. Why 6 marks: the engine's prover
(:mod:`bot.engine.prover`) takes up to about a second to value every move of a position
with 6 marks in pure Python, and many seconds with 4 or 5; with every position of up
to 6 marks in the book, positions of up to 5 marks answer from it and deeper ones are
proven at run time.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.engine.book import ExactTable, book_resource_name
from bot.engine.scores import from_code
from bot.engine.solver import Layer, parent_scores, reachable_layers, solve_layers

DEFAULT_MAX_MARKS = {4: 6, 5: 6}
DATA = Path(__file__).resolve().parent.parent / "bot" / "engine" / "data"
SOLVER_SOURCE = Path(__file__).resolve().parent / "solver5.c"


def build(size: int = 4, max_marks: int | None = None, verbose: bool = False) -> ExactTable:
    """Solve ``size`` and keep the positions with at most ``max_marks`` marks."""
    deepest = DEFAULT_MAX_MARKS[size] if max_marks is None else max_marks
    say = print if verbose else None
    layers = solve_5x5(deepest, say) if size == 5 else solve_layers(size, deepest, progress=say)
    scores: dict[int, int] = {}
    for layer in layers:
        scores.update(layer)
    return ExactTable.from_scores(size, deepest, scores)


def compile_solver(directory: Path) -> Path:
    """Compile ``bench/solver5.c`` into ``directory``; the path of the program."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        raise SystemExit("a C compiler (cc, gcc or clang) is needed to build the 5x5 book")
    program = directory / "solver5"
    subprocess.run([compiler, "-O2", "-o", str(program), str(SOLVER_SOURCE)], check=True)
    return program


def solve_with_c(program: Path, keys: list[int]) -> list[int]:
    """The exact scores of ``keys`` (5x5 positions still going on), from the C solver."""
    run = subprocess.run(
        [str(program)], input="".join(f"{key}\n" for key in keys), capture_output=True, text=True, check=True
    )
    codes = [int(line) for line in run.stdout.split()]
    if len(codes) != len(keys):
        raise SystemExit(f"the C solver answered {len(codes)} of {len(keys)} positions")
    return [from_code(code) for code in codes]


def solve_5x5(max_marks: int, progress: object = None) -> list[Layer]:
    """Exact scores of every reachable 5x5 position still going on with at most ``max_marks`` marks."""
    say = progress if callable(progress) else (lambda _text: None)
    layers = reachable_layers(5, max_marks)
    say(f"5x5: {sum(map(len, layers))} canonical positions in {len(layers)} layers")
    deepest = sorted(layers[max_marks])
    with tempfile.TemporaryDirectory() as directory:
        program = compile_solver(Path(directory))
        started = time.perf_counter()
        below: Layer = dict(zip(deepest, solve_with_c(program, deepest), strict=True))
    say(f"  {max_marks} marks: {len(below)} positions solved in C, {time.perf_counter() - started:.0f} s")
    solved: list[Layer] = [{} for _ in layers]
    solved[max_marks] = below
    for marks in range(max_marks - 1, -1, -1):
        below = parent_scores(5, sorted(layers[marks]), marks, below)
        solved[marks] = below
        say(f"  {marks} marks: {len(below)} positions solved")
    return solved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.book", description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, choices=(4, 5), default=4)
    parser.add_argument("--max-marks", type=int)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args(argv)
    output = args.output or DATA / book_resource_name(args.size)
    started = time.perf_counter()
    table = build(args.size, args.max_marks, verbose=True)
    blob = table.encode()
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_bytes(blob)
    print(
        f"wrote {output}: {len(table)} positions, {len(blob)} bytes, "
        f"sha256 {hashlib.sha256(blob).hexdigest()[:16]}, {time.perf_counter() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
