"""Interactions that tests inject (slash commands, autocomplete, clicks, modal submits) and their fate.

An :class:`Interaction` is the test's handle: it records the bot's callback (type, data, ephemeral),
the message it created or updated, and its follow-ups, and lets the test wait for each of them.
"""

# The waiting API takes ``timeout=`` as a failure guard on purpose, so tests read as one call.
# ruff: noqa: ASYNC109

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from .models import EPHEMERAL, Channel, Guild, Member, Message, Role, User
from .payloads import (
    channel_payload,
    interaction_member_payload,
    member_payload,
    message_payload,
    role_payload,
    user_payload,
)
from .permissions import USER_INSTALL_APP_PERMISSIONS, Perm, channel_permissions
from .waiting import Notifier
from .world import World

T = TypeVar("T")

PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD_CONTEXT, BOT_DM_CONTEXT, PRIVATE_CHANNEL_CONTEXT = 0, 1, 2
CONTEXT_NAMES = {
    GUILD_CONTEXT: "servers",
    BOT_DM_CONTEXT: "DMs with the bot",
    PRIVATE_CHANNEL_CONTEXT: "private channels",
}
USER_INSTALL_FOLLOWUP_LIMIT = 5
"""Follow-ups per interaction when only a user install authorised it (Discord: 5)."""


class InteractionUsageError(ValueError):
    """The test asked for an interaction a Discord client could not send (unknown option, disabled button...).

    Pass ``force=True`` to send it anyway, as a forged or buggy client would.
    """


@dataclass(frozen=True)
class Callback:
    """The bot's initial response: ``POST /interactions/{id}/{token}/callback``."""

    type: int
    data: dict[str, Any] | None
    at: float

    @property
    def ephemeral(self) -> bool:
        return bool((self.data or {}).get("flags", 0) & EPHEMERAL)


class Interaction:
    """One injected interaction and everything the bot did in answer to it."""

    def __init__(
        self,
        *,
        payload: dict[str, Any],
        user: User,
        member: Member | None,
        channel: Channel,
        guild: Guild | None,
        message: Message | None,
        notifier: Notifier,
        public_replies_allowed: bool = True,
    ) -> None:
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.user = user
        self.member = member
        self.channel = channel
        self.guild = guild
        self.message = message
        """For a component interaction, the message whose component was used."""
        self.public_replies_allowed = public_replies_allowed
        """False where Discord turns every answer ephemeral: a server without the bot where the user may
        not send messages or use external apps."""
        self._notifier = notifier
        self.created_at = time.monotonic()
        self.delivered_at: float | None = None
        """When the INTERACTION_CREATE frame was written to a live gateway socket."""
        self.shard_id: int | None = None
        self.dispatched_to = 0
        """How many gateway sessions the INTERACTION_CREATE was queued for (0: no bot would see it)."""
        self.callback: Callback | None = None
        self.original: Message | None = None
        """The response message: created by callback 4/5, or the component's message for 6/7."""
        self.followups: list[Message] = []
        self.token_expired = False
        self.original_version_at_callback = 0
        """For callback 6, the component message's version when the bot deferred (edits come after it)."""
        self.token_edits = 0
        """Edits of the original message made with this interaction's own token (webhook PATCH)."""
        self.refused_callbacks: list[tuple[int, int]] = []
        """(callback type, Discord error code) of callbacks the emulator refused, e.g. a second answer."""

    def __repr__(self) -> str:
        callback = None if self.callback is None else self.callback.type
        return (
            f"<Interaction id={self.id} type={self.type} callback={callback} followups={len(self.followups)}>"
        )

    @property
    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = self.payload.get("data") or {}
        return data

    @property
    def context(self) -> int:
        """Where it was triggered: 0 a server, 1 a DM with the bot, 2 a group DM or a DM between users."""
        return int(self.payload["context"])

    @property
    def authorizing_integration_owners(self) -> dict[str, str]:
        owners: dict[str, str] = self.payload["authorizing_integration_owners"]
        return owners

    @property
    def user_install_only(self) -> bool:
        """Only a user install authorised it (no ``"0"`` key): the bot is not where it was triggered."""
        return str(GUILD_INSTALL) not in self.authorizing_integration_owners

    @property
    def acknowledged(self) -> bool:
        return self.callback is not None

    @property
    def ephemeral(self) -> bool:
        """Whether the response the user sees is ephemeral (flag 64 on the callback or the original,
        or, after a silent acknowledgement, on the first follow-up)."""
        if self.original is not None and self.callback is not None and self.callback.type in (4, 5):
            return self.original.ephemeral
        if self.callback is None:
            return False
        if self.callback.type == DEFERRED_UPDATE_MESSAGE and self.token_edits == 0:
            return bool(self.followups) and self.followups[0].ephemeral
        return self.callback.ephemeral

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices the bot returned (callback type 8)."""
        if self.callback is None or self.callback.type != AUTOCOMPLETE_RESULT:
            return []
        return list((self.callback.data or {}).get("choices") or [])

    @property
    def modal(self) -> dict[str, Any] | None:
        if self.callback is None or self.callback.type != MODAL:
            return None
        return self.callback.data

    @property
    def ack_latency(self) -> float | None:
        """Seconds from delivery on the gateway to the callback's arrival."""
        if self.callback is None or self.delivered_at is None:
            return None
        return self.callback.at - self.delivered_at

    @property
    def messages(self) -> list[Message]:
        """The original response (if it is a message of this interaction) and every follow-up."""
        first = [self.original] if self.original is not None and self.original.interaction is self else []
        return [*first, *self.followups]

    async def wait_for(self, predicate: Callable[[Interaction], T | None], timeout: float = 5.0) -> T:
        return await self._notifier.wait_for(lambda: predicate(self), timeout, f"{self!r}: {predicate!r}")

    async def wait_callback(self, timeout: float = 5.0) -> Callback:
        """The bot's initial response (any type)."""
        return await self.wait_for(lambda it: it.callback, timeout)

    async def wait_response(self, timeout: float = 5.0) -> Message:
        """The message the user sees as the answer, once it is no longer "thinking".

        For callback 4 the new message; for 5 the deferred message after its edit or first follow-up;
        for 7 the updated component message; for 6 the component message once this interaction's
        token has edited it, or its first follow-up (a click refused after it was acknowledged).
        """

        def ready(it: Interaction) -> Message | None:
            if it.callback is None or it.original is None or it.original.loading:
                return None
            if it.callback.type == DEFERRED_UPDATE_MESSAGE and it.token_edits == 0:
                # Another click's edit of the same board is not this click's answer.
                return it.followups[0] if it.followups else None
            return it.original

        return await self.wait_for(ready, timeout)

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[Message]:
        return await self.wait_for(
            lambda it: it.followups[:count] if len(it.followups) >= count else None, timeout
        )


class InteractionFactory:
    """Builds INTERACTION_CREATE payloads the way Discord fills them in."""

    def __init__(self, world: World, notifier: Notifier) -> None:
        self.world = world
        self.notifier = notifier

    # ------------------------------------------------------------------------------ envelope

    def _member(self, guild: Guild, user: User | Member, force: bool) -> Member:
        member = guild.members.get(user.id)
        if member is None:
            if not force:
                raise InteractionUsageError(f"{user!r} is not a member of {guild.name!r}")
            member = Member(user=user.user if isinstance(user, Member) else user, guild_id=guild.id)
        return member

    def context_of(self, channel: Channel) -> int:
        if channel.guild_id is not None:
            return GUILD_CONTEXT
        return BOT_DM_CONTEXT if channel.with_bot else PRIVATE_CHANNEL_CONTEXT

    def command_owners(self, command: dict[str, Any], channel: Channel, user: User) -> dict[str, str]:
        """``authorizing_integration_owners`` for invoking ``command`` here: the guild install where the
        bot is (``"0"``: the guild id, or ``"0"`` in a DM with the bot) and the invoking user's own
        install (``"1"``), each when the command supports that installation type."""
        world = self.world
        guild = world.guild_of(channel)
        kinds = [GUILD_INSTALL] if "guild_id" in command else list(command.get("integration_types") or [0])
        owners: dict[str, str] = {}
        if GUILD_INSTALL in kinds and world.bot_present(channel):
            owners[str(GUILD_INSTALL)] = "0" if guild is None else str(guild.id)
        if USER_INSTALL in kinds and user.id in world.application.user_installs:
            owners[str(USER_INSTALL)] = str(user.id)
        return owners

    def _place_owners(self, channel: Channel) -> dict[str, str]:
        """Owners for an interaction on a message no interaction created: the guild install, if any."""
        if not self.world.bot_present(channel):
            return {}
        return {str(GUILD_INSTALL): "0" if channel.guild_id is None else str(channel.guild_id)}

    def _envelope(
        self,
        kind: int,
        channel: Channel,
        actor: User | Member,
        data: dict[str, Any] | None,
        *,
        owners: dict[str, str],
        message: Message | None = None,
        locale: str = "en-US",
        force: bool = False,
    ) -> Interaction:
        world = self.world
        user = actor.user if isinstance(actor, Member) else actor
        guild = world.guild_of(channel)
        user_install_only = str(GUILD_INSTALL) not in owners
        app_permissions = (
            USER_INSTALL_APP_PERMISSIONS if user_install_only else world.bot_permissions(channel)
        )
        interaction_id = world.snowflakes.next()
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(world.application.id),
            "type": kind,
            "token": f"emu{interaction_id}.{secrets.token_urlsafe(24)}",
            "version": 1,
            "channel_id": str(channel.id),
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "app_permissions": str(int(app_permissions)),
            "authorizing_integration_owners": dict(owners),
            "context": self.context_of(channel),
        }
        if data is not None:
            payload["data"] = data
        member: Member | None = None
        public_replies_allowed = True
        channel_data = channel_payload(channel, viewer=None if channel.with_bot else user)
        if guild is not None:
            member = self._member(guild, actor, force)
            member_permissions = channel_permissions(guild, member, channel)
            channel_data["permissions"] = str(member_permissions)
            needed = Perm.SEND_MESSAGES | Perm.USE_EXTERNAL_APPS
            public_replies_allowed = not user_install_only or member_permissions & needed == needed
            payload.update(
                {
                    "guild_id": str(guild.id),
                    "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                    "guild_locale": guild.preferred_locale,
                    "member": interaction_member_payload(guild, member, channel),
                }
            )
        else:
            payload["user"] = user_payload(user)
        payload["channel"] = channel_data
        if message is not None:
            payload["message"] = message_payload(message)
        return Interaction(
            payload=payload,
            user=user,
            member=member,
            channel=channel,
            guild=guild,
            message=message,
            notifier=self.notifier,
            public_replies_allowed=public_replies_allowed,
        )

    # ------------------------------------------------------------------------------ commands

    def application_command(
        self,
        channel: Channel,
        actor: User | Member,
        path: str,
        options: Mapping[str, Any],
        *,
        focused: str | None = None,
        locale: str = "en-US",
        force: bool = False,
    ) -> Interaction:
        """``path`` is the command as typed without the slash: ``"ttt start"``."""
        names = path.split()
        if not names:
            raise InteractionUsageError("empty command path")
        guild = self.world.guild_of(channel)
        command = self.world.commands.resolve(names[0], None if guild is None else guild.id)
        if command is None:
            registered = self.world.commands.names(None) + (
                self.world.commands.names(guild.id) if guild is not None else []
            )
            raise InteractionUsageError(f"/{names[0]} is not a registered command (registered: {registered})")
        user = actor.user if isinstance(actor, Member) else actor
        owners = self.command_owners(command, channel, user)
        context = self.context_of(channel)
        contexts = command.get("contexts")
        if contexts is None:
            contexts = [GUILD_CONTEXT, PRIVATE_CHANNEL_CONTEXT]
            if command.get("dm_permission", True):
                contexts.append(BOT_DM_CONTEXT)
        if not force:
            if context not in contexts:
                raise InteractionUsageError(f"/{names[0]} cannot be used in {CONTEXT_NAMES[context]}")
            if not owners:
                raise InteractionUsageError(
                    f"/{names[0]} is not available to {user.username} here: the bot is not in this"
                    " conversation and the command has no user install for them"
                    f" (integration_types {command.get('integration_types')})"
                )
        required = command.get("default_member_permissions")
        member = guild.members.get(actor.id) if guild is not None else None
        if member is not None and guild is not None and required is not None:
            lacking = int(required) & ~channel_permissions(guild, member, channel)
            if lacking and not force:
                raise InteractionUsageError(
                    f"{member.user.username} lacks the permissions /{names[0]} requires"
                )

        resolved: dict[str, dict[str, Any]] = {}
        definitions: list[dict[str, Any]] = command.get("options") or []
        nesting: list[dict[str, Any]] = []
        for name in names[1:]:
            found = next(
                (
                    d
                    for d in definitions
                    if d.get("name") == name and d.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
                ),
                None,
            )
            if found is None:
                raise InteractionUsageError(f"/{path}: no subcommand {name!r}")
            nesting.append({"name": name, "type": found["type"]})
            definitions = found.get("options") or []
        if any(d.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for d in definitions):
            raise InteractionUsageError(f"/{path} is a group; name a subcommand")

        leaf = self._leaf_options(path, definitions, options, resolved, guild, channel, focused, force)
        for index in range(len(nesting) - 1, -1, -1):
            nesting[index]["options"] = leaf
            leaf = [nesting[index]]
        data: dict[str, Any] = {"id": command["id"], "name": names[0], "type": 1}
        if leaf:
            data["options"] = leaf
        if resolved:
            data["resolved"] = resolved
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        kind = AUTOCOMPLETE if focused is not None else APPLICATION_COMMAND
        return self._envelope(kind, channel, actor, data, owners=owners, locale=locale, force=force)

    def _leaf_options(
        self,
        path: str,
        definitions: list[dict[str, Any]],
        given: Mapping[str, Any],
        resolved: dict[str, dict[str, Any]],
        guild: Guild | None,
        channel: Channel,
        focused: str | None,
        force: bool,
    ) -> list[dict[str, Any]]:
        by_name = {d["name"]: d for d in definitions}
        unknown = [name for name in given if name not in by_name]
        if unknown and not force:
            raise InteractionUsageError(f"/{path} has no option(s) {unknown}; it has {list(by_name)}")
        if focused is not None and focused not in given:
            raise InteractionUsageError(f"the focused option {focused!r} needs a value (what the user typed)")
        if focused is None and not force:
            missing = [d["name"] for d in definitions if d.get("required") and d["name"] not in given]
            if missing:
                raise InteractionUsageError(f"/{path} is missing required option(s) {missing}")
        order = [d["name"] for d in definitions if d["name"] in given] + unknown
        options: list[dict[str, Any]] = []
        for name in order:
            definition = by_name.get(name) or {"name": name, "type": _guess_type(given[name])}
            if name == focused:
                options.append(
                    {"name": name, "type": definition["type"], "value": str(given[name]), "focused": True}
                )
                continue
            value = self._convert(path, definition, given[name], resolved, guild, channel, force)
            options.append({"name": name, "type": definition["type"], "value": value})
        return options

    def _convert(
        self,
        path: str,
        definition: dict[str, Any],
        value: Any,
        resolved: dict[str, dict[str, Any]],
        guild: Guild | None,
        channel: Channel,
        force: bool,
    ) -> Any:
        kind = definition["type"]
        name = definition["name"]
        if kind in (USER, MENTIONABLE) and isinstance(value, User | Member):
            user = value.user if isinstance(value, Member) else value
            resolved.setdefault("users", {})[str(user.id)] = user_payload(user)
            member = guild.members.get(user.id) if guild is not None else None
            if member is not None and guild is not None:
                data = member_payload(member, with_user=False)
                data["permissions"] = str(channel_permissions(guild, member, channel))
                resolved.setdefault("members", {})[str(user.id)] = data
            return str(user.id)
        if kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = role_payload(value)
            return str(value.id)
        if kind == CHANNEL and isinstance(value, Channel):
            data = channel_payload(value)
            if guild is not None and guild.with_bot:
                data["permissions"] = str(channel_permissions(guild, self.world.bot_member(guild), value))
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        if force:
            return value
        ok = {
            STRING: isinstance(value, str),
            INTEGER: isinstance(value, int) and not isinstance(value, bool),
            BOOLEAN: isinstance(value, bool),
            NUMBER: isinstance(value, int | float) and not isinstance(value, bool),
        }.get(kind, False)
        if not ok:
            raise InteractionUsageError(f"/{path} option {name!r} (type {kind}) cannot take {value!r}")
        choices = definition.get("choices")
        if choices and value not in [choice["value"] for choice in choices]:
            raise InteractionUsageError(
                f"/{path} option {name!r} must be one of {[c['value'] for c in choices]}"
            )
        if kind == STRING:
            low, high = definition.get("min_length", 0), definition.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise InteractionUsageError(f"/{path} option {name!r} must be {low}..{high} characters long")
        if kind in (INTEGER, NUMBER):
            low, high = definition.get("min_value"), definition.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise InteractionUsageError(f"/{path} option {name!r} must be within {low}..{high}")
        return value

    # ------------------------------------------------------------------------------ components

    def component(
        self,
        message: Message,
        custom_id: str,
        actor: User | Member,
        *,
        values: list[str] | None = None,
        version: int | None = None,
        force: bool = False,
        locale: str = "en-US",
    ) -> Interaction:
        """``version`` clicks the message as it was then (a client that has not seen later edits)."""
        user = actor.user if isinstance(actor, Member) else actor
        item = message.component(custom_id, version)
        if not force:
            if message.deleted:
                raise InteractionUsageError(f"message {message.id} was deleted")
            if message.visible_to is not None and message.visible_to != user.id:
                raise InteractionUsageError(
                    f"message {message.id} is ephemeral and not shown to {user.username}"
                )
            if item is None:
                raise InteractionUsageError(f"message {message.id} has no component {custom_id!r}")
            if item.get("disabled"):
                raise InteractionUsageError(f"component {custom_id!r} is disabled")
        component_type = int(item.get("type", 2)) if item is not None else (3 if values is not None else 2)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None or component_type in (3, 5, 6, 7, 8):
            data["values"] = list(values or [])
        owners = (
            message.interaction.authorizing_integration_owners
            if message.interaction is not None
            else self._place_owners(message.channel)
        )
        it = self._envelope(
            MESSAGE_COMPONENT,
            message.channel,
            actor,
            data,
            owners=owners,
            message=message,
            locale=locale,
            force=force,
        )
        if version is not None:
            seen = message.history[version]
            it.payload["message"].update(
                {
                    "content": seen.content,
                    "embeds": seen.embeds,
                    "components": seen.components,
                    "flags": seen.flags,
                }
            )
        return it

    def modal_submit(
        self, opened_by: Interaction, values: Mapping[str, str], actor: User | Member | None = None
    ) -> Interaction:
        modal = opened_by.modal
        if modal is None:
            raise InteractionUsageError(f"{opened_by!r} did not answer with a modal")
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": custom_id, "value": value}]}
            for custom_id, value in values.items()
        ]
        data = {"custom_id": modal.get("custom_id"), "components": rows}
        return self._envelope(
            MODAL_SUBMIT,
            opened_by.channel,
            actor or opened_by.member or opened_by.user,
            data,
            owners=opened_by.authorizing_integration_owners,
            message=opened_by.message,
        )


def _guess_type(value: Any) -> int:
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, User | Member):
        return USER
    if isinstance(value, Role):
        return ROLE
    if isinstance(value, Channel):
        return CHANNEL
    return STRING
