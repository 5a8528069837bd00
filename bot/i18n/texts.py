"""One language's messages and formats: what every adapter uses to say something to a person.

Messages are English gettext msgids with ``{named}`` placeholders (``str.format`` style), so a
translation can move the placeholders around; literal braces are doubled. The translated text is
formatted with the params given, after the lookup, so a message always reads in one language.
Numbers and durations are formatted per locale by Babel (CLDR data).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from functools import cache

from babel.dates import format_timedelta
from babel.numbers import format_decimal
from babel.support import NullTranslations

from bot.i18n.catalogues import translations
from bot.i18n.languages import Language, from_locale
from bot.i18n.markers import Plural


class Texts:
    """Translate and format for one :class:`Language`; get one with :func:`texts_for`."""

    def __init__(self, language: Language, catalogue: NullTranslations) -> None:
        self.language = language
        self._catalogue = catalogue

    def __repr__(self) -> str:
        return f"Texts({self.language.code!r})"

    def gettext(self, message: str, /, **params: object) -> str:
        """``message`` (an English msgid) in this language, with ``params`` filled in."""
        return self._catalogue.gettext(message).format(**params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        """As :meth:`gettext`, for a short msgid whose meaning depends on ``context`` (a button, a level)."""
        return str(self._catalogue.pgettext(context, message)).format(**params)

    def ngettext(self, singular: str, plural: str, count: int, /, **params: object) -> str:
        """The form for ``count`` of a message that counts something; ``{count}`` is the formatted number."""
        params.setdefault("count", self.number(count))
        return self._catalogue.ngettext(singular, plural, count).format(**params)

    def plural(self, message: Plural, count: int, /, **params: object) -> str:
        """:meth:`ngettext` for a message marked with :func:`bot.i18n.N_plural` away from here."""
        return self.ngettext(message.singular, message.plural, count, **params)

    def message(
        self,
        template: str,
        params: Mapping[str, object],
        *,
        plural: str | None = None,
        count: int | None = None,
    ) -> str:
        """A message defined elsewhere with its params (a service's refusal): plural when it counts."""
        if plural is not None and count is not None:
            return self.ngettext(template, plural, count, **params)
        return self.gettext(template, **params)

    def number(self, value: float, *, grouping: bool = True) -> str:
        """A number as this language writes it (``1,234`` in English, ``1.234`` in German).

        ``grouping=False`` leaves out the thousands separator, for numbers people read as a code
        rather than a quantity (a rating of 1500).
        """
        return format_decimal(value, locale=self.language.babel, group_separator=grouping)

    def relative(self, delta: timedelta) -> str:
        """A moment as seen from now: ``in 2 minutes`` for a future one, ``3 hours ago`` for a past one."""
        return format_timedelta(delta, add_direction=True, granularity="second", locale=self.language.babel)

    def duration(self, delta: timedelta) -> str:
        """A length of time, rounded as people say it: ``2 minutes``, ``1 hour``."""
        return format_timedelta(delta, granularity="second", locale=self.language.babel)


@cache
def texts_for(language: Language) -> Texts:
    """The texts of ``language``."""
    return Texts(language, translations(language))


def texts_for_locale(locale: str | None) -> Texts:
    """The texts for a Discord or POSIX locale; a language the bot does not speak gets English."""
    return texts_for(from_locale(locale))
