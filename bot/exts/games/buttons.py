"""The persistent buttons' extension: the board's buttons, and the answer to clicks no button takes.

Loaded as the bot connects, before the game service opens (the games cog, loaded after,
needs the service): a click that arrives meanwhile is taken by its button at once and
waits at the bot's gate (:mod:`bot.shutdown`) until the service is open.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.bot import Interaction, TicTacToeBot
from bot.exts.games.arena_buttons import ArenaButton, is_arena_button
from bot.exts.games.audience import personal
from bot.exts.games.custom_ids import parse_custom_id
from bot.exts.games.render.answers import NOT_THIS_GAME, STALE_BUTTON
from bot.exts.games.respond import custom_id_of, tell
from bot.exts.games.views import DYNAMIC_ITEMS, has_button, shown_game
from bot.notice import Notice

log = logging.getLogger(__name__)


async def answer_unknown_button(interaction: Interaction) -> None:
    """Answer clicks no button will take: ids the message does not have (forged, or from an old bot).

    discord.py hands a click to a button only when the clicked message has a button
    with that id; every other click is answered here and acts on nothing.
    """
    if interaction.type is not discord.InteractionType.component:
        return
    custom_id = custom_id_of(interaction) or ""
    if is_arena_button(custom_id) and has_button(interaction.message, custom_id):
        return
    click = parse_custom_id(custom_id)
    if click is not None and has_button(interaction.message, custom_id):
        return
    bot = interaction.client
    if not await bot.gate.admit(interaction):
        return
    shown = shown_game(interaction.message)
    foreign = click is not None and shown is not None and shown != click.game_id
    async with bot.inflight.track():
        try:
            message = NOT_THIS_GAME if foreign else STALE_BUTTON
            await tell(interaction, personal(interaction).gettext(message), Notice.REFUSAL)
        except discord.HTTPException as error:
            log.warning("Could not answer an unknown button %r: %s", custom_id, error)


async def setup(bot: commands.Bot) -> None:
    """Register the persistent buttons and the answer to unknown ones (discord.py's extension hook)."""
    if not isinstance(bot, TicTacToeBot):
        raise TypeError("The buttons' extension needs a TicTacToeBot, which brings the gate.")
    bot.add_dynamic_items(*DYNAMIC_ITEMS, ArenaButton)
    bot.add_listener(answer_unknown_button, "on_interaction")


async def teardown(bot: commands.Bot) -> None:
    """Unregister them (discord.py's extension hook)."""
    bot.remove_listener(answer_unknown_button, "on_interaction")
    bot.remove_dynamic_items(*DYNAMIC_ITEMS, ArenaButton)
