"""discord.py extensions loaded by :class:`bot.bot.TicTacToeBot`."""
