"""The two entry points the CLI calls in other layers, looked up when a command needs them.

``run`` and ``migrate`` need the database migrations (``bot.db.migrate``) and the Discord
bot (``bot.bot``). Importing them only on use keeps ``play`` and ``analyze`` free of
discord.py and the database, and the functions' shapes are stated here once.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Coroutine
from typing import Any, cast

from bot.config import Settings

Upgrade = tuple[str | None, str | None]
"""The schema revision before an upgrade (None: an empty database) and after it."""

UpgradeToHead = Callable[[str, int], Coroutine[Any, Any, Upgrade]]
"""``async def upgrade_to_head(database_url: str, sqlite_busy_timeout_ms: int) -> Upgrade`` in
``bot.db.migrate``."""

PrepareDatabase = Callable[[], Coroutine[Any, Any, str | None]]
"""Brings the database to the newest schema: None when done, else why not, in one line."""

RunBot = Callable[[Settings, PrepareDatabase | None], str | None]
"""``def run_bot(settings, prepare_database) -> str | None`` in ``bot.bot``: runs until the bot shuts
down. The bot runs ``prepare_database`` while it connects, before its service opens, and returns
what it said if it failed (the bot then stopped), else None."""


class MissingComponentError(RuntimeError):
    """This installation lacks a module a command needs."""


def _load(module_name: str, attribute: str) -> object:
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name is not None and (module_name + ".").startswith(error.name + "."):
            raise MissingComponentError(f"{module_name} is not part of this installation.") from None
        raise
    return cast(object, getattr(module, attribute))


def upgrade_to_head() -> UpgradeToHead:
    """The migration of the database to the newest schema, imported when first needed."""
    return cast(UpgradeToHead, _load("bot.db.migrate", "upgrade_to_head"))


def run_bot() -> RunBot:
    """The Discord bot's entry point, imported when first needed (it brings discord.py)."""
    return cast(RunBot, _load("bot.bot", "run_bot"))
