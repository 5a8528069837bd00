"""The write path's guarantees (:mod:`bot.db.live_games`): writers that arrive together share one
commit; a lost race takes out its writer alone; a body that fails after writing fails its batch
and takes its games out of the cache; the cache holds only committed records; and two processes
on one PostgreSQL server never both apply a change of a game."""

from __future__ import annotations

import asyncio
import itertools
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import select

from bot.db import Database, DatabaseUnavailableError, GameRecord, LostRaceError, Repository
from bot.db.live_games import GameCache
from bot.db.models import Player
from bot.states import Moved
from tests.db.test_repository import NOW, PLAYER, game_values


class RefusedError(Exception):
    """A rule saying no, as the service raises it."""


Body = Callable[[Repository], Awaitable[Any]]
CHANNELS = itertools.count(random.randrange(1 << 40))
"""Channels of the games made here: each has its own, free of another test's live game."""


async def in_one_batch(database: Database, *bodies: Body) -> list[Any]:
    """Run each body in a write of its own, all joining one batch: the first body starts only
    once every writer has entered ``write()`` (a writer joins the open batch when it enters)."""
    entered = asyncio.Event()

    async def writer(index: int, body: Body) -> Any:
        async with database.write() as repo:
            if index == 0:
                await entered.wait()
            return await body(repo)

    tasks = [asyncio.ensure_future(writer(i, body)) for i, body in enumerate(bodies)]
    for _ in bodies:  # each task enters write() at its first step
        await asyncio.sleep(0)
    entered.set()
    return await asyncio.gather(*tasks, return_exceptions=True)


async def new_games(database: Database, count: int) -> list[GameRecord]:
    async with database.write() as repo:
        await repo.save_players([(PLAYER, "p")], NOW)
        games = [await repo.add_game(**game_values(channel=next(CHANNELS))) for _ in range(count)]
    return [game for game in games if game is not None]


def move(cell: int) -> Moved:
    board = ["."] * 9
    board[cell] = "X"
    return Moved("".join(board), 1, cell, None, NOW)


async def played(repo: Repository, game: GameRecord, cell: int) -> GameRecord:
    """Store X's first move in ``game`` (read from the cache), as the service does."""
    seen = await repo.game(game.id, cached=True)
    assert seen is not None
    return await repo.apply(seen, move(cell), [(0, cell, "X", PLAYER)])


async def stored(database: Database, game_id: int) -> tuple[int, list[int]]:
    """The stored version of a game and the cells of its stored moves."""
    async with database.read() as repo:
        game = await repo.game(game_id)
        assert game is not None
        return game.version, [m.cell for m in await repo.moves(game_id)]


@pytest.fixture
async def database(database_url: str) -> Any:
    db = Database(database_url)
    try:
        yield db
    finally:
        await db.close()


async def test_writers_that_arrive_together_share_one_commit(database: Database) -> None:
    games = await new_games(database, 5)
    before = database.batches.commits
    results = await in_one_batch(database, *(lambda repo, g=g: played(repo, g, 4) for g in games))
    assert database.batches.commits == before + 1
    assert all(isinstance(result, GameRecord) and result.version == 2 for result in results)
    for game in games:
        assert await stored(database, game.id) == (2, [4])


async def test_a_writer_returns_only_after_its_commit(database: Database) -> None:
    async with database.write() as repo:
        await repo.save_players([(4242, "committed")], NOW)
    async with database.engine.connect() as other:
        names = (await other.execute(select(Player.display_name).where(Player.id == 4242))).scalars().all()
    assert names == ["committed"]


async def test_a_later_body_of_the_batch_sees_what_an_earlier_one_wrote(database: Database) -> None:
    [game] = await new_games(database, 1)

    async def second(repo: Repository) -> tuple[int, int]:
        cached = await repo.game(game.id, cached=True)
        fresh = await repo.game(game.id)
        assert cached is not None and fresh is not None
        return cached.version, fresh.version

    first, seen = await in_one_batch(database, lambda repo: played(repo, game, 0), second)
    assert isinstance(first, GameRecord) and seen == (2, 2)


async def test_a_lost_race_takes_out_only_its_writer(database: Database, database_url: str) -> None:
    games = await new_games(database, 3)
    async with database.write() as repo:  # the games are now in this process's cache, at version 1
        for game in games:
            await repo.game(game.id)
    elsewhere = Database(database_url)
    try:
        async with elsewhere.write() as repo:
            await repo.apply(games[1], move(8))
    finally:
        await elsewhere.close()
    results = await in_one_batch(database, *(lambda repo, g=g: played(repo, g, 4) for g in games))
    assert isinstance(results[0], GameRecord) and isinstance(results[2], GameRecord)
    assert isinstance(results[1], LostRaceError)
    assert await stored(database, games[0].id) == (2, [4])
    assert await stored(database, games[1].id) == (2, []), "the loser stored its move"
    assert await stored(database, games[2].id) == (2, [4])
    assert database.live_games.get(games[1].id) is None, "the outdated record stays cached"


async def test_a_refusal_before_writing_leaves_the_batch_alone(database: Database) -> None:
    games = await new_games(database, 2)

    async def refuse(repo: Repository) -> None:
        await repo.save_players([(PLAYER, "renamed")], NOW)  # a name binds no writer
        await repo.game(games[1].id)
        raise RefusedError

    results = await in_one_batch(database, lambda repo: played(repo, games[0], 4), refuse)
    assert isinstance(results[0], GameRecord) and isinstance(results[1], RefusedError)
    assert await stored(database, games[0].id) == (2, [4])


async def test_a_failure_after_writing_rolls_back_the_batch_and_empties_its_games_from_the_cache(
    database: Database,
) -> None:
    games = await new_games(database, 3)
    async with database.write() as repo:
        for game in games:
            await repo.game(game.id)
    assert all(database.live_games.get(game.id) is not None for game in games)

    async def fail(repo: Repository) -> None:
        await played(repo, games[1], 4)
        raise RefusedError

    results = await in_one_batch(
        database, lambda repo: played(repo, games[0], 4), fail, lambda repo: played(repo, games[2], 4)
    )
    unavailable = DatabaseUnavailableError
    assert [type(result) for result in results] == [unavailable, RefusedError, unavailable]
    for game in games:
        assert await stored(database, game.id) == (1, [])
    assert all(database.live_games.get(game.id) is None for game in games[:2])
    async with database.write() as repo:  # the next batch works
        assert (await played(repo, games[0], 0)).version == 2


async def test_the_cache_holds_a_change_only_once_it_is_committed(database: Database) -> None:
    [game] = await new_games(database, 1)
    async with database.write() as repo:
        await repo.game(game.id)
    written = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        async with database.write() as repo:
            await played(repo, game, 4)
            written.set()
            await release.wait()

    task = asyncio.ensure_future(writer())
    await written.wait()
    cached = database.live_games.get(game.id)
    assert cached is not None and cached.version == 1, "an undecided change is cached"
    release.set()
    await task
    cached = database.live_games.get(game.id)
    assert cached is not None and cached.version == 2 and cached.board == "....X...."


@pytest.mark.postgres
async def test_two_processes_never_both_apply_a_move(postgres_session_url: str) -> None:
    mine, theirs = Database(postgres_session_url), Database(postgres_session_url)
    try:
        games = await new_games(mine, 20)
        for database in (mine, theirs):  # both processes cache every game at version 1
            async with database.write() as repo:
                for game in games:
                    await repo.game(game.id)

        async def play_all(database: Database, cell: int) -> list[Any]:
            return await in_one_batch(database, *(lambda repo, g=g: played(repo, g, cell) for g in games))

        first, second = await asyncio.gather(play_all(mine, 0), play_all(theirs, 8))
        for game, a, b in zip(games, first, second, strict=True):
            outcomes = sorted(type(result).__name__ for result in (a, b))
            assert outcomes in (["GameRecord", "LostRaceError"], ["DatabaseUnavailableError", "GameRecord"])
            version, cells = await stored(mine, game.id)
            assert version == 2 and len(cells) == 1
    finally:
        await mine.close()
        await theirs.close()


def test_the_cache_keeps_the_most_recently_used_records() -> None:
    cache = GameCache(size=2)
    unset = dict.fromkeys(GameRecord.__dataclass_fields__)
    records = [GameRecord(**{**unset, **game_values(), "id": n}) for n in range(3)]
    cache.put(records[0])
    cache.put(records[1])
    assert cache.get(0) is records[0]
    cache.put(records[2])
    assert cache.get(1) is None and cache.get(0) is records[0] and cache.get(2) is records[2]
