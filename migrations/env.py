"""Alembic environment (async template), shared by ``bot.db.migrate`` and the ``alembic`` command.

``bot.db.migrate`` passes an open connection in ``config.attributes["connection"]``
and owns its transaction. The ``alembic`` command (``alembic -c migrations/alembic.ini
upgrade head``) opens its own connection to ``sqlalchemy.url``, or to ``DATABASE_URL``
when the ini file leaves it empty.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy import pool
from sqlalchemy.engine import Connection

from bot.db.database import create_engine
from bot.db.models import Base

config = context.config
target_metadata = Base.metadata
DEFAULT_URL = "sqlite+aiosqlite:///ttt.sqlite3"


def database_url() -> str:
    return config.get_main_option("sqlalchemy.url") or os.environ.get("DATABASE_URL") or DEFAULT_URL


def configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        # SQLite alters tables by copying them; batch mode writes migrations that way.
        render_as_batch=connection.dialect.name == "sqlite",
        transactional_ddl=True,
    )


def run_migrations_offline() -> None:
    context.configure(
        url=database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def do_run_migrations(connection: Connection) -> None:
    configure(connection)
    with context.begin_transaction():
        context.run_migrations()


async def run_async_migrations() -> None:
    engine = create_engine(database_url(), poolclass=pool.NullPool)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(do_run_migrations)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        asyncio.run(run_async_migrations())
    else:
        do_run_migrations(connection)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
