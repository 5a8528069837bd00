"""Run inside an engine worker by tests: which heavy libraries has the worker imported?"""

from __future__ import annotations

import sys

HEAVY = ("sqlalchemy", "alembic", "aiosqlite", "asyncpg", "discord", "aiohttp", "bot.services", "bot.db")


def heavy_modules() -> list[str]:
    return sorted(name for name in HEAVY if name in sys.modules)
