"""The service is built from the bot's settings in one place, for Discord and the terminal alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.composition import build_service, service_settings
from bot.config import Settings
from bot.services import GuildShards


def _settings(tmp_path: Path, **values: Any) -> Settings:
    return Settings(_env_file=None, database_url=f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}", **values)


async def test_every_service_setting_comes_from_the_settings(tmp_path: Path) -> None:
    settings = _settings(
        tmp_path,
        turn_timeout_seconds=33.0,
        challenge_timeout_seconds=44.0,
        engine_workers=2,
        engine_budget_ms=700,
        start_cooldown_seconds=3.0,
        shard_count=4,
        shard_ids=(1, 3),
    )
    service = build_service(settings)
    try:
        tuned = service.settings
        assert (tuned.turn_timeout_seconds, tuned.challenge_timeout_seconds) == (33.0, 44.0)
        assert (tuned.engine_workers, tuned.engine_budget_ms, tuned.start_cooldown_seconds) == (2, 700, 3.0)
        assert tuned.shards == GuildShards(4, (1, 3))
        assert service.engine.budget_ms == 700
    finally:
        await service.close()


def test_a_process_running_every_shard_serves_every_guild(tmp_path: Path) -> None:
    assert service_settings(_settings(tmp_path, shard_count=2, shard_ids=(0, 1))).shards is None
    assert service_settings(_settings(tmp_path)).shards is None
