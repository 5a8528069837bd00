"""The buttons' extension: every click on a game's button reaches the bot's click handler from here,
and clicks no button takes are answered.

A game's buttons are not discord.py items it dispatches (see :mod:`bot.exts.games.views`): this
listener reads the click's custom id, and hands a click on a button the clicked message has to the
bot's click handler (:attr:`bot.bot.TicTacToeBot.click_handler`, which the games cog sets while it
is loaded). The arenas' lobby buttons are discord.py's persistent items, registered here too.

Loaded as the bot connects, before the game service opens (the games cog, loaded after,
needs the service): a click that arrives meanwhile waits at the bot's gate (:mod:`bot.shutdown`)
until the service is open.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.bot import Interaction, TicTacToeBot
from bot.exts.games.arena_buttons import ArenaButton, is_arena_button
from bot.exts.games.audience import personal
from bot.exts.games.custom_ids import Click, parse_custom_id
from bot.exts.games.render.answers import NOT_THIS_GAME, STALE_BUTTON, UNAVAILABLE
from bot.exts.games.respond import custom_id_of, tell
from bot.exts.games.views import has_button, shown_game
from bot.notice import Notice, notice_view

log = logging.getLogger(__name__)


async def take_click(interaction: Interaction) -> None:
    """Hand a click on a game's button to the click handler; answer clicks no button will take.

    A click is taken only when the clicked message has a button with its id; every other id (forged,
    or of a button the message no longer has) is answered here and acts on nothing.
    """
    if interaction.type is not discord.InteractionType.component:
        return
    custom_id = custom_id_of(interaction) or ""
    if is_arena_button(custom_id) and has_button(interaction.message, custom_id):
        return
    click = parse_custom_id(custom_id)
    bot = interaction.client
    if not await bot.gate.admit(interaction):
        return
    if click is not None and has_button(interaction.message, custom_id):
        await _hand_over(bot, interaction, click)
        return
    shown = shown_game(interaction.message)
    foreign = click is not None and shown is not None and shown != click.game_id
    async with bot.inflight.track():
        try:
            message = NOT_THIS_GAME if foreign else STALE_BUTTON
            await tell(interaction, personal(interaction).gettext(message), Notice.REFUSAL)
        except discord.HTTPException as error:
            log.warning("Could not answer an unknown button %r: %s", custom_id, error)


async def _hand_over(bot: TicTacToeBot, interaction: Interaction, click: Click) -> None:
    """Give the click to the bot's click handler, or say the game is unavailable while there is none."""
    handler = bot.click_handler
    if handler is not None:
        await handler(interaction, click)
    elif not interaction.response.is_done():
        await interaction.response.send_message(
            view=notice_view(personal(interaction).gettext(UNAVAILABLE), Notice.OUTAGE), ephemeral=True
        )


async def setup(bot: commands.Bot) -> None:
    """Register the clicks' listener and the arenas' buttons (discord.py's extension hook)."""
    if not isinstance(bot, TicTacToeBot):
        raise TypeError("The buttons' extension needs a TicTacToeBot, which brings the gate.")
    bot.add_dynamic_items(ArenaButton)
    bot.add_listener(take_click, "on_interaction")


async def teardown(bot: commands.Bot) -> None:
    """Unregister them (discord.py's extension hook)."""
    bot.remove_listener(take_click, "on_interaction")
    bot.remove_dynamic_items(ArenaButton)
