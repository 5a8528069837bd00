"""Starting and stopping without loose ends: interactions wait until the game service is open,
and at shutdown those in flight are finished and later ones turned away.

:class:`InteractionGate` decides what happens to an interaction that arrives in each stage:

1. **holding** (the bot is on the gateway while the game service opens, see
   :meth:`bot.bot.TicTacToeBot.setup_hook`): it waits, and is handled in arrival order once
   the service is open; if the bot shuts down first, it is refused as in stage 3;
2. **open**: discord.py handles it as usual (the games cog answers it);
3. **refusing** (shutdown, :meth:`bot.bot.TicTacToeBot.close`, is finishing the interactions
   in flight): it is answered at once with :func:`restarting`, only to that user, and nothing
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
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord

from bot.notice import Notice, notice_view

log = logging.getLogger(__name__)


def restarting(locale: str | None) -> str:
    """The answer to an interaction that arrives while the bot shuts down, in the user's language.

    The catalogues are imported here on first use, not with this module: the bot imports it
    before it connects, and loads Babel while it connects.
    """
    from bot.i18n import texts_for_locale

    return texts_for_locale(locale).gettext("I'm restarting right now; please try again in a moment.")


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
    """Admits interactions to the bot's handlers, or holds, refuses or drops them, by :attr:`stage`.

    Every entry of an interaction into the bot asks :meth:`admit` first: the command tree's
    ``interaction_check`` (commands and autocomplete), the arenas' buttons' ``interaction_check``,
    and the ``on_interaction`` listener that takes the games' clicks. So an interaction that
    arrives during shutdown never reaches a command or a button, and one that arrives while
    the service opens reaches them only once it is open. Refusals are not counted as in
    flight: under steady traffic they would keep shutdown waiting forever;
    :meth:`wait_refusals` waits for those already under way.
    """

    def __init__(self) -> None:
        self.stage = Stage.OPEN
        self.refused = 0
        self._held: list[tuple[discord.Interaction[Any], asyncio.Future[bool]]] = []
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def waiting(self) -> int:
        """How many interactions wait while the service opens."""
        return len(self._held)

    def _release(self) -> list[tuple[discord.Interaction[Any], asyncio.Future[bool]]]:
        held, self._held = self._held, []
        return [(interaction, decided) for interaction, decided in held if not decided.done()]

    def hold(self) -> None:
        """Keep new interactions until :meth:`open` (the service they need is not open yet)."""
        if self.stage is Stage.OPEN:
            self.stage = Stage.HOLDING

    def open(self) -> None:
        """Admit the interactions held so far, in arrival order, and every new one as it comes."""
        if self.stage is not Stage.HOLDING:
            return
        self.stage = Stage.OPEN
        held = self._release()
        if held:
            log.info("Handling %d interaction(s) that arrived while the game service was opening", len(held))
        for _, decided in held:
            decided.set_result(True)

    def refuse(self) -> None:
        """From now on answer new interactions with :func:`restarting` (the HTTP session must stay open).

        Interactions still held are answered so too.
        """
        if self.stage in (Stage.HOLDING, Stage.OPEN):
            self.stage = Stage.REFUSING
            for interaction, decided in self._release():
                self._turn_away(interaction)
                decided.set_result(False)

    def close(self) -> None:
        """From now on drop new interactions unanswered (the HTTP session is about to close)."""
        self.stage = Stage.CLOSED
        for interaction, decided in self._release():
            log.debug("Shutting down: left interaction %s unanswered", interaction.id)
            decided.set_result(False)

    async def admit(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether the bot's handlers may take ``interaction`` now; while the service opens, waits.

        False when it was turned away: answered with :func:`restarting` (in the background)
        during shutdown, or left unanswered once the gateway closes.
        """
        if self.stage is Stage.OPEN:
            return True
        if self.stage is Stage.HOLDING:
            if not self._held:
                log.info("Interactions wait until the game service is open")
            decided: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            self._held.append((interaction, decided))
            return await decided
        if self.stage is Stage.REFUSING:
            self._turn_away(interaction)
        else:
            log.debug("Shutting down: left interaction %s unanswered", interaction.id)
        return False

    def _turn_away(self, interaction: discord.Interaction[Any]) -> None:
        """Answer ``interaction`` with :func:`restarting`, in the background."""
        self.refused += 1
        task = asyncio.create_task(self._refuse(interaction), name=f"refuse-interaction-{interaction.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _refuse(self, interaction: discord.Interaction[Any]) -> None:
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                view = notice_view(restarting(interaction.locale.value), Notice.OUTAGE)
                await interaction.response.send_message(view=view, ephemeral=True)
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
            log.warning("Shutting down: could not tell interaction %s to retry: %s", interaction.id, error)
        except Exception:
            log.exception("Shutting down: could not answer interaction %s", interaction.id)

    async def wait_refusals(self, seconds: float) -> bool:
        """Wait until the refusals under way are sent; False (and they are given up) after ``seconds``."""
        if not self._tasks:
            return True
        _, pending = await asyncio.wait(set(self._tasks), timeout=seconds)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        return not pending
