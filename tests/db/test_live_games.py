"""The write path: group commit of concurrent writers, all-or-nothing batches, and the cache of games."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, func, select

from bot.db import Database, DatabaseUnavailableError, Game, LostRaceError, Player
from bot.states import Ended, Ending, EndReason, GameResult, GameStatus, Moved
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


async def _games_with_player(database: Database, channels: range) -> list[Game]:
    async with database.write() as repo:
        await repo.save_player(PLAYER, "p", NOW)
        games = [await repo.add_game(**game_values(channel=channel)) for channel in channels]
    assert all(game is not None for game in games)
    return [game for game in games if game is not None]


async def _changed_elsewhere(url: str, game_id: int) -> None:
    """Another process moves in the game (so this process's cached copy is outdated)."""
    elsewhere = Database(url)
    try:
        async with elsewhere.write() as repo:
            theirs = await repo.game(game_id)
            assert theirs is not None
            await repo.apply(theirs, Moved("....X....", 1, 4, None, NOW))
    finally:
        await elsewhere.close()


async def _stored(database: Database, game_id: int) -> tuple[int, str, list[int]]:
    """The stored version, board and cells of the moves of a game."""
    async with database.read() as repo:
        game = await repo.game(game_id)
        assert game is not None
        return game.version, game.board, [move.cell for move in await repo.moves(game_id)]


class _OneBatch:
    """Writers that join one batch: each body waits until every writer has joined."""

    def __init__(self, count: int) -> None:
        self._count = count
        self._joined = 0
        self.all_joined = asyncio.Event()

    def joining(self) -> None:
        """Called right before a writer enters ``Database.write()`` (which joins without waiting)."""
        self._joined += 1
        if self._joined == self._count:
            self.all_joined.set()


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
    batch = _OneBatch(3)

    async def first() -> None:
        batch.joining()
        async with database.write() as repo:
            await batch.all_joined.wait()
            await repo.save_player(301, "first", NOW)

    async def wrote_then_failed() -> None:
        batch.joining()
        async with database.write() as repo:
            await repo.set_server_language(302, "fr", NOW)
            raise RefusedError

    async def third() -> None:
        batch.joining()
        async with database.write() as repo:
            await repo.save_player(303, "third", NOW)

    try:
        results = await asyncio.gather(first(), wrote_then_failed(), third(), return_exceptions=True)
        assert isinstance(results[0], DatabaseUnavailableError)
        assert isinstance(results[1], RefusedError)
        assert isinstance(results[2], DatabaseUnavailableError)
        assert not {301, 303} & await players_stored(database), "part of a failed batch was kept"
        async with database.read() as repo:
            assert await repo.server_language(302) is None, "the failed writer's write was kept"
        await add_player(database, 304)  # the next batch works
    finally:
        await database.close()


async def test_a_start_refused_by_the_channels_live_game_leaves_the_batch_alone(database_url: str) -> None:
    database = Database(database_url)
    try:
        await _games_with_player(database, range(401, 402))
        batch = _OneBatch(3)

        async def start_in(channel: int, user_id: int) -> int:
            batch.joining()
            async with database.write() as repo:
                await batch.all_joined.wait()
                await repo.save_player(user_id, f"starter {user_id}", NOW)
                game = await repo.add_game(**game_values(channel=channel))
                if game is None:
                    raise RefusedError
                return game.id

        commits = database.batches.commits
        results = await asyncio.gather(
            start_in(402, 411), start_in(401, 412), start_in(403, 413), return_exceptions=True
        )
        assert isinstance(results[0], int) and isinstance(results[2], int)
        assert isinstance(results[1], RefusedError)
        assert database.batches.commits == commits + 1, "the three starts did not share one batch"
        assert {411, 412, 413} <= await players_stored(database), "a display name was not kept"
        async with database.read() as repo:
            assert [game.id for game in [await repo.live_game(c) for c in (402, 403)] if game] == [
                results[0],
                results[2],
            ]
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


async def test_a_writer_reading_moves_sees_those_its_batch_stored(database_url: str) -> None:
    database = Database(database_url)
    try:
        (game,) = await _games_with_player(database, range(602, 603))
        async with database.write() as repo:
            await repo.add_moves(game.id, [(0, 4, "X", PLAYER), (1, 0, "O", None)], NOW)
            assert [(m.ply, m.cell) for m in await repo.moves(game.id)] == [(0, 4), (1, 0)]
    finally:
        await database.close()


async def test_a_batch_decides_its_changes_together_and_takes_out_only_the_writer_that_lost(
    database_url: str,
) -> None:
    database = Database(database_url)
    try:
        games = await _games_with_player(database, range(701, 704))
        await _changed_elsewhere(database_url, games[1].id)
        batch = _OneBatch(len(games))

        async def mover(game_id: int) -> None:
            batch.joining()
            async with database.write() as repo:
                await batch.all_joined.wait()
                game = await repo.game(game_id, cached=True)
                assert game is not None
                await repo.apply(game, Moved("X........", 1, 0, None, NOW))
                await repo.add_moves(game_id, [(0, 0, "X", PLAYER)], NOW)

        commits = database.batches.commits
        results = await asyncio.gather(*(mover(game.id) for game in games), return_exceptions=True)
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], LostRaceError)
        assert database.batches.commits == commits + 1, "the three writers did not share one batch"
        for kept in (games[0], games[2]):
            assert await _stored(database, kept.id) == (2, "X........", [0])
        assert await _stored(database, games[1].id) == (2, "....X....", []), "the lost writer's move was kept"
        async with database.write() as repo:
            fresh = await repo.game(games[1].id, cached=True)
            assert fresh is not None and fresh.board == "....X....", "the lost game stayed cached"
    finally:
        await database.close()


async def test_a_writer_that_lost_hears_it_at_its_next_statement(database_url: str) -> None:
    database = Database(database_url)
    try:
        (game,) = await _games_with_player(database, range(711, 712))
        async with database.write() as repo:
            assert await repo.game(game.id, cached=True) is game
        await _changed_elsewhere(database_url, game.id)
        with pytest.raises(LostRaceError):
            async with database.write() as repo:
                await repo.apply(game, Moved("X........", 1, 0, None, NOW))
                await repo.add_moves(game.id, [(0, 0, "X", PLAYER)], NOW)
                assert await repo.live_game(game.channel_id + 1) is None  # reads no game of this one
                await repo.live_game(game.channel_id)
                pytest.fail("the statement after a lost change ran")
        assert await _stored(database, game.id) == (2, "....X....", [])
    finally:
        await database.close()


async def test_a_refusal_after_a_waiting_change_takes_out_only_that_writer(database_url: str) -> None:
    database = Database(database_url)
    try:
        games = await _games_with_player(database, range(721, 723))
        batch = _OneBatch(2)

        async def refuses_after_moving() -> None:
            batch.joining()
            async with database.write() as repo:
                await batch.all_joined.wait()
                game = await repo.game(games[0].id, cached=True)
                assert game is not None
                await repo.apply(game, Moved("X........", 1, 0, None, NOW))
                await repo.add_moves(game.id, [(0, 0, "X", PLAYER)], NOW)
                raise RefusedError

        async def moves() -> None:
            batch.joining()
            async with database.write() as repo:
                game = await repo.game(games[1].id, cached=True)
                assert game is not None
                await repo.apply(game, Moved("X........", 1, 0, None, NOW))
                await repo.add_moves(game.id, [(0, 0, "X", PLAYER)], NOW)

        results = await asyncio.gather(refuses_after_moving(), moves(), return_exceptions=True)
        assert isinstance(results[0], RefusedError) and results[1] is None
        assert await _stored(database, games[0].id) == (1, "." * 9, [])
        assert await _stored(database, games[1].id) == (2, "X........", [0])
        async with database.write() as repo:
            again = await repo.game(games[0].id, cached=True)
            assert again is not None and (again.version, again.board) == (1, "." * 9)
    finally:
        await database.close()


async def test_a_game_with_a_change_waiting_is_served_once_it_is_decided(
    database_url: str,
) -> None:
    database = Database(database_url)
    try:
        (game,) = await _games_with_player(database, range(731, 732))
        async with database.write() as repo:
            assert await repo.game(game.id, cached=True) is game
        await _changed_elsewhere(database_url, game.id)
        batch = _OneBatch(2)
        seen: list[tuple[int, str]] = []

        async def moves_on_the_outdated_copy() -> None:
            batch.joining()
            async with database.write() as repo:
                await batch.all_joined.wait()
                await repo.apply(game, Moved("X........", 1, 0, None, NOW))

        async def reads_the_game() -> None:
            batch.joining()
            async with database.write() as repo:
                read = await repo.game(game.id, cached=True)
                assert read is not None
                seen.append((read.version, read.board))

        results = await asyncio.gather(moves_on_the_outdated_copy(), reads_the_game(), return_exceptions=True)
        assert isinstance(results[0], LostRaceError) and results[1] is None
        assert seen == [(2, "....X....")], "a change that did not apply was read as if it had"
    finally:
        await database.close()


async def test_a_board_message_recorded_in_a_batch_is_kept_with_it_or_taken_out_with_its_writer(
    database_url: str,
) -> None:
    database = Database(database_url)
    try:
        games = await _games_with_player(database, range(741, 743))
        batch = _OneBatch(2)

        async def records_then_refuses() -> None:
            batch.joining()
            async with database.write() as repo:
                await batch.all_joined.wait()
                assert await repo.set_message(games[0].id, 741, 111)
                raise RefusedError

        async def records() -> None:
            batch.joining()
            async with database.write() as repo:
                assert await repo.set_message(games[1].id, 742, 222)

        results = await asyncio.gather(records_then_refuses(), records(), return_exceptions=True)
        assert isinstance(results[0], RefusedError) and results[1] is None
        async with database.read() as repo:
            stored = [await repo.game(game.id) for game in games]
        assert [(game.message_channel_id, game.message_id) for game in stored if game] == [
            (None, None),
            (742, 222),
        ]
        async with database.write() as repo:
            again = await repo.game(games[0].id, cached=True)
            assert again is not None and again.message_id is None, "the refused record stayed cached"
            assert not await repo.set_message(10**6, 741, 333), "a game that does not exist took a message"
    finally:
        await database.close()


async def test_a_batch_sends_board_messages_and_moves_of_the_same_games_together(database_url: str) -> None:
    """One writer records a game's board message while another moves in that game, and a third
    game gets both from one writer: every change is kept, in one commit."""
    database = Database(database_url)
    try:
        games = await _games_with_player(database, range(751, 753))
        async with database.write() as repo:  # both games cached, so their messages wait with a batch
            for game in games:
                assert await repo.game(game.id, cached=True) is not None
        batch = _OneBatch(3)

        async def records(game_id: int, message_id: int) -> None:
            batch.joining()
            async with database.write() as repo:
                await batch.all_joined.wait()
                assert await repo.set_message(game_id, 750, message_id)

        async def moves(game_id: int, message_id: int | None) -> None:
            batch.joining()
            async with database.write() as repo:
                await batch.all_joined.wait()
                game = await repo.game(game_id, cached=True)
                assert game is not None
                await repo.apply(game, Moved("X........", 1, 0, None, NOW))
                await repo.add_moves(game_id, [(0, 0, "X", PLAYER)], NOW)
                if message_id is not None:
                    assert await repo.set_message(game_id, 750, message_id)

        commits = database.batches.commits
        await asyncio.gather(records(games[0].id, 501), moves(games[0].id, None), moves(games[1].id, 502))
        assert database.batches.commits == commits + 1, "the three writers did not share one batch"
        async with database.read() as repo:
            stored = [await repo.game(game.id) for game in games]
        assert [(g.message_id, g.version, g.board) for g in stored if g] == [
            (501, 2, "X........"),
            (502, 2, "X........"),
        ]
        for game in games:
            assert await _stored(database, game.id) == (2, "X........", [0])
    finally:
        await database.close()


@pytest.mark.parametrize("same_pair", [True, False])
async def test_a_count_of_a_pairs_games_settles_only_the_changes_of_games_they_play(
    database_url: str, same_pair: bool
) -> None:
    """A finish waiting in the batch is counted when it is a game of the pair; a change of another
    pair's game stays waiting (no statement is sent for it before the count)."""
    database = Database(database_url)
    try:
        for player in (PLAYER, PLAYER + 1, PLAYER + 2, PLAYER + 3):
            await add_player(database, player)
        async with database.write() as repo:
            game = await repo.add_game(**game_values(channel=781, o_player_id=PLAYER + 1, level=None))
        assert game is not None
        pair = (PLAYER, PLAYER + 1) if same_pair else (PLAYER + 2, PLAYER + 3)
        sent: list[str] = []
        batch = _OneBatch(2)

        async def finishes() -> None:
            batch.joining()
            async with database.write() as repo:
                cached = await repo.game(game.id, cached=True)
                assert cached is not None
                ending = Ending(GameStatus.FINISHED, EndReason.RESIGN, GameResult.X_WON)
                await repo.apply(cached, Ended(ending, NOW))
                await batch.all_joined.wait()

        async def counts() -> int:
            batch.joining()
            async with database.write() as repo:
                await batch.all_joined.wait()
                return await repo.games_between_since(*pair, NOW - timedelta(days=1), exclude_game_id=0)

        def note(*args: Any) -> None:  # SQLite's compare-and-sets go to the driver unseen: PostgreSQL only
            statement = args[2]
            if "count(*)" in statement:
                sent.append("count")
            elif "UPDATE games" in statement:
                sent.append("update")

        event.listen(database.engine.sync_engine, "before_cursor_execute", note)
        _, counted = await asyncio.gather(finishes(), counts())
        assert counted == (1 if same_pair else 0)
        if database.engine.dialect.name == "postgresql":
            assert sent == (["update", "count"] if same_pair else ["count", "update"])
    finally:
        await database.close()


async def test_a_start_sees_the_channel_freed_by_a_change_waiting_in_its_batch(database_url: str) -> None:
    database = Database(database_url)
    try:
        (game,) = await _games_with_player(database, range(751, 752))
        batch = _OneBatch(2)
        started: list[int] = []

        async def ends_the_game() -> None:
            batch.joining()
            async with database.write() as repo:
                await batch.all_joined.wait()
                cached = await repo.game(game.id, cached=True)
                assert cached is not None
                await repo.apply(cached, Ended(Ending(GameStatus.CANCELLED, EndReason.CANCEL), NOW))

        async def starts_in_the_channel() -> None:
            batch.joining()
            async with database.write() as repo:
                assert await repo.live_game(751) is None
                new = await repo.add_game(**game_values(channel=751))
                assert new is not None
                started.append(new.id)

        results = await asyncio.gather(ends_the_game(), starts_in_the_channel(), return_exceptions=True)
        assert list(results) == [None, None]
        async with database.read() as repo:
            live = await repo.live_game(751)
            assert live is not None and [live.id] == started
    finally:
        await database.close()
