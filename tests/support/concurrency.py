"""Running many users' actions at once, and how many rounds a test runs."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Iterable
from typing import TypeVar

T = TypeVar("T")


def env_count(name: str, default: int) -> int:
    """A count a developer can raise locally (``TTT_RACE_ROUNDS=10000``); CI runs the default."""
    return int(os.environ.get(name) or default)


async def gather_limited(works: Iterable[Awaitable[T]], limit: int) -> list[T]:
    """Await ``works`` with at most ``limit`` running at once; results in order."""
    gate = asyncio.Semaphore(limit)

    async def run(work: Awaitable[T]) -> T:
        async with gate:
            return await work

    return list(await asyncio.gather(*(run(work) for work in works)))
