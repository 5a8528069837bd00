"""Stats and leaderboards after a run of games."""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.db import Database
from bot.engine import Level
from bot.services import First, GameService, PlayerOutcome, RatingRules, ServiceSettings
from tests.services.helpers import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    DRAW,
    ELSEWHERE,
    HERE,
    O_WINS,
    X_WINS,
    LowestCellEngine,
    ManualClock,
    play_game,
)


@pytest.fixture
async def scripted(
    database_url: str, clock: ManualClock, executor: ThreadPoolExecutor
) -> AsyncIterator[GameService]:
    """A service whose bot plays its lowest empty cell, with a leaderboard from 2 rated games."""
    settings = ServiceSettings(start_cooldown_seconds=0, ratings=RatingRules(min_games=2))
    service = GameService(
        Database(database_url), settings, engine=LowestCellEngine(executor=executor), clock=clock
    )
    yield service
    await service.close()


async def beat_the_lowest_cell_bot(service: GameService, level: Level) -> None:
    """X: b2, c1, a3 against a bot answering a1, b1: the c1-a3 diagonal wins."""
    await service.start_vs_bot(HERE, ALICE, level=level, first=First.ME)
    for cell in ("b2", "c1", "a3"):
        game = await service.move(HERE, ALICE, cell)
    assert game.winner is not None and game.winner.user_id == ALICE.user_id


async def test_stats_and_leaderboards_after_games(scripted: GameService, clock: ManualClock) -> None:
    service = scripted
    steps = [
        lambda: play_game(service, ALICE, DAVE, X_WINS),  # W
        lambda: play_game(service, ALICE, BOB, X_WINS),  # W
        lambda: beat_the_lowest_cell_bot(service, Level.EASY),  # W
        lambda: service.start_vs_bot(HERE, ALICE, level=Level.PERFECT),
        lambda: service.resign(HERE, ALICE),  # L
        lambda: play_game(service, ALICE, CAROL, DRAW),  # D
        lambda: play_game(service, CAROL, ALICE, O_WINS),  # W (Alice is O)
        lambda: beat_the_lowest_cell_bot(service, Level.HARD),  # W
        lambda: play_game(service, BOB, DAVE, X_WINS, place=ELSEWHERE),
    ]
    for step in steps:
        clock.advance(60)
        await step()

    stats = await service.stats(ALICE.user_id, HERE.guild_id)
    assert stats.display_name == "Alice"
    assert (stats.vs_humans.wins, stats.vs_humans.losses, stats.vs_humans.draws) == (3, 0, 1)
    by_level = {entry.level: entry.record for entry in stats.vs_bot}
    assert list(by_level) == list(Level)
    assert (by_level[Level.EASY].wins, by_level[Level.PERFECT].losses, by_level[Level.HARD].wins) == (1, 1, 1)
    assert by_level[Level.MEDIUM].games == 0 and stats.vs_bot_total.games == 3
    assert (stats.current_streak, stats.best_streak) == (2, 3)
    assert [game.outcome for game in stats.recent] == [
        PlayerOutcome.WIN,
        PlayerOutcome.WIN,
        PlayerOutcome.DRAW,
        PlayerOutcome.LOSS,
        PlayerOutcome.WIN,
    ]
    newest = stats.recent[0]
    assert newest.opponent_id is None and newest.level is Level.HARD and not newest.rated
    assert stats.recent[1].opponent_name == "Carol" and stats.recent[1].rated
    assert (
        stats.server_rating is not None and stats.server_rating.games == 4 and stats.server_rating.rank == 1
    )
    assert stats.global_rating is not None and stats.global_rating.games == 4

    server = await service.leaderboard(HERE.guild_id)
    assert [entry.display_name for entry in server.entries] == ["Alice", "Carol"]
    alice, carol = server.entries
    assert (alice.rank, alice.games, alice.wins, alice.losses, alice.draws) == (1, 4, 3, 0, 1)
    assert (carol.rank, carol.games, carol.wins, carol.losses, carol.draws) == (2, 2, 0, 1, 1)
    assert alice.rating > 1200 > carol.rating and server.min_games == 2

    world = await service.leaderboard(None)
    assert [entry.display_name for entry in world.entries] == ["Alice", "Bob", "Carol", "Dave"]
    assert [entry.rank for entry in world.entries] == [1, 2, 3, 4]
    bob_here = await service.stats(BOB.user_id, HERE.guild_id)
    assert bob_here.server_rating is not None and bob_here.server_rating.rank is None  # 1 game here
    assert bob_here.global_rating is not None and bob_here.global_rating.rank == 2


async def test_stats_of_someone_who_never_played(service: GameService) -> None:
    stats = await service.stats(12345, HERE.guild_id)
    assert stats.display_name is None and stats.vs_humans.games == 0 and stats.vs_bot_total.games == 0
    assert stats.recent == () and stats.server_rating is None and stats.global_rating is None
    assert (stats.current_streak, stats.best_streak) == (0, 0)
