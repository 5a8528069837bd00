"""Log set-up: full records for the long-running commands (``run``, ``migrate``), quiet ones for a game.

``LOG_FORMAT=json`` writes one JSON object per line (``time``, ``level``, ``logger``, ``message``,
``exc_info`` for a traceback, and the ids of :mod:`bot.log_context`: ``guild_id``, ``channel_id``,
``game_id``, ``interaction_id`` where known), for log collectors that read fields. In either
format the bot's token is blanked out of every line, whatever logged it.
"""

from __future__ import annotations

import logging
from typing import TextIO

from bot.config import Settings
from bot.log_context import current_ids

LOG_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
TOKEN_SHOWN = "[DISCORD_TOKEN]"


class _WithoutToken(logging.Formatter):
    """Formats with ``inner``, then blanks ``token`` out of the line (a library may log it)."""

    def __init__(self, inner: logging.Formatter, token: str | None) -> None:
        super().__init__()
        self._inner = inner
        self._token = token

    def format(self, record: logging.LogRecord) -> str:
        line = self._inner.format(record)
        return line.replace(self._token, TOKEN_SHOWN) if self._token else line


def _with_ids(record: logging.LogRecord) -> bool:
    """Attach the ids the code that logged was about (see :mod:`bot.log_context`)."""
    for name, value in current_ids().items():
        setattr(record, name, value)
    return True


def log_handler(settings: Settings, stream: TextIO | None = None) -> logging.Handler:
    """A handler writing to ``stream`` (default standard error) in ``LOG_FORMAT``, the token blanked out."""
    inner: logging.Formatter
    if settings.log_format == "json":
        from pythonjsonlogger.json import JsonFormatter  # only when asked: a game in the terminal needs none

        inner = JsonFormatter(
            "{levelname}{name}{message}",
            style="{",
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp="time",
        )
    else:
        inner = logging.Formatter(LOG_FORMAT)
    handler = logging.StreamHandler(stream)
    token = settings.discord_token.get_secret_value() if settings.discord_token is not None else None
    handler.setFormatter(_WithoutToken(inner, token))
    handler.addFilter(_with_ids)
    return handler


def configure_logging(settings: Settings) -> None:
    """Send records at ``LOG_LEVEL`` and above to standard error, once, on the root logger.

    Alembic's step-by-step records (its set-up, each migration script) show at ``DEBUG`` only: the
    commands say in one line what the upgrade did.
    """
    logging.basicConfig(level=settings.log_level, handlers=[log_handler(settings)])
    if settings.log_level != "DEBUG":
        logging.getLogger("alembic").setLevel(logging.WARNING)


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
