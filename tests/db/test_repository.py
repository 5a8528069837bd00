"""The repository's guards: compare-and-set on the version, and one live game per channel."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.db import Database, LostRaceError, Repository
from bot.states import Ended, Ending, EndReason, GameStatus, Moved

NOW = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)
CHANNEL = 42
PLAYER = 7


def game_values(
    channel: int = CHANNEL, status: GameStatus = GameStatus.ACTIVE, **extra: Any
) -> dict[str, Any]:
    values: dict[str, Any] = {
        "guild_id": 1,
        "channel_id": channel,
        "size": 3,
        "k": 3,
        "level": "perfect",
        "x_player_id": PLAYER,
        "o_player_id": None,
        "created_by": PLAYER,
        "status": status,
        "board": "." * 9,
        "ply": 0,
        "version": 1,
        "created_at": NOW,
        "updated_at": NOW,
    }
    values.update(extra)
    return values


@pytest.fixture
async def database(database_url: str) -> Any:
    db = Database(database_url)
    async with db.write() as repo:
        await repo.save_players([(PLAYER, "Seven")], NOW)
    yield db
    await db.close()


async def test_one_live_game_per_channel_is_kept_by_the_database(database: Database) -> None:
    async with database.write() as repo:
        first = await repo.add_game(**game_values())
        assert first is not None
        assert await repo.add_game(**game_values(status=GameStatus.PENDING)) is None
        assert await repo.add_game(**game_values(channel=CHANNEL + 1)) is not None
        assert await repo.add_game(**game_values(status=GameStatus.FINISHED)) is not None
    async with database.write() as repo:
        assert await repo.add_game(**game_values()) is None
    async with database.write() as repo:
        game = await repo.game(first.id)
        assert game is not None
        await repo.apply(game, Ended(Ending(GameStatus.CANCELLED, EndReason.CANCEL), NOW))
    async with database.write() as repo:
        assert await repo.add_game(**game_values()) is not None
    async with database.read() as repo:
        live = await repo.live_game(CHANNEL)
        assert live is not None and live.id != first.id


async def test_compare_and_set_applies_one_of_two_writers_with_the_same_version(database: Database) -> None:
    async with database.write() as repo:
        created = await repo.add_game(**game_values())
        assert created is not None
    seen = []
    for _ in range(2):
        async with database.read() as repo:
            game = await repo.game(created.id)
            assert game is not None and game.version == 1
            seen.append(game)
    async with database.write() as repo:
        changed = await repo.apply(seen[0], Moved("X" + "." * 8, 1, 0, None, NOW))
    assert changed.version == 2 and changed.ply == 1
    assert seen[0].version == 1, "a record is replaced, never changed"
    with pytest.raises(LostRaceError):
        async with database.write() as repo:
            await repo.apply(seen[1], Moved(".X" + "." * 7, 1, 1, None, NOW))
    async with database.read() as repo:
        stored = await repo.game(created.id)
        assert stored is not None and stored.board == "X" + "." * 8 and stored.version == 2


@pytest.mark.postgres
async def test_compare_and_set_holds_between_concurrent_postgres_transactions(
    postgres_session_url: str,
) -> None:
    """Two transactions read version 1 and update at once: the second waits for the first, then finds none."""
    database = Database(postgres_session_url)
    try:
        async with database.write() as repo:
            await repo.save_players([(PLAYER, "Seven")], NOW)
            created = await repo.add_game(**game_values(channel=99_999))
            assert created is not None
        both_read = asyncio.Barrier(2)

        async def writer(cell: int) -> bool:
            async with database.engine.connect() as connection, connection.begin():
                repo = Repository(connection)
                game = await repo.game(created.id)
                assert game is not None and game.version == 1
                await both_read.wait()
                board = ["."] * 9
                board[cell] = "X"
                try:
                    await repo.apply(game, Moved("".join(board), 1, cell, None, NOW))
                except LostRaceError:
                    return False
                return True

        assert sorted(await asyncio.gather(writer(0), writer(1))) == [False, True]
    finally:
        await database.close()


async def test_set_message_does_not_change_the_version(database: Database) -> None:
    async with database.write() as repo:
        game = await repo.add_game(**game_values())
        assert game is not None
    async with database.write() as repo:
        assert await repo.set_message(game.id, 5, 6) == game.version
        assert await repo.set_message(game.id + 100, 5, 6) is None
    async with database.read() as repo:
        stored = await repo.game(game.id)
        assert stored is not None and (stored.message_channel_id, stored.message_id, stored.version) == (
            5,
            6,
            1,
        )


async def test_timestamps_come_back_in_utc_and_deadlines_order(database: Database) -> None:
    later = NOW + timedelta(minutes=5)
    async with database.write() as repo:
        await repo.add_game(**game_values(deadline=later))
        await repo.add_game(**game_values(channel=CHANNEL + 1, deadline=NOW + timedelta(minutes=1)))
    async with database.read() as repo:
        assert await repo.next_deadline() == NOW + timedelta(minutes=1)
        due = await repo.due_games(NOW + timedelta(minutes=2))
        assert [game.channel_id for game in due] == [CHANNEL + 1]
        assert due[0].created_at == NOW and due[0].created_at.tzinfo is not None
        last = await repo.last_game_created_by(PLAYER)
        assert last is not None and last.created_at == NOW


async def test_games_awaiting_the_bot(database: Database) -> None:
    async with database.write() as repo:
        human_to_move = await repo.add_game(**game_values())
        bot_to_move = await repo.add_game(**game_values(channel=CHANNEL + 1, ply=1, board="X" + "." * 8))
        bot_x = await repo.add_game(**game_values(channel=CHANNEL + 2, x_player_id=None, o_player_id=PLAYER))
        assert human_to_move and bot_to_move and bot_x
    async with database.read() as repo:
        waiting = {game.id for game in await repo.games_awaiting_bot()}
    assert waiting == {bot_to_move.id, bot_x.id}
