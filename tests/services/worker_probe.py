"""Run inside a worker by tests: which heavy libraries has the worker imported, which process is it?"""

from __future__ import annotations

import os
import sys

HEAVY = ("sqlalchemy", "alembic", "aiosqlite", "asyncpg", "discord", "aiohttp", "bot.services", "bot.db")


def heavy_modules() -> list[str]:
    return sorted(name for name in HEAVY if name in sys.modules)


def pid() -> int:
    """The worker's process id."""
    return os.getpid()


def pid_bytes() -> bytes:
    """The worker's process id as a picture renderer returns it: bytes."""
    return str(os.getpid()).encode()
