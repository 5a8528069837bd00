"""The languages the bot speaks, and which of them a Discord or terminal locale asks for.

A language's ``code`` is Discord's name for it (``de``, ``es-419``, ``pt-BR``; ``en`` for
English), which is also what the database stores for a server's chosen language and for the
locale of a game's starter. ``catalogue`` names its folder under ``bot/locales`` and
``babel`` the CLDR locale that formats its numbers and times.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Language:
    """A language the bot speaks: its Discord locale, catalogue folder and Babel locale."""

    code: str
    catalogue: str
    babel: str
    native_name: str


ENGLISH = Language("en", "en", "en", "English")
LANGUAGES: tuple[Language, ...] = (
    ENGLISH,
    Language("de", "de", "de", "Deutsch"),
    Language("fr", "fr", "fr", "Français"),
    Language("es-ES", "es_ES", "es_ES", "Español (España)"),
    Language("es-419", "es_419", "es_419", "Español (Latinoamérica)"),
    Language("pt-BR", "pt_BR", "pt_BR", "Português (Brasil)"),
    Language("ja", "ja", "ja", "日本語"),
    Language("ru", "ru", "ru", "Русский"),
    Language("pl", "pl", "pl", "Polski"),
    Language("tr", "tr", "tr", "Türkçe"),
    Language("it", "it", "it", "Italiano"),
    Language("nl", "nl", "nl", "Nederlands"),
    Language("uk", "uk", "uk", "Українська"),
    Language("ko", "ko", "ko", "한국어"),
    Language("zh-CN", "zh_CN", "zh_Hans_CN", "中文（简体）"),
    Language("zh-TW", "zh_TW", "zh_Hant_TW", "中文（繁體）"),
    Language("id", "id", "id", "Bahasa Indonesia"),
)
"""Every language the bot speaks, English (the source and the fallback) first."""

TRANSLATED: tuple[Language, ...] = LANGUAGES[1:]
"""The languages with a catalogue of translations (English is the messages' own language)."""

_BY_CODE = {language.code.lower(): language for language in LANGUAGES}


def by_code(code: str | None) -> Language | None:
    """The language stored or chosen as ``code`` (``de``, ``pt-BR``), or None for an unknown one."""
    return None if code is None else _BY_CODE.get(code.lower())


def from_locale(locale: str | None) -> Language:
    """The language for a Discord locale (``de``, ``en-GB``, ``es-419``) or a POSIX one (``de_DE.UTF-8``).

    An exact match wins; then the language alone: any Spanish outside Spain is Latin American
    Spanish, any Portuguese is Brazilian, Chinese in Traditional script (``zh-Hant``, or Taiwan,
    Hong Kong, Macao) is ``zh-TW`` and any other Chinese ``zh-CN``. Anything else, or nothing,
    is English.
    """
    if not locale:
        return ENGLISH
    name = locale.split(".", 1)[0].split("@", 1)[0].replace("_", "-").strip()
    exact = _BY_CODE.get(name.lower())
    if exact is not None:
        return exact
    language, _, region = name.partition("-")
    language = language.lower()
    if language == "es":
        return _BY_CODE["es-es"] if region.upper() in ("", "ES") else _BY_CODE["es-419"]
    if language == "pt":
        return _BY_CODE["pt-br"]
    if language == "zh":
        traditional = {part.upper() for part in region.split("-")} & {"HANT", "TW", "HK", "MO"}
        return _BY_CODE["zh-tw"] if traditional else _BY_CODE["zh-cn"]
    return _BY_CODE.get(language, ENGLISH)


TERMINAL_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Where the terminal's language comes from, first set one first, as for any POSIX program's messages."""


def from_environment(environ: Mapping[str, str] | None = None) -> Language:
    """The terminal's language from ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` (``C`` is English)."""
    environ = os.environ if environ is None else environ
    for variable in TERMINAL_VARIABLES:
        value = environ.get(variable, "").strip()
        if value:
            return ENGLISH if value in ("C", "POSIX") or value.startswith("C.") else from_locale(value)
    return ENGLISH
