"""``python -m bot migrate``: upgrade the database schema to the newest migration and exit."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import TextIO

from bot.cli import wiring
from bot.cli.logs import configure_logging, first_line
from bot.config import Settings

log = logging.getLogger(__name__)


_SQLITE_WORKER = "(_connection_worker_thread)"
"""How the names of aiosqlite's per-connection threads end (Python names a thread after its target)."""


async def _let_sqlite_workers_finish() -> None:
    """After a failed connection, let aiosqlite's worker threads end before the event loop closes.

    A SQLite connection that fails to open still hands its shutdown to its worker
    thread, which then posts the result to the loop; when the command exits at once,
    the loop is closed by then and the thread dies printing a traceback ("Event loop
    is closed", omnilib/aiosqlite#241). The threads end within moments; wait for them.
    """
    workers = [thread for thread in threading.enumerate() if thread.name.endswith(_SQLITE_WORKER)]
    for thread in workers:
        await asyncio.to_thread(thread.join, 1.0)


async def upgrade_schema(settings: Settings) -> str | None:
    """Run the migrations; None when done, else why not in one line (the traceback goes to the DEBUG log).

    The migration code (and SQLAlchemy with it) is imported in a thread: the bot runs this on its
    event loop while it connects to Discord.
    """
    try:
        upgrade_to_head = await asyncio.to_thread(wiring.upgrade_to_head)
        await upgrade_to_head(settings.database_url)
    except Exception as error:
        log.debug("Schema upgrade failed", exc_info=True)
        await _let_sqlite_workers_finish()
        return f"Could not upgrade the database at {settings.database_url_display}: {first_line(error)}"
    return None


async def schema_problem(settings: Settings) -> str | None:
    """Without upgrading: None when the database is on the newest schema, else what to do, in one line."""
    from bot.db.migrate import current_revision, head_revision
    from bot.db.revision import at_head

    where = settings.database_url_display
    try:
        if await at_head(settings.database_url):
            return None
        current = await current_revision(settings.database_url)
    except Exception as error:
        log.debug("Reading the schema revision failed", exc_info=True)
        await _let_sqlite_workers_finish()
        return f"Could not open the database at {where}: {first_line(error)}"
    if current != head_revision():
        return (
            f"The database at {where} is not on the newest schema; run `python -m bot migrate` "
            "(AUTO_MIGRATE=false turned the automatic upgrade off)."
        )
    return None


def upgrade_database(settings: Settings, stderr: TextIO) -> bool:
    """Run the migrations; on failure say why in one line on ``stderr``."""
    problem = asyncio.run(upgrade_schema(settings))
    if problem is not None:
        stderr.write(problem + "\n")
        return False
    return True


def run_migrate(settings: Settings, stdout: TextIO, stderr: TextIO) -> int:
    """``python -m bot migrate``: bring the database to the newest schema; the exit status."""
    configure_logging(settings)
    if not upgrade_database(settings, stderr):
        return 1
    stdout.write(f"The database at {settings.database_url_display} is on the newest schema.\n")
    return 0
