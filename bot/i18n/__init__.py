"""Languages: gettext catalogues (through Babel) for every text a person reads, per locale.

Adapters pick a :class:`Texts` for the person or the audience (:func:`texts_for_locale` with a
Discord or POSIX locale, :func:`terminal_texts` for the terminal) and say everything through it.
Messages are English msgids with ``{named}`` placeholders; catalogues live in
``bot/locales/<catalogue>/LC_MESSAGES/messages.po`` and are compiled by the build.
This package knows nothing of Discord or the terminal; the service may mark messages with
:func:`N_` for adapters to translate.
"""

from bot.i18n.languages import (
    ENGLISH,
    LANGUAGES,
    TRANSLATED,
    Language,
    by_code,
    from_environment,
    from_locale,
)
from bot.i18n.markers import N_, N_plural, Plural
from bot.i18n.texts import Texts, texts_for, texts_for_locale


def terminal_texts() -> Texts:
    """The texts for the terminal's language (``LC_ALL``, ``LC_MESSAGES``, ``LANG``)."""
    return texts_for(from_environment())


__all__ = [
    "ENGLISH",
    "LANGUAGES",
    "N_",
    "TRANSLATED",
    "Language",
    "N_plural",
    "Plural",
    "Texts",
    "by_code",
    "from_environment",
    "from_locale",
    "terminal_texts",
    "texts_for",
    "texts_for_locale",
]
