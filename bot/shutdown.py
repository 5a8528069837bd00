"""Starting and stopping without loose ends: interactions wait until the game service is open,
and at shutdown those in flight are finished and later ones turned away.

:class:`InteractionGate` decides what happens to an interaction that arrives in each stage:

1. **holding** (the bot is on the gateway while the game service opens, see
   :meth:`bot.bot.TicTacToeBot.setup_hook`): it is kept, unparsed, and handled in arrival
   order once the service is open; if the bot shuts down first, it is refused as in stage 3;
2. **open**: discord.py handles it as usual (the games cog answers it);
3. **refusing** (shutdown, :meth:`bot.bot.TicTacToeBot.close`, is finishing the interactions
   in flight): it is answered at once with :data:`RESTARTING`, only to that user, and nothing
   else is done with it (an autocomplete gets no suggestions);
4. **closed** (the gateway and discord.py's HTTP session are being closed): it is dropped
   unanswered, as if it had arrived after the bot was gone; Discord shows the user its own
   "This interaction failed".

So no interaction is ever handled before the service is open or with a closed HTTP session,
and none is half-done: a click either is played and answered, or is not played at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import discord
from discord.state import ConnectionState

log = logging.getLogger(__name__)

RESTARTING = "I'm restarting right now; please try again in a moment."
"""The answer to an interaction that arrives while the bot shuts down."""

INTERACTION_CREATE = "INTERACTION_CREATE"


class InFlight:
    """Counts the interactions being handled, so shutdown can wait until they are answered."""

    def __init__(self) -> None:
        self._count = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def count(self) -> int:
        """How many interactions are in flight."""
        return self._count

    @contextlib.asynccontextmanager
    async def track(self) -> AsyncIterator[None]:
        """Count the block as an interaction in flight until it ends."""
        self._count += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._count -= 1
            if self._count == 0:
                self._idle.set()

    async def wait_idle(self, seconds: float) -> bool:
        """Wait until nothing is in flight; False if that took longer than ``seconds``."""
        try:
            await asyncio.wait_for(self._idle.wait(), seconds)
        except TimeoutError:
            return False
        return True


class Stage(enum.Enum):
    """What the bot does with new interactions: handle them, ask to try again, or nothing."""

    HOLDING = "holding"
    OPEN = "open"
    REFUSING = "refusing"
    CLOSED = "closed"


class InteractionGate:
    """Stands between the gateway and discord.py's handling of ``INTERACTION_CREATE``.

    discord.py hands every gateway event to the parser of that name in
    ``ConnectionState.parsers``; the gate takes that entry's place, so an interaction that
    arrives during shutdown never reaches a command, a button or an ``on_interaction``
    listener, and one that arrives while the service opens reaches them only once it is open.
    Refusals are not counted as in flight: under steady traffic they would keep
    shutdown waiting forever; :meth:`wait_refusals` waits for those already under way.
    """

    def __init__(self, state: ConnectionState[Any]) -> None:
        self._state = state
        self._parse: Callable[[Any], None] = state.parsers[INTERACTION_CREATE]
        self._tasks: set[asyncio.Task[None]] = set()
        self._held: list[Any] = []
        self.stage = Stage.OPEN
        self.refused = 0
        state.parsers[INTERACTION_CREATE] = self._receive

    def hold(self) -> None:
        """Keep new interactions until :meth:`open` (the service they need is not open yet)."""
        if self.stage is Stage.OPEN:
            self.stage = Stage.HOLDING

    def open(self) -> None:
        """Handle the interactions held so far, in arrival order, and every new one as it comes."""
        if self.stage is not Stage.HOLDING:
            return
        self.stage = Stage.OPEN
        held, self._held = self._held, []
        if held:
            log.info("Handling %d interaction(s) that arrived while the game service was opening", len(held))
        for data in held:
            self._parse(data)

    def refuse(self) -> None:
        """From now on answer new interactions with :data:`RESTARTING` (the HTTP session must stay open).

        Interactions still held are answered so too.
        """
        if self.stage in (Stage.HOLDING, Stage.OPEN):
            self.stage = Stage.REFUSING
            held, self._held = self._held, []
            for data in held:
                self._receive(data)

    def close(self) -> None:
        """From now on drop new interactions unanswered (the HTTP session is about to close)."""
        self.stage = Stage.CLOSED
        for data in self._held:
            log.debug("Shutting down: left interaction %s unanswered", data.get("id"))
        self._held.clear()

    def _receive(self, data: Any) -> None:
        if self.stage is Stage.OPEN:
            self._parse(data)
        elif self.stage is Stage.HOLDING:
            if not self._held:
                log.info("Interactions wait until the game service is open")
            self._held.append(data)
        elif self.stage is Stage.REFUSING:
            self.refused += 1
            task = asyncio.create_task(self._refuse(data), name=f"refuse-interaction-{data.get('id')}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            log.debug("Shutting down: left interaction %s unanswered", data.get("id"))

    async def _refuse(self, data: Any) -> None:
        try:
            interaction: discord.Interaction[Any] = discord.Interaction(data=data, state=self._state)
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(RESTARTING, ephemeral=True)
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
            log.warning("Shutting down: could not tell interaction %s to retry: %s", data.get("id"), error)
        except Exception:
            log.exception("Shutting down: could not read interaction %s", data.get("id"))

    async def wait_refusals(self, seconds: float) -> bool:
        """Wait until the refusals under way are sent; False (and they are given up) after ``seconds``."""
        if not self._tasks:
            return True
        _, pending = await asyncio.wait(set(self._tasks), timeout=seconds)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        return not pending
