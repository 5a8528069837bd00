"""Undoing migrations, which only the tests do: the bot itself only ever upgrades."""

from __future__ import annotations

from alembic import command
from sqlalchemy import pool
from sqlalchemy.engine import Connection

from bot.db import create_engine
from bot.db.migrate import alembic_config


async def downgrade_to(database_url: str, revision: str = "base") -> None:
    """Undo migrations down to ``revision`` (``base``: an empty schema)."""
    config = alembic_config(database_url)
    engine = create_engine(database_url, poolclass=pool.NullPool)

    def downgrade(connection: Connection) -> None:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)

    try:
        async with engine.begin() as connection:
            await connection.run_sync(downgrade)
    finally:
        await engine.dispose()


async def upgrade_to(database_url: str, revision: str) -> None:
    """Apply migrations up to ``revision`` only, to test a later one on the data it finds."""
    config = alembic_config(database_url)
    engine = create_engine(database_url, poolclass=pool.NullPool)

    def upgrade(connection: Connection) -> None:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    try:
        async with engine.begin() as connection:
            await connection.run_sync(upgrade)
    finally:
        await engine.dispose()
