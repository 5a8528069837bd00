"""Group commit against the plain alternative: one transaction per write, on SQLite and PostgreSQL.

    python -m bench.plain_writes [--seconds 3] [--rounds 3] [--out bench/RESULTS-plain-writes.md]

The bot's write path (:class:`bot.db.live_games.WriteBatches`) lets writers that arrive together
share one transaction and one commit. The plain alternative gives each ``Database.write()`` a
transaction of its own: on PostgreSQL on a connection of the pool (the server groups the
commits' flushes itself), on SQLite one at a time in the process (SQLite has one writer; waiting
in its busy handler instead would sleep). Both keep the cache of games, so a move reads no row
it wrote (the plain one too receives a transaction's records once it has committed). Measured
with the service benchmark's games between members (:mod:`bench.service`), 1 and 50 at once, the
two write paths taking turns round after round so that a machine that slows down for a while
weighs on both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

from bench.load import machine
from bench.service import human_games, postgres_database
from bot.db import Database
from bot.db.database import WRITE_OPTION
from bot.db.live_games import Batch
from bot.db.migrate import upgrade_to_head
from bot.db.repository import Repository
from bot.services import EnginePool, GameService, ServiceSettings


class OneTransactionPerWrite(Database):
    """A database whose every ``write()`` is a transaction of its own (no group commit)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self._plain_writer = self.engine.execution_options(**{WRITE_OPTION: True})
        self._one_writer: AbstractAsyncContextManager[object] = nullcontext()
        if self.sqlite:
            self._one_writer = asyncio.Lock()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Repository]:
        transaction = Batch()
        async with self._one_writer, self._plain_writer.connect() as connection, connection.begin():
            yield Repository(connection, transaction, self.live_games)
        for game in transaction.overlay.values():
            self.live_games.put(game)


@dataclass
class Tally:
    moves: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


WRITE_PATHS = {"group commit": Database, "one transaction per write": OneTransactionPerWrite}


async def measure(url: str, seconds: float, rounds: int, games: int) -> dict[str, Tally]:
    """Moves per second of ``games`` concurrent games on each write path, over ``rounds`` turns each."""
    await upgrade_to_head(url)
    settings = ServiceSettings(start_cooldown_seconds=0)
    pool = EnginePool(workers=1)
    tallies = {name: Tally() for name in WRITE_PATHS}
    try:
        for _ in range(rounds):
            for name, kind in WRITE_PATHS.items():
                service = GameService(kind(url), settings, engine=pool, rng=random.Random(1))
                try:
                    moves, elapsed, cpu = await human_games(service, seconds, games)
                finally:
                    await service.database.close()
                tally = tallies[name]
                tally.moves, tally.seconds, tally.cpu_seconds = (
                    tally.moves + moves,
                    tally.seconds + elapsed,
                    tally.cpu_seconds + cpu,
                )
    finally:
        pool.close()
    return tallies


def table(results: dict[tuple[str, int], dict[str, Tally]]) -> str:
    lines = [
        "| database | concurrent games | write path | moves/s | CPU ms/move | against group commit |",
        "|---|---:|---|---:|---:|---:|",
    ]
    for (database, games), tallies in results.items():
        grouped = tallies["group commit"].rate
        for name, tally in tallies.items():
            cpu = 1000 * tally.cpu_seconds / tally.moves if tally.moves else float("nan")
            ratio = tally.rate / grouped
            lines.append(f"| {database} | {games} | {name} | {tally.rate:.0f} | {cpu:.2f} | {ratio:.2f} |")
    return "\n".join(lines)


async def run(seconds: float, rounds: int) -> dict[tuple[str, int], dict[str, Tally]]:
    results: dict[tuple[str, int], dict[str, Tally]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for games in (1, 50):
            url = f"sqlite+aiosqlite:///{folder}/plain-{games}.sqlite3"
            results["SQLite", games] = await measure(url, seconds, rounds, games)
    postgres = await postgres_database()
    if postgres is not None:
        url, drop = postgres
        try:
            for games in (1, 50):
                results["PostgreSQL", games] = await measure(url, seconds, rounds, games)
        finally:
            await drop()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="per write path and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    report = table(asyncio.run(run(args.seconds, args.rounds)))
    print(report)
    if args.out is not None:
        args.out.write_text(
            f"# Group commit against one transaction per write\n\n{machine()}; "
            f"{args.rounds} rounds of {args.seconds:g} s per write path, taking turns.\n\n{report}\n"
        )


if __name__ == "__main__":
    main()
