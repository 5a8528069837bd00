"""The background task that ends games whose time ran out and shows it on their boards.

The service keeps every deadline in the database (a challenge's expiry, the turn
clock of the side on move) and acts on due games in :meth:`GameService.sweep`. This
task calls it when the next deadline comes (or every ``SWEEP_INTERVAL_SECONDS`` at
most, which also catches deadlines of games created by another process) and edits
the ended games' board messages through the channel API.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime, timedelta

from bot.exts.games.arena_rounds import ArenaPublisher
from bot.exts.games.messages import BoardPublisher
from bot.services import GameService, Unavailable, utc_now

log = logging.getLogger(__name__)

_AFTER_DEADLINE = 0.05
"""Wake this long after a deadline, so the deadline has surely passed by the service's clock."""


class DeadlineSweeper:
    """Ends the games whose deadline passed (a challenge expired, a player out of time) and shows it."""

    def __init__(
        self, service: GameService, publisher: BoardPublisher, interval: float, arenas: ArenaPublisher
    ) -> None:
        self._service = service
        self._publisher = publisher
        self._arenas = arenas
        self._interval = interval
        self._wake = asyncio.Event()
        self._planned: datetime | None = None
        """When the sleeping task will look next; None while it is sweeping."""
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start sweeping in the background (once)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="ttt-deadline-sweeper")

    def poke(self, deadline: datetime | None) -> None:
        """A game's deadline was set: wake early only if it falls before the planned look.

        Every move sets a deadline, and a needless wake costs two database reads, so a
        deadline after the planned look (the common case: turns last minutes, looks
        come every few seconds) changes nothing.
        """
        if deadline is None:
            return
        planned = self._planned
        if planned is None or deadline < planned:
            self._wake.set()

    async def stop(self, grace: float = 5.0) -> None:
        """Let the current round finish (so every ended game gets its edit), then stop."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self._wake.set()
        try:
            await asyncio.wait_for(task, grace)
        except TimeoutError:
            log.warning("The deadline sweeper did not stop in %.0f s; cancelled", grace)

    async def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            delay = self._interval
            try:
                await self.sweep_once()
                delay = await self._delay()
            except Unavailable as error:
                log.warning(
                    "The deadline sweep could not reach the database (trying again in %.1f s): %s",
                    delay,
                    error,
                )
            except Exception:
                log.exception("The deadline sweep failed; trying again in %.1f s", delay)
            if self._stopping:
                break
            self._planned = utc_now() + timedelta(seconds=delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
            self._planned = None

    async def sweep_once(self) -> None:
        """Act on every game whose deadline passed, refresh their boards, retry boards that failed to show."""
        for game in await self._service.sweep():
            if game.is_live:
                log.info("Game %s: my overdue move is made", game.id)
            else:
                log.info("Game %s ended on time (%s)", game.id, game.status.value)
            await self._publisher.refresh(game)
        await self._publisher.retry_failed()
        await self._arenas.sweep()

    async def _delay(self) -> float:
        deadlines = [await self._service.next_deadline(), await self._service.next_arena_start()]
        deadline = min((moment for moment in deadlines if moment is not None), default=None)
        if deadline is None:
            return self._interval
        wait = (deadline - utc_now()).total_seconds() + _AFTER_DEADLINE
        return min(self._interval, max(_AFTER_DEADLINE, wait))
