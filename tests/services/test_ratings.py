"""Elo between humans, per server and global; bot games never rated; repeated pairs count less."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.db import GLOBAL_SCOPE
from bot.services import GameService, RatingRules, ServiceSettings
from bot.services.ratings import elo_update, expected_score
from tests.services.helpers import (
    ALICE,
    BOB,
    CAROL,
    DRAW,
    ELSEWHERE,
    HERE,
    THERE,
    X_WINS,
    ManualClock,
    make_service,
    play_game,
)


def test_expected_score() -> None:
    assert expected_score(1200, 1200) == 0.5
    assert expected_score(1600, 1200) == pytest.approx(10 / 11)
    assert expected_score(1200, 1600) == pytest.approx(1 / 11)


def test_elo_update_moves_points_from_loser_to_winner() -> None:
    assert elo_update(1200, 1200, 1.0, 32) == 1216
    assert elo_update(1200, 1200, 0.0, 32) == 1184
    assert elo_update(1200, 1200, 0.5, 32) == 1200
    winner, loser = elo_update(1400, 1200, 1.0, 32), elo_update(1200, 1400, 0.0, 32)
    assert winner - 1400 == pytest.approx(1200 - loser) and winner - 1400 < 16
    assert elo_update(1200, 1200, 1.0, 32, weight=0.5) == 1208


def test_pair_weights() -> None:
    rules = RatingRules()
    assert [rules.pair_weight(n) for n in range(5)] == [1.0, 0.5, 0.25, 0.0, 0.0]


async def ratings(service: GameService, user_id: int) -> tuple[float | None, float | None]:
    stats = await service.stats(user_id, HERE.guild_id)
    server = None if stats.server_rating is None else stats.server_rating.rating
    world = None if stats.global_rating is None else stats.global_rating.rating
    return server, world


async def test_a_win_moves_both_scopes(service: GameService) -> None:
    game = await play_game(service, ALICE, BOB, X_WINS)
    assert game.rated
    assert await ratings(service, ALICE.user_id) == (1216, 1216)
    assert await ratings(service, BOB.user_id) == (1184, 1184)
    async with service.database.read() as repo:
        row = await repo.rating(ALICE.user_id, GLOBAL_SCOPE)
        assert row is not None and (row.games, row.wins, row.losses, row.draws) == (1, 1, 0, 0)
        assert row.rating == 1216 and row.best_rating == 1216


async def test_two_games_of_one_player_ending_at_once_in_two_processes_both_count(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    """Each ending locks the player's rating rows until it commits, so neither update is lost."""
    services = [make_service(database_url, settings, clock, executor) for _ in range(2)]
    try:
        games = [
            await play_game(services[0], ALICE, BOB, X_WINS[:-1], place=HERE),
            await play_game(services[1], ALICE, CAROL, X_WINS[:-1], place=THERE),
        ]
        endings = await asyncio.gather(
            services[0].move(HERE, ALICE, X_WINS[-1], game_id=games[0].id),
            services[1].move(THERE, ALICE, X_WINS[-1], game_id=games[1].id),
        )
        assert all(ending.result is not None and ending.rated for ending in endings)
        async with services[0].database.read() as repo:
            alice = await repo.rating(ALICE.user_id, GLOBAL_SCOPE)
            assert alice is not None and (alice.games, alice.wins) == (2, 2)
            first = elo_update(1200, 1200, 1.0, RatingRules().k_factor)
            assert alice.rating == pytest.approx(elo_update(first, 1200, 1.0, RatingRules().k_factor))
            history = await repo.rating_changes(ALICE.user_id, GLOBAL_SCOPE)
            assert sorted(change.rating for change in history) == pytest.approx([first, alice.rating])
    finally:
        for service in services:
            await service.close()


async def test_a_game_in_another_server_moves_only_the_global_rating(service: GameService) -> None:
    await play_game(service, ALICE, BOB, X_WINS, place=ELSEWHERE)
    assert await ratings(service, ALICE.user_id) == (None, 1216)


async def test_a_draw_between_equals_changes_no_rating_but_counts(service: GameService) -> None:
    game = await play_game(service, ALICE, BOB, DRAW)
    assert game.rated
    assert await ratings(service, ALICE.user_id) == (1200, 1200)
    stats = await service.stats(ALICE.user_id, HERE.guild_id)
    assert stats.global_rating is not None and stats.global_rating.games == 1


async def test_repeated_games_between_a_pair_count_less_within_a_day(
    service: GameService, clock: ManualClock
) -> None:
    expected_alice, expected_bob = 1200.0, 1200.0
    for weight in (1.0, 0.5, 0.25, 0.0):
        clock.advance(600)
        game = await play_game(service, ALICE, BOB, X_WINS)
        assert game.rated is (weight > 0)
        new_alice = elo_update(expected_alice, expected_bob, 1.0, 32, weight)
        expected_bob = elo_update(expected_bob, expected_alice, 0.0, 32, weight)
        expected_alice = new_alice
        async with service.database.read() as repo:
            alice = await repo.rating(ALICE.user_id, HERE.guild_id or 0)
            bob = await repo.rating(BOB.user_id, HERE.guild_id or 0)
        assert alice is not None and bob is not None
        assert alice.rating == pytest.approx(expected_alice) and bob.rating == pytest.approx(expected_bob)
        assert alice.games == (3 if weight == 0 else [1.0, 0.5, 0.25].index(weight) + 1)
    # Another opponent is not affected by the pair's history.
    clock.advance(60)
    assert (await play_game(service, ALICE, CAROL, X_WINS)).rated
    # A day after the first of them, the pair's games count in full again.
    clock.advance(24 * 3600)
    before = await ratings(service, ALICE.user_id)
    assert (await play_game(service, ALICE, BOB, X_WINS)).rated
    after = await ratings(service, ALICE.user_id)
    assert before[0] is not None and after[0] is not None and after[0] > before[0]


async def test_a_game_resigned_before_both_moved_is_not_rated(service: GameService) -> None:
    await service.challenge(HERE, ALICE, BOB)
    await service.accept(HERE, BOB)
    await service.move(HERE, ALICE, "b2")
    ended = await service.resign(HERE, ALICE)
    assert ended.result is not None and not ended.rated
    assert await ratings(service, ALICE.user_id) == (None, None)
    stats = await service.stats(ALICE.user_id, HERE.guild_id)
    assert stats.vs_humans.losses == 1  # still a loss in the record


async def test_bot_games_never_move_a_rating(service: GameService) -> None:
    await service.start_vs_bot(HERE, ALICE)
    ended = await service.resign(HERE, ALICE)
    assert not ended.rated
    assert await ratings(service, ALICE.user_id) == (None, None)
    assert (await service.leaderboard(HERE.guild_id)).entries == ()
