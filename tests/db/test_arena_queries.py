"""The arena tables through the repository, on SQLite and PostgreSQL: what is stored is what is read,
and the database itself keeps one live arena per channel, one row per round, one game per pairing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text

from bot.db import Database, create_engine
from bot.states import ArenaStatus, GameResult, GameStatus

NOW = datetime(2026, 11, 29, 4, 0, tzinfo=UTC)
GUILD, CHANNEL = 9007199254740993, 9007199254740995
OPENER = 9007199254740997
PLAYERS = [OPENER, 11, 12, 13]


def arena_values(channel: int = CHANNEL, **extra: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "guild_id": GUILD,
        "channel_id": channel,
        "opened_by": OPENER,
        "size": 3,
        "rounds": None,
        "rated": True,
        "status": ArenaStatus.OPEN,
        "starts_at": NOW + timedelta(minutes=5),
        "created_at": NOW,
        "updated_at": NOW,
    }
    values.update(extra)
    return values


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[Database]:
    db = Database(database_url)
    async with db.write() as repo:
        await repo.save_players([(player, f"P{player}") for player in PLAYERS], NOW)
    yield db
    await db.close()


async def test_an_arena_is_stored_and_read_back(database: Database) -> None:
    async with database.write() as repo:
        arena = await repo.add_arena(**arena_values(rounds=4))
    assert arena is not None and arena.id and arena.version == 1 and arena.current_round == 0
    async with database.read() as repo:
        again = await repo.arena(arena.id)
        assert again is not None
        assert (again.guild_id, again.channel_id, again.opened_by, again.size, again.rounds, again.rated) == (
            GUILD,
            CHANNEL,
            OPENER,
            3,
            4,
            True,
        )
        assert again.status is ArenaStatus.OPEN and again.starts_at == NOW + timedelta(minutes=5)
        assert (await repo.live_arena(CHANNEL)).id == arena.id  # type: ignore[union-attr]
        assert await repo.live_arena(CHANNEL + 1) is None
        assert await repo.arena(arena.id + 1) is None


async def test_one_live_arena_per_channel_is_kept_by_the_database(database: Database) -> None:
    async with database.write() as repo:
        first = await repo.add_arena(**arena_values())
        assert first is not None
        assert await repo.add_arena(**arena_values(status=ArenaStatus.RUNNING)) is None
        assert await repo.add_arena(**arena_values(channel=CHANNEL + 1)) is not None
        assert await repo.add_arena(**arena_values(status=ArenaStatus.FINISHED)) is not None
    async with database.write() as repo:
        assert await repo.update_arena(first, status=ArenaStatus.CANCELLED)
        assert await repo.add_arena(**arena_values()) is not None


async def test_compare_and_set_applies_one_of_two_writers(database: Database) -> None:
    async with database.write() as repo:
        created = await repo.add_arena(**arena_values())
    assert created is not None
    async with database.read() as repo:
        first, second = await repo.arena(created.id), await repo.arena(created.id)
    assert first is not None and second is not None
    async with database.write() as repo:
        assert await repo.update_arena(first, status=ArenaStatus.RUNNING, current_round=1, updated_at=NOW)
        assert not await repo.update_arena(second, status=ArenaStatus.CANCELLED)
    assert (first.version, first.status, first.current_round) == (2, ArenaStatus.RUNNING, 1)
    async with database.read() as repo:
        stored = await repo.arena(created.id)
    assert stored is not None and (stored.version, stored.status) == (2, ArenaStatus.RUNNING)


async def test_players_join_in_seed_order_once_and_leave(database: Database) -> None:
    async with database.write() as repo:
        arena = await repo.add_arena(**arena_values())
        assert arena is not None
        for offset, player in enumerate([12, OPENER, 11]):
            assert await repo.add_arena_player(arena.id, player, NOW + timedelta(seconds=offset))
        assert not await repo.add_arena_player(arena.id, 12, NOW)
        assert await repo.remove_arena_player(arena.id, OPENER)
        assert not await repo.remove_arena_player(arena.id, OPENER)
        assert await repo.add_arena_player(arena.id, OPENER, NOW + timedelta(seconds=9))
    async with database.read() as repo:
        players = await repo.arena_players(arena.id)
    assert [(p.player_id, p.seed, p.left_after) for p in players] == [
        (12, 1, None),
        (11, 3, None),
        (OPENER, 4, None),
    ]
    async with database.write() as repo:
        assert await repo.set_arena_player_left(arena.id, 11, 2)
        assert not await repo.set_arena_player_left(arena.id, 11, 3)
        assert not await repo.set_arena_player_left(arena.id, 13, 3)
    async with database.read() as repo:
        assert [p.left_after for p in await repo.arena_players(arena.id)] == [None, 2, None]


async def test_rounds_and_pairings_are_stored_once_with_their_games_and_results(database: Database) -> None:
    async with database.write() as repo:
        arena = await repo.add_arena(**arena_values())
        assert arena is not None
        assert await repo.add_arena_round(arena.id, 1, 13, [(OPENER, 11)], NOW)
        assert not await repo.add_arena_round(arena.id, 1, None, [(12, 13)], NOW)
        assert await repo.add_arena_round(arena.id, 2, None, [(11, 12), (13, OPENER)], NOW)
        await repo.set_arena_round_message(arena.id, 1, 555)
        game = await repo.add_game(
            guild_id=GUILD,
            channel_id=777,
            size=3,
            k=3,
            level=None,
            x_player_id=OPENER,
            o_player_id=11,
            created_by=OPENER,
            status=GameStatus.ACTIVE,
            board="." * 9,
            ply=0,
            version=1,
            created_at=NOW,
            updated_at=NOW,
        )
        assert game is not None
        assert await repo.set_pairing_game(arena.id, 1, 0, game.id, 777)
        assert not await repo.set_pairing_game(arena.id, 1, 0, game.id, 778)
    async with database.read() as repo:
        rounds = await repo.arena_rounds(arena.id)
        assert [(r.number, r.bye_player_id, r.message_id, r.finished_at) for r in rounds] == [
            (1, 13, 555, None),
            (2, None, None, None),
        ]
        pairings = await repo.arena_pairings(arena.id)
        assert [
            (p.round_number, p.board, p.x_player_id, p.o_player_id, p.game_id, p.thread_id) for p in pairings
        ] == [
            (1, 0, OPENER, 11, game.id, 777),
            (2, 0, 11, 12, None, None),
            (2, 1, 13, OPENER, None, None),
        ]
        assert [p.board for p in await repo.arena_pairings(arena.id, 2)] == [0, 1]
        found = await repo.pairing_of_game(game.id)
        assert found is not None and (found.arena_id, found.round_number, found.board) == (arena.id, 1, 0)
        assert await repo.pairing_of_game(game.id + 1) is None
    async with database.write() as repo:
        assert await repo.set_pairing_result(arena.id, 1, 0, GameResult.DRAW)
        assert not await repo.set_pairing_result(arena.id, 1, 0, GameResult.X_WON)
        assert await repo.finish_arena_round(arena.id, 1, NOW)
        assert not await repo.finish_arena_round(arena.id, 1, NOW)
    async with database.read() as repo:
        assert (await repo.arena_pairings(arena.id, 1))[0].result is GameResult.DRAW
        assert (await repo.arena_rounds(arena.id))[0].finished_at == NOW


async def test_due_latest_and_by_status(database: Database) -> None:
    async with database.write() as repo:
        late = await repo.add_arena(**arena_values(starts_at=NOW + timedelta(minutes=1)))
        due = await repo.add_arena(**arena_values(channel=CHANNEL + 1, starts_at=NOW - timedelta(seconds=1)))
        done = await repo.add_arena(**arena_values(channel=CHANNEL + 2, status=ArenaStatus.FINISHED))
        other = await repo.add_arena(**arena_values(channel=CHANNEL + 3, guild_id=GUILD + 1))
    assert late and due and done and other
    async with database.read() as repo:
        assert [a.id for a in await repo.due_arenas(NOW)] == [due.id]
        assert [a.id for a in await repo.due_arenas(NOW + timedelta(minutes=1))] == [due.id, late.id]
        latest = await repo.latest_arena(GUILD)
        assert latest is not None and latest.id == due.id  # the newest live one, not the finished one
        assert [a.id for a in await repo.arenas_with_status(ArenaStatus.FINISHED)] == [done.id]
        assert await repo.latest_arena(GUILD + 2) is None
    async with database.write() as repo:
        for arena in (late, due):
            assert await repo.update_arena(arena, status=ArenaStatus.CANCELLED)
    async with database.read() as repo:
        latest = await repo.latest_arena(GUILD)
        assert latest is not None and latest.id == done.id


async def test_a_deleted_arena_takes_its_players_rounds_and_pairings_along(
    database: Database, database_url: str
) -> None:
    async with database.write() as repo:
        arena = await repo.add_arena(**arena_values())
        assert arena is not None
        await repo.add_arena_player(arena.id, 11, NOW)
        await repo.add_arena_round(arena.id, 1, None, [(11, 12)], NOW)
    engine = create_engine(database_url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("DELETE FROM arenas WHERE id = :id"), {"id": arena.id})
    finally:
        await engine.dispose()
    async with database.read() as repo:
        assert await repo.arena_players(arena.id) == []
        assert await repo.arena_rounds(arena.id) == []
        assert await repo.arena_pairings(arena.id) == []
