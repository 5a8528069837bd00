"""Service throughput: moves per second through the game service, on SQLite and PostgreSQL.

    python -m bench.service [--seconds 3] [--out bench/RESULTS-service.md]

For each database and for 1 and 50 concurrent games (one channel each):

- **human moves**: games between two members, each move one ``GameService.move``
  (read, checks, compare-and-set, move row, commit), a new game when one ends;
- **vs bot**: a member against the perfect bot on 3x3; each ``move`` call stores
  the human's move, gets the bot's reply from the engine's process pool and
  stores it too; both moves are counted;
- **baseline**: the least a stored move can cost on the same database and
  connection, in the same process: one write transaction with the repository's
  version-checked ``UPDATE games`` and ``INSERT moves`` (group commit included), no
  reads, no rules. The service's human moves are reported as a ratio of it.

SQLite runs with the bot's settings (WAL, ``synchronous=NORMAL``); more rows
show ``synchronous=FULL`` (an fsync per commit) for comparison. "CPU ms/move" is
this process's CPU time (the SQLite driver's threads included; not the PostgreSQL
server's nor the engine workers') per stored move: it depends less than moves per
second on what else the machine is doing, though a busy machine still inflates it. PostgreSQL comes
from ``TEST_POSTGRES_URL`` (default ``postgresql+asyncpg://postgres@127.0.0.1:5432/test``);
the benchmark uses a database of its own and drops it. The machine is not idle
during a run, so take the numbers as orders of magnitude and the ratios as the result.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import resource
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

import bot.db.database as database_module
from bot.db import Database
from bot.db.migrate import upgrade_to_head
from bot.engine import Level
from bot.services import Actor, EnginePool, First, GameService, Place, Refusal, ServiceSettings
from bot.states import GameStatus, Moved

DRAW = ["b2", "a1", "c1", "a3", "a2", "c2", "b3", "b1", "c3"]
POSTGRES_DEFAULT = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


@dataclass(frozen=True)
class Row:
    database: str
    workload: str
    games: int
    moves: int
    seconds: float
    cpu_seconds: float
    baseline: float | None = None

    @property
    def rate(self) -> float:
        return self.moves / self.seconds


def player(n: int) -> Actor:
    return Actor(10_000 + n, f"Player {n}")


def cpu_time() -> float:
    """CPU seconds of this process so far, its threads (the SQLite driver's) included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run_for(
    seconds: float, games: int, one_game: Callable[[int, Callable[[], bool]], Awaitable[int]]
) -> tuple[int, float, float]:
    """Run ``games`` loops at once until ``seconds`` pass; return the moves made, wall time and CPU time."""
    start, cpu = time.perf_counter(), cpu_time()
    deadline = start + seconds

    def running() -> bool:
        return time.perf_counter() < deadline

    counts = await asyncio.gather(*(one_game(i, running) for i in range(games)))
    return sum(counts), time.perf_counter() - start, cpu_time() - cpu


async def human_games(service: GameService, seconds: float, games: int) -> tuple[int, float, float]:
    async def loop(i: int, running: Callable[[], bool]) -> int:
        place = Place(1, 500_000 + i)
        x, o = player(2 * i), player(2 * i + 1)
        moves = 0
        while running():
            game = await service.challenge(place, x, o, first=First.ME)
            await service.accept(place, o, game.id)
            for ply, cell in enumerate(DRAW):
                game = await service.move(
                    place, x if ply % 2 == 0 else o, cell, game_id=game.id, expected_ply=ply
                )
                moves += 1
                if not running():
                    break
            if game.is_live:
                await service.cancel(place, x, game_id=game.id)
        return moves

    return await run_for(seconds, games, loop)


async def bot_games(service: GameService, seconds: float, games: int) -> tuple[int, float, float]:
    async def loop(i: int, running: Callable[[], bool]) -> int:
        place = Place(1, 600_000 + i)
        human = player(1000 + i)
        moves = 0
        while running():
            game = await service.start_vs_bot(place, human, level=Level.PERFECT, first=First.ME)
            while game.is_active and running():
                before = game.ply
                game = await service.move(
                    place, human, game.legal_moves[0], game_id=game.id, expected_ply=game.ply
                )
                moves += game.ply - before
            if game.is_active:
                await service.cancel(place, human, game_id=game.id)
        return moves

    return await run_for(seconds, games, loop)


async def baseline_moves(database: Database, seconds: float, games: int) -> tuple[int, float, float]:
    """The repository's compare-and-set and move insert in one write transaction: a stored move's floor."""
    now = datetime.now(UTC)
    async with database.write() as repo:
        for i in range(games):
            await repo.save_players([(player(5000 + i).user_id, "Baseline")], now)
        stored = []
        for i in range(games):
            game = await repo.add_game(
                guild_id=1,
                channel_id=700_000 + i,
                size=5,
                k=5,
                level="easy",
                x_player_id=player(5000 + i).user_id,
                o_player_id=None,
                created_by=player(5000 + i).user_id,
                status=GameStatus.FINISHED,
                board="." * 25,
                ply=0,
                version=1,
                created_at=now,
                updated_at=now,
            )
            assert game is not None
            stored.append(game)

    async def loop(i: int, running: Callable[[], bool]) -> int:
        game, moves = stored[i], 0
        while running():
            async with database.write() as repo:
                moved = Moved(game.board, moves + 1, moves % 25, None, now)
                game = await repo.apply(game, moved, [(moves, moves % 25, "X", None)])
            moves += 1
        return moves

    return await run_for(seconds, games, loop)


async def measure(name: str, url: str, seconds: float, pool: EnginePool, with_bot: bool = True) -> list[Row]:
    await upgrade_to_head(url)
    rows = []
    settings = ServiceSettings(start_cooldown_seconds=0, engine_workers=pool.workers)
    for games in (1, 50):
        service = GameService(Database(url), settings, engine=pool, rng=random.Random(1))
        try:
            base_moves, base_time, _ = await baseline_moves(service.database, seconds, games)
            moves, elapsed, cpu = await human_games(service, seconds, games)
            rows.append(Row(name, "human moves", games, moves, elapsed, cpu, base_moves / base_time))
            if with_bot:
                moves, elapsed, cpu = await bot_games(service, seconds, games)
                rows.append(Row(name, "vs bot (human + reply)", games, moves, elapsed, cpu))
        finally:
            await service.database.close()
    return rows


async def postgres_database() -> tuple[str, Callable[[], Awaitable[None]]] | None:
    base = make_url(os.environ.get("TEST_POSTGRES_URL") or POSTGRES_DEFAULT)
    name = f"ttt_bench_{random.getrandbits(40):010x}"
    admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as connection:
            await connection.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as error:
        print(f"PostgreSQL skipped: {error.__class__.__name__}: {error}", file=sys.stderr)
        await admin.dispose()
        return None

    async def drop() -> None:
        async with admin.connect() as connection:
            await connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()

    return base.set(database=name).render_as_string(hide_password=False), drop


def table(rows: list[Row]) -> str:
    lines = [
        "| database | workload | concurrent games | moves | seconds | moves/s | CPU ms/move "
        "| baseline moves/s | service/baseline |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        base = "" if row.baseline is None else f"{row.baseline:.0f}"
        ratio = "" if row.baseline is None else f"{row.rate / row.baseline:.2f}"
        lines.append(
            f"| {row.database} | {row.workload} | {row.games} | {row.moves} | {row.seconds:.1f} | "
            f"{row.rate:.0f} | {1000 * row.cpu_seconds / row.moves:.1f} | {base} | {ratio} |"
        )
    return "\n".join(lines)


async def main(seconds: float, out: Path | None) -> None:
    load_before = os.getloadavg()[0]
    pool = EnginePool(workers=2, budget_ms=1500)
    await pool.warm_up()
    rows: list[Row] = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            rows += await measure(
                "SQLite (WAL, NORMAL)", f"sqlite+aiosqlite:///{folder}/normal.sqlite3", seconds, pool
            )
            database_module.SQLITE_SYNCHRONOUS = "FULL"
            full = await measure(
                "SQLite (WAL, FULL)", f"sqlite+aiosqlite:///{folder}/full.sqlite3", seconds, pool
            )
            rows += [row for row in full if row.workload == "human moves"]
            database_module.SQLITE_SYNCHRONOUS = "NORMAL"
        postgres = await postgres_database()
        if postgres is not None:
            url, drop = postgres
            try:
                rows += await measure("PostgreSQL 15", url, seconds, pool)
            finally:
                await drop()
    finally:
        pool.close()
    report = table(rows)
    print(report)
    if out is not None:
        load = f"load average {load_before:.1f} before the run, {os.getloadavg()[0]:.1f} after"
        machine = (
            f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, {load}"
        )
        text_out = (
            "# Service benchmark\n\n"
            f"`python -m bench.service --seconds {seconds:g}` on {machine}; "
            "the engine pool has 2 worker processes.\n"
            "Each run lasts the given seconds; every game is in its own channel.\n\n"
            + report
            + "\n\n"
            + (__doc__ or "").split("\n\n", 2)[2].strip()
            + "\n"
        )
        await asyncio.to_thread(out.write_text, text_out)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="how long each measurement runs")
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS-service.md"))
    arguments = parser.parse_args()
    try:
        asyncio.run(main(arguments.seconds, arguments.out))
    except Refusal as error:
        sys.exit(f"benchmark refused: {error}")
