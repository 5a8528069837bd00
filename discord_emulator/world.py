"""The emulator's state: the world tests build (users, guilds, channels) and the messages the bot posts."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .commands import CommandRegistry
from .emojis import ApplicationEmojis, unknown_component_emoji
from .errors import (
    CANNOT_EDIT_OTHERS_MESSAGE,
    EMPTY_MESSAGE,
    INVALID_CHANNEL_TYPE,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    THREAD_ALREADY_CREATED,
    THREAD_ARCHIVED,
    UNKNOWN_CHANNEL,
    UNKNOWN_GUILD,
    UNKNOWN_MEMBER,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    DiscordHTTPError,
    FormErrors,
    not_found,
)
from .mentions import resolve_pings
from .models import (
    ANNOUNCEMENT_CHANNEL,
    DM_CHANNEL,
    EPHEMERAL,
    GROUP_DM_CHANNEL,
    LOADING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    Application,
    Channel,
    Guild,
    Member,
    Message,
    MessageVersion,
    Overwrite,
    Role,
    User,
    text_displays,
    utcnow,
)
from .payloads import (
    THREAD_MEMBER_COUNT_CAP,
    channel_payload,
    member_payload,
    message_payload,
    role_payload,
    thread_member_payload,
)
from .permissions import DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS, Perm, channel_permissions
from .snowflakes import SnowflakeFactory
from .uploads import resolve_component_files, resolve_embed_files
from .validation import COMPONENTS_V2, check_message_body, normalize_components, normalize_embeds
from .waiting import Notifier

if TYPE_CHECKING:
    from .interactions import Interaction

GUILDS_INTENT = 1 << 0
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12

DispatchHook = Callable[[int | None, str, dict[str, Any], int], None]
"""Called as ``hook(guild_id or None for DMs, event name, data, intent bits needed or 0)``."""

SETTABLE_FLAGS = (1 << 2) | (1 << 12) | (1 << 15)
"""SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2: the flags a bot may set itself."""


def _now() -> str:
    """The current time as Discord writes it in a payload."""
    return utcnow().isoformat()


class World:
    def __init__(self, notifier: Notifier, *, bot_name: str = "TicTacToe") -> None:
        self.notifier = notifier
        self.snowflakes = SnowflakeFactory()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self._channel_messages: dict[int, list[Message]] = {}
        self._dm_channels: dict[int, Channel] = {}
        owner = self.create_user("app-owner")
        app_id = self.snowflakes.next()
        bot = User(id=app_id, username=bot_name, bot=True)
        self.users[bot.id] = bot
        self.application = Application(id=app_id, name=bot_name, owner=owner, bot=bot)
        self.commands = CommandRegistry(self.snowflakes, app_id)
        self.application_emojis = ApplicationEmojis()
        self.dispatch_hook: DispatchHook = lambda guild_id, event, data, intent: None

    @property
    def bot(self) -> User:
        return self.application.bot

    def _dispatch(self, guild_id: int | None, event: str, data: dict[str, Any], intent: int) -> None:
        guild = None if guild_id is None else self.guilds.get(guild_id)
        if guild is not None and not guild.with_bot:
            return
        self.dispatch_hook(guild_id, event, data, intent)

    # ----------------------------------------------------------------------------------- building

    def create_user(self, username: str, *, bot: bool = False, global_name: str | None = None) -> User:
        user = User(id=self.snowflakes.next(), username=username, bot=bot, global_name=global_name)
        self.users[user.id] = user
        return user

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
        """A guild the bot has joined, with @everyone, the bot's managed role and the given text channels.

        ``shard=(id, count)`` picks an id whose events go to that shard. When the bot is connected, the
        guild arrives on its shard as GUILD_CREATE, as when a bot is invited. ``with_bot=False`` makes a
        server that did not add the bot: no bot member or role, no events, REST refused; its members
        reach the app only through a user install.
        """
        owner = owner or self.create_user(f"{name.lower().replace(' ', '-')}-owner")
        guild = Guild(
            id=self.snowflakes.next(shard=shard),
            name=name,
            owner_id=owner.id,
            preferred_locale=preferred_locale,
            with_bot=with_bot,
        )
        guild.roles[guild.id] = Role(
            id=guild.id, guild_id=guild.id, name="@everyone", permissions=everyone_permissions
        )
        self.guilds[guild.id] = guild
        guild.members[owner.id] = Member(user=owner, guild_id=guild.id)
        if not with_bot:
            for channel_name in channels:
                self._add_channel(guild, channel_name, TEXT_CHANNEL, None)
            self.notifier.notify()
            return guild
        bot_role = Role(
            id=self.snowflakes.next(),
            guild_id=guild.id,
            name=self.bot.username,
            permissions=bot_permissions,
            position=1,
            managed=True,
            bot_id=self.bot.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot.id] = Member(user=self.bot, guild_id=guild.id, role_ids=[bot_role.id])
        for channel_name in channels:
            self._add_channel(guild, channel_name, TEXT_CHANNEL, None)
        self._dispatch(guild.id, "GUILD_CREATE", {"id": str(guild.id)}, GUILDS_INTENT)
        self.notifier.notify()
        return guild

    def bot_member(self, guild: Guild) -> Member:
        if not guild.with_bot:
            raise LookupError(f"the bot is not a member of {guild.name!r}")
        return guild.members[self.bot.id]

    def bot_role(self, guild: Guild) -> Role:
        return next(role for role in guild.roles.values() if role.bot_id == self.bot.id)

    def create_role(
        self,
        guild: Guild,
        name: str,
        *,
        permissions: int = 0,
        mentionable: bool = False,
        color: int = 0,
    ) -> Role:
        role = Role(
            id=self.snowflakes.next(),
            guild_id=guild.id,
            name=name,
            permissions=int(permissions),
            position=len(guild.roles),
            mentionable=mentionable,
            color=color,
        )
        guild.roles[role.id] = role
        self._dispatch(
            guild.id,
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role_payload(role)},
            GUILDS_INTENT,
        )
        self.notifier.notify()
        return role

    def _add_channel(
        self, guild: Guild, name: str, kind: int, parent: Channel | None, *, channel_id: int | None = None
    ) -> Channel:
        channel = Channel(
            id=self.snowflakes.next() if channel_id is None else channel_id,
            type=kind,
            name=name,
            guild_id=guild.id,
            position=len(guild.channels),
            parent_id=None if parent is None else parent.id,
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self._channel_messages[channel.id] = []
        return channel

    def create_channel(self, guild: Guild, name: str, *, kind: int = TEXT_CHANNEL) -> Channel:
        channel = self._add_channel(guild, name, kind, None)
        self._dispatch(guild.id, "CHANNEL_CREATE", channel_payload(channel), GUILDS_INTENT)
        self.notifier.notify()
        return channel

    def create_thread(
        self, parent: Channel, name: str, *, private: bool = False, owner: User | None = None
    ) -> Channel:
        """A thread under a text channel; a thread is a channel of its own for games and messages."""
        if parent.guild_id is None:
            raise ValueError("threads live in guild channels")
        guild = self.guilds[parent.guild_id]
        thread = self._add_channel(guild, name, PRIVATE_THREAD if private else PUBLIC_THREAD, parent)
        thread.owner_id = (owner or self.bot).id
        thread.thread_members[thread.owner_id] = _now()
        self._dispatch(
            guild.id, "THREAD_CREATE", {**channel_payload(thread), "newly_created": True}, GUILDS_INTENT
        )
        self.notifier.notify()
        return thread

    def start_thread(self, message: Message, name: str, *, auto_archive_duration: int = 1440) -> Channel:
        """A public thread started from a message by the bot: it has the message's id, and the
        message shows it from then on (one thread per message)."""
        parent = message.channel
        if (
            parent.guild_id is None
            or parent.is_thread
            or parent.type not in (TEXT_CHANNEL, ANNOUNCEMENT_CHANNEL)
        ):
            raise DiscordHTTPError(400, INVALID_CHANNEL_TYPE, "Cannot execute action on this channel type")
        self.require_bot_permissions(parent, Perm.CREATE_PUBLIC_THREADS)
        if message.thread is not None:
            raise DiscordHTTPError(
                400, THREAD_ALREADY_CREATED, "A thread has already been created for this message"
            )
        guild = self.guilds[parent.guild_id]
        thread = self._add_channel(guild, name, PUBLIC_THREAD, parent, channel_id=message.id)
        thread.owner_id = self.bot.id
        thread.thread_members[self.bot.id] = _now()
        thread.auto_archive_duration = auto_archive_duration
        message.thread = thread
        self._dispatch(
            guild.id, "THREAD_CREATE", {**channel_payload(thread), "newly_created": True}, GUILDS_INTENT
        )
        self._dispatch_message("MESSAGE_UPDATE", message)
        self.notifier.notify()
        return thread

    def _open_thread(self, thread: Channel) -> Guild:
        """The guild of ``thread``, which must be a thread that is not archived (else Discord's errors)."""
        if not thread.is_thread or thread.guild_id is None:
            raise DiscordHTTPError(400, INVALID_CHANNEL_TYPE, "Cannot execute action on this channel type")
        if thread.archived:
            raise DiscordHTTPError(
                400, THREAD_ARCHIVED, "Operation cannot be performed on an archived thread"
            )
        return self.guilds[thread.guild_id]

    def add_thread_member(self, thread: Channel, user_id: int) -> None:
        """Add a member of the thread's server to it (the bot itself when ``user_id`` is the bot's).

        As Discord: the thread must not be archived, the bot must be able to send messages in it
        (to add someone else), and adding a member twice changes nothing. THREAD_MEMBERS_UPDATE
        reaches the bot when it is the one added, else only with the GUILD_MEMBERS intent.
        """
        guild = self._open_thread(thread)
        if user_id != self.bot.id:
            self.require_bot_permissions(thread, Perm.SEND_MESSAGES_IN_THREADS)
        member = self.get_member(guild, user_id)
        if user_id in thread.thread_members:
            return
        thread.thread_members[user_id] = _now()
        added = {**thread_member_payload(thread, user_id, member), "presence": None}
        self._thread_members_update(thread, guild, {"added_members": [added]}, user_id)

    def remove_thread_member(self, thread: Channel, user_id: int) -> None:
        """Take a member out of the thread (the bot itself when ``user_id`` is the bot's).

        Removing someone else takes Manage Threads, or being the creator of a private thread.
        """
        guild = self._open_thread(thread)
        if user_id != self.bot.id and not (thread.type == PRIVATE_THREAD and thread.owner_id == self.bot.id):
            self.require_bot_permissions(thread, Perm.MANAGE_THREADS)
        if thread.thread_members.pop(user_id, None) is None:
            return
        self._thread_members_update(thread, guild, {"removed_member_ids": [str(user_id)]}, user_id)

    def _thread_members_update(
        self, thread: Channel, guild: Guild, change: dict[str, Any], user_id: int
    ) -> None:
        data = {
            "id": str(thread.id),
            "guild_id": str(guild.id),
            "member_count": min(len(thread.thread_members), THREAD_MEMBER_COUNT_CAP),
            **change,
        }
        intent = GUILDS_INTENT if user_id == self.bot.id else GUILD_MEMBERS_INTENT
        self._dispatch(guild.id, "THREAD_MEMBERS_UPDATE", data, intent)
        self.notifier.notify()

    def archive_thread(self, thread: Channel) -> None:
        """Archive ``thread``, as Discord does after its ``auto_archive_duration`` without activity."""
        if not thread.is_thread or thread.guild_id is None:
            raise ValueError("only a thread is archived")
        thread.archived = True
        self._dispatch(
            thread.guild_id, "THREAD_UPDATE", channel_payload(thread, with_guild_id=True), GUILDS_INTENT
        )
        self.notifier.notify()

    def set_overwrite(
        self, channel: Channel, target: Role | Member | User, *, allow: int = 0, deny: int = 0
    ) -> None:
        kind = 0 if isinstance(target, Role) else 1
        channel.overwrites[target.id] = Overwrite(id=target.id, type=kind, allow=int(allow), deny=int(deny))
        if channel.guild_id is not None:
            self._dispatch(channel.guild_id, "CHANNEL_UPDATE", channel_payload(channel), GUILDS_INTENT)
        self.notifier.notify()

    def add_member(
        self, guild: Guild, user: User, *, roles: Iterable[Role] = (), nick: str | None = None
    ) -> Member:
        member = Member(user=user, guild_id=guild.id, role_ids=[role.id for role in roles], nick=nick)
        guild.members[user.id] = member
        data = {**member_payload(member), "guild_id": str(guild.id)}
        self._dispatch(guild.id, "GUILD_MEMBER_ADD", data, GUILD_MEMBERS_INTENT)
        self.notifier.notify()
        return member

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
        """A new user who is a member of ``guild``."""
        return self.add_member(
            guild, self.create_user(username, bot=bot, global_name=global_name), roles=roles, nick=nick
        )

    def remove_member(self, guild: Guild, user: User | Member) -> None:
        """The user leaves the guild (stays a Discord user, so DMs and old options still name them)."""
        user = user.user if isinstance(user, Member) else user
        guild.members.pop(user.id, None)
        data = {"guild_id": str(guild.id), "user": {"id": str(user.id), "username": user.username}}
        self._dispatch(guild.id, "GUILD_MEMBER_REMOVE", data, GUILD_MEMBERS_INTENT)
        self.notifier.notify()

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between ``user`` and the bot (created on first use, like Discord)."""
        channel = self._dm_channels.get(user.id)
        if channel is None:
            channel = Channel(id=self.snowflakes.next(), type=DM_CHANNEL, recipients=[user])
            self._dm_channels[user.id] = channel
            self._add_private_channel(channel)
        return channel

    def create_dm(self, first: User, second: User) -> Channel:
        """A DM between two users. The bot is not in it: the app is reached there by a user install."""
        channel = Channel(
            id=self.snowflakes.next(), type=DM_CHANNEL, recipients=[first, second], with_bot=False
        )
        return self._add_private_channel(channel)

    def create_group_dm(self, owner: User, *others: User, name: str | None = None) -> Channel:
        """A group DM of ``owner`` and ``others``, without the bot (bots cannot join group DMs)."""
        channel = Channel(
            id=self.snowflakes.next(),
            type=GROUP_DM_CHANNEL,
            name=name,
            recipients=[owner, *others],
            owner_id=owner.id,
            with_bot=False,
        )
        return self._add_private_channel(channel)

    def _add_private_channel(self, channel: Channel) -> Channel:
        self.channels[channel.id] = channel
        self._channel_messages[channel.id] = []
        self.notifier.notify()
        return channel

    def install_to_user(self, user: User) -> None:
        """``user`` adds the application to their account (a user install)."""
        self.application.user_installs.add(user.id)
        self.notifier.notify()

    def bot_present(self, channel: Channel) -> bool:
        """Whether the bot is in the channel's server, or is an end of the DM: where its API reaches."""
        guild = self.guild_of(channel)
        return channel.with_bot if guild is None else guild.with_bot

    # ----------------------------------------------------------------------------------- lookups

    def guild_of(self, channel: Channel) -> Guild | None:
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    def member_of(self, guild: Guild, user: User | Member) -> Member | None:
        return guild.members.get(user.id)

    def find_user(self, user_id: int) -> User | None:
        return self.users.get(user_id)

    def get_channel(self, channel_id: str | int) -> Channel:
        channel = self.channels.get(_as_int(channel_id))
        if channel is None:
            raise not_found(UNKNOWN_CHANNEL, "Channel")
        return channel

    def get_guild(self, guild_id: str | int) -> Guild:
        guild = self.guilds.get(_as_int(guild_id))
        if guild is None:
            raise not_found(UNKNOWN_GUILD, "Guild")
        if not guild.with_bot:
            raise DiscordHTTPError(403, MISSING_ACCESS, "Missing Access")
        return guild

    def get_visible_channel(self, channel_id: str | int) -> Channel:
        """A channel as the bot's REST API reaches it: 403 50001 where the bot cannot see it (a group DM,
        a DM between users, a server without the bot, a channel hidden from it)."""
        channel = self.get_channel(channel_id)
        if not self.bot_permissions(channel) & Perm.VIEW_CHANNEL:
            raise DiscordHTTPError(403, MISSING_ACCESS, "Missing Access")
        return channel

    def get_user(self, user_id: str | int) -> User:
        user = self.users.get(_as_int(user_id))
        if user is None:
            raise not_found(UNKNOWN_USER, "User")
        return user

    def get_member(self, guild: Guild, user_id: str | int) -> Member:
        member = guild.members.get(_as_int(user_id))
        if member is None:
            raise not_found(UNKNOWN_MEMBER, "Member")
        return member

    def get_channel_message(self, channel: Channel, message_id: str | int) -> Message:
        """A message as the channel API sees it: ephemeral and deleted messages do not exist there."""
        message = self.messages.get(_as_int(message_id))
        if message is None or message.deleted or message.ephemeral or message.channel is not channel:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return message

    def bot_permissions(self, channel: Channel) -> int:
        """The bot's own permissions in the channel; 0 where it is not present."""
        if not self.bot_present(channel):
            return 0
        guild = self.guild_of(channel)
        if guild is None:
            return int(Perm.VIEW_CHANNEL | Perm.SEND_MESSAGES | Perm.READ_MESSAGE_HISTORY | Perm.EMBED_LINKS)
        return channel_permissions(guild, self.bot_member(guild), channel)

    def require_bot_permissions(self, channel: Channel, needed: int) -> None:
        have = self.bot_permissions(channel)
        if not have & Perm.VIEW_CHANNEL:
            raise DiscordHTTPError(403, MISSING_ACCESS, "Missing Access")
        if have & needed != needed:
            raise DiscordHTTPError(403, MISSING_PERMISSIONS, "Missing Permissions")

    def messages_in(self, channel: Channel, *, include_ephemeral: bool = False) -> list[Message]:
        return [
            message
            for message in self._channel_messages.get(channel.id, [])
            if not message.deleted and (include_ephemeral or not message.ephemeral)
        ]

    # ----------------------------------------------------------------------------------- messages

    def _resolve_pings(self, message: Message) -> None:
        """Who the message pings: mentions in its content and in its text displays (Components V2),
        as its allowed mentions let them."""
        guild = self.guild_of(message.channel)
        may_everyone = bool(self.bot_permissions(message.channel) & Perm.MENTION_EVERYONE)
        pings = resolve_pings(
            "\n".join([message.content, *text_displays(message.components)]),
            message.allowed_mentions,
            find_user=self.find_user,
            guild=guild,
            may_mention_everyone=may_everyone,
        )
        message.mentions = pings.users
        message.mention_roles = pings.roles
        message.mention_everyone = pings.everyone

    def post_message(
        self,
        channel: Channel,
        body: dict[str, Any],
        *,
        attachments: Sequence[dict[str, Any]] = (),
        interaction: Interaction | None = None,
        ephemeral_to: User | None = None,
        message_type: int = 0,
        loading: bool = False,
    ) -> Message:
        """A message by the bot: validated, with pings resolved, stored and dispatched as MESSAGE_CREATE.

        ``loading`` makes the "thinking" placeholder of a deferred interaction response.
        """
        errors = FormErrors()
        check_message_body(body, errors)
        self._check_component_emoji(body, errors)
        errors.raise_if_any()
        content = body.get("content") or ""
        embeds = normalize_embeds(body.get("embeds") or [])
        components = normalize_components(body.get("components") or [])
        resolve_embed_files(embeds, attachments)
        resolve_component_files(components, attachments)
        if not loading and not (content or embeds or components or attachments or body.get("sticker_ids")):
            raise DiscordHTTPError(400, EMPTY_MESSAGE, "Cannot send an empty message")
        flags = int(body.get("flags") or 0) & SETTABLE_FLAGS
        if ephemeral_to is not None:
            flags |= EPHEMERAL
        if loading:
            flags |= LOADING
        message = Message(
            id=self.snowflakes.next(),
            channel=channel,
            author=self.bot,
            content=content,
            embeds=embeds,
            components=components,
            attachments=list(attachments),
            flags=flags,
            type=message_type,
            tts=bool(body.get("tts", False)),
            allowed_mentions=body.get("allowed_mentions"),
            webhook_id=self.application.id if interaction is not None else None,
            application_id=self.application.id if interaction is not None else None,
            interaction=interaction,
            visible_to=None if ephemeral_to is None else ephemeral_to.id,
            message_reference=body.get("message_reference"),
        )
        self._resolve_pings(message)
        self._snapshot(message)
        self.messages[message.id] = message
        self._channel_messages.setdefault(channel.id, []).append(message)
        if not message.ephemeral:
            self._dispatch_message("MESSAGE_CREATE", message)
        self.notifier.notify()
        return message

    def edit_message(
        self, message: Message, body: dict[str, Any], *, attachments: Sequence[dict[str, Any]] = ()
    ) -> Message:
        """Apply a PATCH: only the fields present change; ``null`` clears a field."""
        if message.author is not self.bot:
            raise DiscordHTTPError(
                403, CANNOT_EDIT_OTHERS_MESSAGE, "Cannot edit a message authored by another user"
            )
        errors = FormErrors()
        v2_before = bool(message.flags & COMPONENTS_V2)
        v2 = v2_before if body.get("flags") is None else bool(int(body["flags"]) & COMPONENTS_V2)
        if v2_before and not v2:
            errors.add(
                ("flags",),
                "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The IS_COMPONENTS_V2 flag cannot be removed from a message",
            )
        check_message_body(body, errors, v2=v2)
        self._check_component_emoji(body, errors)
        errors.raise_if_any()
        content = message.content
        embeds = message.embeds
        components = message.components
        kept = message.attachments
        if "content" in body:
            content = body["content"] or ""
        if "embeds" in body:
            embeds = normalize_embeds(body["embeds"] or [])
        if "components" in body:
            components = normalize_components(body["components"] or [])
        if "attachments" in body:
            keep_ids = {str(item.get("id")) for item in body["attachments"] or []}
            kept = [item for item in message.attachments if str(item["id"]) in keep_ids]
        kept = [*kept, *attachments]
        resolve_embed_files(embeds, kept)
        resolve_component_files(components, kept)
        if not (content or embeds or components or kept):
            raise DiscordHTTPError(400, EMPTY_MESSAGE, "Cannot send an empty message")
        if v2 and (content or embeds):
            errors.add(
                ("content" if content else "embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
            errors.raise_if_any()
        message.content, message.embeds, message.components, message.attachments = (
            content,
            embeds,
            components,
            kept,
        )
        if "flags" in body and body["flags"] is not None:
            message.flags = (message.flags & ~SETTABLE_FLAGS) | (int(body["flags"]) & SETTABLE_FLAGS)
        message.flags &= ~LOADING
        if "allowed_mentions" in body:
            message.allowed_mentions = body["allowed_mentions"]
        self._resolve_pings(message)
        message.edited_at = utcnow()
        self._snapshot(message)
        if not message.ephemeral:
            self._dispatch_message("MESSAGE_UPDATE", message)
        self.notifier.notify()
        return message

    def _check_component_emoji(self, body: dict[str, Any], errors: FormErrors) -> None:
        """A custom emoji in a component must exist: here, the application's own emoji."""
        components = body.get("components")
        if not isinstance(components, list):
            return
        for path in unknown_component_emoji(components, set(self.application_emojis.by_id)):
            errors.add(path, "COMPONENT_INVALID_EMOJI", "Invalid emoji")

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral and self.bot_present(message.channel):
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            intent = DIRECT_MESSAGES_INTENT if message.guild_id is None else GUILD_MESSAGES_INTENT
            self._dispatch(message.guild_id, "MESSAGE_DELETE", data, intent)
        self.notifier.notify()

    def _snapshot(self, message: Message) -> None:
        message.history.append(
            MessageVersion(
                content=message.content,
                embeds=message.embeds,
                components=message.components,
                flags=message.flags,
                at=time.monotonic(),
            )
        )

    def _dispatch_message(self, event: str, message: Message) -> None:
        if not self.bot_present(message.channel):
            return
        data = message_payload(message, with_guild_id=True)
        guild = self.guild_of(message.channel)
        if guild is not None:
            member = guild.members.get(message.author.id)
            if member is not None:
                data["member"] = member_payload(member, with_user=False)
        intent = DIRECT_MESSAGES_INTENT if guild is None else GUILD_MESSAGES_INTENT
        self._dispatch(message.guild_id, event, data, intent)


def _as_int(value: str | int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1
