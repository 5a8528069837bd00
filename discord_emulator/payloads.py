"""Serialisation of the emulated world into Discord API v10 JSON payloads (ids as strings)."""

from __future__ import annotations

from typing import Any

from .models import Application, Channel, Guild, Member, Message, Role, User, iso
from .permissions import channel_permissions


def user_payload(user: User) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": str(user.id),
        "username": user.username,
        "discriminator": "0",
        "global_name": user.global_name,
        "avatar": user.avatar,
        "avatar_decoration_data": None,
        "banner": None,
        "accent_color": None,
        "public_flags": 0,
        "flags": 0,
    }
    if user.bot:
        payload["bot"] = True
    return payload


def current_user_payload(user: User) -> dict[str, Any]:
    payload = user_payload(user)
    payload.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
    return payload


def role_payload(role: Role) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": str(role.id),
        "name": role.name,
        "color": role.color,
        "colors": {"primary_color": role.color, "secondary_color": None, "tertiary_color": None},
        "hoist": role.hoist,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": role.mentionable,
        "flags": 0,
    }
    if role.bot_id is not None:
        payload["tags"] = {"bot_id": str(role.bot_id)}
    return payload


def member_payload(member: Member, *, with_user: bool = True) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "roles": [str(role_id) for role_id in member.role_ids],
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": iso(member.joined_at),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        payload["user"] = user_payload(member.user)
    return payload


def interaction_member_payload(guild: Guild, member: Member, channel: Channel | None) -> dict[str, Any]:
    """A member as an interaction carries it: with their computed permissions in the channel."""
    payload = member_payload(member)
    payload["permissions"] = str(channel_permissions(guild, member, channel))
    return payload


def channel_payload(
    channel: Channel, *, with_guild_id: bool = True, viewer: User | None = None
) -> dict[str, Any]:
    """``viewer``: for a DM or group DM, the user whose view it is (left out of ``recipients``)."""
    if channel.is_private:
        payload: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user_payload(user) for user in channel.recipients if user is not viewer],
        }
        if not channel.is_dm:
            payload.update(
                {
                    "name": channel.name,
                    "icon": None,
                    "owner_id": None if channel.owner_id is None else str(channel.owner_id),
                }
            )
        return payload
    payload = {
        "id": str(channel.id),
        "type": channel.type,
        "name": channel.name,
        "position": channel.position,
        "parent_id": None if channel.parent_id is None else str(channel.parent_id),
        "topic": channel.topic,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
        "permission_overwrites": [
            {"id": str(ow.id), "type": ow.type, "allow": str(ow.allow), "deny": str(ow.deny)}
            for ow in channel.overwrites.values()
        ],
    }
    if channel.is_thread:
        payload["owner_id"] = None if channel.owner_id is None else str(channel.owner_id)
        payload["thread_metadata"] = {
            "archived": channel.archived,
            "auto_archive_duration": channel.auto_archive_duration,
            "archive_timestamp": "2024-01-01T00:00:00+00:00",
            "locked": False,
        }
        payload["message_count"] = 0
        payload["member_count"] = min(len(channel.thread_members), THREAD_MEMBER_COUNT_CAP)
    if with_guild_id and channel.guild_id is not None:
        payload["guild_id"] = str(channel.guild_id)
    return payload


THREAD_MEMBER_COUNT_CAP = 50
"""A thread's ``member_count`` stops counting at 50, as Discord's does."""


def thread_member_payload(thread: Channel, user_id: int, member: Member | None = None) -> dict[str, Any]:
    """A thread member object; with ``member``, the guild member too (``with_member=true``)."""
    payload: dict[str, Any] = {
        "id": str(thread.id),
        "user_id": str(user_id),
        "join_timestamp": thread.thread_members[user_id],
        "flags": 0,
    }
    if member is not None:
        payload["member"] = member_payload(member)
    return payload


def guild_payload(guild: Guild) -> dict[str, Any]:
    """The guild object of ``GET /guilds/{id}`` (no channels or members)."""
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "icon_hash": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "widget_enabled": False,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role_payload(role) for role in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "max_members": 500000,
        "max_presences": None,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": guild.preferred_locale,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
    }


def guild_create_payload(guild: Guild, application: Application, *, all_members: bool) -> dict[str, Any]:
    """The GUILD_CREATE dispatch. Without the members intent Discord sends only the bot's own member."""
    payload = guild_payload(guild)
    members = [
        member for member in guild.members.values() if all_members or member.user.id == application.bot.id
    ]
    payload.update(
        {
            "joined_at": iso(guild.joined_at),
            "large": len(guild.members) > 250,
            "unavailable": False,
            "member_count": len(guild.members),
            "voice_states": [],
            "members": [member_payload(member) for member in members],
            "channels": [
                channel_payload(channel, with_guild_id=False)
                for channel in guild.channels.values()
                if not channel.is_thread
            ],
            "threads": [channel_payload(channel) for channel in guild.channels.values() if channel.is_thread],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
        }
    )
    return payload


def application_payload(application: Application) -> dict[str, Any]:
    """``GET /oauth2/applications/@me``."""
    return {
        "id": str(application.id),
        "name": application.name,
        "icon": None,
        "description": application.description,
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": user_payload(application.owner),
        "team": None,
        "flags": application.flags,
        "bot": user_payload(application.bot),
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "redirect_uris": [],
        "tags": [],
        "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
        "integration_types_config": {"0": {}},
        "approximate_guild_count": 0,
    }


def message_payload(message: Message, *, with_guild_id: bool = False) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(message.channel.id),
        "author": user_payload(message.author),
        "content": message.content,
        "timestamp": iso(message.created_at),
        "edited_timestamp": iso(message.edited_at),
        "tts": message.tts,
        "mention_everyone": message.mention_everyone,
        "mentions": [user_payload(user) for user in message.mentions],
        "mention_roles": [str(role_id) for role_id in message.mention_roles],
        "mention_channels": [],
        "attachments": message.attachments,
        "embeds": message.embeds,
        "reactions": [],
        "pinned": False,
        "type": message.type,
        "flags": message.flags,
        "components": message.components,
        "position": None,
    }
    if message.webhook_id is not None:
        payload["webhook_id"] = str(message.webhook_id)
    if message.application_id is not None:
        payload["application_id"] = str(message.application_id)
    if message.message_reference is not None:
        payload["message_reference"] = message.message_reference
    if message.thread is not None:
        payload["thread"] = channel_payload(message.thread, with_guild_id=True)
    if message.interaction is not None:
        it = message.interaction
        payload["interaction_metadata"] = {
            "id": str(it.id),
            "type": it.type,
            "user": user_payload(it.user),
            "authorizing_integration_owners": it.payload.get("authorizing_integration_owners", {}),
        }
    if with_guild_id and message.guild_id is not None:
        payload["guild_id"] = str(message.guild_id)
    return payload
