"""The bot's replies: in a real process pool, and finished after an engine failure or a restart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import replace
from datetime import timedelta
from typing import Any, TypeVar

from bot.db import Database
from bot.engine import Level
from bot.services import (
    EndReason,
    EnginePool,
    First,
    GameService,
    GameStatus,
    GuildShards,
    ServiceSettings,
)
from tests.services.helpers import (
    ALICE,
    HERE,
    THERE,
    BrokenEngine,
    FailingEngine,
    HeldEngine,
    ManualClock,
    make_service,
)
from tests.support.store import snapshot

T = TypeVar("T")


def broken_service(
    url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> GameService:
    return GameService(Database(url), settings, engine=BrokenEngine(executor=executor), clock=clock)


def failing_service(
    url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor, failures: int
) -> GameService:
    engine = FailingEngine(failures, executor)
    return GameService(Database(url), settings, engine=engine, clock=clock)


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
    broken = broken_service(database_url, settings, clock, executor)
    try:
        game = await broken.start_vs_bot(HERE, ALICE, first=First.ME)
        game = await broken.move(HERE, ALICE, "b2")
        assert game.ply == 1 and game.bot_to_move  # the human's move is kept
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


async def test_a_failed_reply_is_made_again_by_the_sweep_soon_after(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    service = failing_service(database_url, settings, clock, executor, failures=1)
    try:
        game = await service.start_vs_bot(HERE, ALICE, size=5)
        game = await service.move(HERE, ALICE, "c3")
        assert game.bot_to_move and game.deadline == clock.now + timedelta(seconds=settings.bot_retry_seconds)
        assert await service.next_deadline() == game.deadline
        assert await service.sweep() == []
        clock.advance(settings.bot_retry_seconds)
        (replied,) = await service.sweep()
        assert replied.id == game.id and replied.ply == 2 and not replied.bot_to_move and replied.is_active
        assert replied.deadline == clock.now + timedelta(seconds=settings.turn_timeout_seconds)
    finally:
        await service.close()


async def test_another_process_makes_a_failed_reply_again(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    stopped = broken_service(database_url, settings, clock, executor)
    try:
        opening = await stopped.start_vs_bot(HERE, ALICE, size=5, first=First.OPPONENT)
        assert opening.bot_to_move and opening.ply == 0
    finally:
        await stopped.close()
    other = failing_service(database_url, settings, clock, executor, failures=0)
    try:
        clock.advance(settings.bot_retry_seconds)
        (replied,) = await other.sweep()
        assert replied.ply == 1 and not replied.bot_to_move
    finally:
        await other.close()


async def test_an_overdue_bot_turn_is_made_again_only_by_a_process_of_its_guilds_shard(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    stopped = broken_service(database_url, settings, clock, executor)
    try:
        opening = await stopped.start_vs_bot(HERE, ALICE, size=5, first=First.OPPONENT)
    finally:
        await stopped.close()
    assert HERE.guild_id is not None
    own_shard = (HERE.guild_id >> 22) % 2
    clock.advance(settings.bot_retry_seconds)
    other_shard = replace(settings, shards=GuildShards(count=2, ids=(1 - own_shard,)))
    elsewhere = failing_service(database_url, other_shard, clock, executor, failures=0)
    try:
        assert await elsewhere.sweep() == [], "another shard's process leaves the guild's game alone"
    finally:
        await elsewhere.close()
    own = failing_service(
        database_url, replace(settings, shards=GuildShards(count=2, ids=(own_shard,))), clock, executor, 0
    )
    try:
        (replied,) = await own.sweep()
        assert replied.id == opening.id and replied.ply == 1 and not replied.bot_to_move
    finally:
        await own.close()


async def test_the_bot_turn_has_a_deadline_and_a_search_under_way_is_not_started_twice(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    engine = HeldEngine(executor)
    service = GameService(Database(database_url), settings, engine=engine, clock=clock)
    try:
        game = await service.start_vs_bot(HERE, ALICE, size=5)
        moving = asyncio.ensure_future(service.move(HERE, ALICE, "c3"))
        await engine.searching.wait()
        searched = await service.game(game.id)
        assert searched.bot_to_move
        assert searched.deadline == clock.now + timedelta(seconds=settings.bot_turn_seconds)
        clock.advance(settings.bot_turn_seconds)
        engine.searching.clear()
        assert await service.sweep() == []
        assert not engine.searching.is_set(), "the search under way was not started again"
        pushed = await service.game(game.id)
        assert pushed.deadline == clock.now + timedelta(seconds=settings.bot_turn_seconds)
        engine.go_on.set()
        replied = await moving
        assert replied.ply == 2 and not replied.bot_to_move
    finally:
        await service.close()


async def test_a_reply_that_keeps_failing_cancels_the_game_unrated(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    service = failing_service(database_url, settings, clock, executor, failures=settings.bot_turn_attempts)
    try:
        game = await service.start_vs_bot(HERE, ALICE, size=4)
        game = await service.move(HERE, ALICE, "b2")
        for _ in range(settings.bot_turn_attempts - 2):
            clock.advance(settings.bot_retry_seconds)
            assert await service.sweep() == [], "a failed retry changes nothing on the board"
        clock.advance(settings.bot_retry_seconds)
        (ended,) = await service.sweep()
        assert ended.id == game.id and ended.status is GameStatus.CANCELLED
        assert ended.end_reason is EndReason.TIMEOUT and ended.bot_gave_up and not ended.rated
        assert ended.ply == 1 and ended.deadline is None
        assert await service.next_deadline() is None
        fresh = await service.start_vs_bot(HERE, ALICE)
        assert fresh.is_active, "the channel is free again"
    finally:
        await service.close()


async def test_two_processes_resuming_one_game_store_one_reply(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    broken = broken_service(database_url, settings, clock, executor)
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
