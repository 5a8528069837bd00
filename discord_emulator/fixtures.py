"""Pytest fixtures for tests that drive a bot through the emulator.

Use them from another test package with ``from discord_emulator.fixtures import *  # noqa: F403`` in its
``conftest.py`` (or name them in ``pytest_plugins``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator

import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .emulator import DiscordEmulator


@pytest.fixture
async def emulator() -> AsyncIterator[DiscordEmulator]:
    """A started emulator on a free port, stopped after the test."""
    async with DiscordEmulator() as emu:
        yield emu


@pytest.fixture
def discord_py_on_emulator(emulator: DiscordEmulator) -> Iterator[DiscordEmulator]:
    """Point discord.py in this process at the emulator (REST base and default gateway), restored after."""
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = emulator.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(emulator.gateway_url)
    try:
        yield emulator
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway


@contextlib.asynccontextmanager
async def running(client: discord.Client, token: str) -> AsyncIterator[discord.Client]:
    """Run ``client.start(token)`` in a task for the duration of the block; a crash fails the test."""
    task = asyncio.create_task(client.start(token), name=f"bot-{id(client)}")
    try:
        yield client
        if task.done() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    finally:
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task
