"""Log set-up for the long-running commands (``run``, ``migrate``)."""

from __future__ import annotations

import logging

from bot.config import Settings

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"


def configure_logging(settings: Settings) -> None:
    """Send records at ``LOG_LEVEL`` and above to standard error, once, on the root logger."""
    logging.basicConfig(level=settings.log_level, format=LOG_FORMAT)


def first_line(error: BaseException) -> str:
    """An exception's message cut to its first line (database errors carry long tails)."""
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]
