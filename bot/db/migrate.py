"""Schema upgrades with Alembic, configured in code (no ini file needed at run time).

The migration scripts live in ``migrations/`` at the top of the repository, installed as
``bot.migrations`` (see :mod:`bot.db.migration_files`).

Several bot processes may start at once against one PostgreSQL database (one per
shard, each with ``AUTO_MIGRATE``); the upgrade holds a transaction-level advisory
lock, so they run one after the other and the later ones find the schema at head.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import pool, text
from sqlalchemy.engine import URL, Connection, make_url

from bot.db.database import SQLITE_BUSY_TIMEOUT_MS, WRITE_OPTION, create_engine
from bot.db.migration_files import migrations_dir

T = TypeVar("T")
MIGRATIONS_DIR = migrations_dir()
MIGRATION_LOCK_KEY = 0x7474_745F_6D69_6772
"""PostgreSQL advisory lock key ("ttt_migr") that serialises concurrent schema upgrades."""


class Upgrade(NamedTuple):
    """What :func:`upgrade_to_head` did: the revision before (None: an empty database) and after."""

    before: str | None
    after: str | None


def alembic_config(database_url: str | URL) -> Config:
    """An Alembic configuration for ``database_url`` and the repository's migration scripts."""
    url = make_url(database_url).render_as_string(hide_password=False)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def head_revision() -> str | None:
    """The newest revision of the migration scripts."""
    head: str | None = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    return head


def _stored_revision(connection: Connection) -> str | None:
    revision: str | None = MigrationContext.configure(connection).get_current_revision()
    return revision


async def _in_transaction(
    database_url: str | URL, work: Callable[[Connection], T], busy_timeout_ms: int, writes: bool
) -> T:
    """Run ``work`` on a connection of its own to ``database_url``, in one committed transaction. One
    that ``writes`` waits for SQLite's write lock as it begins: once it has read, it could not wait."""
    engine = create_engine(database_url, poolclass=pool.NullPool, sqlite_busy_timeout_ms=busy_timeout_ms)
    try:
        async with engine.execution_options(**{WRITE_OPTION: writes}).begin() as connection:
            return await connection.run_sync(work)
    finally:
        await engine.dispose()


async def current_revision(database_url: str | URL) -> str | None:
    """The revision the database is at, or None before the first migration."""
    return await _in_transaction(database_url, _stored_revision, SQLITE_BUSY_TIMEOUT_MS, writes=False)


async def upgrade_to_head(
    database_url: str | URL, sqlite_busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS
) -> Upgrade:
    """Bring the schema of ``database_url`` to the newest migration (creating it if empty).

    On SQLite, a write lock held by another connection is waited for ``sqlite_busy_timeout_ms``.
    Raises Alembic's ``CommandError`` for a database on a revision the scripts do not know.
    """
    config = alembic_config(database_url)
    head = head_revision()

    def migrate(connection: Connection) -> Upgrade:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        before = _stored_revision(connection)
        if before != head:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
        return Upgrade(before, _stored_revision(connection))

    return await _in_transaction(database_url, migrate, sqlite_busy_timeout_ms, writes=True)
