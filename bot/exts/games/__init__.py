"""The games extension: ``/ttt`` commands, the clicks' handler and the deadline sweeper.

Loaded by :class:`bot.bot.TicTacToeBot` with ``load_extension("bot.exts.games")`` once the game
service is open; the persistent buttons are registered before, by :mod:`bot.exts.games.buttons`.
"""

from __future__ import annotations

from discord.ext import commands

from bot.bot import TicTacToeBot
from bot.exts.games.cog import GamesCog


async def setup(bot: commands.Bot) -> None:
    """Load the games cog (discord.py's extension hook)."""
    if not isinstance(bot, TicTacToeBot):
        raise TypeError("The games extension needs a TicTacToeBot, which brings the game service.")
    await bot.add_cog(GamesCog(bot))
