"""``/ttt settings``: a server's language, its channels and role for games, its timeouts, default level
and theme.

Only members with Manage Server may see or change them. Discord cannot require a permission of
one sub-command of a group (``default_member_permissions`` belongs to the whole ``/ttt``), and a
server's admins can change who may use a command anyway; so the service checks every request.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.bot import Interaction
from bot.exts.games.audience import personal
from bot.exts.games.handlers.base import TTT, GamesCogBase, handled
from bot.exts.games.handlers.games import LEVEL_CHOICES, THEME_CHOICES
from bot.exts.games.messages import GameMessage, answer
from bot.exts.games.render.common import COLOUR_INFO, Card, nobody
from bot.exts.games.render.settings import changed_text, overview_text
from bot.exts.games.respond import within_deadline
from bot.i18n import LANGUAGES, N_
from bot.services import SettingsChange

AUTO_LANGUAGE = "auto"
LANGUAGE_CHOICES = [
    # Translators: a choice of /ttt settings language: follow the server's Discord language.
    app_commands.Choice(name=N_("auto (the server's own language)"), value=AUTO_LANGUAGE),
    *(app_commands.Choice(name=language.native_name, value=language.code) for language in LANGUAGES),
]
GameChannel = discord.TextChannel | discord.VoiceChannel | discord.StageChannel
"""The channels a server may list for games (a thread counts as its channel)."""


class SettingsCommands(GamesCogBase):
    """The command that shows or changes a server's settings."""

    @TTT.command(name="settings", description=N_("Show or change this server's settings (Manage Server)."))
    @app_commands.describe(
        language=N_("The language of boards, challenges and results here; auto follows the server."),
        channel=N_("Add a channel where games can be started, or take one off (none listed: everywhere)."),
        role=N_("The role needed to start or accept a game; give it again (or @everyone) for none."),
        turn_timeout=N_("Seconds a player has for each move: 30 to 86400 (0: the default)."),
        challenge_timeout=N_("Seconds a challenge waits for its answer: 30 to 86400 (0: the default)."),
        default_level=N_("How well I play in a game started without a level."),
        theme=N_("The look of the pieces on this server's boards."),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, default_level=LEVEL_CHOICES, theme=THEME_CHOICES)
    @handled
    async def settings(
        self,
        interaction: Interaction,
        language: str | None = None,
        channel: GameChannel | None = None,
        role: discord.Role | None = None,
        turn_timeout: int | None = None,
        challenge_timeout: int | None = None,
        default_level: str | None = None,
        theme: str | None = None,
    ) -> None:
        """``/ttt settings``: see or change the server's settings (Manage Server)."""
        guild_id = interaction.guild_id
        may_manage = interaction.permissions.manage_guild
        change = SettingsChange(
            language=language,
            channel=None if channel is None else channel.id,
            role=None if role is None else role.id,
            everyone_role_id=guild_id,
            turn_timeout=turn_timeout,
            challenge_timeout=challenge_timeout,
            default_level=default_level,
            theme=theme,
        )
        if change.is_empty:
            work = self.service.server_settings(guild_id, may_manage=may_manage)
        else:
            work = self.service.change_server_settings(guild_id, change, may_manage=may_manage)
        view = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        own = self.publisher.audience.guild_locale(guild_id, interaction) if guild_id is not None else None
        texts = personal(interaction)
        text = overview_text(texts, view, own) if change.is_empty else changed_text(texts, change, view, own)
        await answer(
            interaction, GameMessage.of_card(Card(COLOUR_INFO, text, None, nobody())), ephemeral=True
        )
