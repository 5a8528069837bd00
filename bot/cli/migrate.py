"""``python -m bot migrate``: upgrade the database schema to the newest migration and exit."""

from __future__ import annotations

import asyncio
import logging
from typing import TextIO

from bot.cli import wiring
from bot.cli.logs import configure_logging, first_line
from bot.config import Settings

log = logging.getLogger(__name__)


def upgrade_database(settings: Settings, stderr: TextIO) -> bool:
    """Run the migrations; on failure say why in one line (the traceback goes to the DEBUG log)."""
    try:
        asyncio.run(wiring.upgrade_to_head()(settings.database_url))
    except Exception as error:
        log.debug("Schema upgrade failed", exc_info=True)
        where = settings.database_url_display
        stderr.write(f"Could not upgrade the database at {where}: {first_line(error)}\n")
        return False
    return True


def run_migrate(settings: Settings, stdout: TextIO, stderr: TextIO) -> int:
    configure_logging(settings)
    if not upgrade_database(settings, stderr):
        return 1
    stdout.write(f"The database at {settings.database_url_display} is on the newest schema.\n")
    return 0
