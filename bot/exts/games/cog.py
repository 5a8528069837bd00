"""The games cog: the ``/ttt`` slash commands and the handling of board buttons.

Each handler turns a Discord interaction into one call of the game service and shows
the result; the rules live in the service, the words in :mod:`bot.exts.games.render`.
The handlers live in :mod:`bot.exts.games.handlers`, one class per concern, composed here.
Every handler runs inside :meth:`GamesCogBase.answering` (commands through
:func:`bot.exts.games.handlers.base.handled`), which counts it as in flight (shutdown waits
for it) and sends any error to :func:`bot.exts.games.respond.report`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from discord import app_commands

from bot.bot import Interaction, TicTacToeBot
from bot.exts.games.handlers.arenas import ArenaCommands
from bot.exts.games.handlers.base import TTT
from bot.exts.games.handlers.clicks import ClickHandling
from bot.exts.games.handlers.games import GameCommands
from bot.exts.games.handlers.records import RecordCommands
from bot.exts.games.handlers.settings import SettingsCommands
from bot.exts.games.respond import report

log = logging.getLogger(__name__)

ErrorHandler = Callable[[Interaction, app_commands.AppCommandError], Coroutine[Any, Any, Any]]


class GamesCog(GameCommands, RecordCommands, SettingsCommands, ArenaCommands, ClickHandling, name="Games"):
    """Tic-tac-toe: ``/ttt`` commands and the board's buttons."""

    ttt = TTT
    """discord.py registers the app commands it finds among a cog's class attributes."""

    def __init__(self, bot: TicTacToeBot) -> None:
        super().__init__(bot)
        self._background: set[asyncio.Task[None]] = set()
        self._previous_error_handler: ErrorHandler | None = None

    async def cog_load(self) -> None:
        """Install the error handler of the app commands, make the bot's pending moves, then start the
        deadline sweeper (so that a pending move is made, and shown, by one of the two only); make sure
        the themes' pieces are among the application's emoji meanwhile."""
        self._previous_error_handler = self.bot.tree.on_error
        self.bot.tree.error(self.on_app_command_error)
        self.bot.click_handler = self.on_click
        self._spawn(self._resume_bot_turns())
        self._spawn(self.publisher.pieces.upload(self.bot))

    async def cog_unload(self) -> None:
        """Restore the previous error handler and stop the sweeper."""
        if self._previous_error_handler is not None:
            self.bot.tree.error(self._previous_error_handler)
        if self.bot.click_handler == self.on_click:
            self.bot.click_handler = None
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        # After the background tasks: the start-up resume starts the sweeper as it ends, even cancelled.
        await self.sweeper.stop()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _resume_bot_turns(self) -> None:
        """After a restart: make the bot's replies that were due, and show them on their boards."""
        try:
            games = await self.service.resume_bot_turns()
        except Exception:
            log.exception("Could not resume the bot's pending moves")
            games = []
        try:
            await self.arenas.resume()
        except Exception:
            log.exception("Could not set up the arena rounds left half made")
        finally:
            self.sweeper.start()
        for game in games:
            await self.publisher.refresh(game)
        if games:
            log.info("Resumed %d game(s) waiting for my move", len(games))

    async def on_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Answer a failed app command with a friendly message; unexpected errors are logged."""
        await report(interaction, error)
