"""Who reads a message, and so in which language it is written.

What one user alone sees (ephemeral answers) follows that user's Discord language, the
interaction's ``locale``. Public game messages (boards, challenges, results) follow the
server: the language chosen with ``/ttt settings``, else the server's ``guild_locale``; outside
servers, the locale of the player who started the game. A language the bot does not speak is
English.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import Texts, by_code, from_locale, texts_for, texts_for_locale
from bot.services import GameService, GameView, NotDone

log = logging.getLogger(__name__)


def personal(interaction: discord.Interaction[Any]) -> Texts:
    """The texts for the user behind ``interaction``, for what only they see."""
    return texts_for_locale(interaction.locale.value)


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The interaction user's Discord locale, as stored with a game they start."""
    return interaction.locale.value


class Audience:
    """Picks the language of public messages; one per cog."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service

    def guild_locale(self, guild_id: int, interaction: discord.Interaction[Any] | None = None) -> str | None:
        """The server's own Discord locale: from the interaction, else from the gateway's guild cache."""
        if interaction is not None and interaction.guild_locale is not None:
            return interaction.guild_locale.value
        guild = self.client.get_guild(guild_id)
        return guild.preferred_locale.value if guild is not None else None

    async def server(self, guild_id: int, interaction: discord.Interaction[Any] | None = None) -> Texts:
        """The texts for a server's public messages.

        A board must be shown even when the store cannot say which language the server chose
        (the move it shows is already stored): then the server's own locale is used.
        """
        try:
            chosen = by_code(await self.service.server_language(guild_id))
        except NotDone as error:
            log.warning("Could not read the language of server %s; using its own locale: %s", guild_id, error)
            chosen = None
        if chosen is not None:
            return texts_for(chosen)
        return texts_for(from_locale(self.guild_locale(guild_id, interaction)))

    async def theme(self, game: GameView) -> str | None:
        """The theme of ``game``'s pieces: the server's, or outside servers the one its starter chose.

        A board must be shown even when the store cannot say which theme the server chose: then
        it shows the default pieces.
        """
        if game.guild_id is None:
            return game.starter_theme
        try:
            return await self.service.server_theme(game.guild_id)
        except NotDone as error:
            log.warning("Could not read the theme of server %s; using the default: %s", game.guild_id, error)
            return None

    async def public(self, game: GameView, interaction: discord.Interaction[Any] | None = None) -> Texts:
        """The texts for ``game``'s public message."""
        if game.guild_id is not None:
            return await self.server(game.guild_id, interaction)
        return texts_for_locale(game.starter_locale)
