"""``python -m bot migrate``: upgrade the database schema to the newest migration and exit."""

from __future__ import annotations

import asyncio
import logging
from typing import TextIO

from bot.cli import wiring
from bot.cli.logs import configure_logging, first_line
from bot.config import Settings

log = logging.getLogger(__name__)


async def upgrade_schema(settings: Settings) -> str | None:
    """Run the migrations; None when done, else why not in one line (the traceback goes to the DEBUG log)."""
    try:
        await wiring.upgrade_to_head()(settings.database_url)
    except Exception as error:
        log.debug("Schema upgrade failed", exc_info=True)
        return f"Could not upgrade the database at {settings.database_url_display}: {first_line(error)}"
    return None


async def schema_problem(settings: Settings) -> str | None:
    """Without upgrading: None when the database is on the newest schema, else what to do, in one line."""
    from bot.db.migrate import current_revision, head_revision

    where = settings.database_url_display
    try:
        current = await current_revision(settings.database_url)
    except Exception as error:
        log.debug("Reading the schema revision failed", exc_info=True)
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
    configure_logging(settings)
    if not upgrade_database(settings, stderr):
        return 1
    stdout.write(f"The database at {settings.database_url_display} is on the newest schema.\n")
    return 0
