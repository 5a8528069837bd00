"""Building the game service from the bot's settings: the one mapping from ``Settings`` to the service.

The Discord bot and the terminal both start here; each changes only what differs for it
(the terminal has no start cooldown and its own engine; the bot names itself).
"""

from __future__ import annotations

import random

from bot.config import Settings
from bot.db import Database
from bot.services import EnginePool, GameService, GuildShards, ServiceSettings, metrics
from bot.services.picture_pool import PicturePool


def service_settings(settings: Settings) -> ServiceSettings:
    """The service's knobs as the settings give them."""
    return ServiceSettings(
        turn_timeout_seconds=settings.turn_timeout_seconds,
        challenge_timeout_seconds=settings.challenge_timeout_seconds,
        engine_workers=settings.engine_workers,
        engine_budget_ms=settings.engine_budget_ms,
        start_cooldown_seconds=settings.start_cooldown_seconds,
        shards=own_shards(settings),
    )


def own_shards(settings: Settings) -> GuildShards | None:
    """This process's shards when it runs some of them (``SHARD_IDS``); None when it serves all guilds."""
    count, ids = settings.shard_count, settings.shard_ids
    if count is None or ids is None or set(ids) == set(range(count)):
        return None
    return GuildShards(count, ids)


def build_service(
    settings: Settings,
    tuned: ServiceSettings | None = None,
    *,
    engine: EnginePool | None = None,
    pictures: PicturePool | None = None,
    rng: random.Random | None = None,
) -> GameService:
    """The game service over ``settings.database_url``.

    ``tuned`` is :func:`service_settings` with what differs for the caller replaced
    (``dataclasses.replace``); without ``engine``, a pool sized by those settings.
    """
    chosen = service_settings(settings) if tuned is None else tuned
    database = Database(
        settings.database_url,
        sqlite_busy_timeout_ms=settings.sqlite_busy_timeout_ms,
        on_commit=metrics.batch_committed,
    )
    pool = engine or EnginePool(chosen.engine_workers, chosen.engine_budget_ms)
    return GameService(database, chosen, engine=pool, pictures=pictures, rng=rng)
