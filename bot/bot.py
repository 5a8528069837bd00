"""The Discord bot process: a discord.py bot over the game service, started by ``python -m bot run``.

:func:`run_bot` builds a :class:`TicTacToeBot` (a :class:`ShardedTicTacToeBot` when
``SHARD_COUNT`` is set), runs it until SIGINT or SIGTERM, then shuts down cleanly
(:mod:`bot.shutdown`): new interactions are turned away, those in flight are finished and
answered, then the gateway, the engine pool and the database are closed.

The bot connects to the gateway first and opens the game service meanwhile
(:meth:`TicTacToeBot.setup_hook`): the schema is brought to the newest migration (the CLI's
upgrade, when ``AUTO_MIGRATE`` is on), the service built and the games extension loaded;
interactions that arrive before wait for it at the gate. A database that cannot be prepared
stops the bot, and :func:`run_bot` returns why.

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
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeAlias

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.shutdown import InFlight, InteractionGate

if TYPE_CHECKING:
    from bot.exts.games.custom_ids import Click
    from bot.services import GameService

log = logging.getLogger(__name__)

GAMES_EXTENSION = "bot.exts.games"
BUTTONS_EXTENSION = "bot.exts.games.buttons"
DRAIN_SECONDS = 10.0
"""At shutdown, how long to wait for interactions in flight before closing anyway."""
REFUSAL_SECONDS = 3.0
"""Then how long to wait for the "try again" answers still on their way (Discord allows 3 s)."""

FIRST_ANSWERS_SECONDS = 2.0
"""Once the service is open, how long loading the engine's tables and the command sync wait for the
interactions that arrived while it opened to be answered."""

PrepareDatabase: TypeAlias = Callable[[], Coroutine[Any, Any, "str | None"]]
"""Brings the database to the newest schema before the service opens: None when done, else why not,
in one line (``bot.cli.migrate.upgrade_schema`` for ``python -m bot run``)."""


class ServiceNotOpenedError(Exception):
    """The database could not be prepared: the bot stops, and its message is the reason, in one line."""


def intents() -> discord.Intents:
    """Only the non-privileged guilds intent: slash commands and buttons arrive as interactions."""
    return discord.Intents(guilds=True)


class GatedTree(app_commands.CommandTree["TicTacToeBot"]):
    """The bot's command tree: a command or an autocomplete runs only once the bot's gate admits it."""

    async def interaction_check(self, interaction: discord.Interaction[TicTacToeBot], /) -> bool:
        """Ask :meth:`bot.shutdown.InteractionGate.admit` (waits while the service opens)."""
        return await self.client.gate.admit(interaction)


class TicTacToeBot(commands.Bot):
    """The bot: owns the game service, loads the games extension, syncs the commands."""

    def __init__(
        self, settings: Settings, prepare_database: PrepareDatabase | None = None, **options: Any
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # a click brings its message; nothing reads discord.py's message cache
            tree_cls=GatedTree,
            **options,
        )
        self.settings = settings
        self.inflight = InFlight()
        self.gate = InteractionGate()
        self._prepare_database = prepare_database
        self._service: GameService | None = None
        self._opening: asyncio.Task[None] | None = None
        self.failure: BaseException | None = None
        """Why the service could not open (the bot then stops); None while it opens or is open."""
        self._engine_start: asyncio.Task[None] | None = None
        self._shutting_down = False
        self.click_handler: ClickHandler | None = None
        """Who does the work of a board or challenge button's click: the games cog, while it is loaded.

        The clicks are taken apart from the cog (:mod:`bot.exts.games.buttons`), and a click can arrive
        while the cog is not loaded; then this is None and the click is turned away politely.
        """

    @property
    def open_service(self) -> GameService | None:
        """The game service once it is open, else None (while it opens, and after shutdown)."""
        return self._service

    @property
    def service(self) -> GameService:
        """The game service, open once setup_hook's opening is done (every interaction waits for it)."""
        if self._service is None:
            raise RuntimeError("The game service is not open yet: it opens after the bot logs in.")
        return self._service

    async def setup_hook(self) -> None:
        """Start opening the game service and let the gateway connect meanwhile (discord.py's hook).

        Until the service is open, interactions wait at the gate; the buttons are registered
        first, so that a click that comes meanwhile waits there too. The commands are synced once
        it is open; only when none is registered yet (a first start, or a new development server)
        does the gateway wait for that sync, since nobody could use a command before it.
        """
        if self.settings.uses_custom_api_base:
            await self._use_gateway_of_api()
        self.gate.hold()
        await self.load_extension(BUTTONS_EXTENSION)
        sync = self.settings.sync_commands
        sync_first = sync and not await self._commands_registered()
        opening = self._open_service(sync=sync and not sync_first)
        self._opening = asyncio.create_task(opening, name="open-service")
        if sync_first:
            await asyncio.wait({self._opening})
            if self.failure is not None:
                raise self.failure
            await self._sync_commands()

    async def _open_service(self, *, sync: bool) -> None:
        """Prepare the database, build the service, load the games.

        Then the interactions held at the gate are handled. On failure the bot stops, with
        :attr:`failure` saying why.
        """
        try:
            problem = await self._prepare_database() if self._prepare_database is not None else None
            if problem is not None:
                raise ServiceNotOpenedError(problem)
            service = self._service = self._build_service()
            self._engine_start = asyncio.create_task(self._start_engine(service), name="engine-warm-up")
            from bot.exts.translator import CommandTranslator

            await self.tree.set_translator(CommandTranslator())
            await self.load_extension(GAMES_EXTENSION)
            gc.freeze()  # as on_ready does, for what opening the service made (SQLAlchemy, the games)
        except Exception as error:
            self.failure = error
            await self.close()
            return
        self.gate.open()
        log.info("Ready to play: database %s", self.settings.database_url_display)
        await self._answer_waiting_interactions_first()
        service.engine.load_tables()
        if sync:
            await self._sync_commands()

    async def _answer_waiting_interactions_first(self) -> None:
        """Let the interactions that waited for the service be answered before the engine's tables
        are loaded and the commands synced (for :data:`FIRST_ANSWERS_SECONDS` at most): neither is
        needed to answer them, and both take the event loop for tens of milliseconds."""
        await asyncio.sleep(0)  # the handlers take their first step, which counts them in flight
        await self.inflight.wait_idle(FIRST_ANSWERS_SECONDS)

    async def _stop_opening(self) -> None:
        """At shutdown while the service opens: stop opening it (an upgrade under way is rolled back)."""
        opening, self._opening = self._opening, None
        if opening is not None and opening is not asyncio.current_task() and not opening.done():
            opening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await opening

    async def _commands_registered(self) -> bool:
        """Whether Discord already holds commands of this bot where they are synced (one REST request)."""
        guild = None if self.settings.dev_guild_id is None else discord.Object(id=self.settings.dev_guild_id)
        try:
            return bool(await self.tree.fetch_commands(guild=guild))
        except discord.HTTPException as error:
            log.debug("Could not list the registered commands: %s", error)
            return False

    @staticmethod
    async def _start_engine(service: GameService) -> None:
        """Start the engine's worker processes as soon as the service is built, rather than on the
        first move (they start on the other cores; the tables of this process load later).

        Nothing waits for this: a move asked for before the workers are up waits for them in
        the pool's queue, and if they fail to start, the first move starts a new pool.
        """
        try:
            await service.engine.warm_up()
        except Exception as error:
            log.warning("Could not start the engine workers ahead of the first move: %s", error)

    def _build_service(self) -> GameService:
        from bot.composition import build_service, service_settings

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
        What opening the service makes is frozen again once it is open (it may still be opening here).
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
            await self._stop_opening()
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


def create_bot(settings: Settings, prepare_database: PrepareDatabase | None = None) -> TicTacToeBot:
    """A bot for ``settings``, with discord.py's REST client pointed at ``DISCORD_API_BASE``."""
    discord.http.Route.BASE = settings.discord_api_base
    discord.VoiceClient.warn_nacl = False  # no voice here: skip discord.py's warnings about voice libraries
    discord.VoiceClient.warn_dave = False
    if settings.shard_count is None:
        return TicTacToeBot(settings, prepare_database)
    shard_ids = list(settings.shard_ids) if settings.shard_ids is not None else None
    return ShardedTicTacToeBot(
        settings, prepare_database, shard_count=settings.shard_count, shard_ids=shard_ids
    )


@contextlib.asynccontextmanager
async def _health_server(bot: TicTacToeBot, settings: Settings) -> AsyncIterator[None]:
    """The health and metrics endpoint for the bot's whole run, when ``HEALTH_PORT`` is set."""
    if settings.health_port is None:
        yield
        return
    from bot.monitoring.server import HealthServer

    server = HealthServer(bot, settings.health_host, settings.health_port)
    await server.start()
    try:
        yield
    finally:
        await server.close()


async def _serve(settings: Settings, token: str, prepare_database: PrepareDatabase | None) -> None:
    bot = create_bot(settings, prepare_database)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with bot, _health_server(bot, settings):
        runner = asyncio.create_task(bot.start(token), name="discord-bot")
        stopper = asyncio.create_task(stop.wait(), name="wait-for-signal")
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        if stop.is_set():
            log.info("Stop requested; shutting down")
            await bot.close()
        try:
            await runner
        except Exception:
            if not stop.is_set() and bot.failure is None:
                raise
            log.debug("The bot stopped with an error during shutdown", exc_info=True)
    if bot.failure is not None:
        raise bot.failure


def run_bot(settings: Settings, prepare_database: PrepareDatabase | None = None) -> str | None:
    """Run the bot until SIGINT or SIGTERM (or a fatal error).

    ``prepare_database`` runs once logged in, before the service opens. Returns None after
    a clean stop, or what it said when the database could not be prepared (the bot stopped).
    """
    if settings.discord_token is None:
        raise ValueError("run_bot needs settings with DISCORD_TOKEN")
    if not logging.getLogger().handlers:
        discord.utils.setup_logging(level=logging.getLevelName(settings.log_level), root=True)
    try:
        asyncio.run(_serve(settings, settings.discord_token.get_secret_value(), prepare_database))
    except ServiceNotOpenedError as error:
        return str(error)
    except discord.LoginFailure:
        log.error("Discord refused DISCORD_TOKEN; copy the bot token again from the Developer Portal.")
        raise SystemExit(1) from None
    except discord.PrivilegedIntentsRequired:
        log.error("Discord asks for a privileged intent; this bot should need none.")
        raise SystemExit(1) from None
    except aiohttp.ClientConnectorError as error:
        log.error(
            "Cannot reach Discord at %s (%s); check the network connection and DISCORD_API_BASE.",
            settings.discord_api_base,
            error,
        )
        raise SystemExit(1) from None
    return None
