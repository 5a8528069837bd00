"""The games extension: ``/ttt`` commands, persistent board buttons and the deadline sweeper.

Loaded by :class:`bot.bot.TicTacToeBot` with ``load_extension("bot.exts.games")``.
"""

from __future__ import annotations

from discord.ext import commands

from bot.bot import TicTacToeBot
from bot.exts.games.cog import GamesCog
from bot.exts.games.views import DYNAMIC_ITEMS


async def setup(bot: commands.Bot) -> None:
    """Load the games cog and register the persistent buttons (discord.py's extension hook)."""
    if not isinstance(bot, TicTacToeBot):
        raise TypeError("The games extension needs a TicTacToeBot, which brings the game service.")
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(GamesCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Unregister the persistent buttons (discord.py's extension hook)."""
    bot.remove_dynamic_items(*DYNAMIC_ITEMS)
