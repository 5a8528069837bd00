"""``/ttt settings``: a server's language for its boards, challenges and results."""

from __future__ import annotations

from discord import app_commands

from bot.bot import Interaction
from bot.exts.games.audience import personal
from bot.exts.games.handlers.base import TTT, GamesCogBase, handled
from bot.exts.games.render.answers import settings_text
from bot.exts.games.respond import tell, within_deadline
from bot.i18n import LANGUAGES, N_

AUTO_LANGUAGE = "auto"
LANGUAGE_CHOICES = [
    app_commands.Choice(name=N_("auto (the server's own language)"), value=AUTO_LANGUAGE),
    *(app_commands.Choice(name=language.native_name, value=language.code) for language in LANGUAGES),
]


class SettingsCommands(GamesCogBase):
    """The command that shows or changes a server's settings."""

    @TTT.command(name="settings", description=N_("Show or change this server's settings (Manage Server)."))
    @app_commands.describe(
        language=N_("The language of boards, challenges and results here; auto follows the server.")
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @handled
    async def settings(self, interaction: Interaction, language: str | None = None) -> None:
        """``/ttt settings``: see or change the server's settings (Manage Server)."""
        guild_id = interaction.guild_id
        may_manage = interaction.permissions.manage_guild
        if language is None:
            work = self.service.server_settings(guild_id, may_manage=may_manage)
        else:
            chosen = None if language == AUTO_LANGUAGE else language
            work = self.service.set_server_language(guild_id, chosen, may_manage=may_manage)
        stored = await within_deadline(interaction, work, thinking=True, ephemeral=True)
        own = self.publisher.audience.guild_locale(guild_id, interaction) if guild_id is not None else None
        await tell(
            interaction,
            settings_text(personal(interaction), stored, own, changed=language is not None),
        )
