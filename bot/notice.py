"""A private answer of a sentence or two as a Components V2 card: one container whose accent colour
says what kind of answer it is, around one text display.

Every answer only one user sees (a refusal, an apology, a confirmation, "I'm restarting") looks
like the bot's other cards. It lives beside the interaction gate (:mod:`bot.shutdown`), not in the
games' ``render`` package, because the gate answers while the games extension is not loaded.
"""

from __future__ import annotations

import enum

import discord


class Notice(enum.Enum):
    """What a private answer is, by its accent colour."""

    CONFIRMATION = discord.Colour.blurple().value
    """What the user asked for was done (a move played, a resignation, a settings change)."""
    REFUSAL = discord.Colour.red().value
    """What the user asked for was not done, and why (a rule, an outdated button, a bad option)."""
    OUTAGE = discord.Colour.dark_grey().value
    """The bot could not do it right now (restarting, the database away, a failure): try again."""


def notice_view(text: str, kind: Notice) -> discord.ui.LayoutView:
    """The card of a private answer: ``text`` (markdown) in a container of ``kind``'s colour."""
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        discord.ui.TextDisplay(text), accent_colour=discord.Colour(kind.value)
    )
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view
