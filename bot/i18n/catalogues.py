"""Loading a language's gettext catalogue from ``bot/locales/<catalogue>/LC_MESSAGES``.

The build compiles each ``messages.po`` into ``messages.mo`` (``make`` for a checkout, the
package build for a wheel) and the compiled file is what is read. A checkout whose ``.po``
is newer than its ``.mo``, or has none yet, gets the ``.po`` compiled in memory instead, so a
translator's edit shows at once and a missing build step never means English by surprise.
"""

from __future__ import annotations

import io
import logging
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from bot.i18n.languages import ENGLISH, Language

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "messages"


def catalogue_folder(language: Language, root: Path = LOCALES_DIR) -> Path:
    """The folder of ``language``'s compiled catalogue under ``root``."""
    return root / language.catalogue / "LC_MESSAGES"


@cache
def translations(language: Language) -> NullTranslations:
    """The language's compiled messages; English (the source language) needs none."""
    if language == ENGLISH:
        return NullTranslations()
    folder = catalogue_folder(language)
    compiled, source = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    if compiled.exists() and (not source.exists() or compiled.stat().st_mtime >= source.stat().st_mtime):
        with compiled.open("rb") as file:
            return Translations(file, domain=DOMAIN)
    if source.exists():
        log.debug("Compiling %s in memory (no up-to-date %s)", source, compiled.name)
        return Translations(io.BytesIO(compile_po(source, language)), domain=DOMAIN)
    log.warning("No catalogue for %s in %s; its users get English", language.code, folder)
    return NullTranslations()


def compile_po(source: Path, language: Language) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file; fuzzy (unreviewed) translations are left out."""
    with source.open("rb") as file:
        catalogue = read_po(file, locale=language.babel)
    buffer = io.BytesIO()
    write_mo(buffer, catalogue, use_fuzzy=False)
    return buffer.getvalue()
