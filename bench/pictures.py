"""Pictures: milliseconds and bytes per picture, the imports' start-up cost, and clicks while pictures render.

    python -m bench.pictures [--rounds 20] [--out bench/RESULTS-pictures.md]

- **per picture**: the replay GIF of a full 3x3, 4x4 and 5x5 game and the rating chart
  (PNG, 30 rated games on two lines), each drawn ``--rounds`` times; the median
  milliseconds and the size in bytes. The chart's first drawing, which imports
  matplotlib, is reported apart.
- **imports**: a fresh interpreter importing Pillow, the replay renderer, and
  matplotlib's Agg canvas, against one that imports nothing (medians of 5 starts).
  The bot imports Pillow at start; matplotlib only with the first chart.
- **clicks while pictures render**: moves in games between members through the
  game service (SQLite), one after another, timed one by one. The same moves are
  timed with nothing else going on, while other tasks keep asking the service for
  replays and charts (their database reads included), and while other tasks only
  keep the pictures worker drawing, in alternating rounds of the same run; the
  result is the ratio of the medians (and of the 95th percentiles).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.db import Database
from bot.db.migrate import upgrade_to_head
from bot.engine import Board
from bot.pictures import (
    GLOBAL_COLOUR,
    SERVER_COLOUR,
    RatingPoint,
    RatingSeries,
    ReplayMove,
    render_rating_chart,
    render_replay,
)
from bot.services import Actor, EnginePool, First, GameService, Place, ServiceSettings

IMPORTS = {
    "nothing": "pass",
    "Pillow (PIL.Image, ImageDraw)": "import PIL.Image, PIL.ImageDraw",
    "bot.pictures (the replay renderer)": "import bot.pictures",
    "matplotlib (Figure + Agg canvas)": (
        "import matplotlib.figure, matplotlib.backends.backend_agg, matplotlib.dates"
    ),
}
DRAW_3X3 = [4, 0, 2, 6, 3, 5, 7, 1, 8]


def full_game(size: int, seed: int) -> tuple[list[ReplayMove], tuple[tuple[int, ...], ...], str | None]:
    """A random game played to its end: the moves, the winning lines and the winner."""
    rng = random.Random(seed)
    board = Board.empty(size)
    moves = []
    while not board.is_over:
        cell = rng.choice(board.legal_moves)
        moves.append(ReplayMove(cell, board.turn.value))
        board = board.play(cell)
    winner = board.winner
    return moves, board.winning_lines, None if winner is None else winner.value


def chart_series(points: int) -> list[RatingSeries]:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    rng = random.Random(3)
    lines = []
    for colour in (SERVER_COLOUR, GLOBAL_COLOUR):
        rating = 1200.0
        series = []
        for n in range(points):
            rating += rng.uniform(-16, 16)
            series.append(RatingPoint(start + timedelta(hours=7 * n), rating))
        lines.append(RatingSeries(colour, tuple(series)))
    return lines


def timed_ms(draw: Callable[[], bytes]) -> tuple[float, int]:
    started = time.perf_counter()
    data = draw()
    return (time.perf_counter() - started) * 1000, len(data)


def picture_rows(rounds: int) -> list[tuple[str, float, int]]:
    rows = []
    series = chart_series(30)
    first_ms, _ = timed_ms(lambda: render_rating_chart(series))
    for size in (3, 4, 5):
        game = (
            ([ReplayMove(c, "XO"[i % 2]) for i, c in enumerate(DRAW_3X3)], (), None)
            if size == 3
            else full_game(size, seed=size)
        )
        moves, lines, winner = game
        samples = [
            timed_ms(lambda m=moves, li=lines, w=winner, s=size: render_replay(s, m, li, w))
            for _ in range(rounds)
        ]
        rows.append(
            (
                f"replay GIF {size}x{size} ({len(moves)} moves)",
                statistics.median(ms for ms, _ in samples),
                samples[0][1],
            )
        )
    won = full_game(3, seed=11)
    samples = [timed_ms(lambda: render_replay(3, *won)) for _ in range(rounds)]
    rows.append(
        (
            f"replay GIF 3x3, won ({len(won[0])} moves)",
            statistics.median(ms for ms, _ in samples),
            samples[0][1],
        )
    )
    samples = [timed_ms(lambda: render_rating_chart(series)) for _ in range(rounds)]
    rows.append(
        ("rating chart PNG (2 lines x 30 games)", statistics.median(ms for ms, _ in samples), samples[0][1])
    )
    rows.append(("rating chart, first in the process (imports matplotlib)", first_ms, samples[0][1]))
    return rows


def import_rows(starts: int = 5) -> list[tuple[str, float]]:
    def once(code: str) -> float:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return (time.perf_counter() - started) * 1000

    base = statistics.median(once(IMPORTS["nothing"]) for _ in range(starts))
    rows = [("interpreter alone", base)]
    for name, code in list(IMPORTS.items())[1:]:
        rows.append((name, statistics.median(once(code) for _ in range(starts)) - base))
    return rows


async def click_latency(rounds: int, clicks: int) -> dict[str, list[float]]:
    """Move latencies (ms) with nothing else running, and while other tasks ask for pictures."""
    directory = tempfile.mkdtemp(prefix="bench-pictures-")
    url = f"sqlite+aiosqlite:///{Path(directory) / 'bench.sqlite3'}"
    await upgrade_to_head(url)
    from concurrent.futures import ThreadPoolExecutor

    engine_thread = ThreadPoolExecutor(1)
    settings = ServiceSettings(start_cooldown_seconds=0)
    service = GameService(
        Database(url), settings, engine=EnginePool(1, 1500, executor=engine_thread), rng=random.Random(1)
    )
    alice, bob = Actor(1, "Alice"), Actor(2, "Bob")
    seeds = Place(10, 100)
    finished = []
    for n in range(12):  # finished rated games to replay and chart
        game = await service.challenge(seeds, alice, bob, first=First.ME)
        await service.accept(seeds, bob, game.id)
        for ply, cell in enumerate(["a1", "b1", "a2", "b2", "a3"] if n % 2 else DRAW_3X3):
            await service.move(seeds, alice if ply % 2 == 0 else bob, cell)
        finished.append(game.id)

    latencies: dict[str, list[float]] = {"idle": [], "pictures": [], "drawing": []}
    drawn = 0
    replay_args = (3, [ReplayMove(c, "XO"[i % 2]) for i, c in enumerate(DRAW_3X3)], (), None)
    series = chart_series(12)

    async def painter(stop: asyncio.Event) -> None:
        """Whole requests: the game or the ratings read from the database, then the picture drawn."""
        nonlocal drawn
        while not stop.is_set():
            game_id = random.choice(finished)
            await service.replay(game_id, place=seeds, user_id=alice.user_id)
            await service.rating_chart(alice.user_id, seeds.guild_id)
            drawn += 2

    async def drawer(stop: asyncio.Event) -> None:
        """Drawing alone, in the pictures worker: what the pictures themselves cost the clicks."""
        nonlocal drawn
        while not stop.is_set():
            await service.pictures.draw(render_replay, *replay_args)
            await service.pictures.draw(render_rating_chart, series)
            drawn += 2

    async def play(kind: str, channel: int) -> None:
        place = Place(10, channel)
        carol, dave = Actor(3, "Carol"), Actor(4, "Dave")
        made = 0
        while made < clicks:
            game = await service.challenge(place, carol, dave, first=First.ME)
            await service.accept(place, dave, game.id)
            for ply, cell in enumerate(DRAW_3X3):
                if made >= clicks:
                    await service.resign(place, carol if ply % 2 == 0 else dave)
                    break
                started = time.perf_counter()
                await service.move(place, carol if ply % 2 == 0 else dave, cell)
                latencies[kind].append((time.perf_counter() - started) * 1000)
                made += 1

    await service.rating_chart(alice.user_id, seeds.guild_id)  # starts the worker, imports matplotlib
    channel = 1000
    for _ in range(rounds):
        channel += 1
        await play("idle", channel)
        for kind, busy in (("pictures", painter), ("drawing", drawer)):
            stop = asyncio.Event()
            tasks = [asyncio.create_task(busy(stop)) for _ in range(2)]
            await asyncio.sleep(0)
            channel += 1
            await play(kind, channel)
            stop.set()
            await asyncio.gather(*tasks)
    await service.close()
    engine_thread.shutdown()
    latencies["drawn"] = [float(drawn)]
    return latencies


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ratio_row(name: str, values: list[float], baseline: list[float]) -> str:
    median = statistics.median(values) / statistics.median(baseline)
    return f"| {name} | | {median:.2f} | {percentile(values, 0.95) / percentile(baseline, 0.95):.2f} |"


def row(name: str, values: list[float]) -> str:
    return f"| {name} | {len(values)} | {statistics.median(values):.2f} | {percentile(values, 0.95):.2f} |"


def markdown(rounds: int) -> str:
    pictures = picture_rows(rounds)
    imports = import_rows()
    clicks = asyncio.run(click_latency(rounds=max(4, rounds // 4), clicks=27))
    idle, busy, drawing = clicks["idle"], clicks["pictures"], clicks["drawing"]
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    lines = [
        f"# Pictures: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "",
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average {load}.",
        "",
        "| picture | ms (median) | bytes |",
        "| --- | --- | --- |",
        *(f"| {name} | {ms:.1f} | {size:,} |" for name, ms, size in pictures),
        "",
        "| import in a fresh interpreter | ms (median of 5) |",
        "| --- | --- |",
        *(f"| {name} | {ms:.0f} |" for name, ms in imports),
        "",
        "Clicks (moves through the service, SQLite) while two tasks keep asking the service for replays "
        "and charts (each request reads the game or the ratings, then the picture is drawn in the pictures "
        "worker process), and while two tasks only keep the worker drawing "
        f"({int(clicks['drawn'][0])} pictures in all), against the same clicks with nothing else running:",
        "",
        "| clicks | n | median ms | p95 ms |",
        "| --- | --- | --- | --- |",
        row("nothing else running", idle),
        row("while replay and chart requests run", busy),
        row("while the worker only draws", drawing),
        ratio_row("ratio, requests", busy, idle),
        ratio_row("ratio, drawing only", drawing, idle),
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pictures", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="drawings per picture (default 20)")
    parser.add_argument("--out", type=Path, help="also write the Markdown table here")
    args = parser.parse_args(argv)
    report = markdown(args.rounds)
    print(report)
    if args.out is not None:
        args.out.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
