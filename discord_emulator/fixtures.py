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
from .openapi import SPEC_ENV, SPEC_SOURCE, ApiSpec, unclaimed


@pytest.fixture
def api_spec() -> ApiSpec:
    """Discord's API description from ``$DISCORD_API_SPEC``; the test is skipped without it."""
    spec = ApiSpec.from_env()
    if spec is None:
        pytest.skip(f"set {SPEC_ENV} to Discord's openapi.json, from {SPEC_SOURCE}")
    return spec


@pytest.fixture
def no_spec_violations() -> Iterator[None]:
    """Fail the test if any emulator answered a request of it with a violation of Discord's API
    description and the test did not claim it (``emu.take_spec_violations()``); use it autouse."""
    yield
    if unclaimed:
        found = "\n".join(str(violation) for violation in unclaimed)
        unclaimed.clear()
        pytest.fail(f"requests that Discord would refuse (400, code 50035):\n{found}", pytrace=False)


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
