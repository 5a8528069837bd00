"""Fixtures for the monitoring tests: the PostgreSQL server the database outage runs the bot on."""

from __future__ import annotations

from tests.databases import postgres_server

__all__ = ["postgres_server"]
