"""The Discord bot process: a discord.py bot over the game service, started by ``python -m bot run``.

:func:`run_bot` builds a :class:`TicTacToeBot` (a :class:`ShardedTicTacToeBot` when
``SHARD_COUNT`` is set), runs it until SIGINT or SIGTERM, then shuts down cleanly
(:mod:`bot.shutdown`): new interactions are turned away, those in flight are finished and
answered, then the gateway, the engine pool and the database are closed. The CLI has
already migrated the schema and set up logging.

``DISCORD_API_BASE`` points discord.py's REST client elsewhere (a proxy, or the test
emulator); the gateway address then comes from that API's ``GET /gateway/bot``, since
discord.py would otherwise connect to Discord's own gateway.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeAlias

import discord
import yarl
from discord.ext import commands

from bot.composition import build_service, service_settings
from bot.config import Settings
from bot.exts.translator import CommandTranslator
from bot.services import GameService
from bot.shutdown import InFlight, InteractionGate

if TYPE_CHECKING:
    from bot.exts.games.custom_ids import Click

log = logging.getLogger(__name__)

GAMES_EXTENSION = "bot.exts.games"
DRAIN_SECONDS = 10.0
"""At shutdown, how long to wait for interactions in flight before closing anyway."""
REFUSAL_SECONDS = 3.0
"""Then how long to wait for the "try again" answers still on their way (Discord allows 3 s)."""


def intents() -> discord.Intents:
    """Only the non-privileged guilds intent: slash commands and buttons arrive as interactions."""
    return discord.Intents(guilds=True)


class TicTacToeBot(commands.Bot):
    """The bot: owns the game service, loads the games extension, syncs the commands."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # a click brings its message; nothing reads discord.py's message cache
            **options,
        )
        self.settings = settings
        self.inflight = InFlight()
        self.gate = InteractionGate(self._connection)
        self._service: GameService | None = None
        self._engine_start: asyncio.Task[None] | None = None
        self._shutting_down = False
        self.click_handler: ClickHandler | None = None
        """Who does the work of a board or challenge button's click: the games cog, while it is loaded.

        The buttons are registered with discord.py apart from the cog, and a click can arrive
        while the cog is not loaded; then this is None and the click is turned away politely.
        """

    @property
    def service(self) -> GameService:
        """The game service, built in setup_hook once the bot has logged in."""
        if self._service is None:
            raise RuntimeError("The game service starts in setup_hook; the bot has not logged in yet.")
        return self._service

    async def setup_hook(self) -> None:
        """Build the service and load the games extension before the gateway connects (discord.py's hook)."""
        if self.settings.uses_custom_api_base:
            await self._use_gateway_of_api()
        self._service = self._build_service()
        self._engine_start = asyncio.create_task(self._start_engine(self._service), name="engine-warm-up")
        await self.tree.set_translator(CommandTranslator())
        await self.load_extension(GAMES_EXTENSION)
        if self.settings.sync_commands:
            await self._sync_commands()
        log.info("Ready to play: database %s", self.settings.database_url_display)

    @staticmethod
    async def _start_engine(service: GameService) -> None:
        """Start the engine's worker processes while the bot connects, rather than on the first move.

        Nothing waits for this: a move asked for before the workers are up waits for them in
        the pool's queue, and if they fail to start, the first move starts a new pool.
        """
        try:
            await service.engine.warm_up()
        except Exception as error:
            log.warning("Could not start the engine workers ahead of the first move: %s", error)

    def _build_service(self) -> GameService:
        tuned = service_settings(self.settings)
        if self.user is not None:
            tuned = dataclasses.replace(tuned, bot_name=self.user.display_name)
        return build_service(self.settings, tuned)

    async def _use_gateway_of_api(self) -> None:
        """Connect to the gateway that ``DISCORD_API_BASE`` names, not to Discord's.

        discord.py reads :attr:`DiscordWebSocket.DEFAULT_GATEWAY` for the first
        connection, after an invalidated session and for every shard when the shard
        count is given, so pointing it at the API's gateway covers every path.
        """
        _, url, _ = await self.http.get_bot_gateway()
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        log.info("Using the gateway at %s from %s", url, self.settings.discord_api_base)

    async def _sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        try:
            if guild_id is None:
                synced = await self.tree.sync()
                log.info(
                    "Synced %d global command(s); Discord may take up to an hour to show them", len(synced)
                )
            else:
                guild = discord.Object(id=guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
                log.info("Synced %d command(s) to the development server %s", len(synced), guild_id)
        except discord.HTTPException as error:
            log.error(
                "Could not sync the slash commands (%s). Was the bot invited with the "
                "applications.commands scope%s?",
                error,
                "" if guild_id is None else f" to server {guild_id}",
            )

    async def on_ready(self) -> None:
        """Log the connection once the gateway session is ready; stop collecting what start-up made.

        The modules, the command tree, the catalogues and the database's metadata live as long as
        the process: :func:`gc.freeze` takes them out of the garbage collector's view, so a full
        collection during play walks only what play has made (tens of milliseconds less each time).
        """
        gc.freeze()
        user = self.user
        log.info("Connected as %s (id %s) to %d server(s)", user, user.id if user else "?", len(self.guilds))

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # discord.py's delayed READY task can fire after close() has dropped the event loop; drop it then.
        """Dispatch an event, unless the bot is closing and the event loop is gone."""
        if self.is_closed():
            return
        super().dispatch(event_name, *args, **kwargs)

    async def close(self) -> None:
        """Turn new interactions away, finish those in flight, then close the gateway, engines and database.

        See :mod:`bot.shutdown`: while the interactions in flight finish, new ones are told to
        try again in a moment; once the gateway and the HTTP session close, they go unanswered.
        """
        if not self._shutting_down:
            self._shutting_down = True
            self.gate.refuse()
            # Interactions parsed just before the gate turned have handlers that have not run
            # yet: let them take their first step, which counts them in flight.
            await asyncio.sleep(0)
            if self.inflight.count:
                log.info("Shutting down: finishing %d interaction(s) in flight", self.inflight.count)
            if not await self.inflight.wait_idle(DRAIN_SECONDS):
                log.warning("Shutting down with %d interaction(s) still unanswered", self.inflight.count)
            self.gate.close()
            if not await self.gate.wait_refusals(REFUSAL_SECONDS):
                log.warning("Shutting down before every late interaction was told to try again")
            if self.gate.refused:
                log.info("Told %d late interaction(s) to try again in a moment", self.gate.refused)
        await super().close()
        engine_start, self._engine_start = self._engine_start, None
        if engine_start is not None and not engine_start.done():
            engine_start.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await engine_start
        service, self._service = self._service, None
        if service is not None:
            await service.close()
            log.info("Closed the engine pool and the database")


Interaction: TypeAlias = discord.Interaction[TicTacToeBot]
"""An interaction as the bot's handlers get it: ``interaction.client`` is the bot, with its service."""

ClickHandler: TypeAlias = "Callable[[Interaction, Click], Awaitable[None]]"
"""Handles one click on a game's button, parsed from its custom id."""


class ShardedTicTacToeBot(TicTacToeBot, commands.AutoShardedBot):
    """The same bot running several shards (``SHARD_COUNT``, optionally a subset ``SHARD_IDS``)."""


def create_bot(settings: Settings) -> TicTacToeBot:
    """A bot for ``settings``, with discord.py's REST client pointed at ``DISCORD_API_BASE``."""
    discord.http.Route.BASE = settings.discord_api_base
    discord.VoiceClient.warn_nacl = False  # no voice here: skip discord.py's warnings about voice libraries
    discord.VoiceClient.warn_dave = False
    if settings.shard_count is None:
        return TicTacToeBot(settings)
    shard_ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedTicTacToeBot(settings, shard_count=settings.shard_count, shard_ids=shard_ids)


async def _serve(settings: Settings, token: str) -> None:
    bot = create_bot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(token), name="discord-bot")
        stopper = asyncio.create_task(stop.wait(), name="wait-for-signal")
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            log.info("Stop requested; shutting down")
            await bot.close()
            try:
                await runner
            except Exception:
                log.debug("The bot stopped with an error during shutdown", exc_info=True)
        else:
            stopper.cancel()
            await runner


def run_bot(settings: Settings) -> None:
    """Run the bot until SIGINT or SIGTERM (or a fatal error); the schema is already migrated."""
    if settings.discord_token is None:
        raise ValueError("run_bot needs settings with DISCORD_TOKEN")
    if not logging.getLogger().handlers:
        discord.utils.setup_logging(level=logging.getLevelName(settings.log_level), root=True)
    try:
        asyncio.run(_serve(settings, settings.discord_token.get()))
    except discord.LoginFailure:
        log.error("Discord refused DISCORD_TOKEN; copy the bot token again from the Developer Portal.")
        raise SystemExit(1) from None
    except discord.PrivilegedIntentsRequired:
        log.error("Discord asks for a privileged intent; this bot should need none.")
        raise SystemExit(1) from None
