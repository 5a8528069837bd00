"""The write path: group commit of concurrent writers, all-or-nothing batches, and the cache of games."""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import func, select

from bot.db import Database, DatabaseUnavailableError, Game, Player
from tests.db.test_repository import NOW, PLAYER, game_values


class RefusedError(Exception):
    """A rule saying no, as the service raises it."""


async def players_stored(database: Database) -> set[int]:
    async with database.read() as repo:
        return set((await repo.session.execute(select(Player.id))).scalars())


async def add_player(database: Database, user_id: int) -> None:
    async with database.write() as repo:
        await repo.save_player(user_id, f"player {user_id}", NOW)
    # write() has returned: the row is committed, so a transaction of its own sees it.
    assert user_id in await players_stored(database)


async def test_writers_arriving_together_share_commits(database_url: str) -> None:
    database = Database(database_url)
    try:
        await asyncio.gather(*(add_player(database, 100 + n) for n in range(60)))
        assert set(range(100, 160)) <= await players_stored(database)
        batches = database.batches
        assert batches.writes == 60
        assert batches.commits < batches.writes, "every writer had a commit of its own"
    finally:
        await database.close()


async def test_writers_joining_and_leaving_at_random_all_commit(database_url: str) -> None:
    database = Database(database_url)
    rng = random.Random(5)

    async def writer(user_id: int) -> None:
        for _ in range(rng.randint(0, 3)):
            await asyncio.sleep(0)
        async with database.write() as repo:
            for _ in range(rng.randint(0, 2)):
                await asyncio.sleep(0)
            await repo.save_player(user_id, "x", NOW)

    try:
        await asyncio.gather(*(writer(1000 + n) for n in range(300)))
        assert set(range(1000, 1300)) <= await players_stored(database)
    finally:
        await database.close()


async def test_a_refusal_before_writing_leaves_the_batch_alone(database_url: str) -> None:
    database = Database(database_url)

    async def refuse() -> None:
        async with database.write() as repo:
            await repo.display_names([PLAYER])
            raise RefusedError

    try:
        results = await asyncio.gather(
            add_player(database, 201), refuse(), add_player(database, 202), return_exceptions=True
        )
        assert [type(r) for r in results] == [type(None), RefusedError, type(None)]
        assert {201, 202} <= await players_stored(database)
    finally:
        await database.close()


async def test_a_failure_after_writing_rolls_back_the_whole_batch(database_url: str) -> None:
    database = Database(database_url)
    started = asyncio.Event()

    async def first() -> None:
        async with database.write() as repo:
            await repo.save_player(301, "first", NOW)
            started.set()
            await asyncio.sleep(0.05)  # the others join this batch meanwhile

    async def wrote_then_failed() -> None:
        await started.wait()
        async with database.write() as repo:
            await repo.save_player(302, "half done", NOW)
            raise RefusedError

    async def third() -> None:
        await started.wait()
        async with database.write() as repo:
            await repo.save_player(303, "third", NOW)

    try:
        results = await asyncio.gather(first(), wrote_then_failed(), third(), return_exceptions=True)
        assert isinstance(results[0], DatabaseUnavailableError)
        assert isinstance(results[1], RefusedError)
        assert isinstance(results[2], DatabaseUnavailableError)
        assert not {301, 302, 303} & await players_stored(database), "part of a failed batch was kept"
        await add_player(database, 304)  # the next batch works
    finally:
        await database.close()


async def test_an_isolated_writer_that_fails_after_writing_undoes_only_its_own_writes(
    database_url: str,
) -> None:
    database = Database(database_url)
    started = asyncio.Event()

    async def first() -> None:
        async with database.write() as repo:
            await repo.save_player(401, "first", NOW)
            started.set()
            await asyncio.sleep(0.05)

    async def isolated() -> None:
        await started.wait()
        async with database.write(isolated=True) as repo:
            await repo.save_player(402, "undone", NOW)
            raise RefusedError

    try:
        results = await asyncio.gather(first(), isolated(), add_player(database, 403), return_exceptions=True)
        assert isinstance(results[1], RefusedError) and results[0] is None and results[2] is None
        stored = await players_stored(database)
        assert {401, 403} <= stored and 402 not in stored
    finally:
        await database.close()


async def test_a_game_changed_by_another_process_is_read_again(database_url: str) -> None:
    here, elsewhere = Database(database_url), Database(database_url)
    try:
        async with here.write() as repo:
            await repo.save_player(PLAYER, "p", NOW)
            game = await repo.add_game(**game_values(channel=501))
            assert game is not None
        async with here.write() as repo:
            cached = await repo.game(game.id, cached=True)
            assert cached is game, "a game this process wrote is served from its cache"

        async with elsewhere.write() as repo:
            theirs = await repo.game(game.id)
            assert theirs is not None and await repo.update_game(theirs, ply=1, board="X........")

        async with here.write() as repo:
            stale = await repo.game(game.id, cached=True)
            assert stale is not None and stale.version == 1
            assert not await repo.update_game(stale, ply=1, board=".X.......")
        async with here.write() as repo:
            fresh = await repo.game(game.id, cached=True)
            assert fresh is not None and (fresh.version, fresh.board) == (2, "X........")
        async with here.read() as repo:
            count = await repo.session.scalar(select(func.count()).select_from(Game))
            assert count == 1
    finally:
        await here.close()
        await elsewhere.close()


@pytest.mark.parametrize("point", ["before-move-commit", "after-move-commit"])
def test_the_kill_hook_is_off_unless_named_and_refuses_unknown_points(
    monkeypatch: pytest.MonkeyPatch, point: str
) -> None:
    from bot.db import live_games

    monkeypatch.delenv(live_games.KILL_AT_VARIABLE, raising=False)
    assert live_games._kill_point() is None
    monkeypatch.setenv(live_games.KILL_AT_VARIABLE, point)
    assert live_games._kill_point() == point
    monkeypatch.setenv(live_games.KILL_AT_VARIABLE, point.upper())
    with pytest.raises(ValueError, match=live_games.KILL_AT_VARIABLE):
        live_games._kill_point()


async def _game_with_player(database: Database, channel: int) -> Game:
    async with database.write() as repo:
        await repo.save_player(PLAYER, "p", NOW)
        game = await repo.add_game(**game_values(channel=channel))
        assert game is not None
        return game


async def test_moves_of_a_batch_survive_an_isolated_writer_that_fails_after_them(database_url: str) -> None:
    database = Database(database_url)
    try:
        game = await _game_with_player(database, 601)
        started = asyncio.Event()

        async def mover() -> None:
            async with database.write() as repo:
                await repo.add_moves(game.id, [(0, 4, "X", PLAYER)], NOW)
                started.set()
                await asyncio.sleep(0.05)  # the isolated writer joins this batch meanwhile

        async def isolated() -> None:
            await started.wait()
            async with database.write(isolated=True) as repo:
                await repo.add_moves(game.id, [(1, 0, "O", None)], NOW)
                raise RefusedError

        results = await asyncio.gather(mover(), isolated(), return_exceptions=True)
        assert results[0] is None and isinstance(results[1], RefusedError)
        async with database.read() as repo:
            assert [(m.ply, m.cell) for m in await repo.moves(game.id)] == [(0, 4)]
    finally:
        await database.close()


async def test_a_writer_reading_moves_sees_those_its_batch_stored(database_url: str) -> None:
    database = Database(database_url)
    try:
        game = await _game_with_player(database, 602)
        async with database.write() as repo:
            await repo.add_moves(game.id, [(0, 4, "X", PLAYER), (1, 0, "O", None)], NOW)
            assert [(m.ply, m.cell) for m in await repo.moves(game.id)] == [(0, 4), (1, 0)]
    finally:
        await database.close()
