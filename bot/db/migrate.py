"""Schema upgrades with Alembic, configured in code (no ini file needed at run time).

The migration scripts live in ``migrations/`` at the top of the repository, installed as
``bot.migrations`` (see :mod:`bot.db.migration_files`).

Several bot processes may start at once against one PostgreSQL database (one per
shard, each with ``AUTO_MIGRATE``); the upgrade holds a transaction-level advisory
lock, so they run one after the other and the later ones find the schema at head.

Alembic is imported only when there is something to do: :func:`upgrade_to_head` first
asks :func:`bot.db.revision.at_head`, which reads the version table without it, so a bot
restarting on an up-to-date database (the usual case) skips Alembic altogether.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import pool, text
from sqlalchemy.engine import URL, Connection, make_url

from bot.db.database import create_engine
from bot.db.revision import MIGRATIONS_DIR, at_head

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATION_LOCK_KEY = 0x7474_745F_6D69_6772
"""PostgreSQL advisory lock key ("ttt_migr") that serialises concurrent schema upgrades."""


def alembic_config(database_url: str | URL) -> Config:
    """An Alembic configuration for ``database_url`` and the repository's migration scripts."""
    from alembic.config import Config

    url = make_url(database_url).render_as_string(hide_password=False)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def head_revision() -> str | None:
    """The newest revision as Alembic reads the scripts."""
    from alembic.script import ScriptDirectory

    head: str | None = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    return head


async def _upgrade(database_url: str | URL, target: str) -> None:
    from alembic import command

    config = alembic_config(database_url)
    engine = create_engine(database_url, poolclass=pool.NullPool)

    def migrate(connection: Connection) -> None:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, target)

    try:
        async with engine.begin() as connection:
            await connection.run_sync(migrate)
    finally:
        await engine.dispose()


async def upgrade_to_head(database_url: str) -> None:
    """Bring the schema of ``database_url`` to the newest migration (creating it if empty).

    Returns at once, without Alembic, when the database is already there.
    """
    if await at_head(database_url):
        return
    await _upgrade(database_url, "head")


async def current_revision(database_url: str) -> str | None:
    """The revision the database is at, or None before the first migration (as Alembic reads it)."""
    from alembic.runtime.migration import MigrationContext

    engine = create_engine(database_url, poolclass=pool.NullPool)

    def read(connection: Connection) -> str | None:
        revision: str | None = MigrationContext.configure(connection).get_current_revision()
        return revision

    try:
        async with engine.connect() as connection:
            return await connection.run_sync(read)
    finally:
        await engine.dispose()
