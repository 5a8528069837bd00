"""Test databases: a temporary SQLite file, and a PostgreSQL database of this test session's own.

PostgreSQL: ``TEST_POSTGRES_URL`` names the server (default
``postgresql+asyncpg://postgres@127.0.0.1:5432/test``). A packaged cluster that is
installed but stopped is started with ``pg_ctlcluster``. Each test session creates
its own database ``ttt_test_<random>`` next to the one in the URL and drops it at the
end, so several people can run the suite against one server at once. Without a
reachable server the PostgreSQL tests skip with the reason, unless
``CI_REQUIRE_POSTGRES=1``, when they fail.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import subprocess
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot.db.migrate import upgrade_to_head

DEFAULT_POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
TABLES = (
    "arena_pairings",
    "arena_rounds",
    "arena_players",
    "arenas",
    "reviews",
    "rating_changes",
    "moves",
    "ratings",
    "games",
    "players",
    "server_settings",
    "server_channels",
)


T = TypeVar("T")


def run_aside(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to completion on a loop of its own, for a synchronous fixture.

    Unlike :func:`asyncio.run`, this leaves the thread's current event loop as it was:
    ``asyncio.run`` sets it to None on its way out, which pytest-asyncio 0.24 to 1.0 then
    fails on ("There is no current event loop") in the module-scoped loops that follow.
    """
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(work)
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def postgres_base_url() -> URL:
    return make_url(os.environ.get("TEST_POSTGRES_URL") or DEFAULT_POSTGRES_URL)


def postgres_required() -> bool:
    return os.environ.get("CI_REQUIRE_POSTGRES") == "1"


async def _can_connect(url: URL) -> str | None:
    engine = create_async_engine(url, connect_args={"timeout": 5})
    try:
        async with engine.connect() as connection:
            await connection.execute(text("SELECT 1"))
        return None
    except Exception as error:  # any failure to connect means "no server here"
        return f"{error.__class__.__name__}: {error}"
    finally:
        await engine.dispose()


def _start_local_cluster() -> None:
    """Start an installed but stopped Debian cluster (pg_ctlcluster runs it as the postgres user)."""
    if shutil.which("pg_ctlcluster") is None or not Path("/etc/postgresql").is_dir():
        return
    versions = sorted(
        Path("/etc/postgresql").iterdir(), key=lambda p: [int(x) for x in p.name.split(".") if x.isdigit()]
    )
    if not versions:
        return
    subprocess.run(
        ["pg_ctlcluster", versions[-1].name, "main", "start"], check=False, capture_output=True, timeout=60
    )


async def reachable_postgres() -> tuple[URL, str | None]:
    """The server URL and None, or the URL and why it cannot be reached."""
    url = postgres_base_url()
    problem = await _can_connect(url)
    if problem is not None and url.host in ("127.0.0.1", "localhost", "::1", None):
        await asyncio.to_thread(_start_local_cluster)
        for _ in range(20):
            problem = await _can_connect(url)
            if problem is None:
                break
            await asyncio.sleep(0.5)
    return url, problem


async def create_database(base: URL) -> URL:
    """A new, empty database on the server of ``base``, named ``ttt_test_<random>``."""
    name = f"ttt_test_{secrets.token_hex(6)}"
    admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as connection:
            await connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        await admin.dispose()
    return base.set(database=name)


async def drop_database(base: URL, url: URL) -> None:
    admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as connection:
            await connection.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
    finally:
        await admin.dispose()


def _skip_or_fail(reason: str) -> None:
    message = f"PostgreSQL is not reachable at {postgres_base_url().render_as_string()}: {reason}"
    if postgres_required():
        pytest.fail(message + " (CI_REQUIRE_POSTGRES=1, so this is a failure)")
    pytest.skip(message + " (set TEST_POSTGRES_URL, or start the server)")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[URL]:
    """The base URL of a reachable PostgreSQL server, or a skip (a failure in CI)."""
    url, problem = run_aside(reachable_postgres())
    if problem is not None:
        _skip_or_fail(problem)
    yield url


@pytest.fixture(scope="session")
def postgres_session_url(postgres_server: URL) -> Iterator[str]:
    """This test session's own migrated PostgreSQL database, dropped at the end."""
    url = run_aside(create_database(postgres_server))
    try:
        run_aside(upgrade_to_head(url.render_as_string(hide_password=False)))
        yield url.render_as_string(hide_password=False)
    finally:
        run_aside(drop_database(postgres_server, url))


async def _truncate(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
    finally:
        await engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def backend_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new SQLite file's URL, or this session's PostgreSQL database (sync: it may start a server)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'ttt.sqlite3'}"
    url: str = request.getfixturevalue("postgres_session_url")
    return url


@pytest.fixture
async def database_url(backend_url: str) -> str:
    """A migrated, empty database of either kind."""
    if make_url(backend_url).get_backend_name() == "sqlite":
        await upgrade_to_head(backend_url)
    else:
        await _truncate(backend_url)
    return backend_url
