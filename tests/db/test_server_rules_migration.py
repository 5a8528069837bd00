"""Migration 0007 (server rules) on a database that already has servers' languages, on both databases."""

from __future__ import annotations

from sqlalchemy import text

from bot.db import create_engine
from bot.db.migrate import upgrade_to_head
from tests.db.migrations import downgrade_to, upgrade_to


async def rows(url: str, query: str) -> list[tuple[object, ...]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return [tuple(row) for row in await connection.execute(text(query))]
    finally:
        await engine.dispose()


async def execute(url: str, statement: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(statement))
    finally:
        await engine.dispose()


async def test_the_upgrade_keeps_each_servers_language_and_adds_no_rules(empty_database: str) -> None:
    await upgrade_to(empty_database, "0006")
    await execute(
        empty_database,
        "INSERT INTO server_settings (guild_id, language, updated_at)"
        " VALUES (9007199254740993, 'ja', '2026-11-27 10:00:00.000000')",
    )
    await upgrade_to_head(empty_database)
    assert await rows(
        empty_database,
        "SELECT guild_id, language, role_id, turn_timeout_seconds, challenge_timeout_seconds, default_level"
        " FROM server_settings",
    ) == [(9007199254740993, "ja", None, None, None, None)]
    assert await rows(empty_database, "SELECT * FROM server_channels") == []

    await execute(
        empty_database,
        "INSERT INTO server_channels (guild_id, channel_id) VALUES (9007199254740993, 9007199254740995)",
    )
    await execute(
        empty_database, "UPDATE server_settings SET role_id = 9007199254740997, turn_timeout_seconds = 86400"
    )
    assert await rows(empty_database, "SELECT role_id, turn_timeout_seconds FROM server_settings") == [
        (9007199254740997, 86400)
    ]

    await downgrade_to(empty_database, "0006")
    assert await rows(empty_database, "SELECT guild_id, language FROM server_settings") == [
        (9007199254740993, "ja")
    ]
