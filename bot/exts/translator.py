"""Localized descriptions for the slash commands, through discord.py's :class:`app_commands.Translator`.

At sync, discord.py asks for every string of the command tree in every Discord locale. This
answers descriptions (of ``/ttt``, its sub-commands and options) and the names of option
choices from the gettext catalogues; command and option names stay English, because Discord
mishandles ``name_localizations`` on commands with sub-commands. A locale the bot does not
speak gets None: Discord shows the English. Every language the bot speaks gets every text,
also one that reads the same as the English (a language's own name, "global" in German).
A text made from a template (a size label) carries its msgid and its params in the
``locale_str``'s extras; its message is the English. A text that needs a message context (one
English word with two translations) is made with :func:`contextual`.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import ENGLISH, from_locale, texts_for

LOCALIZED = frozenset(
    {
        app_commands.TranslationContextLocation.command_description,
        app_commands.TranslationContextLocation.group_description,
        app_commands.TranslationContextLocation.parameter_description,
        app_commands.TranslationContextLocation.choice_name,
    }
)


def contextual(context: str, message: str) -> app_commands.locale_str:
    """A command text with a gettext message context, translated as ``pgettext(context, message)``."""
    return app_commands.locale_str(message, context=context)


class CommandTranslator(app_commands.Translator):
    """Translates the names and descriptions of the app commands with the gettext catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The text of ``string`` in ``locale``, or None to keep the English one."""
        if context.location not in LOCALIZED:
            return None
        language = from_locale(locale.value)
        if language == ENGLISH:
            return None
        params = dict(string.extras)
        msgid = params.pop("msgid", string.message)
        message_context = params.pop("context", None)
        if message_context is not None:
            return texts_for(language).pgettext(message_context, msgid, **params)
        return texts_for(language).gettext(msgid, **params)
