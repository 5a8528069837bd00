"""Markers for messages defined away from where they are translated.

``N_("...")`` and ``N_plural("...", "...")`` return their English text unchanged; they only
tell the extraction (``make i18n-extract``) that the text is a message. The code that shows it
later translates it with :meth:`bot.i18n.Texts.gettext` or :meth:`bot.i18n.Texts.plural`.
"""

from __future__ import annotations

from typing import NamedTuple


class Plural(NamedTuple):
    """A message that counts something: its English singular and plural msgids."""

    singular: str
    plural: str


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined; it is translated where shown."""
    return message


def N_plural(singular: str, plural: str) -> Plural:
    """Mark a message with a plural form for translation where it is defined."""
    return Plural(singular, plural)
