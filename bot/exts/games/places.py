"""Where an interaction happened, and whether the bot can reach a board there on its own.

Where the bot is a member (a server that added it, its own DM with a user) it can post and edit
messages through the channel API at any time: a turn timeout, an expired challenge or a delayed
reply shows on the board the moment it happens. Where a user brought the app through their own
install (a group DM, a DM between users, a server that did not add the bot) the bot has no access:
every change of a board must be the answer to an interaction there (a click or a command), and any
channel API call would be refused. Such a place is *interactions only*, decided from each
interaction and stored with every game started there.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.exts.games.refusals import NoChannel, PrivateAnswersOnly
from bot.services import Place


def bot_is_present(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot is a member where the interaction happened (so its channel API works there).

    In a server, the server's own install must have authorised the interaction; outside servers only
    the bot's DM with the user (context 1) has the bot in it.
    """
    if interaction.guild_id is not None:
        return interaction.is_guild_integration()
    return interaction.context.dm_channel


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """The channel (a server channel, a thread, a DM or a group DM) and how its boards are reached.

    Outside servers a game is keyed by the conversation's channel id alone.
    """
    if interaction.channel_id is None:
        raise NoChannel()
    channel = interaction.channel
    return Place(
        interaction.guild_id,
        interaction.channel_id,
        interactions_only=not bot_is_present(interaction),
        parent_id=channel.parent_id if isinstance(channel, discord.Thread) else None,
    )


def public_answers_allowed(interaction: discord.Interaction[Any]) -> bool:
    """Whether Discord shows the app's answers to everyone here.

    In a server without the bot, Discord turns them private for a member who may not send messages
    or use external apps in the channel.
    """
    if interaction.guild_id is None or bot_is_present(interaction):
        return True
    permissions = interaction.permissions
    return permissions.send_messages and permissions.use_external_apps


def require_public_answers(interaction: discord.Interaction[Any]) -> None:
    """Refuse, privately and politely, to start what others could not see."""
    if not public_answers_allowed(interaction):
        raise PrivateAnswersOnly()
