"""Databases for the persistence tests: the shared migrated ones, and empty ones of their own."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.engine import URL

from tests.databases import (
    backend_url,
    create_database,
    database_url,
    drop_database,
    postgres_server,
    postgres_session_url,
)

__all__ = [
    "backend_url",
    "database_url",
    "empty_database",
    "postgres_server",
    "postgres_session_url",
    "server",
]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server(request: pytest.FixtureRequest) -> URL | None:
    """None for SQLite, or the PostgreSQL server's base URL."""
    if request.param == "sqlite":
        return None
    url: URL = request.getfixturevalue("postgres_server")
    return url


@pytest.fixture
async def empty_database(server: URL | None, tmp_path: Path) -> AsyncIterator[str]:
    """A database with nothing in it, of its own (not the test session's shared one)."""
    if server is None:
        yield f"sqlite+aiosqlite:///{tmp_path / 'empty.sqlite3'}"
        return
    url = await create_database(server)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        await drop_database(server, url)
