"""The bot's replies: in a real process pool, and finished after an engine failure or a restart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any, TypeVar

from bot.db import Database
from bot.engine import Level
from bot.services import EnginePool, First, GameService, ServiceSettings
from tests.services.helpers import ALICE, HERE, THERE, BrokenEngine, ManualClock, make_service
from tests.support.store import snapshot

T = TypeVar("T")


async def test_searched_moves_come_from_a_process_pool(database_url: str, clock: ManualClock) -> None:
    engine = EnginePool(workers=1, budget_ms=300)
    service = GameService(Database(database_url), ServiceSettings(), engine=engine, clock=clock)
    try:
        await engine.warm_up()
        game = await service.start_vs_bot(HERE, ALICE, size=5, first=First.OPPONENT)
        assert game.ply == 1 and not game.bot_to_move
        game = await service.move(HERE, ALICE, game.legal_moves[0])
        assert game.ply == 3 and not game.bot_to_move
    finally:
        await service.close()


class _RefusingExecutor(Executor):
    """A process pool that is down: every submitted search fails."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        raise RuntimeError("the pool is down")


async def test_table_answered_replies_never_wait_for_the_pool(
    database_url: str, settings: ServiceSettings, clock: ManualClock
) -> None:
    """3x3 replies are looked up inline, so a whole game is played with the pool down; 5x5 needs it."""
    service = make_service(database_url, settings, clock, _RefusingExecutor())
    try:
        game = await service.start_vs_bot(HERE, ALICE, first=First.OPPONENT)
        while game.is_active:
            assert not game.bot_to_move
            game = await service.move(HERE, ALICE, game.legal_moves[0])
        assert game.result is not None
        searched = await service.start_vs_bot(THERE, ALICE, size=5, first=First.OPPONENT)
        assert searched.ply == 0 and searched.bot_to_move
    finally:
        await service.close()


async def test_a_failed_reply_is_made_after_a_restart(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    broken = GameService(
        Database(database_url), settings, engine=BrokenEngine(executor=executor), clock=clock
    )
    try:
        game = await broken.start_vs_bot(HERE, ALICE, first=First.ME)
        game = await broken.move(HERE, ALICE, "b2")
        assert game.ply == 1 and game.bot_to_move and game.deadline is None  # the human's move is kept
        opening = await broken.start_vs_bot(THERE, ALICE, first=First.OPPONENT)
        assert opening.ply == 0 and opening.bot_to_move
    finally:
        await broken.close()

    restarted = make_service(database_url, settings, clock, executor)
    try:
        resumed = {view.channel_id: view for view in await restarted.resume_bot_turns()}
        assert resumed[HERE.channel_id].ply == 2 and not resumed[HERE.channel_id].bot_to_move
        assert resumed[THERE.channel_id].ply == 1 and resumed[THERE.channel_id].deadline is not None
        assert await restarted.resume_bot_turns() == []
    finally:
        await restarted.close()


async def test_two_processes_resuming_one_game_store_one_reply(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    broken = GameService(
        Database(database_url), settings, engine=BrokenEngine(executor=executor), clock=clock
    )
    try:
        game = await broken.start_vs_bot(HERE, ALICE, level=Level.PERFECT)
        await broken.move(HERE, ALICE, "a1")
    finally:
        await broken.close()
    services = [make_service(database_url, settings, clock, executor) for _ in range(3)]
    try:
        results = await asyncio.gather(*(service.play_bot_turn(game.id) for service in services))
        assert {view.ply for view in results} == {2}
        moves = (await snapshot(database_url))["moves"]
        assert [row[1] for row in moves] == [0, 1]
    finally:
        for service in services:
            await service.close()


async def test_history_replays_the_game(service: GameService) -> None:
    game = await service.start_vs_bot(HERE, ALICE)
    game = await service.move(HERE, ALICE, "b2")
    second = game.legal_moves[0]
    await service.move(HERE, ALICE, str(second + 1))
    history = await service.history(game.id)
    assert [move.ply for move in history.moves] == [0, 1, 2, 3]
    assert history.moves[0].name == "b2" and history.moves[0].user_id == ALICE.user_id
    assert history.moves[2].cell == second and history.moves[1].user_id is None
    assert history.game.ply == 4
