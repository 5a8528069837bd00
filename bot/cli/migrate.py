"""``python -m bot migrate``: upgrade the database schema to the newest migration and exit."""

from __future__ import annotations

import asyncio
import logging
from typing import TextIO

from bot.cli import wiring
from bot.cli.logs import configure_logging, first_line
from bot.cli.program import program_name
from bot.config import Settings

log = logging.getLogger(__name__)


async def _upgrade(settings: Settings) -> wiring.Upgrade:
    """Run the migrations."""
    return await wiring.upgrade_to_head()(settings.database_url, settings.sqlite_busy_timeout_ms)


def _could_not(settings: Settings, error: Exception) -> str:
    log.debug("Schema upgrade failed", exc_info=True)
    return f"Could not upgrade the database at {settings.database_url_display}: {first_line(error)}"


async def upgrade_schema(settings: Settings) -> str | None:
    """Run the migrations; None when done, else why not in one line (the traceback goes to the DEBUG log)."""
    try:
        before, after = await _upgrade(settings)
    except Exception as error:
        return _could_not(settings, error)
    if before != after:
        log.info("Upgraded the database schema from revision %s to %s", before, after)
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
            f"The database at {where} is not on the newest schema; run `{program_name()} migrate` "
            "(AUTO_MIGRATE=false turned the automatic upgrade off)."
        )
    return None


def run_migrate(settings: Settings, stdout: TextIO, stderr: TextIO) -> int:
    """``python -m bot migrate``: bring the database to the newest schema and say what that took."""
    configure_logging(settings)
    try:
        before, after = asyncio.run(_upgrade(settings))
    except Exception as error:
        stderr.write(_could_not(settings, error) + "\n")
        return 1
    where = settings.database_url_display
    if before is None:
        stdout.write(f"Created the schema of the database at {where} (revision {after}).\n")
    elif before != after:
        stdout.write(f"Upgraded the database at {where} from revision {before} to {after}.\n")
    else:
        stdout.write(f"The database at {where} is already on the newest schema (revision {after}).\n")
    return 0
