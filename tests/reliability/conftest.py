"""Fixtures for the reliability tests: the PostgreSQL server some of them run the bot on.

The emulator and one bot process per module come from the root ``conftest``; extra bot processes
(kill rounds, shards) from :mod:`tests.support.bot`.
"""

from __future__ import annotations

from tests.databases import postgres_server

__all__ = ["postgres_server"]
