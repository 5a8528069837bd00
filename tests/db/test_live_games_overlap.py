"""PostgreSQL: a batch's writers run while the batch before it finishes.

A deferred constraint trigger on ``server_settings`` makes a chosen batch's commit wait on an
advisory lock the test holds (and, for the language ``xx``, fail), so the test decides when
that commit ends and how; a trigger on ``moves`` likewise holds the last statement of a batch
that stores a move in cell 8.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.db import Database, DatabaseUnavailableError, Game, LostRaceError
from bot.states import Moved
from tests.db.test_live_games import _games_with_player, _OneBatch
from tests.db.test_repository import NOW, PLAYER

pytestmark = pytest.mark.postgres

LOCK = 4242
WAIT_LIMIT = 10.0
"""Seconds a test waits for something that should happen at once before it fails."""

_TRIGGER = [
    f"""CREATE FUNCTION ttt_test_held_commit() RETURNS trigger AS $$
    BEGIN
        PERFORM pg_advisory_xact_lock({LOCK});
        IF NEW.language = 'xx' THEN RAISE EXCEPTION 'this commit is refused'; END IF;
        RETURN NULL;
    END $$ LANGUAGE plpgsql""",
    """CREATE CONSTRAINT TRIGGER ttt_test_held_commit AFTER INSERT OR UPDATE ON server_settings
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ttt_test_held_commit()""",
]


_MOVES_TRIGGER = [
    f"""CREATE FUNCTION ttt_test_held_move() RETURNS trigger AS $$
    BEGIN
        IF NEW.cell = 8 THEN PERFORM pg_advisory_xact_lock({LOCK}); END IF;
        RETURN NEW;
    END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER ttt_test_held_move BEFORE INSERT ON moves
    FOR EACH ROW EXECUTE FUNCTION ttt_test_held_move()""",
]


@asynccontextmanager
async def _lock_held(url: str, name: str, trigger: list[str], table: str) -> AsyncIterator[AsyncConnection]:
    """A connection holding the lock that ``trigger`` (a function and a trigger, both ``name``) makes
    statements on ``table`` wait for; both are dropped at the end."""
    database = Database(url)
    async with database.engine.connect() as holder:
        await holder.execution_options(isolation_level="AUTOCOMMIT")
        for statement in trigger:
            await holder.execute(text(statement))
        await holder.execute(text(f"SELECT pg_advisory_lock({LOCK})"))
        try:
            yield holder
        finally:
            await holder.execute(text("SELECT pg_advisory_unlock_all()"))
            await holder.execute(text(f"DROP TRIGGER {name} ON {table}"))
            await holder.execute(text(f"DROP FUNCTION {name}()"))
    await database.close()


@pytest.fixture
async def held_commits(postgres_session_url: str) -> AsyncIterator[AsyncConnection]:
    """A connection holding the lock that a commit storing a server's language waits for."""
    async with _lock_held(
        postgres_session_url, "ttt_test_held_commit", _TRIGGER, "server_settings"
    ) as holder:
        yield holder


@pytest.fixture
async def held_moves(postgres_session_url: str) -> AsyncIterator[AsyncConnection]:
    """A connection holding the lock that a batch's statement storing a move in cell 8 waits for."""
    async with _lock_held(postgres_session_url, "ttt_test_held_move", _MOVES_TRIGGER, "moves") as holder:
        yield holder


@pytest.fixture
async def database(postgres_session_url: str) -> AsyncIterator[Database]:
    db = Database(postgres_session_url)
    yield db
    await db.close()


async def _held_commit(
    database: Database, game: Game, language: str, holder: AsyncConnection
) -> asyncio.Task[None]:
    """A batch that moves in ``game`` and stores ``language``, once its commit waits for the held lock."""
    committing = asyncio.create_task(_move_and_store_language(database, game, language))
    await _until_held(holder)
    return committing


async def _until_held(holder: AsyncConnection) -> None:
    """Wait until a transaction waits for the lock the test holds."""
    query = text(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = :key AND NOT granted"
        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    ).bindparams(key=LOCK)
    async with asyncio.timeout(WAIT_LIMIT):
        while (await holder.execute(query)).scalar_one() == 0:  # noqa: ASYNC110 (the server tells no one)
            await asyncio.sleep(0.01)


async def _move(database: Database, game: Game, cell: int, ply: int = 0) -> None:
    """One writer: a move of X in ``cell`` of the cached ``game``, stored with the batch."""
    async with database.write() as repo:
        cached = await repo.game(game.id, cached=True)
        assert cached is not None
        board = cached.board[:cell] + "XO"[ply % 2] + cached.board[cell + 1 :]
        await repo.apply(cached, Moved(board, ply + 1, cell, None, NOW))
        await repo.add_moves(game.id, [(ply, cell, "XO"[ply % 2], PLAYER if ply % 2 == 0 else None)], NOW)


async def _release(holder: AsyncConnection) -> None:
    """Let the held commit go on."""
    await holder.execute(text(f"SELECT pg_advisory_unlock({LOCK})"))


async def _move_and_store_language(database: Database, game: Game, language: str) -> None:
    async with database.write() as repo:
        await repo.set_server_language(9, language, NOW)
        cached = await repo.game(game.id, cached=True)
        assert cached is not None
        await repo.apply(cached, Moved("X........", 1, 0, None, NOW))


async def _stored(database: Database, game_id: int) -> tuple[int, str]:
    async with database.read() as repo:
        game = await repo.game(game_id)
        assert game is not None
        return game.version, game.board


async def test_a_batch_commits_while_the_one_before_it_waits_for_its_commit(
    database: Database, held_commits: AsyncConnection
) -> None:
    first, second = await _games_with_player(database, range(761, 763))
    waiting = await _held_commit(database, first, "fr", held_commits)
    async with asyncio.timeout(WAIT_LIMIT), database.write() as repo:
        cached = await repo.game(second.id, cached=True)
        assert cached is not None
        await repo.apply(cached, Moved("....X....", 1, 4, None, NOW))
    assert not waiting.done(), "the first batch's commit did not wait for the lock"
    assert await _stored(database, second.id) == (2, "....X....")
    await _release(held_commits)
    await waiting
    assert await _stored(database, first.id) == (2, "X........")


async def test_a_game_changed_by_a_batch_still_committing_is_built_on_once_that_batch_ended(
    database: Database, held_commits: AsyncConnection
) -> None:
    (game,) = await _games_with_player(database, range(771, 772))
    failing = await _held_commit(database, game, "xx", held_commits)
    seen: list[int] = []
    reading = asyncio.Event()

    async def moves_next() -> None:
        async with database.write() as repo:
            reading.set()
            cached = await repo.game(game.id, cached=True)
            assert cached is not None
            seen.append(cached.version)
            await repo.apply(cached, Moved("....X....", 1, 4, None, NOW))

    next_move = asyncio.create_task(moves_next())
    await reading.wait()  # it reads its game now, unless it must wait for the batch before
    await _release(held_commits)
    with pytest.raises(DatabaseUnavailableError):
        await failing
    async with asyncio.timeout(WAIT_LIMIT):
        await next_move
    assert seen == [1], "the next batch built on a change that was then rolled back"
    assert await _stored(database, game.id) == (2, "....X....")


async def test_a_read_while_a_batch_commits_leaves_that_batchs_copy_in_the_cache(
    database: Database, held_commits: AsyncConnection
) -> None:
    (game,) = await _games_with_player(database, range(781, 782))
    waiting = await _held_commit(database, game, "fr", held_commits)
    async with asyncio.timeout(WAIT_LIMIT), database.write() as repo:
        before = await repo.game(game.id)
        assert before is not None and before.version == 1, "an uncommitted change was read"
    await _release(held_commits)
    await waiting
    async with database.write() as repo:
        cached = await repo.game(game.id, cached=True)
        assert cached is not None and (cached.version, cached.board) == (2, "X........")


async def test_a_batch_runs_while_the_one_before_it_sends_its_last_statement(
    database: Database, held_moves: AsyncConnection
) -> None:
    first, second = await _games_with_player(database, range(791, 793))
    finishing = asyncio.create_task(_move(database, first, 8))
    await _until_held(held_moves)
    async with asyncio.timeout(WAIT_LIMIT):
        await _move(database, second, 0)
    assert not finishing.done(), "the first batch's last statement did not wait for the lock"
    assert await _stored(database, second.id) == (2, "X........")
    next_in_first = asyncio.create_task(_move(database, first, 0, ply=1))
    await _release(held_moves)
    async with asyncio.timeout(WAIT_LIMIT):
        await finishing
        await next_in_first
    assert await _stored(database, first.id) == (3, "O.......X")


@pytest.mark.parametrize("sent", ["at once", "by a read"])
async def test_a_game_the_finishing_batch_changes_is_not_written_by_the_next_until_it_ended(
    database: Database, held_commits: AsyncConnection, sent: str
) -> None:
    """The finishing batch waits (for the held batch before it) before sending its change of
    ``first``; the next batch's writer, which writes ``first`` (its change sent at once, or waiting
    until a read of games sends it) and then needs a game the finishing batch touched, must not lock
    ``first`` meanwhile: the finishing batch's statement would wait for that lock while that writer
    waits for the finishing batch, and neither would end.
    """
    channels = range(801, 804) if sent == "at once" else range(811, 814)
    held, first, seen = await _games_with_player(database, channels)
    async with database.write() as repo:
        assert await repo.game(seen.id, cached=True) is not None
    committing = await _held_commit(database, held, "fr", held_commits)
    last_body = asyncio.Event()
    finishing_batch = _OneBatch(3)

    async def moves_read_by_channel(game: Game) -> None:
        """Reads the game by its channel: a read that leaves the other channels' changes waiting."""
        finishing_batch.joining()
        async with database.write() as repo:
            await finishing_batch.all_joined.wait()
            fresh = await repo.live_game(game.channel_id)
            assert fresh is not None and fresh.id == game.id
            await repo.apply(fresh, Moved("X........", 1, 0, None, NOW))

    async def reads_cached() -> None:
        finishing_batch.joining()
        async with database.write() as repo:
            await finishing_batch.all_joined.wait()
            last_body.set()  # a writer joining from now on forms the next batch
            assert await repo.game(seen.id, cached=True) is not None

    finishing = [
        asyncio.create_task(moves_read_by_channel(held)),  # its change waits for the held batch
        asyncio.create_task(moves_read_by_channel(first)),
        asyncio.create_task(reads_cached()),
    ]
    await last_body.wait()
    first_read_again = asyncio.Event()

    def note(*args: Any) -> None:
        if "WHERE games.id =" in args[2] and tuple(args[3] or ())[:1] == (first.id,):
            first_read_again.set()

    async def writes_first() -> None:
        async with database.write() as repo:
            if sent == "at once":
                await repo.set_server_language(8, "de", NOW)  # a write of its own: no change waits
            fresh = await repo.game(first.id)
            assert fresh is not None
            await repo.apply(fresh, Moved(".X.......", 1, 1, None, NOW))
            if sent == "by a read":
                await repo.game(held.id)
            await repo.game(seen.id, cached=True)

    event.listen(database.engine.sync_engine, "after_cursor_execute", note)
    next_batch = asyncio.create_task(writes_first())
    async with asyncio.timeout(WAIT_LIMIT):
        await first_read_again.wait()
    await _release(held_commits)
    async with asyncio.timeout(WAIT_LIMIT):
        await committing
        results = await asyncio.gather(*finishing, next_batch, return_exceptions=True)
    assert isinstance(results[0], LostRaceError), "a change built on a version the held batch replaced"
    assert results[1] is None and results[2] is None, results
    assert isinstance(results[3], LostRaceError), "the next batch changed a game the finishing one changed"
    assert await _stored(database, first.id) == (2, "X........")
