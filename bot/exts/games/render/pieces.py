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
