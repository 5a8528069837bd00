"""The board's themes on Discord: their pieces as the application's own emoji, uploaded at start-up.

A theme's pieces are two application emoji named ``<theme>_x`` and ``<theme>_o`` (see
:mod:`bot.pictures.pieces`), usable in every server, DM and group DM the app reaches, user
installs included. At start-up the bot lists its application's emoji once and uploads only
those missing, so restarts upload nothing. Until a theme's two emoji are known, and for good
when an upload fails (said in the log), its boards show the Unicode pieces ❌ and ⭕.
"""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import discord

from bot.exts.games.render.pieces import UNICODE_PIECES, Pieces
from bot.services import DEFAULT_THEME, THEMES

log = logging.getLogger(__name__)

DRAWN_THEMES = tuple(theme for theme in THEMES if theme != DEFAULT_THEME)
"""The themes whose pieces are the application's emoji (the default one uses Unicode)."""


def _drawn(theme: str, mark: str) -> bytes:
    """A piece's PNG. Pillow is imported only here, when a piece must be uploaded (a first start):
    the bot's process loads no picture library otherwise."""
    from bot.pictures.pieces import piece_png

    return piece_png(theme, mark)


def emoji_name(theme: str, mark: str) -> str:
    """The name of a theme's piece: ``<theme>_x`` or ``<theme>_o``."""
    return f"{theme}_{mark}"


class ThemePieces:
    """The pieces of every theme, as far as their emoji are known; the Unicode ones meanwhile."""

    def __init__(self) -> None:
        self._pieces: dict[str, Pieces] = {DEFAULT_THEME: UNICODE_PIECES}

    def of(self, theme: str | None) -> Pieces:
        """The pieces boards of ``theme`` show now (None: the default theme)."""
        return self._pieces.get(theme or DEFAULT_THEME, UNICODE_PIECES)

    async def upload(self, client: discord.Client) -> None:
        """Make sure every drawn theme's emoji exist: list the application's emoji, upload the missing.

        A theme whose emoji cannot all be had keeps the Unicode pieces, and the log says why.
        """
        try:
            existing = {emoji.name: emoji for emoji in await client.fetch_application_emojis()}
        except (discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("Could not list the application's emoji; every theme shows ❌ and ⭕: %r", error)
            return
        for theme in DRAWN_THEMES:
            found: dict[str, discord.Emoji] = {}
            try:
                for mark in ("x", "o"):
                    name = emoji_name(theme, mark)
                    emoji = existing.get(name)
                    if emoji is None:
                        image = await asyncio.to_thread(_drawn, theme, mark)
                        emoji = await client.create_application_emoji(name=name, image=image)
                        log.info("Uploaded the application emoji %s", name)
                    found[mark] = emoji
            except (discord.HTTPException, aiohttp.ClientError) as error:
                log.warning("Could not upload the pieces of theme %s; it shows ❌ and ⭕: %r", theme, error)
                continue
            self._pieces[theme] = Pieces(
                discord.PartialEmoji(name=found["x"].name, id=found["x"].id),
                discord.PartialEmoji(name=found["o"].name, id=found["o"].id),
            )
