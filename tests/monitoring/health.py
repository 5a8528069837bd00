"""Reading the bot's health and metrics endpoint (``HEALTH_PORT=0``: the port is read from the log)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from discord_emulator.process import BotProcess

ENDPOINT = re.compile(r"Health and metrics at http://([^/\s]+)/healthz")
POLL_SECONDS = 0.1
"""How often :func:`until_health` asks again: the bot's health is its own state, no event of the emulator."""


async def endpoint_of(process: BotProcess) -> str:
    """``http://host:port`` of the bot's health server, from the line it logs when it listens."""
    line = await process.wait_for_output("Health and metrics at", timeout=30)
    found = ENDPOINT.search(line)
    assert found is not None, line
    return f"http://{found[1]}"


async def health(base: str) -> tuple[int, dict[str, Any]]:
    """``GET /healthz``: the status code and the JSON body."""
    async with aiohttp.ClientSession() as session, session.get(f"{base}/healthz") as response:
        return response.status, await response.json()


async def until_health(
    base: str, wanted: Callable[[int, dict[str, Any]], bool], guard: float = 30.0
) -> tuple[int, dict[str, Any]]:
    """Ask ``/healthz`` until its answer is ``wanted`` (``guard``: seconds before the test fails)."""
    seen: tuple[int, dict[str, Any]] | None = None
    async with asyncio.timeout(guard):
        while True:
            seen = await health(base)
            if wanted(*seen):
                return seen
            await asyncio.sleep(POLL_SECONDS)


async def metrics(base: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``GET /metrics`` parsed: every sample by name and labels."""
    async with aiohttp.ClientSession() as session, session.get(f"{base}/metrics") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def sample(found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    """One sample's value (0 when the series does not exist yet, as Prometheus reads a missing counter)."""
    return found.get((name, tuple(sorted(labels.items()))), 0.0)
