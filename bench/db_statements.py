"""SQL statements and transactions per request: what one game costs the database.

    python -m bench.db_statements [--postgresql] [--verbose]

Plays, through the game service alone (no Discord), the requests a Discord game makes, one
at a time, and counts for each the SQL statements run (on SQLite as SQLite's trace sees them:
``BEGIN`` counts, an ``executemany`` counts once per row) and the commits:

- **vs human**: ``challenge`` and ``set_message`` (the answer to ``/ttt challenge`` becomes
  the board), ``accept``, then the moves of a game X wins in 7 plies (the last move rates
  the game), then a second game between the same pair (its rating reads the earlier game);
- **vs bot**: ``start_vs_bot`` and ``set_message``, then the member's moves on 3x3 (each
  with the bot's reply looked up in the same transaction).

``--verbose`` prints every statement. ``COMMIT`` is counted apart, as the commits.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import tempfile
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import event
from sqlalchemy.util import await_

from bot.db import Database
from bot.db.migrate import upgrade_to_head
from bot.engine import Level
from bot.services import Actor, EnginePool, First, GameService, GameView, Place, ServiceSettings

X_WINS = ["a1", "b1", "a2", "b2", "a3"]
"""X takes the column a: five plies."""


class Tally:
    """Statements and commits run on one database.

    On SQLite, every statement SQLite itself runs (its trace callback: statements run straight
    on the driver included; an ``executemany`` counts once per row); elsewhere, every statement
    SQLAlchemy sends.
    """

    def __init__(self, database: Database, verbose: bool) -> None:
        self.statements = 0
        self.commits = 0
        self.verbose = verbose
        engine = database.engine.sync_engine
        if database.sqlite:
            event.listen(engine, "connect", self._trace)
        else:
            event.listen(engine, "before_cursor_execute", self._cursor_execute)
            event.listen(engine, "commit", self._commit)

    def _trace(self, dbapi_connection: Any, record: Any) -> None:
        await_(dbapi_connection.driver_connection.set_trace_callback(self._statement))

    def _cursor_execute(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        self._statement(statement)

    def _statement(self, statement: str) -> None:
        if statement.strip().upper().startswith("COMMIT"):
            self.commits += 1
            return
        self.statements += 1
        if self.verbose:
            print("   ", " ".join(statement.split())[:140])

    def _commit(self, conn: Any) -> None:
        self.commits += 1


async def count(
    tally: Tally, totals: Counter[str], name: str, request: Callable[[], Awaitable[GameView]]
) -> GameView:
    before = tally.statements, tally.commits
    view = await request()
    statements, commits = tally.statements - before[0], tally.commits - before[1]
    totals[f"{name} statements"] += statements
    totals[f"{name} commits"] += commits
    totals["requests"] += 1
    print(f"{name:<28} {statements:>3} statements {commits:>2} commits")
    return view


async def human_game(service: GameService, tally: Tally, totals: Counter[str], place: Place) -> None:
    x, o = Actor(101, "Xavier"), Actor(102, "Olive")
    game = await count(tally, totals, "challenge", lambda: service.challenge(place, x, o, first=First.ME))
    await count(tally, totals, "set_message", lambda: _set_message(service, game))
    game = await count(tally, totals, "accept", lambda: service.accept(place, o, game.id))
    for ply, cell in enumerate(X_WINS):
        user = x if ply % 2 == 0 else o
        last = ply == len(X_WINS) - 1
        move = functools.partial(service.move, place, user, cell, game_id=game.id, expected_ply=ply)
        game = await count(tally, totals, "move (ends, rated)" if last else "move", move)


async def bot_game(service: GameService, tally: Tally, totals: Counter[str], place: Place) -> None:
    human = Actor(201, "Human")
    game = await count(
        tally, totals, "start_vs_bot", lambda: service.start_vs_bot(place, human, level=Level.PERFECT)
    )
    await count(tally, totals, "set_message", lambda: _set_message(service, game))
    while game.is_active:
        move = functools.partial(
            service.move, place, human, game.legal_moves[0], game_id=game.id, expected_ply=game.ply
        )
        game = await count(tally, totals, "move + bot reply", move)


async def _set_message(service: GameService, game: GameView) -> GameView:
    await service.set_message(game.id, game.channel_id, 900_000 + game.id)
    return game


async def main(url: str, verbose: bool) -> None:
    await upgrade_to_head(url)
    pool = EnginePool(workers=1, budget_ms=500)
    settings = ServiceSettings(start_cooldown_seconds=0, engine_workers=1)
    service = GameService(Database(url), settings, engine=pool, rng=random.Random(1))
    tally = Tally(service.database, verbose)
    try:
        for title, play in (("vs human", human_game), ("vs human, same pair again", human_game)):
            totals: Counter[str] = Counter()
            print(f"== {title}")
            await play(service, tally, totals, Place(1, 10 + len(title)))
            _summary(totals)
        totals = Counter()
        print("== vs bot (3x3, perfect)")
        await bot_game(service, tally, totals, Place(1, 20))
        _summary(totals)
    finally:
        await service.close()


def _summary(totals: Counter[str]) -> None:
    statements = sum(v for k, v in totals.items() if k.endswith("statements"))
    commits = sum(v for k, v in totals.items() if k.endswith("commits"))
    requests = totals["requests"]
    print(
        f"-- {requests} requests: {statements} statements, {commits} commits, "
        f"{statements / requests:.1f} statements per request\n"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--postgresql", action="store_true", help="use TEST_POSTGRES_URL instead of SQLite")
    parser.add_argument("--verbose", action="store_true", help="print every statement")
    arguments = parser.parse_args()
    if arguments.postgresql:
        from bench.service import postgres_database

        async def on_postgres() -> None:
            made = await postgres_database()
            assert made is not None
            url, drop = made
            try:
                await main(url, arguments.verbose)
            finally:
                await drop()

        asyncio.run(on_postgres())
    else:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite+aiosqlite:///{os.path.join(folder, 'count.sqlite3')}"
            asyncio.run(main(url, arguments.verbose))
