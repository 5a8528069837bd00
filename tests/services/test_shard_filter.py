"""Which games awaiting the bot's move a process of some shards picks up, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bot.db import Database
from bot.services import Actor, First, GameService, GuildShards, ServiceSettings
from bot.services import Place as ServicePlace
from tests.databases import backend_url, database_url, postgres_session_url
from tests.services.helpers import BrokenEngine

__all__ = ["backend_url", "database_url", "postgres_session_url"]


@pytest.mark.parametrize("shard_ids", [(0,), (1,), (0, 1)])
async def test_the_pending_bot_moves_query_keeps_the_guilds_of_the_given_shards(
    database_url: str, shard_ids: tuple[int, ...]
) -> None:
    """The shard filter in SQL (``guild_id >> 22``) on SQLite and PostgreSQL alike, with 64-bit ids."""
    guilds = {(timestamp << 22) | 12345: timestamp % 3 for timestamp in (10**12, 10**12 + 1, 10**12 + 2)}
    service = GameService(
        Database(database_url), ServiceSettings(start_cooldown_seconds=0), engine=BrokenEngine()
    )
    try:
        for number, guild_id in enumerate(guilds):
            place = ServicePlace(guild_id, 5_000 + number)
            await service.start_vs_bot(place, Actor(7_000 + number, "p"), first=First.OPPONENT)
        async with service.database.read() as repo:
            kept = {game.guild_id for game in await repo.games_awaiting_bot(shards=(3, shard_ids))}
            everything = {game.guild_id for game in await repo.games_awaiting_bot()}
    finally:
        await service.close()
    assert everything == set(guilds)
    assert kept == {guild_id for guild_id, shard in guilds.items() if shard in shard_ids}
    assert kept == {guild_id for guild_id in guilds if GuildShards(3, shard_ids).owns(guild_id)}
