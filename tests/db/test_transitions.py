"""State transitions as the store applies them: each sets its columns, once, by compare-and-set."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.db import Database, LostRaceError
from bot.db.models import Game
from bot.states import Accepted, Ended, Ending, EndReason, GameResult, GameStatus, Moved
from tests.db.test_repository import NOW, PLAYER, game_values

LATER = NOW + timedelta(minutes=1)
DEADLINE = NOW + timedelta(minutes=10)


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[Database]:
    db = Database(database_url)
    async with db.write() as repo:
        await repo.save_players([(PLAYER, "Seven")], NOW)
    yield db
    await db.close()


async def stored(database: Database, game_id: int) -> Game:
    async with database.read() as repo:
        game = await repo.game(game_id)
    assert game is not None
    return game


async def test_an_accepted_challenge_becomes_active_with_its_deadline(database: Database) -> None:
    async with database.write() as repo:
        game = await repo.add_game(**game_values(status=GameStatus.PENDING))
        assert game is not None
        await repo.apply(game, Accepted(DEADLINE, LATER))
    after = await stored(database, game.id)
    assert (after.status, after.deadline, after.updated_at, after.version) == (
        GameStatus.ACTIVE,
        DEADLINE,
        LATER,
        2,
    )


async def test_a_deciding_move_stores_the_board_and_the_ending_at_once(database: Database) -> None:
    ending = Ending(GameStatus.FINISHED, EndReason.LINE, GameResult.X_WON, rating_weight=0.5)
    async with database.write() as repo:
        game = await repo.add_game(**game_values(deadline=DEADLINE))
        assert game is not None
        await repo.apply(game, Moved("XXXOO....", 5, 2, None, LATER, ending))
    after = await stored(database, game.id)
    assert (after.board, after.ply, after.last_cell, after.deadline) == ("XXXOO....", 5, 2, None)
    assert (after.status, after.result, after.end_reason, after.finished_at) == (
        GameStatus.FINISHED,
        GameResult.X_WON,
        EndReason.LINE,
        LATER,
    )
    assert after.rated and after.rating_weight == 0.5


async def test_a_cancel_has_no_result_and_leaves_the_game_unrated(database: Database) -> None:
    async with database.write() as repo:
        game = await repo.add_game(**game_values(deadline=DEADLINE))
        assert game is not None
        await repo.apply(game, Ended(Ending(GameStatus.CANCELLED, EndReason.CANCEL), LATER))
    after = await stored(database, game.id)
    assert (after.status, after.result, after.end_reason, after.deadline, after.finished_at) == (
        GameStatus.CANCELLED,
        None,
        EndReason.CANCEL,
        None,
        LATER,
    )
    assert not after.rated


async def test_a_transition_on_an_outdated_copy_changes_nothing(database: Database) -> None:
    async with database.write() as repo:
        game = await repo.add_game(**game_values())
        assert game is not None
    async with database.read() as repo:
        first = await repo.game(game.id)
    async with database.read() as repo:
        second = await repo.game(game.id)
    assert first is not None and second is not None
    async with database.write() as repo:
        await repo.apply(first, Moved("X........", 1, 0, DEADLINE, LATER))
    with pytest.raises(LostRaceError):
        async with database.write() as repo:
            await repo.apply(second, Ended(Ending(GameStatus.CANCELLED, EndReason.CANCEL), LATER))
    after = await stored(database, game.id)
    assert (after.status, after.board, after.version) == (GameStatus.ACTIVE, "X........", 2)
