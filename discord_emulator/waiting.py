"""Event-driven waiting: every state change wakes the waiters, who re-check their predicate."""

# The waiting API takes ``timeout=`` as a failure guard on purpose, so tests read as one call.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Notifier:
    """A broadcast signal backed by :class:`asyncio.Event`.

    ``notify()`` is synchronous so plain state-changing code can call it; each call sets the current
    event (waking every waiter) and starts a fresh one. Nothing ever polls on a timer.
    """

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        event, self._event = self._event, asyncio.Event()
        event.set()

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float, description: str = "") -> T:
        """The predicate's first truthy value; :class:`TimeoutError` after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            event = self._event
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"not satisfied within {timeout:.1f}s: {description or predicate!r}")
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                result = predicate()
                if result:
                    return result
                raise TimeoutError(
                    f"not satisfied within {timeout:.1f}s: {description or predicate!r}"
                ) from None
