"""How often 5x5 analyses are proven: ``python -m bench.proof5 [--count N] [--seed S] [--no-check]``.

Samples ``--count`` reachable 5x5 positions (random games stopped after 4 to 14 marks,
finished ones skipped) and analyses each with the default budget, as
``python -m bot analyze`` does: the share whose analysis is exact, and the median,
95th-percentile and slowest times. The engine is measured twice: warm (one process
keeps its tables between boards, as ``analyze -`` and the bot's workers do) and cold
(every table emptied before each board). The baseline, measured in the same run, is
the engine's heuristic search alone (iterative deepening within the same budget), which
is how 5x5 was analysed before the book and the prover.

Unless ``--no-check``, every exact analysis is compared move by move with the C solver
``bench/solver5.c`` (compiled with the system's ``cc``), an independent exact search:
an ``exact: true`` that is wrong fails the run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.book import compile_solver, solve_with_c
from bot.engine import Board, analyze
from bot.engine.analysis import ANALYSIS_BUDGET_MS, verdict_of
from bot.engine.geometry import geometry
from bot.engine.prover import prover
from bot.engine.scores import win_at
from bot.engine.search import searcher


def sample(count: int, seed: int) -> list[Board]:
    """``count`` positions of random games, each stopped after 4 to 14 marks with the game going on."""
    rng = random.Random(seed)
    out: list[Board] = []
    while len(out) < count:
        marks = rng.randint(4, 14)
        board = Board.empty(5)
        for _ in range(marks):
            if board.is_over:
                break
            board = board.play(rng.choice(board.legal_moves))
        if not board.is_over and board.ply == marks:
            out.append(board)
    return out


def _summary(label: str, times: list[float], exact: int, count: int) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * len(ordered)) - 1)]
    median = statistics.median(ordered)
    return (
        f"| {label} | {exact}/{count} ({100 * exact / count:.0f}%) | {median * 1000:,.0f} ms "
        f"| {p95 * 1000:,.0f} ms | {ordered[-1] * 1000:,.0f} ms |"
    )


def _reset() -> None:
    prover(5).table.clear()
    searcher(5).table.clear()


def check(boards: list[Board], analyses: list[object]) -> int:
    """How many exact move verdicts disagree with the C solver (0 expected)."""
    g = geometry(5)
    wanted: list[tuple[int, int, int]] = []
    expected: dict[tuple[int, int], tuple[str, int]] = {}
    for index, (board, analysis) in enumerate(zip(boards, analyses, strict=True)):
        if not getattr(analysis, "exact", False):
            continue
        for cell in board.legal_moves:
            child = board.play(cell)
            if child.winner is not None:
                outcome, plies = verdict_of(win_at(board.ply + 1), board.ply, 25)
                expected[index, cell] = (outcome.value, plies)
            else:
                wanted.append((index, cell, min(g.key_images(child.x, child.o))))
    with tempfile.TemporaryDirectory() as directory:
        scores = solve_with_c(compile_solver(Path(directory)), [key for _, _, key in wanted])
    for (index, cell, _), score in zip(wanted, scores, strict=True):
        outcome, plies = verdict_of(-score, boards[index].ply, 25)
        expected[index, cell] = (outcome.value, plies)
    wrong = 0
    for index, analysis in enumerate(analyses):
        if not getattr(analysis, "exact", False):
            continue
        for move in analysis.moves:  # type: ignore[attr-defined]
            if expected[index, move.cell] != (move.value.value, move.plies):
                wrong += 1
                print(f"WRONG: {boards[index].text} cell {move.cell}: {move} vs {expected[index, move.cell]}")
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.proof5", description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args(argv)
    boards = sample(args.count, args.seed)
    budget = ANALYSIS_BUDGET_MS
    print(f"{args.count} random reachable 5x5 positions (4-14 marks, seed {args.seed}), budget {budget} ms")
    print()
    print("| analysis | exact | median | 95th percentile | slowest |")
    print("|---|---|---|---|---|")
    analyze(Board.empty(5))  # reads the book once, outside the timings
    rows = []
    for label, cold in (("engine, warm", False), ("engine, cold", True)):
        _reset()
        times, analyses = [], []
        for board in boards:
            if cold:
                _reset()
            started = time.perf_counter()
            analyses.append(analyze(board, budget))
            times.append(time.perf_counter() - started)
        rows.append((label, times, analyses))
        print(_summary(label, times, sum(a.exact for a in analyses), len(boards)))
    _reset()
    base_times, base_exact = [], 0
    for board in boards:
        _reset()
        started = time.perf_counter()
        result = searcher(5).search(board, budget, all_values=True)
        base_times.append(time.perf_counter() - started)
        base_exact += result.all_exact
    print(_summary("baseline: heuristic search alone, cold", base_times, base_exact, len(boards)))
    warm = statistics.median(rows[0][1])
    print()
    print(f"Median time, baseline / engine warm: {statistics.median(base_times) / warm:,.1f}x")
    if not args.no_check:
        wrong = sum(check(boards, analyses) for _, _, analyses in rows)
        verdicts = sum(len(a.moves) for _, _, analyses in rows for a in analyses if a.exact)
        print(f"Checked against the C solver: {verdicts} exact move verdicts, {wrong} wrong.")
        if wrong:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
