"""A board's button clicked while the games cog is not loaded (the buttons are registered apart from it).

The bot here is the real :class:`TicTacToeBot` with the real buttons, run in this process against the
emulator, but without the games extension: no click handler is registered, so a click is answered
privately, in the clicker's language, and acts on nothing.
"""

from __future__ import annotations

import pytest

from bot.bot import BUTTONS_EXTENSION, TicTacToeBot
from bot.config import Settings
from bot.exts.games.custom_ids import Action, Click
from discord_emulator import DiscordEmulator
from discord_emulator.fixtures import discord_py_on_emulator, emulator, running
from tests.support.tables import private_answer

__all__ = ["discord_py_on_emulator", "emulator"]

pytestmark = pytest.mark.e2e


class BotWithButtonsOnly(TicTacToeBot):
    """The bot with its buttons' extension loaded and nothing else (no service, no cog)."""

    async def setup_hook(self) -> None:
        await self.load_extension(BUTTONS_EXTENSION)


async def test_a_click_without_the_games_cog_is_turned_away_in_the_clickers_language(
    discord_py_on_emulator: DiscordEmulator,
) -> None:
    emu = discord_py_on_emulator
    guild = emu.create_guild("Arena")
    channel = emu.channel(guild)
    alice = emu.create_member(guild, "alice")
    cell = Click(Action.CELL, 7, 0, 4).custom_id
    button = {"type": 2, "style": 2, "label": "b2", "custom_id": cell}
    board = emu.world.post_message(channel, {"components": [{"type": 1, "components": [button]}]})
    bot = BotWithButtonsOnly(Settings(_env_file=None))
    async with running(bot, emu.token):
        await emu.wait_until_ready()
        assert bot.click_handler is None
        refused = await private_answer(await emu.click(board, cell, alice, locale="fr"))
    assert refused == "Le jeu n’est pas disponible pour l’instant. Réessaie dans un instant."
    assert board.version == 0, "the board is left as it was"
