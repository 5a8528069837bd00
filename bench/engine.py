"""Engine benchmarks: ``python -m bench.engine [--quick] [--write]`` (also ``python -m bench``).

Everything runs in one process, against a baseline run in the same process:

- 3x3: the naive minimax (``bench/baseline.py``) vs the engine, as ratios,
  for the best move on the empty board and the reply after a corner opening;
  the engine both cold (first call, solving 3x3 included) and warm (every later call);
  and all 4,520 non-terminal positions analysed in a batch;
- 4x4: the perfect reply over 1,000 reachable positions sampled from random games,
  with the transposition table kept (a warm process) and emptied before every reply (cold);
- 5x5: the depth the bot's move search reaches within the default 1.5 s budget, and how far
  past the budget it stops (analyses are measured by ``python -m bench.proof5``);
- nodes per second of the search and of the baseline;
- the level round-robin on 3x3, 4x4 and 5x5, and the 5x5 engine against ``medium``.

``--write`` stores the markdown in ``bench/RESULTS-engine.md``.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench import baseline, roundrobin
from bot.cli.analyze import analysis_line
from bot.engine import Board, Level, analyze, choose_move
from bot.engine.analysis import ANALYSIS_BUDGET_MS
from bot.engine.book import opening_book, solved_table
from bot.engine.levels import DEFAULT_BUDGET_MS
from bot.engine.oracle import score_moves
from bot.engine.search import searcher

RESULTS = Path(__file__).resolve().parent / "RESULTS-engine.md"


def _seconds(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def _median_seconds(action: Callable[[], object], repeat: int) -> float:
    return statistics.median(_seconds(action) for _ in range(repeat))


def _ms(seconds: float) -> str:
    if seconds >= 0.1:
        return f"{seconds * 1000:,.0f} ms"
    if seconds >= 0.001:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds * 1_000_000:.1f} µs"


def _reset_engine() -> None:
    solved_table.cache_clear()
    for size in (3, 4, 5):
        searcher(size).table.clear()


def bench_3x3(lines: list[str], repeat_baseline: int) -> None:
    lines += ["## 3x3 against the naive minimax", ""]
    lines += [
        "| position | baseline | engine, cold | engine, warm | ratio cold | ratio warm |",
        "|---|---|---|---|---|---|",
    ]
    empty = 0.0
    for label, text in (
        ("best move, empty board", "........."),
        ("reply after a corner opening", "X........"),
    ):
        board = Board.parse(text)
        mover = board.turn.value
        baseline.nodes = 0
        base = _median_seconds(
            lambda t=text, m=mover: baseline.get_best_move(baseline.from_text(t), m), repeat_baseline
        )
        _reset_engine()
        cold = _seconds(lambda b=board: choose_move(b, Level.PERFECT, seed=1))
        warm = _median_seconds(lambda b=board: choose_move(b, Level.PERFECT, seed=1), 2001)
        empty = empty if empty else base
        ratios = f"{base / cold:,.0f}x | {base / warm:,.0f}x"
        lines.append(f"| {label} | {_ms(base)} | {_ms(cold)} | {_ms(warm)} | {ratios} |")
    boards = []
    stack, seen = [Board.empty(3)], set()
    while stack:
        board = stack.pop()
        if board in seen or board.is_over:
            continue
        seen.add(board)
        boards.append(board)
        stack.extend(board.play(c) for c in board.legal_moves)
    _reset_engine()
    batch = _seconds(lambda: [analyze(b) for b in boards])
    warm = min(_seconds(lambda: [analyze(b) for b in boards]) for _ in range(5)) / len(boards)
    texts = [b.text for b in boards]
    [analysis_line(Board.parse(t), ANALYSIS_BUDGET_MS) for t in texts]
    lines_warm = min(
        _seconds(lambda: [analysis_line(Board.parse(t), ANALYSIS_BUDGET_MS) for t in texts]) for _ in range(5)
    ) / len(boards)
    lines += [
        "",
        f"Cold means the first call in the process, which solves 3x3 (all 765 positions up to symmetry); "
        f"warm is the median of 2,001 later calls. The baseline is the median of {repeat_baseline} runs.",
        "",
        f"`analyze` of all {len(boards):,} non-terminal 3x3 positions, one after another, from cold: "
        f"**{batch:.2f} s** ({_ms(batch / len(boards))} each). Every 3x3 analysis is then kept, so "
        f"later calls are look-ups: **{_ms(warm)}** per board, **{empty / warm:,.0f}x** faster than the "
        f"baseline's best move on the empty board ({_ms(empty)}); the whole `python -m bot analyze` "
        f"answer for a board given as text (parsing it, the analysis and its JSON line): "
        f"**{_ms(lines_warm)}**, **{empty / lines_warm:,.0f}x** (best of 5 passes over all positions).",
        "",
    ]


def sample_positions(size: int, count: int, seed: int) -> list[Board]:
    """``count`` positions of games played at random: each a uniformly chosen point of its game."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = Board.empty(size)
        game = []
        while not board.is_over:
            game.append(board)
            board = board.play(rng.choice(board.legal_moves))
        out.append(rng.choice(game))
    return out


def bench_4x4(lines: list[str], count: int) -> None:
    opening_book.cache_clear()
    load = _seconds(lambda: opening_book(4))
    book = opening_book(4)
    assert book is not None
    positions = sample_positions(4, count, seed=4)
    rows = []
    for mode in ("warm", "cold"):
        searcher(4).table.clear()
        times = []
        for index, board in enumerate(positions):
            if mode == "cold":
                searcher(4).table.clear()
            times.append(_seconds(lambda b=board, i=index: choose_move(b, Level.PERFECT, seed=i)))
        times.sort()
        rows.append(
            f"| {mode} | {_ms(statistics.median(times))} | {_ms(times[int(0.95 * len(times))])} | "
            f"{_ms(times[-1])} |"
        )
    searched = [b for b in positions if b.ply + 1 > book.max_marks]
    exact = all(score_moves(b, DEFAULT_BUDGET_MS, all_values=False).complete for b in searched)
    lines += [
        "## 4x4 (k=4): perfect replies",
        "",
        f"{count:,} positions sampled from random games (seed 4): {len(positions) - len(searched)} answered "
        f"from the book (children of up to {book.max_marks} marks), {len(searched)} by exact search "
        f"({'every one complete, none cut by the budget' if exact else 'SOME CUT BY THE BUDGET'}).",
        "",
        "| table | median | 95th percentile | slowest |",
        "|---|---|---|---|",
        *rows,
        "",
        f"Warm keeps the transposition table between replies, as a worker process does; cold empties it "
        f"before every reply. Reading the book ({len(book):,} positions, "
        f"{len(book.encode()):,} bytes compressed) takes {_ms(load)}, once per process.",
        "",
    ]


def bench_5x5(lines: list[str], budget_ms: int) -> list[float]:
    positions = [Board.empty(5), *sample_positions(5, 5, seed=5)]
    rates = []
    rows = []
    for board in positions:
        searcher(5).table.clear()
        started = time.perf_counter()
        result = searcher(5).search(board, budget_ms, all_values=False)
        elapsed = time.perf_counter() - started
        rates.append(result.nodes / elapsed)
        rows.append(
            f"| `{board.text}` | {board.ply} | {result.depth} | {'yes' if result.complete else 'no'} | "
            f"{result.nodes:,} | {elapsed * 1000:,.0f} ms |"
        )
    overshoot = []
    for small in (20, 100, 500):
        for board in positions[:3]:
            searcher(5).table.clear()
            elapsed = _seconds(lambda b=board, s=small: searcher(5).search(b, s, all_values=True))
            overshoot.append(elapsed * 1000 - small)
    lines += [
        f"## 5x5 (k=4): iterative deepening within {budget_ms} ms",
        "",
        "| position | marks | depth reached | solved | nodes | time |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"Budget kept: over 18 analyses with budgets of 20, 100 and 500 ms the search stopped at most "
        f"{max(overshoot):.1f} ms past its budget (median {statistics.median(overshoot):.1f} ms).",
        "",
    ]
    return rates


def bench_speed(lines: list[str], rates_5x5: list[float]) -> None:
    baseline.nodes = 0
    base = _seconds(lambda: baseline.get_best_move(baseline.from_text("........."), "X"))
    base_rate = baseline.nodes / base
    total_nodes = total_time = 0.0
    for board in sample_positions(4, 40, seed=44):
        if board.ply > 6:
            continue
        search = searcher(4)
        search.table.clear()
        started = time.perf_counter()
        result = search.search(board, 10**7, all_values=True, first_depth=board.cells - board.ply)
        total_time += time.perf_counter() - started
        total_nodes += result.nodes
    lines += [
        "## Nodes per second",
        "",
        "| search | nodes per second |",
        "|---|---|",
        f"| baseline naive minimax, 3x3 | {base_rate:,.0f} |",
        f"| engine, exact 4x4 search (up to 6 marks, no book) | {total_nodes / total_time:,.0f} |",
        f"| engine, 5x5 search with heuristic | {statistics.median(rates_5x5):,.0f} |",
        "",
        "An engine node does more (threat scan, symmetric keys, table); it needs far fewer of them.",
        "",
    ]


def bench_levels(lines: list[str], quick: bool) -> None:
    plan = [(3, 50 if quick else 200, 100), (4, 10 if quick else 50, 100), (5, 4 if quick else 10, 100)]
    lines += ["## Level round-robin", ""]
    for size, games, budget in plan:
        table = roundrobin.run(size, games, budget)
        note = f", budget {budget} ms per move" if size == 5 else ""
        lines += [
            f"### {size}x{size}: {games} games per ordered pairing (each level as X and as O){note}",
            "",
            "Share of points (win 1, draw 1/2) of the row's level against the column's.",
            "",
            table.markdown(),
            "",
            f"Order perfect > hard > medium > easy: "
            f"**{'holds' if table.order_holds() else 'DOES NOT HOLD'}** ({table.seconds:.1f} s).",
            "",
        ]
    games = 6 if quick else 20
    budget = 300 if quick else 1000
    match = roundrobin.match(5, Level.PERFECT, Level.MEDIUM, games, budget)
    lines += [
        f"### 5x5: the engine ({budget} ms per move) against `medium`, {games} games, half as X",
        "",
        f"Engine wins {match[0]}, draws {match[1]}, loses {match[2]}.",
        "",
    ]


def run(quick: bool) -> str:
    lines = [
        "# Engine benchmark results",
        "",
        f"Measured by `python -m bench.engine{' --quick' if quick else ''}` on "
        f"{datetime.date.today().isoformat()}: Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, {platform.machine()}; load average {os.getloadavg()[0]:.1f} at the start.",
        "",
        "Reproduce: `python -m bench` (or `make bench`) prints these tables; `--write` stores them here;",
        "`--quick` takes smaller samples. `python -m bench.roundrobin --size N` plays one round-robin.",
        "The 4x4 opening book `bot/engine/data/book4.bin` is regenerated, byte for byte, by",
        "`python -m bench.book` (solves 4x4 by retrograde analysis in about a minute).",
        "",
    ]
    bench_3x3(lines, repeat_baseline=1 if quick else 3)
    bench_4x4(lines, 200 if quick else 1000)
    rates = bench_5x5(lines, DEFAULT_BUDGET_MS)
    bench_speed(lines, rates)
    bench_levels(lines, quick)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.engine", description="Engine benchmarks.")
    parser.add_argument("--quick", action="store_true", help="smaller samples (a couple of minutes)")
    parser.add_argument("--write", action="store_true", help=f"also write {RESULTS.name}")
    args = parser.parse_args(argv)
    report = run(args.quick)
    print(report)
    if args.write:
        RESULTS.write_text(report + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
