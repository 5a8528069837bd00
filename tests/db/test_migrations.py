"""Migrations: upgrade an empty database, downgrade and upgrade again, and agree with the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from bot.db import create_engine
from bot.db.migrate import current_revision, head_revision, upgrade_to_head
from bot.db.models import Base
from tests.db.migrations import downgrade_to


async def table_names(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return set(await connection.run_sync(lambda sync: inspect(sync).get_table_names()))
    finally:
        await engine.dispose()


async def schema_differences(url: str) -> list[object]:
    engine = create_engine(url)

    def compare(connection: Connection) -> list[object]:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, Base.metadata))

    try:
        async with engine.connect() as connection:
            return await connection.run_sync(compare)
    finally:
        await engine.dispose()


async def test_upgrade_creates_the_schema_on_an_empty_database(empty_database: str) -> None:
    assert await current_revision(empty_database) is None
    await upgrade_to_head(empty_database)
    assert await current_revision(empty_database) == head_revision()
    assert await table_names(empty_database) >= {"players", "games", "moves", "ratings", "alembic_version"}
    await upgrade_to_head(empty_database)  # a second upgrade is a no-op
    assert await current_revision(empty_database) == head_revision()


async def test_downgrade_to_base_and_up_again(empty_database: str) -> None:
    await upgrade_to_head(empty_database)
    await downgrade_to(empty_database, "base")
    assert await current_revision(empty_database) is None
    assert await table_names(empty_database) <= {"alembic_version"}
    await upgrade_to_head(empty_database)
    assert await current_revision(empty_database) == head_revision()
    assert await schema_differences(empty_database) == []


async def test_models_and_migrations_agree(empty_database: str) -> None:
    await upgrade_to_head(empty_database)
    assert await schema_differences(empty_database) == []


async def test_comparison_would_notice_a_missing_migration(empty_database: str) -> None:
    """The agreement test can fail: a database one table short shows a difference."""
    await upgrade_to_head(empty_database)
    engine = create_engine(empty_database)
    try:
        async with engine.begin() as connection:
            await connection.exec_driver_sql("DROP TABLE moves")
    finally:
        await engine.dispose()
    differences = await schema_differences(empty_database)
    assert any("moves" in repr(difference) for difference in differences)
