"""Log set-up: full records for the long-running commands (``run``, ``migrate``), quiet ones for a game."""

from __future__ import annotations

import logging

from bot.config import Settings

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"


def configure_logging(settings: Settings) -> None:
    """Send records at ``LOG_LEVEL`` and above to standard error, once, on the root logger."""
    logging.basicConfig(level=settings.log_level, format=LOG_FORMAT)


class _OneLine(logging.Formatter):
    """Just the message: no time, no traceback (the player sees the friendly message elsewhere)."""

    def format(self, record: logging.LogRecord) -> str:
        return f"{record.levelname.lower()}: {record.getMessage()}"


def configure_terminal_logging(settings: Settings) -> None:
    """For a game in the terminal: only errors, one line each, unless ``LOG_LEVEL=DEBUG`` asks for all."""
    if settings.log_level == "DEBUG":
        configure_logging(settings)
        return
    handler = logging.StreamHandler()
    handler.setFormatter(_OneLine())
    logging.basicConfig(level=logging.ERROR, handlers=[handler])


def first_line(error: BaseException) -> str:
    """An exception's message cut to its first line (database errors carry long tails)."""
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]
