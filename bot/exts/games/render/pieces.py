"""The pieces a board shows on its played cells: an emoji for X and one for O.

By default the Unicode emoji ❌ and ⭕; a theme (see :mod:`bot.exts.games.themes`) brings the
application's own emoji, named ``<theme>_x`` and ``<theme>_o``, so that anyone reading a board
(a person, a screen reader, another program) can tell the pieces by their names.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.engine import Mark
from bot.exts.games.render.common import MARK_EMOJI
from bot.i18n import N_, Texts


@dataclass(frozen=True, slots=True)
class Pieces:
    """The emoji of X and of O."""

    x: discord.PartialEmoji
    o: discord.PartialEmoji

    def of(self, mark: Mark) -> discord.PartialEmoji:
        """The emoji of ``mark``."""
        return self.x if mark is Mark.X else self.o

    def text(self, mark: Mark) -> str:
        """The emoji of ``mark`` with its letter, as written in a message (``❌ X``)."""
        return f"{self.of(mark)} {mark.value}"


UNICODE_PIECES = Pieces(
    discord.PartialEmoji(name=MARK_EMOJI[Mark.X]), discord.PartialEmoji(name=MARK_EMOJI[Mark.O])
)
"""❌ and ⭕: the pieces every theme falls back to."""

THEME_NAMES = {
    # Translators: a theme of the board's pieces: the emoji ❌ and ⭕.
    "classic": N_("classic"),
    # Translators: a theme of the board's pieces: black and white, thick, readable without colour.
    "contrast": N_("high contrast"),
    # Translators: a theme of the board's pieces: glowing pink and cyan lines.
    "neon": N_("neon"),
    # Translators: a theme of the board's pieces: as if drawn in chalk on a green board.
    "chalk": N_("chalk"),
    # Translators: a theme of the board's pieces: white on red and blue tiles.
    "candy": N_("candy"),
}
"""Every theme's name, as its choice in ``/ttt settings`` and ``/ttt start`` says it."""


def theme_name(texts: Texts, theme: str) -> str:
    """A theme's name in the reader's language."""
    return texts.gettext(THEME_NAMES.get(theme, THEME_NAMES["classic"]))
