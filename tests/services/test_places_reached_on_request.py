"""Places whose boards can be shown only in answer to a request (a group DM, a server without the bot):
games started there remember it, keep their rules, and show how they ended when asked."""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.db import Database
from bot.services import GameService, GameStatus, GuildShards, Place, ServiceSettings, refusals
from tests.services.helpers import ALICE, BOB, HERE, BrokenEngine, ManualClock, make_service

GROUP_DM = Place(None, 3_000_000_000_000_001, interactions_only=True)
BOT_DM = Place(None, 3_000_000_000_000_002)


async def test_a_game_keeps_how_its_board_is_reached_and_rematches_follow_the_place(
    service: GameService,
) -> None:
    challenge = await service.challenge(GROUP_DM, ALICE, BOB)
    assert challenge.interactions_only and challenge.guild_id is None
    game = await service.accept(GROUP_DM, BOB)
    assert game.interactions_only
    vs_bot = await service.start_vs_bot(HERE, ALICE)
    assert not vs_bot.interactions_only
    await service.resign(GROUP_DM, ALICE)
    rematch = await service.rematch(GROUP_DM, BOB, game.id)
    assert rematch.interactions_only and rematch.id != game.id


async def test_latest_shows_the_live_game_else_the_one_that_ended_last(
    service: GameService, clock: ManualClock
) -> None:
    with pytest.raises(refusals.NoGame):
        await service.latest(GROUP_DM)
    game = await service.start_vs_bot(GROUP_DM, ALICE)
    assert (await service.latest(GROUP_DM)).id == game.id
    clock.advance(601)
    [ended] = await service.sweep()
    with pytest.raises(refusals.NoGame):
        await service.board(GROUP_DM)
    shown = await service.latest(GROUP_DM)
    assert shown.id == ended.id == game.id and shown.status is GameStatus.FINISHED
    with pytest.raises(refusals.NoGame):
        await service.latest(dataclasses.replace(GROUP_DM, guild_id=HERE.guild_id))


async def test_bot_turns_outside_servers_are_resumed_by_shard_zero(
    database_url: str, settings: ServiceSettings, clock: ManualClock, executor: ThreadPoolExecutor
) -> None:
    broken = GameService(
        Database(database_url), settings, engine=BrokenEngine(executor=executor), clock=clock
    )
    try:
        await broken.start_vs_bot(BOT_DM, ALICE)
        await broken.move(BOT_DM, ALICE, "b2")
    finally:
        await broken.close()
    for shard, expected in ((1, []), (0, [BOT_DM.channel_id])):
        sharded = dataclasses.replace(settings, shards=GuildShards(count=2, ids=(shard,)))
        restarted = make_service(database_url, sharded, clock, executor)
        try:
            assert [view.channel_id for view in await restarted.resume_bot_turns()] == expected
        finally:
            await restarted.close()
