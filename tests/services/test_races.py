"""Requests racing on one game or one channel: the database lets exactly one through.

Each service call runs in its own session. Two services over one database have
separate engines and no shared lock, as two processes would.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.services import GameService, GameView, ServiceSettings, refusals
from tests.services.helpers import ALICE, BOB, CAROL, DAVE, HERE, ManualClock, make_service
from tests.support.store import snapshot

RACE_REFUSALS = (refusals.StaleBoard, refusals.CellTaken, refusals.NotYourTurn, refusals.GameOver)


async def race_game_to_the_end(services: list[GameService], database_url: str, racers: int) -> None:
    game = await services[0].challenge(HERE, ALICE, BOB)
    game = await services[0].accept(HERE, BOB)
    while game.is_active:
        mover = ALICE if game.to_move and game.to_move.user_id == ALICE.user_id else BOB
        legal = game.legal_moves
        attempts = [
            services[i % len(services)].move(
                HERE, mover, legal[i % len(legal)], game_id=game.id, expected_ply=game.ply
            )
            for i in range(racers)
        ]
        results = await asyncio.gather(*attempts, return_exceptions=True)
        applied = [r for r in results if isinstance(r, GameView)]
        refused = [r for r in results if isinstance(r, refusals.Refusal)]
        assert len(applied) == 1, results
        assert len(refused) == racers - 1 and all(isinstance(r, RACE_REFUSALS) for r in refused), results
        assert applied[0].ply == game.ply + 1
        game = applied[0]
        rows = await snapshot(database_url)
        assert [(m[0], m[1]) for m in rows["moves"]] == [(game.id, ply) for ply in range(game.ply)]
        stored = await services[0].game(game.id)
        assert stored.board == game.board and stored.version == game.version


@pytest.mark.parametrize("racers", [2, 10])
async def test_racing_moves_apply_exactly_one(service: GameService, database_url: str, racers: int) -> None:
    await race_game_to_the_end([service], database_url, racers)


async def test_racing_moves_from_two_services_apply_exactly_one(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    services = [make_service(database_url, settings, clock, executor) for _ in range(2)]
    try:
        await race_game_to_the_end(services, database_url, 6)
    finally:
        for service in services:
            await service.close()


async def test_raced_starts_create_one_game(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    services = [make_service(database_url, settings, clock, executor) for _ in range(2)]
    try:
        attempts = [
            services[0].start_vs_bot(HERE, ALICE),
            services[1].start_vs_bot(HERE, BOB),
            services[0].challenge(HERE, CAROL, DAVE),
            services[1].challenge(HERE, DAVE, ALICE),
        ]
        results = await asyncio.gather(*attempts, return_exceptions=True)
        started = [r for r in results if isinstance(r, GameView)]
        refused = [r for r in results if isinstance(r, refusals.Refusal)]
        assert len(started) == 1 and len(refused) == 3, results
        assert all(isinstance(r, refusals.GameRunning) for r in refused)
        rows = await snapshot(database_url)
        assert len(rows["games"]) == 1
    finally:
        for service in services:
            await service.close()
