"""The test-facing API of the local Discord emulator. Start with :class:`DiscordEmulator`."""

# The waiting API takes ``timeout=`` as a failure guard on purpose, so tests read as one call.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import base64
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Literal, TypeVar

from aiohttp import web

from . import rest_commands, rest_core, rest_emojis, rest_interactions, rest_messages, rest_threads
from .faults import FaultInjector, RestFault
from .gateway import GatewayServer, GatewaySession
from .interactions import Interaction, InteractionFactory
from .models import TEXT_CHANNEL, Channel, Guild, Member, Message, Role, User
from .openapi import ApiSpec, SpecViolation, unclaimed
from .permissions import DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS
from .records import GatewayRecord, RestCall
from .rest import RestServer
from .waiting import Notifier
from .world import World

T = TypeVar("T")

Actor = User | Member


class DiscordEmulator:
    """A local Discord: REST under :attr:`api_base`, a gateway at :attr:`gateway_url`, and a world to build.

    Typical use from a pytest-asyncio test::

        async with DiscordEmulator() as emu:
            guild = emu.create_guild("Test")
            channel = next(iter(guild.channels.values()))
            alice = emu.create_member(guild, "alice")
            ...start the bot with emu.env() ...
            await emu.wait_until_ready()
            it = await emu.slash(channel, alice, "ttt start", size=3)
            board = await it.wait_response()
            click = await emu.click(board, board.rows[1][1].custom_id, alice)
            await click.wait_callback()

    Everything the emulator does is synchronous state change plus a notification, so ``wait_for``
    (and every ``wait_*``) wakes on the change itself, never by polling.
    """

    def __init__(
        self,
        *,
        bot_name: str = "TicTacToe",
        token: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        heartbeat_interval_ms: int = 41_250,
        callback_deadline: float | None = 3.0,
        interaction_token_ttl: float = 900.0,
        recommended_shards: int = 1,
        api_spec: ApiSpec | Literal["env"] | None = "env",
    ) -> None:
        self.notifier = Notifier()
        self.world = World(self.notifier, bot_name=bot_name)
        app_id = self.world.application.id
        self.token = token or (
            base64.b64encode(str(app_id).encode()).decode().rstrip("=") + ".emu." + secrets.token_urlsafe(27)
        )
        self.host = host
        self._requested_port = port
        self.port = 0
        self.callback_deadline = callback_deadline
        """Seconds a bot has to make the initial callback (Discord: 3). None disables the check."""
        self.interaction_token_ttl = interaction_token_ttl
        """Seconds an interaction token works for follow-ups and edits (Discord: 15 minutes)."""
        self.recommended_shards = recommended_shards
        self.session_starts_remaining = 1000
        self.faults = FaultInjector()
        self.api_spec = ApiSpec.from_env() if api_spec == "env" else api_spec
        """Discord's API description every REST request is checked against: by default the file named
        by ``$DISCORD_API_SPEC`` (see :mod:`discord_emulator.openapi`); None checks nothing."""
        self.rest = RestServer(
            self.notifier,
            self.faults,
            token=self.token,
            new_id=self.world.snowflakes.next,
            spec=self.api_spec,
        )
        self.gateway = GatewayServer(self.world, self.notifier, token=self.token)
        self.gateway.heartbeat_interval_ms = heartbeat_interval_ms
        self.world.dispatch_hook = self.gateway.route
        self.gateway.on_dispatch_sent = self._on_dispatch_sent
        self._factory = InteractionFactory(self.world, self.notifier)
        self.interactions: list[Interaction] = []
        self._by_id: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self._runner: web.AppRunner | None = None

    # ---------------------------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Listen on ``host`` (a free port unless one was given)."""
        app = web.Application()
        routes = (
            rest_core.routes(self)
            + rest_commands.routes(self)
            + rest_messages.routes(self)
            + rest_interactions.routes(self)
            + rest_emojis.routes(self)
            + rest_threads.routes(self)
        )
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway-resume", self.gateway.handle)
        self.rest.install(app, routes)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._requested_port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self.gateway.base_url = f"ws://{self.host}:{self.port}"

    async def stop(self) -> None:
        await self.gateway.shutdown()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordEmulator:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        """What discord.py's ``Route.BASE`` must be (the bot's ``DISCORD_API_BASE``)."""
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return self.gateway.url

    @property
    def bot(self) -> User:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application.id

    def env(self) -> dict[str, str]:
        """Environment for a bot process pointed at this emulator."""
        return {"DISCORD_TOKEN": self.token, "DISCORD_API_BASE": self.api_base}

    # ---------------------------------------------------------------------------------- building

    def create_user(self, username: str, *, bot: bool = False, global_name: str | None = None) -> User:
        return self.world.create_user(username, bot=bot, global_name=global_name)

    def create_guild(
        self,
        name: str = "Test Server",
        *,
        owner: User | None = None,
        shard: tuple[int, int] | None = None,
        channels: Sequence[str] = ("general",),
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        preferred_locale: str = "en-US",
        with_bot: bool = True,
    ) -> Guild:
        """A guild with the bot in it; ``shard=(id, count)`` places it on that shard.

        ``with_bot=False``: a server that did not add the bot, reached only by its members' user installs.
        ``preferred_locale`` is the server's language (Discord reports it as ``guild_locale``; servers
        that are not Community servers report ``en-US``).
        """
        return self.world.create_guild(
            name,
            owner=owner,
            shard=shard,
            channels=channels,
            bot_permissions=bot_permissions,
            everyone_permissions=everyone_permissions,
            preferred_locale=preferred_locale,
            with_bot=with_bot,
        )

    def channel(self, guild: Guild, name: str = "general") -> Channel:
        """A guild's channel by name."""
        for channel in guild.channels.values():
            if channel.name == name:
                return channel
        raise LookupError(f"{guild.name!r} has no channel {name!r}")

    def create_channel(self, guild: Guild, name: str, *, kind: int = TEXT_CHANNEL) -> Channel:
        return self.world.create_channel(guild, name, kind=kind)

    def create_thread(
        self, parent: Channel, name: str, *, private: bool = False, owner: User | None = None
    ) -> Channel:
        return self.world.create_thread(parent, name, private=private, owner=owner)

    def create_role(
        self, guild: Guild, name: str, *, permissions: int = 0, mentionable: bool = False, color: int = 0
    ) -> Role:
        return self.world.create_role(
            guild, name, permissions=permissions, mentionable=mentionable, color=color
        )

    def add_member(
        self, guild: Guild, user: User, *, roles: Iterable[Role] = (), nick: str | None = None
    ) -> Member:
        return self.world.add_member(guild, user, roles=roles, nick=nick)

    def create_member(
        self,
        guild: Guild,
        username: str,
        *,
        roles: Iterable[Role] = (),
        bot: bool = False,
        nick: str | None = None,
        global_name: str | None = None,
    ) -> Member:
        """A new user who joins ``guild``; ``bot=True`` makes another bot account."""
        return self.world.create_member(
            guild, username, roles=roles, bot=bot, nick=nick, global_name=global_name
        )

    def remove_member(self, guild: Guild, user: Actor) -> None:
        self.world.remove_member(guild, user)

    def set_overwrite(
        self, channel: Channel, target: Role | Member | User, *, allow: int = 0, deny: int = 0
    ) -> None:
        self.world.set_overwrite(channel, target, allow=allow, deny=deny)

    def dm_channel(self, user: Actor) -> Channel:
        """The DM between ``user`` and the bot."""
        return self.world.dm_channel(_user(user))

    def create_dm(self, first: Actor, second: Actor) -> Channel:
        """A DM between two users (no bot in it): reached only through a user install."""
        return self.world.create_dm(_user(first), _user(second))

    def create_group_dm(self, owner: Actor, *others: Actor, name: str | None = None) -> Channel:
        """A group DM (no bot in it): reached only through a user install."""
        return self.world.create_group_dm(_user(owner), *(_user(other) for other in others), name=name)

    def install_to_user(self, user: Actor) -> None:
        """``user`` adds the app to their account, so its user-installable commands follow them anywhere."""
        self.world.install_to_user(_user(user))

    def bot_member(self, guild: Guild) -> Member:
        return self.world.bot_member(guild)

    # ---------------------------------------------------------------------------------- interactions

    async def send_interaction(self, it: Interaction) -> Interaction:
        """Register an interaction and dispatch INTERACTION_CREATE to the sessions of its guild's shard."""
        self.interactions.append(it)
        self._by_id[it.id] = it
        self._by_token[it.token] = it
        it.dispatched_to = self.gateway.dispatch(
            None if it.guild is None else it.guild.id, "INTERACTION_CREATE", it.payload
        )
        return it

    async def slash(
        self,
        channel: Channel,
        user: Actor,
        command: str,
        /,
        options: Mapping[str, Any] | None = None,
        *,
        force: bool = False,
        locale: str = "en-US",
        **kw_options: Any,
    ) -> Interaction:
        """``/command`` typed by ``user`` in ``channel``: ``await emu.slash(ch, alice, "ttt start", size=3)``.

        The command must have been synced by the bot; option values are checked against its definition
        (types, choices, ranges, required) as the Discord client would. Members, users, roles and channels
        may be passed as option values and are resolved like Discord does. ``force=True`` sends whatever
        it is given, as a forged client would.
        """
        merged = {**(options or {}), **kw_options}
        it = self._factory.application_command(channel, user, command, merged, locale=locale, force=force)
        return await self.send_interaction(it)

    async def autocomplete(
        self,
        channel: Channel,
        user: Actor,
        command: str,
        /,
        focused: str,
        options: Mapping[str, Any] | None = None,
        *,
        force: bool = False,
        locale: str = "en-US",
        **kw_options: Any,
    ) -> Interaction:
        """The user typing in option ``focused``; its partial text is one of the options:
        ``await emu.autocomplete(ch, alice, "ttt move", focused="cell", cell="b")``. Read ``it.choices``."""
        merged = {**(options or {}), **kw_options}
        it = self._factory.application_command(
            channel, user, command, merged, focused=focused, locale=locale, force=force
        )
        return await self.send_interaction(it)

    async def click(
        self,
        message: Message,
        custom_id: str,
        user: Actor,
        *,
        version: int | None = None,
        force: bool = False,
        locale: str = "en-US",
    ) -> Interaction:
        """``user`` clicks button ``custom_id`` of ``message`` (refused if absent/disabled unless forced).

        ``locale`` is the clicking user's Discord language, sent as the interaction's ``locale``.

        ``version=k`` clicks the message as it looked at ``message.history[k]``: a stale board in a client
        that has not caught up with later edits (the button must have been enabled then).
        """
        return await self.send_interaction(
            self._factory.component(message, custom_id, user, version=version, force=force, locale=locale)
        )

    async def select(
        self, message: Message, custom_id: str, user: Actor, values: list[str], *, force: bool = False
    ) -> Interaction:
        return await self.send_interaction(
            self._factory.component(message, custom_id, user, values=values, force=force)
        )

    async def submit_modal(
        self, opened_by: Interaction, values: Mapping[str, str], user: Actor | None = None
    ) -> Interaction:
        """Submit the modal the bot opened in answer to ``opened_by``, with text input values by custom id."""
        return await self.send_interaction(self._factory.modal_submit(opened_by, values, user))

    def interaction_by_id(self, interaction_id: str | int) -> Interaction | None:
        try:
            return self._by_id.get(int(interaction_id))
        except ValueError:
            return None

    def interaction_by_token(self, token: str) -> Interaction | None:
        return self._by_token.get(token)

    def expire_interaction(self, it: Interaction) -> None:
        """Make the token stale now: callbacks get 404 10062, webhook calls 404 10015, as after 15 minutes."""
        it.token_expired = True
        self.notifier.notify()

    def expire_all_interactions(self) -> None:
        for it in self.interactions:
            it.token_expired = True
        self.notifier.notify()

    def token_expired(self, it: Interaction) -> bool:
        return it.token_expired or time.monotonic() - it.created_at > self.interaction_token_ttl

    def _on_dispatch_sent(self, session: GatewaySession, payload: dict[str, Any]) -> None:
        if payload["t"] == "INTERACTION_CREATE":
            it = self._by_id.get(int(payload["d"]["id"]))
            if it is not None and it.delivered_at is None:
                it.delivered_at = time.monotonic()
                it.shard_id = session.shard_id

    # ---------------------------------------------------------------------------------- faults

    def add_fault(self, rule: RestFault) -> RestFault:
        return self.faults.add(rule)

    def fail_next(
        self,
        method: str,
        route: str,
        *,
        status: int = 500,
        times: int = 1,
        body: Any = None,
        params: Mapping[str, str] | None = None,
        match: Callable[[RestCall], bool] | None = None,
    ) -> RestFault:
        """The next ``times`` calls of ``method route`` (discord.py's template, e.g.
        ``"/channels/{channel_id}/messages/{message_id}"``; ``"*"`` for any) fail with ``status``."""
        return self.faults.add(
            RestFault(
                method, route, times=times, status=status, body=body, params=dict(params or {}), match=match
            )
        )

    def rate_limit_next(
        self,
        method: str,
        route: str,
        *,
        retry_after: float = 0.05,
        times: int = 1,
        is_global: bool = False,
        scope: str = "user",
        via_header: bool = True,
        params: Mapping[str, str] | None = None,
        match: Callable[[RestCall], bool] | None = None,
    ) -> RestFault:
        """429 with ``retry_after`` (body, headers as Discord's); discord.py sleeps and retries."""
        return self.faults.add(
            RestFault(
                method,
                route,
                times=times,
                status=429,
                retry_after=retry_after,
                is_global=is_global,
                scope=scope,
                via_header=via_header,
                params=dict(params or {}),
                match=match,
            )
        )

    def drop_next(
        self,
        method: str,
        route: str,
        *,
        times: int = 1,
        handled: bool = False,
        params: Mapping[str, str] | None = None,
        match: Callable[[RestCall], bool] | None = None,
    ) -> RestFault:
        """Close the connection without answering; with ``handled`` the request takes effect first and
        only the answer is lost. See :class:`RestFault` about aiohttp's own retry of idempotent methods."""
        return self.faults.add(
            RestFault(
                method, route, times=times, drop=True, handled=handled, params=dict(params or {}), match=match
            )
        )

    def delay_next(
        self,
        method: str,
        route: str,
        seconds: float,
        *,
        times: int = 1,
        status: int | None = None,
        params: Mapping[str, str] | None = None,
        match: Callable[[RestCall], bool] | None = None,
    ) -> RestFault:
        """Hold the answer for ``seconds`` (a slow Discord), then answer normally (or with ``status``)."""
        return self.faults.add(
            RestFault(
                method,
                route,
                times=times,
                delay=seconds,
                status=status,
                params=dict(params or {}),
                match=match,
            )
        )

    def hold_next(
        self,
        method: str,
        route: str,
        *,
        params: Mapping[str, str] | None = None,
        match: Callable[[RestCall], bool] | None = None,
    ) -> RestFault:
        """Hold the next matching call until the test sets the rule's ``release``, then answer it
        normally: a Discord exactly as slow as the test needs, without timing."""
        return self.faults.add(
            RestFault(
                method, route, status=None, release=asyncio.Event(), params=dict(params or {}), match=match
            )
        )

    def clear_faults(self) -> None:
        self.faults.clear()

    async def gateway_reconnect(self, shard_id: int | None = None) -> int:
        """Op 7 RECONNECT to the live sockets (of one shard, or all); the bot resumes on its own."""
        return await self.gateway.reconnect(shard_id)

    def gateway_drop(self, shard_id: int | None = None) -> int:
        """Cut the live sockets with no close frame; the sessions stay resumable."""
        return self.gateway.drop(shard_id)

    def gateway_outage(self) -> int:
        """Cut every live socket (no close frame); new ones hear nothing until :meth:`gateway_restore`.

        A client connecting meanwhile waits for HELLO (discord.py gives up after 60 s and tries again).
        """
        self.gateway.up.clear()
        return self.gateway.drop(None)

    def gateway_restore(self) -> None:
        """End an outage: held sockets get their HELLO, new ones too (cut sessions stay resumable)."""
        self.gateway.up.set()

    async def gateway_close(self, shard_id: int | None = None, code: int = 4000) -> int:
        return await self.gateway.close(shard_id, code)

    async def gateway_invalidate(self, shard_id: int | None = None, *, resumable: bool = False) -> int:
        return await self.gateway.invalidate(shard_id, resumable=resumable)

    # ---------------------------------------------------------------------------------- reading

    def messages(self, channel: Channel, *, include_ephemeral: bool = False) -> list[Message]:
        """The channel's messages, oldest first, as they are now (edits applied, deleted ones gone)."""
        return self.world.messages_in(channel, include_ephemeral=include_ephemeral)

    def last_message(self, channel: Channel) -> Message | None:
        messages = self.messages(channel)
        return messages[-1] if messages else None

    def message(self, message_id: int) -> Message:
        return self.world.messages[message_id]

    def commands(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The commands the bot synced (global, or to ``guild``), as Discord stores them."""
        return self.world.commands.scope(None if guild is None else guild.id)

    def command(self, name: str, guild: Guild | None = None) -> dict[str, Any]:
        for command in self.commands(guild):
            if command["name"] == name:
                return command
        raise LookupError(f"no command {name!r} synced {'globally' if guild is None else 'to ' + guild.name}")

    @property
    def rest_log(self) -> list[RestCall]:
        return self.rest.log

    @property
    def gateway_log(self) -> list[GatewayRecord]:
        return self.gateway.log

    @property
    def sessions(self) -> list[GatewaySession]:
        return self.gateway.sessions

    @property
    def spec_violations(self) -> list[SpecViolation]:
        """Every request Discord's API description refused (each was answered 400, code 50035)."""
        return list(self.rest.spec_violations)

    def take_spec_violations(self) -> list[SpecViolation]:
        """The violations so far, claimed: a test that provokes them on purpose takes them, and
        the pytest fixtures (:mod:`discord_emulator.fixtures`) fail a test that leaves any."""
        taken = list(self.rest.spec_violations)
        self.rest.spec_violations.clear()
        unclaimed[:] = [violation for violation in unclaimed if all(violation is not t for t in taken)]
        return taken

    def calls(
        self, method: str | None = None, route: str | None = None, *, status: int | None = None
    ) -> list[RestCall]:
        """Recorded REST calls, filtered by method, route template and status."""
        return [
            call
            for call in self.rest.log
            if (method is None or call.method == method.upper())
            and (route is None or call.route == route)
            and (status is None or call.status == status)
        ]

    def channel_api_calls(self, channel: Channel) -> list[RestCall]:
        """Every REST call the bot made on ``channel``'s own routes (``/channels/{id}/...``), refused or
        not: where the bot is not present these are what a 403 storm is made of."""
        return [call for call in self.rest.log if call.params.get("channel_id") == str(channel.id)]

    def dispatches(self, event: str | None = None, shard_id: int | None = None) -> list[GatewayRecord]:
        """Dispatches written to the bot's sockets, optionally of one event name and shard."""
        return [
            record
            for record in self.gateway.log
            if record.direction == "send"
            and record.op == 0
            and (event is None or record.t == event)
            and (shard_id is None or record.shard_id == shard_id)
        ]

    # ---------------------------------------------------------------------------------- waiting

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, description: str = ""
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value; re-checked on every state change.

        Only the emulator's state changes wake the wait (a REST call, a gateway frame, a world edit), so
        the predicate should read emulator state. To know the bot has processed earlier events, wait
        for its answer to a later interaction: the bot reads its socket in order.
        """
        return await self.notifier.wait_for(predicate, timeout, description)

    async def wait_until_ready(self, shard_id: int | None = None, *, timeout: float = 10.0) -> GatewaySession:
        """A live session (of ``shard_id``, if given) has been sent READY and all its GUILD_CREATEs."""

        def ready() -> GatewaySession | None:
            for session in self.gateway.sessions:
                if (
                    session.ready
                    and not session.invalidated
                    and (shard_id is None or session.shard_id == shard_id)
                ):
                    return session
            return None

        return await self.wait_for(ready, timeout, f"a ready gateway session for shard {shard_id}")

    async def wait_for_commands(
        self, guild: Guild | None = None, *, timeout: float = 10.0
    ) -> list[dict[str, Any]]:
        """Wait for the bot's bulk command sync (global, or to ``guild``) and return the commands."""
        scope = None if guild is None else guild.id
        await self.wait_for(
            lambda: scope in self.world.commands.bulk_syncs, timeout, f"a command sync to {scope}"
        )
        return self.commands(guild)

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        *,
        include_ephemeral: bool = False,
        timeout: float = 5.0,
    ) -> Message:
        """The first message in ``channel`` (oldest first) satisfying ``predicate``, now or after an edit."""

        def found() -> Message | None:
            for message in self.messages(channel, include_ephemeral=include_ephemeral):
                if predicate is None or predicate(message):
                    return message
            return None

        return await self.wait_for(found, timeout, f"a message in #{channel.name}")

    async def wait_for_edit(
        self, message: Message, *, since: int | None = None, timeout: float = 5.0
    ) -> Message:
        """Wait until ``message`` has been edited past version ``since`` (default: its version now).

        Read ``message.version`` before the action that should edit it and pass it as ``since``, so an
        edit that lands before this call is not missed.
        """
        baseline = message.version if since is None else since
        return await self.wait_for(
            lambda: message if message.version > baseline else None,
            timeout,
            f"an edit of message {message.id}",
        )

    async def wait_for_call(
        self,
        method: str,
        route: str,
        predicate: Callable[[RestCall], bool] | None = None,
        *,
        answered: bool = True,
        timeout: float = 5.0,
    ) -> RestCall:
        """The first recorded call of ``method route`` matching ``predicate`` (answered, by default)."""

        def found() -> RestCall | None:
            for call in self.calls(method, route):
                if (not answered or call.status is not None) and (predicate is None or predicate(call)):
                    return call
            return None

        return await self.wait_for(found, timeout, f"a call {method} {route}")


def _user(actor: Actor) -> User:
    return actor.user if isinstance(actor, Member) else actor
