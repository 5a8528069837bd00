"""Discord permission bits and the computation of a member's permissions in a channel."""

from __future__ import annotations

from enum import IntFlag
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Channel, Guild, Member


class Perm(IntFlag):
    """The permission bits the emulator checks or that tests commonly set."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    USE_EXTERNAL_APPS = 1 << 50


ALL_PERMISSIONS = (1 << 51) - 1

DEFAULT_EVERYONE_PERMISSIONS = (
    Perm.CREATE_INSTANT_INVITE
    | Perm.ADD_REACTIONS
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.MENTION_EVERYONE
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.CONNECT
    | Perm.SPEAK
    | Perm.CHANGE_NICKNAME
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
    | Perm.USE_EXTERNAL_APPS
)
"""What Discord gives @everyone in a new server."""

DEFAULT_BOT_PERMISSIONS = (
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.SEND_MESSAGES_IN_THREADS
    | Perm.EMBED_LINKS
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
)
"""The bot's managed role: the minimal set a tic-tac-toe bot is invited with."""

USER_INSTALL_APP_PERMISSIONS = Perm.ATTACH_FILES | Perm.EMBED_LINKS | Perm.MENTION_EVERYONE
"""``app_permissions`` where only a user install reaches the app: DMs between users and group DMs
(as Discord documents), and servers that did not add the bot. No VIEW_CHANNEL: the bot's channel API
has no access there."""


def base_permissions(guild: Guild, member: Member) -> int:
    """Guild-level permissions: owner and administrators get everything."""
    if member.user.id == guild.owner_id:
        return ALL_PERMISSIONS
    value = guild.roles[guild.id].permissions
    for role_id in member.role_ids:
        role = guild.roles.get(role_id)
        if role is not None:
            value |= role.permissions
    if value & Perm.ADMINISTRATOR:
        return ALL_PERMISSIONS
    return value


def channel_permissions(guild: Guild, member: Member, channel: Channel | None) -> int:
    """Permissions in a channel after @everyone, role and member overwrites, as Discord applies them."""
    value = base_permissions(guild, member)
    if value == ALL_PERMISSIONS or channel is None:
        return value
    source = channel
    if channel.parent_id is not None and channel.is_thread:
        source = guild.channels.get(channel.parent_id, channel)
    overwrites = source.overwrites
    everyone = overwrites.get(guild.id)
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in member.role_ids:
        overwrite = overwrites.get(role_id)
        if overwrite is not None:
            allow |= overwrite.allow
            deny |= overwrite.deny
    value = (value & ~deny) | allow
    own = overwrites.get(member.user.id)
    if own is not None:
        value = (value & ~own.deny) | own.allow
    if not value & Perm.VIEW_CHANNEL:
        return 0
    return value
